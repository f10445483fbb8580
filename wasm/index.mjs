// dlq-lab's public JavaScript API: a thin adapter over the C++ core compiled to
// WebAssembly. It checks JS types (so a wrong type gets a TypeError naming the
// argument), converts, and turns the core's error values into thrown Errors. Every
// policy rule, limit and range check lives in the core. Types: ./index.d.ts.
//
// Boundary rules (bindings.cpp states the C++ half):
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
import createDlqCore from './gen/dlq_core.mjs';
import { configFacts, readConfig, readObjectText } from './config.mjs';

// The scripted action types copyAction() reads, for its message.
const ACTION_TYPES =
  "'process', 'replay', 'enqueue', 'lease', 'settle', 'advance', 'advanceToNext', 'releaseKey', 'redrive', 'patch' or 'crash'";
const BACKOFF_EXAMPLE = "{ kind: 'exponential', baseMs: 100, capMs: 10000, jitter: 'full' }";
const CLASSES_EXAMPLE = '{ precondition: { maxAttempts: 3 } }';
const CLASS_RULE_EXAMPLE = "{ retry: 'bounded', maxAttempts: 2, backoff: { kind: 'fixed', baseMs: 1000 }, alert: false }";
const QUARANTINE_EXAMPLE = '{ retentionMs: 86400000, alarmDepth: 10 }';
const RECOVER_OPTIONS_EXAMPLE = '{ crashAfter: 3, torn: false }';
// recover()'s options, in the order a refusal lists them.
const RECOVER_OPTION_NAMES = ['crashAfter', 'torn'];
const utf8 = new TextEncoder();
// Copies at most this large need no heap-budget check first: the budget leaves
// far more headroom than that for boundary copies.
const SMALL_COPY_BYTES = 1 << 20;

let modulePromise = null;

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
  if (isArray(value)) return 'an array';
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

/** Array.isArray, which throws for a revoked Proxy; that counts as "not an array". */
function isArray(value) {
  try { return Array.isArray(value); } catch { return false; }
}

function coded(Kind, code, message, cause) {
  const error = new Kind(message, cause === undefined ? undefined : { cause });
  error.code = code;
  return error;
}

const typeError = (message, cause) => coded(TypeError, 'invalid-type', message, cause);

/** Throws the core's error value, if `result` is one; else returns `result`. */
function unwrap(result) {
  if (result === null || typeof result !== 'object' || typeof result.error !== 'string') return result;
  const Kind = ['out-of-range', 'invalid-argument', 'too-large'].includes(result.error) ? RangeError : Error;
  throw coded(Kind, result.error, result.message);
}

/**
 * Runs `read` (which reads the caller's values into locals); anything it throws
 * that is not already one of our coded errors (a getter's exception, a revoked
 * Proxy's TypeError, a thrown non-Error) becomes a TypeError naming `name`.
 */
function readInput(name, read) {
  try {
    return read();
  } catch (error) {
    if (error instanceof Error && typeof error.code === 'string') throw error;
    const detail = error instanceof Error ? error.message : describe(error);
    throw typeError(`${name} could not be read: ${detail}`, error);
  }
}

// ---- the core, and what happens when it aborts --------------------------

let core = null;       // the Emscripten module, once loaded
let aborted = null;    // the error that stopped the core, once it has
let crossings = 0;
let configFactsOnce = null;  // lab.configFacts(), read once     // calls into the module so far (lab.crossings: for tests and benchmarks)

function abortedError() {
  const detail = (aborted instanceof Error ? aborted.message : describe(aborted))
    .replace(/\. Build with -s ASSERTIONS=1 for more info\.?$/, '');
  return coded(Error, 'aborted', `the WebAssembly core stopped after a fatal error (${detail}) and refuses ` +
    'every call; reload the page or restart the process to start a new one', aborted);
}

/** Calls into the core. Any exception from it means its memory cannot be trusted any more. */
function call(fn) {
  if (aborted !== null) throw abortedError();
  crossings += 1;
  try {
    return fn();
  } catch (error) {
    aborted = error ?? new Error('unknown');
    throw abortedError();
  }
}

/** call() for a module of this folder that takes the core as an argument (config.mjs). */
const enterCore = (fn) => call(() => fn(core));

// ---- checks of values already read into locals --------------------------

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

/** UTF-8 bytes of a well-formed string. */
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

/** Throws the core's too-large error for `given` against `limit` (`atLeast`: given is a lower bound). */
function tooLarge(name, limit, given, unit = 'bytes', atLeast = false) {
  unwrap(call(() => core.sizeError(name, limit, given, unit, atLeast)));
}

// Strings up to this many UTF-16 units past a limit are measured for an exact
// refusal (a millisecond or so); longer ones are refused by their length alone.
const MEASURED_REFUSAL = 1 << 20;

/**
 * Refuses a long string longer than `limit` UTF-16 units before anything scans
 * it: each unit is at least one UTF-8 byte, so it is past `limit` bytes whatever
 * it holds, and the refusal says "at least" (a 256 M-character string is refused
 * at once, not after a well-formedness scan and a byte count). Anything but a
 * string is left to the type check.
 */
function refuseLong(name, value, limit) {
  if (typeof value === 'string' && value.length > limit && value.length > MEASURED_REFUSAL) {
    tooLarge(name, limit, value.length, 'bytes', true);
  }
}

/**
 * UTF-8 bytes of a well-formed string, refused if past `limit` before it is
 * ever copied into wasm memory (a copy of hundreds of megabytes could exhaust
 * the heap). A string of n UTF-16 units takes n to 3n bytes, so only a long one
 * needs measuring.
 */
function checkSize(name, value, limit) {
  if (value.length * 3 <= limit) return value.length * 3;
  refuseLong(name, value, limit);
  const bytes = utf8Length(value);
  if (bytes > limit) tooLarge(name, limit, bytes);
  return bytes;
}

/** A well-formed string within the core's size limit; returns an upper bound of its UTF-8 bytes. */
function checkText(name, value, limit) {
  refuseLong(name, value, limit);
  checkString(name, value);
  return checkSize(name, value, limit);
}

// Strings longer than this cross as UTF-8 bytes encoded natively (TextEncoder):
// measuring and copying them character by character in JS costs far more.
const LONG_STRING = 4096;

/**
 * A well-formed string within its limit, in the form it crosses the boundary:
 * the string itself, or (when long) its UTF-8 bytes, which Embind copies into
 * a std::string just the same.
 */
function wireText(name, value, limit) {
  refuseLong(name, value, limit);  // no scan needed to know it is too long: bytes >= UTF-16 units
  checkString(name, value);
  if (value.length <= LONG_STRING) {
    checkSize(name, value, limit);
    return value;
  }
  const bytes = utf8.encode(value);
  if (bytes.length > limit) tooLarge(name, limit, bytes.length);
  return bytes;
}

/**
 * Like wireText(), but always UTF-8 bytes: for the bindings that take a
 * Uint8Array and copy it in with one TypedArray.set (bindings.cpp ReadBytes).
 */
function wireBytes(name, value, limit) {
  const wire = wireText(name, value, limit);
  return typeof wire === 'string' ? utf8.encode(wire) : wire;
}

/** Before copying `bytes` into wasm: refuses (resource-exhausted) if the heap budget lacks room. */
function checkRoom(bytes, what) {
  if (bytes > SMALL_COPY_BYTES) unwrap(call(() => core.checkRoom(bytes, what)));
}

/** A non-null object that is not an array: what checkObject() accepts. */
const isObject = (value) => value !== null && typeof value === 'object' && !isArray(value);

function checkObject(name, value, example) {
  if (!isObject(value)) throw typeError(`${name} must be an object such as ${example}, got ${describe(value)}`);
}

/** A copy of an array (length read once, at most `limit` items). */
function copyArray(name, value, limit) {
  if (!isArray(value)) throw typeError(`${name} must be an array, got ${describe(value)}`);
  const length = value.length;
  if (!Number.isSafeInteger(length) || length < 0) throw typeError(`${name} has an invalid length: ${describe(length)}`);
  if (length > limit) tooLarge(name, limit, length, 'items');
  const copy = new Array(length);
  for (let i = 0; i < length; i++) copy[i] = value[i];
  return copy;
}

function checkOutcome(name, value) {
  if (typeof value !== 'string') throw typeError(`${name} must be one of ${outcomeList}, got ${describe(value)}`);
  refuseLong(name, value, limits.outcomeBytes);
  checkString(name, value);
  checkSize(name, value, limits.outcomeBytes);
}

/**
 * A job's ordering key: absent (undefined; callers read null as undefined, as the
 * views report "no key") for none unless `required`, else a non-empty,
 * well-formed string within the core's limit (measured before any copy).
 * Returns an upper bound of its UTF-8 bytes (0 when absent).
 */
function checkKey(name, value, required = false) {
  if (value === undefined && !required) return 0;
  if (typeof value !== 'string' || value.length === 0) {
    const expected = required ? 'a non-empty string' : 'a non-empty string, or null (or left out) for no key';
    throw typeError(`${name} must be ${expected}, got ${describe(value)}`);
  }
  return checkText(name, value, limits.keyBytes);
}

/** A number of the wrong kind is a RangeError, anything else a TypeError. */
function checkCount(name, value) {
  if (typeof value !== 'number') throw typeError(`${name} must be a non-negative integer, got ${describe(value)}`);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw coded(RangeError, 'out-of-range', `${name} must be a non-negative integer, got ${describe(value)}`);
  }
}

/**
 * A number for one of the core's integer fields (`field` as its table names it);
 * absent is fine unless `required`. A value of another type is a TypeError with
 * the core's message for that field, `prefix` in front; the range is the core's
 * to check.
 */
function checkInteger(prefix, field, value, required = false) {
  if (value === undefined && !required) return;
  if (typeof value !== 'number') {
    throw typeError(prefix + unwrap(call(() => core.integerTypeMessage(field, describe(value)))));
  }
}

/**
 * A name the core parses (a backoff kind, a jitter), if present. The core has
 * no limit of its own for these; an outcome's (a name too) bounds the copy.
 */
function checkName(name, value) {
  if (value !== undefined) checkText(name, value, limits.outcomeBytes);
}

// The example a type error shows for a group of fields (the tables give the names).
const GROUP_EXAMPLES = {
  backoff: BACKOFF_EXAMPLE, quarantine: QUARANTINE_EXAMPLE, outage: '{ startMs: 1000, endMs: 6000 }',
  effects: '{ charge: true, idempotencyKey: true }', antiPatterns: '{ decideBeforeCount: true }',
};

/**
 * One field of a core table (lab.schema row) type-checked by its kind: the name
 * is `owner` + its path, with `prefix` in front. Ranges and choices are the
 * core's to check; an integer's type message is the core's too.
 */
function checkField(prefix, owner, row, value) {
  const name = owner + row.name;
  switch (row.kind) {
    case 'integer': checkInteger(prefix, name, value, row.required); break;
    case 'boolean': checkBoolean(prefix + name, value); break;
    case 'choice': checkName(prefix + name, value); break;
    default: throw new Error(`lab.schema: ${name} has an unknown kind ${row.kind}`);
  }
}

/**
 * The fields of one of the core's tables (`rows`: lab.schema.policy, .backoff,
 * .classRule, .world) read once each from `source` into a plain copy for the
 * core, which fills in its defaults and checks ranges, names and pairs. A path
 * "a.b" is source.a.b; an absent field or group stays absent, and the group
 * named `nullable` may be null (kept as null). `owner` ('', 'world.',
 * 'classes.precondition.') is the object's own path, `prefix` ('' or
 * 'scenario.') goes in front of every name. `keep(row)` false skips a row.
 */
function copyFields(source, rows, { prefix, owner = '', nullable = '', keep = () => true }) {
  const copy = {};
  const groups = new Map();  // group name -> { from, into } (into undefined: absent or null)
  for (const row of rows) {
    if (!keep(row)) continue;
    const dot = row.name.indexOf('.');
    let from = source;
    let into = copy;
    let key = row.name;
    if (dot >= 0) {
      const group = row.name.slice(0, dot);
      key = row.name.slice(dot + 1);
      if (!groups.has(group)) {
        const value = source[group];
        if (value === undefined || (value === null && group === nullable)) {
          if (value === null) copy[group] = null;
          groups.set(group, {});
        } else {
          const example = GROUP_EXAMPLES[group] ?? '{}';
          checkObject(`${prefix}${owner}${group}`, value, group === nullable ? `${example} or null` : example);
          copy[group] = {};
          groups.set(group, { from: value, into: copy[group] });
        }
      }
      ({ from, into } = groups.get(group));
      if (into === undefined) continue;
    }
    const value = from[key];
    checkField(prefix, owner, row, value);
    if (value !== undefined) into[key] = value;
  }
  return copy;
}

/** A backoff object ({ kind?, baseMs?, capMs?, jitter? }) read once into a checked copy. */
function copyBackoff(prefix, owner, source, example = BACKOFF_EXAMPLE) {
  checkObject(`${prefix}${owner}backoff`, source, example);
  return copyFields(source, schema.backoff, { prefix, owner: `${owner}backoff.` });
}

/**
 * The class overrides ({ <class>: { retry?, maxAttempts?, backoff?, alert? } })
 * read once into rows [{ name, retry, maxAttempts, backoff, alert }] for the
 * core, which merges each over its row of the class table and checks names,
 * ranges and pairs. Reading stops at the first key that is not one of the
 * core's class names: that row goes to the core alone, which refuses it by name.
 */
function copyClasses(prefix, source) {
  checkObject(`${prefix}classes`, source, CLASSES_EXAMPLE);
  const rows = [];
  for (const key of Object.keys(source)) {
    if (!failureClasses.includes(key)) {
      checkText(`${prefix}classes key`, key, limits.outcomeBytes);
      rows.push({ name: key });
      break;
    }
    const owner = `classes.${key}.`;
    const rule = source[key];
    checkObject(`${prefix}classes.${key}`, rule, CLASS_RULE_EXAMPLE);
    const backoffIn = rule.backoff;
    const row = { name: key, ...copyFields(rule, schema.classRule, { prefix, owner }) };
    // Its backoff: its own object, or the policy's by name (the core checks the name).
    if (typeof backoffIn === 'string') {
      checkName(`${prefix}${owner}backoff`, backoffIn);
      row.backoff = backoffIn;
    } else if (backoffIn !== undefined) {
      row.backoff = copyBackoff(prefix, owner, backoffIn, `${BACKOFF_EXAMPLE} or 'policy'`);
    }
    rows.push(row);
  }
  return rows;
}

/**
 * A world object ({ workers?, workMs?, outage?: { startMs, endMs } | null,
 * behaviours?: [{ id, kind, failure?, count?, until?, script?, needsDependency? }] })
 * read once into a checked plain copy; `prefix` ('' or 'scenario.') names it.
 * Types are checked here, ranges and names by the core (core/scenario/world.h).
 */
function copyWorld(prefix, source) {
  const name = `${prefix}world`;
  checkObject(name, source, "{ workers: 2, workMs: 100, behaviours: [{ id: 'b', kind: 'poison', failure: 'undeserializable' }] }");
  const world = copyFields(source, schema.world, { prefix, owner: 'world.', nullable: 'outage' });
  const behavioursIn = source.behaviours;
  let behaviours;
  if (behavioursIn !== undefined) {
    const list = copyArray(`${name}.behaviours`, behavioursIn, limits.scenarioItems);
    behaviours = list.map((item, i) => {
      const at = `${name}.behaviours[${i}]`;
      checkObject(at, item, "{ id: 'b', kind: 'flaky', count: 2 }");
      const copy = { id: item.id, kind: item.kind, failure: item.failure, count: item.count, until: item.until,
        script: item.script, needsDependency: item.needsDependency };
      checkText(`${at}.id`, copy.id, limits.idBytes);
      checkName(`${at}.kind`, copy.kind);
      if (copy.failure !== undefined) checkOutcome(`${at}.failure`, copy.failure);
      for (const field of ['count', 'until']) {
        if (copy[field] !== undefined && typeof copy[field] !== 'number') {
          throw typeError(`${at}.${field} must be an integer, got ${describe(copy[field])}`);
        }
      }
      if (copy.script !== undefined) checkText(`${at}.script`, copy.script, core.maxScriptLetters);
      checkBoolean(`${at}.needsDependency`, copy.needsDependency);
      for (const key of Object.keys(copy)) if (copy[key] === undefined) delete copy[key];
      return copy;
    });
  }
  if (behaviours !== undefined) world.behaviours = behaviours;
  return world;
}

/**
 * A policy's fields ({ maxAttempts, backoff?, leaseMs?, seed?, classes?, ordering?,
 * quarantine?: { retentionMs?, alarmDepth? }, unsafeQuarantineOrder? }: the
 * scenario's rows of lab.schema.policy) read once from `source` into a plain
 * object for the core, which fills in its defaults and checks ranges, names and
 * pairs. `prefix` names the owner in TypeErrors ('' or 'scenario.').
 */
function copyPolicy(source, prefix) {
  const backoffIn = source.backoff;
  const classesIn = source.classes;
  const policy = copyFields(source, schema.policy, { prefix, keep: (row) => row.scenario });
  if (backoffIn !== undefined) policy.backoff = copyBackoff(prefix, '', backoffIn);
  if (classesIn !== undefined) policy.classes = copyClasses(prefix, classesIn);
  return policy;
}

/** A boolean field, if present. */
function checkBoolean(name, value) {
  if (value !== undefined && typeof value !== 'boolean') throw typeError(`${name} must be a boolean, got ${describe(value)}`);
}

/**
 * createQueue()'s `journal` switch ({ journal? }: keep the journal of durable
 * writes) read once. Scenario objects do not take it: no link carries it.
 */
function copyJournalSwitch(source) {
  const journal = source.journal;
  checkBoolean('journal', journal);
  return { journal };
}

// The core's size limits (from its table, when the core loads).
let limits = null;
// The core's outcome and failure class names (frozen arrays), and the outcomes
// as a TypeError lists them ("'success', … or 'precondition'"), once the core loads.
let outcomes = null;
let failureClasses = null;
let outcomeList = '';

// The core's field tables (lab.schema: core/base/field.h), frozen, once the core loads.
let schema = null;

/** `value` with every object and array in it frozen. */
function deepFreeze(value) {
  if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

// ---- scenarios ----------------------------------------------------------

/**
 * A checked, defaulted copy of a scenario object, built from values read once;
 * ready for the core. `bytes` bounds the UTF-8 size of its strings.
 */
function copyScenario(scenario) {
  checkObject('scenario', scenario, '{ maxAttempts: 3, jobs: [], actions: [] }');
  const policy = copyPolicy(scenario, 'scenario.');
  const jobsIn = scenario.jobs ?? [];
  const actionsIn = scenario.actions ?? [];
  const cursorIn = scenario.cursor;
  const worldIn = scenario.world;
  const jobList = copyArray('scenario.jobs', jobsIn, limits.scenarioItems);
  const actionList = copyArray('scenario.actions', actionsIn, limits.scenarioItems);
  let bytes = 0;
  const jobs = [];
  for (let i = 0; i < jobList.length; i++) {
    const job = jobList[i];
    checkObject(`scenario.jobs[${i}]`, job, "{ id: 'a', payload: '' }");
    const id = job.id;
    const payload = job.payload ?? '';
    const key = job.key ?? undefined;  // null (as views report it) is no key too
    bytes += checkText(`scenario.jobs[${i}].id`, id, limits.idBytes);
    bytes += checkText(`scenario.jobs[${i}].payload`, payload, limits.payloadBytes);
    bytes += checkKey(`scenario.jobs[${i}].key`, key);
    jobs.push(key === undefined ? { id, payload } : { id, payload, key });
  }
  const actions = [];
  for (let i = 0; i < actionList.length; i++) {
    const { action, bytes: actionBytes } = copyAction(actionList[i], `scenario.actions[${i}]`);
    bytes += actionBytes;
    actions.push(action);
  }
  const cursor = cursorIn ?? actions.length;
  checkCount('scenario.cursor', cursor);
  const copy = { ...policy, jobs, actions, cursor };
  if (worldIn !== undefined) copy.world = copyWorld('scenario.', worldIn);
  return { scenario: copy, bytes };
}

/** One scripted action read once into a checked copy; every type is named, any other refused. */
function copyAction(action, name) {
  checkObject(name, action, "{ type: 'process', outcome: 'success' }");
  const type = action.type;
  switch (type) {
    case 'process': {
      const outcome = action.outcome;
      const error = action.error ?? '';
      checkOutcome(`${name}.outcome`, outcome);
      return { action: { type, outcome, error }, bytes: checkText(`${name}.error`, error, limits.errorTextBytes) };
    }
    case 'replay': {
      const id = action.id;
      const bytes = checkText(`${name}.id`, id, limits.idBytes);
      // resetAttempts false: BullMQ's job.retry() without a reset (the core refuses it under other systems).
      if (action.resetAttempts === undefined) return { action: { type, id }, bytes };
      checkBoolean(`${name}.resetAttempts`, action.resetAttempts);
      return { action: action.resetAttempts ? { type, id } : { type, id, resetAttempts: false }, bytes };
    }
    case 'enqueue': {
      const id = action.id;
      const payload = action.payload ?? '';
      const key = action.key ?? undefined;
      const bytes = checkText(`${name}.id`, id, limits.idBytes) + checkText(`${name}.payload`, payload, limits.payloadBytes) +
        checkKey(`${name}.key`, key);
      return { action: key === undefined ? { type, id, payload } : { type, id, payload, key }, bytes };
    }
    case 'patch': {  // an operator's fix of a quarantined job's payload (the core refuses any other job)
      const id = action.id;
      const payload = action.payload;
      const bytes = checkText(`${name}.id`, id, limits.idBytes) + checkText(`${name}.payload`, payload, limits.payloadBytes);
      return { action: { type, id, payload }, bytes };
    }
    case 'releaseKey': {
      const key = action.key;
      return { action: { type, key }, bytes: checkKey(`${name}.key`, key, true) };
    }
    case 'redrive': {
      const { max, class: only, reason } = action;
      checkInteger(`${name}.`, 'max', max, true);
      checkName(`${name}.class`, only);  // the core parses the class and the reason
      checkName(`${name}.reason`, reason);
      const copy = { type, max };
      if (only !== undefined) copy.class = only;
      if (reason !== undefined) copy.reason = reason;
      return { action: copy, bytes: 0 };
    }
    case 'crash': {
      const after = action.after;
      const torn = action.torn ?? false;
      checkInteger(`${name}.`, 'after', after, true);
      checkBoolean(`${name}.torn`, torn);
      return { action: { type, after, torn }, bytes: 0 };
    }
    case 'lease':
    case 'advanceToNext':
      return { action: { type }, bytes: 0 };
    case 'settle': {
      const token = action.token;
      const outcome = action.outcome;
      const error = action.error ?? '';
      // The core has no limit of its own for a token ("lease-<n>"); an id's bounds the copy.
      let bytes = checkText(`${name}.token`, token, limits.idBytes);
      checkOutcome(`${name}.outcome`, outcome);
      bytes += checkText(`${name}.error`, error, limits.errorTextBytes);
      return { action: { type, token, outcome, error }, bytes };
    }
    case 'advance': {
      const ms = action.ms;
      checkInteger(`${name}.`, 'ms', ms, true);
      return { action: { type, ms }, bytes: 0 };
    }
    default:
      throw typeError(`${name}.type must be ${ACTION_TYPES}, got ${describe(type)}`);
  }
}

/** A scenario object read once into a checked copy, with room for it in the heap budget. */
function readScenarioObject(scenario) {
  const { scenario: copy, bytes } = readInput('scenario', () => copyScenario(scenario));
  checkRoom(2 * bytes, 'this scenario');  // the copy in, and the queue's own
  return copy;
}

/** A scenario argument read once: { text } for link text, else { object }. */
function readScenario(scenario) {
  if (typeof scenario !== 'string') return { object: readScenarioObject(scenario) };
  refuseLong('scenario link', scenario, limits.scenarioTextBytes);  // the core's own name for it
  checkString('scenario', scenario);
  checkSize('scenario link', scenario, limits.scenarioTextBytes);
  return { text: scenario };
}

// ---- goals --------------------------------------------------------------

/**
 * A goal's text (core/lesson/goal.h; docs/goals.md): a well-formed string within the
 * core's limit, measured before it is copied. The core parses it and names
 * `goal` in every refusal.
 */
function checkGoalText(goal) {
  checkText('goal', goal, limits.goalBytes);
}

// ---- storms -------------------------------------------------------------

const STORM_EXAMPLE = "{ jobs: 10000, outage: { startMs: 0, durationMs: 5000 }, maxAttempts: 10, " +
  "backoff: { kind: 'exponential', baseMs: 100, capMs: 10000, jitter: 'full' } }";
// The series of a storm's result, in the order the core numbers them (lab.stormSeries).
let stormSeries = null;

/** A number for a storm's integer option (absent is fine unless `required`); the core checks the range. */
function checkStormInteger(name, value, required = false) {
  if (value === undefined && !required) return;
  if (typeof value !== 'number') throw typeError(unwrap(call(() => core.stormTypeMessage(name, describe(value)))));
}

/** `outage` or `capacity`: undefined or null (none), or an object whose two integer fields are read once. */
function copyStormPair(name, source, fields, example) {
  if (source === undefined || source === null) return source;
  checkObject(name, source, `${example} or null`);
  const copy = { [fields[0]]: source[fields[0]], [fields[1]]: source[fields[1]] };
  for (const field of fields) checkStormInteger(`${name}.${field}`, copy[field], true);
  return copy;
}

/**
 * createStorm()'s options (core/sim/storm.h; docs/storm.md) read once into a plain
 * copy for the core, which fills in its defaults and checks ranges, names and pairs.
 */
function copyStormOptions(source) {
  checkObject('options', source, STORM_EXAMPLE);
  const jobs = source.jobs;
  const arrivalIn = source.arrival;
  const outageIn = source.outage;
  const capacityIn = source.capacity;
  const workers = source.workers;
  const workMs = source.workMs;
  const leaseMs = source.leaseMs;
  const maxAttempts = source.maxAttempts;
  const backoffIn = source.backoff;
  const seed = source.seed;
  const bucketMs = source.bucketMs;
  const failurePerMillion = source.failurePerMillion;
  const budgetIn = source.budget;
  const refusedRetry = source.refusedRetry;
  const serverIn = source.server;
  checkStormInteger('jobs', jobs, true);
  let arrival;
  if (arrivalIn !== undefined) {
    checkObject('arrival', arrivalIn, "{ kind: 'burst' } or { kind: 'rate', perSecond: 1000 }");
    arrival = { kind: arrivalIn.kind, perSecond: arrivalIn.perSecond, clients: arrivalIn.clients };
    if (typeof arrival.kind !== 'string') {
      throw typeError(`arrival.kind must be 'burst', 'rate' or 'closed', got ${describe(arrival.kind)}`);
    }
    checkText('arrival.kind', arrival.kind, limits.outcomeBytes);  // the core names a wrong one
    if (arrival.kind === 'rate') checkStormInteger('arrival.perSecond', arrival.perSecond, true);
    if (arrival.kind === 'closed') checkStormInteger('arrival.clients', arrival.clients, true);
  }
  checkStormInteger('failurePerMillion', failurePerMillion);
  let budget = budgetIn;
  if (typeof budgetIn === 'string') {
    checkText('budget', budgetIn, limits.outcomeBytes);  // the core parses it and names what is wrong
  } else if (budgetIn !== undefined && budgetIn !== null) {
    checkObject('budget', budgetIn, "{ kind: 'grpc', maxTokens: 10, tokenRatioPerMille: 100 }, text such as 'grpc:10:0.1', or null");
    budget = { kind: budgetIn.kind };
    if (typeof budget.kind !== 'string') {
      throw typeError(`budget.kind must be 'grpc', 'aws-standard' or 'finagle', got ${describe(budget.kind)}`);
    }
    checkText('budget.kind', budget.kind, limits.outcomeBytes);
    for (const key of ['maxTokens', 'tokenRatioPerMille', 'percent', 'minPerSecond', 'windowMs']) {
      budget[key] = budgetIn[key];
      checkStormInteger(`budget.${key}`, budget[key]);
    }
  }
  if (refusedRetry !== undefined) {
    if (typeof refusedRetry !== 'string') {
      throw typeError(`refusedRetry must be 'quarantine' or 'fail', got ${describe(refusedRetry)}`);
    }
    checkText('refusedRetry', refusedRetry, limits.outcomeBytes);
  }
  let server = serverIn;
  if (serverIn !== undefined && serverIn !== null) {
    checkObject('server', serverIn, '{ capacityPerSecond: 1000, timeoutMs: 500 } or null');
    server = {};
    for (const [key, required] of [['capacityPerSecond', true], ['timeoutMs', true], ['dropStartMs', false],
      ['dropMs', false], ['dropPerSecond', false]]) {
      server[key] = serverIn[key];
      checkStormInteger(`server.${key}`, server[key], required);
    }
  }
  const outage = copyStormPair('outage', outageIn, ['startMs', 'durationMs'], '{ startMs: 0, durationMs: 5000 }');
  const capacity = copyStormPair('capacity', capacityIn, ['perWindow', 'windowMs'], '{ perWindow: 500, windowMs: 100 }');
  checkStormInteger('workers', workers);
  checkStormInteger('workMs', workMs);
  checkInteger('', 'leaseMs', leaseMs);
  checkInteger('', 'maxAttempts', maxAttempts, true);
  const backoff = backoffIn === undefined ? undefined : copyBackoff('', '', backoffIn);
  checkInteger('', 'seed', seed);
  checkStormInteger('bucketMs', bucketMs);
  return {
    jobs, arrival, outage, capacity, failurePerMillion, budget, refusedRetry, server, workers, workMs, leaseMs,
    maxAttempts, backoff, seed, bucketMs,
  };
}

// ---- snapshots and recovery ---------------------------------------------

// A string of UTF-16 units below 0x80 only: its UTF-8 bytes are its length.
const ASCII_ONLY = /^[\x00-\x7F]*$/;

/**
 * A snapshot argument `name`: a well-formed string within the core's limit, in
 * the form it crosses (wireText). `alternative` completes the type message.
 */
function readSnapshot(name, text, alternative = '') {
  if (typeof text !== 'string') {
    throw typeError(`${name} must be a snapshot string from q.snapshot()${alternative}, got ${describe(text)}`);
  }
  refuseLong('snapshot', text, limits.snapshotBytes);  // the core's own name for it
  checkString(name, text);
  return wireText('snapshot', text, limits.snapshotBytes);
}

/**
 * recover()'s journal read once: each element a record object from q.journal()
 * (its `record` read once; nothing else of it is used) or a record string as
 * stored. Returns { records, objects } (objects[i]: element i was an object, to
 * name it in messages).
 */
function copyJournal(journal) {
  const list = copyArray('journal', journal, limits.journalRecords);
  const records = new Array(list.length);
  const objects = new Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    objects[i] = typeof item !== 'string';
    if (!objects[i]) {
      records[i] = item;
      continue;
    }
    if (item === null || typeof item !== 'object' || isArray(item)) {
      throw typeError(`journal[${i}] must be a journal record object from q.journal() (or its record string), got ` +
        describe(item));
    }
    const record = item.record;
    if (typeof record !== 'string') throw typeError(`journal[${i}].record must be a string, got ${describe(record)}`);
    records[i] = record;
  }
  return { records, objects };
}

/**
 * recover()'s options ({ crashAfter?, torn? }) read once. Like a class table's
 * keys, reading stops at the first key that is not an option, which is refused
 * by name.
 */
function copyRecoverOptions(options) {
  if (options === undefined) return { crashAfter: undefined, torn: undefined };
  checkObject('options', options, RECOVER_OPTIONS_EXAMPLE);
  for (const key of Object.keys(options)) {
    if (!RECOVER_OPTION_NAMES.includes(key)) {
      const known = RECOVER_OPTION_NAMES.map((name) => JSON.stringify(name)).join(', ');
      const shown = JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key);
      throw coded(RangeError, 'invalid-argument', `options: a recover() option must be one of ${known}, got ${shown}`);
    }
  }
  const crashAfter = options.crashAfter;
  const torn = options.torn;
  return { crashAfter, torn };
}

/**
 * crashAfter's type: absent, or a safe integer (the core checks its range against
 * the journal). Anything else is refused with the range the core states for it.
 */
function checkCrashAfter(value, fromCreation, length) {
  if (value === undefined || Number.isSafeInteger(value)) return;
  const range = `crashAfter must be an integer from ${fromCreation ? 1 : 0} to ${length} (the journal's length` +
    `${fromCreation ? '; write 1 creates the queue' : ''}), got ${describe(value)}`;
  throw typeof value === 'number' ? coded(RangeError, 'out-of-range', range) : typeError(range);
}

// ---- the API ------------------------------------------------------------

class Lab {
  #registry;

  constructor(module) {
    core = module;
    limits = Object.freeze(core.sizeLimits());
    outcomes = Object.freeze(core.outcomeNames());
    failureClasses = Object.freeze(core.classNames());
    stormSeries = Object.freeze(core.stormSeriesNames());
    schema = deepFreeze(core.schema());
    const quoted = outcomes.map((name) => `'${name}'`);
    outcomeList = `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
    // A safety net only: a queue that is garbage-collected undisposed frees its
    // wasm memory. It must never throw (it runs outside any caller's try).
    this.#registry = new FinalizationRegistry((handle) => {
      if (aborted !== null) return;
      try { handle.delete(); } catch (error) { aborted ??= error; }
    });
    this.limits = limits;
    this.outcomes = outcomes;
    this.failureClasses = failureClasses;
    /** Why an entry sits in quarantine: 'permanent', 'exhausted' (a redrive's `reason`). */
    this.reasons = Object.freeze(core.reasonNames());
    this.stormSeries = stormSeries;
    this.contentionGridClients = Object.freeze(core.contentionGridClients());
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
    const handle = call(() => new core.StormHandle());
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
    const handle = call(() => new core.StormSetHandle());
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
    return unwrap(call(() => core.stormCost(copy)));
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
    const input = readInput('options', () => {
      checkObject('options', options, "{ clients: 100, strategy: 'full' }");
      const copy = {};
      for (const name of names) copy[name] = options[name];
      return copy;
    });
    for (const name of names) {
      const value = input[name];
      if (value === undefined && name !== 'clients' && name !== 'strategy') continue;
      if (typeof value !== (name === 'strategy' ? 'string' : 'number')) {
        throw typeError(unwrap(call(() => core.contentionTypeMessage(name, describe(value)))));
      }
      if (name === 'strategy') checkText(name, value, limits.outcomeBytes);
    }
    return unwrap(call(() => core.runContention(input)));
  }

  /**
   * What the contention experiment's grid costs (core/sim/contention.h,
   * EstimateContentionGridCost): every strategy at each of lab.contentionGridClients,
   * at the published base and cap, with options { seed?, runs? }, read and refused
   * as runContention() reads them. Returns { runs, calls }: calls is about 82,000 a run.
   */
  contentionCost(options) {
    const names = ['seed', 'runs'];
    const input = readInput('options', () => {
      checkObject('options', options, '{ seed: 1, runs: 20 }');
      const copy = {};
      for (const name of names) copy[name] = options[name];
      return copy;
    });
    for (const name of names) {
      const value = input[name];
      if (value !== undefined && typeof value !== 'number') {
        throw typeError(unwrap(call(() => core.contentionTypeMessage(name, describe(value)))));
      }
    }
    return unwrap(call(() => core.contentionCost(input)));
  }

  /**
   * A policy's retry schedule (core/policy/schedule.h): for a job whose every
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

  /** A broker's pasted config read by the core (wasm/config.mjs, core/config/config.h). */
  importConfig(text, { dlqRetention } = {}) { return readConfig(enterCore, this.configFacts(), text, dlqRetention); }

  /** A config object's text read by the core (JSON or JSON5): { ok, value } or { ok: false, refusal }. */
  readObjectText(text, name) { return readObjectText(enterCore, this.configFacts(), text, name); }

  /** The config readers' formats and limits ({ formats, maxImportChars, maxSidekiqChars }). */
  configFacts() { return (configFactsOnce ??= configFacts(enterCore)); }

  /** { limitBytes, usedBytes }: the cap on what all queues keep, and what they keep now. */
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

/**
 * The life of one object in wasm memory (a queue, a storm): its handle while it
 * lives, the refusal once disposed ('disposed', naming how to get a new one) or
 * once the core has aborted, and dispose(), which after an abort only forgets it.
 */
class Lifetime {
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

class Queue {
  #life;

  constructor(handle, forget) {
    this.#life = new Lifetime(handle, forget, ['queue', 'lab.createQueue()']);
  }

  #live() {
    return this.#life.live();
  }

  get disposed() {
    return this.#life.disposed;
  }

  /**
   * Appends a job at the ready tail; `options.key` (a non-empty string, at most
   * lab.limits.keyBytes) orders it among its key's jobs. No options: no key.
   */
  enqueue(id, payload, options) {
    const handle = this.#live();
    const key = options === undefined ? undefined : readInput('options', () => {
      checkObject('options', options, "{ key: 'acct-7' }");
      return options.key ?? undefined;
    });
    const idIn = wireText('id', id, limits.idBytes);
    const payloadIn = wireText('payload', payload, limits.payloadBytes);
    checkKey('key', key);  // the core's own name for it
    unwrap(call(() => handle.enqueue(idIn, payloadIn, key ?? '')));
  }

  /** All or nothing: appends every { id, payload, key? } in order, or none. */
  enqueueMany(jobs) {
    const handle = this.#live();
    const { ids, payloads, keys, bytes } = readInput('jobs', () => {
      const list = copyArray('jobs', jobs, limits.batchJobs);
      const ids = new Array(list.length);
      const payloads = new Array(list.length);
      let keys = null;  // made at the first job with a key: '' for none
      let bytes = 0;
      // The checks below build a name like `jobs[${i}].id` only when they refuse:
      // made eagerly, three names a job cost more than the rest of the loop.
      // A short string's bound (3 bytes a unit) is checkSize()'s fast path.
      const { idBytes: idLimit, payloadBytes: payloadLimit } = limits;
      for (let i = 0; i < list.length; i++) {
        const job = list[i];
        if (!isObject(job)) checkObject(`jobs[${i}]`, job, "{ id: 'a', payload: '' }");
        const id = job.id;
        const payload = job.payload;
        const key = job.key ?? undefined;  // null (as views report it) is no key too
        if (typeof id !== 'string') checkString(`jobs[${i}].id`, id);
        if (typeof payload !== 'string') checkString(`jobs[${i}].payload`, payload);
        bytes += id.length * 3 <= idLimit ? id.length * 3 : checkSize(`jobs[${i}].id`, id, idLimit);
        bytes += payload.length * 3 <= payloadLimit ? payload.length * 3
          : checkSize(`jobs[${i}].payload`, payload, payloadLimit);
        if (key !== undefined) {
          bytes += checkKey(`jobs[${i}].key`, key);
          keys ??= new Array(list.length).fill('');
          keys[i] = key;
        }
        ids[i] = id;
        payloads[i] = payload;
      }
      return { ids, payloads, keys, bytes };
    });
    const checkEach = () => {
      ids.forEach((id, i) => { checkString(`jobs[${i}].id`, id); checkString(`jobs[${i}].payload`, payloads[i]); });
    };
    if (bytes > limits.batchBytes) {
      // Maybe too large to join (past V8's longest string): the exact size before
      // joining, after the per-string checks a joined check would have made first.
      checkEach();
      const exact = ids.reduce((sum, id) => sum + utf8Length(id), 0) + payloads.reduce((sum, p) => sum + utf8Length(p), 0) +
        (keys === null ? 0 : keys.reduce((sum, key) => sum + utf8Length(key), 0));
      if (exact > limits.batchBytes) tooLarge('jobs (ids and payloads together)', limits.batchBytes, exact);
    }
    // Well-formedness once over the joined text (joining cannot pair up lone
    // surrogates: a NUL separates every string); per string only to name one.
    // Keys were checked one by one above.
    const idText = ids.join('\0');
    const payloadText = payloads.join('\0');
    if (!isWellFormed(idText) || !isWellFormed(payloadText)) checkEach();
    checkRoom(2 * bytes, 'enqueueMany');
    // One boundary crossing for the whole batch: NUL-joined strings, encoded to
    // UTF-8 here and copied in as bytes (keys as a third string, only when some
    // job has one), each with one TypedArray.set (bindings.cpp ReadBytes). Every
    // string was checked above.
    const idBytes = utf8.encode(idText);
    const payloadBytes = utf8.encode(payloadText);
    const packed = keys === null ? call(() => handle.enqueuePacked(idBytes, payloadBytes, ids.length))
      : call(() => handle.enqueuePackedKeys(idBytes, payloadBytes, utf8.encode(keys.join('\0')), ids.length));
    // false: some string holds NUL itself, so the fields did not split back; let
    // the core read the strings one by one instead.
    if (packed !== false) {
      unwrap(packed);
      return;
    }
    const list = ids.map((id, i) => (keys === null || keys[i] === '' ? { id, payload: payloads[i] }
      : { id, payload: payloads[i], key: keys[i] }));
    unwrap(call(() => handle.enqueueArray(list)));
  }

  process(outcome, errorText = '') {
    const handle = this.#live();
    checkOutcome('outcome', outcome);
    const errorIn = wireText('errorText', errorText, limits.errorTextBytes);
    return unwrap(call(() => handle.process(outcome, errorIn)));
  }

  /** One attempt per letter of `outcomes` ('s', 't', 'p'), until nothing is ready; returns attempts made. */
  processMany(outcomes, errorText = '') {
    const handle = this.#live();
    // Bytes: a million letters cross as one TypedArray.set, not letter by letter.
    const outcomesIn = wireBytes('outcomes', outcomes, limits.outcomeLetters);
    const errorIn = wireText('errorText', errorText, limits.errorTextBytes);
    return unwrap(call(() => handle.processMany(outcomesIn, errorIn)));
  }

  /**
   * Moves quarantined `id` back to the ready tail with attempts reset; false if it is not in
   * quarantine. `{ resetAttempts: false }` (system bullmq only) keeps its attempts, as BullMQ's
   * job.retry() without resetAttemptsMade does: one more run, and a failure there is final.
   */
  replay(id, { resetAttempts = true } = {}) {
    const handle = this.#live();
    checkText('id', id, limits.idBytes);
    checkBoolean('resetAttempts', resetAttempts);
    if (resetAttempts) return call(() => handle.replay(id));
    return unwrap(call(() => handle.replayKeepingAttempts(id)));
  }

  /**
   * One scenario action ({ type: 'process', outcome }, { type: 'crash', after }, …), applied
   * by the core exactly as a script plays it: one that would find nothing to do is refused,
   * and nothing changes. Returns null, or a crash's report ({ applied, journal,
   * tornDiscarded, lost, duplicated }); the queue is then the recovered one.
   */
  apply(action) {
    const handle = this.#live();
    const { action: copy, bytes } = readInput('action', () => copyAction(action, 'action'));
    checkRoom(bytes, 'this action');
    return unwrap(call(() => handle.apply(copy)));
  }

  /** Where job `id` is now, in one lookup (no pass over the views); null if this queue was never given it. */
  locate(id) {
    const handle = this.#live();
    checkText('id', id, limits.idBytes);
    return call(() => handle.locate(id));
  }

  /**
   * Takes the ready head and counts its attempt now: { id, payload, attempt,
   * token, leasedAt, expiresAt }, or null when nothing is ready.
   */
  lease() {
    const handle = this.#live();
    return unwrap(call(() => handle.lease()));
  }

  /**
   * Ends the lease `token` with the worker's outcome, like process(). The outcome
   * and error text are checked first, then the token: unknown, settled or expired
   * is an Error with code 'stale-lease', and nothing changes.
   */
  settle(token, outcome, errorText = '') {
    const handle = this.#live();
    checkOutcome('outcome', outcome);
    const errorIn = wireText('errorText', errorText, limits.errorTextBytes);
    // The core has no limit of its own for a token ("lease-<n>"); an id's bounds the copy.
    checkText('token', token, limits.idBytes);
    return unwrap(call(() => handle.settle(token, outcome, errorIn)));
  }

  /** Moves the virtual clock on by `ms`, firing every timer due on the way, each at its own time. */
  advance(ms) {
    const handle = this.#live();
    checkInteger('', 'ms', ms, true);
    unwrap(call(() => handle.advance(ms)));
  }

  /** Jumps to the earliest pending timer and fires what is due then: the new time, or null (nothing pending). */
  advanceToNext() {
    const handle = this.#live();
    return call(() => handle.advanceToNext());
  }

  /**
   * An operator's fix before a replay: gives the quarantined job `id` the payload
   * `payload` (a 'patched' event); its entry keeps id, attempts and reason. Throws,
   * naming the argument, for an unknown id, a job not in quarantine or a payload past
   * the limit; nothing changes then.
   */
  patch(id, payload) {
    const handle = this.#live();
    checkText('id', id, limits.idBytes);
    checkText('payload', payload, limits.payloadBytes);
    unwrap(call(() => handle.patch(id, payload)));
  }

  /**
   * An operator's decision to let key `key`'s jobs run past its holders in
   * quarantine (or whose evidence expired): returns how many holders it
   * released (0: nothing changed). Holders in flight or delayed keep holding.
   */
  releaseKey(key) {
    const handle = this.#live();
    checkKey('key', key, true);
    return unwrap(call(() => handle.releaseKey(key)));
  }

  /**
   * Replays the `max` oldest quarantine entries (by arrival), each exactly like
   * replay(id); returns how many moved. `options` ({ max }) is required.
   */
  redrive(options) {
    const handle = this.#live();
    const max = readInput('options', () => {
      checkObject('options', options, '{ max: 10 }');
      return options.max;
    });
    checkInteger('', 'max', max, true);  // the core checks the range
    return unwrap(call(() => handle.redrive(max)));
  }

  /**
   * What the simulated world (core/scenario/world.h) does next to this queue, as a
   * scenario action object ({ type: 'lease' }, { type: 'settle', token, outcome,
   * error }, { type: 'advance', ms } or { type: 'advanceToNext' }), or null when
   * nothing will ever happen again. Changes nothing: apply the action to play it.
   */
  nextWorldAction(world) {
    const handle = this.#live();
    const copy = readInput('world', () => copyWorld('', world));
    return unwrap(call(() => handle.nextWorldAction(copy))).action;
  }

  /** The quarantine's depth alarm: { raised, depth, threshold } (threshold 0: no alarm). */
  alarm() {
    const handle = this.#live();
    return call(() => handle.alarm());
  }

  /** Completions that broke their key's order, as they happened: [{ key, id, overtook }]; optionally a slice. */
  reorders(from = 0, count = Infinity) { return this.#slice('reorders', from, count); }

  /** The virtual time in milliseconds. */
  now() {
    const handle = this.#live();
    return call(() => handle.now());
  }

  /** { attempts, timeMs }: the most attempts and the longest time a job can spend from its first lease to quarantine. */
  worstCase() {
    const handle = this.#live();
    return call(() => handle.worstCase());
  }

  /**
   * The whole state as a canonical text (equal states, equal texts) with a
   * checksum; lab.restoreQueue() reads it back. Starts a new journal, which
   * follows this snapshot. 'too-large' past lab.limits.snapshotBytes (nothing changes).
   */
  snapshot() {
    const handle = this.#live();
    return unwrap(call(() => handle.snapshot()));
  }

  /** The same text as snapshot(), the journal left as it is. */
  snapshotText() {
    const handle = this.#live();
    return unwrap(call(() => handle.snapshotText()));
  }

  /**
   * The durable writes since the last snapshot() (or since creation, whose first
   * write is 'create'), in order: [{ write, op, id, record }], id null for the
   * writes of no job ('create', 'clock'). 'failed-precondition' when the policy
   * keeps no journal (journal: false).
   */
  journal() {
    const handle = this.#live();
    return unwrap(call(() => handle.journal()));
  }

  /** The whole policy, defaults filled in, as an options object createQueue() takes. */
  policy() {
    const handle = this.#live();
    return call(() => handle.policy());
  }

  /**
   * { <class>: { retry, maxAttempts, backoff, alert } }: the rule in force for each
   * failure class, as the core resolves it (maxAttempts capped by the policy's,
   * the policy's backoff filled in where the class has none of its own).
   */
  rules() {
    const handle = this.#live();
    return call(() => handle.rules());
  }

  /** Ready jobs, head first; optionally the slice [from, from + count). */
  ready(from = 0, count = Infinity) { return this.#slice('ready', from, count); }
  /** Completed jobs in completion order; optionally a slice. */
  completed(from = 0, count = Infinity) { return this.#slice('completed', from, count); }
  /** Quarantine entries in arrival order; optionally a slice. */
  quarantined(from = 0, count = Infinity) { return this.#slice('quarantined', from, count); }
  /** Jobs dead-lettered with no dead-letter exchange (deadLetterExchange 'none'): gone, in enqueue order. */
  discarded(from = 0, count = Infinity) { return this.#slice('discarded', from, count); }
  /** Delayed jobs in firing order (earliest due first, ties in the order set); optionally a slice. */
  delayed(from = 0, count = Infinity) { return this.#slice('delayed', from, count); }
  /** Active leases in expiry order; optionally a slice. */
  leased(from = 0, count = Infinity) { return this.#slice('leased', from, count); }

  #slice(view, from, count) {
    const handle = this.#live();
    checkCount('from', from);
    if (count !== Infinity) checkCount('count', count);
    return call(() => handle[view](from, count));
  }

  /** { step, ready, completed, quarantined, events, maxAttempts, now, actions, delayed, leased, reorders, expired, lost[, discarded] } */
  stats() {
    const handle = this.#live();
    return call(() => handle.stats());
  }

  /** Events from index `from` (0-based), at most `count` of them. */
  timeline(from = 0, count = Infinity) { return this.#slice('timeline', from, count); }

  /** The timeline as text, one stable line per event, each ending in "\n". */
  timelineText() {
    const handle = this.#live();
    return call(() => handle.timelineText());
  }

  /**
   * Checks a goal (docs/goals.md) against this queue now: { met, clauses: [{ text,
   * met, actual }] }, a clause per clause in order, `text` canonical, `actual` what
   * is true now. Never changes the queue; a goal that does not parse throws
   * lab.parseGoal()'s error.
   */
  checkGoal(goal) {
    const handle = this.#live();
    checkGoalText(goal);
    return unwrap(call(() => handle.checkGoal(goal)));
  }

  /**
   * Frees the queue's wasm memory. Disposing twice throws 'disposed'. After the
   * core has aborted, dispose() only forgets the queue (it never calls into the
   * broken module) and does not throw, so cleanup code always runs to the end.
   */
  dispose() {
    this.#life.dispose();
  }
}

/**
 * A session: what lab.createSession() returns. Each action (act, step, seek,
 * load, change, undo, actWorld) is one call into the core and returns the
 * view to draw; view() reads it again without acting. A view's `timeline` is
 * the whole script's events as the core sent them (this object keeps what it
 * was sent and replaces it from where the core says it changed), the first
 * `eventsAtCursor` of which have happened.
 */
class Session {
  #life;
  #timeline = [];
  #generation = -1;
  #policy = null;
  #world = null;

  constructor(handle, forget) {
    this.#life = new Lifetime(handle, forget, ['session', 'lab.createSession()']);
  }

  get disposed() {
    return this.#life.disposed;
  }

  #ask(link = false) {
    return { from: this.#timeline.length, generation: this.#generation, link };
  }

  /** The core's answer with the timeline, the policy and the world the page already has put back in. */
  #take(view) {
    this.#timeline.length = view.eventsFrom;
    for (const event of view.events) this.#timeline.push(event);
    if (view.policy !== undefined) {
      this.#generation = view.generation;
      this.#policy = view.policy;
      this.#world = view.world;
    }
    view.timeline = this.#timeline;
    view.policy = this.#policy;
    view.world = this.#world;
    return view;
  }

  #acted(result) {
    const out = unwrap(result);
    out.view = this.#take(out.view);
    return out;
  }

  /** The view at the cursor; with `link`, the share link too ({ text } or { error, message }). */
  view({ link = false } = {}) {
    const handle = this.#life.live();
    return this.#take(unwrap(call(() => handle.view(this.#ask(link === true)))));
  }

  /**
   * Applies a script action at the cursor: { accepted, view }. The script's next
   * action, if it is this one, is stepped along; otherwise the redo tail is
   * dropped (undo() brings it back). accepted false: the queue found nothing to do.
   */
  act(action) {
    const handle = this.#life.live();
    const copy = readInput('action', () => copyAction(action, 'action').action);
    return this.#acted(call(() => handle.act(copy, this.#ask())));
  }

  /**
   * An operator's redrive at a rate (core/session/session.h: RedriveAtRate): the
   * entries `only` takes now ({ class, reason }, as a redrive action's; {} every
   * one) go back `perSecond` (1 to 1000) at a time, one batch per virtual second.
   * With a world, the world plays each second (an advance that would cross its
   * end stops at the end); without one, the clock advances 1000 ms after each
   * batch. It ends when that many were redriven (an entry failing back meanwhile
   * is not sent again). All of it is recorded as ordinary actions (redrive, lease,
   * settle, advance), so links carry nothing new. { accepted, view }: accepted
   * false when no entry matches (nothing changes). Bad input is refused by name.
   */
  redriveAtRate(perSecond, only = {}) {
    const handle = this.#life.live();
    checkInteger('', 'perSecond', perSecond, true);  // the core checks the range
    const filter = readInput('only', () => {
      checkObject('only', only, "{ reason: 'exhausted' }");
      return { class: only.class, reason: only.reason };
    });
    checkName('only.class', filter.class);  // the core parses the class and the reason
    checkName('only.reason', filter.reason);
    const copy = {};
    if (filter.class !== undefined) copy.class = filter.class;
    if (filter.reason !== undefined) copy.reason = filter.reason;
    return this.#acted(call(() => handle.redriveAtRate(perSecond, copy, this.#ask())));
  }

  /**
   * The bounded path of the policy in force over the failures this playground can meet
   * (core/session/session.h: FailureScopeFor): `outcomes`, the outcomes its reader can
   * report, and `leases`, whether its attempts hold leases (one that runs out is a crash);
   * the core adds what the world and the authored script produce. Its terms as
   * queue.worstCase() gives them; a class that cannot fail there gives none.
   */
  worstCase({ outcomes, leases } = {}) {
    const handle = this.#life.live();
    const list = readInput('outcomes', () => copyArray('outcomes', outcomes, limits.outcomeLetters));
    list.forEach((outcome, i) => checkOutcome(`outcomes[${i}]`, outcome));
    if (typeof leases !== 'boolean') throw typeError(`leases must be a boolean, got ${describe(leases)}`);
    return unwrap(call(() => handle.worstCase(list, leases)));
  }

  /** act({ type: 'process', outcome, error: errorText }); a bad errorText is refused by that name. */
  step(outcome, errorText = '') {
    wireText('errorText', errorText, limits.errorTextBytes);
    return this.act({ type: 'process', outcome, error: errorText });
  }

  /**
   * A worker's report as text, as a page sends it: the core parses `outcome`
   * and refuses one it does not know with its own message, counting the refusal
   * (view.refused) and changing nothing else; an accepted one is step().
   */
  report(outcome, errorText = '') {
    const handle = this.#life.live();
    const text = wireText('outcome', outcome, limits.outcomeBytes);
    const error = wireText('errorText', errorText, limits.errorTextBytes);
    return this.#acted(call(() => handle.actReport(text, error, this.#ask())));
  }

  /**
   * Adds a job at the cursor: a set-up job at cursor 0 (the script kept as far
   * as it still plays), else an 'enqueue' action. `options.key` orders it. The
   * queue refuses a taken or bad id with its own words; nothing changes then.
   */
  addJob(id, payload, options) {
    const handle = this.#life.live();
    const key = options === undefined ? undefined : readInput('options', () => {
      checkObject('options', options, "{ key: 'acct-7' }");
      return options.key ?? undefined;
    });
    const idIn = wireText('id', id, limits.idBytes);
    const payloadIn = wireText('payload', payload, limits.payloadBytes);
    checkKey('key', key);
    return this.#take(unwrap(call(() => handle.addJob(idIn, payloadIn, key ?? '', this.#ask()))));
  }

  /** The world's next action, applied: { accepted, action, view } (accepted false: nothing will happen again). */
  actWorld() {
    const handle = this.#life.live();
    return this.#acted(call(() => handle.actWorld(this.#ask())));
  }

  /** Moves the cursor (clamped to 0 … length): { moved, view }. */
  seek(cursor) {
    const handle = this.#life.live();
    checkCount('cursor', cursor);
    const { accepted, view } = this.#acted(call(() => handle.seek(cursor, this.#ask())));
    return { moved: accepted, view };
  }

  /** Brings back the script from before the last change that dropped actions: { undone, view }. */
  undo() {
    const handle = this.#life.live();
    const { accepted, view } = this.#acted(call(() => handle.undo(this.#ask())));
    return { undone: accepted, view };
  }

  /**
   * Replaces everything with `scenario` (link text or object), the new authored
   * script; with `clamp` a cursor past what plays moves back instead of being
   * refused. Returns the view; a refusal throws and nothing changes.
   */
  load(scenario, { clamp = false } = {}) {
    const handle = this.#life.live();
    const input = readScenario(scenario);
    return this.#take(unwrap(call(() => handle.load(input.text ?? input.object, clamp === true, this.#ask()))));
  }

  /**
   * A set-up change (policy, world, jobs) as a whole scenario object, the
   * authored script kept: the view. The script is kept as far as it still
   * plays; with `replayWorld` (default) and a world, the world plays the
   * script past the cursor again under the new set-up (undo() brings the old back).
   */
  change(scenario, { replayWorld = true } = {}) {
    const handle = this.#life.live();
    const object = readScenarioObject(scenario);
    return this.#take(unwrap(call(() => handle.change(object, replayWorld !== false, this.#ask()))));
  }

  /** The scenario (a copy): set-up, script, cursor, world. */
  scenario() {
    const handle = this.#life.live();
    return call(() => handle.scenario());
  }

  /** The world's next action at the cursor (an action object), or null. Changes nothing. */
  nextWorldAction() {
    const handle = this.#life.live();
    return call(() => handle.nextWorldAction()).action;
  }

  /**
   * The crash point that matters most in the journal of the queue at the cursor,
   * found in one pass: { after, rank } with rank 3 (the first write after which
   * a crash loses a job), 2 (else the first that leaves one in quarantine and
   * another place) or 1 (else the first that leaves one in two places); null
   * when no write loses or doubles a job.
   */
  writeThatMatters() {
    const handle = this.#life.live();
    return unwrap(call(() => handle.writeThatMatters()));
  }

  /** Where a click on timeline event `seq` moves the cursor. */
  cursorForEvent(seq) {
    const handle = this.#life.live();
    checkCount('seq', seq);
    return call(() => handle.cursorForEvent(seq));
  }

  /** The queue at the cursor: its whole policy, its rules in force, its journal, a job's place, a goal's check, its snapshot. */
  policy() { const h = this.#life.live(); return call(() => h.policy()); }
  rules() { const h = this.#life.live(); return call(() => h.rules()); }
  journal() { const h = this.#life.live(); return unwrap(call(() => h.journal())); }
  locate(id) { const h = this.#life.live(); const idIn = wireText('id', id, limits.idBytes); return call(() => h.locate(idIn)); }
  checkGoal(goal) { const h = this.#life.live(); checkGoalText(goal); return unwrap(call(() => h.checkGoal(goal))); }
  snapshotText() { const h = this.#life.live(); return unwrap(call(() => h.snapshotText())); }
  /** The timeline up to the cursor, one line an event. */
  timelineText() { const h = this.#life.live(); return call(() => h.timelineText()); }

  dispose() {
    this.#life.dispose();
    this.#timeline = [];
  }
}

/** Runs on one grid: what lab.createStormSet() returns. */
class StormSet {
  #life;

  constructor(handle, size, forget) {
    this.#life = new Lifetime(handle, forget, ['storm set', 'lab.createStormSet()']);
    this.size = size;
  }

  get disposed() {
    return this.#life.disposed;
  }

  /**
   * Advances the running storm by at most `maxEvents` events (a non-negative
   * integer, or Infinity); a storm that finishes keeps its result and the next
   * starts. True when every run is over.
   */
  run(maxEvents) {
    const handle = this.#life.live();
    const message = () => `maxEvents must be a non-negative integer or Infinity, got ${describe(maxEvents)}`;
    if (typeof maxEvents !== 'number') throw typeError(message());
    if (maxEvents !== Infinity && (!Number.isSafeInteger(maxEvents) || maxEvents < 0)) {
      throw coded(RangeError, 'out-of-range', message());
    }
    return unwrap(call(() => handle.run(maxEvents)));
  }

  /** The run stepping now (size when all are over), its progress (0 to 1) and its attempts so far. */
  get current() { const h = this.#life.live(); return call(() => h.current()); }
  get progress() { const h = this.#life.live(); return call(() => h.progress()); }
  get attempts() { const h = this.#life.live(); return call(() => h.attempts()); }

  /** Run i's { summary, series } (i below current); each series a Uint32Array of its own. */
  result(i) {
    const handle = this.#life.live();
    const done = call(() => handle.current());
    if (!Number.isSafeInteger(i) || i < 0 || i >= done) {
      throw coded(RangeError, 'out-of-range', `i must be an integer from 0 to ${done - 1} (the runs over so far), got ${describe(i)}`);
    }
    return call(() => {
      const { bucketMs, length, ...summary } = handle.summary(i);
      const series = { bucketMs, length };
      stormSeries.forEach((name, k) => { series[name] = handle.series(i, k).slice(); });
      return { summary, series };
    });
  }

  dispose() {
    this.#life.dispose();
  }
}

class Storm {
  #life;

  constructor(handle, forget) {
    this.#life = new Lifetime(handle, forget, ['storm', 'lab.createStorm()']);
  }

  #live() {
    return this.#life.live();
  }

  get disposed() {
    return this.#life.disposed;
  }

  /**
   * Advances at most `maxEvents` events (a non-negative integer, or Infinity: to
   * the end); an event is one job moving (an arrival, a delay's end, an
   * attempt's start or its decision). True when the storm is over.
   */
  run(maxEvents) {
    const handle = this.#live();
    const message = () => `maxEvents must be a non-negative integer or Infinity, got ${describe(maxEvents)}`;
    if (typeof maxEvents !== 'number') throw typeError(message());
    if (maxEvents !== Infinity && (!Number.isSafeInteger(maxEvents) || maxEvents < 0)) {
      throw coded(RangeError, 'out-of-range', message());
    }
    return call(() => handle.run(maxEvents));
  }

  /** Jobs completed or quarantined so far, over the jobs (0 to 1). */
  get progress() {
    const handle = this.#live();
    return call(() => handle.progress());
  }

  /** Attempts decided so far (a counter: no copy of the result). */
  get attempts() {
    const handle = this.#live();
    return call(() => handle.attempts());
  }

  /**
   * { summary, series }: when the storm is over, its result; before, the counters
   * now and the series so far. Each series is a Uint32Array of its own (copied
   * out of wasm memory once), so it outlives dispose().
   */
  result() {
    const handle = this.#live();
    return call(() => {
      const { bucketMs, length, ...summary } = handle.summary();
      const series = { bucketMs, length };
      stormSeries.forEach((name, i) => { series[name] = handle.series(i).slice(); });
      return { summary, series };
    });
  }

  /** Frees the storm's wasm memory; disposing twice throws 'disposed'. After an abort it only forgets the storm. */
  dispose() {
    this.#life.dispose();
  }
}
