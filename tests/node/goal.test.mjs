// Goals through the JS API (lab.parseGoal(), queue.checkGoal()): canonical text,
// results on real queues, typed errors naming goal for every kind of bad input
// with the queue left exactly as it was, and no wasm heap growth over many checks.
// The language itself is tested natively (tests/native/goal_test.cpp).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, throwsWith } from './helpers.mjs';

const COMPARISON = 'a comparison (<, <=, =, !=, >=, >)';

/** Everything a check (or a refused one) must leave as it was. */
function state(q) {
  return JSON.stringify([q.ready(), q.delayed(), q.leased(), q.completed(), q.quarantined(), q.stats(), q.now(),
    q.alarm(), q.reorders(), q.timelineText(), q.snapshotText(), q.journal().length]);
}

/** The lesson's a/b example: a succeeds, b fails transiently until its budget of 3 is used up. */
function abExample() {
  const q = lab.createQueue({ maxAttempts: 3 });
  q.enqueue('a', 'A');
  q.enqueue('b', 'B');
  q.process('success');
  for (let i = 0; i < 3; i++) q.process('transient', 'db timeout');
  return q;
}

test('parseGoal() gives the canonical text: one space between tokens, "; " between clauses, quotes only where needed', () => {
  assert.equal(lab.parseGoal('quarantined b as exhausted;steps<=3'), 'quarantined b as exhausted; steps <= 3');
  assert.equal(lab.parseGoal('  not\tcompleted "b" ;\n order a,"acct 7",c '), 'not completed b; order a, "acct 7", c');
  assert.equal(lab.parseGoal('ready "say \\"hi\\""'), 'ready "say \\"hi\\""');
  assert.equal(lab.parseGoal('event alarm-raised; alarm; attempts "x;y" != 2'), 'event alarm-raised; alarm; attempts "x;y" != 2');
  assert.equal(lab.parseGoal('ready 🙂'), 'ready 🙂');
  // The canonical text is a fixed point.
  for (const text of ['in-flight  b', 'now>=1000;lost=0', 'quarantined "a b" class unknown-schema', 'order p ,q']) {
    const canonical = lab.parseGoal(text);
    assert.equal(lab.parseGoal(canonical), canonical);
  }
  assert.equal(lab.limits.goalBytes, 4096);
  assert.equal(lab.limits.goalClauses, 32);
});

test('checkGoal() on the a/b example: every clause with its canonical text, whether it is met and what is true', () => {
  const q = abExample();
  assert.deepEqual(q.checkGoal('quarantined b as exhausted;steps<=3'), {
    met: false,
    clauses: [
      { text: 'quarantined b as exhausted', met: true, actual: 'b is quarantined as exhausted (class transient) with 3 attempts' },
      { text: 'steps <= 3', met: false, actual: 'steps = 4' },
    ],
  });
  assert.deepEqual(q.checkGoal('completed a; quarantined b; attempts b = 3; event requeued b; not alarm'), {
    met: true,
    clauses: [
      { text: 'completed a', met: true, actual: 'a is completed with 1 attempt' },
      { text: 'quarantined b', met: true, actual: 'b is quarantined as exhausted (class transient) with 3 attempts' },
      { text: 'attempts b = 3', met: true, actual: 'b is quarantined as exhausted (class transient) with 3 attempts' },
      { text: 'event requeued b', met: true, actual: q.timeline().find((e) => e.kind === 'requeued' && e.id === 'b').text },
      { text: 'not alarm', met: true, actual: 'no alarm: the policy sets no alarm depth' },
    ],
  });
  // A job the queue was never given: unmet, with 'not' too (a typo must not read as met).
  assert.deepEqual(q.checkGoal('not ready zz').clauses, [{ text: 'not ready zz', met: false, actual: 'no job zz' }]);
  // The goal follows the queue: after a replay b is ready again with its attempts reset.
  assert.equal(q.replay('b'), true);
  assert.deepEqual(q.checkGoal('ready b; attempts b = 0; quarantined = 0'),
    { met: true, clauses: [
      { text: 'ready b', met: true, actual: 'b is ready with 0 attempts' },
      { text: 'attempts b = 0', met: true, actual: 'b is ready with 0 attempts' },
      { text: 'quarantined = 0', met: true, actual: 'quarantined = 0' },
    ] });
  q.dispose();
});

test('checkGoal() with time, leases, keys and the alarm', () => {
  const q = lab.createQueue({ maxAttempts: 3, backoff: { kind: 'fixed', baseMs: 100 }, leaseMs: 1000,
    quarantine: { alarmDepth: 1 } });
  q.enqueue('a', '', { key: 'acct-7' });
  q.enqueue('b', '', { key: 'acct-7' });
  q.enqueue('c', '');
  q.lease();                  // a in flight
  q.process('transient');     // b delayed until 100
  q.process('unknown-schema');  // c: quarantined with an alert, the alarm raised
  const check = q.checkGoal('in-flight a; delayed b; quarantined c class unknown-schema; alerts = 1; alarm; in-flight = 1');
  assert.equal(check.met, true, JSON.stringify(check));
  assert.equal(check.clauses[0].actual, 'a is in flight (lease-1, expires at 1000 ms) with 1 attempt');
  assert.equal(check.clauses[1].actual, 'b is delayed until 100 ms with 1 attempt');
  assert.equal(check.clauses[4].actual, 'alarm raised: 1 entry in quarantine, alarm depth 1');
  q.advance(100);
  assert.deepEqual(q.checkGoal('ready b; now >= 100').clauses.map((c) => [c.met, c.actual]),
    [[true, 'b is ready with 1 attempt'], [true, 'now = 100']]);
  q.dispose();
});

test('bad goals are typed errors naming goal; the queue is left exactly as it was', () => {
  const q = abExample();
  const before = state(q);
  for (const call of [(goal) => lab.parseGoal(goal), (goal) => q.checkGoal(goal)]) {
    throwsWith(assert, () => call(3), TypeError, 'invalid-type', /^goal must be a string, got 3$/);
    throwsWith(assert, () => call(undefined), TypeError, 'invalid-type', /^goal must be a string, got undefined$/);
    throwsWith(assert, () => call({ toString: () => 'alarm' }), TypeError, 'invalid-type',
      /^goal must be a string, got an object$/);
    throwsWith(assert, () => call('ready b\uD800'), TypeError, 'invalid-type',
      /^goal must be a well-formed string, but it has a lone surrogate at index 7$/);
    assert.throws(() => call('ready b; attempts b >> 3'), {
      name: 'RangeError', code: 'invalid-argument',
      message: `goal: clause 2 "attempts b >> 3": expected ${COMPARISON} after "attempts b", got ">>"`,
    });
    assert.throws(() => call(''), {
      name: 'RangeError', code: 'invalid-argument',
      message: 'goal: expected at least one clause, such as "completed b", got an empty text',
    });
    assert.throws(() => call('ready b;'), {
      name: 'RangeError', code: 'invalid-argument',
      message: "goal: clause 2 is empty: expected a clause after the last ';', got nothing",
    });
    assert.throws(() => call('quarantined b as gone'), {
      name: 'RangeError', code: 'invalid-argument',
      message: 'goal: clause 1 "quarantined b as gone": expected a quarantine reason (permanent, exhausted, stalled, max-length, expired) after ' +
        '"quarantined b as", got "gone"',
    });
    // Past the limits: measured in UTF-8 bytes before anything is copied, and clause by clause in the core.
    assert.throws(() => call(`alarm${' '.repeat(4092)}`), {
      name: 'RangeError', code: 'too-large', message: 'goal must be at most 4096 bytes, got 4097 bytes',
    });
    assert.throws(() => call(`ready ${'🙂'.repeat(1023)}`), {
      name: 'RangeError', code: 'too-large', message: 'goal must be at most 4096 bytes, got 4098 bytes',
    });
    assert.throws(() => call(Array(33).fill('alarm').join(';')), {
      name: 'RangeError', code: 'too-large', message: 'goal must be at most 32 clauses, got 33 clauses',
    });
  }
  // At the limits: accepted.
  assert.equal(q.checkGoal(Array(32).fill('alarm').join(';')).clauses.length, 32);
  assert.equal(lab.parseGoal(`not alarm${' '.repeat(4096 - 9)}`), 'not alarm');
  assert.equal(state(q), before);
  q.dispose();
  throwsWith(assert, () => q.checkGoal('alarm'), Error, 'disposed', /has been disposed/);
});

test('checkGoal() never changes the queue, met or not', () => {
  const q = abExample();
  const before = state(q);
  for (let i = 0; i < 5; i++) {
    q.checkGoal('quarantined b; ready a; order a, b; event completed a; alerts = 0; steps > 1; lost zz');
  }
  assert.equal(state(q), before);
  q.dispose();
});

test('2,000 checks (met, unmet and refused) leave the wasm heap where it was', () => {
  const q = abExample();
  const goals = ['quarantined b as exhausted; steps <= 3', 'completed a; order a, zz; event requeued b',
    'attempts b >= 3; not alarm; now = 0', 'ready "a b"; in-flight = 0'];
  const round = (i) => {
    q.checkGoal(goals[i % goals.length]);
    lab.parseGoal(goals[i % goals.length]);
    try { q.checkGoal('attempts b >> 3'); } catch { /* refused on purpose: a refusal must not leak either */ }
  };
  for (let i = 0; i < 100; i++) round(i);  // warm-up: first-use allocations
  const heap = lab.heapInUse();
  const memory = lab.memoryBytes();
  for (let i = 0; i < 2000; i++) round(i);
  assert.equal(lab.heapInUse(), heap, 'bytes allocated on the wasm heap');
  assert.equal(lab.memoryBytes(), memory, 'wasm linear memory size');
  q.dispose();
});
