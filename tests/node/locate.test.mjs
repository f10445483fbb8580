// Queue.locate(id): one lookup by id (Queue::Locate in the core) gives each job's
// place and the fields its place's view shows, in every place; null for an id
// never given; bad ids are refused by name with nothing changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, throwsWith } from './helpers.mjs';

test('locate agrees with the views in every place', () => {
  const q = lab.createQueue({ maxAttempts: 2, ordering: 'key', leaseMs: 1000, seed: 3,
    backoff: { kind: 'fixed', baseMs: 500 }, quarantine: { retentionMs: 10_000 } });
  q.enqueueMany([
    { id: 'done', payload: '' }, { id: 'bad', payload: '', key: 'k' }, { id: 'waits', payload: '', key: 'k' },
    { id: 'later', payload: '' }, { id: 'held', payload: '' }, { id: 'free', payload: '' },
  ]);
  q.process('success');                 // done: completed
  q.process('permanent', 'no schema');  // bad: quarantined at once; waits is held by it
  q.process('transient');               // later (waits is held): delayed 500 ms
  const lease = q.lease();              // held: leased
  assert.equal(lease.id, 'held');

  assert.deepEqual(q.locate('done'), { place: 'completed', attempts: 1 });
  assert.deepEqual(q.locate('bad'), { place: 'quarantine', attempts: 1, reason: 'permanent', class: 'permanent', sourceQueue: 'orders' });
  assert.deepEqual(q.locate('waits'), { place: 'ready', attempts: 0, heldBy: 'bad' });
  assert.deepEqual(q.locate('free'), { place: 'ready', attempts: 0, heldBy: null });
  assert.deepEqual(q.locate('later'), { place: 'delayed', attempts: 1, dueAt: q.delayed()[0].dueAt });
  assert.deepEqual(q.locate('held'), { place: 'leased', attempts: 1, token: lease.token, expiresAt: lease.expiresAt });
  for (const job of q.ready()) assert.equal(q.locate(job.id).heldBy, job.heldBy);

  // Past the retention, the entry is dropped: in no view, but still known.
  q.advance(20_000);
  assert.equal(q.quarantined().some((e) => e.id === 'bad'), false);
  assert.deepEqual(q.locate('bad'), { place: 'dropped', attempts: 1 });

  assert.equal(q.locate('never-given'), null);
  assert.equal(q.locate('Done'), null, 'ids are matched exactly');
  q.dispose();
});

test('locate refuses a bad id by name and changes nothing', () => {
  const q = lab.createQueue({ maxAttempts: 3 });
  q.enqueue('a', '');
  const before = JSON.stringify([q.ready(), q.stats(), q.timelineText()]);
  throwsWith(assert, () => q.locate(7), TypeError, 'invalid-type', /^id must be a string, got 7$/);
  throwsWith(assert, () => q.locate(), TypeError, 'invalid-type', /^id must be a string, got undefined$/);
  throwsWith(assert, () => q.locate('a\uD800'), TypeError, 'invalid-type',
    /^id must be a well-formed string, but it has a lone surrogate at index 1$/);
  throwsWith(assert, () => q.locate('x'.repeat(1025)), RangeError, 'too-large', /^id must be at most 1024 bytes, got 1025 bytes$/);
  assert.equal(JSON.stringify([q.ready(), q.stats(), q.timelineText()]), before);
  assert.deepEqual(q.locate('a'), { place: 'ready', attempts: 0, heldBy: null });
  q.dispose();
  throwsWith(assert, () => q.locate('a'), Error, 'disposed', /^this queue has been disposed/);
});
