// Playground v2's state regions and the timeline's time axis, read as a
// screen-reader user would: regions and controls by accessible name, the values
// they show checked against the core's own views (the page re-derives nothing).
//
//   Delayed / In flight   due times and expiries, and the time left, which changes with the clock
//   Quarantine            each entry's context (class, reason, attempts, last error, key,
//                         final attempt, age against the retention)
//   Depth alarm           a banner in a status live region, with the depth and the threshold
//   Worst case            queue.worstCase() in words
//   Reorders              called out in Completed, on the job that overtook
//   Timeline              a time axis for a clock link, steps for lesson 1; events later in
//                         the script are named so, not only drawn faint
// plus axe on clock links at both sizes, and lesson 1 staying as calm as before.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadLab } from '../../wasm/index.mjs';
import { AxeBuilder, start, openPage, playground, screenshotPath, assertClean, FIXTURES } from './harness.mjs';

let h;
let lab;
before(async () => { [h, lab] = await Promise.all([start(), loadLab()]); });
after(async () => { await h?.close(); });

const link = (name) => readFileSync(path.join(FIXTURES, `${name}.link`), 'utf8').trim();
/** The fixture link with its cursor set to `cursor` (the links carry none: they end at the script's end). */
const at = (name, cursor) => `${link(name)};c${cursor}`;
const grouped = (n) => new Intl.NumberFormat('en-US').format(n);

async function open(hash, viewport) {
  const opened = await openPage(h.browser, `${h.base}playground.html#${hash}`, viewport ? { viewport } : {});
  return { ...opened, pg: playground(opened.page) };
}

/** The text of each item of a region's list, whitespace collapsed, keyed by the job id it starts with. */
async function items(pg, name) {
  const texts = await pg.region(name).getByRole('listitem').allInnerTexts();
  return texts.map((t) => t.replace(/\s+/g, ' ').trim());
}

/** The core's queue for a link (the page must agree with it). */
function core(text) {
  return lab.runScenario(text);
}

test('Delayed: each job with its due time and the time left on the virtual clock', async () => {
  const o = await open(link('v2-mid-flight'));
  const q = core(link('v2-mid-flight'));
  const [d] = q.delayed();
  const now = q.now();
  q.dispose();
  assert.equal(await o.pg.region('Delayed').count(), 1);
  const [item, ...rest] = await items(o.pg, 'Delayed');
  assert.equal(rest.length, 0);
  assert.match(item, new RegExp(`^${d.id}\\b`));
  assert.ok(item.includes(`due in ${d.dueAt - now} ms`), item);
  assert.ok(item.includes(`(at ${d.dueAt} ms)`), item);
  assert.ok(item.includes(`${d.attempts}/3 tried`), item);
  assert.equal(await o.pg.region('Delayed').locator('.dlq-count').textContent(), '1');
  assertClean(o);
  await o.context.close();
});

test('In flight: token, attempt n of max, expiry; the countdown moves when the clock advances', async () => {
  // Cursor 5: the two leases are out and the clock is at 0; the script's next action is "advance 10".
  const o = await open(at('v2-mid-flight', 5));
  const { pg } = o;
  const q = core(at('v2-mid-flight', 5));
  const leases = q.leased();
  q.dispose();
  assert.equal(leases.length, 2);
  let shown = await items(pg, 'In flight');
  assert.equal(shown.length, 2);
  for (const [i, lease] of leases.entries()) {
    assert.match(shown[i], new RegExp(`^${lease.id} ${lease.token} attempt ${lease.attempts} of 3 `));
    assert.ok(shown[i].includes(`expires in ${grouped(lease.expiresAt)} ms (at ${lease.expiresAt} ms)`), shown[i]);
  }
  assert.ok((await items(pg, 'Delayed'))[0].includes('due in 23 ms'));

  await pg.button('Forward').click(); // advance 10 ms
  assert.equal(await pg.cursor(), 6);
  shown = await items(pg, 'In flight');
  for (const [i, lease] of leases.entries()) {
    assert.ok(shown[i].includes(`expires in ${lease.expiresAt - 10} ms (at ${lease.expiresAt} ms)`), shown[i]);
  }
  assert.ok((await items(pg, 'Delayed'))[0].includes('due in 13 ms (at 23 ms)'));

  await pg.button('Back').click();
  assert.ok((await items(pg, 'In flight'))[0].includes('expires in 500 ms'), 'and back again');
  assertClean(o);
  await o.context.close();
});

test('Quarantine: class, reason, attempts, last error, key, final attempt, age against the retention and source queue; Replay stays', async () => {
  const o = await open(link('v2-mid-flight'));
  const { pg } = o;
  const q = core(link('v2-mid-flight'));
  const entries = q.quarantined();
  const now = q.now();
  const { retentionMs } = q.policy().quarantine;
  q.dispose();
  const region = pg.region('Quarantine');
  for (const entry of entries) {
    const card = region.getByRole('listitem').filter({ has: o.page.getByRole('button', { name: `Replay ${entry.id}`, exact: true }) });
    assert.equal(await card.count(), 1, `a card with "Replay ${entry.id}"`);
    const facts = await card.locator('.dlq-facts > :not([hidden])').allInnerTexts();
    const pairs = Object.fromEntries(Array.from({ length: facts.length / 2 }, (_, i) => [facts[2 * i], facts[2 * i + 1]]));
    const expected = {
      class: entry.class,
      reason: entry.reason,
      attempts: String(entry.attempts),
      'last error': entry.lastError,
      ...(entry.key === null ? {} : { key: entry.key }),
      'final attempt': `at ${entry.arrivedAt} ms`,
      kept: `${grouped(now - entry.arrivedAt)} of ${grouped(retentionMs)} ms`,
      'source queue': 'orders',
    };
    assert.equal(entry.sourceQueue, 'orders', 'the core names the source queue');
    assert.deepEqual(pairs, expected, entry.id);
    assert.equal(await card.getByText('alert', { exact: true }).isVisible(), entry.alert, `${entry.id}: alert mark`);
  }
  // The Replay button still replays.
  await pg.button('Replay a').click();
  assert.deepEqual(await pg.ids('Quarantine'), ['f']);
  assert.ok((await pg.ids('Ready')).includes('a'));
  assertClean(o);
  await o.context.close();
});

test('Quarantine under sqs: the retention is drawn from the core\'s window, counted from the job\'s first enqueue', async () => {
  // a is enqueued at 0 and moved to the DLQ at 4,000 ms; SQS counts its 10 s retention from 0.
  const SQS = 'v2;m1;s1;rs;q10000.0;ja:;aw4000,t';
  const q = core(SQS);
  const [entry] = q.quarantined();
  q.dispose();
  assert.deepEqual([entry.arrivedAt, entry.retentionFrom, entry.retentionUntil], [4000, 0, 10000]);
  const o = await open(SQS);
  const card = o.pg.region('Quarantine').getByRole('listitem').first();
  const facts = await card.locator('.dlq-facts > :not([hidden])').allInnerTexts();
  const pairs = Object.fromEntries(Array.from({ length: facts.length / 2 }, (_, i) => [facts[2 * i], facts[2 * i + 1]]));
  assert.equal(pairs.kept, '0 ms', 'in the DLQ since its arrival');
  assert.equal(pairs.retention, '4,000 of 10,000 ms since 0 ms; dropped at 10,000 ms');
  assert.equal(await card.locator('.dlq-meter-fill').evaluate((el) => el.style.width), '40%');
  assertClean(o);
  await o.context.close();
});

test('depth alarm: a banner in a status region with depth and threshold while raised; a quiet note otherwise', async () => {
  const o = await open(link('v2-mid-flight'));
  const { pg, page } = o;
  const alert = pg.root.getByRole('status').filter({ hasText: 'Depth alarm raised' });
  assert.equal(await alert.count(), 1);
  assert.equal((await alert.innerText()).replace(/\s+/g, ' '), 'Depth alarm raised Quarantine depth 2, alarm threshold 2.');
  await pg.button('Back').click(); // before the advance: still raised
  await pg.button('Back').click(); // before "f" is quarantined: one entry, below the depth
  assert.equal(await alert.count(), 0);
  assert.equal(await pg.root.locator('.dlq-alarm-live').innerText(), '', 'the banner is gone from its live region');
  assert.equal(await page.getByRole('alert').count(), 0, 'a raised alarm is a state, not an error: no role=alert');
  assert.equal(await pg.region('Quarantine').getByText('Depth alarm at 2 entries.').count(), 1);
  assertClean(o);
  await o.context.close();
});

test('Worst case: the core\'s worstCase() in words', async () => {
  for (const name of ['v2-mid-flight', 'v2-backoff-jitter']) {
    const q = core(link(name));
    const { attempts, timeMs } = q.worstCase();
    q.dispose();
    const o = await open(link(name));
    const text = (await o.pg.region('Worst case').innerText()).replace(/\s+/g, ' ');
    assert.match(text, new RegExp(`at most ${attempts} times and spends at most ${grouped(timeMs)} ms from its first lease to quarantine`), text);
    assertClean(o);
    await o.context.close();
  }
});

test('reorders are called out in Completed, on the job that overtook', async () => {
  const q = core(link('v2-ordering'));
  const [reorder] = q.reorders();
  q.dispose();
  const o = await open(link('v2-ordering'));
  const region = o.pg.region('Completed');
  assert.equal(await region.getByText(`1 reorder: "${reorder.id}" overtook "${reorder.overtook[0]}" (key ${reorder.key}).`, { exact: true }).count(), 1);
  const card = (await items(o.pg, 'Completed')).find((t) => t.startsWith(`${reorder.id} `));
  assert.ok(card.endsWith(`Reorder: overtook "${reorder.overtook[0]}"`), card);
  const others = (await items(o.pg, 'Completed')).filter((t) => !t.startsWith(`${reorder.id} `));
  assert.ok(others.length > 0 && others.every((t) => !t.includes('Reorder')));
  // Before the reorder happened, nothing is called out.
  await o.pg.button('Reset').click();
  assert.equal(await region.getByText(/reorder/i).filter({ visible: true }).count(), 0);
  assertClean(o);
  await o.context.close();
});

test('Ready is a head → tail strip: a requeued job joins the tail, behind the others', async () => {
  const o = await open('v1;m3;ja:1,b:2,c:3;at:db%20timeout;c0');
  const { pg } = o;
  assert.deepEqual(await pg.ids('Ready'), ['a', 'b', 'c']);
  await pg.button('Forward').click();
  assert.deepEqual(await pg.ids('Ready'), ['b', 'c', 'a']);
  const strip = await pg.region('Ready').locator('.dlq-list > li').evaluateAll((lis) => lis.map((li) => li.getBoundingClientRect().left));
  assert.ok(strip[0] < strip[1] && strip[1] < strip[2], `left to right (${strip})`);
  assert.equal(await pg.region('Ready').getByRole('list').count(), 1);
  assertClean(o);
  await o.context.close();
});

test('Ready at scale: the head, a gap that counts the middle, and the tail, where a requeue is seen arriving', async () => {
  const jobs = Array.from({ length: 150 }, (_, i) => `j${i}:`).join(',');
  const o = await open(`v1;m3;j${jobs};at:db%20timeout;c0`);
  const { pg } = o;
  const ids = () => pg.ids('Ready');
  const first = await ids();
  assert.equal(first.length, 24 + 8);
  assert.deepEqual(first.slice(0, 3), ['j0', 'j1', 'j2']);
  assert.deepEqual(first.slice(-2), ['j148', 'j149']);
  const gap = pg.region('Ready').locator('li.dlq-gap');
  assert.equal((await gap.textContent()).trim(), '… 118 more between head and tail …');
  await pg.button('Forward').click();
  const after = await ids();
  assert.deepEqual(after.slice(0, 2), ['j1', 'j2']);
  assert.equal(after.at(-1), 'j0', 'the requeued head is drawn at the tail');
  assert.equal((await pg.region('Ready').locator('.dlq-count').textContent()).trim(), '150');
  assertClean(o);
  await o.context.close();
});

test('timeline: a time axis for a clock link, steps for a lesson-1 link', async () => {
  const clock = await open(link('v2-backoff-jitter'));
  const tl = clock.pg.region('Timeline');
  assert.equal(await tl.getByRole('group', { name: /^Events along the virtual clock/ }).count(), 1);
  // One linear scale fitted to the width: round times from 0, the whole script in view, and "now" read out.
  const ticks = await tl.locator('.dlq-tl-axis text.dlq-tick').allTextContents();
  assert.deepEqual(ticks, ['0', '500 ms', '1 s', '1.5 s', '2 s'], `ticks: ${ticks}`);
  assert.equal(await tl.locator('.dlq-tl-scroll').evaluate((el) => el.scrollWidth <= el.clientWidth), true, 'nothing to scroll');
  assert.equal(await tl.locator('.dlq-tl-now').textContent(), 'Now 2,277 ms · step 5');
  // Each event's name says when it happened on the clock, and at which step.
  assert.equal(await tl.getByRole('button', { name: /^"a", at 2,277 ms, step 5: attempt 4 of 4 succeeded/ }).count(), 1);
  // Delays are dashed bars from the delaying failure to the due time; leases bars from leased to settle or expiry.
  assert.equal(await tl.locator('.dlq-span.is-delay').count(), 3);
  assert.equal(await tl.locator('.dlq-span.is-lease').count(), 3);
  assert.equal(await tl.getByRole('listitem').filter({ hasText: 'Backoff delay: until due' }).isVisible(), true);
  const bars = await tl.locator('.dlq-span.is-delay line:not([hidden])').evaluateAll((ls) => ls.map((l) => Number(l.getAttribute('x2')) - Number(l.getAttribute('x1'))));
  // On the linear scale a bar is as long as its delay: the shortest here, 23 ms, is still several px.
  assert.ok(bars.length > 0 && bars.every((w) => w > 4), `the delays have length (${bars})`);
  // Keyboard: one Tab stop on the latest event; Home / End / arrows move along the clock; Enter goes there.
  const focused = () => clock.page.evaluate(() => document.activeElement.getAttribute('aria-label'));
  await tl.locator('.dlq-ev[tabindex="0"]').focus();
  assert.match(await focused(), /^"a", at 2,277 ms, step 5: "a" completed after 4 attempts$/);
  await clock.page.keyboard.press('Home');
  assert.match(await focused(), /^"a", at 0 ms, step 0: /);
  await clock.page.keyboard.press('ArrowRight');
  await clock.page.keyboard.press('ArrowRight');
  assert.match(await focused(), /^"a", at 0 ms, step 1: a worker leased "a"/);
  assert.match(await tl.getByRole('tooltip').textContent(), /^"a" · 0 ms · step 1/);
  await clock.page.keyboard.press('Enter');
  assert.equal(await clock.pg.step(), 1);
  await clock.page.screenshot({ path: screenshotPath('regions-time-axis'), fullPage: true });
  assertClean(clock);
  await clock.context.close();

  const steps = await open(link('v1-ab-example'));
  const tl1 = steps.pg.region('Timeline');
  assert.equal(await tl1.getByRole('group', { name: /^Events, one lane per job and one column per step/ }).count(), 1);
  assert.equal(await tl1.getByRole('group', { name: /virtual clock/ }).count(), 0);
  assert.deepEqual(await tl1.locator('.dlq-tl-axis text').allTextContents(), ['0', '1', '2', '3']);
  assert.equal(await tl1.locator('.dlq-span').count(), 0);
  assert.equal(await tl1.getByRole('button', { name: /^"a", step 1: / }).count(), 2);
  assertClean(steps);
  await steps.context.close();
});

test('timeline: events later in the script are named so, not only drawn faint', async () => {
  const o = await open(at('v2-backoff-jitter', 5));
  const tl = o.pg.region('Timeline');
  const faint = await tl.locator('.dlq-ev.is-future').count();
  assert.ok(faint > 0);
  assert.equal(await tl.getByRole('button', { name: /\(later in the script\): / }).count(), faint);
  const solid = await tl.locator('.dlq-ev:not(.is-future)').evaluateAll((gs) => gs.map((g) => g.getAttribute('aria-label')));
  assert.ok(solid.length > 0 && solid.every((name) => !name.includes('later in the script')));
  // The tooltip says it too, and a bar that is still to come is faint past the cursor.
  await tl.locator('.dlq-ev.is-future').last().hover();
  assert.match(await tl.getByRole('tooltip').textContent(), /· later in the script/);
  assert.ok(await tl.locator('.dlq-span line.is-future:not([hidden])').count() > 0);
  // Forward to the end: nothing is later any more.
  while (await o.pg.cursor() < 11) await o.pg.button('Forward').click();
  assert.equal(await tl.getByRole('button', { name: /later in the script/ }).count(), 0);
  assertClean(o);
  await o.context.close();
});

test('lesson 1 stays calm: no In flight, Delayed, Worst case, alarm or reorder; quarantine facts as before, and the source queue', async () => {
  const o = await open('v1;m2;ja:x,b:y;ap:bad%20json,t:db%20timeout,t:db%20timeout');
  const { pg, page } = o;
  for (const name of ['In flight', 'Delayed', 'Worst case']) assert.equal(await pg.region(name).count(), 0, name);
  for (const name of ['Ready', 'Completed', 'Quarantine', 'Timeline', 'Event log']) assert.equal(await pg.region(name).count(), 1, name);
  assert.equal(await page.getByRole('alert').count(), 0);
  const facts = await pg.region('Quarantine').locator('.dlq-facts > :not([hidden])').allInnerTexts();
  assert.deepEqual(facts.slice(0, 6), ['reason', 'permanent', 'attempts', '1', 'last error', 'bad json']);
  assert.deepEqual(facts.slice(6, 8), ['source queue', 'orders'], 'the source queue, named by the core');
  assert.equal(facts.length, 16, 'two entries, four facts each');
  assertClean(o);
  await o.context.close();
});

test('the legend has a glyph for every event kind the core emits (lost and kept-once included)', async () => {
  const dts = readFileSync(path.join(FIXTURES, '..', '..', '..', 'wasm', 'index.d.ts'), 'utf8');
  const union = dts.slice(dts.indexOf('export type EventKind ='), dts.indexOf('export type Place')).replace(/\/\*[\s\S]*?\*\//g, '');
  const kinds = [...union.matchAll(/'([a-z-]+)'/g)].map((m) => m[1]).filter((k) => k !== 'attempt'); // attempts: by outcome
  assert.ok(kinds.includes('lost') && kinds.includes('kept-once'), kinds.join());
  const o = await open(link('v1-ab-example'));
  const legend = o.pg.region('Timeline').getByRole('list', { name: 'Legend' });
  const present = await legend.locator('li[data-kind]').evaluateAll((lis) => lis.map((li) => li.dataset.kind));
  assert.deepEqual(kinds.filter((k) => !present.includes(k)), [], 'kinds without a legend entry');
  for (const outcome of ['success', 'transient', 'permanent']) assert.ok(present.includes(outcome), outcome);
  assertClean(o);
  await o.context.close();
});

const SIZES = [['desktop', { width: 1280, height: 800 }], ['mobile', { width: 390, height: 844 }]];

for (const [name, viewport] of SIZES) {
  test(`${name}: axe finds nothing on clock links (leases, delays, alarm, reorder, retention); no sideways scroll`, async () => {
    for (const [tag, hash] of [['mid-flight', link('v2-mid-flight')], ['ordering', at('v2-ordering', 7)], ['ordering-end', link('v2-ordering')]]) {
      const o = await open(hash, viewport);
      await o.page.waitForTimeout(100);
      const results = await new AxeBuilder({ page: o.page }).analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      // The regions and the timeline at any impact: the same run's findings on nodes inside them.
      const inside = await o.page.evaluate((targets) => targets.map((target) => Boolean(document.querySelector(target)?.closest('.dlq-state-views, .dlq-timeline'))),
        results.violations.flatMap((v) => v.nodes.map((n) => n.target.join(' '))));
      let next = 0;
      const mine = results.violations.map((v) => ({ ...v, nodes: v.nodes.filter(() => inside[next++]) })).filter((v) => v.nodes.length > 0);
      const describe = (vs) => vs.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
      assert.deepEqual(describe(serious), [], `${tag}: the page`);
      assert.deepEqual(describe(mine), [], `${tag}: the regions and the timeline, at any impact`);
      const overflow = await o.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `${tag}: the page does not scroll sideways (overflow ${overflow}px)`);
      await o.page.screenshot({ path: screenshotPath(`regions-${tag}-${name}`), fullPage: true });
      assertClean(o);
      await o.context.close();
    }
  });
}
