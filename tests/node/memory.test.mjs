// Queues live in wasm memory: dispose() must give every byte back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab } from './helpers.mjs';

function cycle(i) {
  const q = lab.createQueue({ maxAttempts: 2 });
  q.enqueue(`a${i}`, 'payload'.repeat(10));
  q.enqueueMany([{ id: 'b', payload: 'x' }, { id: 'c', payload: 'y' }]);
  q.process('transient', `error ${i}`);
  q.process('permanent');
  q.process('transient');
  q.replay(`a${i}`);
  q.ready();
  q.quarantined();
  q.timeline();
  q.timelineText();
  try { q.enqueue('b', ''); } catch { /* refused on purpose: a refusal must not leak either */ }
  q.dispose();
  // The clock: delays, leases, settles, expiries and their views.
  const timed = lab.createQueue({ maxAttempts: 3, backoff: { kind: 'exponential', baseMs: 10, capMs: 100, jitter: 'full' }, leaseMs: 50, seed: i });
  timed.enqueueMany([{ id: 'a', payload: 'A' }, { id: 'b', payload: 'B' }]);
  const lease = timed.lease();
  timed.process('transient', `error ${i}`);
  timed.settle(lease.token, 'transient');
  try { timed.settle(lease.token, 'success'); } catch { /* stale on purpose */ }
  timed.lease();
  timed.advance(20);
  timed.advanceToNext();
  timed.delayed();
  timed.leased();
  timed.policy();
  timed.worstCase();
  timed.timeline();
  timed.dispose();
  // Keys, ordering and an operable quarantine: keyed batches (packed, and with NUL), holds, releases,
  // reorders, retention drops, the alarm, redrive and their views.
  const keyed = lab.createQueue({ maxAttempts: 2, ordering: i % 2 ? 'key' : 'none', quarantine: { retentionMs: 30, alarmDepth: 1 } });
  keyed.enqueue('a', 'A', { key: `acct-${i}` });
  keyed.enqueueMany([{ id: 'b', payload: 'B', key: `acct-${i}` }, { id: 'c', payload: 'C' }, { id: 'd', payload: 'D', key: 'k\0' }]);
  keyed.process('permanent', `error ${i}`);
  keyed.ready();
  keyed.releaseKey(`acct-${i}`);
  keyed.process('success');
  keyed.reorders();
  keyed.quarantined();
  keyed.completed();
  keyed.alarm();
  keyed.redrive({ max: 5 });
  keyed.process('transient');
  keyed.process('transient');
  keyed.process('permanent');
  keyed.advance(30);
  keyed.stats();
  keyed.timeline();
  keyed.policy();
  try { keyed.enqueueMany([{ id: 'e', payload: '', key: 'k' }, { id: 'a', payload: '', key: 'k' }]); } catch { /* refused on purpose */ }
  try { keyed.redrive({ max: 0 }); } catch { /* refused on purpose */ }
  keyed.dispose();
}

test('10,000 create/use/dispose cycles leave the heap and the memory size where they were', () => {
  for (let i = 0; i < 100; i++) cycle(i);  // warm-up: first-use allocations
  const heap = lab.heapInUse();
  const memory = lab.memoryBytes();
  for (let i = 0; i < 10_000; i++) cycle(i);
  assert.equal(lab.heapInUse(), heap, 'bytes allocated on the wasm heap');
  assert.equal(lab.memoryBytes(), memory, 'wasm linear memory size');
});

test('a scenario that fails to load frees its queue too', () => {
  lab.runScenario('v1;m3;ja:').dispose();
  const heap = lab.heapInUse();
  for (let i = 0; i < 1000; i++) {
    assert.throws(() => lab.runScenario('v1;m3;ja:;as,s'), { code: 'failed-precondition' });
    assert.throws(() => lab.createQueue({ maxAttempts: 0 }), { code: 'out-of-range' });
    assert.throws(() => lab.runScenario({ maxAttempts: 3, jobs: [{ id: 'a' }], actions: [{ type: 'lease' }, { type: 'settle', token: 'lease-2', outcome: 'success' }] }),
      { code: 'stale-lease' });
    assert.throws(() => lab.runScenario({ maxAttempts: 3, ordering: 'key', jobs: [{ id: 'a', key: 'k' }], actions: [{ type: 'releaseKey', key: 'k' }] }),
      { code: 'failed-precondition' });
  }
  assert.equal(lab.heapInUse(), heap);
});
