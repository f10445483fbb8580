// The storm lab's model: a thin adapter over the simulation's Web Worker
// (storm-worker.mjs documents its messages). It starts the worker, numbers each
// request, posts it, and terminates the worker to stop one. The core, in the
// worker, checks every option and runs everything; this module decides nothing.
import { CONTENTION_CLIENTS, CONTENTION_STRATEGIES } from './storm-presets.mjs';

export class StormWorker {
  #url;
  #worker = null;
  #nextId = 1;
  #onMessage = () => {};
  #onFailure = () => {};

  /** `url`: the worker module's URL (storm-worker.mjs). */
  constructor(url) { this.#url = url; }

  /** `handler(message)`: every message the worker posts (a request's messages carry its id). */
  bindMessage(handler) { this.#onMessage = handler; }

  /** `handler(message)`: the worker itself failed (it could not start, or threw outside a request). */
  bindFailure(handler) { this.#onFailure = handler; }

  /** Starts the worker if none runs: it loads the core now, so the next request starts at once. */
  start() {
    if (!this.#worker) {
      const worker = this.#worker = new Worker(this.#url, { type: 'module' });
      worker.addEventListener('message', (event) => this.#onMessage(event.data));
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        this.#onFailure(`the simulation worker failed: ${event.message || 'it could not start'}`);
      });
    }
    return this.#worker;
  }

  /** Terminates the worker, if one runs: nothing of what it was doing arrives later. */
  stop() {
    if (this.#worker) this.#worker.terminate();
    this.#worker = null;
  }

  /**
   * Runs storms on one grid: `runs` ([{ key, options }], storm-presets.mjs stormRuns) and the
   * most attempts each can make (stormCost's perRun; null for no bound). Returns the request's id.
   */
  runStorms(runs, attempts) {
    const id = this.#nextId++;
    this.start().postMessage({ type: 'storm', id, runs: runs.map(({ key, options }, i) => ({ key, options, attempts: attempts[i] })) });
    return id;
  }

  /** Runs the contention experiment over its grid with `contention`'s seed, runs (and backoff, if given). Returns the id. */
  runContention(contention) {
    const id = this.#nextId++;
    const message = { type: 'contention', id, clients: CONTENTION_CLIENTS, strategies: CONTENTION_STRATEGIES };
    for (const key of ['seed', 'baseMs', 'capMs', 'runs']) if (contention[key] !== undefined && contention[key] !== null) message[key] = contention[key];
    this.start().postMessage(message);
    return id;
  }
}
