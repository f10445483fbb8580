// Set-up edits as whole operations in the core (core/session/session.h: SetPolicy,
// AddJob with a behaviour, RemoveJob), through the JS API: one crossing each, the
// same result as the scenario round trip the page used to make (scenario() out,
// edited in JS, change() in), and a refusal that names the argument and changes
// nothing. The share link is its own call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab, throwsWith } from './helpers.mjs';

const WORLD = 'v2;m3;s1;y2.100;hb:f2,c:pp;ja:,b:,c:';

/** What a page can observe of a session. */
function observe(session) {
  const view = session.view();
  return { scenario: session.scenario(), timeline: session.timelineText(), stats: view.stats, cursor: view.cursor };
}

/** Calls into the core that `fn` makes. */
function crossings(fn) {
  const before = lab.crossings;
  fn();
  return lab.crossings - before;
}

test('setPolicy is one crossing and equals the round trip through change()', () => {
  const played = lab.playWorld(lab.parseScenario(WORLD));
  for (const replayWorld of [true, false]) {
    const edited = lab.createSession(played);
    const changed = lab.createSession(played);
    edited.seek(2);
    changed.seek(2);
    const edit = { maxAttempts: 2, backoff: { kind: 'fixed', baseMs: 500 } };
    assert.equal(crossings(() => edited.setPolicy(edit, { replayWorld })), 1);
    const { jobs, actions, cursor, world, ...policy } = changed.scenario();
    changed.change({ ...policy, jobs, actions, cursor, world, ...edit }, { replayWorld });
    assert.deepEqual(observe(edited), observe(changed));
    assert.equal(edited.scenario().maxAttempts, 2);
    assert.deepEqual(edited.scenario().backoff, changed.scenario().backoff);
    edited.dispose();
    changed.dispose();
  }
});

test('a refused policy edit names the field, what was expected and what was given, and changes nothing', () => {
  const session = lab.createSession('v1;m3;ja:,b:;at,s;c1');
  const before = observe(session);
  throwsWith(assert, () => session.setPolicy({ maxAttempts: 0 }), RangeError, 'out-of-range',
    /^maxAttempts must be an integer from 1 to 1000000, got 0$/);
  throwsWith(assert, () => session.setPolicy({ maxAttempts: '4' }), TypeError, 'invalid-type', /maxAttempts.*"4" \(a string\)/);
  throwsWith(assert, () => session.setPolicy({ backoff: { kind: 'sideways' } }), RangeError, 'invalid-argument',
    /backoff\.kind.*"sideways"/);
  throwsWith(assert, () => session.setPolicy(null), TypeError, 'invalid-type', /^policy must be an object such as .*, got null$/);
  assert.deepEqual(observe(session), before);
  session.dispose();
});

test('removeJob is one crossing: the set-up job or the script\'s enqueue, with its behaviour', () => {
  const session = lab.createSession('v2;m3;s1;y1.100;hb:f1,c:pp;ja:,b:;as,ec:later,s');
  session.seek(3);
  assert.equal(crossings(() => session.removeJob('c')), 1);
  const after = session.scenario();
  assert.equal(after.cursor, 2, 'the enqueue was before the cursor: it moves back one');
  assert.deepEqual(after.actions.map((a) => a.type), ['process', 'process']);
  assert.deepEqual(after.world.behaviours.map((b) => b.id), ['b']);
  session.seek(0);
  const view = session.removeJob('b');
  assert.deepEqual(session.scenario().jobs.map((j) => j.id), ['a']);
  assert.equal(session.scenario().world?.behaviours?.length ?? 0, 0);
  assert.deepEqual(view.ready.map((j) => j.id), ['a']);
  const before = observe(session);
  throwsWith(assert, () => session.removeJob('ghost'), Error, 'not-found',
    /^id: expected the id of a set-up job or of a job an enqueue action adds, got "ghost" \(no job of the scenario\)$/);
  throwsWith(assert, () => session.removeJob(7), TypeError, 'invalid-type', /^id must be a string, got 7$/);
  assert.deepEqual(observe(session), before);
  session.dispose();
});

test('addJob with a behaviour is one crossing: a set-up job at 0, else an enqueue at the cursor', () => {
  const session = lab.createSession('v2;m3;s1;y1.100;ja:;as');
  session.seek(0);
  assert.equal(crossings(() => session.addJob('b', 'p', { behaviour: { kind: 'flaky', count: 2 } })), 1);
  assert.deepEqual(session.scenario().jobs.map((j) => j.id), ['a', 'b']);
  assert.deepEqual(session.scenario().world.behaviours, [{ id: 'b', kind: 'flaky', count: 2, needsDependency: true }]);
  session.seek(1);
  session.addJob('c', '', { key: 'k', behaviour: { kind: 'poison', failure: 'permanent' } });
  const { actions, cursor, world } = session.scenario();
  assert.equal(cursor, 2);
  assert.deepEqual(actions[1], { type: 'enqueue', id: 'c', payload: '', key: 'k' });
  assert.deepEqual(world.behaviours.map((b) => b.id), ['b', 'c']);
  const before = observe(session);
  throwsWith(assert, () => session.addJob('d', '', { behaviour: { kind: 'wobbly' } }), RangeError, 'invalid-argument',
    /^options\.behaviour\.kind.*"wobbly"/);
  throwsWith(assert, () => session.addJob('d', '', { behaviour: 'flaky' }), TypeError, 'invalid-type',
    /^options\.behaviour must be an object such as/);
  assert.deepEqual(observe(session), before);
  session.dispose();
});

test('the link is its own call: no view is built, and the next view still says what changed', () => {
  const session = lab.createSession('v1;m3;ja:,b:;at,t,t;c0');
  session.act({ type: 'process', outcome: 'success' });  // drops the authored tail
  const withView = lab.createSession('v1;m3;ja:,b:;at,t,t;c0');
  withView.act({ type: 'process', outcome: 'success' });
  assert.equal(crossings(() => session.link()), 1);
  assert.deepEqual(session.link(), withView.view({ link: true }).link);
  assert.equal(session.link().text, lab.formatScenario(session.scenario()));
  session.dispose();
  withView.dispose();
});

test('the playground model makes a policy edit at 1,000 jobs in one crossing', async () => {
  const { Session } = await import('../../web/src/playground/model.mjs');
  const jobs = Array.from({ length: 1000 }, (_, i) => ({ id: `j${i}`, payload: 'x'.repeat(20) }));
  const model = new Session(lab, { maxAttempts: 3, jobs, actions: [], cursor: 0 });
  assert.equal(crossings(() => model.setPolicy({ backoff: { kind: 'fixed', baseMs: 250 } })), 1);
  assert.equal(model.view.policy.backoff.baseMs, 250);
  assert.equal(crossings(() => model.setMaxAttempts(5)), 1);
  assert.equal(model.view.policy.maxAttempts, 5);
  assert.equal(crossings(() => model.removeJob('j7')), 1);
  assert.equal(model.view.stats.ready, 999);
  model.dispose();
});

test('setWorld is one crossing and equals the round trip through change(); null removes the world', () => {
  const edited = lab.createSession(WORLD);
  const changed = lab.createSession(WORLD);
  const world = { ...edited.scenario().world, workers: 1 };
  assert.equal(crossings(() => edited.setWorld(world)), 1);
  changed.change({ ...changed.scenario(), world });
  assert.deepEqual(observe(edited), observe(changed));
  assert.equal(edited.scenario().world.workers, 1);
  edited.setWorld(null);
  assert.equal(edited.scenario().world, undefined);
  edited.dispose();
  changed.dispose();
});

test('a refused world names the field, what was expected and what was given, and changes nothing', () => {
  const session = lab.createSession(WORLD);
  const before = observe(session);
  throwsWith(assert, () => session.setWorld({ workers: 0 }), RangeError, 'out-of-range', /^world\.workers must be/);
  throwsWith(assert, () => session.setWorld('2 workers'), TypeError, 'invalid-type', /^world must be an object such as .*, got "2 workers"/);
  assert.throws(() => session.setWorld({ behaviours: [{ id: 'nobody', kind: 'poison', failure: 'undeserializable' }] }),
    /nobody/);
  assert.deepEqual(observe(session), before);
  session.dispose();
});
