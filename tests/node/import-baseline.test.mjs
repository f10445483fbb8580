// The import's answers pinned: tests/node/data/import-baseline.jsonl holds, for every
// input the import tests gave importConfig plus several hundred generated ones (every
// format, valid and not, JSON and object-literal spellings, one-character mutations), the
// answer importConfig gave when its readers were JavaScript (web/src/playground/import.mjs
// before issue 32). The readers moved into the core (core/config/); each answer must
// stay the same, policy, notices and refusal messages alike.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lab } from './helpers.mjs';
import { connectImport, importConfig } from '../../web/src/playground/import.mjs';

connectImport(lab);

const cases = readFileSync(new URL('./data/import-baseline.jsonl', import.meta.url), 'utf8')
  .trim().split('\n').map((line) => JSON.parse(line));

test('importConfig gives the pinned answer for every recorded and generated input', () => {
  assert.ok(cases.length > 900);
  let differ = 0;
  for (const { text, opts, result } of cases) {
    const got = JSON.parse(JSON.stringify(importConfig(text, opts)));
    try {
      assert.deepStrictEqual(got, result);
    } catch (error) {
      differ++;
      if (differ <= 3) console.log(JSON.stringify(text).slice(0, 300), error.message.slice(0, 1500));
    }
  }
  assert.equal(differ, 0, `${differ} of ${cases.length} answers differ`);
});
