// The import dialog's controller (web/src/playground/import-panel.mjs) over a fake view
// and the real core: an accepted config is one set-up change listing every field it set;
// a refusal, the translation's or the core's, is said in the dialog by name and changes
// nothing; the dialog's module loads on first open, and one that does not load is said.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { playground, state } from './playground-fakes.mjs';

const BULLMQ = '{"attempts":4,"backoff":{"type":"exponential","delay":1000},"removeOnFail":false}';

test('opening the dialog pauses a run, then loads its module and shows it', async () => {
  const { controller, view } = playground();
  view.press('Run');
  const opening = view.press('ImportOpen');
  assert.equal(view.runningKind, null);
  assert.equal(await opening, true);
  assert.deepEqual(view.loads, ['import']);
  assert.equal(view.importView.opened, 1);
  controller.destroy();
});

test('a dialog whose module did not load is said in the action alert; nothing opens or changes; the next open tries again', async () => {
  const { controller, view } = playground();
  const before = state(controller);
  view.failLoad = new TypeError('Failed to fetch dynamically imported module: https://lab.test/src/import-view-X.mjs');
  assert.equal(await view.press('ImportOpen'), false);
  assert.equal(view.importView.opened, 0);
  assert.deepEqual(view.refusals, [['Import a broker\'s config',
    'it did not load (Failed to fetch dynamically imported module: https://lab.test/src/import-view-X.mjs); check the connection, then try again']]);
  assert.deepEqual(state(controller), before);
  view.failLoad = null;
  assert.equal(await view.press('ImportOpen'), true);
  assert.equal(view.importView.opened, 1);
  controller.destroy();
});

test('an accepted config sets the system and every field it determines, each with the setting it came from', () => {
  const { controller, view, session } = playground();
  view.press('Import', BULLMQ, {});
  const { outcome } = view.importView;
  assert.match(outcome.accepted, /^Imported BullMQ job options: \d+ fields set\.$/);
  assert.deepEqual(outcome.set[0], { field: 'system', value: 'bullmq', from: 'BullMQ job options' });
  assert.ok(outcome.set.some((s) => s.field === 'maxAttempts' && s.value === 4 && /attempts 4/.test(s.from)));
  assert.equal(session.view.policy.system, 'bullmq');
  assert.equal(session.view.policy.maxAttempts, 4);
  assert.match(view.last.notice, /^Imported BullMQ job options: system bullmq, maxAttempts 4, /);
  controller.destroy();
});

test('a config the import cannot read is refused by name; nothing changes', () => {
  const { controller, view } = playground();
  const before = state(controller);
  view.press('Import', 'nonsense', {});
  const { outcome } = view.importView;
  assert.equal(outcome.refused, 'Not imported (the config): nothing changed.');
  assert.match(outcome.messages[0], /^config is not JSON nor a sidekiq_options line .*got "nonsense"$/);
  assert.deepEqual(state(controller), before);
  controller.destroy();
});

test('a config the core refuses names the core\'s field and the broker setting it came from; nothing changes', () => {
  const { controller, view } = playground();
  const before = state(controller);
  view.press('Import', '{"attempts":2000000}', {});
  const { outcome } = view.importView;
  assert.equal(outcome.refused, 'Not imported (BullMQ job options): nothing changed.');
  assert.match(outcome.messages[0], /maxAttempts .*2000000 \(maxAttempts from attempts 2000000 \(every run counts\)\)\.$/);
  assert.deepEqual(state(controller), before);
  controller.destroy();
});
