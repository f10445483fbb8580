// Every class of bad input: a thrown Error naming the argument, what was expected
// and what was given, and a queue left exactly as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, throwsWith } from './helpers.mjs';

const RANGE = /^maxAttempts must be an integer from 1 to 1000000, got /;

test('maxAttempts: out-of-range and non-integer numbers are RangeErrors', () => {
  for (const [value, shown] of [[0, '0'], [-1, '-1'], [2.5, '2.5'], [NaN, 'NaN'], [Infinity, 'Infinity'],
    [-Infinity, '-Infinity'], [1000001, '1000001'], [2 ** 53, '9007199254740992']]) {
    throwsWith(assert, () => lab.createQueue({ maxAttempts: value }), RangeError, 'out-of-range',
      new RegExp(`${RANGE.source}${shown}$`));
  }
});

test('maxAttempts: values of the wrong type are TypeErrors', () => {
  for (const [value, shown] of [['3', '"3" (a string)'], [true, 'true (a boolean)'], [null, 'null'],
    [undefined, 'undefined'], [3n, '3n (a bigint)'], [[3], 'an array'], [{}, 'an object']]) {
    throwsWith(assert, () => lab.createQueue({ maxAttempts: value }), TypeError, 'invalid-type',
      new RegExp(`${RANGE.source}${shown.replace(/[()[\]]/g, '\\$&')}$`));
  }
  throwsWith(assert, () => lab.createQueue({}), TypeError, 'invalid-type', /got undefined$/);
});

test('options that are not an object are TypeErrors', () => {
  for (const [value, shown] of [[undefined, 'undefined'], [null, 'null'], [3, '3'], ['x', '"x" (a string)'],
    [[], 'an array']]) {
    assert.throws(() => lab.createQueue(value), {
      name: 'TypeError', message: `options must be an object such as { maxAttempts: 3 }, got ${shown}`,
    });
  }
});

test('ids and payloads: wrong types, empty ids and lone surrogates are refused, nothing changes', () => {
  const q = lab.createQueue({ maxAttempts: 3 });
  q.enqueue('a', 'A');
  const snapshot = () => JSON.stringify([q.ready(), q.stats(), q.timelineText()]);
  const before = snapshot();
  throwsWith(assert, () => q.enqueue(1, 'x'), TypeError, 'invalid-type', /^id must be a string, got 1$/);
  throwsWith(assert, () => q.enqueue(undefined, 'x'), TypeError, 'invalid-type', /^id must be a string, got undefined$/);
  throwsWith(assert, () => q.enqueue('b'), TypeError, 'invalid-type', /^payload must be a string, got undefined$/);
  throwsWith(assert, () => q.enqueue('b', { toString: () => 'x' }), TypeError, 'invalid-type',
    /^payload must be a string, got an object$/);
  throwsWith(assert, () => q.enqueue('', 'x'), RangeError, 'invalid-argument', /^id must be a non-empty string, got ""$/);
  throwsWith(assert, () => q.enqueue('b\uD800', 'x'), TypeError, 'invalid-type',
    /^id must be a well-formed string, but it has a lone surrogate at index 1$/);
  throwsWith(assert, () => q.enqueue('b', 'x\uDC00y'), TypeError, 'invalid-type',
    /^payload must be a well-formed string, but it has a lone surrogate at index 1$/);
  throwsWith(assert, () => q.process('success', 7), TypeError, 'invalid-type', /^errorText must be a string, got 7$/);
  throwsWith(assert, () => q.replay(7), TypeError, 'invalid-type', /^id must be a string, got 7$/);
  throwsWith(assert, () => q.enqueueMany('ab'), TypeError, 'invalid-type', /^jobs must be an array/);
  throwsWith(assert, () => q.timeline(-1), RangeError, 'out-of-range', /^from must be a non-negative integer, got -1$/);
  throwsWith(assert, () => q.timeline('0'), TypeError, 'invalid-type', /^from must be a non-negative integer, got "0" \(a string\)$/);
  throwsWith(assert, () => q.process('succ\uD800'), TypeError, 'invalid-type',
    /^outcome must be a well-formed string, but it has a lone surrogate at index 4$/);
  assert.equal(snapshot(), before);
  // A well-formed surrogate pair is an ordinary character.
  q.enqueue('pair 😀', '😀');
  assert.equal(q.ready()[1].id, 'pair 😀');
  q.dispose();
});

test('outcomes outside the six strings are refused even when nothing is ready', () => {
  const q = lab.createQueue({ maxAttempts: 3 });
  throwsWith(assert, () => q.process('retry'), RangeError, 'invalid-argument',
    /^outcome must be one of "success", "transient", "permanent", "undeserializable", "unknown-schema", "precondition", got "retry"$/);
  throwsWith(assert, () => q.process(0), TypeError, 'invalid-type',
    /^outcome must be one of 'success', 'transient', 'permanent', 'undeserializable', 'unknown-schema' or 'precondition', got 0$/);
  assert.equal(q.stats().events, 0);
  q.dispose();
});

test('a disposed queue refuses every call with a clear Error', () => {
  const q = lab.createQueue({ maxAttempts: 3 });
  q.enqueue('a', '');
  q.dispose();
  assert.equal(q.disposed, true);
  const calls = [
    () => q.enqueue('b', ''), () => q.enqueueMany([]), () => q.process('success'), () => q.processMany('s'),
    () => q.replay('a'), () => q.ready(), () => q.completed(), () => q.quarantined(), () => q.stats(),
    () => q.timeline(), () => q.timelineText(), () => q.dispose(),
  ];
  for (const call of calls) {
    throwsWith(assert, call, Error, 'disposed', /^this queue has been disposed; create a new one with lab\.createQueue\(\)$/);
  }
});

test('scenario objects of the wrong shape are TypeErrors naming the field', () => {
  throwsWith(assert, () => lab.formatScenario(null), TypeError, 'invalid-type', /^scenario must be an object/);
  throwsWith(assert, () => lab.formatScenario({ maxAttempts: '3' }), TypeError, 'invalid-type',
    /^scenario\.maxAttempts must be an integer from 1 to 1000000, got "3" \(a string\)$/);
  throwsWith(assert, () => lab.formatScenario({ maxAttempts: 0 }), RangeError, 'out-of-range',
    /^maxAttempts must be an integer from 1 to 1000000, got 0$/);
  throwsWith(assert, () => lab.formatScenario({ maxAttempts: 3, jobs: [{ id: 1 }] }), TypeError, 'invalid-type',
    /^scenario\.jobs\[0\]\.id must be a string, got 1$/);
  throwsWith(assert, () => lab.formatScenario({ maxAttempts: 3, actions: [{ type: 'retry' }] }), TypeError,
    'invalid-type', /^scenario\.actions\[0\]\.type must be 'process', 'replay', 'enqueue', 'lease', 'settle', 'advance', 'advanceToNext', 'releaseKey', 'redrive', 'patch' or 'crash', got "retry"/);
  throwsWith(assert, () => lab.formatScenario({ maxAttempts: 3, actions: [{ type: 'process', outcome: 'maybe' }] }),
    RangeError, 'invalid-argument', /^scenario\.actions\[0\]\.outcome must be one of "success", "transient", "permanent", "undeserializable", "unknown-schema", "precondition", got "maybe"$/);
  throwsWith(assert, () => lab.formatScenario({ maxAttempts: 3, actions: [], cursor: 1.5 }), RangeError, 'out-of-range',
    /^scenario\.cursor must be a non-negative integer, got 1\.5$/);
  // A cursor past 2^32 must not wrap around in the 32-bit wasm build.
  const one = { maxAttempts: 3, jobs: [{ id: 'a' }], actions: [{ type: 'process', outcome: 'success' }] };
  for (const cursor of [2 ** 32, 2 ** 32 + 1, 2 ** 53 - 1]) {
    throwsWith(assert, () => lab.formatScenario({ ...one, cursor }), RangeError, 'out-of-range',
      new RegExp(`^the cursor must be from 0 to 1 \\(the number of actions\\), got ${cursor}$`));
    throwsWith(assert, () => lab.runScenario({ ...one, cursor }), RangeError, 'out-of-range', /cursor must be from 0 to 1/);
  }
  // Holes in sparse arrays are caught, not skipped.
  // eslint-disable-next-line no-sparse-arrays
  throwsWith(assert, () => lab.runScenario({ maxAttempts: 3, jobs: [, { id: 'a' }] }), TypeError, 'invalid-type',
    /^scenario\.jobs\[0\] must be an object such as .*, got undefined$/);
  // eslint-disable-next-line no-sparse-arrays
  throwsWith(assert, () => lab.formatScenario({ maxAttempts: 3, actions: [, { type: 'process', outcome: 's' }] }),
    TypeError, 'invalid-type', /^scenario\.actions\[0\] must be an object/);
  // Every link formatScenario gives loads: a scenario the queue refuses is refused here too.
  throwsWith(assert, () => lab.formatScenario({ maxAttempts: 3, jobs: [{ id: '' }] }), RangeError, 'invalid-argument',
    /^scenario job 1: id must be a non-empty string, got ""$/);
  throwsWith(assert, () => lab.formatScenario({ maxAttempts: 3, actions: [], cursor: 1 }), RangeError, 'out-of-range',
    /cursor must be from 0 to 0/);
  throwsWith(assert, () => lab.parseScenario(42), TypeError, 'invalid-type', /^text must be a string, got 42$/);
});

test('randomOutcomes checks its numbers', () => {
  throwsWith(assert, () => lab.randomOutcomes({ seed: -1, count: 1, successPercent: 1, transientPercent: 1 }),
    RangeError, 'out-of-range', /^seed must be a non-negative integer, got -1$/);
  throwsWith(assert, () => lab.randomOutcomes({ seed: 1, count: 1, successPercent: 80, transientPercent: 30 }),
    RangeError, 'out-of-range', /^successPercent \+ transientPercent must be at most 100, got 80 \+ 30$/);
  throwsWith(assert, () => lab.randomOutcomes({ seed: 1, count: 1, successPercent: 2 ** 40, transientPercent: 0 }),
    RangeError, 'out-of-range', /must be at most 100/);
  for (const count of [2 ** 32, 3e9]) {
    throwsWith(assert, () => lab.randomOutcomes({ seed: 1, count, successPercent: 70, transientPercent: 25 }),
      RangeError, 'out-of-range', /^count must be at most 4194304, got \d+$/);
  }
  throwsWith(assert, () => lab.randomOutcomes(), TypeError, 'invalid-type', /^options must be an object/);
  throwsWith(assert, () => lab.randomOutcomes({ seed: 1 }), TypeError, 'invalid-type', /^count must be a non-negative integer, got undefined$/);
});

test('link text with a lone surrogate is refused before it reaches the core', () => {
  throwsWith(assert, () => lab.parseScenario('v1;m3;ja\uD800:'), TypeError, 'invalid-type',
    /^text must be a well-formed string, but it has a lone surrogate at index 8$/);
  throwsWith(assert, () => lab.runScenario('v1;m3;ja\uD800:'), TypeError, 'invalid-type', /^scenario must be a well-formed string/);
});

test('a non-ASCII character in a link is named whole, at its character position', () => {
  throwsWith(assert, () => lab.parseScenario('v1;m3;jé:'), RangeError, 'invalid-argument',
    /^scenario link is malformed at character 8: expected job 1 id characters .*, got "é"$/);
});

test('strings past the core limits are refused before they reach wasm, with the core message', () => {
  const { idBytes, payloadBytes, errorTextBytes } = lab.limits;
  assert.deepEqual([idBytes, payloadBytes, errorTextBytes], [1024, 16 * 1024 * 1024, 64 * 1024]);
  const q = lab.createQueue({ maxAttempts: 3 });
  const before = lab.heapInUse();
  throwsWith(assert, () => q.enqueue('i'.repeat(1025), ''), RangeError, 'too-large', /^id must be at most 1024 bytes, got 1025 bytes$/);
  // 600 two-byte characters: short enough in UTF-16 to pass the JS guard, over the limit in UTF-8: the core refuses.
  throwsWith(assert, () => q.enqueue('é'.repeat(600), ''), RangeError, 'too-large', /^id must be at most 1024 bytes, got 1200 bytes$/);
  // 200 MB: refused in JS, never copied into wasm memory (that copy could abort the module).
  const huge = 'x'.repeat(200 * 1024 * 1024);
  throwsWith(assert, () => q.enqueue('a', huge), RangeError, 'too-large', /^payload must be at most 16777216 bytes, got at least 209715200 bytes$/);
  throwsWith(assert, () => q.enqueueMany([{ id: 'a', payload: '' }, { id: 'b', payload: huge }]), RangeError, 'too-large',
    /^jobs\[1\]\.payload must be at most/);
  throwsWith(assert, () => lab.runScenario({ maxAttempts: 3, jobs: [{ id: 'a', payload: huge }] }), RangeError, 'too-large',
    /^scenario\.jobs\[0\]\.payload must be at most/);
  q.enqueue('a', '');
  throwsWith(assert, () => q.process('transient', 'e'.repeat(65537)), RangeError, 'too-large',
    /^errorText must be at most 65536 bytes, got 65537 bytes$/);
  assert.deepEqual(q.stats(), { step: 0, ready: 1, completed: 0, quarantined: 0, events: 1, maxAttempts: 3, now: 0,
    actions: 1, delayed: 0, leased: 0, reorders: 0, expired: 0, lost: 0 });
  q.enqueue('edge', 'p'.repeat(payloadBytes));  // exactly at the limit is fine
  assert.equal(q.ready()[1].payload.length, payloadBytes);
  q.dispose();
  assert.ok(lab.heapInUse() <= before + 4096, 'the refused strings left nothing behind');
});
