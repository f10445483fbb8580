// The loaded modules and what every module of the API shares about them: the
// lab's Emscripten module (loadLab: dlq_core.wasm) and the simulations' (loadSim:
// dlq_sim.wasm), whether one has aborted, the crossings so far, and the core's
// tables read once when the first loads (limits, names; both modules link the
// same tables_binding.cpp, so either answers alike). Only this module assigns
// them; the others read them as live bindings.
import { coded, describe } from './errors.mjs';

// ---- the core, and what happens when it aborts --------------------------

export let core = null;       // the lab's Emscripten module, once loaded
export let sim = null;        // the simulations' Emscripten module, once loaded
// The module the shared checks ask (sizeError, integerTypeMessage): the lab's once
// loaded, else the simulations' (a worker that runs storms loads only that one).
export let tables = null;
// The error that stopped a module, once one has: the lab and the simulations share
// it, so after either aborts every call of this realm is refused.
export let aborted = null;
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

// The core's field tables (lab.schema: core/base/field.h), frozen, once the core loads
// (before it, the simulations' tables: the checks read their backoff rows).
export let schema = null;
// The simulations' field tables (sim.schema: { backoff, storm, contention }), frozen.
export let simSchema = null;

/** `value` with every object and array in it frozen. */
export function deepFreeze(value) {
  if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

// The series of a storm's result, in the order the core numbers them (sim.stormSeries).
export let stormSeries = null;

/** The shared tables, read from `module` (either module: they answer alike). */
function attachTables(module, moduleSchema) {
  tables = module;
  limits = Object.freeze(module.sizeLimits());
  outcomes = Object.freeze(module.outcomeNames());
  failureClasses = Object.freeze(module.classNames());
  schema = moduleSchema;
  const quoted = outcomes.map((name) => `'${name}'`);
  outcomeList = `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

/** Keeps the lab's module and reads the core's tables once (the Lab's constructor calls it). */
export function attach(module) {
  core = module;
  attachTables(module, deepFreeze(module.schema()));
}

/** Keeps the simulations' module and reads their tables once (the Sim's constructor calls it). */
export function attachSim(module) {
  sim = module;
  stormSeries = Object.freeze(module.stormSeriesNames());
  simSchema = deepFreeze(module.schema());
  if (core === null) attachTables(module, simSchema);
}

/** Records an error from outside call() (the finalizer's) as the core's abort, unless one is recorded already. */
export function markAborted(error) {
  aborted ??= error;
}
