// The storm lab's charts (uPlot): the data a run's series become, a run's two
// charts (attempts per second, stacked; jobs by place), the contention
// experiment's two line charts, and a warm-up. Drawing only: the numbers are the
// core's (the worker's results); which series exist is lab.stormSeries.
import uPlot from 'uplot';
import { h } from '../shared/dom.mjs';
import { CONTENTION_LABELS } from './storm-presets.mjs';
import { fmtCompact, fmtInt, fmtRate, fmtSeconds } from './format.mjs';

const COLORS = {
  success: '#13794a', outage: '#c0262d', throttled: '#b86e00',
  ready: '#2f4bc4', delayed: '#7b3fb3', inFlight: '#0b7285', quarantine: '#5b6475',
};
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
 * Draws one small stacked chart off the page and throws it away. The first uPlot chart on a page
 * pays for V8 compiling uPlot's code (its first calls); paid here, while the page loads, it is not
 * paid in the middle of showing a run's results, when it would be the longest task on the page.
 */
export function warmCharts() {
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
