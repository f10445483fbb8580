// The simulations: loadSim() and the object it returns, which runs storms, storm
// sets and the contention experiment in their own WebAssembly module (dlq_sim.wasm:
// core/sim, core/budget). Only the storm lab's worker loads it, so a page that
// plays a queue never fetches it; wasm/index.mjs re-exports loadSim for Node users.
import createDlqSim from './gen/dlq_sim.mjs';
import { coded, describe, readInput, typeError, unwrap } from './errors.mjs';
import {
  aborted, attachSim, call, crossings, limits, markAborted, sim, simSchema, stormSeries,
} from './runtime.mjs';
import { instantiate } from './instantiate.mjs';
import { checkObject, checkText, copyArray } from './checks.mjs';
import { Storm, StormSet, copyStormOptions } from './storm.mjs';

let modulePromise = null;

/**
 * Loads the simulations' WebAssembly module once per realm and returns its API
 * (createStorm, createStormSet, runStorm, stormCost, runContention, contentionCost,
 * as loadLab() offered them before the split). Works in Node >= 20 and in browsers
 * and workers, as loadLab() does.
 */
export function loadSim() {
  modulePromise ??= instantiate(createDlqSim, new URL('./gen/dlq_sim.wasm', import.meta.url))
    .then((module) => new Sim(module), (error) => {
      modulePromise = null;  // a failed fetch may succeed next time
      throw error;
    });
  return modulePromise;
}

/**
 * `options`' fields `names`, copied once (each getter read once, before anything is checked);
 * anything but a plain object is refused by name, with `example` as what was expected.
 */
function namedCopy(options, names, example) {
  return readInput('options', () => {
    checkObject('options', options, example);
    const copy = {};
    for (const name of names) copy[name] = options[name];
    return copy;
  });
}

class Sim {
  #registry;

  constructor(module) {
    attachSim(module);
    // A safety net only, as the lab's: a storm garbage-collected undisposed frees its memory.
    this.#registry = new FinalizationRegistry((handle) => {
      if (aborted !== null) return;
      try { handle.delete(); } catch (error) { markAborted(error); }
    });
    this.stormSeries = stormSeries;
    this.contentionGridClients = Object.freeze(sim.contentionGridClients());
    /** The simulations' field tables: { backoff, storm, contention } (rows as lab.schema's). */
    this.schema = simSchema;
    Object.freeze(this);
  }

  /** True once a WebAssembly module of this realm has stopped after a fatal error. */
  get aborted() {
    return aborted !== null;
  }

  /** Calls into the WebAssembly modules so far (shared with the lab's count). */
  get crossings() {
    return crossings;
  }

  /**
   * A storm (docs/storm.md): up to 1,000,000 jobs through an outage under the
   * queue's policy, run in slices by storm.run(maxEvents). Options: { jobs,
   * arrival?, outage?, capacity?, workers?, workMs?, leaseMs?, maxAttempts,
   * backoff?, seed?, bucketMs? }; a wrong type is a TypeError ('invalid-type'),
   * a value out of range a RangeError ('out-of-range', 'invalid-argument'), each
   * naming the option; 'resource-exhausted' when the heap budget has no room.
   */
  createStorm(options) {
    const copy = readInput('options', () => copyStormOptions(options));
    const handle = call(() => new sim.StormHandle());
    try {
      unwrap(call(() => handle.init(copy)));
    } catch (error) {
      if (aborted === null) handle.delete();
      throw error;
    }
    const storm = new Storm(handle, () => this.#registry.unregister(storm));
    this.#registry.register(storm, handle, storm);
    return storm;
  }

  /**
   * Storms run one after another with their series on one grid (core/sim/storm.h,
   * StormSet): the first keeps its bucketMs (absent or 0: chosen after its run),
   * every later one takes the width the first ended with, so series and peak
   * rates compare bucket for bucket. Every run's options are checked first; a
   * refusal names the run (`runs[i].<option>`, with error.index = i) and nothing runs.
   */
  createStormSet(runs) {
    const copies = readInput('runs', () => copyArray('runs', runs, 64).map((options, i) => {
      try {
        return copyStormOptions(options);
      } catch (error) {
        throw Object.assign(error, { index: i, message: `runs[${i}]: ${error.message}` });
      }
    }));
    const handle = call(() => new sim.StormSetHandle());
    try {
      const result = call(() => handle.init(copies));
      if (result !== null && typeof result === 'object' && typeof result.error === 'string') {
        const index = result.index;
        try {
          unwrap(result);
        } catch (error) {
          throw Object.assign(error, { index, message: `runs[${index}]: ${error.message}` });
        }
      }
    } catch (error) {
      if (aborted === null) handle.delete();
      throw error;
    }
    const set = new StormSet(handle, copies.length, () => this.#registry.unregister(set));
    this.#registry.register(set, handle, set);
    return set;
  }

  /** createStorm(options), run to the end, its result(), disposed: { summary, series }. */
  runStorm(options) {
    const storm = this.createStorm(options);
    try {
      storm.run(Infinity);
      return storm.result();
    } finally {
      if (!storm.disposed) storm.dispose();
    }
  }

  /**
   * What one storm will cost before it runs (core/sim/storm.h, EstimateStormCost):
   * { attempts, horizonMs }: the most attempts it can make, and the most simulated
   * ms it can take (null when a capacity limit leaves the time open). Options are
   * read and refused exactly as createStorm() reads them; nothing runs.
   */
  stormCost(options) {
    const copy = readInput('options', () => copyStormOptions(options));
    return unwrap(call(() => sim.stormCost(copy)));
  }

  /**
   * The classic contention experiment (docs/contention.md): `clients` clients
   * each update one row once under optimistic concurrency, retrying a lost write
   * with the strategy's backoff. Options: { clients (1..10000), strategy ('none' |
   * 'exponential' | 'equal' | 'full' | 'decorrelated'), baseMs? (5), capMs? (2000),
   * seed? (1), runs? (1; 1..1000) }. Returns { meanCalls, meanCompletionMs } over
   * the runs; the same options give the same numbers natively and here. Runs
   * synchronously: 'none' costs clients²/6 to clients²/4 calls a run.
   */
  runContention(options) {
    const names = ['clients', 'strategy', 'baseMs', 'capMs', 'seed', 'runs'];
    const input = namedCopy(options, names, "{ clients: 100, strategy: 'full' }");
    for (const name of names) {
      const value = input[name];
      if (value === undefined && name !== 'clients' && name !== 'strategy') continue;
      if (typeof value !== (name === 'strategy' ? 'string' : 'number')) {
        throw typeError(unwrap(call(() => sim.contentionTypeMessage(name, describe(value)))));
      }
      if (name === 'strategy') checkText(name, value, limits.outcomeBytes);
    }
    return unwrap(call(() => sim.runContention(input)));
  }

  /**
   * What the contention experiment's grid costs (core/sim/contention.h,
   * EstimateContentionGridCost): every strategy at each of sim.contentionGridClients,
   * at the published base and cap, with options { seed?, runs? }, read and refused
   * as runContention() reads them. Returns { runs, calls }: calls is about 82,000 a run.
   */
  contentionCost(options) {
    const names = ['seed', 'runs'];
    const input = namedCopy(options, names, '{ seed: 1, runs: 20 }');
    for (const name of names) {
      const value = input[name];
      if (value !== undefined && typeof value !== 'number') {
        throw typeError(unwrap(call(() => sim.contentionTypeMessage(name, describe(value)))));
      }
    }
    return unwrap(call(() => sim.contentionCost(input)));
  }


  /** { limitBytes, usedBytes }: the cap on what this module's storms keep, and what they keep now. */
  heapBudget() {
    return call(() => sim.heapBudget());
  }

  /** Sets this module's heap budget, as lab.setHeapBudget() sets the lab's (0 to 2 GiB). */
  setHeapBudget(bytes) {
    const max = call(() => sim.heapMax());
    if (typeof bytes !== 'number') throw typeError(`bytes must be an integer from 0 to ${max}, got ${describe(bytes)}`);
    if (!Number.isSafeInteger(bytes) || bytes < 0 || bytes > max) {
      throw coded(RangeError, 'out-of-range', `bytes must be an integer from 0 to ${max}, got ${describe(bytes)}`);
    }
    call(() => sim.setHeapBudget(bytes));
  }

  /** Bytes allocated on this module's heap now; for leak checks. */
  heapInUse() {
    return call(() => sim.heapInUse());
  }
}
