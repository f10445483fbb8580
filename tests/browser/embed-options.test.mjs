// What an author controls in an embed (docs/playground.md, "Embedding"): features,
// panels, presets, locked, heading-level, compact, captions, the dlq-change event
// and Discard my changes (the lesson's scenario again). Each embed is added to a lesson page the way an
// author's HTML would have it, then read by accessible name.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, assertClean } from './harness.mjs';
import { PRESETS, CAPSTONE_PRESETS, SYSTEM_PRESETS } from '../../web/src/playground/presets.mjs';

// Every preset key the page offers, in the page's order (a new preset is named without editing this test).
const PRESET_KEYS = [...PRESETS, ...CAPSTONE_PRESETS, ...SYSTEM_PRESETS].map((p) => p.key).join(' ');

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

/** Adds <dlq-playground id=… …attributes> (with optional inner HTML) to the page and waits for it. */
async function embed(page, id, attributes, inner = '') {
  await page.evaluate(async ({ id, attributes, inner }) => {
    const el = document.createElement('dlq-playground');
    el.id = id;
    for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
    el.innerHTML = inner;
    document.querySelector('main').append(el);
    await el.ready;
  }, { id, attributes, inner });
  const root = page.locator(`#${id} section.dlq`);
  return {
    root,
    button: (name) => root.getByRole('button', { name, exact: true }),
    visible: (name) => root.getByRole('button', { name, exact: true }).isVisible(),
  };
}

const AB = 'v1;m3;ja:charge%20order%201,b:charge%20order%202;at:db%20timeout,s,s;c0';

test('features: basic shows lesson 1\'s controls only, even for a clock scenario; a list shows exactly those', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`);
  const { page } = opened;
  const basic = await embed(page, 't-basic', { scenario: 'v2;m3;l1000;s1;ja:,b:', features: 'basic' });
  for (const name of ['Step', 'Back', 'Forward', 'Run', 'Replay']) assert.equal(await basic.visible(name), true, name);
  for (const name of ['Lease', 'Next event', 'Play', 'Redrive', 'Snapshot']) assert.equal(await basic.visible(name), false, name);
  const clock = await embed(page, 't-clock', { scenario: AB, features: 'clock durability' });
  for (const name of ['Lease', 'Next event', 'Settle', 'Advance', 'Snapshot', 'Crash and restart…']) assert.equal(await clock.visible(name), true, name);
  for (const name of ['Play', 'Redrive', 'Release key']) assert.equal(await clock.visible(name), false, name);
  assert.equal(await clock.root.getByRole('radio', { name: 'Unknown schema' }).isVisible(), false, 'no classes feature');
  assertClean(opened);
  await opened.context.close();
});

test('panels and presets: only the chosen parts and presets; a preset not offered has no shortcut', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`);
  const { page } = opened;
  const pg = await embed(page, 't-panels', { scenario: AB, panels: 'presets controls timeline', presets: 'a p' });
  assert.equal(await pg.root.getByRole('group', { name: 'Timeline' }).isVisible(), true);
  for (const name of ['Ready', 'Event log']) assert.equal(await pg.root.getByRole('group', { name }).isVisible(), false, name);
  assert.equal(await pg.root.getByLabel('Max attempts').isVisible(), false, 'no set-up fields');
  assert.equal(await pg.root.getByLabel('Link', { exact: true }).isVisible(), false, 'no link');
  assert.deepEqual((await pg.root.locator('.dlq-chip:visible').allTextContents()).map((t) => t.replace(/.$/, '')), ['a/b example', 'Poison message']);
  await pg.root.getByRole('button', { name: 'Step', exact: true }).focus();
  await page.keyboard.press('y');  // Flaky dependency: not offered here
  assert.equal(await pg.root.locator('.dlq-why-text').textContent(), 'Set-up done. Choose an outcome and press Step, or press Forward / Run to play the script.');
  await page.keyboard.press('p');
  assert.match(await pg.root.locator('.dlq-why-text').textContent(), /^Poison message:/);
  assertClean(opened);
  await opened.context.close();
});

test('locked: a walkthrough along its script, with captions per step in the Why line', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`);
  const { page } = opened;
  const pg = await embed(page, 't-locked', { scenario: AB, locked: '' },
    '<ol class="dlq-captions"><li>Two jobs, a at the head.</li><li>a failed: it went to the tail.</li><li>b ran first.</li></ol>');
  for (const name of ['Step', 'Replay', 'Lease']) assert.equal(await pg.visible(name), false, name);
  for (const name of ['Back', 'Forward', 'Run']) assert.equal(await pg.visible(name), true, name);
  assert.equal(await pg.root.locator('input[type="radio"][value="success"]').count(), 1);
  assert.equal(await pg.root.locator('input[type="radio"][value="success"]').isVisible(), false, 'no outcome to choose');
  const caption = pg.root.locator('.dlq-caption');
  assert.equal(await caption.textContent(), 'Two jobs, a at the head.');
  await pg.button('Forward').click();
  assert.equal(await caption.textContent(), 'a failed: it went to the tail.');
  await pg.button('Forward').click();
  await pg.button('Forward').click();
  assert.equal(await caption.textContent(), 'b ran first.', 'the last caption holds past its step');
  // Keys that would change the scenario do nothing.
  await pg.button('Back').focus();
  await page.keyboard.press('s');
  assert.equal(await pg.root.getAttribute('data-cursor'), '3');
  assert.equal(await pg.root.getAttribute('data-step'), '3');
  assertClean(opened);
  await opened.context.close();
});

test('heading-level nests the panels; dlq-change reports each change; Discard my changes brings the start back', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`);
  const { page } = opened;
  const pg = await embed(page, 't-level', { scenario: AB, 'heading-level': '4', compact: '' });
  assert.deepEqual(await pg.root.locator('h2:not(dialog *), h3:not(dialog *)').count(), 0, 'dialogs keep their own h2');
  assert.ok(await pg.root.locator('h4').count() >= 5, 'panels are h4');
  assert.equal(await pg.root.locator('.dlq-group > h5').count(), 2, 'groups are h5');
  assert.equal(await pg.root.evaluate((r) => r.classList.contains('is-compact')), true);
  await page.evaluate(() => {
    window.changes = [];
    document.getElementById('t-level').addEventListener('dlq-change', (e) => window.changes.push(e.detail));
  });
  await pg.button('Step').click();
  await pg.button('Step').click();
  const changes = await page.evaluate(() => window.changes);
  assert.deepEqual(changes.map((c) => [c.cursor, c.stats.step, c.stats.completed]), [[1, 1, 1], [2, 2, 2]]);
  await pg.button('Discard my changes').click();
  assert.equal(await pg.root.getAttribute('data-cursor'), '0');
  assert.equal(await pg.root.locator('.dlq-list > li .dlq-id').first().textContent(), 'a');
  assertClean(opened);
  await opened.context.close();
});

test('bad attributes are refused by name: panels, presets, heading-level', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`);
  const { page } = opened;
  const messages = await page.evaluate(async () => {
    const out = [];
    for (const [name, value] of [['panels', 'controls charts'], ['presets', 'a z'], ['heading-level', '7'], ['features', '']]) {
      const el = document.createElement('dlq-playground');
      el.setAttribute(name, value);
      document.querySelector('main').append(el);
      try { await el.ready; } catch { /* shown in the element */ }
      out.push(el.textContent);
    }
    return out;
  });
  assert.deepEqual(messages, [
    'The playground could not start: panels: expected a list of setup, presets, controls, state, timeline, log, link, snippet, ledger, got "controls charts"',
    `The playground could not start: presets: expected "all", "none" or a list of preset keys (${PRESET_KEYS}), got "a z"`,
    'The playground could not start: heading-level: expected an integer from 2 to 5, got "7"',
    'The playground could not start: features: expected "all", "basic" or a list of clock, classes, ordering, operator, durability, world, got ""',
  ]);
  await opened.context.close();
});
