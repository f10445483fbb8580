// The capstone's actions (web/src/playground/operator-actions.mjs) and the core's checks
// of the state on show (checks.mjs), through the controller over a fake view and the real
// core: the clock (Lease, Settle, Crash worker, Next event), the operator (Replay,
// Release key, Redrive, Patch and replay), a typed report, the Worst case bound and the
// retry-schedule card. What the core finds nothing to do for is said as a notice; a
// refusal is said in the controls' alert and changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { playground, state } from './playground-fakes.mjs';

const TWO_JOBS = 'v1;m3;ja:1,b:2';

test('Lease, then Settle the lease chosen; Settle and Crash worker with nothing in flight say so', () => {
  const { controller, view, session } = playground({ scenario: TWO_JOBS });
  view.press('Settle');
  assert.equal(view.last.notice, 'Nothing is in flight: lease a job first.');
  view.press('CrashWorker');
  assert.equal(view.last.notice, 'Nothing is in flight: lease a job first.');
  view.press('Lease');
  assert.equal(view.alerts.get('clock'), null);
  assert.equal(session.view.leased.length, 1);
  view.token = session.view.leased[0].token;
  view.outcome = 'success';
  view.press('Settle');
  assert.equal(session.view.leased.length, 0);
  assert.equal(session.view.stats.completed, 1);
  controller.destroy();
});

test('Crash worker moves the clock to the lease\'s expiry, where the queue decides the attempt', () => {
  const { controller, view, session } = playground({ scenario: TWO_JOBS });
  view.press('Lease');
  const [lease] = session.view.leased;
  view.token = lease.token;
  view.press('CrashWorker');
  assert.equal(session.view.stats.now, lease.expiresAt);
  assert.equal(session.view.leased.length, 0);
  assert.deepEqual(session.view.timeline.slice(-2).map((e) => [e.kind, e.id, e.time]),
    [['expired', 'a', lease.expiresAt], ['requeued', 'a', lease.expiresAt]]);
  controller.destroy();
});

test('Next event and Advance: the clock; nothing pending is said, a refused advance changes nothing', () => {
  const { controller, view, session } = playground({ scenario: 'v1;m3' });
  view.press('NextEvent');
  assert.equal(view.last.notice, 'Nothing is waiting on the clock: no due time, lease or retention is pending.');
  view.press('Advance', 250);
  assert.equal(session.view.stats.now, 250);
  const before = state(controller);
  view.press('Advance', -5);
  assert.match(view.alerts.get('clock'), /^Advance not taken: .*-5/);
  assert.deepEqual(state(controller), before);
  controller.destroy();
});

test('the operator: Replay of a job not in quarantine counts the refused replays; Release key and Redrive with nothing to do', () => {
  const { controller, view } = playground({ scenario: TWO_JOBS });
  view.press('Replay', 'a', { fromField: true });
  assert.equal(view.last.notice, 'replay("a") returned false: "a" is not in quarantine at this step, so nothing changed (1 refused replay so far).');
  view.press('Replay', 'a', {});
  assert.equal(view.last.notice, '"a" is not in quarantine at this step.');
  view.press('ReleaseKey', 'acct-7');
  assert.equal(view.last.notice, 'No quarantined job holds key "acct-7": nothing to release.');
  view.press('Redrive', 10, {}, null);
  assert.equal(view.last.notice, 'The quarantine is empty: nothing to redrive.');
  view.press('Redrive', 10, { class: 'transient' }, 5);
  assert.equal(view.last.notice, 'No quarantine entry of class transient: nothing to redrive.');
  const before = state(controller);
  view.press('Redrive', 10, {}, 0);
  assert.match(view.alerts.get('operator'), /^Redrive not taken: /);
  assert.deepEqual(state(controller), before);
  controller.destroy();
});

test('Patch and replay: a quarantined job\'s payload fixed, then replayed, two actions', () => {
  const { controller, view, session } = playground({ scenario: TWO_JOBS });
  view.outcome = 'permanent';
  view.press('Step');
  assert.equal(session.view.stats.quarantined, 1);
  const length = session.length;
  view.press('PatchAndReplay', 'a', 'fixed');
  assert.equal(session.length, length + 2);
  assert.equal(session.view.stats.quarantined, 0);
  view.press('PatchAndReplay', 'a', 'again');
  assert.equal(view.last.notice, '"a" is not in quarantine at this step: nothing to patch.');
  controller.destroy();
});

test('a typed report: the core parses the outcome; its refusal is shown and counted, nothing else changes', () => {
  const { controller, view, session } = playground({ scenario: TWO_JOBS }, { embed: { reportBox: true } });
  const before = state(controller);
  view.press('Report', 'bogus');
  assert.match(view.report.refusal, /bogus/);
  assert.equal(view.report.refused, 1);
  assert.deepEqual(state(controller), before);
  view.press('Report', 'success');
  assert.equal(view.report.refusal, null);
  assert.equal(session.view.stats.completed, 1);
  controller.destroy();
});

test('the Worst case bound is the core\'s, asked again only when the set-up changed', () => {
  const { controller, view, session } = playground({ scenario: TWO_JOBS });
  const first = view.last.worst;
  assert.deepEqual(first, session.queue.worstCase({ outcomes: view.offeredOutcomes(), leases: false }));
  view.press('Step');
  assert.equal(view.last.worst, first, 'a step is no set-up change: the same answer, not asked again');
  view.press('Policy', { maxAttempts: 5 }, 'set-up');
  assert.notDeepEqual(view.last.worst, first);
  assert.notEqual(view.last.rules, null, 'a set-up change draws the rules in force again');
  view.press('Step');
  assert.equal(view.last.rules, null);
  controller.destroy();
});

test('the retry-schedule card: drawn in a clock playground from the core\'s schedule, again when the outage changes', () => {
  const { controller, view, session } = playground({ scenario: TWO_JOBS });
  assert.equal(view.schedule.shown, false, 'not a clock playground');
  view.press('Lease');  // the scenario now uses the clock
  assert.equal(view.schedule.shown, true);
  assert.deepEqual(view.schedule.table, controller.session.lab.retrySchedule(session.view.policy, { outageMs: 5000, leases: session.view.leases }));
  view.schedule.table = null;
  view.schedule.onOutage();
  assert.notEqual(view.schedule.table, null, 'asked again');
  controller.destroy();
});
