// A rate-limited redrive (idea 33) through the JS API: session.redriveAtRate(perSecond, only)
// records ordinary actions (links carry nothing new), the goal counter replay-burst reads
// its pace, and bad input is refused by name with nothing changed. No browser here.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, throwsWith } from './helpers.mjs';

const FIVE = 'v2;m1;s1;ja:,b:,c:,d:,e:;ap,p,p,p,p';

test('redriveAtRate without a world: a batch a second, recorded as redrive and advance actions', () => {
  const s = lab.createSession(FIVE);
  const { accepted, view } = s.redriveAtRate(2);
  assert.equal(accepted, true);
  assert.equal(view.stats.quarantined, 0);
  assert.equal(view.stats.now, 3000);
  assert.equal(s.view({ link: true }).link.text, `${FIVE},d2,w1000,d2,w1000,d1,w1000`);
  const check = s.checkGoal('replay-burst <= 2; quarantined = 0');
  assert.equal(check.met, true);
  assert.equal(check.clauses[0].actual, 'replay-burst = 2: 2 replays in the second from 0 ms');
  // All at once, the burst is the whole quarantine.
  const all = lab.createSession(`${FIVE},d10`);
  assert.equal(all.checkGoal('replay-burst = 5').met, true);
  assert.equal(lab.parseGoal('replay-burst<=3'), 'replay-burst <= 3');
  s.dispose();
  all.dispose();
});

test('redriveAtRate with a world: the workers play each second; only a filter takes only its entries', () => {
  const world = lab.createSession('v2;m1;s1;y2.300.0.0;ja:,b:,c:;ap,p,p');
  world.redriveAtRate(2);
  assert.match(world.view({ link: true }).link.text, /;ap,p,p,d2,l,l,w300,k1s,k2s,w700,d1,l,w300,k3s,w700$/);
  assert.equal(world.checkGoal('completed = 3; replay-burst = 2; now = 2000').met, true);
  world.dispose();

  const mixed = lab.createSession('v2;m2;s1;jp1:,t1:,p2:,t2:;ap,t,p,t,t,t');
  assert.equal(mixed.redriveAtRate(1, { reason: 'exhausted' }).accepted, true);
  assert.equal(mixed.checkGoal('ready t1; ready t2; quarantined p1; quarantined p2; replay-burst = 1').met, true);
  assert.equal(mixed.redriveAtRate(5, { class: 'transient' }).accepted, false, 'no transient entry is left');
  mixed.dispose();
});

test('redriveAtRate: bad input is refused by name, and nothing matching answers false; nothing changes', () => {
  const s = lab.createSession(FIVE);
  const before = s.view({ link: true }).link.text;
  assert.deepEqual(lab.integerFields.perSecond, { min: 1, max: 1000 });
  throwsWith(assert, () => s.redriveAtRate(0), RangeError, 'out-of-range', /^perSecond must be an integer from 1 to 1000, got 0$/);
  throwsWith(assert, () => s.redriveAtRate(1001), RangeError, 'out-of-range', /^perSecond must be an integer from 1 to 1000, got 1001$/);
  throwsWith(assert, () => s.redriveAtRate(2.5), RangeError, 'out-of-range', /^perSecond must be an integer from 1 to 1000, got 2\.5$/);
  throwsWith(assert, () => s.redriveAtRate('3'), TypeError, 'invalid-type', /^perSecond must be an integer/);
  throwsWith(assert, () => s.redriveAtRate(), TypeError, 'invalid-type', /^perSecond must be an integer/);
  throwsWith(assert, () => s.redriveAtRate(3, 'exhausted'), TypeError, 'invalid-type', /^only must be an object such as/);
  throwsWith(assert, () => s.redriveAtRate(3, { class: 'nope' }), RangeError, 'invalid-argument', /^only\.class: .*"nope"/);
  throwsWith(assert, () => s.redriveAtRate(3, { reason: 'stalled' }), RangeError, 'invalid-argument',
    /^only\.reason must be "permanent" or "exhausted", got "stalled"$/);
  const none = s.redriveAtRate(3, { reason: 'exhausted' });  // every entry is permanent
  assert.equal(none.accepted, false);
  assert.equal(s.view({ link: true }).link.text, before);
  assert.equal(s.view().stats.quarantined, 5);
  s.dispose();
});

test('redriveAtRate past the action limit is refused whole, never cut short with accepted: true', () => {
  // 2,500 entries quarantined as permanent at time 0.
  const ids = Array.from({ length: 2500 }, (_, i) => `j${i}`);
  const s = lab.createSession({ maxAttempts: 1, jobs: ids.map((id) => ({ id, payload: '' })),
    actions: ids.map(() => ({ type: 'process', outcome: 'permanent' })) });
  const before = s.view({ link: true }).link.text;
  throwsWith(assert, () => s.redriveAtRate(1), RangeError, 'too-large',
    /^a redrive at a rate plays at most 2000 actions, and 2500 entries at perSecond 1 take 2500 s .*nothing was redriven; raise perSecond or redrive fewer \(only\)$/);
  assert.equal(s.view({ link: true }).link.text, before, 'nothing changed');
  assert.equal(s.view().stats.quarantined, 2500);
  // At 3 a second it fits (834 seconds, 1,668 actions): every entry comes back.
  const { accepted, view } = s.redriveAtRate(3);
  assert.equal(accepted, true);
  assert.equal(view.stats.quarantined, 0);
  assert.equal(view.stats.ready, 2500);
  s.dispose();
});
