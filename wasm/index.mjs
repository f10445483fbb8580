// dlq-lab's public JavaScript API: a thin adapter over the C++ core compiled to
// WebAssembly. It checks JS types (so a wrong type gets a TypeError naming the
// argument), converts, and turns the core's error values into thrown Errors. Every
// policy rule and every range check lives in the core. Types: ./index.d.ts.
import createDlqCore from './gen/dlq_core.mjs';

const OUTCOMES = "'success', 'transient' or 'permanent'";
const ACTION_TYPES = ['process', 'replay', 'enqueue'];
const utf8 = new TextEncoder();

let modulePromise = null;
// The core's per-string limits in UTF-8 bytes (set when the core loads).
const limits = { id: Infinity, payload: Infinity, errorText: Infinity };

/**
 * Loads the WebAssembly core once per realm and returns the lab API. Works in
 * Node >= 20 (reads the .wasm next to this file) and in browsers (fetches it).
 */
export function loadLab() {
  modulePromise ??= instantiate().then((core) => new Lab(core), (error) => {
    modulePromise = null;  // a failed fetch may succeed next time
    throw error;
  });
  return modulePromise;
}

async function instantiate() {
  const wasmUrl = new URL('./gen/dlq_core.wasm', import.meta.url);
  const isNode = typeof process === 'object' && typeof process.versions?.node === 'string' &&
    typeof window === 'undefined';
  if (isNode) {
    const { readFile } = await import('node:fs/promises');
    return createDlqCore({ wasmBinary: await readFile(wasmUrl) });
  }
  return createDlqCore({ locateFile: () => wasmUrl.href });
}

// ---- errors -------------------------------------------------------------

/** Describes a value for an error message: "2.5", "\"3\" (a string)", "null". */
function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string': {
      const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
      return `${JSON.stringify(shown)} (a string)`;
    }
    case 'number': return String(value);
    case 'bigint': return `${value}n (a bigint)`;
    case 'boolean': return `${value} (a boolean)`;
    case 'undefined': return 'undefined';
    case 'symbol': return 'a symbol';
    case 'function': return 'a function';
    default: return 'an object';
  }
}

function typeError(message) {
  const error = new TypeError(message);
  error.code = 'invalid-type';
  return error;
}

/** Throws the core's error value, if `result` is one; else returns `result`. */
function unwrap(result) {
  if (result === null || typeof result !== 'object' || typeof result.error !== 'string') return result;
  const Kind = ['out-of-range', 'invalid-argument', 'too-large'].includes(result.error) ? RangeError : Error;
  const error = new Kind(result.message);
  error.code = result.error;
  throw error;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Strings cross into the core as UTF-8, which cannot carry a lone UTF-16
 * surrogate; rather than let one turn silently into U+FFFD, refuse it.
 */
const isWellFormed = (text) => text.isWellFormed?.() ?? !LONE_SURROGATE.test(text);

function checkString(name, value) {
  if (typeof value !== 'string') throw typeError(`${name} must be a string, got ${describe(value)}`);
  if (!isWellFormed(value)) {
    const at = value.search(LONE_SURROGATE);
    throw typeError(`${name} must be a well-formed string, but it has a lone surrogate at index ${at}`);
  }
}

function utf8Length(text) {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xD800 && c <= 0xDBFF) { bytes += 4; i++; } // a pair (lone halves are refused earlier)
    else bytes += 3;
  }
  return bytes;
}

/**
 * A string over the core's limit is refused before it is copied into wasm
 * memory (a copy of hundreds of megabytes could exhaust the heap, which aborts
 * the module). UTF-8 never takes fewer bytes than UTF-16 code units, so only a
 * string longer than the limit can need this; the core checks the rest, with
 * the same message.
 */
function checkSize(name, value, limit) {
  if (value.length <= limit) return;
  const bytes = utf8Length(value);
  if (bytes <= limit) return;
  const error = new RangeError(`${name} must be at most ${limit} bytes, got ${bytes} bytes`);
  error.code = 'too-large';
  throw error;
}

/** A well-formed string within the core's size limit. */
function checkText(name, value, limit) {
  checkString(name, value);
  checkSize(name, value, limit);
}

function checkObject(name, value, example) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw typeError(`${name} must be an object such as ${example}, got ${describe(value)}`);
  }
}

function checkArray(name, value) {
  if (!Array.isArray(value)) throw typeError(`${name} must be an array, got ${describe(value)}`);
}

function checkOutcome(name, value) {
  if (typeof value !== 'string') throw typeError(`${name} must be one of ${OUTCOMES}, got ${describe(value)}`);
  checkString(name, value);
}

/** A number of the wrong kind is a RangeError, anything else a TypeError. */
function checkCount(name, value) {
  if (typeof value !== 'number') throw typeError(`${name} must be a non-negative integer, got ${describe(value)}`);
  if (!Number.isSafeInteger(value) || value < 0) {
    const error = new RangeError(`${name} must be a non-negative integer, got ${describe(value)}`);
    error.code = 'out-of-range';
    throw error;
  }
}

// ---- scenarios ----------------------------------------------------------

/** A checked, defaulted copy of a scenario object, ready for the core. */
function normalizeScenario(scenario) {
  checkObject('scenario', scenario, '{ maxAttempts: 3, jobs: [], actions: [] }');
  const { maxAttempts, jobs = [], actions = [] } = scenario;
  if (typeof maxAttempts !== 'number') {
    throw typeError(`scenario.maxAttempts must be an integer from 1 to 1000000, got ${describe(maxAttempts)}`);
  }
  checkArray('scenario.jobs', jobs);
  checkArray('scenario.actions', actions);
  // Index loops, not map(): map() skips the holes of a sparse array.
  const outJobs = [];
  for (let i = 0; i < jobs.length; i++) {
    const job = jobs[i];
    checkObject(`scenario.jobs[${i}]`, job, "{ id: 'a', payload: '' }");
    checkText(`scenario.jobs[${i}].id`, job.id, limits.id);
    checkText(`scenario.jobs[${i}].payload`, job.payload ?? '', limits.payload);
    outJobs.push({ id: job.id, payload: job.payload ?? '' });
  }
  const outActions = [];
  for (let i = 0; i < actions.length; i++) {
    const action = actions[i];
    const name = `scenario.actions[${i}]`;
    checkObject(name, action, "{ type: 'process', outcome: 'success' }");
    if (!ACTION_TYPES.includes(action.type)) {
      throw typeError(`${name}.type must be 'process', 'replay' or 'enqueue', got ${describe(action.type)}`);
    }
    if (action.type === 'process') {
      checkOutcome(`${name}.outcome`, action.outcome);
      checkText(`${name}.error`, action.error ?? '', limits.errorText);
      outActions.push({ type: 'process', outcome: action.outcome, error: action.error ?? '' });
    } else if (action.type === 'replay') {
      checkText(`${name}.id`, action.id, limits.id);
      outActions.push({ type: 'replay', id: action.id });
    } else {
      checkText(`${name}.id`, action.id, limits.id);
      checkText(`${name}.payload`, action.payload ?? '', limits.payload);
      outActions.push({ type: 'enqueue', id: action.id, payload: action.payload ?? '' });
    }
  }
  const cursor = scenario.cursor ?? outActions.length;
  checkCount('scenario.cursor', cursor);
  return { maxAttempts, jobs: outJobs, actions: outActions, cursor };
}

// ---- the API ------------------------------------------------------------

class Lab {
  #core;
  #registry;

  constructor(core) {
    this.#core = core;
    // A safety net only: a queue that is garbage-collected undisposed frees its wasm memory.
    this.#registry = new FinalizationRegistry((handle) => handle.delete());
    limits.id = core.maxIdBytes;
    limits.payload = core.maxPayloadBytes;
    limits.errorText = core.maxErrorTextBytes;
    this.limits = Object.freeze({ idBytes: core.maxIdBytes, payloadBytes: core.maxPayloadBytes,
      errorTextBytes: core.maxErrorTextBytes });
    this.scenarioFormatVersion = core.scenarioFormatVersion;
    this.maxScenarioTextBytes = core.maxScenarioTextBytes;
    this.maxAttemptsLimit = core.maxAttemptsLimit;
    Object.freeze(this);
  }

  createQueue(options) {
    checkObject('options', options, '{ maxAttempts: 3 }');
    const { maxAttempts } = options;
    if (typeof maxAttempts !== 'number') {
      throw typeError(`maxAttempts must be an integer from 1 to 1000000, got ${describe(maxAttempts)}`);
    }
    return this.#adopt((handle) => handle.init(maxAttempts));
  }

  /** A queue in the state a scenario (object or link text) describes at its cursor. */
  runScenario(scenario) {
    if (typeof scenario === 'string') {
      checkString('scenario', scenario);
      return this.#adopt((handle) => handle.initFromScenario(scenario));
    }
    const normalized = normalizeScenario(scenario);
    return this.#adopt((handle) => handle.initFromScenarioObject(normalized));
  }

  parseScenario(text) {
    checkString('text', text);
    return unwrap(this.#core.parseScenario(text));
  }

  formatScenario(scenario) {
    return unwrap(this.#core.formatScenario(normalizeScenario(scenario)));
  }

  /**
   * How far a script plays, whatever its cursor: { playable, stopped }, where
   * `playable` actions from the first are accepted in order and `stopped` is
   * null or the first refusal ({ code, message }).
   */
  playableActions(scenario) {
    const normalized = normalizeScenario(typeof scenario === 'string' ? this.parseScenario(scenario) : scenario);
    return unwrap(this.#core.playableActions(normalized));
  }

  /** `count` outcome letters ('s', 't', 'p') from the core's seeded PRNG, for processMany(). */
  randomOutcomes(options) {
    checkObject('options', options, '{ seed: 1, count: 100, successPercent: 70, transientPercent: 25 }');
    const { seed, count, successPercent, transientPercent } = options;
    for (const [name, value] of [['seed', seed], ['count', count], ['successPercent', successPercent],
      ['transientPercent', transientPercent]]) checkCount(name, value);
    return unwrap(this.#core.randomOutcomes(seed, count, successPercent, transientPercent));
  }

  /** Bytes allocated on the wasm heap now; for leak checks. */
  heapInUse() {
    return this.#core.heapInUse();
  }

  /** Size of the wasm linear memory in bytes; it grows, never shrinks. */
  memoryBytes() {
    return this.#core.memoryBytes();
  }

  #adopt(init) {
    const handle = new this.#core.QueueHandle();
    try {
      unwrap(init(handle));
    } catch (error) {
      handle.delete();
      throw error;
    }
    const queue = new Queue(handle, () => this.#registry.unregister(queue));
    this.#registry.register(queue, handle, queue);
    return queue;
  }
}

class Queue {
  #handle;
  #forget;

  constructor(handle, forget) {
    this.#handle = handle;
    this.#forget = forget;
  }

  #live() {
    if (this.#handle === null) {
      const error = new Error('this queue has been disposed; create a new one with lab.createQueue()');
      error.code = 'disposed';
      throw error;
    }
    return this.#handle;
  }

  get disposed() {
    return this.#handle === null;
  }

  enqueue(id, payload) {
    const handle = this.#live();
    checkText('id', id, limits.id);
    checkText('payload', payload, limits.payload);
    unwrap(handle.enqueue(id, payload));
  }

  /** All or nothing: appends every { id, payload } in order, or none. */
  enqueueMany(jobs) {
    const handle = this.#live();
    checkArray('jobs', jobs);
    const ids = new Array(jobs.length);
    const payloads = new Array(jobs.length);
    for (let i = 0; i < jobs.length; i++) {
      const job = jobs[i];
      if (job === null || typeof job !== 'object' || typeof job.id !== 'string' || typeof job.payload !== 'string') {
        checkObject(`jobs[${i}]`, job, "{ id: 'a', payload: '' }");
        checkString(`jobs[${i}].id`, job.id);
        checkString(`jobs[${i}].payload`, job.payload);
      }
      checkSize(`jobs[${i}].id`, job.id, limits.id);
      checkSize(`jobs[${i}].payload`, job.payload, limits.payload);
      ids[i] = job.id;
      payloads[i] = job.payload;
    }
    // One boundary crossing for the whole batch: NUL-joined strings, encoded to
    // UTF-8 by the engine and copied in as bytes. Joining cannot pair up lone
    // surrogates, so checking the joined text checks every string.
    const idText = ids.join('\0');
    const payloadText = payloads.join('\0');
    if (!isWellFormed(idText) || !isWellFormed(payloadText)) {
      jobs.forEach((job, i) => { checkString(`jobs[${i}].id`, job.id); checkString(`jobs[${i}].payload`, job.payload); });
    }
    const packed = handle.enqueuePacked(utf8.encode(idText), utf8.encode(payloadText), jobs.length);
    // false: some string holds NUL itself, so the fields did not split back; let
    // the core read the strings one by one instead.
    unwrap(packed === false ? handle.enqueueArray(jobs.map((j) => ({ id: j.id, payload: j.payload }))) : packed);
  }

  process(outcome, errorText = '') {
    const handle = this.#live();
    checkOutcome('outcome', outcome);
    checkText('errorText', errorText, limits.errorText);
    return unwrap(handle.process(outcome, errorText));
  }

  /** One attempt per letter of `outcomes` ('s', 't', 'p'), until nothing is ready; returns attempts made. */
  processMany(outcomes, errorText = '') {
    const handle = this.#live();
    checkString('outcomes', outcomes);
    checkText('errorText', errorText, limits.errorText);
    return unwrap(handle.processMany(outcomes, errorText));
  }

  replay(id) {
    const handle = this.#live();
    checkString('id', id);
    return handle.replay(id);
  }

  /** Ready jobs, head first; optionally the slice [from, from + count). */
  ready(from = 0, count = Infinity) { return this.#slice('ready', from, count); }
  /** Completed jobs in completion order; optionally a slice. */
  completed(from = 0, count = Infinity) { return this.#slice('completed', from, count); }
  /** Quarantine entries in arrival order; optionally a slice. */
  quarantined(from = 0, count = Infinity) { return this.#slice('quarantined', from, count); }

  #slice(view, from, count) {
    const handle = this.#live();
    checkCount('from', from);
    if (count !== Infinity) checkCount('count', count);
    return handle[view](from, count);
  }

  /** { step, ready, completed, quarantined, events, maxAttempts } */
  stats() { return this.#live().stats(); }

  /** Events from index `from` (0-based), at most `count` of them. */
  timeline(from = 0, count = Infinity) { return this.#slice('timeline', from, count); }

  /** The timeline as text, one stable line per event, each ending in "\n". */
  timelineText() { return this.#live().timelineText(); }

  dispose() {
    this.#live().delete();
    this.#handle = null;
    this.#forget();
  }
}
