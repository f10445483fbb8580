// BullMQ's job.retry() without resetAttemptsMade on the page: under system bullmq a
// quarantine card offers "Retry a without reset" beside Replay (the view says where the
// core accepts it); it keeps the attempts, so a's one more run that fails sends it back
// at once with one attempt more. Under the lab's rules the card offers Replay only.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder, start, openPage, playground, screenshotPath, assertClean } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

const BULLMQ = 'v2;m2;s1;rb;ja:order a;at,t';

test('under bullmq the card retries without a reset: attempts kept, one more run, failed again at once', async () => {
  const o = await openPage(h.browser, `${h.base}playground.html#${BULLMQ}`);
  const { page } = o;
  const pg = playground(page);
  const card = pg.region('Quarantine').getByRole('listitem').first();
  await card.waitFor();
  assert.match(await card.textContent(), /attempts\s*2/);
  const keep = card.getByRole('button', { name: 'Retry a without reset' });
  assert.equal(await keep.isVisible(), true);
  const axe = await new AxeBuilder({ page }).include('.dlq-state-views').analyze();
  assert.deepEqual(axe.violations.map((v) => v.id), []);
  await page.locator('.dlq-state-views').screenshot({ path: screenshotPath('playground-retry-keep') });
  await keep.click();
  await pg.region('Quarantine').getByRole('listitem').first().waitFor({ state: 'detached' });
  assert.deepEqual(await pg.ids('Quarantine'), []);
  const root = page.locator('section.dlq').first();
  await root.getByRole('group', { name: 'Outcome' }).getByRole('radio', { name: 'Transient failure', exact: true }).check();
  await root.getByRole('button', { name: 'Step', exact: true }).click();
  const back = pg.region('Quarantine').getByRole('listitem').first();
  await back.waitFor();
  assert.match(await back.textContent(), /attempts\s*3/);
  assert.match(await back.textContent(), /exhausted/);
  assertClean(o);
  await o.context.close();

  const lab = await openPage(h.browser, `${h.base}playground.html#${BULLMQ.replace(';rb', '')}`);
  const labCard = playground(lab.page).region('Quarantine').getByRole('listitem').first();
  await labCard.waitFor();
  assert.equal(await labCard.getByRole('button', { name: 'Replay a', exact: true }).isVisible(), true);
  assert.equal(await labCard.getByRole('button', { name: 'Retry a without reset' }).count() === 0
    || !(await labCard.getByRole('button', { name: 'Retry a without reset' }).isVisible()), true);
  assertClean(lab);
  await lab.context.close();
});
