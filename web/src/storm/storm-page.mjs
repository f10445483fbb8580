// The storm lab page (storm.html): a scenario form, presets, a Web Worker that
// runs one storm per strategy (storm-worker.mjs), a progress bar with
// Cancel, and the results side by side: a summary table (the charts' text twin)
// and two uPlot charts per run. The scenario lives in location.hash (the link
// format is in storm-presets.mjs and docs/storm.md, "Storm links").
//
// The main thread never does the simulation: it reads the form, posts the runs,
// and draws what comes back, one chart per task, so no task runs long.
import uPlot from 'uplot';
import {
  AUTO_RUN_MAX_ATTEMPTS, AUTO_RUN_MAX_CONTENTION_CALLS, CONTENTION_CLIENTS, CONTENTION_DEFAULTS, CONTENTION_LABELS,
  CONTENTION_STRATEGIES, DEFAULT_SCENARIO, PRESETS, contentionCost, formatContentionLink, formatStormLink,
  inexactIntegerMessage, isInexactInteger, isStormLink, parseStormLink, stormCost, stormRuns,
} from './storm-presets.mjs';
import { h } from '../shared/dom.mjs';
import { grouped, roughMs, roughSeconds } from '../shared/time-format.mjs';

const $ = (id) => document.getElementById(id);
const form = $('storm-form');
const errorBox = $('storm-error');
const statusLine = $('storm-status');
const progressBar = $('storm-progress');
const countLine = $('storm-count');
const runButton = $('storm-run');
const cancelButton = $('storm-cancel');
const results = $('results');
const output = $('storm-output');
const noteLine = $('storm-note');
const linkLine = $('storm-link-line');
const linkAnchor = $('storm-link');

// ---- formatting -------------------------------------------------------------

const rateFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const compactFormat = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const fmtInt = grouped;
const fmtRate = (n) => rateFormat.format(n);
const fmtMs = roughMs;
const fmtSeconds = roughSeconds;

// ---- the form -----------------------------------------------------------------

/** Each number field: its input, the scenario key, and the core's option paths that name it. */
const NUMBER_FIELDS = [
  { id: 'f-jobs', key: 'jobs', paths: ['jobs'] },
  { id: 'f-rate', key: 'perSecond', paths: ['arrival.perSecond'] },
  { id: 'f-outage-start', key: 'outageStartMs', paths: ['outage.startMs'] },
  { id: 'f-outage-length', key: 'outageMs', paths: ['outage.durationMs', 'outage'] },
  { id: 'f-capacity', key: 'perWindow', paths: ['capacity.perWindow', 'capacity'] },
  { id: 'f-window', key: 'windowMs', paths: ['capacity.windowMs'] },
  { id: 'f-workers', key: 'workers', paths: ['workers'] },
  { id: 'f-work', key: 'workMs', paths: ['workMs'] },
  { id: 'f-lease', key: 'leaseMs', paths: ['leaseMs'] },
  { id: 'f-attempts', key: 'maxAttempts', paths: ['maxAttempts'] },
  { id: 'f-base', key: 'baseMs', paths: ['backoff.baseMs'] },
  { id: 'f-cap', key: 'capMs', paths: ['backoff.capMs'] },
  { id: 'f-seed', key: 'seed', paths: ['seed'] },
];
/** Option paths the core may name that are not a number field. */
const OTHER_PATHS = [
  { id: 'f-backoff', paths: ['backoff.kind', 'backoff'] },
  { id: 'f-strategies', paths: ['backoff.jitter', 'jitter'] },
  { id: 'f-arrival', paths: ['arrival.kind', 'arrival'] },
];

/** A number input's value: null when blank, NaN when the browser holds text that is no number. */
function readNumber(input) {
  if (input.validity.badInput) return Number.NaN;
  const text = input.value.trim();
  return text === '' ? null : Number(text);
}

function readForm() {
  const s = { ...DEFAULT_SCENARIO };
  for (const { id, key } of NUMBER_FIELDS) s[key] = readNumber($(id));
  s.arrival = form.querySelector('input[name="arrival"]:checked')?.value ?? 'burst';
  s.backoff = $('f-backoff').value;
  s.strategies = [...form.querySelectorAll('input[name="strategy"]:checked')].map((el) => el.value);
  return s;
}

function fillForm(s) {
  for (const { id, key } of NUMBER_FIELDS) $(id).value = s[key] === null || s[key] === undefined ? '' : String(s[key]);
  for (const radio of form.querySelectorAll('input[name="arrival"]')) radio.checked = radio.value === s.arrival;
  $('f-backoff').value = s.backoff;
  for (const box of form.querySelectorAll('input[name="strategy"]')) box.checked = s.strategies.includes(box.value);
  clearError();
}

function labelOf(id) {
  const el = $(id);
  if (el.tagName === 'FIELDSET') return el.querySelector('legend').textContent.trim();
  return form.querySelector(`label[for="${id}"]`).textContent.trim();
}

function clearError() {
  errorBox.textContent = '';
  for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
  for (const el of form.querySelectorAll('[data-error-described]')) {
    el.setAttribute('aria-describedby', el.dataset.errorDescribed);
    delete el.dataset.errorDescribed;
  }
}

/** Which field a core message names: the longest option path it starts with. */
function fieldForMessage(message) {
  const head = /^[A-Za-z][A-Za-z.]*/.exec(message)?.[0] ?? '';
  let best = null;
  for (const field of [...NUMBER_FIELDS, ...OTHER_PATHS]) {
    for (const path of field.paths) {
      if ((head === path || head.startsWith(`${path}.`)) && (!best || path.length > best.path.length)) best = { id: field.id, path };
    }
  }
  return best?.id ?? null;
}

/** Shows a refusal next to the form, naming the field; marks the field invalid. */
function showError(message, fieldId, { focus = false } = {}) {
  clearError();
  const id = fieldId === false ? null : fieldId ?? fieldForMessage(message);
  errorBox.textContent = id ? `${labelOf(id)}: ${message}` : message;
  if (!id) return;
  const el = $(id);
  if (el.tagName !== 'FIELDSET') el.setAttribute('aria-invalid', 'true');
  el.dataset.errorDescribed = el.getAttribute('aria-describedby') ?? '';
  el.setAttribute('aria-describedby', `${el.dataset.errorDescribed} storm-error`.trim());
  if (focus) (el.tagName === 'FIELDSET' ? el.querySelector('input') : el).focus();
}

// ---- the worker ---------------------------------------------------------------

let worker = null;
let current = null;  // the request on show: { id, kind, runs, scenario, … }
let nextId = 1;
// A contention link that waited for Run (its cost is over the bound): Run starts it,
// until the form is edited (then Run runs the form's storm).
let waitingContention = null;

function getWorker() {
  if (!worker) {
    worker = new Worker(new URL('./storm-worker.mjs', import.meta.url), { type: 'module' });
    worker.addEventListener('message', (event) => onMessage(event.data));
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      fail(`the simulation worker failed: ${event.message || 'it could not start'}`);
    });
  }
  return worker;
}

function setState(state) {
  results.dataset.state = state;
  const running = state === 'running';
  cancelButton.disabled = !running;
  runButton.textContent = running ? 'Restart' : 'Run';
  output.setAttribute('aria-busy', String(running));
}

function say(text) { statusLine.textContent = text; }

/** The progress bar and the count under it (not a live region: it changes many times a second). */
function showProgress(fraction, count = '') {
  progressBar.value = fraction;
  const percent = `${Math.floor(fraction * 100)}%`;
  progressBar.setAttribute('aria-valuetext', count ? `${percent}, ${count}` : percent);
  countLine.textContent = count;
}

function fail(message) {
  if (worker) worker.terminate();
  worker = null;
  current = null;
  setState('error');
  say(`The run stopped: ${message}`);
}

/** Stops the run on show, if any (the worker is terminated: nothing of it arrives later). */
function stopWorker() {
  if (worker && current) {
    worker.terminate();
    worker = null;
  }
  current = null;
}

/**
 * Runs a storm scenario. `history`: how its link is written once the core accepts it
 * ('push' for a preset, 'replace' otherwise, 'none' to leave the address alone).
 */
function runScenario(scenario, { history = 'replace', focus = false, note = null } = {}) {
  stopWorker();
  clearError();
  const runs = stormRuns(scenario);
  if (runs.length === 0) {
    showError('choose at least one strategy to run', 'f-strategies', { focus });
    setState('refused');
    say('Not run: no strategy is chosen.');
    return;
  }
  waitingContention = null;
  const cost = stormCost(scenario);
  current = { id: nextId++, kind: 'storm', scenario, runs, cost, results: [], history, focus, note, accepted: false, index: -1, started: performance.now() };
  showProgress(0);
  setState('running');
  say(`Starting ${runs.length === 1 ? 'one storm' : `${runs.length} storms`} of ${fmtInt(scenario.jobs ?? 0)} jobs…`);
  getWorker().postMessage({ type: 'storm', id: current.id, runs: runs.map(({ key, options }, i) => ({ key, options, attempts: cost.perRun[i] })) });
}

function runContention(contention, { history = 'replace', note = null } = {}) {
  stopWorker();
  clearError();
  note = note?.replace('{runs}', String(contention.runs)).replace('{seed}', String(contention.seed)) ?? null;
  waitingContention = null;
  current = { id: nextId++, kind: 'contention', contention, rows: [], history, note, accepted: false, started: performance.now() };
  showProgress(0);
  setState('running');
  say(`Running the contention experiment: ${CONTENTION_CLIENTS.length} client counts × ${CONTENTION_STRATEGIES.length} strategies…`);
  const options = { type: 'contention', id: current.id, clients: CONTENTION_CLIENTS, strategies: CONTENTION_STRATEGIES };
  for (const key of ['seed', 'baseMs', 'capMs', 'runs']) if (contention[key] !== undefined && contention[key] !== null) options[key] = contention[key];
  getWorker().postMessage(options);
}

function cancel() {
  if (!current) return;
  const done = current.kind === 'storm' ? current.results.length : 0;
  const total = current.kind === 'storm' ? current.runs.length : 0;
  const percent = Math.round(progressBar.value * 100);
  if (worker) worker.terminate();
  worker = null;
  current = null;
  setState('cancelled');
  if (done > 0) drawCharts();
  getWorker();  // a fresh worker loads the core now, ready for the next run
  say(`Cancelled at ${percent}%: the run was stopped${total ? ` (${done} of ${total} storms had finished${done ? '; they are shown' : ''})` : ''}.`);
}

/** The core accepted the request: its link goes into the address bar. */
function accepted() {
  if (current.accepted) return;
  current.accepted = true;
  const text = current.kind === 'storm' ? formatStormLink(current.scenario) : formatContentionLink(current.contention);
  writeHash(text, current.history);
  clearOutput(current);
}

function onMessage(message) {
  if (!current || message.id !== current.id) return;  // a stopped request's last words
  switch (message.type) {
    case 'refused': {
      const request = current;
      const run = request.kind === 'storm' ? request.runs.find((r) => r.key === message.key) : null;
      current = null;
      setState('refused');
      if (request.kind === 'storm') showError(message.message, null, { focus: request.focus });
      else showError(`The contention experiment: ${message.message}`, false);
      say(`Not run: the core refused the scenario${run && request.runs.length > 1 ? ` for ${run.label}` : ''}, so nothing ran.`);
      break;
    }
    case 'progress': {
      accepted();
      if (current.kind === 'storm') {
        const run = current.runs[message.index];
        const bound = current.cost.perRun[message.index];
        const most = bound === null ? '' : ` of at most ${fmtInt(bound)}`;
        showProgress(message.fraction, `${run.label}: ${fmtInt(message.attempts)} attempts${most}`);
      } else {
        showProgress(message.fraction, `${current.rows.length} of ${CONTENTION_CLIENTS.length * CONTENTION_STRATEGIES.length} points`);
      }
      if (current.kind === 'storm' && message.index !== current.index && message.fraction < 1) {
        current.index = message.index;
        const run = current.runs[message.index];
        say(`Running ${run.label}${current.runs.length > 1 ? ` (${message.index + 1} of ${current.runs.length})` : ''}…`);
      }
      break;
    }
    case 'result': {
      accepted();
      const run = current.runs[message.index];
      const result = { run, summary: message.summary, series: message.series, elapsedMs: message.elapsedMs };
      current.results.push(result);
      addResult(current, result);
      break;
    }
    case 'contention-row': {
      accepted();
      current.rows.push(message);
      break;
    }
    case 'done': {
      const request = current;
      current = null;
      setState('done');
      showProgress(1);
      const seconds = rateFormat.format(message.elapsedMs / 1000);
      if (request.kind === 'storm') {
        drawCharts();
        say(`Done: ${request.runs.length === 1 ? 'one storm' : `${request.runs.length} storms`} of ${fmtInt(request.scenario.jobs)} jobs in ${seconds} s.`);
      } else {
        drawContention(request);
        say(`Done: the contention experiment in ${seconds} s.`);
      }
      break;
    }
    case 'error':
      fail(message.message);
      break;
    default:
  }
}

// ---- the link -----------------------------------------------------------------

let shownHash = null;  // the fragment this page last wrote or read

function writeHash(text, mode) {
  const hash = `#${text}`;
  shownHash = hash;
  showLink(hash);
  if (mode === 'none' || location.hash === hash) return;
  if (mode === 'push') history.pushState(null, '', hash);
  else history.replaceState(history.state, '', hash);
}

function showLink(hash) {
  linkAnchor.href = hash;
  linkAnchor.textContent = `storm.html${hash}`;
  linkLine.hidden = false;
}

/** Reads location.hash: loads its scenario into the form and runs it when it is small enough. */
function loadFromHash({ first = false } = {}) {
  const hash = location.hash;
  if (hash === shownHash) return;
  shownHash = hash;
  const text = hash.slice(1);
  if (!isStormLink(text)) {
    if (first) {
      // A first visit: the first preset, so the page has something to show.
      const preset = PRESETS[0];
      fillForm(preset.scenario);
      runScenario(preset.scenario, { history: 'replace', note: preset.note ?? null });
    }
    return;
  }
  let link;
  try {
    link = parseStormLink(text);
  } catch (error) {
    waitingContention = null;
    stopWorker();
    resetOutput();
    fillForm(DEFAULT_SCENARIO);
    setState('refused');
    say(`This link could not be read (${error.message}); the form shows the defaults. Press Run to run them.`);
    return;
  }
  if (link.kind === 'contention') {
    const cost = contentionCost(link.contention);
    if (cost.autoRun) {
      runContention(link.contention, { history: 'replace', note: presetNote('contention') });
      return;
    }
    waitForRun(hash);
    waitingContention = link.contention;
    say(`This link is the contention experiment with ${fmtInt(cost.runs)} runs a point: about ${fmtInt(cost.calls)} calls, `
      + `more than a link starts by itself (${fmtInt(AUTO_RUN_MAX_CONTENTION_CALLS)}). Press Run to start it.`);
    return;
  }
  fillForm(link.scenario);
  const preset = PRESETS.find((p) => p.scenario && formatStormLink(p.scenario) === formatStormLink(link.scenario));
  const cost = stormCost(link.scenario);
  if (cost.autoRun || cost.runs === 0) {
    // (No strategy chosen: nothing can run, and runScenario says so by name.)
    runScenario(link.scenario, { history: 'replace', note: preset?.note ?? null });
    return;
  }
  waitForRun(hash);
  say(`This link is a storm of ${link.scenario.jobs === null ? '?' : fmtInt(link.scenario.jobs)} jobs in ${describeCost(cost)}. Press Run to start it.`);
}

/** A link that does not start by itself: the form holds it, nothing runs, Run starts it. */
function waitForRun(hash) {
  waitingContention = null;
  stopWorker();
  resetOutput();
  setState('idle');
  showProgress(0);
  showLink(hash);
}

/** What a storm link's runs will cost, in words, against the bound a link may start by itself. */
function describeCost(cost) {
  const runs = cost.runs === 1 ? 'one run' : `${cost.runs} runs`;
  if (cost.attempts === null) return `${runs}, with jobs or max attempts blank: its cost has no bound, so it does not start by itself`;
  const time = cost.horizonMs === null ? '' : ` within ${fmtMs(cost.horizonMs)} of simulated time`;
  return `${runs}: up to ${fmtInt(cost.attempts)} attempts${time}, more than a link starts by itself (${fmtInt(AUTO_RUN_MAX_ATTEMPTS)} attempts)`;
}

const presetNote = (key) => PRESETS.find((p) => p.key === key)?.note ?? null;

// ---- results: the summary table and the charts --------------------------------

const METRICS = [
  { key: 'attempts', label: 'Total attempts', value: (s) => s.attempts, text: fmtInt },
  { key: 'wastedAttempts', label: 'Wasted attempts', value: (s) => s.wastedAttempts, text: fmtInt },
  { key: 'outageFailures', label: 'Outage failures', value: (s) => s.outageFailures, text: fmtInt },
  { key: 'throttled', label: 'Throttled', value: (s) => s.throttled, text: fmtInt },
  { key: 'peakRetryRate', label: 'Peak retry rate (per s)', value: (s) => s.peakRetryRate, text: fmtRate },
  { key: 'peakRateAfterRecovery', label: 'Peak rate after recovery (per s)', value: (s) => s.peakRateAfterRecovery, text: fmtRate },
  { key: 'drainMs', label: 'Time to drain', value: (s) => s.drainMs, text: fmtMs },
  { key: 'completed', label: 'Jobs completed', value: (s) => s.completed, text: fmtInt },
  { key: 'quarantined', label: 'Jobs quarantined', value: (s) => s.quarantined, text: fmtInt },
  { key: 'worstCase', label: 'Bounded-path worst case', value: (s) => s.worstCase.timeMs,
    text: (_, s) => `${fmtInt(s.worstCase.attempts)} attempts, ${fmtMs(s.worstCase.timeMs)}` },
];

const COLORS = {
  success: '#13794a', outage: '#c0262d', throttled: '#b86e00',
  ready: '#2f4bc4', delayed: '#7b3fb3', inFlight: '#0b7285', quarantine: '#5b6475',
};
const fill = (hex, alpha) => `${hex}${Math.round(alpha * 255).toString(16).padStart(2, '0')}`;

// What is on show: { charts: [{ kind, plot, el, … }], observer } and, for storms, the table's
// parts, the results so far and the axes' maxima. A new request replaces it whole.
let view = null;
let sameAxes = true;

function destroyView() {
  if (!view) return;
  view.observer.disconnect();
  for (const chart of view.charts) chart.plot.destroy();
  view = null;
}

/** No results on show: the form holds a scenario that has not run. */
function resetOutput() {
  destroyView();
  noteLine.hidden = true;
  output.replaceChildren(h('p', { class: 'storm-empty' }, 'Press Run to run this scenario: the summary and the charts appear here.'));
}

/** Empties the results for a new request (once the core accepted it). */
function clearOutput(request) {
  destroyView();
  output.replaceChildren();
  noteLine.hidden = !request.note;
  noteLine.textContent = request.note ?? '';
  const observer = new ResizeObserver(() => scheduleResize());
  observer.observe(output);
  view = { charts: [], observer };
  if (request.kind !== 'storm') return;
  const s = request.scenario;
  const wrap = h('div', { class: 'storm-table-wrap', tabindex: '0', role: 'region', 'aria-labelledby': 'storm-summary-caption' });
  const table = h('table', { class: 'storm-summary', id: 'storm-summary' });
  const caption = h('caption', { id: 'storm-summary-caption' }, 'Summary per strategy');
  const scenarioLine = h('p', { class: 'storm-scenario-line' }, `${describeScenario(s)}.`);
  const head = h('tr', {}, h('th', { scope: 'col' }, 'Measure'));
  const body = h('tbody');
  for (const m of METRICS) body.append(h('tr', { 'data-metric': m.key }, h('th', { scope: 'row' }, m.label)));
  table.append(caption, h('thead', {}, head), body);
  wrap.append(table);

  const axes = h('label', { class: 'storm-axes' });
  const box = h('input', { type: 'checkbox', id: 'storm-same-axes' });
  box.checked = sameAxes;
  box.addEventListener('change', () => { sameAxes = box.checked; rescale(); });
  axes.append(box, ' Same axes for every run (compare heights)');

  const how = h('p', { class: 'storm-how' }, 'Two charts per run. Attempts per second, stacked: success at the bottom, outage failures above, throttled attempts on top. Jobs by place: ready, delayed (backing off), in flight and quarantined. ',
    s.outageMs ? 'The shaded band is the outage. ' : '', 'Hover or touch a chart to read exact values (every chart follows the same moment); the summary table above has the totals.');
  const grid = h('div', { class: 'storm-runs' });
  output.append(scenarioLine, wrap, how, axes, grid);
  Object.assign(view, { table, head, body, grid, results: [], max: { attempts: 0, depth: 0 }, maxX: 0 });
}

function describeScenario(s) {
  const parts = [`${fmtInt(s.jobs)} jobs`];
  parts.push(s.arrival === 'burst' ? 'all at once' : s.arrival === 'rate' ? `${fmtInt(s.perSecond)} a second` : `all at once vs ${fmtInt(s.perSecond)} a second`);
  parts.push(s.outageMs === null ? 'no outage' : `outage of ${fmtMs(s.outageMs)} from ${fmtMs(s.outageStartMs ?? 0)}`);
  if (s.perWindow !== null) parts.push(`capacity ${fmtInt(s.perWindow)} per ${fmtMs(s.windowMs)}`);
  parts.push(`${fmtInt(s.workers)} workers`, `max ${s.maxAttempts} attempts`,
    s.backoff === 'none' ? 'no backoff' : s.backoff === 'fixed' ? `fixed backoff ${fmtMs(s.baseMs)}` : `exponential backoff ${fmtMs(s.baseMs)}..${fmtMs(s.capMs)}`,
    `seed ${s.seed}`);
  return parts.join(', ');
}

/**
 * One run's result: its column of the table now; its charts once every run is done (drawCharts),
 * so the page draws while the worker is idle and every chart starts with the shared axes.
 */
function addResult(request, result) {
  if (!view) return;
  const { run, summary } = result;
  view.results.push(result);
  view.head.append(h('th', { scope: 'col', 'data-run': run.key }, run.label));
  for (const m of METRICS) {
    const row = view.body.querySelector(`tr[data-metric="${m.key}"]`);
    const value = m.value(summary);
    row.append(h('td', { 'data-run': run.key, 'data-value': String(value) }, m.text(value, summary)));
  }
}

/** The charts of every result on show: a column per run, each chart built in tasks of its own. */
function drawCharts() {
  if (!view || !view.results) return;
  const columns = view.results.map((result) => ({ result, data: chartData(result.series) }));
  for (const { data } of columns) {
    view.max.attempts = Math.max(view.max.attempts, data.maxRate);
    view.max.depth = Math.max(view.max.depth, data.maxDepth);
    view.maxX = Math.max(view.maxX, data.maxX);
  }
  const shown = view;
  for (const column of columns) later(() => { if (view === shown) addRunColumn(column); });
}

function addRunColumn({ result, data }) {
  const { run } = result;
  const column = h('section', { class: 'storm-run', 'aria-labelledby': `run-${run.key}` },
    h('h3', { id: `run-${run.key}` }, run.label));
  const outage = run.options.outage && run.options.outage.durationMs > 0
    ? [run.options.outage.startMs / 1000, (run.options.outage.startMs + run.options.outage.durationMs) / 1000] : null;
  const attemptsFigure = figure(`Attempts per second (${fmtMs(data.widthMs)} intervals)`);
  const depthFigure = figure('Jobs by place');
  column.append(attemptsFigure.figure, depthFigure.figure);
  view.grid.append(column);
  later(() => addChart('attempts', attemptsFigure.plot, data, outage));
  later(() => addChart('depth', depthFigure.plot, data, outage));
}

function figure(caption) {
  const plot = h('div', { class: 'storm-plot', 'aria-hidden': 'true' });
  return { figure: h('figure', { class: 'storm-figure' }, h('figcaption', {}, caption), plot), plot };
}

/** Charts draw at most this many intervals: a longer series is merged k buckets at a time (exact: counts add up, depths are the last bucket's). */
const MAX_POINTS = 4000;

/** The x axis (seconds), rates per second stacked for the attempts chart, and the depths. */
function chartData(series) {
  const k = Math.max(1, Math.ceil(series.length / MAX_POINTS));
  const widthMs = series.bucketMs * k;
  const n = Math.ceil(series.length / k);
  const perSecond = 1000 / widthMs;
  const x = new Float64Array(n);
  const rates = { success: new Float64Array(n), outage: new Float64Array(n), throttled: new Float64Array(n) };
  const stacked = [new Float64Array(n), new Float64Array(n), new Float64Array(n)];
  const depth = [new Uint32Array(n), new Uint32Array(n), new Uint32Array(n), new Uint32Array(n)];
  const depthSources = [series.ready, series.delayed, series.inFlight, series.quarantine];
  let maxRate = 0;
  let maxDepth = 0;
  for (let j = 0; j < n; j++) {
    x[j] = (j * widthMs) / 1000;
    let a = 0;
    let b = 0;
    let c = 0;
    const end = Math.min(series.length, (j + 1) * k);
    for (let i = j * k; i < end; i++) {
      a += series.success[i];
      b += series.outage[i];
      c += series.throttled[i];
    }
    a *= perSecond; b *= perSecond; c *= perSecond;
    rates.success[j] = a; rates.outage[j] = b; rates.throttled[j] = c;
    stacked[0][j] = a; stacked[1][j] = a + b; stacked[2][j] = a + b + c;
    if (a + b + c > maxRate) maxRate = a + b + c;
    for (let d = 0; d < 4; d++) {
      depth[d][j] = depthSources[d][end - 1];
      if (depth[d][j] > maxDepth) maxDepth = depth[d][j];
    }
  }
  return { x, rates, stacked, depth, maxRate, maxDepth, maxX: n > 0 ? x[n - 1] : 0, widthMs };
}

/** Each interval drawn as a step over its own width (x is the interval's start). */
const steps = uPlot.paths.stepped({ align: 1 });

const axisStyle = { stroke: '#4a5160', grid: { stroke: '#e6e9ef', width: 1 }, ticks: { stroke: '#d3d8e0', width: 1 }, font: '11px system-ui, sans-serif' };

/** A uPlot hook that shades the outage window behind the series. */
const shadeOutage = (outage) => (u) => {
  if (!outage) return;
  const left = Math.max(u.bbox.left, u.valToPos(outage[0], 'x', true));
  const right = Math.min(u.bbox.left + u.bbox.width, u.valToPos(outage[1], 'x', true));
  if (right <= left) return;
  u.ctx.save();
  u.ctx.fillStyle = 'rgba(192, 38, 45, 0.07)';
  u.ctx.fillRect(left, u.bbox.top, right - left, u.bbox.height);
  u.ctx.restore();
};

function addChart(kind, container, data, outage) {
  if (!view || !container.isConnected) return;
  const width = Math.max(200, container.clientWidth);
  const xSeries = { label: 'Time', value: (u, v) => (v === null || v === undefined ? '–' : fmtSeconds(v)) };
  const raw = (arr) => (u, v, s, i) => (i === null || i === undefined ? '–' : (kind === 'attempts' ? fmtRate : fmtInt)(arr[i]));
  let series;
  let plotData;
  let bands;
  if (kind === 'attempts') {
    // Stacked, top first: the total (throttled on top), success + outage failure, success. Drawn in
    // that order, so where the edges meet (a one-interval spike of one kind, thinner than a pixel)
    // the lower, later edge shows its own colour: an all-success spike is green, an outage spike red.
    const area = (label, color, values) => ({ label, stroke: color, fill: fill(color, 0.45), width: 1, points: { show: false }, value: raw(values) });
    series = [xSeries,
      area('Throttled', COLORS.throttled, data.rates.throttled),
      area('Outage failure', COLORS.outage, data.rates.outage),
      area('Success', COLORS.success, data.rates.success)];
    plotData = [data.x, data.stacked[2], data.stacked[1], data.stacked[0]];
    bands = [{ series: [1, 2], fill: fill(COLORS.throttled, 0.45) }, { series: [2, 3], fill: fill(COLORS.outage, 0.45) }];
  } else {
    series = [xSeries,
      { label: 'Ready', stroke: COLORS.ready, width: 1.5, paths: steps, points: { show: false }, value: raw(data.depth[0]) },
      { label: 'Delayed', stroke: COLORS.delayed, width: 1.5, paths: steps, points: { show: false }, value: raw(data.depth[1]) },
      { label: 'In flight', stroke: COLORS.inFlight, width: 1.5, paths: steps, points: { show: false }, value: raw(data.depth[2]) },
      { label: 'Quarantine', stroke: COLORS.quarantine, width: 1.5, dash: [5, 3], paths: steps, points: { show: false }, value: raw(data.depth[3]) }];
    plotData = [data.x, ...data.depth];
  }
  const chart = { kind, data, el: container, plot: null };
  const opts = {
    width,
    height: chartHeight(),
    series,
    bands,
    scales: {
      x: { time: false, range: () => [0, axesOf(chart)[0]] },
      y: { range: () => [0, axesOf(chart)[1]] },
    },
    axes: [
      { ...axisStyle, values: (u, ticks) => ticks.map((t) => fmtSeconds(t)) },
      { ...axisStyle, size: 48, values: (u, ticks) => ticks.map((t) => compactFormat.format(t)) },
    ],
    cursor: { sync: { key: 'storm' }, drag: { x: false, y: false }, points: { size: 6 } },
    legend: { live: true },
    hooks: { drawClear: [shadeOutage(outage)] },
  };
  chart.applied = axesOf(chart).join();
  // Three short tasks instead of one long one: built (DOM) in this task, sized and its axes drawn in
  // the next (uPlot's init), its data drawn in the one after.
  chart.plot = new uPlot(opts, plotData.map(() => []), (u, init) => {
    container.append(u.root);
    later(() => {
      if (!u.root.isConnected) return;
      init();
      later(() => {
        if (!u.root.isConnected) return;
        u.setData(plotData, true);
        container.dataset.drawn = 'true';  // for tests: the chart shows its data
      });
    });
  });
  view.charts.push(chart);
  readOnTouch(chart.plot);
}

/**
 * Draws one small stacked chart off the page and throws it away. The first uPlot chart on a page
 * pays for V8 compiling uPlot's code (its first calls); paid here, while the page loads, it is not
 * paid in the middle of showing a run's results, when it would be the longest task on the page.
 */
function warmCharts() {
  const x = Float64Array.from({ length: 32 }, (_, i) => i);
  const y = Float64Array.from(x, (v) => v % 7);
  const plot = new uPlot({
    width: 300, height: 150,
    series: [{}, { stroke: COLORS.throttled, fill: fill(COLORS.throttled, 0.45) }, { stroke: COLORS.success, fill: fill(COLORS.success, 0.45) },
      { stroke: COLORS.ready, paths: steps }],
    bands: [{ series: [1, 2], fill: fill(COLORS.throttled, 0.45) }],
    scales: { x: { time: false } },
    axes: [{ ...axisStyle }, { ...axisStyle, size: 48 }],
    legend: { live: true },
  }, [x, y.map((v) => v * 2), y, y], document.createElement('div'));
  plot.destroy();
}

/** uPlot follows a mouse; a finger reads values too: touching or dragging along a chart moves its cursor (and the others'). */
function readOnTouch(u) {
  const move = (event) => {
    const touch = event.touches[0];
    if (!touch) return;
    const rect = u.over.getBoundingClientRect();
    u.setCursor({ left: Math.min(Math.max(0, touch.clientX - rect.left), rect.width), top: Math.min(Math.max(0, touch.clientY - rect.top), rect.height) }, true, true);
  };
  u.over.addEventListener('touchstart', move, { passive: true });
  u.over.addEventListener('touchmove', move, { passive: true });
}

/** A chart's x and y maxima: its own, or the largest of every run's (Same axes). */
function axesOf(chart) {
  const own = chart.kind === 'attempts' ? chart.data.maxRate : chart.data.maxDepth;
  return [Math.max(1e-3, sameAxes ? view.maxX : chart.data.maxX), niceMax(sameAxes ? view.max[chart.kind] : own)];
}

/** A round upper bound for a y axis (never 0, so an empty chart still draws). */
function niceMax(max) {
  if (!(max > 0)) return 1;
  const step = 10 ** Math.floor(Math.log10(max));
  return Math.ceil((max * 1.05) / step * 2) / 2 * step;
}

const chartHeight = () => (window.innerWidth < 600 ? 150 : 180);

/** Applies the shared (or own) axes to every chart, one chart per task. */
function rescale() {
  if (!view) return;
  for (const chart of view.charts) {
    if (chart.kind === 'contention') continue;
    const axes = axesOf(chart).join();
    if (axes === chart.applied) continue;
    chart.applied = axes;
    later(() => { if (chart.plot.root.isConnected) chart.plot.setData(chart.plot.data, true); });
  }
}

// Work split into tasks: each chart is drawn (or redrawn) in a task of its own, so none runs long.
const queue = [];
let draining = false;
function later(fn) {
  queue.push(fn);
  if (!draining) {
    draining = true;
    setTimeout(drain, 0);
  }
}
function drain() {
  const fn = queue.shift();
  try {
    fn();
  } finally {
    if (queue.length > 0) setTimeout(drain, 0);
    else draining = false;
  }
}

let resizeScheduled = false;
function scheduleResize() {
  if (resizeScheduled) return;
  resizeScheduled = true;
  requestAnimationFrame(() => {
    resizeScheduled = false;
    if (!view) return;
    for (const chart of view.charts) {
      const width = Math.max(200, chart.el.clientWidth);
      if (width !== chart.plot.width || chartHeight() !== chart.plot.height) later(() => chart.plot.setSize({ width, height: chartHeight() }));
    }
  });
}

// ---- the contention experiment ---------------------------------------------------

function drawContention(request) {
  clearOutput(request);
  const rows = request.rows;
  const cell = (n, strategy) => rows.find((r) => r.clients === n && r.strategy === strategy);
  const tables = [
    { id: 'contention-calls', caption: 'Total calls per client count (mean over runs), per strategy', value: (r) => r.meanCalls },
    { id: 'contention-time', caption: 'Time to completion in ms per client count (mean over runs), per strategy', value: (r) => r.meanCompletionMs },
  ];
  for (const t of tables) {
    const wrap = h('div', { class: 'storm-table-wrap', tabindex: '0', role: 'region', 'aria-labelledby': `${t.id}-caption` });
    const table = h('table', { class: 'storm-summary', id: t.id });
    const head = h('tr', {}, h('th', { scope: 'col' }, 'Clients'), ...CONTENTION_STRATEGIES.map((k) => h('th', { scope: 'col' }, CONTENTION_LABELS[k])));
    const body = h('tbody');
    for (const n of CONTENTION_CLIENTS) {
      const tr = h('tr', { 'data-clients': String(n) }, h('th', { scope: 'row' }, fmtInt(n)));
      for (const k of CONTENTION_STRATEGIES) {
        const r = cell(n, k);
        tr.append(h('td', { 'data-strategy': k, 'data-value': r ? String(t.value(r)) : '' }, r ? fmtInt(t.value(r)) : '–'));
      }
      body.append(tr);
    }
    table.append(h('caption', { id: `${t.id}-caption` }, t.caption), h('thead', {}, head), body);
    wrap.append(table);
    output.append(wrap);
  }
  output.append(h('p', { class: 'storm-compare' }, contentionComparison(rows)));
  const grid = h('div', { class: 'storm-runs' });
  output.append(grid);
  for (const t of tables) {
    const f = figure(`${t.id === 'contention-calls' ? 'Total calls' : 'Completion time in ms'} by number of clients, one line per strategy (the numbers are in the table above).`);
    grid.append(h('section', { class: 'storm-run', 'aria-labelledby': `${t.id}-chart` },
      h('h3', { id: `${t.id}-chart` }, t.id === 'contention-calls' ? 'Calls' : 'Completion time'), f.figure));
    later(() => addContentionChart(f.plot, rows, t.value));
  }
}

const CONTENTION_COLORS = { none: '#5b6475', exponential: '#c0262d', equal: '#b86e00', full: '#13794a', decorrelated: '#2f4bc4' };

function addContentionChart(container, rows, value) {
  if (!view || !container.isConnected) return;
  const x = Float64Array.from(CONTENTION_CLIENTS);
  const columns = CONTENTION_STRATEGIES.map((k) => CONTENTION_CLIENTS.map((n) => {
    const row = rows.find((r) => r.clients === n && r.strategy === k);
    return row ? value(row) : null;
  }));
  const plot = new uPlot({
    width: Math.max(200, container.clientWidth),
    height: chartHeight(),
    series: [{ label: 'Clients', value: (u, v) => (v === null || v === undefined ? '–' : fmtInt(v)) },
      ...CONTENTION_STRATEGIES.map((k) => ({ label: CONTENTION_LABELS[k], stroke: CONTENTION_COLORS[k], width: 1.5, dash: k === 'none' ? [5, 3] : undefined,
        value: (u, v) => (v === null || v === undefined ? '–' : fmtInt(v)) }))],
    scales: { x: { time: false } },
    axes: [{ ...axisStyle }, { ...axisStyle, size: 48, values: (u, ticks) => ticks.map((t) => compactFormat.format(t)) }],
    cursor: { drag: { x: false, y: false }, points: { size: 6 } },
    legend: { live: true },
  }, [x, ...columns], container);
  container.dataset.drawn = 'true';
  view.charts.push({ kind: 'contention', el: container, plot });
}

/** What our numbers say next to the published experiment. */
function contentionComparison(rows) {
  const largest = Math.max(...rows.map((r) => r.clients));
  const at = (k) => rows.find((r) => r.clients === largest && r.strategy === k);
  const name = (k) => CONTENTION_LABELS[k].toLowerCase();
  const parts = ['The published experiment (Marc Brooker, “Exponential Backoff And Jitter”, AWS Architecture Blog, 2015) found that plain exponential backoff still lets the clients collide in waves, and that adding jitter cuts the total calls sharply, full jitter doing the least work, decorrelated jitter finishing a little sooner, and equal jitter the slowest of the three.'];
  const exp = at('exponential');
  const jittered = ['full', 'equal', 'decorrelated'].map(at).filter(Boolean);
  if (exp && jittered.length === 3) {
    const cuts = jittered.map((r) => `${name(r.strategy)} ${fmtInt(r.meanCalls)} (${Math.round((1 - r.meanCalls / exp.meanCalls) * 100)}% fewer)`);
    const fewest = jittered.reduce((a, b) => (b.meanCalls < a.meanCalls ? b : a));
    const fastest = jittered.reduce((a, b) => (b.meanCompletionMs < a.meanCompletionMs ? b : a));
    const slowest = jittered.reduce((a, b) => (b.meanCompletionMs > a.meanCompletionMs ? b : a));
    parts.push(`Here, at ${largest} clients, plain exponential backoff made ${fmtInt(exp.meanCalls)} calls a run; ${cuts.join(', ')}.`);
    parts.push(`Of the jittered strategies ${name(fewest.strategy)} made the fewest calls, ${name(fastest.strategy)} finished soonest (${fmtMs(fastest.meanCompletionMs)}) and ${name(slowest.strategy)} last (${fmtMs(slowest.meanCompletionMs)}); plain exponential took ${fmtMs(exp.meanCompletionMs)}.`);
  }
  return parts.join(' ');
}

// ---- wiring ------------------------------------------------------------------------

function drawPresets() {
  const list = $('storm-presets');
  for (const preset of PRESETS) {
    const summaryId = `preset-${preset.key}-summary`;
    const button = h('button', { type: 'button', class: 'storm-btn', 'data-preset': preset.key, 'aria-describedby': summaryId }, preset.title);
    button.addEventListener('click', () => {
      if (preset.contention) {
        runContention({ ...CONTENTION_DEFAULTS }, { history: 'push', note: preset.note ?? null });
        return;
      }
      fillForm(preset.scenario);
      runScenario(preset.scenario, { history: 'push', note: preset.note ?? null });
    });
    // On a narrow screen the results are below the form: bring them (progress, Cancel) into view.
    button.addEventListener('click', () => {
      if (results.getBoundingClientRect().top > window.innerHeight * 0.6) {
        const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
        results.scrollIntoView({ behavior: smooth ? 'smooth' : 'auto', block: 'start' });
      }
    });
    list.append(h('li', {}, button, h('span', { class: 'storm-preset-summary', id: summaryId }, preset.summary)));
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  if (waitingContention) {
    runContention(waitingContention, { history: 'replace', note: presetNote('contention') });
    return;
  }
  // A number typed past ±(2^53 - 1) is refused as typed, before Number() rounds it
  // (9007199254740993 would be read, and quoted, as 9007199254740992).
  for (const { id, paths } of NUMBER_FIELDS) {
    const text = $(id).value.trim();
    if (isInexactInteger(text)) {
      showError(inexactIntegerMessage(paths[0], text), id, { focus: true });
      setState('refused');
      say('Not run: a number is out of range.');
      return;
    }
  }
  runScenario(readForm(), { history: 'replace', focus: true });
});
// Editing the form after a contention link: Run now runs the form's storm.
form.addEventListener('input', () => { waitingContention = null; });
cancelButton.addEventListener('click', cancel);
window.addEventListener('hashchange', () => loadFromHash());
window.addEventListener('popstate', () => loadFromHash());

document.documentElement.classList.add('has-js');
drawPresets();
setState('idle');
fillForm(DEFAULT_SCENARIO);
warmCharts();
getWorker();  // it loads the core now, so the first Run starts at once
loadFromHash({ first: true });
document.documentElement.dataset.ready = 'true';
