// dlq-lab's public JavaScript API: a thin adapter over the C++ core compiled to
// WebAssembly. It checks JS types (so a wrong type gets a TypeError naming the
// argument), converts, and turns the core's error values into thrown Errors. Every
// policy rule, limit and range check lives in the core. Types: ./index.d.ts.
//
// Boundary rules (lab_binding.cpp states the C++ half):
//  1. Read every user value once, into a local, before validating it: arrays are
//     copied element by element (their length read once, within a limit) and
//     objects field by field, so a getter or a Proxy cannot pass a check and then
//     hand the core something else. Whatever a getter or Proxy throws while being
//     read becomes a TypeError with code 'invalid-type' naming the argument.
//  2. Measure every string against the core's limit before it is copied into wasm
//     memory; the message comes from the core (sizeError).
//  3. Call the core only with values built here, through call(): if the core
//     throws at all (a WebAssembly.RuntimeError after an abort, say), the module's
//     memory can no longer be trusted, so this lab refuses every later call with
//     code 'aborted'. The finalizer never throws.
//  4. Every error thrown to a caller is an Error with a string `code`.
//
// The API is in modules, one job each: errors.mjs (typed errors), runtime.mjs
// (the loaded core, call(), the core's tables), instantiate.mjs (a module's .wasm
// read in Node, compiled in a worker in a page: compile-worker.mjs), checks.mjs (values read into
// locals), schema.mjs (the field tables' objects), scenario.mjs, recovery.mjs
// (snapshots and journals), lab.mjs (loadLab and the Lab), sim.mjs (loadSim and
// the Sim: storms and contention, their own WebAssembly module), lifetime.mjs, and
// one per handle: queue.mjs, session.mjs, storm.mjs. This file is the public entry.
export { loadLab } from './lab.mjs';

/**
 * Loads the simulations (wasm/sim.mjs: storms, storm sets, the contention experiment; their
 * own WebAssembly module) and returns their API. Imported on first call, so a page that
 * only plays queues never fetches their code (scripts/site.mjs keeps sim.mjs a module of
 * its own); the storm lab's worker imports sim.mjs directly.
 */
export async function loadSim() {
  const simulations = await import('./sim.mjs');
  return simulations.loadSim();
}
