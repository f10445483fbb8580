// The retry schedule through the JS API (lab.retrySchedule(), core/systems/schedule.h):
// the native build's numbers, pinned alike in tests/native/schedule_test.cpp (a
// seeded decorrelated table, and exact tables without jitter), the defaults and
// the table's shape, the row cap, and refusals that name the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, throwsWith } from './helpers.mjs';

const one = (v) => ({ min: v, median: v, p99: v, max: v });

test('retrySchedule() gives the native build\'s numbers (decorrelated jitter, seed 1, 200 samples)', () => {
  const policy = { maxAttempts: 5, backoff: { kind: 'exponential', baseMs: 200, capMs: 4000, jitter: 'decorrelated' } };
  const t = lab.retrySchedule(policy, { samples: 200, outageMs: 1500 });
  assert.equal(t.exact, false);
  assert.equal(t.samples, 200);
  assert.deepEqual(t.rows[1].delay, { min: 212, median: 632, p99: 1647, max: 1714 });
  assert.deepEqual(t.rows[4].start, { min: 1096, median: 3349, p99: 9090, max: 10285 });
  assert.equal(t.rows[4].delay, null, 'no delay after the last attempt');
  assert.deepEqual(t.outage, { ms: 1500, outlasting: 191, probability: 191 / 200 });
  assert.deepEqual(lab.retrySchedule(policy, { samples: 200, outageMs: 1500 }), t, 'deterministic');
  assert.notDeepEqual(lab.retrySchedule({ ...policy, seed: 8 }, { samples: 200, outageMs: 1500 }).rows[4], t.rows[4]);
});

test('without jitter the schedule is exact: attempt → delay → cumulative time by the formula', () => {
  const t = lab.retrySchedule({ maxAttempts: 6, backoff: { kind: 'exponential', baseMs: 100, capMs: 1000 } }, { outageMs: 2500 });
  assert.equal(t.exact, true);
  assert.equal(t.samples, 1);
  assert.equal(t.attempts, 6);
  assert.deepEqual(t.rows.map((r) => r.delay?.median ?? null), [100, 200, 400, 800, 1000, null]);
  assert.deepEqual(t.rows.map((r) => r.start), [0, 100, 300, 700, 1500, 2500].map(one));
  assert.deepEqual(t.total, one(2500));
  assert.deepEqual(t.outage, { ms: 2500, outlasting: 1, probability: 1 });
  // Lesson 2's outage playground: 3 attempts from 250 ms, 100 ms each, against its 3 s outage.
  const lesson = lab.retrySchedule({ maxAttempts: 3, backoff: { kind: 'exponential', baseMs: 250, capMs: 4000 } },
    { outageMs: 3000, workMs: 100 });
  assert.deepEqual(lesson.rows.map((r) => r.start.median), [0, 350, 950]);
  assert.equal(lesson.outage.probability, 0);
  const fixed = lab.retrySchedule({ maxAttempts: 3, backoff: { kind: 'exponential', baseMs: 1000, capMs: 4000 } },
    { outageMs: 3000, workMs: 100 });
  assert.deepEqual(fixed.total, one(3300));
  assert.equal(fixed.outage.probability, 1);
});

test('defaults: 1,000 samples, no outage, attempts take no time; rows stop at 50 and the last attempt has its own', () => {
  const policy = { maxAttempts: 3, backoff: { kind: 'fixed', baseMs: 1000, capMs: 1000, jitter: 'full' } };
  assert.deepEqual(lab.retrySchedule(policy), lab.retrySchedule(policy, { samples: 1000, outageMs: 0, workMs: 0 }));
  assert.equal(lab.retrySchedule(policy).outage.probability, 1, 'an outage of 0 is always outlasted');
  assert.deepEqual(lab.schema.schedule.map((f) => [f.name, f.default, f.min, f.max]),
    [['samples', 1000, 1, 10000], ['outageMs', 0, 0, 2 ** 53 - 1], ['workMs', 0, 0, 86_400_000],
      ['leases', false, undefined, undefined]]);
  const long = lab.retrySchedule({ maxAttempts: 120, backoff: { kind: 'fixed', baseMs: 10, capMs: 10 } });
  assert.equal(long.rows.length, 50);
  assert.equal(long.last.attempt, 120);
  assert.deepEqual(long.last.start, one(1190));
});

test('bad input is refused by name, and the policy as createQueue() reads it', () => {
  const policy = { maxAttempts: 3 };
  throwsWith(assert, () => lab.retrySchedule(policy, { samples: 0 }), RangeError, 'out-of-range',
    /^samples must be an integer from 1 to 10000, got 0$/);
  throwsWith(assert, () => lab.retrySchedule(policy, { outageMs: 1.5 }), RangeError, 'out-of-range', /^outageMs must be an integer/);
  throwsWith(assert, () => lab.retrySchedule(policy, { workMs: '100' }), TypeError, 'invalid-type',
    /^workMs must be an integer from 0 to 86400000, got "100" \(a string\)$/);
  throwsWith(assert, () => lab.retrySchedule(policy, null), TypeError, 'invalid-type', /^options must be an object/);
  throwsWith(assert, () => lab.retrySchedule(null), TypeError, 'invalid-type', /^policy must be an object/);
  throwsWith(assert, () => lab.retrySchedule({ maxAttempts: 0 }), RangeError, 'out-of-range', /^maxAttempts must be an integer from 1 to 1000000, got 0$/);
  throwsWith(assert, () => lab.retrySchedule({ maxAttempts: 3, backoff: { kind: 'fixed', jitter: 'sometimes' } }), RangeError,
    'invalid-argument', /backoff\.jitter must be one of/);
  // A session's policy (view.policy) is read the same way: the playground's card asks with it.
  const session = lab.createSession('v2;m5;bx100.400n;s1;ja:sync');
  const { policy: inForce } = session.view();
  assert.deepEqual(lab.retrySchedule(inForce).rows.map((r) => r.delay?.median ?? null), [100, 200, 400, 400, null]);
  session.dispose();
});

test('leases: each attempt holds its lease to its expiry, and workMs never runs past the lease', () => {
  // Lesson 2's lease level: 2 attempts of 1 s leases, no backoff; its run quarantines a at 2,000 ms.
  const policy = { maxAttempts: 2, leaseMs: 1000 };
  const leased = lab.retrySchedule(policy, { leases: true });
  assert.equal(leased.attemptMs, 1000);
  assert.deepEqual(leased.rows.map((r) => r.start.median), [0, 1000]);
  assert.equal(leased.total.median, 2000);
  assert.equal(lab.retrySchedule(policy).total.median, 0, 'without leases an attempt takes workMs, 0 by default');
  assert.equal(lab.retrySchedule(policy, { workMs: 5000 }).attemptMs, 1000, 'the lease expires first');
  throwsWith(assert, () => lab.retrySchedule(policy, { leases: 'yes' }), TypeError, 'invalid-type',
    /^leases must be a boolean, got "yes" \(a string\)$/);
});
