// @ts-check
// The results panel's output (#storm-output) and its note (#storm-note): nothing
// yet, a storm comparison (the summary table, then a column of two charts per
// run) or the contention experiment. It owns what is on show (the charts, so
// they are destroyed with it, resized and rescaled) and draws in short tasks
// (task-queue.mjs), so no task runs long. A run's charts are drawn when its
// column comes near the screen: a phone that shows the form pays for none of
// them at load (each chart is tens of milliseconds of a slow phone's main
// thread). The reader's Same axes choice is reported through bindSameAxes; the
// controller keeps it across runs.
import { h } from '../shared/dom.mjs';
import { chartData, chartFigure, chartHeight, contentionChart, niceMax, runChart, warmCharts } from './charts.mjs';
import { CONTENTION_MEASURES, contentionComparison, contentionSection, contentionTable } from './contention-view.mjs';
import { SummaryView, describeScenario } from './summary-view.mjs';
import { fmtMs } from './format.mjs';
import { TaskQueue } from './task-queue.mjs';

export class ResultsView {
  #output;
  #note;
  #tasks = new TaskQueue();
  // What is on show: { charts: [{ kind, plot, el, … }], observer } and, for storms, the summary,
  // the grid of run columns, the results so far and the axes' maxima. A new request replaces it whole.
  #shown = null;
  #sameAxes = true;
  #resizeScheduled = false;
  #warmed = false;  // uPlot is loaded, or loading, and its code has run once on this page (warmCharts)
  /** @type {(on: boolean) => void} */
  #onSameAxes = () => {};

  constructor(doc = document) {
    this.#output = doc.getElementById('storm-output');
    this.#note = doc.getElementById('storm-note');
  }

  /** `handler(same)`: the reader ticked or cleared Same axes. */
  bindSameAxes(handler) { this.#onSameAxes = handler; }

  /** No results on show: the form holds a scenario that has not run. */
  renderEmpty() {
    this.#destroy();
    this.#note.hidden = true;
    this.#output.replaceChildren(h('p', { class: 'storm-empty' }, 'Press Run to run this scenario: the summary and the charts appear here.'));
  }

  /** A storm comparison begins (the core accepted it): the scenario line, an empty summary, the axes choice. */
  renderStormStart(scenario, { note = null, sameAxes = true } = {}) {
    const shown = this.#clear(note);
    this.#sameAxes = sameAxes;
    const summary = new SummaryView();
    const scenarioLine = h('p', { class: 'storm-scenario-line' }, `${describeScenario(scenario)}.`);
    const box = h('input', { type: 'checkbox', id: 'storm-same-axes' });
    box.checked = sameAxes;
    box.addEventListener('change', () => this.#onSameAxes(box.checked));
    const axes = h('label', { class: 'storm-axes' }, box, ' Same axes for every run (compare heights)');
    const how = h('p', { class: 'storm-how' }, 'Two charts per run. Attempts per second, stacked: success at the bottom, then outage failures, throttled, failed (the failure rate) and timed-out attempts, each layer only when a run has some; the black line is goodput (jobs completed per second), the dashed pink one the retries the budget refused. Jobs by place: ready, delayed (backing off), in flight, quarantined and, with a server, waiting in its queue. ',
      scenario.outageMs ? 'The shaded band is the outage. ' : '', 'Hover or touch a chart to read exact values (every chart follows the same moment); the summary table above has the totals.');
    const grid = h('div', { class: 'storm-runs' });
    this.#output.append(scenarioLine, summary.element, how, axes, grid);
    Object.assign(shown, { summary, grid, results: [], max: { attempts: 0, depth: 0 }, maxX: 0 });
  }

  /**
   * One run's result ({ run, summary, series }): its column of the table now; its charts once
   * every run is done (renderStormCharts), so the page draws while the worker is idle and every
   * chart starts with the shared axes.
   */
  renderStormResult(result) {
    if (!this.#shown?.results) return;
    this.#shown.results.push(result);
    this.#shown.summary.addRun(result.run, result.summary);
  }

  /**
   * The charts of every result on show: each run's chart data in a task of its own (the shared
   * axes need every run's maxima), then a column per run, whose charts are drawn once it comes
   * near the screen.
   */
  renderStormCharts() {
    const shown = this.#shown;
    if (!shown?.results) return;
    const columns = [];
    for (const result of shown.results) {
      this.#later(() => {
        if (this.#shown !== shown) return;
        const data = chartData(result.series);
        shown.max.attempts = Math.max(shown.max.attempts, data.maxRate);
        shown.max.depth = Math.max(shown.max.depth, data.maxDepth);
        shown.maxX = Math.max(shown.maxX, data.maxX);
        columns.push({ result, data });
      });
    }
    this.#later(() => { if (this.#shown === shown) for (const column of columns) this.#addRunColumn(shown, column); });
  }

  /** Same axes on (every run's largest maxima) or off (each chart its own): applied one chart per task. */
  renderSameAxes(same) {
    this.#sameAxes = same;
    if (!this.#shown) return;
    for (const chart of this.#shown.charts) {
      if (chart.kind === 'contention') continue;
      const axes = this.#axesOf(this.#shown, chart).join();
      if (axes === chart.applied) continue;
      chart.applied = axes;
      this.#later(() => { if (chart.plot.root.isConnected) chart.plot.setData(chart.plot.data, true); });
    }
  }

  /** The contention experiment begins (the core accepted it): the output is emptied. */
  renderContentionStart(note = null) {
    this.#clear(note);
  }

  /**
   * The contention experiment's results: its tables, the comparison, and its charts in tasks
   * of their own. `grid`: the core's grid ({ clients, strategies, jittered }).
   */
  renderContention(rows, note, grid) {
    this.#clear(note);
    for (const measure of CONTENTION_MEASURES) this.#output.append(contentionTable(measure, rows, grid));
    this.#output.append(contentionComparison(rows, grid));
    const columns = h('div', { class: 'storm-runs' });
    this.#output.append(columns);
    this.#warmUp();
    for (const measure of CONTENTION_MEASURES) {
      const { section, plot } = contentionSection(measure);
      columns.append(section);
      this.#later(() => {
        if (!this.#shown || !plot.isConnected) return;
        this.#shown.charts.push(contentionChart(plot, rows, measure.value, grid));
      });
    }
  }

  #addRunColumn(shown, { result, data }) {
    const { run } = result;
    const column = h('section', { class: 'storm-run', 'aria-labelledby': `run-${run.key}` },
      h('h3', { id: `run-${run.key}` }, run.label));
    const outage = run.options.outage && run.options.outage.durationMs > 0
      ? [run.options.outage.startMs / 1000, (run.options.outage.startMs + run.options.outage.durationMs) / 1000] : null;
    const attemptsFigure = chartFigure(`Attempts per second (${fmtMs(data.widthMs)} intervals)`);
    const depthFigure = chartFigure('Jobs by place');
    column.append(attemptsFigure.figure, depthFigure.figure);
    shown.grid.append(column);
    shown.undrawn.set(column, () => {
      this.#warmUp();
      this.#later(() => this.#addChart(shown, 'attempts', attemptsFigure.plot, data, outage));
      this.#later(() => this.#addChart(shown, 'depth', depthFigure.plot, data, outage));
    });
    shown.nearby.observe(column);
  }

  /** Columns that came near the screen: their charts are queued, once. */
  #drawNearby(shown, entries) {
    for (const entry of entries) {
      const draw = entry.isIntersecting ? shown.undrawn.get(entry.target) : undefined;
      if (!draw) continue;
      shown.undrawn.delete(entry.target);
      shown.nearby.unobserve(entry.target);
      draw();
    }
  }

  #addChart(shown, kind, container, data, outage) {
    if (!this.#shown || !container.isConnected) return;
    const axes = (chart) => this.#axesOf(shown, chart);
    shown.charts.push(runChart({ kind, container, data, outage, axes, later: (fn) => this.#later(fn) }));
  }

  /** A chart's x and y maxima: its own, or the largest of every run's (Same axes). */
  #axesOf(shown, chart) {
    const own = chart.kind === 'attempts' ? chart.data.maxRate : chart.data.maxDepth;
    return [Math.max(1e-3, this.#sameAxes ? shown.maxX : chart.data.maxX), niceMax(this.#sameAxes ? shown.max[chart.kind] : own)];
  }

  /** Empties the output for a new request and says its note; returns what is now on show. */
  #clear(note) {
    this.#destroy();
    this.#output.replaceChildren();
    this.#note.hidden = !note;
    this.#note.textContent = note ?? '';
    const observer = new ResizeObserver(() => this.#scheduleResize());
    observer.observe(this.#output);
    // "Near": within half a screen of it, so a reader scrolling down finds the charts drawn.
    /** @type {any} */
    const shown = { charts: [], observer, undrawn: new Map() };
    shown.nearby = new IntersectionObserver((entries) => this.#drawNearby(shown, entries), { rootMargin: '50% 0px' });
    this.#shown = shown;
    return shown;
  }

  #destroy() {
    if (!this.#shown) return;
    this.#shown.observer.disconnect();
    this.#shown.nearby.disconnect();
    for (const chart of this.#shown.charts) chart.plot.destroy();
    this.#shown = null;
  }

  #later(fn) { this.#tasks.later(fn); }

  /** Before the page's first chart: uPlot loaded and V8 compiling its code, in tasks of their own (charts.mjs, warmCharts). */
  #warmUp() {
    if (this.#warmed) return;
    this.#warmed = true;
    this.#later(warmCharts);
  }

  /** Fits every chart to its box again, once a frame at most, one chart per task. */
  #scheduleResize() {
    if (this.#resizeScheduled) return;
    this.#resizeScheduled = true;
    requestAnimationFrame(() => {
      this.#resizeScheduled = false;
      if (!this.#shown) return;
      for (const chart of this.#shown.charts) {
        const width = Math.max(200, chart.el.clientWidth);
        if (width !== chart.plot.width || chartHeight() !== chart.plot.height) this.#later(() => chart.plot.setSize({ width, height: chartHeight() }));
      }
    });
  }
}
