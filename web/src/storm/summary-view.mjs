// @ts-check
// The summary table of a storm comparison (the charts' text twin): a row per
// measure, a column per run, filled in as each run's result arrives; and the
// scenario in one line above it.
import { h } from '../shared/dom.mjs';
import { fmtInt, fmtMs, fmtRate } from './format.mjs';

/** The measures, in the table's order: the summary's field, its name, the value a test reads, the text shown. */
const METRICS = [
  { key: 'attempts', label: 'Total attempts', value: (s) => s.attempts, text: fmtInt },
  { key: 'wastedAttempts', label: 'Wasted attempts', value: (s) => s.wastedAttempts, text: fmtInt },
  { key: 'outageFailures', label: 'Outage failures', value: (s) => s.outageFailures, text: fmtInt },
  { key: 'throttled', label: 'Throttled', value: (s) => s.throttled, text: fmtInt },
  { key: 'randomFailures', label: 'Failed (failure rate)', value: (s) => s.randomFailures, text: fmtInt },
  { key: 'timedOut', label: 'Timed out (client gave up)', value: (s) => s.timedOut, text: fmtInt },
  { key: 'retriesDenied', label: 'Retries refused by the budget', value: (s) => s.retriesDenied, text: fmtInt },
  { key: 'peakRetryRate', label: 'Peak retry rate (per s)', value: (s) => s.peakRetryRate, text: fmtRate },
  { key: 'peakRateAfterRecovery', label: 'Peak rate after recovery (per s)', value: (s) => s.peakRateAfterRecovery, text: fmtRate },
  { key: 'drainMs', label: 'Time to drain', value: (s) => s.drainMs, text: fmtMs },
  { key: 'completed', label: 'Jobs completed', value: (s) => s.completed, text: fmtInt },
  { key: 'quarantined', label: 'Jobs quarantined', value: (s) => s.quarantined, text: fmtInt },
  { key: 'quarantinedByBudget', label: '… of them by the budget', value: (s) => s.quarantinedByBudget, text: fmtInt },
  { key: 'failedJobs', label: 'Jobs failed (retry refused)', value: (s) => s.failedJobs, text: fmtInt },
  { key: 'goodput', label: 'Goodput (completed per s)', value: (s) => s.goodput, text: fmtRate },
  { key: 'amplification', label: 'Amplification (attempts per job)', value: (s) => s.amplification, text: (v) => v.toFixed(2) },
  { key: 'worstCase', label: 'Bounded-path worst case', value: (s) => s.worstCase.timeMs,
    text: (_, s) => `${fmtInt(s.worstCase.attempts)} attempts, ${fmtMs(s.worstCase.timeMs)}` },
];

export class SummaryView {
  #head;
  #rows = new Map();  // metric key -> its row

  constructor() {
    const table = h('table', { class: 'storm-summary', id: 'storm-summary' });
    const caption = h('caption', { id: 'storm-summary-caption' }, 'Summary per strategy');
    this.#head = h('tr', {}, h('th', { scope: 'col' }, 'Measure'));
    const body = h('tbody');
    for (const m of METRICS) {
      const row = h('tr', { 'data-metric': m.key }, h('th', { scope: 'row' }, m.label));
      this.#rows.set(m.key, row);
      body.append(row);
    }
    table.append(caption, h('thead', {}, this.#head), body);
    /** The table in its own scrolling region (a narrow screen scrolls it sideways). */
    this.element = h('div', { class: 'storm-table-wrap', tabindex: '0', role: 'region', 'aria-labelledby': 'storm-summary-caption' }, table);
  }

  /** One run's column: `run` ({ key, label }) and the core's summary of it. */
  addRun(run, summary) {
    this.#head.append(h('th', { scope: 'col', 'data-run': run.key }, run.label));
    for (const m of METRICS) {
      const value = m.value(summary);
      this.#rows.get(m.key).append(h('td', { 'data-run': run.key, 'data-value': String(value) }, m.text(value, summary)));
    }
  }
}

/** A scenario in one line: "10,000 jobs, all at once, outage of 5 s from 0 ms, …, seed 1". */
export function describeScenario(s) {
  const parts = [`${fmtInt(s.jobs)} jobs`];
  const arrival = {
    burst: 'all at once', rate: `${fmtInt(s.perSecond)} a second`, both: `all at once vs ${fmtInt(s.perSecond)} a second`,
    closed: `closed loop of ${fmtInt(s.clients)} clients`, loops: `open loop at ${fmtInt(s.perSecond)} a second vs closed loop of ${fmtInt(s.clients)} clients`,
  };
  parts.push(arrival[s.arrival] ?? s.arrival);
  parts.push(s.outageMs === null ? 'no outage' : `outage of ${fmtMs(s.outageMs)} from ${fmtMs(s.outageStartMs ?? 0)}`);
  if (s.perWindow !== null) parts.push(`capacity ${fmtInt(s.perWindow)} per ${fmtMs(s.windowMs)}`);
  if (s.failurePerMillion) parts.push(`${fmtInt(s.failurePerMillion)} failures per million attempts`);
  if (s.serverPerSecond !== null && s.serverPerSecond !== undefined) {
    parts.push(`a server of ${fmtInt(s.serverPerSecond)} a second, clients time out after ${fmtMs(s.timeoutMs)}`);
    if (s.dropMs) parts.push(`capacity drop to ${fmtInt(s.dropPerSecond)} a second for ${fmtMs(s.dropMs)} from ${fmtMs(s.dropStartMs ?? 0)}`);
  }
  const budgets = (s.budgets ?? ['none']).filter((b) => b !== 'none');
  if (budgets.length > 0) parts.push(`retry budget${budgets.length > 1 ? 's' : ''} ${budgets.join(', ')}${s.refusedRetry === 'fail' ? ' (a refused retry fails its job)' : ''}`);
  parts.push(`${fmtInt(s.workers)} workers`, `max ${s.maxAttempts} attempts`,
    s.backoff === 'none' ? 'no backoff' : s.backoff === 'fixed' ? `fixed backoff ${fmtMs(s.baseMs)}` : `exponential backoff ${fmtMs(s.baseMs)}..${fmtMs(s.capMs)}`,
    `seed ${s.seed}`);
  return parts.join(', ');
}
