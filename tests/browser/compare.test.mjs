// The compare page (compare.html): a fragment with a poison job among two under
// the lab and rabbitmq-quorum gives the diff's sentences and two timelines on one
// time axis; a bad fragment is refused by name and changes nothing; the mode
// picker lists exactly the core's systems; the form writes the fragment; each
// column opens in the playground; axe clean with no sideways scroll at desktop
// and phone widths, under the strict CSP, with screenshots; without JS it says so.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder, start, openPage, gotoReady, assertClean, screenshotPath, ROOT } from './harness.mjs';
import { tickStep, ticksIn } from '../../web/src/shared/time-scale.mjs';
import { tick } from '../../web/src/shared/time-format.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

const POISON = 'v2;m3;s1;hb:pt;jb:,a:';  // b always fails transiently; a is healthy; the world plays them
const LAB_VS_QUORUM = `${POISON}&with=lab,rabbitmq-quorum`;

const diff = (page) => page.locator('#cmp-diff li').allTextContents();
const columns = (page) => page.locator('.cmp-col');

/** Each column's axis and, per event, its job, kind, time and x. */
function readChart(page) {
  return page.evaluate(() => [...document.querySelectorAll('.cmp-col')].map((col) => {
    const svg = col.querySelector('svg.cmp-lanes');
    return {
      label: col.dataset.column,
      maxMs: svg ? Number(svg.dataset.maxMs) : null,
      pxPerMs: svg ? Number(svg.dataset.pxPerMs) : null,
      left: svg ? svg.getBoundingClientRect().left : null,
      width: svg ? svg.getBoundingClientRect().width : null,
      events: [...col.querySelectorAll('.cmp-ev')].map((g) => ({
        id: g.dataset.id, kind: g.dataset.kind, time: Number(g.dataset.time), x: Number(g.dataset.x),
        label: g.getAttribute('aria-label'),
      })),
    };
  }));
}

async function axe(page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

test('lab vs rabbitmq-quorum, a poison job among two: the diff\'s sentences, and both timelines on one time axis', async () => {
  const opened = await openPage(h.browser, `${h.base}compare.html#${LAB_VS_QUORUM}`);
  const { page } = opened;
  assert.deepEqual(await diff(page), [
    'rabbitmq-quorum quarantines b at 300 ms; lab at 400 ms.',
    'rabbitmq-quorum completes a at 400 ms; lab at 200 ms.',
  ]);
  const chart = await readChart(page);
  assert.deepEqual(chart.map((c) => c.label), ['lab', 'rabbitmq-quorum']);
  const [lab, quorum] = chart;
  assert.equal(lab.maxMs, quorum.maxMs, 'one axis: the same span');
  assert.equal(lab.pxPerMs, quorum.pxPerMs, 'one axis: the same ms scale');
  assert.equal(lab.left, quorum.left, 'the lanes start at the same x');
  assert.equal(lab.maxMs, Math.max(...chart.flatMap((c) => c.events.map((e) => e.time))), 'the longest run sets the axis');
  // An instant is at the same x in both columns: a's completion at 400 ms under quorum, b's quarantine at 400 ms in the lab.
  const at = (column, id, kind) => column.events.find((e) => e.id === id && e.kind === kind);
  assert.equal(at(quorum, 'a', 'completed').time, at(lab, 'b', 'quarantined').time);
  assert.equal(at(quorum, 'a', 'completed').x, at(lab, 'b', 'quarantined').x);
  assert.ok(at(lab, 'a', 'completed').x < at(quorum, 'a', 'completed').x, 'a completes further left in the lab');
  // Each glyph is named; the column's events are one Tab stop, and arrow keys move between them.
  assert.match(lab.events[0].label, /^"b", at 0 s \(lab\): Enqueued\./);
  await page.locator('.cmp-col').first().locator('.cmp-ev[tabindex="0"]').focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.kind), lab.events[1].kind);
  assert.equal(await page.locator('.cmp-col').first().locator('.cmp-detail').textContent(), lab.events[1].label);
  assert.equal(await page.locator('.cmp-col').first().locator('.cmp-ev[tabindex="0"]').count(), 1);
  // Each column opens in the playground, with its own link.
  const hrefs = await page.getByRole('link', { name: /in the playground$/ }).evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.deepEqual(hrefs, ['./playground.html#v2;m3;s1;hb:pt;jb:,a:', './playground.html#v2;m3;s1;rq;hb:pt;jb:,a:']);
  assertClean(opened);
  await opened.context.close();
});

test('the legend words a requeue as the core does, per column; the axis ticks are the playground timeline\'s', async () => {
  const opened = await openPage(h.browser, `${h.base}compare.html#${LAB_VS_QUORUM}`);
  const { page } = opened;
  // The core's explanation of each column's requeued attempt ends with where it went (as the playground's legend says it).
  const requeues = await page.locator('.cmp-legend li[data-kind="requeued"]').allTextContents();
  assert.deepEqual(requeues, [
    'Requeued: requeue at the tail (lab)',
    'Requeued: back near the head, as a quorum queue returns it (rabbitmq-quorum)',
  ]);
  // One tick rule for both pages (shared/time-scale.mjs): round steps at least 72 px apart, from 0 to the longest run.
  const [lab] = await readChart(page);
  const expected = ticksIn(0, lab.maxMs, tickStep(lab.pxPerMs)).map((t) => (t === 0 ? '0' : tick(t)));
  const drawn = await page.locator('.cmp-col').first().locator('.cmp-tick').allTextContents();
  assert.deepEqual(drawn, expected);
  assertClean(opened);
  await opened.context.close();
});

test('a bad fragment is refused by name, on the page, and changes nothing', async () => {
  const opened = await openPage(h.browser, `${h.base}compare.html#${LAB_VS_QUORUM}`);
  const { page } = opened;
  const before = { diff: await diff(page), chart: await readChart(page), link: await page.locator('#cmp-link').inputValue() };
  await page.evaluate(() => { location.hash = 'v2;m3;s1;hb:pt;jb:,a:&with=lab,rabbitmq'; });
  const refusal = page.locator('#cmp-refusal');
  await refusal.waitFor();
  assert.equal(await refusal.textContent(), 'This compare link could not be read: column 2: no system is named "rabbitmq"; '
    + 'expected one of lab, rabbitmq-quorum, bullmq, sidekiq, sqs, pubsub, service-bus, spring-kafka, kafka-connect or field=value. The comparison on show is unchanged.');
  assert.deepEqual({ diff: await diff(page), chart: await readChart(page), link: await page.locator('#cmp-link').inputValue() }, before);
  assert.match(await page.evaluate(() => location.hash), /with=lab,rabbitmq$/, 'the URL is left as the reader wrote it');
  // A first visit with a bad fragment: refused by name, the default comparison shown.
  const fresh = await openPage(h.browser, `${h.base}compare.html#${POISON}`);
  assert.match(await fresh.page.locator('#cmp-refusal').textContent(), /needs &with=: expected #<scenario link>&with=<system>,<system>…, got "v2;m3;s1;hb:pt;jb:,a:"\. Showing the default comparison instead\.$/);
  assert.equal(await columns(fresh.page).count(), 3);
  for (const o of [opened, fresh]) {
    assertClean(o);
    await o.context.close();
  }
});

test('the mode picker lists exactly the core\'s systems; the form writes the fragment; a column the core refuses is named', async () => {
  const opened = await openPage(h.browser, `${h.base}compare.html#${LAB_VS_QUORUM}`);
  const { page } = opened;
  const systems = await page.evaluate(async () => {
    const { loadLab } = await import('./wasm/index.mjs');
    return (await loadLab()).schema.policy.find((row) => row.name === 'system').choices.map((c) => c.name);
  });
  assert.deepEqual(await page.getByLabel('Column 1 system', { exact: true }).locator('option').evaluateAll((os) => os.map((o) => o.value)), systems);
  assert.deepEqual(await page.getByLabel('Column 3 system', { exact: true }).locator('option').evaluateAll((os) => os.map((o) => o.value)), ['', ...systems]);
  assert.equal(await page.getByLabel('Column 2 system', { exact: true }).inputValue(), 'rabbitmq-quorum');
  // The brief's own example: Sidekiq waits, so its third transient finds nothing ready: the core refuses that column.
  await page.getByLabel('Scenario link', { exact: true }).fill('v2;m3;s1;ja:,b:;at,t,t');
  await page.getByLabel('Column 2 system', { exact: true }).selectOption('sidekiq');
  await page.getByLabel('Column 3 system', { exact: true }).selectOption('rabbitmq-quorum');
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  await page.waitForFunction(() => location.hash.endsWith('&with=lab,sidekiq,rabbitmq-quorum'));
  assert.equal(await page.evaluate(() => location.hash), '#v2;m3;s1;ja:,b:;at,t,t&with=lab,sidekiq,rabbitmq-quorum');
  const refused = page.locator('.cmp-col[data-column="sidekiq"] .cmp-refused');
  assert.match(await refused.textContent(), /^The core refuses this column \(failed-precondition\): scenario action 3: process\(transient\) found nothing ready/);
  assert.ok((await diff(page)).includes('sidekiq is not compared: the core refuses it (failed-precondition).'));
  // An override the core refuses is named by the core, in the form, and nothing changes.
  const shown = await page.evaluate(() => location.hash);
  await page.getByLabel('Column 2 overrides', { exact: true }).fill('maxAttempts=many');
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  assert.equal(await page.locator('#cmp-form-error').textContent(), 'Not compared: column 2: maxAttempts takes a whole number, got "many".');
  assert.equal(await page.evaluate(() => location.hash), shown);
  assertClean(opened);
  await opened.context.close();
});

test('a retry due at 1 s against one due at 30 s is named; a script that stops early offers the comparison played to its end', async () => {
  const imported = 'v2;m3;bx1000.3600000n;s1;rb;ja:x,b:y;at:db,s';  // a BullMQ import over the a/b example, its third action dropped
  const opened = await openPage(h.browser, `${h.base}compare.html#${imported}&with=bullmq,sqs:backoff.kind=none`, { viewport: { width: 1280, height: 900 } });
  const { page } = opened;
  assert.deepEqual(await diff(page), [
    'sqs:backoff.kind=none leaves a delayed due back at 30 s; bullmq due back at 1 s.',
    'The script ends before “a” settles: what each column does with its next deliveries is not played. '
      + 'Compare it played to its end (the job fails every time; the world plays the jobs out).',
  ]);
  await page.screenshot({ path: screenshotPath('compare-unsettled'), fullPage: true });
  await page.getByRole('link', { name: 'Compare it played to its end', exact: true }).click();
  await page.waitForFunction(() => location.hash.includes(';ha:pt;'));
  await page.locator('#cmp-diff li[data-job="a"]', { hasText: 'quarantines' }).waitFor();
  assert.deepEqual(await diff(page), ['sqs:backoff.kind=none quarantines a at 60.3 s; bullmq at 3.3 s.']);
  await page.screenshot({ path: screenshotPath('compare-played-to-end'), fullPage: true });
  // The form takes the link as Copy link gives it, a full URL; a refused one clears the comparison under its error.
  await page.getByLabel('Scenario link', { exact: true }).fill(`${h.base}playground.html#${imported}`);
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  await page.waitForFunction((link) => location.hash.startsWith(`#${link}&with=`), imported);
  assert.equal(await columns(page).count(), 2);
  await page.getByLabel('Scenario link', { exact: true }).fill(`${h.base}playground.html`);
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  assert.match(await page.locator('#cmp-form-error').textContent(), /^Not compared: Scenario link: expected a scenario link .*got a URL with no #fragment/);
  assert.equal(await columns(page).count(), 0, 'no stale columns under the error');
  assert.deepEqual(await diff(page), []);
  assertClean(opened);
  await opened.context.close();
});

for (const [name, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]]) {
  test(`${name} ${viewport.width} px: axe clean, no sideways scroll, the lanes fit, no CSP violation; screenshots`, async () => {
    const opened = await openPage(h.browser, null, { viewport });
    const { page } = opened;
    const violations = [];
    await page.exposeFunction('reportViolation', (v) => violations.push(v));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => window.reportViolation(`${e.violatedDirective} ${e.blockedURI}`));
    });
    await gotoReady(page, `${h.base}compare.html`);  // the default: lab, rabbitmq-quorum, sidekiq
    assert.equal(await columns(page).count(), 3);
    assert.deepEqual(await axe(page), []);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `no sideways scroll (${overflow}px)`);
    const fits = await page.evaluate(() => [...document.querySelectorAll('svg.cmp-lanes')].every((svg) => svg.getBoundingClientRect().right <= document.querySelector('#cmp-chart').getBoundingClientRect().right + 0.5));
    assert.ok(fits, 'every column\'s lanes fit the chart');
    const squeezed = await page.evaluate(() => [...document.querySelectorAll('.cmp-legend svg')]
      .filter((svg) => Math.round(svg.getBoundingClientRect().width) < Number(svg.getAttribute('width'))).map((svg) => svg.parentElement.textContent));
    assert.deepEqual(squeezed, [], 'a legend item that wraps keeps its whole glyph');
    await page.screenshot({ path: screenshotPath(`compare-${name}`), fullPage: true });
    await page.locator('.cmp-col').nth(2).locator('.cmp-ev[tabindex="0"]').focus();
    await page.keyboard.press('End');
    assert.deepEqual(await axe(page), [], 'an event focused');
    assert.deepEqual(violations, []);
    assertClean(opened);
    await opened.context.close();
  });
}

test('strict CSP in the page, no inline script or style; without JavaScript the page says it needs it', async () => {
  const html = readFileSync(path.join(ROOT, 'dist', 'compare.html'), 'utf8');
  assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'/);
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline <script>');
  assert.doesNotMatch(html, /<style|\sstyle=|\son[a-z]+=/i, 'no inline style or event handler attributes');
  const opened = await openPage(h.browser, null, { context: { javaScriptEnabled: false } });
  await opened.page.goto(`${h.base}compare.html`);
  const note = opened.page.locator('.cmp-needs-js');
  assert.ok(await note.isVisible());
  assert.match(await note.textContent(), /needs JavaScript/);
  await opened.context.close();
});
