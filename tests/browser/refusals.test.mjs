// Refusals: every call from the page into the lab that the API can refuse (an
// Error with a `code`) is said next to its field, changes nothing, never
// becomes an uncaught page error, and pauses a running Run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, playground, screenshotPath, assertClean } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

const TOO_LONG = 'x'.repeat(65537); // one byte over the core's 64 KiB error-text limit
const TOO_LONG_MESSAGE = 'Step not taken: errorText must be at most 65536 bytes, got 65537 bytes.';

async function open(hash = '') {
  const opened = await openPage(h.browser, `${h.base}playground.html${hash}`);
  return { ...opened, pg: playground(opened.page) };
}

/** The Error text field's own alert (the step refusal), or null while hidden. */
const stepAlert = (pg) => pg.root.locator('.dlq-controls [role="alert"]:not([hidden])');

const running = async (pg) => (await pg.button('Pause').count()) === 1;

test('an error text over 64 KiB: Step (button and S key) is refused next to the field; nothing changes', async () => {
  const opened = await open();
  const { page, pg } = opened;
  await page.waitForFunction(() => location.hash.startsWith('#v1;'));
  const hash = await page.evaluate(() => location.hash);
  await pg.radio('Transient failure').check();
  await pg.field('Error text').fill(TOO_LONG);
  const before = await pg.snapshot();

  await pg.button('Step').click();
  const alert = stepAlert(pg);
  await alert.waitFor();
  assert.equal(await alert.textContent(), TOO_LONG_MESSAGE);
  const field = pg.field('Error text');
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  const described = (await field.getAttribute('aria-describedby')).split(' ');
  assert.ok(described.includes(await alert.getAttribute('id')), 'the field points at its alert');
  assert.ok(described.some((id) => id.endsWith('-err-hint')), 'and still at its hint');
  assert.equal(await field.inputValue(), TOO_LONG, 'the text is kept for fixing');
  assert.deepEqual(await pg.snapshot(), before, 'nothing changed');

  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('s');
  assert.equal(await alert.textContent(), TOO_LONG_MESSAGE);
  assert.deepEqual(await pg.snapshot(), before, 'the S key is refused the same way');
  await page.waitForTimeout(200); // past the link debounce
  assert.equal(await page.evaluate(() => location.hash), hash, 'the link did not change');
  await pg.root.locator('.dlq-controls').screenshot({ path: screenshotPath('refusal-error-text') });

  // Mended: the step is taken and the alert goes.
  await field.fill('db timeout');
  await pg.button('Step').click();
  assert.equal(await pg.step(), 1);
  assert.equal(await stepAlert(pg).count(), 0);
  assert.equal(await field.getAttribute('aria-invalid'), null);
  assert.deepEqual((await field.getAttribute('aria-describedby')).split(' ').map((id) => id.replace(/^dlq\d+/, '')), ['-err-hint']);
  assertClean(opened);
  await opened.context.close();
});

test('an error text with a lone surrogate is refused with the API\'s message, not a page error', async () => {
  const opened = await open();
  const { pg } = opened;
  await pg.radio('Permanent failure').check();
  await pg.field('Error text').evaluate((input) => { input.value = 'bad \uD800 text'; });
  const before = await pg.snapshot();
  await pg.button('Step').click();
  await stepAlert(pg).waitFor();
  assert.equal(await stepAlert(pg).textContent(),
    'Step not taken: errorText must be a well-formed string, but it has a lone surrogate at index 4.');
  assert.deepEqual(await pg.snapshot(), before);
  assertClean(opened);
  await opened.context.close();
});

test('Run pauses at a refused step instead of throwing on every tick', async () => {
  const opened = await open('#v1;m3;ja:1,b:2'); // no script: Run steps with the chosen outcome at once
  const { page, pg } = opened;
  await pg.radio('Transient failure').check();
  await pg.field('Error text').fill(TOO_LONG);
  await pg.field('Speed').selectOption('10');
  await pg.button('Run').click();
  await stepAlert(pg).waitFor();
  assert.equal(await stepAlert(pg).textContent(), TOO_LONG_MESSAGE);
  await pg.button('Run').waitFor();
  await page.waitForTimeout(500); // five ticks at 10 steps/s, had it kept running
  assert.equal(await running(pg), false, 'Run is paused');
  assert.equal(await pg.cursor(), 0);
  assert.deepEqual(await pg.ids('Ready'), ['a', 'b']);
  assertClean(opened); // no uncaught error from the interval

  // Editing the text clears its alert. The script part of a run plays; the
  // refusal comes at its end, and pauses there.
  await pg.field('Error text').fill('short');
  assert.equal(await stepAlert(pg).count(), 0, 'editing the text clears its alert');
  await pg.field('Error text').fill(TOO_LONG);
  await pg.button('Flaky dependency').click();
  await pg.radio('Transient failure').check();
  const length = Number((await pg.root.locator('.dlq-position').textContent()).match(/of (\d+)$/)[1]);
  await pg.button('Run').click();
  await stepAlert(pg).waitFor({ timeout: 5000 });
  await pg.button('Run').waitFor();
  assert.equal(await pg.cursor(), length, 'the whole script played before the refused step');
  await page.waitForTimeout(300);
  assert.equal(await pg.cursor(), length);
  assertClean(opened);
  await opened.context.close();
});

/** The scenario's set-up and script (not the cursor, which a run moves). */
const script = (page) => page.evaluate(() => {
  const { jobs, actions } = document.querySelector('dlq-playground').controller.session.scenario;
  return JSON.stringify({ jobs, actions });
});

/** Paused for real: nothing moves for longer than a tick at 1 step/s. */
async function assertPaused(page, pg) {
  assert.equal(await running(pg), false, 'the run paused');
  const at = await pg.cursor();
  await page.waitForTimeout(1200);
  assert.equal(await pg.cursor(), at, 'and stays paused');
}

test('a refused Add job or Max attempts pauses a running Run and changes nothing', async () => {
  const opened = await open();
  const { page, pg } = opened;
  const jobAlert = pg.region('Set-up').getByRole('alert');
  await pg.field('Speed').selectOption('1');
  const before = await script(page);

  // A duplicate id.
  await pg.button('Run').click();
  assert.ok(await running(pg));
  await pg.field('Job id').fill('a');
  await pg.field('Payload').fill('again');
  await pg.button('Add job').click();
  assert.match(await jobAlert.textContent(), /^Could not add the job: id "a" was already given to this queue; ids must be unique/);
  await assertPaused(page, pg);
  assert.equal(await script(page), before, 'no job was added');

  // An id over the core's 1 KiB limit.
  await pg.button('Run').click();
  await pg.field('Job id').fill('y'.repeat(2000));
  await pg.button('Add job').click();
  assert.equal(await jobAlert.textContent(), 'Could not add the job: id must be at most 1024 bytes, got 2000 bytes.');
  await assertPaused(page, pg);
  assert.equal(await script(page), before);

  // An empty Max attempts.
  await pg.button('Run').click();
  await pg.field('Max attempts').fill('');
  await pg.field('Max attempts').press('Tab');
  await page.getByText(/^Max attempts unchanged: the field is empty/).waitFor();
  await assertPaused(page, pg);
  assert.equal(await pg.field('Max attempts').inputValue(), '3');
  assert.equal(await script(page), before);
  assertClean(opened);
  await opened.context.close();
});
