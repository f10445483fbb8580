// The discarded terminal on the page: under rabbitmq-quorum with no dead-letter
// exchange (;rqn) a dead letter leaves no quarantine card; the playground lists it
// under Dropped (from the view's discarded, the core's) and the timeline draws a
// 'discarded' mark with its own legend entry. Any other policy shows no Dropped list.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder, start, openPage, playground, screenshotPath, assertClean } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

const NO_DLX = 'v2;m2;s1;rqn;ja:order a,b:order b;ap,s';

test('with no dead-letter exchange the rejected job is listed under Dropped, not Quarantine, with its own timeline mark', async () => {
  const o = await openPage(h.browser, `${h.base}playground.html#${NO_DLX}`);
  const pg = playground(o.page);
  const dropped = pg.region('Dropped');
  const card = dropped.getByRole('listitem').first();
  await card.waitFor();
  assert.equal(await card.getAttribute('data-id'), 'a');
  assert.match(await card.textContent(), /rejected/);
  assert.match(await card.textContent(), /attempts\s*1/);
  assert.equal(await pg.region('Quarantine').getByRole('listitem').count(), 0);
  const legend = pg.region('Timeline').getByRole('list', { name: 'Legend' });
  assert.equal(await legend.locator('li[data-kind="discarded"]').isVisible(), true);
  assert.equal(await o.page.locator('.dlq-glyph.g-discarded').count() > 0, true);
  const axe = await new AxeBuilder({ page: o.page }).include('.dlq-dropped').analyze();
  assert.deepEqual(axe.violations.map((v) => v.id), []);
  await o.page.locator('.dlq-state-views').screenshot({ path: screenshotPath('playground-dropped') });
  assertClean(o);
  await o.context.close();

  const withDlx = await openPage(h.browser, `${h.base}playground.html#${NO_DLX.replace(';rqn', ';rq')}`);
  const q = playground(withDlx.page).region('Quarantine').getByRole('listitem').first();
  await q.waitFor();
  assert.equal(await withDlx.page.locator('.dlq-dropped').isVisible(), false);
  assertClean(withDlx);
  await withDlx.context.close();
});

test('lesson 2 #real-dlx: rejecting a with no dead-letter exchange drops it; the exercise checks it and nothing is in Quarantine', async () => {
  const o = await openPage(h.browser, `${h.base}lesson-2.html#real-dlx`);
  const { page } = o;
  await page.locator('#l2-dlx').scrollIntoViewIfNeeded();
  const root = page.locator('#l2-dlx section.dlq[data-ready="true"]');
  await root.waitFor();
  const box = page.locator('dlq-exercise[for="l2-dlx"]');
  assert.equal(await box.locator('.dlq-goal-status', { hasText: '✓ Goal met.' }).count(), 0);
  for (const outcome of ['Permanent failure', 'Success']) {
    await root.getByRole('group', { name: 'Outcome' }).getByRole('radio', { name: outcome, exact: true }).check();
    await root.getByRole('button', { name: 'Step', exact: true }).click();
  }
  await box.locator('.dlq-goal-status', { hasText: '✓ Goal met.' }).waitFor();
  const pg = playground(page, await page.locator('section.dlq').evaluateAll((all) => all.findIndex((s) => s.closest('#l2-dlx'))));
  assert.deepEqual(await pg.ids('Dropped'), ['a']);
  assert.deepEqual(await pg.ids('Quarantine'), []);
  await page.locator('#real-dlx').scrollIntoViewIfNeeded();
  const shot = screenshotPath('lesson-2-real-dlx');
  await page.locator('#l2-dlx').screenshot({ path: shot });
  assertClean(o);
  await o.context.close();
});
