// The lab: loadLab() and the object it returns, which makes queues and sessions
// and answers the module-wide questions (scenarios, goals, limits, schedules,
// config, the heap budget). The storms and the contention experiment are the
// simulations' (sim.mjs, loadSim()), a module of their own.
import createDlqCore from './gen/dlq_core.mjs';
import { coded, describe, readInput, typeError, unwrap } from './errors.mjs';
import {
  aborted, attach, call, core, crossings, failureClasses, limits, markAborted, outcomes, schema,
} from './runtime.mjs';
import { instantiate } from './instantiate.mjs';
import {
  MEASURED_REFUSAL, checkCount, checkGoalText, checkObject, checkRoom, checkSize, checkString,
  isWellFormed, refuseLong, tooLarge, utf8, utf8Length,
} from './checks.mjs';
import { copyJournalSwitch, copyPolicy } from './schema.mjs';
import { readScenario, readScenarioObject } from './scenario.mjs';
import { ASCII_ONLY, checkCrashAfter, copyJournal, copyRecoverOptions, readSnapshot } from './recovery.mjs';
import { Queue } from './queue.mjs';
import { Session } from './session.mjs';
import { configFacts, readConfig, readObjectText, writeSnippet } from './config.mjs';

/** call() for a module of this folder that takes the core as an argument (config.mjs). */
const enterCore = (fn) => call(() => fn(core));
let configFactsOnce = null;  // lab.configFacts(), read once

let modulePromise = null;

/**
 * Loads the WebAssembly core once per realm and returns the lab API. Works in
 * Node >= 20 (reads the .wasm next to this file) and in browsers (fetches it).
 */
export function loadLab() {
  // The module's start-up (its runtime and bindings) and the Lab's (the core's tables, read once)
  // are a task each: on a phone, together they were one long task of a page's load.
  const nextTask = () => new Promise((resolve) => { setTimeout(resolve, 0); });
  modulePromise ??= instantiate(createDlqCore, new URL('./gen/dlq_core.wasm', import.meta.url)).then(
    (core) => nextTask().then(() => new Lab(core)),
    (error) => {
      modulePromise = null;  // a failed fetch may succeed next time
      throw error;
    });
  return modulePromise;
}

// ---- the API ------------------------------------------------------------

class Lab {
  #registry;

  constructor(module) {
    attach(module);
    // A safety net only: a queue that is garbage-collected undisposed frees its
    // wasm memory. It must never throw (it runs outside any caller's try).
    this.#registry = new FinalizationRegistry((handle) => {
      if (aborted !== null) return;
      try { handle.delete(); } catch (error) { markAborted(error); }
    });
    this.limits = limits;
    this.outcomes = outcomes;
    this.failureClasses = failureClasses;
    /** Why an entry sits in quarantine: 'permanent', 'exhausted' (a redrive's `reason`). */
    this.reasons = Object.freeze(core.reasonNames());
    this.schema = schema;
    this.maxScriptLetters = core.maxScriptLetters;
    const fields = core.integerFields();
    for (const range of Object.values(fields)) Object.freeze(range);
    this.integerFields = Object.freeze(fields);
    this.scenarioFormatVersion = core.scenarioFormatVersion;
    this.maxScenarioTextBytes = core.maxScenarioTextBytes;
    this.maxAttemptsLimit = core.maxAttemptsLimit;
    /** The retry queue a delay waits in under delayAt 'retry-queue' ('orders.retry'). */
    this.retryQueueName = core.retryQueueName;
    Object.freeze(this);
  }

  /** True once the core has stopped after a fatal error; every later call then throws code 'aborted'. */
  get aborted() {
    return aborted !== null;
  }

  /** How many calls this page has made into the core's module: what one user action costs, in tests and benchmarks. */
  get crossings() {
    return crossings;
  }

  /**
   * The one model behind a playground (core/session/session.h): a scenario (link text or
   * object) with its script, cursor, the queue at the cursor, the whole script's
   * timeline and checkpoints. Every action returns the view a page draws, in
   * one call into the core. A refused scenario throws the core's error.
   */
  createSession(scenario) {
    const input = readScenario(scenario);
    const handle = call(() => new core.SessionHandle());
    try {
      unwrap(call(() => handle.init(input.text ?? input.object)));
    } catch (error) {
      if (aborted === null) handle.delete();
      throw error;
    }
    const session = new Session(handle, () => this.#registry.unregister(session));
    this.#registry.register(session, handle, session);
    return session;
  }

  /**
   * `scenario` with the world's run as its script past the cursor: the actions
   * up to the cursor kept, then the world (core/scenario/world.h) plays on (at most 2,000
   * more actions). The cursor stays. Returns a scenario object.
   */
  playWorld(scenario) {
    const object = readScenarioObject(scenario);
    return unwrap(call(() => core.playWorld(object)));
  }

  /**
   * A queue with the policy `options` describes ({ maxAttempts, backoff?, leaseMs?,
   * seed?, classes?, ordering?, quarantine?: { retentionMs?, alarmDepth? },
   * unsafeQuarantineOrder?, journal? }); absent fields take the core's defaults,
   * and each class override is merged over the core's row for that class, field
   * by field.
   */
  createQueue(options) {
    const policy = readInput('options', () => {
      checkObject('options', options, '{ maxAttempts: 3 }');
      return { ...copyPolicy(options, ''), ...copyJournalSwitch(options) };
    });
    return this.#adopt((handle) => handle.init(policy));
  }

  /**
   * A queue equal to the one whose q.snapshot() (or q.snapshotText()) gave `text`,
   * in every observable; its journal starts empty and follows the snapshot.
   * Codes: 'invalid-snapshot' (not a whole, unaltered, consistent snapshot),
   * 'unsupported-version', 'too-large' (past lab.limits.snapshotBytes).
   */
  restoreQueue(text) {
    const textIn = readSnapshot('text', text);
    checkRoom(2 * textIn.length, 'restoreQueue');  // the copy in, and the queue's own
    return this.#adopt((handle) => handle.initFromSnapshot(textIn));
  }

  /**
   * The queue after a crash: `snapshot` (a string from q.snapshot(), or null for
   * a journal since creation) with the first `crashAfter` (default: all) of
   * `journal`'s writes applied, and with `torn` a half-written next one that is
   * detected and discarded. Each element of `journal` is a record object from
   * q.journal() (only its `record` is read) or that record string. Returns
   * { queue, lost, duplicated, applied, tornDiscarded }.
   */
  recover(snapshot, journal, options) {
    const fromCreation = snapshot === null;
    const snapshotIn = fromCreation ? '' : readSnapshot('snapshot', snapshot, ', or null to recover from creation');
    const { records, objects } = readInput('journal', () => copyJournal(journal));
    const { crashAfter, torn } = readInput('options', () => copyRecoverOptions(options));
    checkCrashAfter(crashAfter, fromCreation, records.length);
    if (torn !== undefined && typeof torn !== 'boolean') throw typeError(`torn must be a boolean, got ${describe(torn)}`);
    // By length first: records longer in all than the limit are refused unscanned.
    const length = records.reduce((sum, record) => sum + record.length, 0);
    if (length > limits.journalBytes && length > MEASURED_REFUSAL) {
      tooLarge('journal (its records together)', limits.journalBytes, length, 'bytes', true);
    }
    // Well-formedness once over the joined text (a NUL separates every record, so
    // no lone surrogates pair up); record by record only to name one.
    const joined = records.join('\0');
    if (!isWellFormed(joined)) {
      records.forEach((record, i) => checkString(objects[i] ? `journal[${i}].record` : `journal[${i}]`, record));
    }
    const units = joined.length - Math.max(records.length - 1, 0);  // of the records alone
    const ascii = ASCII_ONLY.test(joined);
    let bytes = ascii ? units : units * 3;  // exact, or an upper bound
    if (bytes > limits.journalBytes) {
      if (!ascii) bytes = records.reduce((sum, record) => sum + utf8Length(record), 0);
      if (bytes > limits.journalBytes) tooLarge('journal (its records together)', limits.journalBytes, bytes);
    }
    checkRoom(2 * (snapshotIn.length + bytes), 'recover');  // the copies in, and the queue's own
    // One crossing for the whole journal: NUL-joined, encoded to UTF-8 here. When
    // some record holds NUL itself the fields do not split back (false): then
    // the core reads the records one by one.
    const packed = utf8.encode(joined);
    let result;
    const queue = this.#adopt((handle) => {
      result = handle.initFromRecoveryPacked(!fromCreation, snapshotIn, packed, records.length, crashAfter, torn ?? false);
      if (result === false) result = handle.initFromRecoveryArray(!fromCreation, snapshotIn, records, crashAfter, torn ?? false);
      return result;
    });
    const { lost, duplicated, applied, tornDiscarded } = result;
    return { queue, lost, duplicated, applied, tornDiscarded };
  }

  /** A queue in the state a scenario (object or link text) describes at its cursor. */
  runScenario(scenario) {
    const input = readScenario(scenario);
    return this.#adopt((handle) => (input.text !== undefined ? handle.initFromScenario(input.text)
      : handle.initFromScenarioObject(input.object)));
  }

  parseScenario(text) {
    refuseLong('scenario link', text, limits.scenarioTextBytes);  // the core's own name for it
    checkString('text', text);
    checkSize('scenario link', text, limits.scenarioTextBytes);
    return unwrap(call(() => core.parseScenario(text)));
  }

  formatScenario(scenario) {
    const object = readScenarioObject(scenario);
    return unwrap(call(() => core.formatScenario(object)));
  }

  /**
   * What a scenario needs, as the core decides it: { version, lessonOne }, where version is the
   * link format it is written in (1 when lesson 1's format can carry it) and lessonOne says so.
   */
  scenarioFeatures(scenario) {
    const object = readScenarioObject(scenario);
    return unwrap(call(() => core.scenarioFeatures(object)));
  }

  /**
   * How far a script plays, whatever its cursor: { playable, stopped }, where
   * `playable` actions from the first are accepted in order and `stopped` is
   * null or the first refusal ({ code, message }).
   */
  playableActions(scenario) {
    const input = readScenario(scenario);
    const object = input.object ?? readScenarioObject(this.parseScenario(input.text));
    return unwrap(call(() => core.playableActions(object)));
  }

  /**
   * The canonical text of a goal (docs/goals.md): the form a lesson page can
   * store and compare. A goal that does not parse throws the core's error
   * ('invalid-argument' naming goal, the clause, what was expected and given;
   * 'too-large' past lab.limits.goalBytes bytes or lab.limits.goalClauses clauses).
   */
  parseGoal(goal) {
    checkGoalText(goal);
    return unwrap(call(() => core.parseGoal(goal)));
  }

  /**
   * An exercise's par (core/lesson/par.h): { actions, steps, moves } at the first point of
   * `solution`'s script (played from its set-up, whatever its cursor) where `goal`
   * holds, or null when it never does. Refusals: the goal's (as parseGoal()), the
   * scenario's (as parseScenario()), or an action the script reaches that the queue
   * refuses (as runScenario()).
   */
  goalPar(goal, solution) {
    checkGoalText(goal);
    const input = readScenario(solution);
    const object = input.object ?? readScenarioObject(this.parseScenario(input.text));
    return unwrap(call(() => core.goalPar(goal, object)));
  }

  /**
   * The solver's moves in `scenario`'s script before its cursor (core/lesson/par.h):
   * every action but those its world would have taken itself (Run's). Refusals as goalPar().
   */
  learnerMoves(scenario) {
    const input = readScenario(scenario);
    const object = input.object ?? readScenarioObject(this.parseScenario(input.text));
    return unwrap(call(() => core.learnerMoves(object)));
  }

  /** `count` outcome letters ('s', 't', 'p') from the core's seeded PRNG, for processMany(). */
  randomOutcomes(options) {
    const values = readInput('options', () => {
      checkObject('options', options, '{ seed: 1, count: 100, successPercent: 70, transientPercent: 25 }');
      return [['seed', options.seed], ['count', options.count], ['successPercent', options.successPercent],
        ['transientPercent', options.transientPercent]];
    });
    for (const [name, value] of values) checkCount(name, value);
    const [seed, count, successPercent, transientPercent] = values.map(([, value]) => value);
    return unwrap(call(() => core.randomOutcomes(seed, count, successPercent, transientPercent)));
  }

  /**
   * A policy's retry schedule (core/systems/schedule.h): for a job whose every
   * attempt fails transiently, each attempt's start and the delay after it, as
   * { min, median, p99, max } under the policy's jitter over seeded samples
   * (exact, one run, when nothing is drawn), and the share of samples whose
   * budget outlasts an outage of options.outageMs (its last attempt finishing at
   * or after it). `policy` is read as createQueue() reads it; options: {
   * samples? (1..10000, default 1000), outageMs? (0), workMs? (0: each attempt's
   * time) }. Returns { attempts, rows (the first 50 attempts), last, total,
   * samples, exact, outage: { ms, outlasting, probability } }; a bad field
   * throws the core's error naming it.
   */
  retrySchedule(policy, options = {}) {
    const copy = readInput('policy', () => {
      checkObject('policy', policy, '{ maxAttempts: 3 }');
      return copyPolicy(policy, 'policy.');
    });
    const input = readInput('options', () => {
      checkObject('options', options, '{ samples: 1000, outageMs: 3000, workMs: 100 }');  // or leases: true
      const out = {};
      for (const row of schema.schedule) {
        const value = options[row.name];
        if (value !== undefined && typeof value !== (row.kind === 'boolean' ? 'boolean' : 'number')) {
          throw typeError(unwrap(call(() => core.scheduleTypeMessage(row.name, describe(value)))));
        }
        if (value !== undefined) out[row.name] = value;
      }
      return out;
    });
    return unwrap(call(() => core.retrySchedule(copy, input)));
  }

  /** { limitBytes, usedBytes }: the cap on what all queues keep, and what they keep now. */
  /** A broker's pasted config read by the core (wasm/config.mjs, core/config/config.h). */
  importConfig(text, { dlqRetention } = {}) { return readConfig(enterCore, this.configFacts(), text, dlqRetention); }

  /** A config object's text read by the core (JSON or JSON5): { ok, value } or { ok: false, refusal }. */
  readObjectText(text, name) { return readObjectText(enterCore, this.configFacts(), text, name); }

  /** A system's snippet of a policy in force, written by the core (wasm/config.mjs, core/config/config.h). */
  writeSnippet(key, inForce) { return writeSnippet(enterCore, key, inForce); }

  /** The config readers' formats and limits ({ formats, maxImportChars, maxSidekiqChars }). */
  configFacts() { return (configFactsOnce ??= configFacts(enterCore)); }

  heapBudget() {
    return call(() => core.heapBudget());
  }

  /**
   * Sets the heap budget: an integer from 0 to the module's maximum memory
   * (2 GiB). Calls that would keep more are refused with 'resource-exhausted'.
   * At the maximum nothing is refused early, and running out of memory aborts
   * the core (every later call: 'aborted').
   */
  setHeapBudget(bytes) {
    const max = call(() => core.heapMax());
    if (typeof bytes !== 'number') throw typeError(`bytes must be an integer from 0 to ${max}, got ${describe(bytes)}`);
    if (!Number.isSafeInteger(bytes) || bytes < 0 || bytes > max) {
      throw coded(RangeError, 'out-of-range', `bytes must be an integer from 0 to ${max}, got ${describe(bytes)}`);
    }
    call(() => core.setHeapBudget(bytes));
  }

  /** Bytes allocated on the wasm heap now; for leak checks. */
  heapInUse() {
    return call(() => core.heapInUse());
  }

  /** Size of the wasm linear memory in bytes; it grows, never shrinks. Works after an abort. */
  memoryBytes() {
    return core.HEAPU8.length;
  }

  /**
   * True while the first 1,024 bytes of wasm memory, which no valid pointer
   * reaches, are all zero: a canary for writes through a null pointer. Reads the
   * memory from JS, so it works after an abort too.
   */
  nullPageIsClean() {
    return core.HEAPU8.subarray(0, 1024).every((byte) => byte === 0);
  }

  #adopt(init) {
    const handle = call(() => new core.QueueHandle());
    try {
      unwrap(call(() => init(handle)));
    } catch (error) {
      if (aborted === null) handle.delete();
      throw error;
    }
    const queue = new Queue(handle, () => this.#registry.unregister(queue));
    this.#registry.register(queue, handle, queue);
    return queue;
  }
}
