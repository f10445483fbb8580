// @ts-check
// How a message quotes a value the reader gave: as JSON, and a long one only by its
// start and its length, so a message never repeats a whole 1 MB attribute. A value that
// could reorder the sentence around it (right-to-left letters, bidi controls such as
// U+202E) is isolated (U+2068 … U+2069, FSI … PDI), with its bidi controls written as
// \u escapes, so no value can end the isolate or turn the app's own words around.
const MAX = 40;

// Explicit bidi formatting characters: ALM, LRM, RLM, LRE … RLO, LRI … PDI.
const BIDI_CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
// Those, or a strong right-to-left letter (Hebrew, Arabic, Syriac, Thaana, N'Ko, … and their presentation forms).
const REORDERS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;

/** `text` as a message may echo it: isolated (FSI … PDI) with its controls escaped when it could reorder the sentence. */
export function isolated(text) {
  const s = String(text);
  if (!REORDERS.test(s)) return s;
  const escaped = s.replace(BIDI_CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `\u2068${escaped}\u2069`;
}

/** `"abc"`, `["a",1]`, or `"aaaa…" (1048576 characters)` past 40 characters; isolated as `isolated` says. */
export function quoted(value) {
  if (typeof value === 'string') {
    return value.length <= MAX ? isolated(JSON.stringify(value))
      : `${isolated(`${JSON.stringify(value.slice(0, MAX)).slice(0, -1)}…"`)} (${value.length} characters)`;
  }
  let text;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = Array.isArray(value) ? '[…]' : String(value);  // too deep (or cyclic) to write out: its shape only
  }
  return text.length <= MAX ? isolated(text) : `${isolated(`${text.slice(0, MAX)}…`)} (${text.length} characters)`;
}
