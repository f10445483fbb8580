// The storm lab's Web Worker: runs storms (and the contention experiment) off the
// page's main thread. storm.html starts it as a module worker:
//   new Worker(new URL('./storm-worker.mjs', import.meta.url), { type: 'module' })
// and stops a run by terminating it (Cancel), so a run never needs to look for
// messages while it steps.
//
// Messages in:
//   { type: 'storm', id, runs: [{ key, options, attempts }] }   every storm is created first: if the core refuses
//                                                     one, nothing runs ('refused', naming the run).
//                                                     The first run chooses its bucket width (bucketMs 0);
//                                                     the others use the same width, so their series and
//                                                     peak rates compare bucket for bucket. `attempts`:
//                                                     the most attempts the run can make (stormCost), or
//                                                     null; progress counts attempts against it.
//   { type: 'contention', id, clients: [..], strategies: [..], seed, baseMs, capMs, runs }
// Messages out (each with the request's id):
//   { type: 'ready' }                                 the core is loaded (once, before anything else)
//   { type: 'refused', key, code, message }           the core's error for that run's options
//   { type: 'progress', fraction, index, attempts }   0..1 over the whole request; index: the run stepping;
//                                                     attempts: that run's attempts so far (storms only).
//                                                     A run's fraction is the larger of its jobs finished
//                                                     (over its jobs) and its attempts (over the most it
//                                                     can make), so it moves while no job has finished.
//   { type: 'result', key, index, summary, series, elapsedMs }   one run done (series: copied typed arrays, transferred)
//   { type: 'contention-row', clients, strategy, meanCalls, meanCompletionMs }
//   { type: 'done', elapsedMs }
//   { type: 'error', code, message }                  anything else that went wrong
import { loadLab } from '../wasm/index.mjs';

/** Events per storm.run() call: a few ms of work each, so progress flows and Cancel is prompt. */
const STEP_EVENTS = 200_000;
/** At most one progress message per this many ms. */
const PROGRESS_MS = 40;
const SERIES_FIELDS = ['success', 'outage', 'throttled', 'ready', 'delayed', 'inFlight', 'quarantine'];

const labPromise = loadLab();
labPromise.then(() => self.postMessage({ type: 'ready' }), (error) => self.postMessage({ type: 'error', code: error?.code ?? 'load-failed', message: `the core could not be loaded: ${error?.message ?? error}` }));

self.addEventListener('message', async ({ data }) => {
  const { id } = data;
  try {
    const lab = await labPromise;
    if (data.type === 'storm') runStorms(lab, data);
    else if (data.type === 'contention') runContention(lab, data);
  } catch (error) {
    self.postMessage({ type: 'error', id, code: error?.code ?? 'error', message: String(error?.message ?? error) });
  }
});

function runStorms(lab, { id, runs }) {
  const started = performance.now();
  // Every run's options are checked first (by creating its storm): a refusal runs nothing.
  const storms = [];
  for (const run of runs) {
    try {
      storms.push(lab.createStorm(run.options));
    } catch (error) {
      for (const storm of storms) storm.dispose();
      self.postMessage({ type: 'refused', id, key: run.key, code: error?.code ?? 'error', message: String(error?.message ?? error) });
      return;
    }
  }
  // Only the first is kept; the others are made again with its bucket width once it is known.
  for (let index = 1; index < storms.length; index++) {
    storms[index].dispose();
    storms[index] = null;
  }
  let lastPost = 0;
  let bucketMs = null;
  try {
    for (let index = 0; index < storms.length; index++) {
      storms[index] ??= lab.createStorm({ ...runs[index].options, bucketMs });
      const storm = storms[index];
      const runStarted = performance.now();
      const bound = runs[index].attempts;
      for (;;) {
        const finished = storm.run(STEP_EVENTS);
        const now = performance.now();
        if (finished || now - lastPost >= PROGRESS_MS) {
          lastPost = now;
          // The counters so far (the core has no cheaper read of the attempts than the whole result).
          const { attempts } = storm.result().summary;
          const byAttempts = bound > 0 ? Math.min(1, attempts / bound) : 0;
          const runFraction = finished ? 1 : Math.max(storm.progress, byAttempts);
          self.postMessage({ type: 'progress', id, index, attempts, fraction: (index + runFraction) / storms.length });
        }
        if (finished) break;
      }
      const { summary, series } = storm.result();
      bucketMs ??= series.bucketMs;
      const copy = { bucketMs: series.bucketMs, length: series.length };
      for (const field of SERIES_FIELDS) {
        // result() copies each series out of wasm memory; a view into that memory would be copied here (never transferred).
        const a = series[field];
        copy[field] = a.byteOffset === 0 && a.buffer.byteLength === a.byteLength ? a : a.slice();
      }
      self.postMessage({ type: 'result', id, index, key: runs[index].key, summary: { ...summary, worstCase: { ...summary.worstCase } },
        series: copy, elapsedMs: performance.now() - runStarted }, SERIES_FIELDS.map((f) => copy[f].buffer));
      storm.dispose();
      storms[index] = null;
    }
  } finally {
    for (const storm of storms) storm?.dispose();
  }
  self.postMessage({ type: 'done', id, elapsedMs: performance.now() - started });
}

function runContention(lab, { id, clients, strategies, seed, baseMs, capMs, runs }) {
  const started = performance.now();
  const total = clients.length * strategies.length;
  let done = 0;
  for (const n of clients) {
    for (const strategy of strategies) {
      let result;
      try {
        result = lab.runContention({ clients: n, strategy, seed, baseMs, capMs, runs });
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
