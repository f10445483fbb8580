// docs/lessons.md's lesson table says how many exercises each lesson has: the numbers
// are read off the lesson pages here (every <dlq-exercise>, as the lesson map and
// the home page count them), so the docs cannot drift from the pages again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, root), 'utf8');
const DOC = 'docs/lessons.md';

/** The doc's lesson rows: [{ page, exercises }] from "| [Lesson n: …](../web/lesson-n.html) | … | <count> |". */
function lessonRows(text) {
  return [...text.matchAll(/^\| \[Lesson \d+:[^\]]*\]\(\.\.\/(web\/lesson-\d+\.html)\) \|.*\| (\d+) \|$/gm)]
    .map((m) => ({ page: m[1], exercises: Number(m[2]) }));
}

/** The exercises a lesson page has: its <dlq-exercise> elements. */
const exercisesOn = (html) => [...html.matchAll(/<dlq-exercise[\s>]/g)].length;

test(`${DOC}'s exercise count for each lesson is the number of exercises on its page`, () => {
  const text = read(DOC);
  const rows = lessonRows(text);
  const pages = [...new Set(text.match(/web\/lesson-\d+\.html/g))];
  assert.deepEqual(rows.map((r) => r.page), pages, `every lesson ${DOC} links has a row with a count`);
  assert.ok(rows.length >= 2);
  for (const { page, exercises } of rows) {
    assert.equal(exercises, exercisesOn(read(page)), `${DOC}: ${page} has ${exercises} exercises`);
  }
});
