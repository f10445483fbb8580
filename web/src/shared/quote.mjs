// How a refusal quotes the value it refuses: as JSON, and a long one only by its
// start and its length, so a message never repeats a whole 1 MB attribute.
const MAX = 40;

/** `"abc"`, `["a",1]`, or `"aaaa…" (1048576 characters)` past 40 characters. */
export function quoted(value) {
  if (typeof value === 'string') {
    return value.length <= MAX ? JSON.stringify(value) : `${JSON.stringify(value.slice(0, MAX)).slice(0, -1)}…" (${value.length} characters)`;
  }
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= MAX ? text : `${text.slice(0, MAX)}… (${text.length} characters)`;
}
