// @ts-check
// The storm lab's model: a thin adapter over the simulation's Web Worker
// (storm-worker.mjs documents its messages). It starts the worker, numbers each
// request, posts it, and terminates the worker to stop one. The core, in the
// worker, checks every option, bounds every cost and runs everything; this
// module decides nothing.

export class StormWorker {
  #url;
  #worker = null;
  #nextId = 1;
  /** @type {(message: any) => void} */
  #onMessage = () => {};
  /** @type {(message: string) => void} */
  #onFailure = () => {};
  // Questions waiting for their answer (describe, cost): id -> resolve.
  #asked = new Map();

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
      worker.addEventListener('message', (event) => {
        const answer = this.#asked.get(event.data?.id);
        if (answer) {
          this.#asked.delete(event.data.id);
          answer(event.data);
        } else {
          this.#onMessage(event.data);
        }
      });
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        this.#onFailure(`the simulation worker failed: ${event.message || 'it could not start'}`);
      });
    }
    return this.#worker;
  }

  /**
   * Terminates the worker, if one runs: nothing of what it was doing arrives later.
   * A question still waiting is answered null (the reader moved on).
   */
  stop() {
    if (this.#worker) this.#worker.terminate();
    this.#worker = null;
    for (const answer of this.#asked.values()) answer(null);
    this.#asked.clear();
  }

  /**
   * Posts a question; resolves with the worker's answer (or null if the worker is stopped
   * first), rejects with the worker's error if it could not answer.
   */
  async #ask(message) {
    const id = this.#nextId++;
    const answer = await new Promise((resolve) => {
      this.#asked.set(id, resolve);
      this.start().postMessage({ ...message, id });
    });
    if (answer?.type === 'error') throw new Error(answer.message);
    return answer;
  }

  /** What the page takes from the core: { schema: { storm, contention, backoff }, contentionClients } (or null). */
  describe() {
    return this.#ask({ type: 'describe' });
  }

  /** Each run's bound from the core (`runs`: [{ options }]): [{ attempts, horizonMs } | { refused, code }] (or null). */
  async stormCosts(runs) {
    const answer = await this.#ask({ type: 'cost', runs: runs.map((run) => run.options) });
    return answer?.costs ?? null;
  }

  /** The contention grid's cost with `contention`'s seed and runs: { runs, calls } | { refused, code } (or null). */
  async contentionCost({ seed, runs }) {
    const answer = await this.#ask({ type: 'contention-cost', seed, runs });
    return answer?.cost ?? null;
  }

  /** Runs storms on one grid: `runs` ([{ key, options }], storm-presets.mjs stormRuns). Returns the request's id. */
  runStorms(runs) {
    const id = this.#nextId++;
    this.start().postMessage({ type: 'storm', id, runs: runs.map(({ key, options }) => ({ key, options })) });
    return id;
  }

  /**
   * Runs the contention experiment over `grid` ({ clients, strategies }: the core's) with
   * `contention`'s seed, runs (and backoff, if given). Returns the id.
   */
  runContention(contention, grid) {
    const id = this.#nextId++;
    const message = { type: 'contention', id, clients: grid.clients, strategies: grid.strategies };
    for (const key of ['seed', 'baseMs', 'capMs', 'runs']) if (contention[key] !== undefined && contention[key] !== null) message[key] = contention[key];
    this.start().postMessage(message);
    return id;
  }
}
