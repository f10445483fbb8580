// The byte budget (scripts/budgets.mjs, tests/budgets/sizes.json): each WebAssembly module and
// what each page fetches at start must not grow past the committed baseline by more than its
// margin. Bytes are deterministic for a toolchain, so this runs in `npm test`; the timing
// ratios are checked by `npm run bench:check`, never by a test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { compare, pageLoadSet, pageStartSet, sizeFigures, SIZES_FILE } from '../../scripts/budgets.mjs';

test('every size is within its budget (node scripts/budgets.mjs sizes --write records a deliberate change)', () => {
  const rows = compare(sizeFigures(), JSON.parse(readFileSync(SIZES_FILE, 'utf8')));
  const failed = rows.filter((r) => !r.ok).map((r) => `${r.name}: ${r.value} B, ${r.why}`);
  assert.deepEqual(failed, [], `over budget:\n${failed.join('\n')}`);
});

test('compare: worse by more than the margin fails, better or within it passes, a new or missing figure fails', () => {
  const baseline = { margin: 0.02, figures: { a: 100, b: 100, c: 100, 'Lighthouse mobile performance: x': 0.95 } };
  const rows = compare({ a: 102, b: 103, d: 1, 'Lighthouse mobile performance: x': 0.9 }, baseline);
  const verdict = Object.fromEntries(rows.map((r) => [r.name, r.ok]));
  assert.deepEqual(verdict, { a: true, b: false, d: false, c: false, 'Lighthouse mobile performance: x': false });
  assert.ok(compare({ 'Lighthouse mobile performance: x': 0.94 }, { margin: 0.02, figures: { 'Lighthouse mobile performance: x': 0.95 } })[0].ok,
    'a score is worse when lower, within the margin here');
});

test('pageLoadSet: module scripts, modulepreloads, preloads and stylesheets, each once, relative to the page', () => {
  const html = `<link rel="stylesheet" href="./src/page.css"><link rel="icon" href="./favicon.svg">
    <link rel="preload" href="./wasm/gen/dlq_core.wasm" as="fetch" crossorigin><link rel="modulepreload" href="./src/a.mjs">
    <script type="module" src="./src/a.mjs"></script><script src="https://example.com/x.js"></script>`;
  assert.deepEqual(pageLoadSet(html), ['src/page.css', 'wasm/gen/dlq_core.wasm', 'src/a.mjs']);
});

test('pageStartSet: what a page names, and the core\'s .wasm and its compiling worker when it imports the JS API at start', () => {
  const playground = '<link rel="modulepreload" href="./wasm/index.mjs"><script type="module" src="./src/main.mjs"></script>';
  assert.deepEqual(pageStartSet(playground), ['wasm/index.mjs', 'src/main.mjs', 'wasm/compile-worker.mjs', 'wasm/gen/dlq_core.wasm']);
  const lesson = '<script type="module" src="./src/lesson.mjs"></script>';
  assert.deepEqual(pageStartSet(lesson), ['src/lesson.mjs'], 'a page that imports the core later does not fetch it at start');
});
