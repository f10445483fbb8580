// Checks of values already read into locals (rules 1 and 2 at the top of
// index.mjs): types, well-formed strings, sizes measured against the core's
// limits before anything is copied into wasm memory.
import { coded, describe, isArray, typeError, unwrap } from './errors.mjs';
import { call, core, limits, outcomeList, tables } from './runtime.mjs';

export const utf8 = new TextEncoder();
// Copies at most this large need no heap-budget check first: the budget leaves
// far more headroom than that for boundary copies.
const SMALL_COPY_BYTES = 1 << 20;

// ---- checks of values already read into locals --------------------------

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Strings cross into the core as UTF-8, which cannot carry a lone UTF-16
 * surrogate; rather than let one turn silently into U+FFFD, refuse it.
 */
export const isWellFormed = (text) => text.isWellFormed?.() ?? !LONE_SURROGATE.test(text);

export function checkString(name, value) {
  if (typeof value !== 'string') throw typeError(`${name} must be a string, got ${describe(value)}`);
  if (!isWellFormed(value)) {
    const at = value.search(LONE_SURROGATE);
    throw typeError(`${name} must be a well-formed string, but it has a lone surrogate at index ${at}`);
  }
}

/** UTF-8 bytes of a well-formed string. */
export function utf8Length(text) {
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
export function tooLarge(name, limit, given, unit = 'bytes', atLeast = false) {
  unwrap(call(() => tables.sizeError(name, limit, given, unit, atLeast)));
}

// Strings up to this many UTF-16 units past a limit are measured for an exact
// refusal (a millisecond or so); longer ones are refused by their length alone.
export const MEASURED_REFUSAL = 1 << 20;

/**
 * Refuses a long string longer than `limit` UTF-16 units before anything scans
 * it: each unit is at least one UTF-8 byte, so it is past `limit` bytes whatever
 * it holds, and the refusal says "at least" (a 256 M-character string is refused
 * at once, not after a well-formedness scan and a byte count). Anything but a
 * string is left to the type check.
 */
export function refuseLong(name, value, limit) {
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
export function checkSize(name, value, limit) {
  if (value.length * 3 <= limit) return value.length * 3;
  refuseLong(name, value, limit);
  const bytes = utf8Length(value);
  if (bytes > limit) tooLarge(name, limit, bytes);
  return bytes;
}

/** A well-formed string within the core's size limit; returns an upper bound of its UTF-8 bytes. */
export function checkText(name, value, limit) {
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
export function wireText(name, value, limit) {
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
 * Uint8Array and copy it in with one TypedArray.set (values.cpp ReadBytes).
 */
export function wireBytes(name, value, limit) {
  const wire = wireText(name, value, limit);
  return typeof wire === 'string' ? utf8.encode(wire) : wire;
}

/** Before copying `bytes` into wasm: refuses (resource-exhausted) if the heap budget lacks room. */
export function checkRoom(bytes, what) {
  if (bytes > SMALL_COPY_BYTES) unwrap(call(() => core.checkRoom(bytes, what)));
}

/** A non-null object that is not an array: what checkObject() accepts. */
export const isObject = (value) => value !== null && typeof value === 'object' && !isArray(value);

export function checkObject(name, value, example) {
  if (!isObject(value)) throw typeError(`${name} must be an object such as ${example}, got ${describe(value)}`);
}

/** A copy of an array (length read once, at most `limit` items). */
export function copyArray(name, value, limit) {
  if (!isArray(value)) throw typeError(`${name} must be an array, got ${describe(value)}`);
  const length = value.length;
  if (!Number.isSafeInteger(length) || length < 0) throw typeError(`${name} has an invalid length: ${describe(length)}`);
  if (length > limit) tooLarge(name, limit, length, 'items');
  const copy = new Array(length);
  for (let i = 0; i < length; i++) copy[i] = value[i];
  return copy;
}

export function checkOutcome(name, value) {
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
export function checkKey(name, value, required = false) {
  if (value === undefined && !required) return 0;
  if (typeof value !== 'string' || value.length === 0) {
    const expected = required ? 'a non-empty string' : 'a non-empty string, or null (or left out) for no key';
    throw typeError(`${name} must be ${expected}, got ${describe(value)}`);
  }
  return checkText(name, value, limits.keyBytes);
}

/** A number of the wrong kind is a RangeError, anything else a TypeError. */
export function checkCount(name, value) {
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
export function checkInteger(prefix, field, value, required = false) {
  if (value === undefined && !required) return;
  if (typeof value !== 'number') {
    throw typeError(prefix + unwrap(call(() => tables.integerTypeMessage(field, describe(value)))));
  }
}

/**
 * A name the core parses (a backoff kind, a jitter), if present. The core has
 * no limit of its own for these; an outcome's (a name too) bounds the copy.
 */
export function checkName(name, value) {
  if (value !== undefined) checkText(name, value, limits.outcomeBytes);
}

/** A boolean field, if present. */
export function checkBoolean(name, value) {
  if (value !== undefined && typeof value !== 'boolean') throw typeError(`${name} must be a boolean, got ${describe(value)}`);
}

// ---- goals --------------------------------------------------------------

/**
 * A goal's text (core/lesson/goal.h; docs/goals.md): a well-formed string within the
 * core's limit, measured before it is copied. The core parses it and names
 * `goal` in every refusal.
 */
export function checkGoalText(goal) {
  checkText('goal', goal, limits.goalBytes);
}
