// @ts-check
// Work split into tasks: each function runs in a task of its own (a setTimeout
// each, in order), so drawing many charts never makes one long task. A function
// that returns a promise holds the queue until it settles (loading a module).

export class TaskQueue {
  #queue = [];
  #draining = false;
  #report;

  /** `report(error)`: how a rejected promise is made known; by default thrown again, unhandled, as a throw would be. */
  constructor({ report = (error) => { throw error; } } = {}) {
    this.#report = report;
  }

  /** Runs `fn` in a later task, after every function queued before it (and after the promise it returns settles). */
  later(fn) {
    this.#queue.push(fn);
    if (!this.#draining) {
      this.#draining = true;
      setTimeout(() => this.#drain(), 0);
    }
  }

  #drain() {
    const fn = this.#queue.shift();
    let pending = null;
    try {
      const result = fn();
      if (result instanceof Promise) pending = result;
    } finally {
      if (pending) pending.then(() => this.#next(), (error) => { this.#next(); this.#report(error); });
      else this.#next();
    }
  }

  #next() {
    if (this.#queue.length > 0) setTimeout(() => this.#drain(), 0);
    else this.#draining = false;
  }
}
