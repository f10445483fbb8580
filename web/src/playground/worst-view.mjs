// @ts-check
// The Worst case card: the bounded path's sum, term by term, as the core
// computed it (view.worstCase: core/systems/backoff.h WorstCasePath, its leases
// and each run of retry delays with the class that gives it), and beside each
// term what the job furthest along actually spent so far, read off the
// timeline's events. It draws; the worst case itself is the core's.
import { h } from '../shared/dom.mjs';
import { setText } from './regions.mjs';
import { ms, grouped } from '../shared/time-format.mjs';

const plural = (n, one, many = `${one}s`) => `${grouped(n)} ${n === 1 ? one : many}`;

/**
 * The paths jobs have taken so far, fed the timeline's events in order (a step
 * feeds only its new events; a cursor moved back or a changed script starts it
 * over). Each job's path restarts at its replay.
 */
export class PathTracker {
  #jobs = new Map();
  upTo = 0;  // events fed so far

  reset() {
    this.#jobs.clear();
    this.upTo = 0;
  }

  /** Feeds events[upTo … to). */
  feed(events, to) {
    for (; this.upTo < to; this.upTo++) this.#take(events[this.upTo]);
  }

  #take(e) {
    const jobs = this.#jobs;
    if (e.kind === 'replayed') { jobs.delete(e.id); return; }
    let job = jobs.get(e.id);
    const starts = e.kind === 'leased' || (e.kind === 'attempt' && e.token === undefined);
    if (!job && !starts) return;
    if (!job) {
      job = { id: e.id, attempts: 0, leases: [], open: new Map(), delays: new Map(), start: e.time, end: null, endKind: null };
      jobs.set(e.id, job);
    }
    if (starts) job.attempts = Math.max(job.attempts, e.attempts);
    if (e.kind === 'leased') job.open.set(e.token, e.time);
    if ((e.kind === 'attempt' || e.kind === 'expired') && e.token !== undefined && job.open.has(e.token)) {
      job.leases.push(e.time - job.open.get(e.token));
      job.open.delete(e.token);
    }
    if (e.kind === 'attempt' && e.token === undefined) job.leases.push(0);  // a Step: an attempt with no lease time
    if (e.kind === 'delayed') job.delays.set(e.attempts, e.delayMs);
    if (e.kind === 'quarantined' || e.kind === 'completed') { job.end = e.time; job.endKind = e.kind; }
  }

  /**
   * The job furthest along: the most attempts since its last replay (the
   * earliest to start on a tie), or null before any attempt. { id, attempts,
   * leases: [ms] (a lease still running counts up to `now`), delays: Map(after
   * attempt -> ms), start, end (null: still going), endKind }.
   */
  furthest(now) {
    let best = null;
    for (const job of this.#jobs.values()) if (!best || job.attempts > best.attempts) best = job;
    if (!best) return null;
    return { ...best, leases: [...best.leases, ...[...best.open.values()].map((since) => now - since)] };
  }
}

/** The path of the job furthest along in `events` (all of them), as PathTracker.furthest() gives it. */
export function actualPath(events, now) {
  const tracker = new PathTracker();
  tracker.feed(events, events.length);
  return tracker.furthest(now);
}

/** "after attempt 2", "after attempts 3–4". */
const afterText = (d) => (d.firstAttempt === d.lastAttempt ? `after attempt ${d.firstAttempt}`
  : `after attempts ${d.firstAttempt}–${d.lastAttempt}`);

export class WorstCaseView {
  #signature = '';
  #tracker = new PathTracker();

  constructor(id) {
    const headingId = `${id}-worst-h`;
    this.text = h('p', { class: 'dlq-worst-text' });
    this.body = h('tbody', {});
    this.actualHead = h('th', { scope: 'col' }, 'Actual so far');
    // Focusable, so that a narrow screen's sideways scroll is reached by the keyboard too; its caption names it
    // (a named region per playground would repeat one landmark name on a lesson page).
    this.table = h('table', { class: 'dlq-worst-terms', tabindex: 0 },
      h('caption', {}, 'Where the sum comes from'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Term'), h('th', { scope: 'col' }, 'Worst case'), this.actualHead)),
      this.body);
    this.element = h('section', { class: 'dlq-panel dlq-state dlq-worst', 'aria-labelledby': headingId, hidden: true },
      h('div', { class: 'dlq-panel-head' }, h('h2', { id: headingId }, 'Worst case')), this.text,
      h('div', { class: 'dlq-table-scroll' }, this.table));
  }

  /** Not drawn for a while (no clock): the next sync traces from the start. */
  forget() {
    this.#tracker.reset();
  }

  /**
   * Draws the bounded path `w` (the core's: session.worstCase() over what this playground can meet,
   * or view.worstCase) beside the path of the job furthest along (view.timeline up to the cursor; a
   * step reads only its new events).
   */
  sync(view, w = view.worstCase) {
    const at = view.eventsAtCursor;
    if (view.eventsFrom < this.#tracker.upTo || at < this.#tracker.upTo) this.#tracker.reset();
    this.#tracker.feed(view.timeline, at);
    const path = this.#tracker.furthest(view.stats.now);
    const text = (w.unbounded
      ? 'No bound: with the count in the message body a crash is never counted, so a job whose worker keeps crashing '
        + `is leased again forever. Any other failure: at most ${plural(w.attempts, 'attempt')} and ${ms(w.timeMs)} `
      : `A job is attempted at most ${plural(w.attempts, 'time')} and spends at most ${ms(w.timeMs)} `)
      + 'from its first lease to quarantine: every lease running to its expiry, and after each failed attempt the longest '
      + 'wait any class that still retries could give.';
    const head = path ? `Actual so far: "${path.id}"` : 'Actual so far';
    const leaseActual = path ? `${ms(path.leases.reduce((a, b) => a + b, 0))} (${plural(path.leases.length, 'attempt')})` : '—';
    const rows = [[
      `${plural(w.attempts, 'lease')} of ${ms(w.leaseMs)} (leaseMs; the budget is ${w.attemptsClass}’s)`,
      ms(w.attempts * w.leaseMs), leaseActual,
    ]];
    // BullMQ's stall budget: stalls it does not count, each a lease run to its expiry (the core's `stalls` term).
    if (w.stalls > 0) {
      rows.push([`${plural(w.stalls, 'stall')} of ${ms(w.leaseMs)} (maxStalledCount; a stall is not counted)`,
        ms(w.stalls * w.leaseMs), '—']);
    }
    // The job's actual waits, bucketed by the run of attempts each follows.
    const actual = w.delays.map(() => []);
    for (const [after, delay] of path ? path.delays : []) {
      const run = w.delays.findIndex((d) => d.firstAttempt <= after && after <= d.lastAttempt);
      if (run >= 0) actual[run].push([after, delay]);
    }
    w.delays.forEach((d, i) => {
      const n = d.lastAttempt - d.firstAttempt + 1;
      const from = `${d.class}, ${d.ownBackoff ? 'its own backoff' : 'the policy’s backoff'}`;
      const waits = actual[i].sort((x, y) => x[0] - y[0]).map(([, delay]) => ms(delay));
      rows.push([
        `Wait ${afterText(d)}${n > 1 ? `, ${ms(d.delayMs)} each` : ''} (${from})`,
        ms(n * d.delayMs),
        waits.length === 0 ? '—' : waits.length > 4 ? `${waits.slice(0, 3).join(' + ')} + … (${waits.length} waits)` : waits.join(' + '),
      ]);
    });
    const elapsed = path ? `${ms((path.end ?? view.stats.now) - path.start)}${path.end === null ? ' so far' : `, to ${path.endKind === 'completed' ? 'completion' : 'quarantine'}`}` : '—';
    rows.push(['Total', w.unbounded ? `no bound (crashes); ${ms(w.timeMs)} otherwise` : ms(w.timeMs), elapsed]);
    const signature = JSON.stringify([text, head, rows]);
    if (signature === this.#signature) return;
    this.#signature = signature;
    setText(this.text, text);
    setText(this.actualHead, head);
    this.body.replaceChildren(...rows.map((cells, i) => h('tr', { class: i === rows.length - 1 ? 'is-total' : '' },
      h('th', { scope: 'row' }, cells[0]), h('td', {}, cells[1]), h('td', {}, cells[2]))));
  }
}
