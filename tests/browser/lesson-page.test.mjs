// The lesson pages say what the run says, and take the learner's own moves (issue
// "Every number adds up"):
//   - a predict question withholds every card that answers it (the playground's
//     foretelling cards, the Try it box's clauses) until the answer is in, and the
//     answer is kept with the progress across a reload; Reset progress asks again;
//   - tampered progress in storage is discarded, and the exercise still works;
//   - the phone's bar has Next event on a clock playground, and Step says what to press;
//   - par and the move count count the learner's moves, not the simulated workers';
//   - a run that ends with a crash's aftermath at one instant is drawn whole;
//   - every page has a skip link, shown on focus; headings never skip a level;
//     Reset and Discard my changes differ in look and in words.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, assertClean, screenshotPath, lessonPlayground } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

const PHONE = { width: 390, height: 844 };
const PAGES = ['index.html', 'lesson-1.html', 'lesson-2.html', 'playground.html', 'storm.html', 'compare.html', 'embed.html'];
/** A fresh page at `name`, ready: its playgrounds drawn (the home page has none, and no data-ready). */
async function openAny(name) {
  const opened = await openPage(h.browser, null);
  await opened.page.goto(`${h.base}${name}`);
  if (name !== 'index.html') await opened.page.waitForSelector('html[data-ready="true"]');
  return opened;
}
const predictOf = (page, id) => page.locator(`dlq-predict[for="${id}"]`);
const exerciseOf = (page, id) => page.locator(`dlq-exercise[for="${id}"]`);

async function answer(page, id, choice) {
  const predict = predictOf(page, id);
  await predict.scrollIntoViewIfNeeded();
  await predict.locator('.predict-choice').nth(choice).click();
  await predict.getByRole('button', { name: 'Check my answer' }).click();
  await predict.locator('.predict-result').filter({ hasText: 'The answer:' }).waitFor();
}

test('a prediction withholds every card that answers it until the answer is in, and the answer survives a reload', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-2.html`);
  const { page } = opened;
  // Every predict question's playground: no foretelling card, no goal clauses, before the answer.
  const ids = await page.locator('dlq-predict[for]').evaluateAll((els) => els.map((el) => el.getAttribute('for')));
  for (const id of ids) {
    const pg = await lessonPlayground(page, id);
    assert.equal(await pg.root.locator('.dlq-sched, .dlq-worst').evaluateAll((els) => els.filter((e) => !e.hidden).length), 0,
      `#${id}: no Retry schedule or Worst case card before the answer`);
    for (const box of await exerciseOf(page, id).all()) {
      assert.equal(await box.locator('.dlq-goal-detail').isHidden(), true, `#${id}: the goal's clauses are withheld`);
    }
  }
  // Level 1: the card would print "(quarantine)" and the time; the exercise's clauses "now = 1100".
  const backoff = await lessonPlayground(page, 'l2-backoff');
  assert.equal(await backoff.root.getByText('(quarantine)').count(), 0);
  assert.equal(await backoff.root.getByRole('heading', { name: 'Retry schedule' }).count(), 0, 'not in the accessibility tree either');
  assert.equal(await exerciseOf(page, 'l2-backoff').getByText('now = 1100').isVisible(), false);
  assert.equal(await exerciseOf(page, 'l2-backoff').locator('.dlq-goal-status').textContent(),
    'Not yet. What the page checks shows once the prediction above is answered.');
  await predictOf(page, 'l2-backoff').screenshot({ path: screenshotPath('lesson-predict-withheld') });
  await answer(page, 'l2-backoff', 0);  // wrong on purpose: 700 ms
  await backoff.root.locator('.dlq-sched').waitFor();
  assert.match(await backoff.root.locator('.dlq-sched').textContent(), /\(quarantine\)/);
  assert.equal(await exerciseOf(page, 'l2-backoff').locator('.dlq-goal-detail').isVisible(), true);
  assert.equal(await exerciseOf(page, 'l2-backoff').locator('.dlq-goal-status').textContent(), 'Not yet: the parts below show what holds now.');
  // Level 4's card answers "how many complete?" with its "No: … quarantined as exhausted": withheld too, until answered.
  const outage = await lessonPlayground(page, 'l2-outage');
  assert.equal(await outage.root.getByText(/quarantined as exhausted/).count(), 0);
  await answer(page, 'l2-outage', 0);
  await outage.root.locator('.dlq-sched').waitFor();
  await outage.root.locator('.dlq-sched').screenshot({ path: screenshotPath('lesson-predict-revealed') });

  // A reload keeps both answers, judged again by the core; the cards are there from the start.
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  const kept = predictOf(page, 'l2-backoff');
  await kept.locator('.predict-result', { hasText: 'Answered on an earlier visit. ✗ Not quite. The answer: At 1,100 ms.' }).waitFor();
  assert.ok(await kept.getByRole('radio', { name: 'At 700 ms' }).isChecked(), 'the learner\'s answer, as given');
  assert.ok(await kept.getByRole('radio', { name: 'At 700 ms' }).isDisabled());
  assert.equal(await kept.getByRole('button', { name: 'Check my answer' }).count(), 0);
  const again = await lessonPlayground(page, 'l2-backoff');
  await again.root.locator('.dlq-sched').waitFor();
  await predictOf(page, 'l2-outage').locator('.predict-result', { hasText: '✓ Right.' }).waitFor();
  // A question not answered yet stays asked.
  assert.equal(await predictOf(page, 'l2-lease').locator('.predict-result').textContent(), '');

  // Reset progress asks every question again: the cards go back into hiding.
  await page.locator('nav.toc').getByRole('button', { name: 'Reset progress' }).click();
  await kept.getByRole('button', { name: 'Check my answer' }).waitFor();
  assert.equal(await kept.getByRole('radio', { name: 'At 700 ms' }).isChecked(), false);
  assert.equal(await again.root.locator('.dlq-sched').isHidden(), true);
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  assert.equal(await predictOf(page, 'l2-backoff').locator('.predict-result').textContent(), '');
  assertClean(opened);
  await opened.context.close();
});

test('tampered progress in storage is discarded: the exercise works and records a solve', async () => {
  const opened = await openPage(h.browser, null);
  const { page } = opened;
  // The tampered record is in storage before the lesson's first script runs (once: a later
  // navigation keeps what the page wrote). No other page is opened first, whose favicon
  // request the navigation would abort.
  await opened.context.addInitScript(() => {
    if (sessionStorage.getItem('seeded')) return;
    sessionStorage.setItem('seeded', '1');
    localStorage.setItem('dlq-lab:progress', JSON.stringify({ v: 1,
      pages: { 'lesson-1': { 'l1-classify': { actions: { toString: 1 } }, 'l1-count': { actions: { valueOf: 'x' }, par: 3 } } },
      answers: { 'lesson-1': { 'l1-count': { toString: 1 } } } }));
  });
  await page.goto(`${h.base}lesson-1.html`);
  await page.waitForSelector('html[data-ready="true"]');
  const total = await page.locator('dlq-exercise').count();
  await page.locator('nav.toc').getByText(`0 of ${total} exercises done`).waitFor();
  const pg = await lessonPlayground(page, 'l1-classify');
  for (const outcome of ['Success', 'Permanent failure', 'Success', 'Success']) {
    await pg.root.getByRole('group', { name: 'Outcome' }).getByRole('radio', { name: outcome, exact: true }).check();
    await pg.button('Step').click();
  }
  const box = exerciseOf(page, 'l1-classify');
  await box.locator('.dlq-goal-status', { hasText: '✓ Goal met.' }).waitFor();
  assert.match(await box.locator('.dlq-goal-par').textContent(), /^Solved in 4 moves/);
  assert.equal(await predictOf(page, 'l1-count').getByRole('button', { name: 'Check my answer' }).count(), 1, 'a damaged answer: asked again');
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('dlq-lab:progress')));
  assert.deepEqual(stored.pages['lesson-1'], { 'l1-classify': { actions: 4, par: 4 } }, 'the damaged records are gone');
  assertClean(opened);
  await opened.context.close();
});

test('the phone\'s bar has Next event on a clock playground, and Step says to press it', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-2.html`, { viewport: PHONE });
  const { page } = opened;
  await answer(page, 'l2-backoff', 1);
  const pg = await lessonPlayground(page, 'l2-backoff');
  const bar = pg.root.locator('.dlq-bar');
  await bar.locator('select.dlq-bar-outcome').selectOption('transient');
  await bar.getByText('Step', { exact: true }).click();
  await bar.getByText('Step', { exact: true }).click();
  await bar.locator('.dlq-bar-text', { hasText: 'Press Next event' }).waitFor();
  assert.match(await pg.root.locator('.dlq-why-text').textContent(), /Nothing is ready to step now\. Press Next event/);
  await bar.scrollIntoViewIfNeeded();
  await bar.screenshot({ path: screenshotPath('lesson-phone-bar-next') });
  await bar.getByText('Next event', { exact: true }).click();
  assert.equal(await pg.root.getAttribute('data-cursor'), '2', 'Next event moved the clock: a second action');
  await bar.getByText('Step', { exact: true }).click();
  assert.equal(await pg.root.getAttribute('data-cursor'), '3', 'and a is ready again');
  // Lesson 1's playgrounds have no clock: no Next event in their bar, and Step's words are as before.
  await page.goto(`${h.base}lesson-1.html`);
  await page.waitForSelector('html[data-ready="true"]');
  const l1 = await lessonPlayground(page, 'l1-classify');
  assert.equal(await l1.root.locator('.dlq-bar').getByText('Next event').isVisible(), false);
  assertClean(opened);
  await opened.context.close();
});

test('par and the move count are the learner\'s own moves: Run\'s simulated workers are not counted', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-2.html`);
  const { page } = opened;
  const pg = await lessonPlayground(page, 'l2-outage');
  const box = exerciseOf(page, 'l2-outage');
  await box.getByRole('button', { name: /^Change / }).click();
  const base = pg.root.getByRole('group', { name: 'Set-up for this exercise' }).getByLabel('Base delay (ms)', { exact: true });
  await base.fill('1000');
  await base.press('Tab');
  await pg.button('Run').click();
  await box.locator('.dlq-goal-status', { hasText: '✓ Goal met.' }).waitFor({ timeout: 8000 });
  assert.equal(await box.locator('.dlq-goal-par').textContent(),
    'Solved in 0 moves; par is 0 moves (Show me changes only the set-up and lets the simulated workers run). That is par.');
  // A playground stepped by hand: every action is the learner's (lesson 2's backoff exercise).
  await answer(page, 'l2-backoff', 1);
  const backoff = await lessonPlayground(page, 'l2-backoff');
  await backoff.root.getByRole('group', { name: 'Outcome' }).getByRole('radio', { name: 'Transient failure', exact: true }).check();
  for (let i = 0; i < 4; i++) {
    await backoff.button('Step').click();
    await backoff.root.getByRole('button', { name: /^Next event/ }).first().click();
  }
  await backoff.button('Step').click();
  const solved = exerciseOf(page, 'l2-backoff');
  await solved.locator('.dlq-goal-status', { hasText: '✓ Goal met.' }).waitFor();
  assert.match(await solved.locator('.dlq-goal-par').textContent(), /^Solved in 9 moves; par is 9 moves .*That is par\./);
  assertClean(opened);
  await opened.context.close();
});

test('a run whose last instant holds many events (a crash at 30 s, then the rest) is drawn whole in the fitted view', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`);
  const { page } = opened;
  const pg = await lessonPlayground(page, 'l1-ledger');
  const boxes = exerciseOf(page, 'l1-ledger');
  await boxes.nth(1).getByRole('button', { name: 'Show me' }).click();
  await boxes.nth(1).locator('.dlq-goal-status', { hasText: 'Show me’s run meets the goal' }).waitFor({ timeout: 15000 });
  const scroll = pg.root.locator('.dlq-tl-scroll');
  const fit = await scroll.evaluate((el) => {
    const view = el.getBoundingClientRect();
    const glyphs = [...el.querySelectorAll('.dlq-ev')].map((g) => g.getBoundingClientRect());
    return { right: view.right, overflow: el.scrollWidth - el.clientWidth, glyphs: glyphs.length,
      past: glyphs.filter((g) => g.right > view.right + 0.5).length };
  });
  assert.ok(fit.glyphs >= 10, `the run's events are drawn (${fit.glyphs})`);
  assert.equal(fit.past, 0, 'no glyph past the right edge of the fitted view');
  assert.ok(fit.overflow <= 0, `the fitted view does not scroll (${fit.overflow}px)`);
  assert.match(await pg.root.locator('.dlq-tl-range').textContent(), /0 – 30 s: the whole scenario/);
  await pg.root.locator('.dlq-timeline').screenshot({ path: screenshotPath('lesson-ledger-crash-timeline') });
  assertClean(opened);
  await opened.context.close();
});

test('every page has a skip link, shown on focus, that moves the focus to the content without touching the link in the address', async () => {
  for (const name of PAGES) {
    const opened = await openAny(name);
    const { page } = opened;
    // The playground page writes its scenario's link into the address after a debounce
    // (url-sync.mjs), and the storm lab when its worker accepts the first run: either can
    // come after data-ready, and the fragment to keep is that one.
    const written = { 'playground.html': '#v', 'storm.html': '#s' }[name];
    if (written) await page.waitForFunction((prefix) => location.hash.startsWith(prefix), written);
    const before = await page.evaluate(() => location.hash);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Skip to content', `${name}: the first Tab`);
    const box = await skip.boundingBox();
    assert.ok(box && box.y >= 0 && box.height > 10, `${name}: visible on focus`);
    if (name === 'lesson-2.html') await page.screenshot({ path: screenshotPath('skip-link-focused'), clip: { x: 0, y: 0, width: 640, height: 120 } });
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement.localName), 'main', `${name}: the focus is in the content`);
    assert.equal(await page.evaluate(() => location.hash), before, `${name}: the fragment is the page's own`);
    await page.keyboard.press('Tab');
    assert.ok(await page.evaluate(() => document.querySelector('main').contains(document.activeElement)), `${name}: the next Tab is inside`);
    assertClean(opened);
    await opened.context.close();
  }
});

test('headings never skip a level on any page, every playground drawn', async () => {
  for (const name of PAGES) {
    const opened = await openAny(name);
    const { page } = opened;
    for (const el of await page.locator('dlq-playground').all()) {
      await el.scrollIntoViewIfNeeded();
      await el.locator('section.dlq[data-ready="true"]').waitFor();
    }
    const skips = await page.evaluate(() => {
      const out = [];
      let prev = 0;
      for (const el of document.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"]')) {
        if (el.closest('[hidden], dialog:not([open]), template') || el.getClientRects().length === 0) continue;
        const level = Number(el.getAttribute('aria-level') ?? el.localName.slice(1));
        if (level > prev + 1) out.push(`h${prev} then h${level} "${el.textContent.trim().slice(0, 60)}"`);
        prev = level;
      }
      return out;
    });
    assert.deepEqual(skips, [], name);
    assertClean(opened);
    await opened.context.close();
  }
});

test('Reset and Discard my changes differ in words and in look', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`);
  const { page } = opened;
  const pg = await lessonPlayground(page, 'l1-classify');
  const reset = pg.button('Reset');
  const discard = pg.button('Discard my changes');
  assert.equal(await pg.root.getByRole('button', { name: /Restore/ }).count(), 0);
  assert.match(await reset.getAttribute('title'), /step 0; your set-up and script stay/);
  const look = (el) => el.evaluate((b) => { const s = getComputedStyle(b); return `${s.backgroundColor} ${s.borderColor} ${s.color} ${s.textDecorationLine}`; });
  assert.notEqual(await look(reset), await look(discard));
  assert.equal(await discard.evaluate((b) => b.closest('.dlq-nav')), null, 'not among the step controls');
  assert.match(await pg.root.locator('.dlq-restore-row').textContent(), /Loads the lesson’s scenario again/);
  await pg.root.locator('.dlq-controls').screenshot({ path: screenshotPath('lesson-reset-and-discard') });
  assertClean(opened);
  await opened.context.close();
});
