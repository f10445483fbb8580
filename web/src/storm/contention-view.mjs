// @ts-check
// The contention experiment's results: two tables (total calls, completion time;
// a row per client count, a column per strategy), what they say next to the
// published experiment, and one chart per table (its figure here, drawn by
// charts.mjs). `rows`: the worker's contention rows
// ({ clients, strategy, meanCalls, meanCompletionMs }); `grid`: the core's grid
// ({ clients, strategies, jittered }: the controller takes it from lab via the worker).
import { h } from '../shared/dom.mjs';
import { chartFigure } from './charts.mjs';
import { CONTENTION_LABELS } from './storm-presets.mjs';
import { fmtInt, fmtMs } from './format.mjs';

/** The two measures, each a table and a chart. */
export const CONTENTION_MEASURES = [
  { id: 'contention-calls', caption: 'Total calls per client count (mean over runs), per strategy', value: (r) => r.meanCalls,
    title: 'Calls', figure: 'Total calls by number of clients, one line per strategy (the numbers are in the table above).' },
  { id: 'contention-time', caption: 'Time to completion in ms per client count (mean over runs), per strategy', value: (r) => r.meanCompletionMs,
    title: 'Completion time', figure: 'Completion time in ms by number of clients, one line per strategy (the numbers are in the table above).' },
];

/** One measure's table, in its own scrolling region. */
export function contentionTable(measure, rows, grid) {
  const cell = (n, strategy) => rows.find((r) => r.clients === n && r.strategy === strategy);
  const table = h('table', { class: 'storm-summary', id: measure.id });
  const head = h('tr', {}, h('th', { scope: 'col' }, 'Clients'), ...grid.strategies.map((k) => h('th', { scope: 'col' }, CONTENTION_LABELS[k])));
  const body = h('tbody');
  for (const n of grid.clients) {
    const tr = h('tr', { 'data-clients': String(n) }, h('th', { scope: 'row' }, fmtInt(n)));
    for (const k of grid.strategies) {
      const r = cell(n, k);
      tr.append(h('td', { 'data-strategy': k, 'data-value': r ? String(measure.value(r)) : '' }, r ? fmtInt(measure.value(r)) : '–'));
    }
    body.append(tr);
  }
  table.append(h('caption', { id: `${measure.id}-caption` }, measure.caption), h('thead', {}, head), body);
  return h('div', { class: 'storm-table-wrap', tabindex: '0', role: 'region', 'aria-labelledby': `${measure.id}-caption` }, table);
}

/** One measure's chart column: { section, plot } (plot: the box its chart is drawn into). */
export function contentionSection(measure) {
  const f = chartFigure(measure.figure);
  const section = h('section', { class: 'storm-run', 'aria-labelledby': `${measure.id}-chart` },
    h('h3', { id: `${measure.id}-chart` }, measure.title), f.figure);
  return { section, plot: f.plot };
}

/** What our numbers say next to the published experiment: a paragraph. */
export function contentionComparison(rows, grid) {
  return h('p', { class: 'storm-compare' }, comparisonText(rows, grid));
}

function comparisonText(rows, grid) {
  const largest = Math.max(...rows.map((r) => r.clients));
  const at = (k) => rows.find((r) => r.clients === largest && r.strategy === k);
  const name = (k) => CONTENTION_LABELS[k].toLowerCase();
  const parts = ['The published experiment (Marc Brooker, “Exponential Backoff And Jitter”, AWS Architecture Blog, 2015) found that plain exponential backoff still lets the clients collide in waves, and that adding jitter cuts the total calls sharply, full jitter doing the least work, decorrelated jitter finishing a little sooner, and equal jitter the slowest of the three.'];
  const exp = at('exponential');
  const jittered = grid.jittered.map(at).filter(Boolean);
  if (exp && jittered.length === grid.jittered.length && jittered.length > 0) {
    const cuts = jittered.map((r) => `${name(r.strategy)} ${fmtInt(r.meanCalls)} (${Math.round((1 - r.meanCalls / exp.meanCalls) * 100)}% fewer)`);
    const fewest = jittered.reduce((a, b) => (b.meanCalls < a.meanCalls ? b : a));
    const fastest = jittered.reduce((a, b) => (b.meanCompletionMs < a.meanCompletionMs ? b : a));
    const slowest = jittered.reduce((a, b) => (b.meanCompletionMs > a.meanCompletionMs ? b : a));
    parts.push(`Here, at ${largest} clients, plain exponential backoff made ${fmtInt(exp.meanCalls)} calls a run; ${cuts.join(', ')}.`);
    parts.push(`Of the jittered strategies ${name(fewest.strategy)} made the fewest calls, ${name(fastest.strategy)} finished soonest (${fmtMs(fastest.meanCompletionMs)}) and ${name(slowest.strategy)} last (${fmtMs(slowest.meanCompletionMs)}); plain exponential took ${fmtMs(exp.meanCompletionMs)}.`);
  }
  return parts.join(' ');
}
