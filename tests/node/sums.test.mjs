// "Every total is its terms", through the JS API: queue.worstCase() over random
// policies under every system adds up to timeMs from its own terms, stalls
// included ((attempts + stalls) × leaseMs + each run of delays), and an exact
// retrySchedule()'s total is its rows. tests/native/sums_test.cpp checks
// thousands of policies natively; this checks that WebAssembly hands over the
// same terms. No browser here.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, rng } from './helpers.mjs';

const SYSTEMS = ['lab', 'rabbitmq-quorum', 'bullmq', 'sidekiq', 'sqs'];
const JITTERS = ['none', 'full', 'equal', 'decorrelated', 'bullmq'];

function randomBackoff(r) {
  const kind = ['none', 'fixed', 'exponential'][r(3)];
  const baseMs = 1 + r(5000);
  const capMs = baseMs + r(baseMs * 40);
  let jitter = kind === 'none' ? 'none' : JITTERS[r(5)];
  if (jitter === 'decorrelated' && kind !== 'exponential') jitter = 'full';
  return jitter === 'bullmq' ? { kind, baseMs, capMs, jitter, jitterPermille: 1 + r(1000) } : { kind, baseMs, capMs, jitter };
}

/** A policy object the core accepts under `system`: only that system's own settings move. */
function randomPolicy(r, system) {
  const policy = { system, maxAttempts: 1 + r(12), leaseMs: 1 + r(60000), backoff: randomBackoff(r),
    antiPatterns: { decideBeforeCount: r(6) === 0, countInBody: r(6) === 0 } };
  if (r(3) === 0) {
    policy.classes = { precondition: { retry: r(4) === 0 ? 'never' : 'bounded', maxAttempts: r(8), backoff: randomBackoff(r) },
      crash: { maxAttempts: r(8) } };
  }
  if (system === 'bullmq') policy.maxStalledCount = r(4);
  if (system === 'sidekiq') Object.assign(policy, { retryInJitter: r(2) === 0, retryEveryError: r(3) === 0 });
  return policy;
}

const termsOf = (w) => (w.attempts + w.stalls) * w.leaseMs
  + w.delays.reduce((sum, d) => sum + (d.lastAttempt - d.firstAttempt + 1) * d.delayMs, 0);

test('worstCase() is its terms under every system: (attempts + stalls) leases plus each run of delays', () => {
  const r = rng(20261203);
  for (const system of SYSTEMS) {
    let stalled = 0;
    for (let i = 0; i < 200; i++) {
      const policy = randomPolicy(r, system);
      const q = lab.createQueue(policy);
      const w = q.worstCase();
      q.dispose();
      assert.equal(termsOf(w), w.timeMs, `${system} ${JSON.stringify(policy)}`);
      assert.equal(w.stalls, system === 'bullmq' ? policy.maxStalledCount : 0);
      if (w.stalls > 0) stalled += 1;
    }
    if (system === 'bullmq') assert.ok(stalled > 100, 'most bullmq policies have a stall budget');
  }
});

test('the BullMQ import\'s card: 8 attempts of exponential 1 s, its stall included in the terms (6 min 37 s)', () => {
  const q = lab.createQueue({ system: 'bullmq', maxAttempts: 8, backoff: { kind: 'exponential', baseMs: 1000, capMs: 1000 } });
  const w = q.worstCase();
  q.dispose();
  assert.deepEqual([w.attempts, w.stalls, w.leaseMs, w.timeMs], [8, 1, 30000, 397000]);
  assert.equal(termsOf(w), 397000);
});

test('an exact retrySchedule() total is its rows: attempts × attemptMs plus every delay', () => {
  const r = rng(7);
  for (const system of SYSTEMS) {
    for (let i = 0; i < 40; i++) {
      const policy = randomPolicy(r, system);
      const leases = r(2) === 0;
      const t = lab.retrySchedule(policy, leases ? { leases, samples: 5 } : { workMs: r(500), samples: 5 });
      if (!t.exact) continue;
      let start = 0;
      for (const row of t.rows) {
        assert.equal(row.start.median, start);
        start += t.attemptMs + (row.delay === null ? 0 : row.delay.median);
      }
      assert.equal(t.total.median, start, `${system} ${JSON.stringify(policy)}`);
      if (leases) assert.equal(t.attemptMs, policy.leaseMs);
    }
  }
});
