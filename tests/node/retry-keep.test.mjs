// BullMQ's job.retry() without resetAttemptsMade through the JS API (the rule is the
// core's, tests/native/systems_test.cpp): replay(id, { resetAttempts: false }) keeps
// the attempts under system bullmq, so one more run, and a failure there is final.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadLab } from '../../wasm/index.mjs';

const lab = await loadLab();

test('under bullmq a retry without a reset keeps attemptsMade; a failure on that one run is final', () => {
  const q = lab.createQueue({ maxAttempts: 2, system: 'bullmq' });
  q.enqueue('a', 'x');
  q.process('transient');
  q.process('transient');
  assert.equal(q.locate('a').place, 'quarantine');
  assert.equal(q.replay('a', { resetAttempts: false }), true);
  assert.deepEqual([q.locate('a').place, q.locate('a').attempts], ['ready', 2]);
  q.process('transient');
  assert.deepEqual([q.locate('a').place, q.locate('a').attempts, q.locate('a').reason], ['quarantine', 3, 'exhausted']);
  const replayed = q.timeline().find((e) => e.kind === 'replayed');
  assert.match(replayed.explanation, /without a reset: attempts kept at 2/);
  assert.equal(q.replay('zz', { resetAttempts: false }), false);
  q.dispose();
});

test('outside bullmq it is refused by name and nothing changes; a bad option is a TypeError', () => {
  const q = lab.createQueue({ maxAttempts: 1 });
  q.enqueue('a', 'x');
  q.process('transient');
  const before = q.snapshot();
  assert.throws(() => q.replay('a', { resetAttempts: false }),
    { code: 'invalid-argument', message: /^replay: resetAttempts false expected only under system bullmq .*got it under system lab, where a replay always resets attempts$/ });
  assert.throws(() => q.replay('a', { resetAttempts: 'no' }), { name: 'TypeError', message: /resetAttempts/ });
  assert.equal(q.snapshot(), before);
  q.dispose();
});

test('a session records it as a replay with resetAttempts false, a v2 link writes y<id>, and the view offers it only under bullmq', () => {
  const s = lab.createSession({ maxAttempts: 1, system: 'bullmq', jobs: [{ id: 'a', payload: 'x' }], actions: [] });
  assert.equal(s.view().retryWithoutReset, true);
  s.act({ type: 'process', outcome: 'transient' });
  assert.equal(s.act({ type: 'replay', id: 'a', resetAttempts: false }).accepted, true);
  const link = s.view({ link: true }).link.text;
  assert.match(link, /;at,ya$/);
  assert.deepEqual(lab.parseScenario(link).actions[1], { type: 'replay', id: 'a', resetAttempts: false });
  s.dispose();
  const plain = lab.createSession({ maxAttempts: 1, jobs: [{ id: 'a', payload: 'x' }], actions: [] });
  assert.equal(plain.view().retryWithoutReset, undefined);
  plain.act({ type: 'process', outcome: 'transient' });
  assert.throws(() => plain.act({ type: 'replay', id: 'a', resetAttempts: false }), { message: /expected only under system bullmq/ });
  assert.equal(plain.view().quarantined.length, 1);
  plain.dispose();
});
