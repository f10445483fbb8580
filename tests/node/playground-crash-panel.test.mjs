// Crash and restart, and the snapshot (web/src/playground/crash-panel.mjs), over a fake
// view and the real core: a crash is a script action whose recovered queue is the state
// from then on; a second crash from the same dialog replaces the first; Find steps back
// over it; a refused crash is said in the dialog and changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { playground, state } from './playground-fakes.mjs';

/** The crash preset (a poison pair, safe order) played to its end, the dialog open at the write that matters. */
function crashPreset() {
  const pg = playground();
  pg.view.press('Preset', 'q');
  return pg;
}

test('crashAt() opens the dialog (a run pauses) at the write that matters, or at a given write', () => {
  const { controller, view } = playground();
  view.press('Run');
  controller.crashAt();
  assert.equal(view.runningKind, null);
  assert.equal(view.crashView.shownWith, controller.session, 'the dialog reads the session\'s journal');
  controller.crashAt(2);
  assert.deepEqual(view.crashView.calls, [['findFirst'], ['crashAt', 2]]);
  view.press('CrashOpen');
  assert.equal(view.crashView.opened, 3);
  controller.destroy();
});

test('a crash is a script action: the recovered queue is on show, a goal sees it, a second try replaces the first', () => {
  const { controller, view, session } = crashPreset();
  const played = session.length;
  const { after } = view.press('Find');
  assert.equal(view.press('Crash', after, false), true);
  assert.equal(session.view.last.action.type, 'crash');
  assert.equal(session.length, played + 1);
  assert.equal(controller.checkGoal('quarantined b').recovered, true);
  assert.equal(view.changes.at(-1).recovered, true);
  assert.equal(view.press('Crash', after - 1, true), true);
  assert.equal(session.length, played + 1, 'the first crash was replaced, not followed');
  assert.equal(view.press('Find').after, after, 'Find asks the journal before the crash');
  assert.equal(session.cursor, played, 'Find stepped back over the crash the dialog made');
  controller.destroy();
});

test('a refused crash is said in the dialog; nothing changes', () => {
  const { controller, view } = crashPreset();
  const before = state(controller);
  assert.equal(view.press('Crash', 1_000_000, false), false);
  assert.match(view.alerts.get(view.crashView.alert), /^Crash and restart not taken: .*1000000/);
  assert.deepEqual(state(controller), before);
  controller.destroy();
});

test('the dialog\'s unsafe order is a policy change; the snapshot is the core\'s text', () => {
  const { controller, view, session } = crashPreset();
  assert.equal(view.press('UnsafeOrder', true), true);
  assert.equal(session.view.policy.unsafeQuarantineOrder, true);
  view.press('Snapshot');
  assert.equal(view.snapshotView.opened, 1);
  assert.equal(view.snapshotView.shownWith, session.queue.snapshotText());
  controller.destroy();
});
