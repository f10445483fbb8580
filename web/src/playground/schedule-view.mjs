// @ts-check
// The "Retry schedule" card: the playground's policy as the core's
// retrySchedule() computes it (core/systems/schedule.h) — each attempt of a job
// that keeps failing transiently, the delay after it and when the next starts
// (min · median · p99 under the jitter, seeded; one exact value without), and
// how likely the budget is to outlast an outage of a length the reader picks.
// A view: it draws the table the controller hands it and reports the outage
// length typed (bindOutage); no number is computed here.
import { h } from '../shared/dom.mjs';
import { grouped, ms } from '../shared/time-format.mjs';

// Made on first use, not as the page starts (see shared/time-format.mjs).
let percent = null;
const PERCENT = () => (percent ??= new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 }));

/** A spread in words: one value when min and p99 agree, else "min · median · p99". */
function spread(sp, exact) {
  if (exact || (sp.min === sp.max)) return ms(sp.median);
  return `${ms(sp.min)} · ${ms(sp.median)} · ${ms(sp.p99)}`;
}

export class ScheduleCard {
  /** @type {(ms: number) => void} */
  #onOutage = () => {};
  #outageTyped = false;

  constructor(idPrefix) {
    const headingId = `${idPrefix}-sched-h`;
    const inputId = `${idPrefix}-sched-outage`;
    this.summary = h('p', { class: 'dlq-sched-summary' });
    this.head = h('tr');
    this.body = h('tbody');
    // Focusable, so that a narrow screen's sideways scroll (a lease's 30,000 ms starts are wide) is reached by the keyboard too.
    this.table = h('table', { class: 'dlq-sched-table', 'aria-labelledby': headingId, tabindex: 0 },
      h('thead', {}, this.head), this.body);
    this.input = h('input', { id: inputId, type: 'number', min: 0, step: 100, inputmode: 'numeric', class: 'dlq-sched-input' });
    this.answer = h('p', { class: 'dlq-sched-answer', 'aria-live': 'polite' });
    this.error = h('p', { class: 'dlq-field-error', role: 'alert', hidden: true });
    this.element = h('section', { class: 'dlq-panel dlq-state dlq-sched', 'aria-labelledby': headingId, hidden: true },
      h('div', { class: 'dlq-panel-head' }, h('h2', { id: headingId }, 'Retry schedule')),
      this.summary,
      h('div', { class: 'dlq-sched-scroll' }, this.table),
      h('p', { class: 'dlq-sched-outage' },
        h('label', { for: inputId }, 'Does the budget outlast an outage of '), this.input, ' ms?'),
      this.answer, this.error);
    const report = () => {
      this.#outageTyped = true;
      this.#onOutage(this.input.value === '' ? Number.NaN : Number(this.input.value));
    };
    this.input.addEventListener('change', report);
    this.input.addEventListener('input', report);
  }

  /** `handler(ms)`: the reader typed an outage length (NaN for an empty field: the core refuses it by name). */
  bindOutage(handler) { this.#onOutage = handler; }

  /** The outage length to ask the core about: the reader's, else `suggested` (the world's outage). */
  outageMs(suggested) {
    if (!this.#outageTyped) this.input.value = String(suggested);
    return this.input.value === '' ? Number.NaN : Number(this.input.value);
  }

  show(visible) {
    if (this.element.hidden === visible) this.element.hidden = !visible;
  }

  /** Draws the core's answer (lab.retrySchedule()); `leases`: it was asked to count each lease to its expiry. */
  render(table, { leases = false } = {}) {
    this.error.hidden = true;
    const { exact, attemptMs } = table;
    const each = leases ? `, each holding its ${ms(attemptMs)} lease until it expires`
      : attemptMs > 0 ? `, each taking ${ms(attemptMs)}` : '';
    this.summary.textContent = `${table.attempts === 1 ? 'One attempt' : `${grouped(table.attempts)} attempts`} for a job that keeps `
      + `failing transiently${each}. `
      + (exact ? 'No jitter: every run is the same.'
        : `Under its jitter, min · median · p99 of ${grouped(table.samples)} seeded runs.`);
    const unit = exact ? '' : ' (min · median · p99)';
    this.head.replaceChildren(...['Attempt', `Delay after it${unit}`, `Starts at${unit}`].map((t) => h('th', { scope: 'col' }, t)));
    const rows = table.rows.map((r) => this.#row(r, exact));
    if (table.attempts > table.rows.length) {
      rows.push(h('tr', { class: 'dlq-sched-gap' },
        h('td', { colspan: 3 }, `… attempts ${grouped(table.rows.length + 1)} to ${grouped(table.attempts - 1)} not shown …`)));
      rows.push(this.#row(table.last, exact));
    }
    this.body.replaceChildren(...rows);
    const { outage, total } = table;
    const finish = spread(total, exact);
    let text;
    if (exact) {
      text = outage.probability === 1
        ? `Yes: the last attempt finishes at ${finish}, after a ${ms(outage.ms)} outage.`
        : `No: the last attempt finishes at ${finish}, inside a ${ms(outage.ms)} outage; the job is quarantined as exhausted.`;
    } else {
      text = `Yes in ${PERCENT().format(outage.probability)} of the runs (${grouped(outage.outlasting)} of ${grouped(table.samples)}): `
        + `the last attempt finishes at ${finish} (min · median · p99).`;
    }
    this.answer.textContent = text;
    this.element.dataset.probability = String(outage.probability);
  }

  /** The core refused the question (the outage length typed): its words, by name. */
  renderError(message) {
    this.error.textContent = message;
    this.error.hidden = false;
    this.answer.textContent = '';
  }

  #row(row, exact) {
    return h('tr', {},
      h('th', { scope: 'row' }, grouped(row.attempt)),
      h('td', {}, row.delay === null ? '— (quarantine)' : spread(row.delay, exact)),
      h('td', {}, spread(row.start, exact)));
  }
}
