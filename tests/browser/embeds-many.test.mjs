// 200 embeds on one page (issue 20), eager and loading="lazy", the page the page
// benchmark times (scripts/many-embeds.mjs). What is checked here is behaviour, never
// speed: every embed mounts and works, lazy ones out of view wait, and a playground
// that changed while out of view (content-visibility skips drawing it) shows its
// event log followed to the newest line once it is scrolled to.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve } from '../../scripts/serve.mjs';
import { MANY_EMBEDS, writeManyEmbedsSite } from '../../scripts/many-embeds.mjs';
import { start, openPage, playground, assertClean, scrollThrough, ROOT } from './harness.mjs';

let h;
let site;
let server;
let base;
before(async () => {
  h = await start();
  site = writeManyEmbedsSite(path.join(ROOT, 'dist'));
  server = await serve({ dir: site.dir });
  base = `http://127.0.0.1:${server.address().port}/`;
});
after(async () => {
  await h?.close();
  if (server) await new Promise((resolve) => server.close(resolve));
  site?.remove();
});

// A loaded machine mounts 200 playgrounds in tens of seconds: wait long, assert nothing about how long.
const ALL_MOUNTED = 240_000;
const allMounted = (page) => page.waitForFunction(() => [...document.querySelectorAll('dlq-playground')].every((el) => el.controller),
  null, { timeout: ALL_MOUNTED, polling: 500 });

/** 40 jobs, each failing once and then succeeding: far more log lines than the log's height shows. */
const LONG_SCENARIO = {
  maxAttempts: 3,
  jobs: Array.from({ length: 40 }, (_, i) => ({ id: `job-${i}`, payload: `p${i}` })),
  actions: Array.from({ length: 80 }, (_, i) => ({ type: 'process', outcome: i < 40 ? 'transient' : 'success', error: i < 40 ? 'db timeout' : '' })),
};

/** Loads LONG_SCENARIO into embed `id` (out of view), scrolls to it, and returns its log's position then. */
async function followedWhileOutOfView(page, id) {
  const lines = await page.evaluate(({ id, scenario }) => {
    const el = document.getElementById(id);
    el.controller.load(scenario);
    return el.querySelectorAll('.dlq-log-list li').length;
  }, { id, scenario: LONG_SCENARIO });
  await page.waitForTimeout(100);  // its frames pass while it is out of view
  await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  const log = page.locator(`#${id} .dlq-log-scroll`);
  await page.waitForFunction((sc) => sc.scrollHeight > sc.clientHeight && sc.scrollTop + sc.clientHeight >= sc.scrollHeight - 8,
    await log.elementHandle(), { timeout: 8000 });
  return lines;
}

test(`${MANY_EMBEDS} eager embeds on one page: every one mounts and works, the last as well as the first`, async () => {
  const opened = await openPage(h.browser, undefined);
  const { page } = opened;
  await page.goto(`${base}${site.eager}`);
  await allMounted(page);
  const state = await page.evaluate(() => ({
    playgrounds: document.querySelectorAll('section.dlq').length,
    fatal: document.querySelectorAll('.dlq-fatal').length,
    ready: document.documentElement.dataset.ready,
  }));
  assert.deepEqual(state, { playgrounds: MANY_EMBEDS, fatal: 0, ready: 'true' });

  for (const index of [0, MANY_EMBEDS - 1]) {
    const pg = playground(page, index);
    await pg.root.scrollIntoViewIfNeeded();
    assert.equal(await pg.step(), 0);
    await pg.button('Step').click();
    assert.equal(await pg.step(), 1, `playground ${index + 1} steps`);
    assert.match((await pg.logLines()).at(-1), /"a"/, `playground ${index + 1} logs the step`);
  }
  // Changed while out of view, its log follows the newest line once shown.
  await page.evaluate(() => window.scrollTo(0, 0));
  const lines = await followedWhileOutOfView(page, 'embed-150');
  assert.ok(lines > 100, `${lines} log lines`);
  assertClean(opened);
  await opened.context.close();
});

test(`${MANY_EMBEDS} lazy embeds: those out of view wait until the reader scrolls near, then mount and work`, async () => {
  const opened = await openPage(h.browser, undefined);
  const { page } = opened;
  await page.addInitScript(() => {
    document.addEventListener('dlq:interactive', () => {
      window.atInteractive = [...document.querySelectorAll('dlq-playground')].map((el) => ({ mounting: el.mounting, minHeight: el.style.minHeight }));
    }, { once: true });
  });
  await page.goto(`${base}${site.lazy}`);
  await page.waitForSelector('html[data-ready="true"]');
  const atInteractive = await page.evaluate(() => window.atInteractive);
  const mounting = atInteractive.filter((s) => s.mounting).length;
  assert.ok(mounting >= 1 && mounting <= 2, `${mounting} of ${MANY_EMBEDS} began mounting at load: only those in view`);
  assert.equal(atInteractive.at(-1).mounting, false, 'the last waits');
  assert.equal(atInteractive.at(-1).minHeight, '760px', 'and reserves a playground’s height');

  await scrollThrough(page);
  await allMounted(page);
  assert.equal(await page.locator('section.dlq').count(), MANY_EMBEDS);
  assert.equal(await page.locator('.dlq-fatal').count(), 0);
  assert.equal(await page.locator(`#embed-${MANY_EMBEDS}`).evaluate((el) => el.style.minHeight), '', 'drawn, it gives the height back');
  const last = playground(page, MANY_EMBEDS - 1);
  await last.root.scrollIntoViewIfNeeded();
  await last.button('Step').click();
  assert.equal(await last.step(), 1);
  await page.evaluate(() => window.scrollTo(0, 0));
  await followedWhileOutOfView(page, 'embed-120');
  assertClean(opened);
  await opened.context.close();
});
