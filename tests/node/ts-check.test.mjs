// Every module of web/src is type-checked from its JSDoc: each starts with `// @ts-check`, and
// none opts out. `npm test` runs tsc over them (tests/types/tsconfig.web.json, scripts/dlq.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.join(import.meta.dirname, '..', '..');
const modules = readdirSync(path.join(root, 'web', 'src'), { recursive: true })
  .filter((name) => name.endsWith('.mjs'))
  .map((name) => path.join('web', 'src', name))
  .sort();

test('web/src has modules to check', () => {
  assert.ok(modules.length > 50, `found only ${modules.length}`);
});

test('every web/src module starts with // @ts-check', () => {
  const missing = modules.filter((file) => readFileSync(path.join(root, file), 'utf8').split('\n', 1)[0].trim() !== '// @ts-check');
  assert.deepEqual(missing, [], 'these do not start with // @ts-check');
});

test('no web/src module switches the check off (@ts-nocheck, @ts-ignore)', () => {
  const off = modules.filter((file) => /@ts-(nocheck|ignore)\b/.test(readFileSync(path.join(root, file), 'utf8')));
  assert.deepEqual(off, []);
});
