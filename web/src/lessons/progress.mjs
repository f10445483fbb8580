// @ts-check
// A learner's progress through the lessons, kept in localStorage so a ✓
// survives a reload: which exercises each lesson page has seen solved, and in
// how many moves, and the answers given to its predict questions. One record
// per page ('lesson-1'), keyed by exercise (exerciseKey() in levels.mjs) or by
// question (predictKey()). What is read back is validated (validProgress): a
// record not of the expected shape is discarded, never trusted. Storage may be missing or refused (private
// windows, a full quota, blocked cookies): progress then lasts as long as the
// page, and nothing else changes.

export const STORAGE_KEY = 'dlq-lab:progress';
const VERSION = 1;

/** The page a URL names, as progress keys it: 'lesson-1' for …/lesson-1.html (and …/lesson-1). */
export function pageKey(url) {
  const path = new URL(url, 'http://localhost/').pathname;
  return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1)).replace(/\.html?$/, '') || 'index';
}

function storage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;  // a sandboxed frame throws on the getter itself
  }
}

const empty = () => ({ v: VERSION, pages: Object.create(null), answers: Object.create(null) });
let memory = empty();  // used when storage is refused

const isRecord = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
/** A move count or a par as kept: a whole number from 0, or null (none). */
const isCount = (x) => x === null || (Number.isSafeInteger(x) && x >= 0);
/** A predict answer as kept: a choice's index, or an order's job ids. */
const isAnswer = (x) => (Number.isSafeInteger(x) && x >= 0)
  || (Array.isArray(x) && x.length > 0 && x.every((id) => typeof id === 'string'));

/**
 * `value`'s entries (own, enumerable) that `keep(entry)` accepts, as a plain
 * object without a prototype (so a stored "__proto__" or "toString" key is data).
 */
function kept(value, keep) {
  const out = Object.create(null);
  if (!isRecord(value)) return out;
  for (const [key, entry] of Object.entries(value)) {
    const entryKept = keep(entry);
    if (entryKept !== undefined) out[key] = entryKept;
  }
  return out;
}

/**
 * What was stored, validated: only what has the expected shape is kept, the rest
 * is discarded (another tab, an older page or a hand in the developer tools may
 * have written anything), so nothing read here can break a page.
 * { v, pages: { page: { key: { actions, par } } }, answers: { page: { key: answer } } }.
 */
export function validProgress(data) {
  if (!isRecord(data) || data.v !== VERSION) return empty();
  const solve = (x) => (isRecord(x) && isCount(x.actions ?? null) && isCount(x.par ?? null)
    ? { actions: x.actions ?? null, par: x.par ?? null } : undefined);
  return {
    v: VERSION,
    pages: kept(data.pages, (record) => (isRecord(record) ? kept(record, solve) : undefined)),
    answers: kept(data.answers, (record) => (isRecord(record)
      ? kept(record, (a) => (isAnswer(a) ? (Array.isArray(a) ? [...a] : a) : undefined)) : undefined)),
  };
}

/** Everything stored, validated (validProgress); a damaged record reads as empty. */
function read() {
  const store = storage();
  if (!store) return memory;
  let text = null;
  try {
    text = store.getItem(STORAGE_KEY);
  } catch {
    return memory;
  }
  if (text === null) return empty();
  try {
    return validProgress(JSON.parse(text));
  } catch {
    return empty();  // not JSON: start again
  }
}

function write(data) {
  memory = data;
  try {
    storage()?.setItem(STORAGE_KEY, JSON.stringify(data));
  } catch { /* refused: kept in memory for this page */ }
  globalThis.dispatchEvent?.(new CustomEvent('dlq-progress', { detail: { pages: Object.keys(data.pages) } }));
}

/** The solved exercises of `page`: a Map key -> { actions, par } (par null when the exercise has none). */
export function solvedOn(page) {
  return new Map(Object.entries(read().pages[page] ?? {}));
}

/** Records exercise `key` of `page` as solved in `actions` moves (the first solve is kept). */
export function markSolved(page, key, { actions = null, par = null } = {}) {
  const data = read();
  const record = data.pages[page] ?? Object.create(null);
  if (record[key]) return;
  record[key] = { actions, par };
  data.pages[page] = record;
  write(data);
}

/** The predict answers given on `page`: a Map key -> answer (a choice's index, or an order's job ids). */
export function answersOn(page) {
  return new Map(Object.entries(read().answers[page] ?? {}));
}

/**
 * Keeps the answer to predict question `key` of `page` (the question takes one
 * answer until it is asked again: an answer kept that no longer fits is replaced).
 */
export function markAnswered(page, key, answer) {
  if (!isAnswer(answer)) throw new TypeError(`answer: expected a choice's index or a list of job ids, got ${JSON.stringify(answer)}`);
  const data = read();
  const record = data.answers[page] ?? Object.create(null);
  record[key] = Array.isArray(answer) ? [...answer] : answer;
  data.answers[page] = record;
  write(data);
}

/** Forgets `page`'s progress, solves and answers (every page's when `page` is undefined). */
export function resetProgress(page) {
  const data = read();
  if (page === undefined) {
    data.pages = Object.create(null);
    data.answers = Object.create(null);
  } else {
    delete data.pages[page];
    delete data.answers[page];
  }
  write(data);
}

/** Calls `handler()` when progress changes: on this page, or in another tab of the site (a storage event). */
export function onProgress(handler) {
  globalThis.addEventListener?.('dlq-progress', () => handler());
  globalThis.addEventListener?.('storage', (e) => { if (e.key === STORAGE_KEY || e.key === null) handler(); });
}
