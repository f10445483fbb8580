// The lesson's rules through the public JS API (the WebAssembly build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab } from './helpers.mjs';

const ids = (jobs) => jobs.map((job) => job.id);

test('a/b example: a transient failure lets b run next', () => {
  const q = lab.createQueue({ maxAttempts: 3 });
  assert.equal(q.enqueue('a', 'A'), undefined);
  q.enqueue('b', 'B');
  assert.deepEqual(q.process('transient', 'db timeout'),
    { id: 'a', attempt: 1, outcome: 'transient', disposition: 'requeued' });
  assert.deepEqual(ids(q.ready()), ['b', 'a']);
  assert.deepEqual(q.process('success'), { id: 'b', attempt: 1, outcome: 'success', disposition: 'completed' });
  assert.deepEqual(q.ready(), [{ id: 'a', payload: 'A', attempts: 1, key: null, heldBy: null }]);
  assert.deepEqual(q.completed(), [{ id: 'b', payload: 'B', attempts: 1, key: null }]);
  q.dispose();
});

for (const budget of [1, 2, 3]) {
  test(`exact budget ${budget}: the transient failure on attempt ${budget} quarantines as exhausted`, () => {
    const q = lab.createQueue({ maxAttempts: budget });
    q.enqueue('j', 'payload');
    for (let n = 1; n < budget; n++) {
      assert.equal(q.process('transient').disposition, 'requeued');
    }
    assert.deepEqual(q.process('transient', 'still down'),
      { id: 'j', attempt: budget, outcome: 'transient', disposition: 'quarantined', reason: 'exhausted' });
    assert.deepEqual(q.quarantined(), [
      { id: 'j', payload: 'payload', attempts: budget, reason: 'exhausted', lastError: 'still down', step: budget,
        class: 'transient', alert: false, arrivedAt: 0, firstAttemptAt: 0, key: null, sourceQueue: 'orders' },
    ]);
    assert.deepEqual(q.ready(), []);
    q.dispose();
  });
}

test('permanent failure quarantines at once with budget left', () => {
  const q = lab.createQueue({ maxAttempts: 5 });
  q.enqueue('poison', '{not json');
  q.enqueue('good', '{}');
  assert.deepEqual(q.process('permanent', 'parse error'),
    { id: 'poison', attempt: 1, outcome: 'permanent', disposition: 'quarantined', reason: 'permanent' });
  assert.deepEqual(q.quarantined(), [
    { id: 'poison', payload: '{not json', attempts: 1, reason: 'permanent', lastError: 'parse error', step: 1,
      class: 'permanent', alert: false, arrivedAt: 0, firstAttemptAt: 0, key: null, sourceQueue: 'orders' },
  ]);
  assert.deepEqual(ids(q.ready()), ['good']);
  q.dispose();
});

test('an invalid outcome is refused on an empty and on a non-empty queue, and nothing moves', () => {
  const empty = lab.createQueue({ maxAttempts: 3 });
  assert.throws(() => empty.process('retry'), { name: 'RangeError', code: 'invalid-argument' });
  assert.equal(empty.stats().events, 0);
  empty.dispose();

  const q = lab.createQueue({ maxAttempts: 3 });
  q.enqueue('a', 'A');
  for (const bad of ['', 'Success', 'ok', 'transient ']) {
    assert.throws(() => q.process(bad), { name: 'RangeError', code: 'invalid-argument' });
  }
  for (const bad of [undefined, null, 1, true, {}, ['success']]) {
    assert.throws(() => q.process(bad), { name: 'TypeError', code: 'invalid-type' });
  }
  assert.deepEqual(q.ready(), [{ id: 'a', payload: 'A', attempts: 0, key: null, heldBy: null }]);
  assert.deepEqual(q.stats(), { step: 0, ready: 1, completed: 0, quarantined: 0, events: 1, maxAttempts: 3, now: 0,
    actions: 1, delayed: 0, leased: 0, reorders: 0, expired: 0, lost: 0 });
  q.dispose();
});

test('nothing ready answers null, not an error', () => {
  const q = lab.createQueue({ maxAttempts: 3 });
  assert.equal(q.process('success'), null);
  assert.equal(q.stats().step, 0);
  q.dispose();
});

test('replay resets attempts and appends at the tail; a second replay answers false', () => {
  const q = lab.createQueue({ maxAttempts: 2 });
  q.enqueue('x', 'X');
  q.enqueue('y', 'Y');
  q.process('transient');
  q.process('transient');
  q.process('transient');  // x exhausted
  assert.deepEqual(ids(q.quarantined()), ['x']);
  assert.equal(q.replay('x'), true);
  assert.deepEqual(q.ready(), [{ id: 'y', payload: 'Y', attempts: 1, key: null, heldBy: null },
    { id: 'x', payload: 'X', attempts: 0, key: null, heldBy: null }]);
  assert.equal(q.replay('x'), false);
  assert.equal(q.replay('y'), false);
  assert.equal(q.replay('never-given'), false);
  assert.deepEqual(q.quarantined(), []);
  q.dispose();
});

test('duplicate ids are refused whether ready, completed or quarantined', () => {
  const q = lab.createQueue({ maxAttempts: 1 });
  q.enqueue('done', '1');
  q.enqueue('dead', '2');
  q.enqueue('waiting', '3');
  q.process('success');
  q.process('transient');
  const before = q.stats();
  for (const id of ['done', 'dead', 'waiting']) {
    assert.throws(() => q.enqueue(id, 'x'), {
      name: 'Error', code: 'already-exists', message: `id "${id}" was already given to this queue; ids must be unique`,
    });
  }
  assert.deepEqual(q.stats(), before);
  q.dispose();
});

test('views are fresh copies: mutating them never changes the queue', () => {
  const q = lab.createQueue({ maxAttempts: 1 });
  q.enqueue('a', 'A');
  q.enqueue('b', 'B');
  q.enqueue('c', 'C');
  q.process('permanent', 'bad');
  q.process('success');
  const ready = q.ready();
  ready[0].id = 'changed';
  ready.push({ id: 'z', payload: '', attempts: 0 });
  q.completed()[0].payload = 'changed';
  const quarantined = q.quarantined();
  quarantined[0].reason = 'exhausted';
  quarantined[0].lastError = 'changed';
  quarantined.length = 0;
  q.timeline()[0].id = 'changed';
  assert.deepEqual(q.ready(), [{ id: 'c', payload: 'C', attempts: 0, key: null, heldBy: null }]);
  assert.deepEqual(q.completed(), [{ id: 'b', payload: 'B', attempts: 1, key: null }]);
  assert.deepEqual(q.quarantined(), [{ id: 'a', payload: 'A', attempts: 1, reason: 'permanent', lastError: 'bad', step: 1,
    class: 'permanent', alert: false, arrivedAt: 0, firstAttemptAt: 0, key: null, sourceQueue: 'orders' }]);
  assert.equal(q.timeline()[0].id, 'a');
  assert.notEqual(q.ready(), q.ready());
  q.dispose();
});

test('payloads are kept exactly: emoji, NUL, 1 MB', () => {
  const q = lab.createQueue({ maxAttempts: 1 });
  const emoji = 'order 🧾 for Zoë — ✓ 👩🏽‍💻';
  const nul = 'a\0b\0';
  let big = '';
  for (let i = 0; i < 1 << 20; i++) big += String.fromCharCode(32 + (i % 90));
  q.enqueue('emoji', emoji);
  q.enqueue('nul', nul);
  q.enqueue('big', big);
  q.enqueue('id\0with\0nul', 'x');
  assert.deepEqual(q.ready().map((j) => j.payload), [emoji, nul, big, 'x']);
  assert.equal(q.ready()[3].id, 'id\0with\0nul');
  q.process('success');
  q.process('permanent');
  q.process('transient');
  assert.equal(q.completed()[0].payload, emoji);
  assert.equal(q.quarantined()[0].payload, nul);
  assert.equal(q.quarantined()[1].payload.length, 1 << 20);
  assert.equal(q.quarantined()[1].payload, big);
  q.dispose();
});

test('enqueueMany is all or nothing, NUL in strings included', () => {
  const q = lab.createQueue({ maxAttempts: 3 });
  q.enqueue('a', '');
  assert.throws(() => q.enqueueMany([{ id: 'b', payload: '' }, { id: 'a', payload: '' }]),
    { code: 'already-exists', message: 'jobs[1].id "a" was already given to this queue; ids must be unique' });
  assert.throws(() => q.enqueueMany([{ id: 'b\0', payload: '' }, { id: 'b\0', payload: '' }]),
    { code: 'already-exists', message: /^jobs\[1\]\.id "b\\x00" appears twice in this batch/ });
  assert.throws(() => q.enqueueMany([{ id: 'b', payload: '' }, { id: 'c', payload: 3 }]),
    { name: 'TypeError', message: 'jobs[1].payload must be a string, got 3' });
  assert.deepEqual(ids(q.ready()), ['a']);
  q.enqueueMany([{ id: 'b', payload: 'B' }, { id: 'c\0', payload: 'C\0' }]);
  q.enqueueMany([{ id: 'd', payload: 'D' }, { id: 'e', payload: '' }]);
  q.enqueueMany([]);
  assert.deepEqual(q.ready().map((j) => [j.id, j.payload]),
    [['a', ''], ['b', 'B'], ['c\0', 'C\0'], ['d', 'D'], ['e', '']]);
  q.dispose();
});

test('processMany validates every letter first, then runs until nothing is ready', () => {
  const q = lab.createQueue({ maxAttempts: 2 });
  q.enqueueMany([{ id: 'a', payload: '' }, { id: 'b', payload: '' }]);
  assert.throws(() => q.processMany('tsx'), { name: 'RangeError', code: 'invalid-argument', message: /^outcomes\[2\]/ });
  assert.equal(q.stats().step, 0);
  assert.equal(q.processMany('tstsssss'), 3);
  assert.deepEqual(ids(q.completed()), ['b']);
  assert.deepEqual(ids(q.quarantined()), ['a']);
  q.dispose();
});

test('the core PRNG draws the same letters in WebAssembly as natively', () => {
  // Pinned in tests/native/text_test.cpp too.
  assert.equal(lab.randomOutcomes({ seed: 42, count: 48, successPercent: 70, transientPercent: 25 }),
    'stsstsssssstsssssstssssssttstsssttttstsssptsssss');
});

test('views read in slices, clamped; bad bounds are refused', () => {
  const q = lab.createQueue({ maxAttempts: 1 });
  q.enqueueMany(['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, payload: '' })));
  q.process('permanent');
  q.process('success');
  q.process('transient');
  assert.deepEqual(ids(q.ready(1, 1)), ['e']);
  assert.deepEqual(ids(q.ready(0, 99)), ['d', 'e']);
  assert.deepEqual(q.ready(2 ** 40), []);
  assert.deepEqual(ids(q.completed(0, 1)), ['b']);
  assert.deepEqual(ids(q.quarantined(1)), ['c']);
  assert.throws(() => q.ready(-1), { name: 'RangeError', code: 'out-of-range', message: 'from must be a non-negative integer, got -1' });
  assert.throws(() => q.quarantined(0, 1.5), { name: 'RangeError', message: 'count must be a non-negative integer, got 1.5' });
  assert.throws(() => q.completed('0'), { name: 'TypeError', code: 'invalid-type' });
  q.dispose();
});
