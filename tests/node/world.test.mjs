// The simulated world through the JS API: q.nextWorldAction(world), worlds in
// scenario objects and links, and refusals by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadLab } from 'dlq-lab';

const lab = await loadLab();

/** Applies a script action object to a queue, as the page does. */
function apply(q, a) {
  switch (a.type) {
    case 'lease': return q.lease();
    case 'settle': return q.settle(a.token, a.outcome, a.error);
    case 'advance': return q.advance(a.ms);
    case 'advanceToNext': return q.advanceToNext();
    default: throw new Error(`unexpected ${a.type}`);
  }
}

/** Plays `q` by `world` to the end; returns the actions taken. */
function play(q, world, limit = 10_000) {
  const actions = [];
  for (let a; (a = q.nextWorldAction(world)) !== null;) {
    assert.ok(actions.length < limit, 'the world stops');
    apply(q, a);
    actions.push(a);
  }
  return actions;
}

test('a world plays the lesson: poison quarantined, crash counted, the rest complete; the run replays as a script', () => {
  const policy = { maxAttempts: 3, leaseMs: 1000 };
  const jobs = ['a', 'b', 'c', 'd'].map((id) => ({ id, payload: `job ${id}` }));
  const world = { workers: 2, workMs: 100, behaviours: [
    { id: 'b', kind: 'poison', failure: 'undeserializable' }, { id: 'c', kind: 'crashes', count: 1 }] };
  const q = lab.createQueue(policy);
  for (const j of jobs) q.enqueue(j.id, j.payload);
  const actions = play(q, world);
  assert.deepEqual(q.completed().map((j) => j.id), ['a', 'd', 'c']);
  assert.equal(q.quarantined()[0].id, 'b');
  assert.equal(q.quarantined()[0].class, 'undeserializable');
  assert.equal(q.completed()[2].attempts, 2, "c's crashed attempt stays counted");
  assert.ok(q.timeline().some((e) => e.kind === 'expired' && e.id === 'c'));
  // The same run is an ordinary script: a link replays it exactly, world included.
  const link = lab.formatScenario({ ...policy, jobs, actions, world });
  assert.match(link, /;y2\.100;hb:pu,c:c1;/);
  const again = lab.runScenario(link);
  assert.equal(again.timelineText(), q.timelineText());
  assert.deepEqual(lab.parseScenario(link).world, { workers: 2, workMs: 100, outage: null, behaviours: [
    { id: 'b', kind: 'poison', failure: 'undeserializable', needsDependency: true },
    { id: 'c', kind: 'crashes', count: 1, needsDependency: true }] });
  again.dispose();
  q.dispose();
});

test('an outage outlasted by backoff completes everything; a shorter budget quarantines healthy jobs', () => {
  const world = { workers: 4, outage: { startMs: 0, endMs: 5000 } };
  for (const [maxAttempts, completed] of [[6, 4], [3, 0]]) {
    const q = lab.createQueue({ maxAttempts, backoff: { kind: 'exponential', baseMs: 500, capMs: 8000 } });
    for (const id of ['a', 'b', 'c', 'd']) q.enqueue(id, '');
    play(q, world);
    assert.equal(q.completed().length, completed, `maxAttempts ${maxAttempts}`);
    assert.equal(q.quarantined().length, 4 - completed);
    q.dispose();
  }
});

test('nextWorldAction changes nothing and is null when nothing will happen', () => {
  const q = lab.createQueue({ maxAttempts: 3 });
  assert.equal(q.nextWorldAction({}), null);
  q.enqueue('a', '');
  const before = q.snapshotText();
  assert.deepEqual(q.nextWorldAction({}), { type: 'lease' });
  assert.equal(q.snapshotText(), before);
  q.dispose();
});

test('bad worlds are refused by name, and nothing changes', () => {
  const q = lab.createQueue({ maxAttempts: 3 });
  q.enqueue('a', '');
  const before = q.snapshotText();
  const cases = [
    [{ workers: 0 }, 'out-of-range', 'world.workers must be an integer from 1 to 64, got 0'],
    [{ workers: '2' }, 'invalid-type', 'world.workers must be an integer from 1 to 64, got "2" (a string)'],
    [{ workMs: 0 }, 'out-of-range', 'world.workMs must be an integer from 1 to 86400000, got 0'],
    [{ outage: { startMs: 10, endMs: 5 } }, 'out-of-range',
      'world.outage.endMs must be an integer from world.outage.startMs (10) to 9007199254740991, got 5'],
    [{ outage: 3 }, 'invalid-type', /^world\.outage must be/],
    [{ behaviours: [{ id: 'a', kind: 'zombie' }] }, 'invalid-argument',
      'world.behaviours[0].kind must be one of "healthy", "poison", "flaky", "precondition", "crashes", "script", "malformed", got "zombie"'],
    [{ behaviours: [{ id: 'a', kind: 'flaky', count: -1 }] }, 'out-of-range',
      'world.behaviours[0].count must be an integer from 0 to 1000000, got -1'],
    [{ behaviours: [{ id: 'a', kind: 'flaky', count: '1' }] }, 'invalid-type', /^world\.behaviours\[0\]\.count must be an integer/],
    [{ behaviours: [{ id: 'a', kind: 'script', script: 'sx' }] }, 'invalid-argument', /^world\.behaviours\[0\]\.script\[1\] must be one of/],
    [{ behaviours: [{ id: 'a', kind: 'poison', failure: 'success' }] }, 'invalid-argument', /^world\.behaviours\[0\]\.failure must be a failing outcome/],
    [{ behaviours: [{ id: 'a', kind: 'healthy' }, { id: 'a', kind: 'flaky' }] }, 'already-exists', /^world\.behaviours\[1\]\.id "a"/],
    [null, 'invalid-type', /^world must be an object/],
  ];
  for (const [world, code, message] of cases) {
    assert.throws(() => q.nextWorldAction(world), (e) => {
      assert.equal(e.code, code, JSON.stringify(world));
      if (typeof message === 'string') assert.equal(e.message, message); else assert.match(e.message, message);
      return true;
    });
  }
  assert.throws(() => lab.formatScenario({ maxAttempts: 3, world: { workers: 99 } }),
    { code: 'out-of-range', message: 'world.workers must be an integer from 1 to 64, got 99' });
  assert.equal(q.snapshotText(), before);
  q.dispose();
});
