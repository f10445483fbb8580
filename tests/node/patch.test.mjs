// An operator's patch of a quarantined job's payload before its replay (issue 22): through the
// JS API (queue.patch), as a session action ({ type: 'patch' }, link letter f) and against the
// world's malformed behaviour, which fails a job undeserializable until it is patched.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, throwsWith } from './helpers.mjs';

test('queue.patch: the entry keeps id, attempts and reason, the event says the sizes, the journal recovers it', () => {
  const q = lab.createQueue({ maxAttempts: 1 });
  try {
    q.enqueue('a', '{"order":');
    q.process('permanent', 'cannot parse');
    const before = q.quarantined()[0];
    assert.equal(q.patch('a', '{"order":1}'), undefined);
    const after = q.quarantined()[0];
    assert.deepEqual({ ...after, payload: before.payload }, before, 'only the payload changed');
    assert.equal(after.payload, '{"order":1}');
    const patched = q.timeline().at(-1);
    assert.equal(patched.kind, 'patched');
    assert.equal(patched.oldPayloadBytes, 9);
    assert.equal(patched.payloadBytes, 11);
    assert.equal(q.timeline()[0].payloadBytes, 9, 'the enqueued event keeps the size it had');
    assert.ok(q.journal().some((r) => r.op === 'set-payload'));
    const recovered = lab.recover(null, q.journal().map((r) => r.record));
    try {
      assert.equal(recovered.queue.quarantined()[0].payload, '{"order":1}');
    } finally {
      recovered.queue.dispose();
    }
    assert.equal(q.replay('a'), true);
    assert.equal(q.ready()[0].payload, '{"order":1}');
  } finally {
    q.dispose();
  }
});

test('queue.patch: bad arguments and a job not in quarantine are refused by name, nothing changes', () => {
  const q = lab.createQueue({ maxAttempts: 1 });
  try {
    q.enqueue('a', 'x');
    q.enqueue('b', 'y');
    q.process('permanent');
    const before = q.snapshotText();
    throwsWith(assert, () => q.patch('zz', '{}'), Error, 'not-found', /patch: id "zz" names no job/);
    throwsWith(assert, () => q.patch('b', '{}'), Error, 'failed-precondition', /job "b" expected in quarantine/);
    throwsWith(assert, () => q.patch('a', 7), TypeError, 'invalid-type', /^payload must be a string/);
    throwsWith(assert, () => q.patch(undefined, '{}'), TypeError, 'invalid-type', /^id must be a string/);
    assert.equal(q.snapshotText(), before);
  } finally {
    q.dispose();
  }
});

test('a session patches as an action: in the link as f<id>:<payload>, undone by seek, refused by name', () => {
  const world = { behaviours: [{ id: 'b', kind: 'malformed' }] };
  const session = lab.createSession({ maxAttempts: 3, seed: 1, jobs: [{ id: 'a', payload: 'x' }, { id: 'b', payload: '{broken' }],
    actions: [], world });
  try {
    for (let n = 0; n < 50 && session.actWorld().accepted; n++);
    let view = session.view();
    assert.deepEqual(view.quarantined.map((e) => [e.id, e.reason, e.attempts, e.lastError]),
      [['b', 'permanent', 1, 'malformed payload: cannot be read until it is patched']]);
    // A replay without a fix fails again at once.
    session.act({ type: 'replay', id: 'b' });
    for (let n = 0; n < 50 && session.actWorld().accepted; n++);
    assert.equal(session.view().quarantined.length, 1);
    const cursor = session.view().cursor;
    view = session.act({ type: 'patch', id: 'b', payload: '{"fixed":true}' }).view;
    assert.equal(view.quarantined[0].payload, '{"fixed":true}');
    assert.equal(view.last.event.kind, 'patched');
    session.act({ type: 'replay', id: 'b' });
    for (let n = 0; n < 50 && session.actWorld().accepted; n++);
    view = session.view({ link: true });
    assert.deepEqual(view.completed.map((j) => j.id).sort(), ['a', 'b']);
    assert.match(view.link.text, /,fb:%7B%22fixed%22%3Atrue%7D,rb,/);
    // Time travel: before the patch, the entry has its old payload.
    assert.equal(session.seek(cursor).view.quarantined[0].payload, '{broken');
    // A patch of a job not in quarantine is not accepted (as a replay of one is not), and changes nothing.
    const before = session.snapshotText();
    assert.equal(session.act({ type: 'patch', id: 'a', payload: '{}' }).accepted, false);
    throwsWith(assert, () => session.act({ type: 'patch', id: 'b' }), TypeError, 'invalid-type', /^action\.payload must be a string, got undefined/);
    assert.equal(session.snapshotText(), before);
  } finally {
    session.dispose();
  }
});
