// The arguments of restoreQueue() and recover(): snapshots, journals and
// recover()'s options, read once and checked before they are copied in.
import { coded, describe, isArray, typeError } from './errors.mjs';
import { limits } from './runtime.mjs';
import { checkObject, checkString, copyArray, refuseLong, wireText } from './checks.mjs';

const RECOVER_OPTIONS_EXAMPLE = '{ crashAfter: 3, torn: false }';
// recover()'s options, in the order a refusal lists them.
const RECOVER_OPTION_NAMES = ['crashAfter', 'torn'];

// ---- snapshots and recovery ---------------------------------------------

// A string of UTF-16 units below 0x80 only: its UTF-8 bytes are its length.
export const ASCII_ONLY = /^[\x00-\x7F]*$/;  // eslint-disable-line no-control-regex -- the range starts at NUL on purpose

/**
 * A snapshot argument `name`: a well-formed string within the core's limit, in
 * the form it crosses (wireText). `alternative` completes the type message.
 */
export function readSnapshot(name, text, alternative = '') {
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
export function copyJournal(journal) {
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
export function copyRecoverOptions(options) {
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
export function checkCrashAfter(value, fromCreation, length) {
  if (value === undefined || Number.isSafeInteger(value)) return;
  const range = `crashAfter must be an integer from ${fromCreation ? 1 : 0} to ${length} (the journal's length` +
    `${fromCreation ? '; write 1 creates the queue' : ''}), got ${describe(value)}`;
  throw typeof value === 'number' ? coded(RangeError, 'out-of-range', range) : typeError(range);
}
