// @ts-check
// The storm lab's charts (uPlot): the data a run's series become, a run's two
// charts (attempts per second, stacked; jobs by place), the contention
// experiment's two line charts, and a warm-up. Drawing only: the numbers are the
// core's (the worker's results); which series exist is sim.stormSeries.
//
// uPlot is a module of its own, imported by loadCharts() before the page's first chart
// (warmCharts), not with the page: the page's first screen draws no chart, and its
// start-up then parses and runs the lab's own code only.
import { h } from '../shared/dom.mjs';
import { CONTENTION_LABELS } from './storm-presets.mjs';
import { fmtCompact, fmtInt, fmtRate, fmtSeconds } from './format.mjs';

const COLORS = {
  success: '#13794a', outage: '#c0262d', throttled: '#b86e00', failed: '#8a1c7c', timedOut: '#6b4a1f',
  goodput: '#111418', denied: '#d6336c',
  ready: '#2f4bc4', delayed: '#7b3fb3', inFlight: '#0b7285', quarantine: '#5b6475', serverQueue: '#a61e4d',
};
/** The attempts chart's layers, bottom first: by result (the core's series names). */
const LAYERS = [
  { key: 'success', label: 'Success' }, { key: 'outage', label: 'Outage failure' }, { key: 'throttled', label: 'Throttled' },
  { key: 'failed', label: 'Failed (failure rate)' }, { key: 'timedOut', label: 'Timed out' },
];
/** Lines over the layers: goodput (jobs completed) and the budget's refusals, per second. */
const LINES = [{ key: 'completed', rate: 'goodput', label: 'Goodput (completed)' }, { key: 'denied', rate: 'denied', label: 'Retries refused' }];
/** The depth chart's lines (serverQueue only when a run has a server). */
const DEPTHS = [
  { key: 'ready', label: 'Ready' }, { key: 'delayed', label: 'Delayed' }, { key: 'inFlight', label: 'In flight' },
  { key: 'quarantine', label: 'Quarantine', dash: [5, 3] }, { key: 'serverQueue', label: 'Server queue', dash: [2, 2] },
];
const CONTENTION_COLORS = { none: '#5b6475', exponential: '#c0262d', equal: '#b86e00', full: '#13794a', decorrelated: '#2f4bc4' };
const fill = (hex, alpha) => `${hex}${Math.round(alpha * 255).toString(16).padStart(2, '0')}`;

/** Charts draw at most this many intervals: a longer series is merged k buckets at a time (exact: counts add up, depths are the last bucket's). */
const MAX_POINTS = 4000;

/**
 * A run's series as its charts draw them: the x axis (seconds), rates per second stacked for
 * the attempts chart, the depths, their maxima and the drawn interval's width.
 */
export function chartData(series) {
  const k = Math.max(1, Math.ceil(series.length / MAX_POINTS));
  const widthMs = series.bucketMs * k;
  const n = Math.ceil(series.length / k);
  const perSecond = 1000 / widthMs;
  const x = new Float64Array(n);
  const rates = {};
  for (const { key } of LAYERS) rates[key] = new Float64Array(n);
  for (const { rate } of LINES) rates[rate] = new Float64Array(n);
  const stacked = LAYERS.map(() => new Float64Array(n));
  const depth = DEPTHS.map(() => new Uint32Array(n));
  let maxRate = 0;
  let maxDepth = 0;
  for (let j = 0; j < n; j++) {
    x[j] = (j * widthMs) / 1000;
    const end = Math.min(series.length, (j + 1) * k);
    let total = 0;
    LAYERS.forEach(({ key }, layer) => {
      let sum = 0;
      for (let i = j * k; i < end; i++) sum += series[key][i];
      rates[key][j] = sum * perSecond;
      total += sum * perSecond;
      stacked[layer][j] = total;
    });
    for (const { key, rate } of LINES) {
      let sum = 0;
      for (let i = j * k; i < end; i++) sum += series[key][i];
      rates[rate][j] = sum * perSecond;
      if (rates[rate][j] > maxRate) maxRate = rates[rate][j];
    }
    if (total > maxRate) maxRate = total;
    DEPTHS.forEach(({ key }, d) => {
      depth[d][j] = series[key][end - 1];
      if (depth[d][j] > maxDepth) maxDepth = depth[d][j];
    });
  }
  // A layer, line or depth that is zero throughout is not drawn (a run without a server has no server queue).
  const shown = (values) => values.some((v) => v > 0);
  return {
    x, rates, stacked, depth, maxRate, maxDepth, maxX: n > 0 ? x[n - 1] : 0, widthMs,
    layers: LAYERS.map((l, i) => shown(rates[l.key]) || i < 3),
    lines: LINES.map((l) => shown(rates[l.rate])),
    depths: DEPTHS.map((d, i) => shown(depth[i]) || i < 4),
  };
}

/** A round upper bound for a y axis (never 0, so an empty chart still draws). */
export function niceMax(max) {
  if (!(max > 0)) return 1;
  const step = 10 ** Math.floor(Math.log10(max));
  return Math.ceil((max * 1.05) / step * 2) / 2 * step;
}

export const chartHeight = () => (window.innerWidth < 600 ? 150 : 180);

/** A figure with its caption and the (empty) box a chart is drawn into; charts are hidden from assistive technology (the tables are their text). */
export function chartFigure(caption) {
  const plot = h('div', { class: 'storm-plot', 'aria-hidden': 'true' });
  return { figure: h('figure', { class: 'storm-figure' }, h('figcaption', {}, caption), plot), plot };
}

/** uPlot's constructor, once loadCharts() has imported it. @type {typeof import('uplot')} */
let uPlot;
/** Each interval drawn as a step over its own width (x is the interval's start); made by loadCharts(). */
let steps;

/** Imports uPlot (once); every chart function below needs it loaded first. */
async function loadCharts() {
  if (uPlot) return;
  const loaded = (await import('uplot')).default;
  steps ??= loaded.paths.stepped({ align: 1 });
  uPlot = loaded;
}

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

/**
 * One chart of a run in `container`: kind 'attempts' (stacked rates) or 'depth' (jobs by place),
 * over chartData's `data`; `outage`: [start, end] in seconds to shade, or null. `axes(chart)`
 * gives its x and y maxima whenever uPlot scales it; `later` queues a task. Built in three short
 * tasks instead of one long one: the DOM now, sized and its axes drawn in the next (uPlot's init),
 * its data drawn in the one after. Returns { kind, data, el, plot, applied }.
 */
export function runChart({ kind, container, data, outage, axes, later }) {
  const width = Math.max(200, container.clientWidth);
  const xSeries = { label: 'Time', value: (u, v) => (v === null || v === undefined ? '–' : fmtSeconds(v)) };
  const raw = (arr) => (u, v, s, i) => (i === null || i === undefined ? '–' : (kind === 'attempts' ? fmtRate : fmtInt)(arr[i]));
  let series;
  let plotData;
  /** @type {import('uplot').Band[] | undefined} */
  let bands;
  if (kind === 'attempts') {
    // Stacked, top first: each layer's edge is the sum of it and the layers below. Drawn in that
    // order, so where the edges meet (a one-interval spike of one kind, thinner than a pixel) the
    // lower, later edge shows its own colour: an all-success spike is green, an outage spike red.
    // Goodput and the budget's refusals are lines over the stack.
    const area = (label, color, values) => ({ label, stroke: color, fill: fill(color, 0.45), width: 1, points: { show: false }, value: raw(values) });
    const layers = LAYERS.map((l, i) => ({ ...l, i })).filter((l) => data.layers[l.i]).reverse();
    const lines = LINES.map((l, i) => ({ ...l, i })).filter((l) => data.lines[l.i]);
    series = [xSeries, ...layers.map((l) => area(l.label, COLORS[l.key], data.rates[l.key])),
      ...lines.map((l) => ({ label: l.label, stroke: COLORS[l.rate], width: 1.5, dash: l.rate === 'denied' ? [4, 3] : undefined,
        paths: steps, points: { show: false }, value: raw(data.rates[l.rate]) }))];
    plotData = [data.x, ...layers.map((l) => data.stacked[l.i]), ...lines.map((l) => data.rates[l.rate])];
    bands = layers.slice(0, -1).map((l, j) => ({ series: [j + 1, j + 2], fill: fill(COLORS[l.key], 0.45) }));
  } else {
    const depths = DEPTHS.map((d, i) => ({ ...d, i })).filter((d) => data.depths[d.i]);
    series = [xSeries, ...depths.map((d) => ({ label: d.label, stroke: COLORS[d.key], width: 1.5, dash: d.dash, paths: steps,
      points: { show: false }, value: raw(data.depth[d.i]) }))];
    plotData = [data.x, ...depths.map((d) => data.depth[d.i])];
  }
  const chart = { kind, data, el: container, plot: null };
  /** @type {import('uplot').Options} */
  const opts = {
    width,
    height: chartHeight(),
    series,
    bands,
    scales: {
      x: { time: false, range: () => [0, axes(chart)[0]] },
      y: { range: () => [0, axes(chart)[1]] },
    },
    axes: [
      { ...axisStyle, values: (u, ticks) => ticks.map((t) => fmtSeconds(t)) },
      { ...axisStyle, size: 48, values: (u, ticks) => ticks.map((t) => fmtCompact(t)) },
    ],
    cursor: { sync: { key: 'storm' }, drag: { x: false, y: false }, points: { size: 6 } },
    legend: { live: true },
    hooks: { drawClear: [shadeOutage(outage)] },
  };
  chart.applied = axes(chart).join();
  chart.plot = new uPlot(opts, /** @type {import('uplot').AlignedData} */ (plotData.map(() => [])), (u, init) => {
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
  readOnTouch(chart.plot);
  return chart;
}

/**
 * The contention experiment's chart in `container`: `value(row)` per client count, one line
 * per strategy of `grid` (the core's: { clients, strategies }). Returns { kind: 'contention', el, plot }.
 */
export function contentionChart(container, rows, value, grid) {
  const x = Float64Array.from(grid.clients);
  const columns = grid.strategies.map((k) => grid.clients.map((n) => {
    const row = rows.find((r) => r.clients === n && r.strategy === k);
    return row ? value(row) : null;
  }));
  const plot = new uPlot({
    width: Math.max(200, container.clientWidth),
    height: chartHeight(),
    series: [{ label: 'Clients', value: (u, v) => (v === null || v === undefined ? '–' : fmtInt(v)) },
      ...grid.strategies.map((k) => ({ label: CONTENTION_LABELS[k], stroke: CONTENTION_COLORS[k], width: 1.5, dash: k === 'none' ? [5, 3] : undefined,
        value: (u, v) => (v === null || v === undefined ? '–' : fmtInt(v)) }))],
    scales: { x: { time: false } },
    axes: [{ ...axisStyle }, { ...axisStyle, size: 48, values: (u, ticks) => ticks.map((t) => fmtCompact(t)) }],
    cursor: { drag: { x: false, y: false }, points: { size: 6 } },
    legend: { live: true },
  }, [x, ...columns], container);
  container.dataset.drawn = 'true';
  return { kind: 'contention', el: container, plot };
}

/**
 * Loads uPlot, then draws one small stacked chart off the page and throws it away. The first
 * uPlot chart on a page pays for V8 compiling uPlot's code (its first calls); paid here, in a
 * task before the first real chart's, it does not make that chart's task the longest on the
 * page. The first chart may be drawn once this has resolved.
 */
export async function warmCharts() {
  await loadCharts();
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
