// The playground's cards agree with the run and with their own rows: the Worst
// case card draws BullMQ's stall term (its total is its rows), the Retry
// schedule counts the leases the lease level's run counts, and a lab term (the
// precondition class's own backoff) shows only where the playground can meet
// that failure. The numbers are the core's; this checks what the page draws.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadLab } from '../../wasm/index.mjs';
import { start, openPage, playground, lessonPlayground, screenshotPath, assertClean } from './harness.mjs';

let h;
let lab;
before(async () => { [h, lab] = await Promise.all([start(), loadLab()]); });
after(async () => { await h?.close(); });

/** Answers the level's predict question about playground `id`, if it has one: the cards that
 * would answer it stay hidden until then (lesson.mjs), and these tests read those cards. */
async function answerPredict(page, id) {
  const predict = page.locator(`dlq-predict[for="${id}"]`);
  if (await predict.count() === 0) return;
  await predict.scrollIntoViewIfNeeded();
  await predict.locator('.predict-choice').first().click();
  await predict.getByRole('button', { name: 'Check my answer' }).click();
  await predict.locator('.predict-result').filter({ hasText: 'The answer:' }).waitFor();
}

/** The Worst case card's rows as [term, worst case, actual] texts. */
const worstRows = (root) => root.locator('.dlq-worst-terms tbody tr')
  .evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));

test('Worst case under bullmq: the stall row is drawn, and the rows add up to the total', async () => {
  const text = lab.formatScenario({ system: 'bullmq', maxAttempts: 8, seed: 1,
    backoff: { kind: 'exponential', baseMs: 1000, capMs: 1000, jitter: 'none' }, jobs: [{ id: 'a', payload: '' }] });
  const opened = await openPage(h.browser, `${h.base}playground.html#${text}`);
  const pg = playground(opened.page);
  const card = pg.region('Worst case');
  await card.scrollIntoViewIfNeeded();
  const rows = await worstRows(card);
  assert.deepEqual(rows[0].slice(0, 2), ['8 leases of 30,000 ms (leaseMs; the budget is transient’s)', '4 min']);
  assert.deepEqual(rows[1], ['1 stall of 30,000 ms (maxStalledCount; a stall is not counted)', '30,000 ms', '—']);
  assert.deepEqual(rows.at(-1).slice(0, 2), ['Total', '6 min 37 s']);
  const UNIT = { min: 60000, s: 1000, ms: 1 };
  const duration = (text) => [...text.matchAll(/([\d,]+) (min|s|ms)\b/g)]
    .reduce((sum, [, n, unit]) => sum + Number(n.replace(/,/g, '')) * UNIT[unit], 0);
  const sum = rows.slice(0, -1).reduce((total, row) => total + duration(row[1]), 0);
  assert.equal(sum, 397000, 'the rows add up to the total');
  await card.screenshot({ path: screenshotPath('cards-worst-bullmq-stall') });
  assertClean(opened);
  await opened.context.close();
});

test('the lease level: the Retry schedule counts each lease, so it finishes when the run quarantined a', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-2.html`);
  const pg = await lessonPlayground(opened.page, 'l2-lease');
  await answerPredict(opened.page, 'l2-lease');
  const card = pg.root.getByRole('group', { name: 'Retry schedule', exact: true });
  await card.scrollIntoViewIfNeeded();
  const summary = card.locator('.dlq-sched-summary');
  // Before anything holds a lease the run counts none (a Step takes no time), and neither does the card.
  assert.match(await summary.textContent(), /^2 attempts for a job that keeps failing transiently\. No jitter/);
  // The reader leases a: from now on the run counts each lease, and so does the card.
  await pg.button('Lease').click();
  await summary.filter({ hasText: 'lease until it expires' }).waitFor();
  assert.match(await summary.textContent(),
    /^2 attempts for a job that keeps failing transiently, each holding its 1,000 ms lease until it expires\./);
  const rows = await card.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  assert.deepEqual(rows, [['1', '0 ms', '0 ms'], ['2', '— (quarantine)', '1,000 ms']]);
  assert.match(await card.locator('.dlq-sched-answer').textContent(), /the last attempt finishes at 2,000 ms/);
  // The run the exercise asks for: a quarantined at 2,000 ms.
  const q = lab.runScenario('v2;m2;l1000;s1;ja:resize%20image%207,b:resize%20image%208;al,w1000,l,k2s,l,w1000');
  assert.equal(q.timeline().find((e) => e.kind === 'quarantined').time, 2000);
  q.dispose();
  await card.screenshot({ path: screenshotPath('cards-schedule-lease-level') });
  assertClean(opened);
  await opened.context.close();
});

test('the precondition class\'s own backoff shows only where the playground can report a precondition failure', async () => {
  const l2 = await openPage(h.browser, `${h.base}lesson-2.html`);
  const backoff = await lessonPlayground(l2.page, 'l2-backoff');
  await answerPredict(l2.page, 'l2-backoff');
  const card = backoff.root.locator('.dlq-worst');
  await card.scrollIntoViewIfNeeded();
  const rows = await worstRows(backoff.root);
  assert.ok(rows.length > 0);
  assert.ok(rows.every(([term]) => !term.includes('precondition')), JSON.stringify(rows));
  assert.deepEqual(rows[1].slice(0, 2), ['Wait after attempt 1 (transient, the policy’s backoff)', '100 ms']);
  assert.deepEqual(rows.at(-1).slice(0, 2), ['Total', '2 min 31 s']);  // 151,100 ms: 5 leases of 30 s and 1,100 ms of waits
  await card.screenshot({ path: screenshotPath('cards-worst-lesson2-level1') });
  assertClean(l2);
  await l2.context.close();

  const l1 = await openPage(h.browser, `${h.base}lesson-1.html`);
  const ledger = await lessonPlayground(l1.page, 'l1-ledger');
  await answerPredict(l1.page, 'l1-ledger');
  await ledger.root.locator('.dlq-worst').scrollIntoViewIfNeeded();
  const ledgerRows = await worstRows(ledger.root);
  assert.ok(ledgerRows.every(([term]) => !term.includes('precondition')), JSON.stringify(ledgerRows));
  await ledger.root.locator('.dlq-worst').screenshot({ path: screenshotPath('cards-worst-lesson1-ledger') });
  assertClean(l1);
  await l1.context.close();

  // The full playground offers every outcome once the classes are shown: the term is back there.
  const full = await openPage(h.browser, `${h.base}playground.html#v2;m5;bx100.400n;s1;ja:sync`);
  const pg = playground(full.page);
  const fullRows = await worstRows(pg.region('Worst case'));
  assert.deepEqual(fullRows[1].slice(0, 2), ['Wait after attempt 1 (precondition, its own backoff)', '1,000 ms']);
  assertClean(full);
  await full.context.close();
});
