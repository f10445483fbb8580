// Crash and restart, and the snapshot (web/src/playground/crash-panel.mjs), over a fake
// view and the real core: a crash is a script action whose recovered queue is the state
// from then on; a second crash from the same dialog replaces the first; Find steps back
// over it; a refused crash is said in the dialog and changes nothing; the dialogs' module
// loads on first open, and one that does not load is said and opens nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { playground, state } from './playground-fakes.mjs';

/** The crash preset (a poison pair, safe order) played to its end, the dialog open at the write that matters. */
async function crashPreset() {
  const pg = playground();
  await pg.view.press('Preset', 'q');
  return pg;
}

test('crashAt() opens the dialog (a run pauses) at the write that matters, or at a given write', async () => {
  const { controller, view } = playground();
  view.press('Run');
  const opening = controller.crashAt();
  assert.equal(view.runningKind, null, 'the run pauses at once, before the dialog\'s module is there');
  assert.equal(view.crashView.opened, 0);
  await opening;
  assert.equal(view.crashView.shownWith, controller.session, 'the dialog reads the session\'s journal');
  await controller.crashAt(2);
  assert.deepEqual(view.crashView.calls, [['findFirst'], ['crashAt', 2]]);
  assert.equal(await view.press('CrashOpen'), true);
  assert.equal(view.crashView.opened, 3);
  assert.deepEqual(view.loads, ['durability', 'durability', 'durability'], 'each open asks for the module (the view loads it once)');
  controller.destroy();
});

test('a dialog whose module did not load is said by name in the action alert; nothing opens or changes; the next open tries again', async () => {
  const { controller, view } = playground();
  const before = state(controller);
  view.failLoad = new TypeError('Failed to fetch dynamically imported module: https://lab.test/src/durability-X.mjs');
  assert.equal(await view.press('CrashOpen'), false);
  await controller.crashAt();
  await view.press('Snapshot');
  assert.equal(view.crashView.opened, 0);
  assert.equal(view.snapshotView.opened, 0);
  const said = 'it did not load (Failed to fetch dynamically imported module: https://lab.test/src/durability-X.mjs); check the connection, then try again';
  assert.deepEqual(view.refusals, [['Crash and restart', said], ['Crash and restart', said], ['Snapshot', said]]);
  assert.deepEqual(state(controller), before);
  view.failLoad = null;
  assert.equal(await view.press('CrashOpen'), true);
  assert.equal(view.crashView.opened, 1);
  controller.destroy();
});

test('a crash is a script action: the recovered queue is on show, a goal sees it, a second try replaces the first', async () => {
  const { controller, view, session } = await crashPreset();
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

test('a refused crash is said in the dialog; nothing changes', async () => {
  const { controller, view } = await crashPreset();
  const before = state(controller);
  assert.equal(view.press('Crash', 1_000_000, false), false);
  assert.match(view.alerts.get(view.crashView.alert), /^Crash and restart not taken: .*1000000/);
  assert.deepEqual(state(controller), before);
  controller.destroy();
});

test('the dialog\'s unsafe order is a policy change; the snapshot is the core\'s text', async () => {
  const { controller, view, session } = await crashPreset();
  assert.equal(view.press('UnsafeOrder', true), true);
  assert.equal(session.view.policy.unsafeQuarantineOrder, true);
  await view.press('Snapshot');
  assert.equal(view.snapshotView.opened, 1);
  assert.equal(view.snapshotView.shownWith, session.queue.snapshotText());
  controller.destroy();
});
