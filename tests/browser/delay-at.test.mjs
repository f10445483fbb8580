// Lesson 2's #delay-at exercise (idea 23, checked): where a retry's delay lives is
// one set-up field, delayAt, opened outside Advanced. Played by one worker, the
// broker's delay and the retry queue leave b completing first (goal "order a, b"
// unmet); only a sleeping consumer makes b wait for a, and the core's ✓ shows. Under
// retry-queue the Delayed panel and the legend name orders.retry. Axe passes at
// 1280 and 390 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder, start, openPage, assertClean, screenshotPath, lessonPlayground, runToEnd } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

const box = (page) => page.locator('dlq-exercise[for="l2-delay-at"]');
const status = async (page) => (await box(page).locator('.dlq-goal-status').textContent()).trim();
const completedIds = async (pg) => pg.root.locator('.dlq-completed .dlq-list > li').evaluateAll(
  (items) => items.map((li) => li.dataset.id));

test('lesson 2 #delay-at: the broker and the retry queue leave b first; a sleeping consumer meets "order a, b"', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-2.html`);
  const { page } = opened;
  const pg = await lessonPlayground(page, 'l2-delay-at');
  assert.match(await status(page), /^Not yet/);
  await runToEnd(pg);
  assert.deepEqual(await completedIds(pg), ['b', 'a'], 'broker: the free worker takes b while a waits');
  assert.match(await status(page), /^Not yet/);

  await pg.button('Reset').click();
  await pg.field('Delay lives in').selectOption('retry-queue');
  await pg.field('Speed').selectOption('20');
  // Forward until a waits: the Delayed panel, the legend and the explanation name the retry queue.
  const delayedHeading = pg.root.locator('.dlq-delayed .dlq-panel-head [id]');
  const waiting = pg.root.locator('.dlq-delayed .dlq-list > li');
  for (let i = 0; i < 20 && await waiting.count() === 0; i++) await pg.button('Forward').click();
  assert.deepEqual(await waiting.evaluateAll((items) => items.map((li) => li.dataset.id)), ['a']);
  assert.equal((await delayedHeading.textContent()).trim(), 'Delayed in orders.retry');
  assert.match(await pg.root.locator('.dlq-why').textContent(), /orders\.retry/);
  assert.match(await pg.root.locator('.dlq-legend li[data-span="delay"]').textContent(), /in orders\.retry until due/);
  await page.locator('#delay-at').scrollIntoViewIfNeeded();
  await pg.root.screenshot({ path: screenshotPath('delay-at-retry-queue') });
  await runToEnd(pg);
  assert.deepEqual(await completedIds(pg), ['b', 'a'], 'retry queue: the worker acked a and is free');
  assert.match(await status(page), /^Not yet/);

  await pg.button('Reset').click();
  await pg.field('Delay lives in').selectOption('consumer-sleep');
  await runToEnd(pg);
  assert.deepEqual(await completedIds(pg), ['a', 'b'], 'consumer sleep: b waits for the sleeping worker');
  await box(page).locator('.dlq-goal-status').filter({ hasText: '✓ Goal met.' }).waitFor({ timeout: 10_000 });
  await box(page).screenshot({ path: screenshotPath('delay-at-exercise') });
  assertClean(opened);
  await opened.context.close();
});

test('lesson 2 #delay-at: the playground and its exercise pass axe at 1280 and at 390 px', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const opened = await openPage(h.browser, `${h.base}lesson-2.html`, { viewport });
    await lessonPlayground(opened.page, 'l2-delay-at');
    const results = await new AxeBuilder({ page: opened.page })
      .include('#l2-delay-at').include('dlq-exercise[for="l2-delay-at"]').analyze();
    assert.deepEqual(results.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`), [],
      `at ${viewport.width}px`);
    assertClean(opened);
    await opened.context.close();
  }
});
