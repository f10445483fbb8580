// A learner's progress through the lessons, kept in localStorage so a ✓
// survives a reload: which exercises each lesson page has seen solved, and in
// how many moves. One record per page ('lesson-1'), keyed by exercise
// (exerciseKey() in levels.mjs). Storage may be missing or refused (private
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

let memory = { v: VERSION, pages: {} };  // used when storage is refused

/** Everything stored: { v, pages: { page: { key: { actions, par } } } }; a damaged record reads as empty. */
function read() {
  const store = storage();
  if (!store) return memory;
  let text = null;
  try {
    text = store.getItem(STORAGE_KEY);
  } catch {
    return memory;
  }
  if (text === null) return { v: VERSION, pages: {} };
  try {
    const data = JSON.parse(text);
    if (data && data.v === VERSION && data.pages && typeof data.pages === 'object') return data;
  } catch { /* damaged: start again */ }
  return { v: VERSION, pages: {} };
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
  const record = read().pages[page] ?? {};
  return new Map(Object.entries(record).filter(([, v]) => v && typeof v === 'object'));
}

/** Records exercise `key` of `page` as solved in `actions` moves (the first solve is kept). */
export function markSolved(page, key, { actions = null, par = null } = {}) {
  const data = read();
  const record = data.pages[page] ?? {};
  if (record[key]) return;
  record[key] = { actions, par };
  data.pages[page] = record;
  write(data);
}

/** Forgets `page`'s progress (every page's when `page` is undefined). */
export function resetProgress(page) {
  const data = read();
  if (page === undefined) data.pages = {};
  else delete data.pages[page];
  write(data);
}

/** Calls `handler()` when progress changes: on this page, or in another tab of the site (a storage event). */
export function onProgress(handler) {
  globalThis.addEventListener?.('dlq-progress', () => handler());
  globalThis.addEventListener?.('storage', (e) => { if (e.key === STORAGE_KEY || e.key === null) handler(); });
}
