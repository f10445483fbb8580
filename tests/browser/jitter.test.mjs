// Lesson 2's jitter exercise (idea 22, checked): the goal "spread > 100" is the core's
// (goal.h, RetrySpreadOf: how far apart the retries scheduled at one instant are due).
// Played without jitter the six retries come back at one instant and the box says so,
// unmet; equal jitter keeps them within 100 ms, still unmet; full jitter spreads them
// and the core's ✓ shows. Axe passes on the playground and its box at 1280 and 390 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder, start, openPage, assertClean, screenshotPath, lessonPlayground, runToEnd } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

const box = (page) => page.locator('dlq-exercise[for="l2-jitter"]');
const status = async (page) => (await box(page).locator('.dlq-goal-status').textContent()).trim();
const clause = async (page) => (await box(page).locator('.dlq-goal-clauses li').first().textContent()).trim();

test('lesson 2 #jitter: no jitter and equal jitter leave the spread unmet; full jitter meets it', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-2.html`);
  const { page } = opened;
  const pg = await lessonPlayground(page, 'l2-jitter');
  assert.match(await status(page), /^Not yet/);
  await runToEnd(pg);
  assert.match(await status(page), /^Not yet/, 'lockstep: not met');
  assert.match(await clause(page), /spread = 0: 6 retries scheduled at 50 ms, all due at 250 ms/);

  await pg.button('Reset').click();
  await pg.field('Jitter').selectOption('equal');
  await runToEnd(pg);
  assert.match(await status(page), /^Not yet/, 'equal jitter: within 100 ms');
  const equal = Number((await clause(page)).match(/spread = (\d+)/)[1]);
  assert.ok(equal > 0 && equal <= 100, `equal jitter spreads them, by at most 100 ms (${equal})`);

  await pg.button('Reset').click();
  await pg.field('Jitter').selectOption('full');
  await runToEnd(pg);
  await box(page).locator('.dlq-goal-status').filter({ hasText: '✓ Goal met.' }).waitFor({ timeout: 10_000 });
  const full = Number((await clause(page)).match(/spread = (\d+): 6 retries scheduled at 50 ms, due from \d+ to \d+ ms/)[1]);
  assert.ok(full > 100, `full jitter: ${full} ms`);
  await page.locator('#jitter').scrollIntoViewIfNeeded();
  await box(page).screenshot({ path: screenshotPath('jitter-exercise') });
  assertClean(opened);
  await opened.context.close();
});

test('lesson 2 #jitter: the playground and its exercise pass axe at 1280 and at 390 px', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const opened = await openPage(h.browser, `${h.base}lesson-2.html`, { viewport });
    await lessonPlayground(opened.page, 'l2-jitter');
    const results = await new AxeBuilder({ page: opened.page })
      .include('#l2-jitter').include('dlq-exercise[for="l2-jitter"]').analyze();
    assert.deepEqual(results.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`), [],
      `at ${viewport.width}px`);
    assertClean(opened);
    await opened.context.close();
  }
});
