// The Config snippet panel's controller (web/src/playground/snippet-panel.mjs) over a
// fake view and the real core and generators: nothing is generated while the panel is
// closed; open, it shows the snippet of the system picked from the policy in force and
// follows the policy's mode; Apply reads an edit back as one set-up change, and a
// refused edit (outside the part read back, or one the core refuses) changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { playground, state } from './playground-fakes.mjs';
import { SNIPPETS } from '../../web/src/shared/snippets.mjs';

/** A playground under BullMQ with 4 attempts, its snippet panel open. */
async function opened() {
  const pg = playground({ scenario: 'v1;m3;ja:1,b:2' });
  pg.view.press('Policy', { system: 'bullmq', maxAttempts: 4 }, 'set-up');
  pg.view.snippet.open = true;
  await pg.view.snippet.onOpen();
  return pg;
}

test('the panel loads its generators when first opened, and shows the snippet of the policy\'s own system', async () => {
  let loads = 0;
  const { controller, view } = playground({}, { snippets: () => {
    loads += 1;
    return Promise.all([import('../../web/src/shared/snippets.mjs'), import('../../web/src/playground/snippet-readback.mjs')]);
  } });
  view.press('Policy', { maxAttempts: 5 }, 'set-up');
  assert.equal(loads, 0, 'a playground whose panel is never opened loads neither module');
  view.snippet.open = true;
  await view.snippet.onOpen();
  await view.snippet.onOpen();
  assert.equal(loads, 1);
  assert.equal(view.snippet.loadingShown, false, 'the loading line went with the load');
  assert.deepEqual(view.snippet.systems, SNIPPETS);
  assert.equal(view.snippet.shown.key, SNIPPETS[0].key, 'the lab\'s own system has no snippet: the first');
  assert.match(view.snippet.shown.text, /maxReceiveCount/);
  controller.destroy();
});

test('generators that did not load are said in the panel; nothing changes; the next open tries again', async () => {
  let fail = true;
  const { controller, view } = playground({}, { snippets: () => {
    if (fail) return Promise.reject(new TypeError('Failed to fetch dynamically imported module: https://lab.test/src/snippets-X.mjs'));
    return Promise.all([import('../../web/src/shared/snippets.mjs'), import('../../web/src/playground/snippet-readback.mjs')]);
  } });
  const before = state(controller);
  view.snippet.open = true;
  const opening = view.snippet.onOpen();
  assert.equal(view.snippet.loadingShown, true, 'the panel says it is loading');
  await opening;
  assert.equal(view.snippet.loadingShown, false);
  assert.deepEqual(view.snippet.outcome, { refused: 'The Config snippet did not load.',
    messages: ['Failed to fetch dynamically imported module: https://lab.test/src/snippets-X.mjs: check the connection, then show the snippet again.'] });
  assert.equal(view.snippet.shown, null);
  assert.deepEqual(state(controller), before);
  fail = false;
  await view.snippet.onOpen();
  assert.equal(view.snippet.shown.key, SNIPPETS[0].key);
  controller.destroy();
});

test('the picker follows the policy\'s mode; a system picked by hand stays until the mode changes', async () => {
  const { controller, view } = await opened();
  assert.equal(view.snippet.shown.key, 'bullmq');
  assert.match(view.snippet.shown.text, /attempts: 4,/);
  view.snippet.onSystem('sidekiq');
  assert.equal(view.snippet.shown.key, 'sidekiq');
  view.press('Policy', { maxAttempts: 6 }, 'set-up');
  assert.equal(view.snippet.shown.key, 'sidekiq', 'same mode: the reader\'s pick stays');
  assert.match(view.snippet.shown.text, /retry: 5\b/);
  view.press('Policy', { system: 'sqs' }, 'set-up');
  assert.equal(view.snippet.shown.key, 'sqs');
  controller.destroy();
});

test('Apply reads the edited part back as one set-up change and says every field it set', async () => {
  const { controller, view, session } = await opened();
  const base = view.snippet.shown.text;
  view.snippet.onApply('bullmq', base.replace('attempts: 4,', 'attempts: 7,'), base);
  assert.match(view.snippet.outcome.applied, /^Applied the BullMQ snippet \(jobOptions\): \d+ fields set\.$/);
  assert.equal(session.view.policy.maxAttempts, 7);
  assert.match(view.last.notice, /^Applied the BullMQ snippet: system bullmq, .*maxAttempts 7/);
  assert.match(view.snippet.shown.text, /attempts: 7,/, 'the snippet is generated again from the new policy');
  controller.destroy();
});

test('an edit outside the part read back, or one the core refuses, is refused by name; nothing changes', async () => {
  const { controller, view } = await opened();
  const before = state(controller);
  const base = view.snippet.shown.text;
  view.snippet.onApply('bullmq', base.replace('lockDuration: 30000', 'lockDuration: 5000'), base);
  assert.equal(view.snippet.outcome.refused, 'Not applied (BullMQ snippet): nothing changed.');
  assert.match(view.snippet.outcome.messages[0], /is outside jobOptions, the only part Apply reads back/);
  view.snippet.onApply('bullmq', base.replace('attempts: 4,', 'attempts: 2000000,'), base);
  assert.equal(view.snippet.outcome.refused, 'Not applied (BullMQ snippet): nothing changed.');
  assert.match(view.snippet.outcome.messages[0], /maxAttempts .*2000000/);
  assert.deepEqual(state(controller), before);
  controller.destroy();
});
