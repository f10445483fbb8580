// The ideas a learner tries by doing (issue 22), solved on the lesson pages by
// clicks: the side-effect ledger (a partial, duplicated charge; then one charge
// with the idempotency key after a crash and a replay), the anti-pattern switches
// (decide before counting gives a fourth attempt; a count in the body loops; dead
// letters routed to the source come back), a lease queue against a partition, a
// redrive by reason, a report the core refuses, and the deep-copy check. Each exercise shows the core's ✓; the ledger's screenshot is
// docs/lessons.md's (docs/ledger.png).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { AxeBuilder, start, openPage, assertClean, ROOT } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

/** The playground inside <dlq-playground id=…>, once drawn. */
async function embedded(page, id) {
  const root = page.locator(`#${id} section.dlq`);
  await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  await page.locator(`#${id} section.dlq[data-ready="true"]`).waitFor();
  const button = (name) => root.getByRole('button', { name, exact: true });
  return {
    root,
    button,
    toggle: (name) => root.getByRole('checkbox', { name, exact: true }),
    async step(outcome, times = 1) {
      for (let i = 0; i < times; i++) {
        await root.getByRole('group', { name: 'Outcome' }).getByRole('radio', { name: outcome, exact: true }).check();
        await button('Step').click();
      }
    },
    async crash() {
      await button('Lease').click();
      await button('Crash worker').click();
    },
  };
}

/** Waits for the core's ✓ on exercise `index` (0-based) of playground `id`. */
async function met(page, id, index = 0) {
  const status = page.locator(`dlq-exercise[for="${id}"]`).nth(index).locator('.dlq-goal-status');
  try {
    await status.filter({ hasText: '✓ Goal met.' }).waitFor({ timeout: 10_000 });
  } catch {
    const clauses = await page.locator(`dlq-exercise[for="${id}"]`).nth(index).locator('.dlq-goal-clauses li').allTextContents();
    throw new Error(`${id} #${index + 1} not met: ${clauses.join(' | ')}`);
  }
}

async function unmet(page, id, index = 0) {
  const text = await page.locator(`dlq-exercise[for="${id}"]`).nth(index).locator('.dlq-goal-status').textContent();
  assert.match(text, /^Not yet/, `${id} #${index + 1} starts unmet`);
}

test('lesson 1: the ledger shows a partial, duplicated charge; the key makes it one charge', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`, { viewport: { width: 1280, height: 900 } });
  const { page } = opened;
  const pg = await embedded(page, 'l1-ledger');
  await unmet(page, 'l1-ledger', 0);
  await unmet(page, 'l1-ledger', 1);
  await pg.step('Transient failure');
  await pg.step('Success');
  await pg.step('Transient failure', 2);
  await met(page, 'l1-ledger', 0);
  const summary = pg.root.locator('.dlq-ledger-summary');
  assert.equal(await summary.textContent(),
    '4 charges applied; 2 duplicates ("a" charged more than once); 1 partial ("a" dead, yet charged).');
  assert.equal(await pg.root.locator('.dlq-ledger-table tbody tr').count(), 4);
  await pg.root.locator('.dlq-ledger').scrollIntoViewIfNeeded();
  await page.locator('#l1-ledger').screenshot({ path: path.join(ROOT, 'docs', 'ledger.png') });

  // The second exercise: the key on, a crash after the charge, a replay: one charge for a.
  await page.locator('dlq-exercise[for="l1-ledger"]').nth(1).getByRole('button', { name: 'Start again' }).click();
  await pg.toggle('Idempotency key').check();
  await pg.crash();
  await pg.step('Success');
  await pg.step('Transient failure', 2);
  await pg.button('Replay a').click();
  await pg.step('Success');
  await met(page, 'l1-ledger', 1);
  assert.match(await summary.textContent(), /^2 charges applied; 3 deduplicated by the idempotency key; no duplicates; no partial effects\.$/);
  assert.equal(await pg.root.locator('.dlq-ledger-table tbody tr.is-deduplicated').count(), 3);
  assertClean(opened);
  await opened.context.close();
});

test('lesson 1: deciding before counting gives a fourth attempt', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`);
  const { page } = opened;
  const pg = await embedded(page, 'l1-count-wrong');
  await pg.step('Transient failure', 3);
  assert.equal(await pg.root.locator('.dlq-quarantine .dlq-list > li').count(), 1, 'off: the third failure quarantines');
  await unmet(page, 'l1-count-wrong');
  await page.locator('dlq-exercise[for="l1-count-wrong"]').getByRole('button', { name: 'Start again' }).click();
  await pg.toggle('Anti-pattern: decide before counting').check();
  await pg.step('Transient failure', 4);
  await met(page, 'l1-count-wrong');
  assertClean(opened);
  await opened.context.close();
});

test('lesson 1: a report the core does not know is refused by name; the next job is untouched; views are copies', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`);
  const { page } = opened;
  const pg = await embedded(page, 'l1-validate');
  await unmet(page, 'l1-validate');
  await pg.root.getByLabel('Outcome, as text').fill('retry-later');
  await pg.button('Send report').click();
  const result = pg.root.locator('.dlq-report-result');
  assert.match(await result.textContent(),
    /^Refused by the core \(1 so far\): outcome must be one of "success", .* got "retry-later"\. Nothing changed\.$/);
  assert.equal(await pg.root.getAttribute('data-step'), '0', 'no attempt counted');
  assert.match(await pg.root.locator('.dlq-ready .dlq-list > li').first().textContent(), /^a/);
  await pg.step('Success');
  await met(page, 'l1-validate');

  // The deep-copy check: edit the head job through a view; the core still holds its payload.
  const check = page.locator('dlq-copy-check[for="l1-validate"]');
  await check.getByLabel('New payload').fill('patched!');
  await check.getByRole('button', { name: 'Edit the head job through a view' }).click();
  assert.equal(await check.getAttribute('data-met'), 'true');
  assert.equal(await check.locator('.dlq-goal-status').textContent(),
    '✓ The queue is unchanged: the view now says "patched!", the core still holds "charge order 2" for "b".');
  assert.match(await pg.root.locator('.dlq-ready .dlq-list > li').first().textContent(), /charge order 2/);
  assertClean(opened);
  await opened.context.close();
});

test('lesson 2: a count in the message body loops; dead letters routed to the source come back', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-2.html`);
  const { page } = opened;
  const body = await embedded(page, 'l2-body');
  await unmet(page, 'l2-body');
  await body.toggle('Anti-pattern: count in the message body').check();
  for (let i = 0; i < 4; i++) await body.crash();
  await met(page, 'l2-body');

  const loop = await embedded(page, 'l2-loop');
  await unmet(page, 'l2-loop');
  await loop.toggle('Anti-pattern: dead letters routed to the source').check();
  await loop.step('Permanent failure');
  await loop.step('Success');
  await met(page, 'l2-loop');
  assert.equal(await loop.root.locator('.dlq-quarantine .dlq-list > li').count(), 0);
  assertClean(opened);
  await opened.context.close();
});

test('lesson 2: a partition stalls behind a waiting head; a lease queue lets the neighbours run', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-2.html`);
  const { page } = opened;
  const pg = await embedded(page, 'l2-partition');
  await unmet(page, 'l2-partition');
  await pg.step('Transient failure');
  await pg.button('Step').click();  // stalled: nothing may run while the head waits
  assert.equal(await pg.root.getAttribute('data-step'), '1');
  await page.locator('dlq-exercise[for="l2-partition"]').getByRole('button', { name: 'Start again' }).click();
  const advanced = pg.root.locator('details.dlq-advanced');
  if (!(await advanced.evaluate((d) => d.open))) await advanced.locator('summary').click();
  await pg.root.getByLabel('Ordering', { exact: true }).selectOption('none');
  await pg.step('Transient failure');
  await pg.step('Success', 2);
  await met(page, 'l2-partition');
  assertClean(opened);
  await opened.context.close();
});

test('lesson 2: redrive by reason brings back only what the outage exhausted', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-2.html`);
  const { page } = opened;
  const pg = await embedded(page, 'l2-redrive');
  await unmet(page, 'l2-redrive');
  for (let i = 0; i < 6; i++) await pg.button('Forward').click();
  assert.equal(await pg.root.locator('.dlq-quarantine .dlq-list > li').count(), 4);
  await pg.root.getByLabel('Redrive up to', { exact: true }).fill('10');
  await pg.root.getByLabel('Entries', { exact: true }).selectOption({ label: 'with reason exhausted' });
  await pg.button('Redrive').click();
  await pg.step('Success', 2);
  await met(page, 'l2-redrive');
  // Nothing of a class that is not there: the core says so, nothing moves.
  await pg.root.getByLabel('Entries', { exact: true }).selectOption({ label: 'of class crash' });
  await pg.button('Redrive').click();
  await pg.root.getByText('No quarantine entry of class crash: nothing to redrive.').first().waitFor();
  assert.equal(await pg.root.locator('.dlq-quarantine .dlq-list > li').count(), 2);
  assertClean(opened);
  await opened.context.close();
});

test('switches= is refused by name for a path the policy table has no boolean for', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`);
  const text = await opened.page.evaluate(async () => {
    const el = document.createElement('dlq-playground');
    el.setAttribute('switches', 'effects.charge maxAttempts');
    document.querySelector('main').append(el);
    try { await el.ready; } catch { /* shown in the element */ }
    return el.textContent;
  });
  assert.match(text, /^The playground could not start: switches: expected a list of .*effects\.charge, effects\.idempotencyKey, antiPatterns\.countInBody, antiPatterns\.decideBeforeCount, antiPatterns\.dlqToSource.*, got "effects\.charge maxAttempts"$/);
  await opened.context.close();
});

test('lesson 1: a second replay answers false, changes nothing, and the page checks it (refused-replays)', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`);
  const { page } = opened;
  const pg = await embedded(page, 'l1-validate');
  await unmet(page, 'l1-validate', 1);
  await pg.step('Permanent failure');
  await pg.button('Replay a').click();
  await unmet(page, 'l1-validate', 1);  // the first replay is accepted: nothing refused yet
  const step = await pg.root.getAttribute('data-step');
  await pg.root.getByLabel('Job to replay').fill('a');
  await pg.button('Replay').click();
  assert.match(await pg.root.locator('.dlq-why').textContent(),
    /replay\("a"\) returned false: "a" is not in quarantine at this step, so nothing changed \(1 refused replay so far\)\./);
  assert.equal(await pg.root.getAttribute('data-step'), step, 'no step taken');
  assert.match(await pg.root.locator('.dlq-ready .dlq-list > li').last().textContent(), /^a/);
  await met(page, 'l1-validate', 1);
  assertClean(opened);
  await opened.context.close();
});

test('lesson 2: every entry names its source queue on its card; replay p1 into it, p2 stays', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-2.html`, { viewport: { width: 1280, height: 900 } });
  const { page } = opened;
  const pg = await embedded(page, 'l2-operate');
  await unmet(page, 'l2-operate', 1);
  await pg.step('Permanent failure');
  await pg.step('Success');
  await pg.step('Permanent failure');
  const cards = pg.root.locator('.dlq-quarantine .dlq-list > li');
  assert.equal(await cards.count(), 2);
  for (let i = 0; i < 2; i++) assert.equal(await cards.nth(i).locator('.dlq-source').textContent(), 'orders');
  await pg.button('Replay p1').click();
  await pg.step('Success');
  await met(page, 'l2-operate', 1);
  await page.locator('#l2-operate').screenshot({ path: path.join(ROOT, 'docs', 'source-queue.png') });
  assertClean(opened);
  await opened.context.close();
});

test('the new playgrounds pass axe at 1280 and at 390 px', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    for (const [lesson, ids] of [['lesson-1.html', ['l1-ledger', 'l1-count-wrong', 'l1-validate']], ['lesson-2.html', ['l2-operate', 'l2-body', 'l2-loop', 'l2-partition', 'l2-redrive']]]) {
      const opened = await openPage(h.browser, `${h.base}${lesson}`, { viewport });
      for (const id of ids) await embedded(opened.page, id);
      const results = await new AxeBuilder({ page: opened.page }).include(ids.map((id) => `#${id}`)).analyze();
      assert.deepEqual(results.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`), [],
        `${lesson} at ${viewport.width}px`);
      assertClean(opened);
      await opened.context.close();
    }
  }
});
