// The loaded core and what every module of the API shares about it: the
// Emscripten module, whether it has aborted, the crossings so far, and the
// core's tables read once when it loads (limits, names, lab.schema). Only this
// module assigns them; the others read them as live bindings.
import { coded, describe } from './errors.mjs';

// ---- the core, and what happens when it aborts --------------------------

export let core = null;       // the Emscripten module, once loaded
export let aborted = null;    // the error that stopped the core, once it has
export let crossings = 0;     // calls into the module so far (lab.crossings: for tests and benchmarks)

export function abortedError() {
  const detail = (aborted instanceof Error ? aborted.message : describe(aborted))
    .replace(/\. Build with -s ASSERTIONS=1 for more info\.?$/, '');
  return coded(Error, 'aborted', `the WebAssembly core stopped after a fatal error (${detail}) and refuses ` +
    'every call; reload the page or restart the process to start a new one', aborted);
}

/** Calls into the core. Any exception from it means its memory cannot be trusted any more. */
export function call(fn) {
  if (aborted !== null) throw abortedError();
  crossings += 1;
  try {
    return fn();
  } catch (error) {
    aborted = error ?? new Error('unknown');
    throw abortedError();
  }
}

// The core's size limits (from its table, when the core loads).
export let limits = null;
// The core's outcome and failure class names (frozen arrays), and the outcomes
// as a TypeError lists them ("'success', … or 'precondition'"), once the core loads.
export let outcomes = null;
export let failureClasses = null;
export let outcomeList = '';

// The core's field tables (lab.schema: core/base/field.h), frozen, once the core loads.
export let schema = null;

/** `value` with every object and array in it frozen. */
export function deepFreeze(value) {
  if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

// The series of a storm's result, in the order the core numbers them (lab.stormSeries).
export let stormSeries = null;

/** Keeps the loaded module and reads the core's tables once (the Lab's constructor calls it). */
export function attach(module) {
  core = module;
  limits = Object.freeze(core.sizeLimits());
  outcomes = Object.freeze(core.outcomeNames());
  failureClasses = Object.freeze(core.classNames());
  stormSeries = Object.freeze(core.stormSeriesNames());
  schema = deepFreeze(core.schema());
  const quoted = outcomes.map((name) => `'${name}'`);
  outcomeList = `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

/** Records an error from outside call() (the finalizer's) as the core's abort, unless one is recorded already. */
export function markAborted(error) {
  aborted ??= error;
}
