// Editing a script: what happens to the actions after the cursor is always said
// (the core gives the reason), reader navigation pauses a run, a bad budget is
// refused with the field put back, and a link's unplayable tail does not stop it
// from loading.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, playground, assertClean } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

const note = (pg) => pg.root.locator('.dlq-script-note').textContent();

async function open(hash = '') {
  const opened = await openPage(h.browser, `${h.base}playground.html${hash}`);
  return { ...opened, pg: playground(opened.page) };
}


test('a link whose tail past the cursor cannot play still loads; the tail is dropped and the reason shown', async () => {
  const opened = await open('#v1;m3;ja:x;as,rzz;c1');
  const { pg, page } = opened;
  assert.equal(await page.getByRole('alert').count(), 0);
  assert.equal(await pg.cursor(), 1);
  assert.deepEqual(await pg.ids('Completed'), ['a']);
  assert.equal(await note(pg),
    'The script\'s 1 later action no longer applies and was dropped: scenario action 2: replay("zz") found no such job in quarantine.');
  await page.waitForFunction(() => location.hash === '#v1;m3;ja:x;as');
  assertClean(opened);
  await opened.context.close();
});

test('a refused link is shown in the alert, so its author can mend it', async () => {
  const opened = await open('#v1;m3;ja:x;arb');
  assert.equal(await opened.page.getByRole('alert').count(), 1);
  assert.equal(await opened.pg.field('Refused link').inputValue(), '#v1;m3;ja:x;arb');
  assertClean(opened);
  await opened.context.close();
});

test('Back, Forward, the slider and the timeline pause a run', async () => {
  const opened = await open();
  const { pg, page } = opened;
  await pg.button('Flaky dependency').click();
  await pg.field('Speed').selectOption({ index: (await pg.field('Speed').locator('option').count()) - 1 });
  await pg.button('Run').click();
  await page.waitForFunction(() => Number(document.querySelector('section.dlq').dataset.cursor) >= 3);
  await pg.button('Back').click();
  const cursor = await pg.cursor();
  await page.waitForTimeout(700);
  assert.equal(await pg.cursor(), cursor, 'Back is not undone by the run');
  assert.equal(await pg.button('Run').count(), 1, 'the button offers Run again');
  await pg.button('Run').click();
  await page.waitForFunction((c) => Number(document.querySelector('section.dlq').dataset.cursor) > c, cursor);
  await pg.field('Position in script').fill('1');
  const at = await pg.cursor();
  await page.waitForTimeout(700);
  assert.equal(await pg.cursor(), at);
  assert.equal(at, 1);
  assertClean(opened);
  await opened.context.close();
});

test('a new budget replays the script; what no longer plays is dropped with the core\'s reason', async () => {
  const opened = await open();
  const { pg, page } = opened;
  await pg.button('Replay after a fix').click();
  await pg.button('Forward').click();
  await pg.button('Forward').click();
  await pg.field('Max attempts').fill('3');
  await pg.field('Max attempts').press('Tab');
  assert.equal(await pg.cursor(), 2);
  assert.match(await pg.root.locator('.dlq-position').textContent(), /action 2 of 3$/);
  assert.equal(await note(pg),
    'The script\'s 2 later actions no longer apply and were dropped: scenario action 4: replay("invoice") found no such job in quarantine.');
  assert.deepEqual(await pg.badges('Ready'), ['1/3 tried']);

  // At the end of the script the cursor moves back to what still plays.
  await pg.button('Replay after a fix').click();
  for (let i = 0; i < 5; i++) await pg.button('Forward').click();
  await pg.field('Max attempts').fill('3');
  await pg.field('Max attempts').press('Tab');
  assert.equal(await pg.cursor(), 3);
  assert.equal(await page.getByRole('alert').count(), 0);
  assert.equal(await pg.field('Max attempts').inputValue(), '3');
  assertClean(opened);
  await opened.context.close();
});

test('a refused budget names what was given, changes nothing and puts the field back', async () => {
  const opened = await open();
  const { pg, page } = opened;
  await pg.button('Step').click();
  const before = await pg.snapshot();
  await pg.field('Max attempts').fill('0');
  await pg.field('Max attempts').press('Tab');
  assert.equal(await page.getByRole('alert').textContent(),
    'Max attempts unchanged (still 3): maxAttempts must be an integer from 1 to 1000000, got 0.');
  assert.equal(await pg.field('Max attempts').inputValue(), '3');
  assert.deepEqual(await pg.snapshot(), before);
  await pg.field('Max attempts').fill('');
  await pg.field('Max attempts').press('Tab');
  assert.equal(await page.getByRole('alert').textContent(),
    'Max attempts unchanged: the field is empty; enter a whole number from 1 to 1000000.');
  assert.equal(await pg.field('Max attempts').inputValue(), '3');
  assert.deepEqual(await pg.snapshot(), before);
  assertClean(opened);
  await opened.context.close();
});

test('a Step in the middle of the script says it replaced the later actions', async () => {
  const opened = await open();
  const { pg } = opened;
  await pg.button('Poison message').click();
  await pg.button('Forward').click();
  await pg.button('Step').click();
  assert.equal(await note(pg), 'This change replaced the script\'s 3 later actions (Undo brings them back).');
  assert.match(await pg.root.locator('.dlq-position').textContent(), /action 2 of 2$/);
  await pg.button('Step').click();
  assert.equal(await note(pg), '', 'a Step at the end replaces nothing');
  assertClean(opened);
  await opened.context.close();
});

test('removing a set-up job keeps the script as far as it still plays', async () => {
  const opened = await open();
  const { pg } = opened;
  await pg.button('Poison message').click();
  await pg.button('Remove ok-3').click();
  assert.deepEqual(await pg.ids('Ready'), ['ok-1', 'poison', 'ok-2']);
  assert.match(await pg.root.locator('.dlq-position').textContent(), /action 0 of 3$/);
  assert.equal(await note(pg),
    'The script\'s 1 later action no longer applies and was dropped: scenario action 4: process(success) found nothing ready.');
  assertClean(opened);
  await opened.context.close();
});

test('a preset\'s job with a world behaviour can be removed: its behaviour goes with it (Consumer crash, Reset, Remove a)', async () => {
  const opened = await open();
  const { pg, page } = opened;
  await pg.button('Consumer crash').click();
  await pg.button('Reset').click();
  await pg.button('Remove a').click();
  assert.deepEqual(await pg.ids('Ready'), ['b', 'c']);
  assert.equal(await page.getByRole('alert').filter({ hasText: /Could not remove/ }).count(), 0, 'no refusal');
  // A link naming a behaviour for a missing job is still refused (the link fuzzer's finding).
  await page.evaluate(() => { location.hash = 'v2;m3;s1;hz:pt;ja:'; });
  await page.getByRole('alert').filter({ hasText: /names no job of the scenario/ }).waitFor();
  assertClean(opened);
  await opened.context.close();
});

test('single-key shortcuts can be turned off in the help dialog, and the choice is remembered', async () => {
  const opened = await open();
  const { pg, page } = opened;
  await page.keyboard.press('s');
  assert.equal(await pg.step(), 1);
  await pg.button('Shortcuts').click();
  const toggle = page.getByRole('checkbox', { name: 'Single-key shortcuts' });
  assert.equal(await toggle.isChecked(), true);
  await toggle.uncheck();
  await page.getByRole('button', { name: 'Close' }).click();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('s');
  await page.keyboard.press('b');
  assert.equal(await pg.step(), 1, 'S and B do nothing now');
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  await page.keyboard.press('s');
  assert.equal(await pg.step(), 1, 'still off after a reload');
  await pg.button('Shortcuts').click();
  await page.getByRole('checkbox', { name: 'Single-key shortcuts' }).check();
  await page.getByRole('button', { name: 'Close' }).click();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('s');
  assert.equal(await pg.step(), 2);
  assertClean(opened);
  await opened.context.close();
});

test('the share status follows the link: "Link copied." goes when the link changes; no link, no Copy link', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`, {
    context: { permissions: ['clipboard-read', 'clipboard-write'] },
  });
  const { page } = opened;
  const pg = playground(page);
  await pg.button('Copy link').click();
  // The clipboard write is asynchronous: the status follows once it resolves.
  await page.waitForFunction(() => document.querySelector('.dlq-share-status').textContent === 'Link copied.');
  await pg.button('Step').click();
  await page.waitForFunction(() => document.querySelector('.dlq-share-status').textContent === '');
  await page.evaluate(() => {
    const jobs = Array.from({ length: 1000 }, (_, i) => ({ id: `job-${i}`, payload: 'x'.repeat(20) }));
    document.querySelector('dlq-playground').controller.load({ maxAttempts: 3, jobs });
  });
  await page.waitForFunction(() => document.querySelector('.dlq-share-status').textContent.startsWith('No link'));
  assert.equal(await pg.button('Copy link').isDisabled(), true);
  await pg.button('a/b example').click();
  await page.waitForFunction(() => !document.querySelector('.dlq-share-status').textContent.startsWith('No link'));
  assert.equal(await pg.button('Copy link').isDisabled(), false);
  assertClean(opened);
  await opened.context.close();
});

test('a preset keeps the previous scenario in the browser history: Back brings it back', async () => {
  const opened = await open();
  const { pg, page } = opened;
  await pg.button('Step').click();
  await pg.button('Step').click();
  await page.waitForFunction(() => location.hash === '#v1;m3;ja:charge%20order%201,b:charge%20order%202;as,s');
  await pg.button('Poison message').click();
  await page.waitForFunction(() => location.hash.includes('poison'));
  assert.deepEqual(await pg.ids('Ready'), ['ok-1', 'poison', 'ok-2', 'ok-3']);
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('section.dlq').dataset.cursor === '2');
  assert.deepEqual(await pg.ids('Completed'), ['a', 'b']);
  assert.equal(await page.getByRole('alert').count(), 0);
  await page.goForward();
  await page.waitForFunction(() => document.querySelector('section.dlq').dataset.step === '0');
  assert.deepEqual(await pg.ids('Ready'), ['ok-1', 'poison', 'ok-2', 'ok-3']);
  assertClean(opened);
  await opened.context.close();
});
