// The picture is the truth: the three defects a learner met when the page kept
// its own copy of the world, each tried as a learner would meet it.
//  1. A caption narrated the script after the learner had left it.
//  2. Cards kept another job's payload after a preset.
//  3. Crash and restart was never carried out.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, playground, setFragment, assertClean, screenshotPath } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

test('lesson 1: a caption holds only while the history is the authored script', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html#l1-count`);
  const { page } = opened;
  const el = page.locator('#l1-count');
  await el.scrollIntoViewIfNeeded();
  await el.locator('section.dlq[data-ready="true"]').waitFor();
  const root = el.locator('section.dlq');
  const caption = root.locator('.dlq-caption');
  const step = (name) => root.getByRole('group', { name: 'Outcome' }).getByRole('radio', { name, exact: true }).check()
    .then(() => root.getByRole('button', { name: 'Step', exact: true }).click());
  await step('Transient failure');
  assert.match(await caption.textContent(), /Attempt 1 failed transiently/);
  await step('Transient failure');
  assert.match(await caption.textContent(), /Attempt 2 failed/);
  await step('Success');  // the script says transient here: the learner diverged
  assert.equal(await caption.isHidden(), true, 'no caption narrates an attempt that did not happen');
  assert.match(await root.locator('.dlq-why-text').textContent(), /success|completed/i);
  assert.equal(await root.getByRole('group', { name: 'Completed' }).locator('.dlq-list > li').count(), 1);
  // Back to a position the authored script still explains: its caption returns.
  await root.getByRole('button', { name: 'Back', exact: true }).click();
  assert.match(await caption.textContent(), /Attempt 2 failed/);
  assertClean(opened);
  await opened.context.close();
});

test('every preset loaded straight from the a/b example shows each card with its own payload', async () => {
  // One page: before each preset the a/b example's own link goes back into the address bar, as a
  // reader pasting it would (a fresh page for each preset cost a second of CPU apiece).
  const opened = await openPage(h.browser, `${h.base}playground.html`);
  const { page } = opened;
  const count = await page.locator('.dlq-presets button').count();
  assert.ok(count >= 8);
  await page.waitForFunction(() => location.hash.length > 1);
  const example = await page.evaluate(() => location.hash);
  for (let i = 0; i < count; i++) {
    if (i > 0) {
      await setFragment(page, example);
      await page.waitForFunction(() => document.querySelector('section.dlq').dataset.step === '0');
      assert.deepEqual(await playground(page).ids('Ready'), ['a', 'b'], 'the a/b example again');
    }
    const chip = page.locator('.dlq-presets button').nth(i);
    const name = await chip.getAttribute('title');
    await chip.click();
    // A preset is loaded when the Why line names it ("Press Run or Forward"); a crash preset instead
    // opens Crash and restart once the dialogs' module has loaded. Wait for one or the other.
    const crashed = await page.waitForFunction((summary) => {
      if (document.querySelector('dialog.dlq-dialog[open][aria-labelledby$="-crash-h"]')) return 'crash';
      const why = document.querySelector('section.dlq .dlq-why-text').textContent;
      return why.includes(summary) && why.includes('Press Run or Forward') ? 'plain' : false;
    }, name).then((handle) => handle.jsonValue()) === 'crash';
    if (crashed) {
      const dialog = page.getByRole('dialog', { name: 'Crash and restart' });
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'hidden' });
    }
    // Every card shown, in every place, against the job's payload as the scenario holds it.
    const { cards, payloads } = await page.evaluate(() => {
      const controller = document.querySelector('dlq-playground').controller;
      const scenario = controller.session.scenario;
      const payloads = Object.fromEntries([...scenario.jobs, ...scenario.actions.filter((a) => a.type === 'enqueue')]
        .map((j) => [j.id, j.payload ?? '']));
      const cards = [...document.querySelectorAll('.dlq-state .dlq-list > li[data-id]')].map((li) => ({
        id: li.dataset.id, payload: li.querySelector('.dlq-payload')?.textContent ?? null,
      }));
      return { cards, payloads };
    });
    assert.ok(cards.length > 0, `${name}: cards are drawn`);
    for (const card of cards) assert.equal(card.payload, payloads[card.id], `${name}: card "${card.id}"`);
    // The page writes the preset's link (after its debounce) before the example's goes back in;
    // the a/b example's own preset ('a') leaves the link as it was.
    if (await chip.getAttribute('data-preset') !== 'a') await page.waitForFunction((hash) => location.hash !== hash, example);
  }
  assertClean(opened);
  await opened.context.close();
});

test('Crash, unsafe order: the loss is the playground\'s state, on the timeline, in the link, and Back undoes it', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`);
  const { page } = opened;
  const pg = playground(page);
  await pg.button('Crash, unsafe order').click();
  const dialog = page.getByRole('dialog', { name: 'Crash and restart' });
  await dialog.getByText('Lost: "b".').waitFor();
  await page.screenshot({ path: screenshotPath('one-model-crash-dialog') });
  await dialog.getByRole('button', { name: 'Close' }).click();
  // After closing: b is nowhere, the Why line says so, and the log records the loss.
  assert.deepEqual(await pg.ids('Quarantine'), []);
  assert.ok(!(await pg.ids('Ready')).includes('b'));
  assert.match(await pg.why(), /crashed after write \d+ of \d+.*lost "b"/);
  assert.ok((await pg.logLines()).some((line) => /lost "b"/.test(line)), 'the Event log records the loss');
  // The link carries the crash: a fresh page from it shows the same loss.
  await page.waitForFunction(() => /,c\d+/.test(location.hash));
  const link = await page.evaluate(() => location.href);
  const again = await opened.context.newPage();
  await again.goto(link);
  await again.waitForSelector('section.dlq[data-ready="true"]');
  const pg2 = playground(again);
  assert.deepEqual(await pg2.ids('Quarantine'), []);
  assert.match(await pg2.why(), /lost "b"/);
  await again.close();
  // Back: before the crash, b is in quarantine again.
  await pg.button('Back').click();
  assert.deepEqual(await pg.ids('Quarantine'), ['b']);
  await page.screenshot({ path: screenshotPath('one-model-after-back') });
  assertClean(opened);
  await opened.context.close();
});
