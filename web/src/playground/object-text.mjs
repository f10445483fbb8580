// Reading a pasted config object: JSON, or a JavaScript object literal as code has it
// (unquoted keys, single quotes, trailing commas, comments: JSON5, which is JSON's
// superset). Pure: no DOM, no core.
//
// Before JSON5 reads the text, one linear pass over it (strings and comments skipped)
// refuses what JSON5 would take without a word: a key given twice (JSON5, like JSON,
// keeps the last) and nesting deeper than any broker config has (a deep value would
// overflow the stack of whatever walks it next).
//
// The contract: readObjectText(text, name) returns { ok: true, value } or
//   { ok: false, refusal: { key, expected, given, why } } where `key` is `name` (or a
//   duplicate key's path, "backoff.delay"); a text JSON5 cannot read is refused as
//   { key: name, why: 'is not JSON …', detail: JSON5's own message }.
import JSON5 from 'json5';
import { isolated } from '../shared/quote.mjs';

/** The deepest nesting of objects and arrays read: broker configs go 3 or 4 levels deep. */
export const MAX_DEPTH = 16;

const PUNCTUATION = new Set(['{', '}', '[', ']', ':', ',']);
const isSpace = (c) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\uFEFF' || /\s/.test(c);

/** A key token's name, as JSON5 reads it (escapes resolved), or null when it is not one JSON5 reads. */
function keyName(token) {
  if (!token.includes('\\') && !/^["']/.test(token)) return token;
  try {
    return Object.keys(JSON5.parse(`{${token}:0}`))[0] ?? null;
  } catch {
    return null;
  }
}

/** The first duplicate key or too deep a nesting in `text`, as [path, 'duplicate' | 'deep'], or null. Linear. */
function firstProblem(text) {
  const frames = [];  // { object, path, keys, expectKey, key, index }
  const pathOf = (frame, last) => (frame.path === '' ? last : `${frame.path}.${last}`);
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (isSpace(c)) { i++; continue; }
    if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n' && text[i] !== '\r') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      continue;
    }
    const top = frames.at(-1);
    if (c === '{' || c === '[') {
      const path = top === undefined ? '' : pathOf(top, top.object ? top.key ?? '?' : String(top.index));
      if (frames.length >= MAX_DEPTH) return ['', 'deep'];
      frames.push({ object: c === '{', path, keys: new Set(), expectKey: c === '{', key: null, index: 0 });
      i++;
      continue;
    }
    if (c === '}' || c === ']') { frames.pop(); i++; continue; }
    if (c === ',') {
      if (top?.object) top.expectKey = true;
      else if (top) top.index++;
      i++;
      continue;
    }
    if (c === ':') { i++; continue; }
    // A string or a bare word (an identifier, a number, a literal): one token.
    const start = i;
    if (c === '"' || c === '\'') {
      i++;
      while (i < n && text[i] !== c) i += text[i] === '\\' ? 2 : 1;
      i = Math.min(n, i + 1);
    } else {
      while (i < n && !isSpace(text[i]) && !PUNCTUATION.has(text[i]) && text[i] !== '"' && text[i] !== '\'' && text[i] !== '/') i++;
      if (i === start) i++;  // a lone '/': JSON5 will say what is wrong
    }
    if (top?.object && top.expectKey) {
      const name = keyName(text.slice(start, i));
      top.expectKey = false;
      if (name === null) continue;  // not a key JSON5 reads: its parse refuses the text
      if (top.keys.has(name)) return [pathOf(top, name), 'duplicate'];
      top.keys.add(name);
      top.key = name;
    }
  }
  return null;
}

/** `text` read as one JSON or JSON5 value, or why not (see the module's comment). `name`: the argument, as messages call it. */
export function readObjectText(text, name) {
  const problem = firstProblem(text);
  if (problem !== null) {
    const [path, kind] = problem;
    return kind === 'deep'
      ? { ok: false, refusal: { key: name, expected: `at most ${MAX_DEPTH} levels of nested objects and arrays`, given: `more than ${MAX_DEPTH}`, why: 'is nested too deeply' } }
      : { ok: false, refusal: { key: path, expected: 'each key once', given: `${isolated(JSON.stringify(path.split('.').at(-1)))} a second time`, why: 'is a duplicate key' } };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    // Not JSON: JSON5 reads the rest of what code has (linear too, a few times slower than JSON.parse).
  }
  try {
    return { ok: true, value: JSON5.parse(text) };
  } catch (error) {
    return { ok: false, refusal: { key: name, why: 'is not JSON', detail: error.message.replace(/^JSON5: /, '') } };
  }
}
