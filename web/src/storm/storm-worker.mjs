// @ts-check
// The storm lab's Web Worker: runs storms (and the contention experiment) off the
// page's main thread. storm.html starts it as a module worker:
//   new Worker(new URL('./storm-worker.mjs', import.meta.url), { type: 'module' })
// and stops a run by terminating it (Cancel), so a run never needs to look for
// messages while it steps.
//
// Messages in:
//   { type: 'describe', id }                          what the page takes from the core, answered once the
//                                                     core is loaded: 'described'
//   { type: 'cost', id, runs: [options…] }            each storm's bound (sim.stormCost): 'cost'
//   { type: 'contention-cost', id, seed, runs }       the contention grid's cost (sim.contentionCost)
//   { type: 'storm', id, runs: [{ key, options }] }   one storm set (sim.createStormSet): every run's
//                                                     options are checked first, and if the core refuses
//                                                     one, nothing runs ('refused', naming the run). The
//                                                     core puts every run on the first one's grid, so
//                                                     their series and peak rates compare bucket for
//                                                     bucket. Progress counts each run's attempts
//                                                     against the most it can make (sim.stormCost).
//   { type: 'contention', id, clients: [..], strategies: [..], seed, baseMs, capMs, runs }
// Messages out (each with the request's id):
//   { type: 'ready' }                                 the core is loaded (once, before anything else)
//   { type: 'described', schema: { storm, contention, backoff }, contentionClients }
//                                                     sim.schema's rows for those objects (the strategy
//                                                     lists are their choices) and sim.contentionGridClients
//   { type: 'cost', costs: [{ attempts, horizonMs } | { refused, code }…] }   one a run (storm-presets.mjs runCosts)
//   { type: 'contention-cost', cost: { runs, calls } | { refused, code } }
//   { type: 'refused', key, code, message }           the core's error for that run's options
//   { type: 'progress', fraction, index, attempts, bound }   0..1 over the whole request; index: the run
//                                                     stepping; attempts: that run's attempts so far and
//                                                     bound the most it can make (storms only).
//                                                     A run's fraction is the larger of its jobs finished
//                                                     (over its jobs) and its attempts (over the bound),
//                                                     so it moves while no job has finished.
//   { type: 'result', key, index, summary, series, elapsedMs }   one run done (series: copied typed arrays, transferred)
//   { type: 'contention-row', clients, strategy, meanCalls, meanCompletionMs }
//   { type: 'done', elapsedMs }
//   { type: 'error', code, message }                  anything else that went wrong
// Only the simulations' module (wasm/sim.mjs: dlq_sim.wasm), not the lab's: the worker runs storms.
import { loadSim } from '../../wasm/sim.mjs';
import { runCosts } from './storm-presets.mjs';

/** Events per storm.run() call: a few ms of work each, so progress flows and Cancel is prompt. */
const STEP_EVENTS = 200_000;
/** At most one progress message per this many ms. */
const PROGRESS_MS = 40;

const simPromise = loadSim();
simPromise.then(() => self.postMessage({ type: 'ready' }), (error) => self.postMessage({ type: 'error', code: error?.code ?? 'load-failed', message: `the core could not be loaded: ${error?.message ?? error}` }));

self.addEventListener('message', async ({ data }) => {
  const { id } = data;
  try {
    const sim = await simPromise;
    if (data.type === 'describe') describe(sim, data);
    else if (data.type === 'cost') self.postMessage({ type: 'cost', id, costs: runCosts(data.runs.map((options) => ({ options })), (o) => sim.stormCost(o)) });
    else if (data.type === 'contention-cost') contentionCost(sim, data);
    else if (data.type === 'storm') runStorms(sim, data);
    else if (data.type === 'contention') runContention(sim, data);
  } catch (error) {
    self.postMessage({ type: 'error', id, code: error?.code ?? 'error', message: String(error?.message ?? error) });
  }
});

function describe(sim, { id }) {
  const { storm, contention, backoff } = sim.schema;
  self.postMessage({ type: 'described', id, schema: { storm, contention, backoff }, contentionClients: sim.contentionGridClients });
}

function contentionCost(sim, { id, seed, runs }) {
  const options = {};
  if (seed !== undefined && seed !== null) options.seed = seed;
  if (runs !== undefined && runs !== null) options.runs = runs;
  let cost;
  try {
    cost = sim.contentionCost(options);
  } catch (error) {
    cost = { refused: String(error?.message ?? error), code: error?.code ?? 'error' };
  }
  self.postMessage({ type: 'contention-cost', id, cost });
}

function runStorms(sim, { id, runs }) {
  const started = performance.now();
  let set;
  try {
    set = sim.createStormSet(runs.map((run) => run.options));
  } catch (error) {
    const key = Number.isInteger(error?.index) ? runs[error.index].key : runs[0]?.key;
    self.postMessage({ type: 'refused', id, key, code: error?.code ?? 'error', message: String(error?.message ?? error).replace(/^runs\[\d+\]: /, '') });
    return;
  }
  // Accepted, so every run has a bound: the most attempts it can make.
  const bounds = runs.map((run) => sim.stormCost(run.options).attempts);
  try {
    let lastPost = 0;
    let runStarted = performance.now();
    let index = 0;
    while (index < runs.length) {
      const over = set.run(STEP_EVENTS);
      const now = performance.now();
      // Every run that finished in this slice: its result, then on to the next.
      for (; index < set.current; index++) {
        const { summary, series } = set.result(index);
        const fields = sim.stormSeries;
        self.postMessage({ type: 'progress', id, index, attempts: summary.attempts, bound: bounds[index], fraction: (index + 1) / runs.length });
        self.postMessage({ type: 'result', id, index, key: runs[index].key, summary, series,
          elapsedMs: now - runStarted }, fields.map((f) => series[f].buffer));
        runStarted = now;
      }
      if (over) break;
      if (now - lastPost >= PROGRESS_MS) {
        lastPost = now;
        const attempts = set.attempts;
        const bound = bounds[index];
        const byAttempts = bound > 0 ? Math.min(1, attempts / bound) : 0;
        const runFraction = Math.max(set.progress, byAttempts);
        self.postMessage({ type: 'progress', id, index, attempts, bound, fraction: (index + runFraction) / runs.length });
      }
    }
  } finally {
    set.dispose();
  }
  self.postMessage({ type: 'done', id, elapsedMs: performance.now() - started });
}

function runContention(sim, { id, clients, strategies, seed, baseMs, capMs, runs }) {
  const started = performance.now();
  const total = clients.length * strategies.length;
  let done = 0;
  for (const n of clients) {
    for (const strategy of strategies) {
      let result;
      try {
        result = sim.runContention({ clients: n, strategy, seed, baseMs, capMs, runs });
      } catch (error) {
        self.postMessage({ type: 'refused', id, key: `${strategy}@${n}`, code: error?.code ?? 'error', message: String(error?.message ?? error) });
        return;
      }
      done++;
      self.postMessage({ type: 'contention-row', id, clients: n, strategy, meanCalls: result.meanCalls, meanCompletionMs: result.meanCompletionMs });
      self.postMessage({ type: 'progress', id, index: 0, fraction: done / total });
    }
  }
  self.postMessage({ type: 'done', id, elapsedMs: performance.now() - started });
}
