// The playground driven like a learner would: clicks and keys, checking the DOM
// (state regions, timeline, event log, Why line, URL) after every step.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { start, openPage, playground, FIXTURES, assertClean } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

const AB_LINK = readFileSync(path.join(FIXTURES, 'v1-ab-example.link'), 'utf8').trim();
const AB_TIMELINE = readFileSync(path.join(FIXTURES, 'v1-ab-example.timeline.txt'), 'utf8').trimEnd().split('\n');

/** Opens a page and returns its first playground plus the problem collectors. */
async function open(url = 'playground.html', options) {
  const opened = await openPage(h.browser, h.base + url, options);
  return { ...opened, pg: playground(opened.page) };
}


/** Empties the default scenario by removing its jobs, through the UI. */
async function clearJobs(pg) {
  for (const id of await pg.ids('Ready')) await pg.button(`Remove ${id}`).click();
  assert.deepEqual(await pg.ids('Ready'), []);
}

async function addJob(pg, id, payload) {
  await pg.field('Job id').fill(id);
  await pg.field('Payload').fill(payload);
  await pg.button('Add job').click();
}

async function stepWith(pg, outcome, error = '') {
  await pg.radio(outcome).check();
  if (outcome !== 'Success') await pg.field('Error text').fill(error);
  await pg.button('Step').click();
}

test('the a/b example, built and played through clicks, checked after each step', async () => {
  const opened = await open();
  const { page, pg } = opened;
  // The clean default scenario: a and b ready, nothing run.
  assert.deepEqual(await pg.ids('Ready'), ['a', 'b']);
  await clearJobs(pg);
  await pg.field('Max attempts').fill('3');
  await pg.field('Max attempts').press('Tab');
  await addJob(pg, 'a', 'charge order 1');
  await addJob(pg, 'b', 'charge order 2');
  assert.deepEqual(await pg.ids('Ready'), ['a', 'b']);
  assert.deepEqual(await pg.badges('Ready'), ['0/3 tried', '0/3 tried']);
  assert.equal(await pg.step(), 0);

  // Step 1: a fails transiently and goes to the tail, so b is next.
  await stepWith(pg, 'Transient failure', 'db timeout');
  assert.deepEqual(await pg.ids('Ready'), ['b', 'a']);
  assert.deepEqual(await pg.badges('Ready'), ['0/3 tried', '1/3 tried']);
  assert.equal(await pg.why(), 'attempt 1 of 3 failed transiently: 2 attempts left → requeue at the tail');
  assert.deepEqual(await pg.logLines(), AB_TIMELINE.slice(0, 4));
  assert.equal(await pg.region('Timeline').locator('.dlq-ev.g-transient').count(), 1);
  assert.equal(await pg.region('Timeline').locator('.dlq-ev.g-requeued').count(), 1);

  // Step 2: b succeeds.
  await stepWith(pg, 'Success');
  assert.deepEqual(await pg.ids('Ready'), ['a']);
  assert.deepEqual(await pg.ids('Completed'), ['b']);
  assert.equal(await pg.why(), 'attempt 1 of 3 succeeded → completed');
  assert.deepEqual(await pg.logLines(), AB_TIMELINE.slice(0, 6));

  // Step 3: a succeeds on its second attempt.
  await stepWith(pg, 'Success');
  assert.deepEqual(await pg.ids('Ready'), []);
  assert.deepEqual(await pg.ids('Completed'), ['b', 'a']);
  assert.deepEqual(await pg.badges('Completed'), ['1 attempt', '2 attempts']);
  assert.equal(await pg.why(), 'attempt 2 of 3 succeeded → completed');
  assert.deepEqual(await pg.logLines(), AB_TIMELINE);
  assert.equal(await pg.step(), 3);

  // A fourth Step finds nothing ready: a notice, and no action recorded.
  await pg.button('Step').click();
  assert.match(await pg.why(), /Nothing is ready/);
  assert.equal(await pg.step(), 3);

  // The URL fragment holds exactly the fixture's link (formatted by the core).
  await page.waitForFunction((link) => decodeURIComponent(location.hash) === decodeURIComponent(`#${link}`), AB_LINK);
  assert.ok(AB_LINK.length < 200);
  assertClean(opened);
  await opened.context.close();
});

test('Add job refuses a duplicate or empty id with the core message and changes nothing', async () => {
  const opened = await open();
  const { pg } = opened;
  const alert = pg.region('Set-up').getByRole('alert');
  await addJob(pg, 'a', 'again');
  await alert.waitFor();
  assert.match(await alert.textContent(), /id "a" was already given to this queue; ids must be unique/);
  assert.equal(await pg.field('Job id').getAttribute('aria-invalid'), 'true');
  assert.deepEqual(await pg.ids('Ready'), ['a', 'b']);
  assert.equal(await pg.field('Job id').inputValue(), 'a', 'the typed id is kept for fixing');

  await addJob(pg, '', 'no id');
  assert.match(await alert.textContent(), /id must be a non-empty string/);
  assert.deepEqual(await pg.ids('Ready'), ['a', 'b']);

  await addJob(pg, 'c', 'fine');
  assert.equal(await alert.count(), 0, 'the alert goes away once the input is accepted');
  assert.deepEqual(await pg.ids('Ready'), ['a', 'b', 'c']);

  // Max attempts out of range: the core's message, the budget unchanged.
  await pg.field('Max attempts').fill('0');
  await pg.field('Max attempts').press('Tab');
  const maxAlert = pg.region('Set-up').getByRole('alert');
  await maxAlert.waitFor();
  assert.match(await maxAlert.textContent(), /maxAttempts must be an integer from 1 to 1000000, got 0/);
  assert.deepEqual(await pg.badges('Ready'), ['0/3 tried', '0/3 tried', '0/3 tried']);
  assertClean(opened);
  await opened.context.close();
});

test('exact budget: the third transient failure of three quarantines, not the second', async () => {
  const opened = await open();
  const { pg } = opened;
  await clearJobs(pg);
  await addJob(pg, 'x', 'resize image');
  await stepWith(pg, 'Transient failure', 'disk full');
  await stepWith(pg, 'Transient failure', 'disk full');
  assert.deepEqual(await pg.ids('Ready'), ['x']);
  assert.deepEqual(await pg.badges('Ready'), ['2/3 tried']);
  assert.deepEqual(await pg.ids('Quarantine'), []);
  assert.equal(await pg.why(), 'attempt 2 of 3 failed transiently: 1 attempt left → requeue at the tail');

  await stepWith(pg, 'Transient failure', 'disk full (still)');
  assert.deepEqual(await pg.ids('Ready'), []);
  assert.deepEqual(await pg.ids('Quarantine'), ['x']);
  const entry = pg.region('Quarantine').locator('li', { hasText: 'x' });
  assert.equal(await entry.locator('.dlq-attempts').textContent(), '3');
  assert.equal(await entry.locator('.dlq-reason').textContent(), 'exhausted');
  assert.equal(await entry.locator('.dlq-error').textContent(), 'disk full (still)');
  assert.equal(await entry.locator('.dlq-payload').textContent(), 'resize image');
  assert.equal(await pg.why(), 'attempt 3 of 3 failed transiently: budget used up → quarantine');
  assert.equal(await pg.region('Timeline').locator('.dlq-ev.g-quarantined').count(), 1);

  // Hovering the quarantining attempt shows the core's sentence for it.
  await pg.region('Timeline').locator('.dlq-ev.g-transient').nth(2).hover();
  const tip = pg.region('Timeline').getByRole('tooltip');
  await tip.waitFor();
  assert.match(await tip.textContent(), /attempt 3 of 3 failed transiently: budget used up → quarantine/);
  assertClean(opened);
  await opened.context.close();
});

test('a permanent failure quarantines at once, then Replay brings the job back with a fresh budget', async () => {
  const opened = await open();
  const { pg } = opened;
  await stepWith(pg, 'Permanent failure', 'schema mismatch');
  assert.deepEqual(await pg.ids('Quarantine'), ['a']);
  assert.deepEqual(await pg.ids('Ready'), ['b']);
  const entry = pg.region('Quarantine').locator('li');
  assert.equal(await entry.locator('.dlq-reason').textContent(), 'permanent');
  assert.equal(await entry.locator('.dlq-attempts').textContent(), '1');
  assert.equal(await entry.locator('.dlq-error').textContent(), 'schema mismatch');
  assert.equal(await pg.why(), 'attempt 1 of 3 failed permanently: retrying cannot help → quarantine at once (2 attempts unused)');

  await pg.button('Replay a').click();
  assert.deepEqual(await pg.ids('Quarantine'), []);
  assert.deepEqual(await pg.ids('Ready'), ['b', 'a']);
  assert.deepEqual(await pg.badges('Ready'), ['0/3 tried', '0/3 tried']);
  assert.equal(await pg.why(), 'an operator replayed "a": attempts reset from 1 to 0, appended at the ready tail');
  assert.equal(await pg.region('Timeline').locator('.dlq-ev.g-replayed').count(), 1);
  assert.equal(await pg.step(), 2, 'a replay is a step');

  await stepWith(pg, 'Success');
  await stepWith(pg, 'Success');
  assert.deepEqual(await pg.ids('Completed'), ['b', 'a']);
  assert.deepEqual(await pg.badges('Completed'), ['1 attempt', '1 attempt']);
  assertClean(opened);
  await opened.context.close();
});

test('Back and Forward travel in time; a Step after Back replaces the redo tail; clicking an event jumps there', async () => {
  const opened = await open();
  const { pg } = opened;
  await stepWith(pg, 'Transient failure', 'db timeout');
  await stepWith(pg, 'Success');
  await stepWith(pg, 'Success');
  const end = await pg.snapshot();

  await pg.button('Back').click();
  assert.equal(await pg.step(), 2);
  assert.deepEqual(await pg.ids('Ready'), ['a']);
  assert.deepEqual(await pg.logLines(), AB_TIMELINE.slice(0, 6));
  assert.equal(await pg.region('Timeline').locator('.dlq-ev').count(), 8, 'the redo tail stays on the timeline');
  assert.equal(await pg.region('Timeline').locator('.dlq-ev.is-future').count(), 2);
  await pg.button('Back').click();
  await pg.button('Back').click();
  assert.equal(await pg.step(), 0);
  assert.deepEqual(await pg.ids('Ready'), ['a', 'b']);
  assert.equal(await pg.button('Back').getAttribute('aria-disabled'), 'true');
  await pg.button('Back').dispatchEvent('click'); // aria-disabled: nothing before step 0
  assert.equal(await pg.cursor(), 0);

  await pg.button('Forward').click();
  assert.deepEqual(await pg.ids('Ready'), ['b', 'a']);
  await pg.button('Forward').click();
  await pg.button('Forward').click();
  assert.deepEqual(await pg.snapshot(), end, 'Forward redoes exactly');
  assert.equal(await pg.button('Forward').getAttribute('aria-disabled'), 'true');

  // Clicking the event at step 1 moves the page to step 1.
  await pg.region('Timeline').locator('.dlq-ev.g-transient').click();
  assert.equal(await pg.step(), 1);
  assert.deepEqual(await pg.ids('Ready'), ['b', 'a']);
  assert.equal(await pg.why(), 'attempt 1 of 3 failed transiently: 2 attempts left → requeue at the tail');

  // A different Step here drops the old future.
  await stepWith(pg, 'Permanent failure', 'bad card');
  assert.equal(await pg.region('Timeline').locator('.dlq-ev.is-future').count(), 0);
  assert.deepEqual(await pg.ids('Quarantine'), ['b']);
  assert.equal(await pg.button('Forward').getAttribute('aria-disabled'), 'true');
  assert.equal((await pg.logLines()).length, 6);

  // Reset goes to step 0 and keeps the script for Forward / Run.
  await pg.button('Reset').click();
  assert.equal(await pg.step(), 0);
  assert.equal(await pg.region('Timeline').locator('.dlq-ev.is-future').count(), 4);
  assertClean(opened);
  await opened.context.close();
});

test('the shared URL opened in a fresh browser context gives the same state (cursor included)', async () => {
  const opened = await open('playground.html', { context: { permissions: ['clipboard-read', 'clipboard-write'] } });
  const { page, pg } = opened;
  await pg.button('Replay after a fix').click();
  for (let i = 0; i < 4; i++) await pg.button('Forward').click();
  await stepWith(pg, 'Transient failure', 'still no tax table');
  await pg.button('Back').click();
  const state = await pg.snapshot();
  assert.equal(state.cursor, 4);
  assert.equal(state.future > 0, true);

  await pg.button('Copy link').click();
  await pg.root.getByRole('status').filter({ hasText: 'Link copied.' }).waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, page.url());
  assert.match(new URL(copied).hash, /^#v1;/);

  const fresh = await openPage(h.browser, copied);
  const again = playground(fresh.page);
  assert.deepEqual(await again.snapshot(), state);
  assert.equal(fresh.page.url(), copied, 'the reopened page keeps the same link');
  assert.equal(await fresh.page.getByRole('alert').count(), 0);
  assertClean(fresh);
  assertClean(opened);
  await fresh.context.close();
  await opened.context.close();
});

test('XSS: an id, payload and error of <img src=x onerror=alert(1)> render as text everywhere', async () => {
  const xss = '<img src=x onerror=alert(1)>';
  const opened = await open();
  const { page, pg } = opened;
  await clearJobs(pg);
  await addJob(pg, xss, xss);
  assert.deepEqual(await pg.ids('Ready'), [xss]);
  assert.equal(await pg.region('Ready').locator('.dlq-payload').textContent(), xss);
  await stepWith(pg, 'Permanent failure', xss);
  assert.deepEqual(await pg.ids('Quarantine'), [xss]);
  const entry = pg.region('Quarantine').locator('li');
  assert.equal(await entry.locator('.dlq-error').textContent(), xss);
  assert.ok(await pg.button(`Replay ${xss}`).isVisible());
  assert.ok((await pg.logLines()).some((line) => line.includes(`"${xss}"`)));

  await pg.region('Timeline').locator('.dlq-ev.g-enqueued').hover();
  const tip = pg.region('Timeline').getByRole('tooltip');
  await tip.waitFor();
  assert.ok((await tip.textContent()).includes(xss));
  assert.equal(await pg.region('Timeline').locator('.dlq-tl-labels li').first().textContent(), xss);

  assert.equal(await page.locator('section.dlq img').count(), 0, 'no element was created from the text');
  await page.waitForFunction(() => location.hash.includes(';ap:'), null, { timeout: 5000 }); // the Step's link is written
  const fresh = await openPage(h.browser, page.url());
  const again = playground(fresh.page);
  assert.deepEqual(await again.ids('Quarantine'), [xss]);
  assert.equal(await again.region('Quarantine').locator('.dlq-error').textContent(), xss);
  await fresh.page.waitForTimeout(100);
  assert.equal(await fresh.page.locator('img').count(), 0);
  assertClean(fresh);
  assertClean(opened);
  await fresh.context.close();
  await opened.context.close();
});

test('keyboard: 1/2/3, S, B, F, Space, R, presets and the ? help table', async () => {
  const opened = await open();
  const { page, pg } = opened;
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('2');
  assert.equal(await pg.radio('Transient failure').isChecked(), true);
  await page.keyboard.press('s');
  assert.equal(await pg.step(), 1);
  assert.deepEqual(await pg.ids('Ready'), ['b', 'a']);
  await page.keyboard.press('1');
  assert.equal(await pg.radio('Success').isChecked(), true);
  await page.keyboard.press('s');
  assert.deepEqual(await pg.ids('Completed'), ['b']);
  await page.keyboard.press('b');
  assert.equal(await pg.step(), 1);
  await page.keyboard.press('f');
  assert.equal(await pg.step(), 2);
  await page.keyboard.press('3');
  assert.equal(await pg.radio('Permanent failure').isChecked(), true);

  // Typing in a field is never a shortcut.
  await pg.field('Job id').fill('');
  await pg.field('Job id').type('sbf');
  assert.equal(await pg.step(), 2);
  assert.equal(await pg.field('Job id').inputValue(), 'sbf');

  // Presets by one key; Space runs the script and pauses it.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('p');
  assert.deepEqual(await pg.ids('Ready'), ['ok-1', 'poison', 'ok-2', 'ok-3']);
  await pg.field('Speed').selectOption('20');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press(' ');
  assert.ok(await pg.button('Pause').isVisible(), 'Run turns into Pause');
  await page.waitForFunction(() => document.querySelector('section.dlq').dataset.cursor === '4');
  await pg.button('Run').waitFor(); // the script is played and nothing is ready: Run stops by itself
  assert.deepEqual(await pg.ids('Ready'), []);
  // The end of a run keeps the last explanation on show and says why it stopped beside Run.
  assert.match(await pg.why(), /attempt 1 of 3 succeeded → completed/);
  assert.equal((await pg.root.locator('.dlq-run-status').textContent()).trim(), 'Run ended: nothing is ready.');
  // Past the end of the script, Run steps with the chosen outcome.
  await addJob(pg, 'late', 'extra');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('1');
  await page.keyboard.press(' ');
  await page.waitForFunction(() => document.querySelector('section.dlq').dataset.cursor === '6');
  await pg.button('Run').waitFor();
  assert.deepEqual(await pg.ids('Completed'), ['ok-1', 'ok-2', 'ok-3', 'late']);
  await page.keyboard.press('r');
  assert.equal(await pg.step(), 0);
  await page.keyboard.press(' ');
  await pg.button('Pause').waitFor();
  await page.keyboard.press(' ');
  await pg.button('Run').waitFor();

  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await help.waitFor();
  const rows = await help.locator('tbody tr').allTextContents();
  for (const key of ['S', 'B', 'F', 'Space', '1', '2', '3', '?']) assert.ok(rows.some((r) => r.startsWith(key)), `help lists ${key}`);
  const paused = await pg.step();  // the run above may have taken a step before its pause
  await page.keyboard.press('s');
  assert.equal(await pg.step(), paused, 'shortcuts are off while the help is open');
  await page.keyboard.press('Escape');
  await help.waitFor({ state: 'hidden' });

  // The timeline is keyboard-operable: arrows move between events, Enter goes there.
  await pg.button('Forward').click();
  await pg.button('Forward').click();
  const first = pg.region('Timeline').locator('.dlq-ev[tabindex="0"]');
  await first.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight'); // #5: attempt at step 1
  await pg.region('Timeline').getByRole('tooltip').waitFor();
  await page.keyboard.press('Enter');
  assert.equal(await pg.step(), 1);
  assertClean(opened);
  await opened.context.close();
});
