// @ts-check
// The side-effect ledger (core/queue/ledger.h, the session view's `ledger`):
// what the outside world saw of the attempts, next to what the queue decided.
// One row per charge in timeline order: the job, its attempt, when, whether the
// payment side applied it or deduplicated it by its idempotency key, and whether
// the worker died after charging; above it, the core's totals and the jobs that
// are dead yet charged (partial) or charged more than once (duplicates). Shown
// only while the policy charges (effects.charge). Draws; decides nothing.
import { h } from '../shared/dom.mjs';
import { ms } from '../shared/time-format.mjs';

const quotedIds = (ids) => ids.map((id) => `"${id}"`).join(', ');

export class LedgerView {
  #signature = '';

  constructor({ idPrefix }) {
    const headingId = `${idPrefix}-ledger-h`;
    this.summary = h('p', { class: 'dlq-ledger-summary', role: 'status' });
    this.body = h('tbody');
    this.table = h('table', { class: 'dlq-ledger-table' },
      h('caption', { class: 'dlq-ledger-caption' }, 'Charges, in the order they were made'),
      h('thead', {}, h('tr', {}, ...['Job', 'Attempt', 'At', 'Payment side', 'Then'].map((c) => h('th', { scope: 'col' }, c)))),
      this.body);
    this.element = h('section', { class: 'dlq-panel dlq-state dlq-ledger', 'aria-labelledby': headingId, hidden: true },
      h('div', { class: 'dlq-panel-head' }, h('h2', { id: headingId }, 'Side-effect ledger')),
      this.summary, h('div', { class: 'dlq-ledger-scroll' }, this.table));
  }

  /** `ledger`: the session view's; `clock`: show times. */
  render(ledger, { clock = false } = {}) {
    this.element.hidden = !ledger.on;
    if (!ledger.on) return;
    const signature = JSON.stringify([ledger, clock]);
    if (signature === this.#signature) return;
    this.#signature = signature;
    const parts = [`${ledger.applied} charge${ledger.applied === 1 ? '' : 's'} applied`];
    if (ledger.keyed) parts.push(`${ledger.deduplicated} deduplicated by the idempotency key`);
    parts.push(ledger.duplicates === 0 ? 'no duplicates'
      : `${ledger.duplicates} duplicate${ledger.duplicates === 1 ? '' : 's'} (${quotedIds(ledger.duplicateIds)} charged more than once)`);
    parts.push(ledger.partial === 0 ? 'no partial effects'
      : `${ledger.partial} partial (${quotedIds(ledger.partialIds)} dead, yet charged)`);
    this.summary.textContent = `${parts.join('; ')}.`;
    this.body.replaceChildren(...(ledger.charges.length === 0
      ? [h('tr', {}, h('td', { colspan: 5, class: 'dlq-empty' }, 'No charge yet.'))]
      : ledger.charges.map((c) => h('tr', { class: c.applied ? 'is-applied' : 'is-deduplicated', 'data-job': c.id },
        h('td', {}, c.id), h('td', {}, String(c.attempt)), h('td', {}, clock ? ms(c.at) : '—'),
        h('td', {}, c.applied ? 'charged' : 'deduplicated (key seen)'),
        h('td', {}, c.crashed ? 'worker crashed' : c.outcome)))));
  }
}
