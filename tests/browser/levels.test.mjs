// Lessons as levels (issue 22):
//   - a solve is kept: its ✓ survives a reload, the lesson map and the home page say
//     "n of m", Reset progress forgets it; the par shown is the core's (lab.goalPar);
//   - a predict question takes the learner's answer before it reveals anything, and says
//     right or wrong with the core's answer (a choice, and a typed job order);
//   - no playground a predict question is about shows any of its future before the answer;
//   - an exercise opens exactly the set-up fields it needs, outside Advanced; a field the core
//     has not is refused by name; the phone's sticky bar carries the outcome picker;
//   - the Worst case card gives its terms beside the actual path; a clock playground's Run
//     starts at a speed that plays an exercise in a few seconds;
//   - (axe over the whole lessons, a predict answered: lessons.test.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadLab } from '../../wasm/index.mjs';
import { start, openPage, assertClean, screenshotPath } from './harness.mjs';

let h;
let lab;
before(async () => { [h, lab] = await Promise.all([start(), loadLab()]); });
after(async () => { await h?.close(); });

const LESSONS = ['lesson-1.html', 'lesson-2.html'];
const PHONE = { width: 390, height: 844 };

/** Locators for the playground inside <dlq-playground id=…>, mounted (scrolled into view first). */
async function embedded(page, id) {
  await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  const root = page.locator(`#${id} section.dlq[data-ready="true"]`);
  await root.waitFor();
  return {
    root,
    button: (name) => root.getByRole('button', { name, exact: true }),
    radio: (name) => root.getByRole('group', { name: 'Outcome' }).getByRole('radio', { name, exact: true }),
    future: () => root.locator('.dlq-ev.is-future, .dlq-span-line.is-future').count(),
  };
}

/** Steps l1-classify's four jobs as an honest worker: Permanent for poison, Success otherwise. */
async function solveClassify(page) {
  const pg = await embedded(page, 'l1-classify');
  for (const outcome of ['Success', 'Permanent failure', 'Success', 'Success']) {
    await pg.radio(outcome).check();
    await pg.button('Step').click();
  }
}

const exerciseBox = (page, id) => page.locator(`dlq-exercise[for="${id}"]`);

test('a solve survives a reload: the ✓, the lesson map and the home page say so, with the core\'s par; Reset forgets it', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`);
  const { page } = opened;
  const total = await page.locator('dlq-exercise').count();
  const map = page.locator('nav.toc');
  await assert.doesNotReject(map.getByText(`0 of ${total} exercises done`).waitFor());
  // The map's levels are the page's sections, in order.
  const sections = await page.locator('main > section > h2[id]').allTextContents();
  assert.deepEqual((await map.locator('.levels-list a').allTextContents()).map((t) => t.trim()), sections.map((t) => t.replace(/\s+/g, ' ').trim()));

  await solveClassify(page);
  const box = exerciseBox(page, 'l1-classify');
  await box.locator('.dlq-goal-status', { hasText: '✓ Goal met.' }).waitFor();
  const goal = await box.getAttribute('goal');
  const par = lab.goalPar(goal, await box.getAttribute('solution'));
  assert.equal(par.actions, 4, 'the core finds Show me meets the goal after four actions');
  assert.match(await box.locator('.dlq-goal-par').textContent(), new RegExp(`Solved in 4 moves; par is ${par.actions} moves.*That is par`));
  await map.getByText(`1 of ${total} exercises done`).waitFor();
  assert.match(await map.locator('li[data-level="kinds"]').textContent(), /✓ 1 exercise done/);

  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  await map.getByText(`1 of ${total} exercises done`).waitFor();
  await embedded(page, 'l1-classify');
  await box.locator('.dlq-goal-status', { hasText: '✓ You met this goal' }).waitFor();
  assert.match(await box.locator('.dlq-goal-par').textContent(), /Solved on an earlier visit\. Solved in 4 moves/);
  assert.ok(await box.evaluate((el) => el.classList.contains('is-met')));

  // The home page counts the lesson's exercises from the lesson page itself.
  await page.goto(`${h.base}index.html`);
  const card = page.locator('.home-cards li', { has: page.locator('a[href="./lesson-1.html"]') });
  await card.getByText(`1 of ${total} exercises done`).waitFor();
  const lesson2 = page.locator('.home-cards li', { has: page.locator('a[href="./lesson-2.html"]') });
  await lesson2.getByText(/^0 of \d+ exercises done/).waitFor();
  await card.getByRole('button', { name: 'Reset progress' }).click();
  await card.getByText(`0 of ${total} exercises done`).waitFor();
  await page.screenshot({ path: screenshotPath('levels-home') });

  await page.goto(`${h.base}lesson-1.html`);
  await page.waitForSelector('html[data-ready="true"]');
  await map.getByText(`0 of ${total} exercises done`).waitFor();
  // The map's own Reset: the lesson starts over, the exercise's playground too.
  await solveClassify(page);
  await map.getByText(`1 of ${total} exercises done`).waitFor();
  await map.getByRole('button', { name: 'Reset progress' }).click();
  await map.getByText(`0 of ${total} exercises done`).waitFor();
  await box.locator('.dlq-goal-status', { hasText: 'Not yet' }).waitFor();
  assert.equal(await box.evaluate((el) => el.classList.contains('is-met')), false);
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  await map.getByText(`0 of ${total} exercises done`).waitFor();
  // Show me's run meets the goal for the learner: said, but not kept.
  await embedded(page, 'l1-count');
  await exerciseBox(page, 'l1-count').getByRole('button', { name: 'Show me' }).click();
  await exerciseBox(page, 'l1-count').locator('.dlq-goal-status', { hasText: 'Show me’s run meets the goal' }).waitFor({ timeout: 10000 });
  assert.equal(await map.getByText(`0 of ${total} exercises done`).count(), 1);
  assertClean(opened);
  await opened.context.close();
});

test('a predict question takes the answer before the reveal and says right or wrong, with the core\'s answer', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`);
  const { page } = opened;
  const predict = page.locator('dlq-predict[for="l1-count"]');
  await predict.scrollIntoViewIfNeeded();
  const why = predict.locator('.predict-why');
  assert.equal(await why.isVisible(), false, 'the why is hidden before an answer');
  await predict.getByRole('button', { name: 'Check my answer' }).click();
  await predict.getByRole('alert').filter({ hasText: 'Pick an answer first' }).waitFor();
  assert.equal(await why.isVisible(), false, 'no answer, no reveal');
  await predict.getByRole('radio', { name: 'Four' }).check();
  await predict.getByRole('button', { name: 'Check my answer' }).click();
  await predict.locator('.predict-result', { hasText: '✗ Not quite. The answer: Three.' }).waitFor();
  assert.ok(await why.isVisible());
  assert.match(await predict.locator('.predict-shows').textContent(), /a is quarantined as exhausted .*with 3 attempts/);
  assert.ok(await predict.getByRole('radio', { name: 'Four' }).isDisabled(), 'the answer is in: it cannot be changed');

  // A job order, typed: a wrong id is refused by name; the right order is the core's run's.
  const tail = page.locator('dlq-predict[for="l1-tail"]');
  await tail.scrollIntoViewIfNeeded();
  const order = tail.getByLabel('Completion order, first to last');
  await order.fill('a, x, b');
  await tail.getByRole('button', { name: 'Check my answer' }).click();
  await tail.getByRole('alert').filter({ hasText: 'There is no job "x" here' }).waitFor();
  assert.equal(await tail.locator('.predict-why').isVisible(), false);
  await order.fill('');
  for (const id of ['b', 'c', 'a']) await tail.getByRole('button', { name: id, exact: true }).click();
  assert.equal(await order.inputValue(), 'b, c, a');
  await tail.getByRole('button', { name: 'Check my answer' }).click();
  await tail.locator('.predict-result', { hasText: '✓ Right. The answer: b, then c, then a.' }).waitFor();
  await tail.screenshot({ path: screenshotPath('levels-predict') });
  assertClean(opened);
  await opened.context.close();
});

test('no playground set up for a prediction shows a future marker before the answer; the answer shows them', async () => {
  for (const lesson of LESSONS) {
    const opened = await openPage(h.browser, `${h.base}${lesson}`);
    const { page } = opened;
    const ids = await page.locator('dlq-predict[for]').evaluateAll((els) => els.map((el) => el.getAttribute('for')));
    assert.ok(ids.length >= 4, `${lesson} has predict questions (${ids.length})`);
    for (const id of ids) {
      const pg = await embedded(page, id);
      assert.equal(await pg.future(), 0, `${lesson} #${id}: no future marker before the answer`);
      assert.equal(await pg.root.locator('[aria-label*="later in the script"]').count(), 0, `${lesson} #${id}: none named either`);
      assert.equal(await pg.root.locator('.dlq-legend-future').isVisible(), false, `${lesson} #${id}: nor in the legend`);
      // Forward plays one action: still nothing of what is to come.
      if (!(await pg.button('Forward').getAttribute('aria-disabled') === 'true')) {
        await pg.button('Forward').click();
        assert.equal(await pg.future(), 0, `${lesson} #${id}: none after Forward either`);
        await pg.button('Back').click();
      }
    }
    if (lesson === 'lesson-1.html') {
      // l1-count's script is ahead of its cursor: answered, its future is drawn again.
      const pg = await embedded(page, 'l1-count');
      const predict = page.locator('dlq-predict[for="l1-count"]');
      await predict.getByRole('radio', { name: 'Three' }).check();
      await predict.getByRole('button', { name: 'Check my answer' }).click();
      await predict.locator('.predict-result', { hasText: '✓ Right.' }).waitFor();
      await page.waitForFunction(() => document.querySelectorAll('#l1-count .dlq-ev.is-future').length > 0);
      assert.ok(await pg.future() > 0);
    }
    assertClean(opened);
    await opened.context.close();
  }
});

test('an exercise opens exactly the set-up fields it needs, outside Advanced; a field the core has not is refused by name', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-2.html`);
  const { page } = opened;
  const pg = await embedded(page, 'l2-outage');
  const box = exerciseBox(page, 'l2-outage');
  const change = box.getByRole('button', { name: /^Change / });
  assert.equal(await change.textContent(), 'Change Max attempts, Base delay (ms)');
  const pinned = pg.root.getByRole('group', { name: 'Set-up for this exercise' });
  assert.equal(await pinned.evaluate((el) => el.closest('details') === null), true, 'outside Advanced');
  await change.click();
  assert.equal(await page.evaluate(() => document.activeElement.id), await pg.root.getByLabel('Max attempts', { exact: true }).getAttribute('id'));
  const base = pinned.getByLabel('Base delay (ms)', { exact: true });
  assert.equal(await base.inputValue(), '250');
  await base.fill('1000');
  await base.press('Tab');
  // Run plays the simulated workers at the clock playground's default speed: a few seconds.
  assert.equal(await pg.root.getByLabel('Speed').inputValue(), '20');
  await pg.button('Run').click();
  await box.locator('.dlq-goal-status', { hasText: '✓ Goal met.' }).waitFor({ timeout: 8000 });
  assert.match(await box.locator('.dlq-goal-par').textContent(), /par is \d+ moves/);
  // Lesson 1's playgrounds step by hand: their default stays slow.
  await page.goto(`${h.base}lesson-1.html`);
  await page.waitForSelector('html[data-ready="true"]');
  assert.equal(await (await embedded(page, 'l1-classify')).root.getByLabel('Speed').inputValue(), '2');
  // A field name the core's tables do not have: the playground says so, by name.
  await page.evaluate(() => {
    const el = document.createElement('dlq-playground');
    el.id = 'bad-fields';
    el.setAttribute('fields', 'backoff.baseMs jiggle');
    document.querySelector('main').append(el);
  });
  await page.locator('#bad-fields [role="alert"]', { hasText: 'fields: expected a list of set-up fields' }).waitFor();
  assert.match(await page.locator('#bad-fields').textContent(), /got "jiggle"/);
  opened.problems.splice(0, opened.problems.length, ...opened.problems.filter((p) => !p.includes('jiggle')));
  assertClean(opened);
  await opened.context.close();
});

test('the Worst case card gives each term and where it comes from, beside the path actually taken', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-2.html`);
  const { page } = opened;
  const pg = await embedded(page, 'l2-bounded');
  const predict = page.locator('dlq-predict[for="l2-bounded"]');
  await predict.locator('.predict-choice').first().click();
  await predict.getByRole('button', { name: 'Check my answer' }).click();
  await predict.locator('.predict-result').filter({ hasText: 'The answer:' }).waitFor();
  await exerciseBox(page, 'l2-bounded').getByRole('button', { name: 'Show me' }).click();
  await exerciseBox(page, 'l2-bounded').locator('.dlq-goal-status', { hasText: 'Show me’s run meets the goal' }).waitFor({ timeout: 8000 });
  const rows = await pg.root.locator('.dlq-worst-terms tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  const w = lab.runScenario(await exerciseBox(page, 'l2-bounded').getAttribute('solution')).worstCase();
  assert.equal(rows.length, 1 + w.delays.length + 1, 'leases, one row per run of delays, the total');
  assert.deepEqual(rows[0], [`3 leases of 1,000 ms (leaseMs; the budget is ${w.attemptsClass}’s)`, '3,000 ms', '3,000 ms (3 attempts)']);
  assert.deepEqual(rows[1], ['Wait after attempt 1 (transient, the policy’s backoff)', '1,000 ms', '1,000 ms']);
  assert.deepEqual(rows[2], ['Wait after attempt 2 (transient, the policy’s backoff)', '2,000 ms', '2,000 ms']);
  assert.deepEqual(rows[3], ['Total', '6,000 ms', '6,000 ms, to quarantine']);
  await pg.root.locator('.dlq-worst').screenshot({ path: screenshotPath('levels-worst-case') });
  assertClean(opened);
  await opened.context.close();
});

test('the phone\'s sticky bar carries the outcome picker', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`, { viewport: PHONE });
  const { page } = opened;
  const pg = await embedded(page, 'l1-classify');
  const bar = pg.root.locator('.dlq-bar');
  assert.ok(await bar.isVisible());
  await bar.locator('select.dlq-bar-outcome').selectOption('permanent');
  assert.ok(await pg.radio('Permanent failure').isChecked(), 'the panel follows the bar');
  await pg.radio('Transient failure').check();
  assert.equal(await bar.locator('select.dlq-bar-outcome').inputValue(), 'transient', 'the bar follows the panel');
  await bar.locator('select.dlq-bar-outcome').selectOption('success');
  await bar.getByText('Step', { exact: true }).click();
  assert.match(await pg.root.locator('.dlq-why-text').textContent(), /succeeded|completed/);
  assertClean(opened);
  await opened.context.close();
});

// Axe over each whole lesson page, every playground mounted and a predict answered (the map,
// the predicts and the pinned fields drawn), is lessons.test.mjs's, at 1280 and 320 px: one
// full-page run per lesson and width (a run over lesson 2's 29,000 nodes costs about a minute of
// CPU here, most of it the contrast rule).
