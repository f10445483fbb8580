import { coded } from './errors.mjs';
import { aborted, abortedError, call } from './runtime.mjs';

/**
 * The life of one object in wasm memory (a queue, a storm): its handle while it
 * lives, the refusal once disposed ('disposed', naming how to get a new one) or
 * once the core has aborted, and dispose(), which after an abort only forgets it.
 */
export class Lifetime {
  #handle;
  #forget;
  #what;

  constructor(handle, forget, what) {
    this.#handle = handle;
    this.#forget = forget;
    this.#what = what;
  }

  /** The handle, or the refusal: disposed, or the core aborted. */
  live() {
    if (this.#handle === null) {
      const [name, create] = this.#what;
      throw coded(Error, 'disposed', `this ${name} has been disposed; create a new one with ${create}`);
    }
    if (aborted !== null) throw abortedError();
    return this.#handle;
  }

  get disposed() {
    return this.#handle === null;
  }

  dispose() {
    if (this.#handle === null) this.live();  // throws 'disposed'
    const handle = this.#handle;
    this.#handle = null;
    this.#forget();
    if (aborted === null) call(() => handle.delete());
  }
}
