// @ts-check
// Work split into tasks: each function runs in a task of its own (a setTimeout
// each, in order), so drawing many charts never makes one long task.

export class TaskQueue {
  #queue = [];
  #draining = false;

  /** Runs `fn` in a later task, after every function queued before it. */
  later(fn) {
    this.#queue.push(fn);
    if (!this.#draining) {
      this.#draining = true;
      setTimeout(() => this.#drain(), 0);
    }
  }

  #drain() {
    const fn = this.#queue.shift();
    try {
      fn();
    } finally {
      if (this.#queue.length > 0) setTimeout(() => this.#drain(), 0);
      else this.#draining = false;
    }
  }
}
