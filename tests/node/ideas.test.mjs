// The ideas a learner tries by doing (issue 22), through the JS API: the
// side-effect ledger in a session's view, the anti-pattern switches as policy
// fields (taken, carried by links, refused by name), a report the core refuses,
// and views that are copies. No browser here.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, throwsWith } from './helpers.mjs';

function session(scenario) {
  return lab.createSession(scenario);
}

test('the ledger: a crash and a replay charge again; with the key, one charge per job', () => {
  const script = ';ja:,b:;al,w30000,p,s,rb,s';
  const plain = session(`v2;m3;s1;tc${script}`);
  const v = plain.view();
  assert.equal(v.ledger.on, true);
  assert.equal(v.ledger.applied, 4);
  assert.equal(v.ledger.duplicates, 2);
  assert.deepEqual(v.ledger.duplicateIds, ['a', 'b']);
  assert.equal(v.ledger.charges[0].crashed, true);
  assert.equal(plain.checkGoal('duplicates = 2; partial = 0').met, true);
  plain.dispose();

  const keyed = session(`v2;m3;s1;tck${script}`);
  const k = keyed.view().ledger;
  assert.equal(k.keyed, true);
  assert.equal(k.applied, 2);
  assert.equal(k.deduplicated, 2);
  assert.deepEqual(k.charges.map((c) => c.applied), [true, true, false, false]);
  keyed.dispose();
});

test('the ledger: a dead job that was charged is partial; off, the ledger is empty', () => {
  const s = session('v2;m3;s1;tc;ja:;at,t,t');
  const { ledger } = s.view();
  assert.deepEqual([ledger.applied, ledger.partial, ledger.partialIds], [3, 1, ['a']]);
  s.dispose();
  const off = session('v1;m3;ja:;at,t,t');
  assert.deepEqual(off.view().ledger.charges, []);
  assert.equal(off.view().ledger.on, false);
  off.dispose();
});

test('the switches are policy fields: taken, defaulted, carried by links, refused by name', () => {
  const q = lab.createQueue({ maxAttempts: 3, antiPatterns: { decideBeforeCount: true } });
  q.enqueue('a', '');
  for (let i = 0; i < 4; i++) q.process('transient', 'boom');
  assert.equal(q.quarantined()[0].attempts, 4, 'a fourth attempt');
  assert.deepEqual(q.policy().effects, { charge: false, idempotencyKey: false });
  assert.deepEqual(q.policy().antiPatterns, { countInBody: false, decideBeforeCount: true, dlqToSource: false });
  q.dispose();
  const scenario = lab.parseScenario('v2;m3;s1;tckbdl;ja:');
  assert.deepEqual(scenario.antiPatterns, { countInBody: true, decideBeforeCount: true, dlqToSource: true });
  assert.equal(lab.formatScenario(scenario), 'v2;m3;s1;tckbdl;ja:');
  assert.equal(lab.formatScenario(lab.parseScenario('v1;m3;ja:;at')), 'v1;m3;ja:;at');
  throwsWith(assert, () => lab.createQueue({ maxAttempts: 3, effects: { charge: 'yes' } }), TypeError, 'invalid-type',
    /^effects\.charge must be a boolean, got "yes"/);
  throwsWith(assert, () => lab.createQueue({ maxAttempts: 3, antiPatterns: 7 }), TypeError, 'invalid-type', /^antiPatterns must be/);
  throwsWith(assert, () => lab.parseScenario('v2;m3;s1;t;ja:'), RangeError, 'invalid-argument', /teaching switch/);
});

test('dead letters routed to the source: the poison job is back in Ready with 0 attempts', () => {
  const s = session('v2;m3;s1;tl;ja:,b:;ap,s,p');
  const v = s.view();
  assert.deepEqual(v.quarantined, []);
  assert.deepEqual(v.ready.map((j) => [j.id, j.attempts]), [['a', 0]]);
  assert.equal(v.timeline.filter((e) => e.id === 'a' && e.kind === 'replayed').length, 2);
  s.dispose();
});

test('a report the core does not know is refused by name, counted, and changes nothing', () => {
  const s = session('v1;m3;ja:,b:');
  const before = s.view();
  throwsWith(assert, () => s.report('retry-later'), RangeError, 'invalid-argument',
    /^outcome must be one of "success", "transient", "permanent", .*got "retry-later"$/);
  const after = s.view();
  assert.equal(after.refused, 1);
  assert.deepEqual(after.ready, before.ready);
  assert.deepEqual(after.stats, before.stats);
  assert.equal(s.checkGoal('refused = 1; ready a; attempts a = 0; steps = 0').met, true);
  const { accepted, view } = s.report('success');
  assert.equal(accepted, true);
  assert.equal(view.refused, 1);
  assert.equal(s.checkGoal('refused >= 1; completed a; attempts a = 1').met, true);
  throwsWith(assert, () => s.report(42), TypeError, 'invalid-type', /^outcome must be a string/);
  s.dispose();
});

test('a second replay answers false, changes nothing and is counted (refused-replays)', () => {
  const s = session('v1;m3;ja:,b:;ap');
  assert.equal(s.view().refusedReplays, 0);
  assert.equal(s.act({ type: 'replay', id: 'a' }).accepted, true);
  const before = s.view();
  const { accepted, view: after } = s.act({ type: 'replay', id: 'a' });
  assert.equal(accepted, false, 'a is in Ready now: replay answers false');
  assert.equal(after.refusedReplays, 1);
  assert.equal(after.refused, 0, 'a refused report is another count');
  assert.deepEqual(after.ready, before.ready);
  assert.deepEqual(after.stats, before.stats);
  assert.equal(s.scenario().actions.length, 2, 'a false replay is not recorded');
  const check = s.checkGoal('event replayed a; ready a; attempts a = 0; refused-replays >= 1');
  assert.equal(check.met, true);
  assert.equal(check.clauses[3].actual, 'refused-replays = 1');
  // A bare queue has no session, so no refused replays.
  const q = lab.createQueue({ maxAttempts: 3 });
  assert.equal(q.checkGoal('refused-replays = 0').met, true);
  q.dispose();
  // A job never given: false too, and counted.
  assert.equal(s.act({ type: 'replay', id: 'nobody' }).accepted, false);
  assert.equal(s.view().refusedReplays, 2);
  s.dispose();
});

test('every quarantine entry names its source queue (derived: the link and snapshot carry nothing new)', () => {
  const s = session('v2;m3;s1;jp1:x,p2:y;ap,p');
  const entries = s.view().quarantined;
  assert.deepEqual(entries.map((e) => [e.id, e.sourceQueue]), [['p1', 'orders'], ['p2', 'orders']]);
  assert.deepEqual(s.locate('p1'), { place: 'quarantine', attempts: 1, reason: 'permanent', class: 'permanent', sourceQueue: 'orders' });
  assert.equal(s.checkGoal('quarantined p1 from orders; not quarantined p1 from payments').met, true);
  assert.equal(s.checkGoal('quarantined p1 from orders').clauses[0].actual,
    'p1 is quarantined as permanent (class permanent) with 1 attempt, from orders');
  assert.doesNotMatch(s.snapshotText(), /orders/);
  throwsWith(assert, () => s.checkGoal('quarantined p1 from'), RangeError, 'invalid-argument',
    /^goal: clause 1 "quarantined p1 from": expected a source queue's name after "quarantined p1 from", got the end of the clause$/);
  s.dispose();
});

test('views are deep copies: editing one changes nothing in the queue', () => {
  const s = session('v1;m3;ja:charge%2042,b:;ap');
  const view = s.view();
  view.quarantined[0].payload = 'edited';
  view.quarantined[0].attempts = 99;
  view.ready[0].id = 'zzz';
  view.quarantined.length = 0;
  const again = s.view();
  assert.equal(again.quarantined[0].payload, 'charge 42');
  assert.equal(again.quarantined[0].attempts, 1);
  assert.equal(again.ready[0].id, 'b');
  assert.equal(s.checkGoal('quarantined a as permanent; attempts a = 1; ready b').met, true);
  s.dispose();
});

test('redrive by class or by reason: only those entries move; the filter travels in links and views', () => {
  const s = session('v2;m2;s1;jp1:,t1:,p2:,t2:;ap,t,p,t,t,t');
  const { view } = s.act({ type: 'redrive', max: 10, reason: 'exhausted' });
  assert.deepEqual(view.ready.map((j) => j.id), ['t1', 't2']);
  assert.deepEqual(view.quarantined.map((e) => e.id), ['p1', 'p2']);
  assert.deepEqual(view.last.action, { type: 'redrive', max: 10, reason: 'exhausted' });
  assert.match(lab.formatScenario(s.scenario()), /,d10re$/);
  const byClass = s.act({ type: 'redrive', max: 1, class: 'permanent' }).view;
  assert.deepEqual(byClass.ready.map((j) => j.id), ['t1', 't2', 'p1']);
  throwsWith(assert, () => s.act({ type: 'redrive', max: 1, reason: 'bored' }), RangeError, 'invalid-argument',
    /^action\.reason must be "permanent" or "exhausted", got "bored"$/);
  throwsWith(assert, () => s.act({ type: 'redrive', max: 1, class: 'nope' }), RangeError, 'invalid-argument', /^action\.class: /);
  assert.equal(s.act({ type: 'redrive', max: 1, class: 'undeserializable' }).accepted, false);
  assert.deepEqual(lab.reasons, ['permanent', 'exhausted']);
  s.dispose();
});
