// The snippets pinned: tests/node/data/snippet-baseline.jsonl.gz (the 6 MB JSON lines file,
// every line kept, stored as gzip -9) holds, for the policy of every lesson system, playground
// preset and fixture link plus several hundred generated ones, each system's snippet as the
// writers gave it when they were JavaScript (web/src/shared/snippets.mjs before issue 32;
// tests/node/data/make-snippet-baseline.mjs wrote it). The writers moved into the core
// (core/config/); every snippet must stay byte-identical.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { lab } from './helpers.mjs';
import { SNIPPETS, connectSnippets, policyInForce, snippetByKey } from '../../web/src/shared/snippets.mjs';

connectSnippets(lab);  // the core writes the snippets it has ported

const cases = gunzipSync(readFileSync(new URL('./data/snippet-baseline.jsonl.gz', import.meta.url))).toString('utf8')
  .trim().split('\n').map((line) => JSON.parse(line));

// kafka-connect's writer was born in C++ (issue 34) with no JavaScript writer to pin it against: its
// snippet is read back by the import instead (tests/node/kafka-connect.test.mjs, tests/native/kafka_connect_test.cpp).
const PINNED = SNIPPETS.filter((s) => s.key !== 'kafka-connect');

test('every system writes the pinned snippet for every recorded and generated policy', () => {
  assert.ok(cases.length > 300 * PINNED.length);
  assert.deepEqual([...new Set(cases.map((c) => c.key))], PINNED.map((s) => s.key));
  let differ = 0;
  for (const { from, key, options, language, text } of cases) {
    const q = lab.createQueue(options);
    try {
      const got = snippetByKey(key).generate(q.policy(), q.rules());
      assert.deepStrictEqual(got, { language, text });
    } catch (error) {
      differ++;
      if (differ <= 3) console.log(from, key, JSON.stringify(options), error.message.slice(0, 1500));
    } finally {
      q.dispose();
    }
  }
  assert.equal(differ, 0, `${differ} of ${cases.length} snippets differ`);
});

test('the core writes every listed system\'s snippet, and refuses a key it has no writer for by name', () => {
  const q = lab.createQueue({ maxAttempts: 3 });
  try {
    const n = policyInForce(q.policy(), q.rules());
    for (const { key } of SNIPPETS) assert.ok(lab.writeSnippet(key, n).text.length > 0, key);
    const keys = SNIPPETS.map((s) => s.key).join(', ');
    for (const key of ['lab', '', 'SQS']) {
      assert.throws(() => lab.writeSnippet(key, n), (error) => error instanceof RangeError && error.code === 'invalid-argument' &&
        error.message === `writeSnippet: key: expected one of ${keys}, got ${JSON.stringify(key)}`);
    }
    assert.throws(() => lab.writeSnippet('sqs', null), TypeError);
  } finally {
    q.dispose();
  }
});
