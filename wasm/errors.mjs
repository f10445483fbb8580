// Errors the JS API throws: every one an Error with a string `code` (rule 4 at
// the top of index.mjs), and the descriptions of values their messages use.

/** Describes a value for an error message: "2.5", "\"3\" (a string)", "null". */
export function describe(value) {
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
export function isArray(value) {
  try { return Array.isArray(value); } catch { return false; }
}

export function coded(Kind, code, message, cause) {
  const error = new Kind(message, cause === undefined ? undefined : { cause });
  error.code = code;
  return error;
}

export const typeError = (message, cause) => coded(TypeError, 'invalid-type', message, cause);

/** Throws the core's error value, if `result` is one; else returns `result`. */
export function unwrap(result) {
  if (result === null || typeof result !== 'object' || typeof result.error !== 'string') return result;
  const Kind = ['out-of-range', 'invalid-argument', 'too-large'].includes(result.error) ? RangeError : Error;
  throw coded(Kind, result.error, result.message);
}

/**
 * Runs `read` (which reads the caller's values into locals); anything it throws
 * that is not already one of our coded errors (a getter's exception, a revoked
 * Proxy's TypeError, a thrown non-Error) becomes a TypeError naming `name`.
 */
export function readInput(name, read) {
  try {
    return read();
  } catch (error) {
    if (error instanceof Error && typeof error.code === 'string') throw error;
    const detail = error instanceof Error ? error.message : describe(error);
    throw typeError(`${name} could not be read: ${detail}`, error);
  }
}