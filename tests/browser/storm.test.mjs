// The storm lab (storm.html): a preset run in the Web Worker and read back from the
// summary table (every job accounted for; without jitter the peak after a 5 s outage
// is at least 10× full jitter's), Cancel, a refused field named, axe at desktop and
// phone widths with no sideways scroll and charts inside their column, no long task
// on the main thread during a 1,000,000-job run, links that reproduce the same
// results, and the contention experiment.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder, start, openPage, assertClean, screenshotPath } from './harness.mjs';
import { PRESETS, formatStormLink, parseStormLink, formatContentionLink } from '../../web/src/storm/storm-presets.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

const RUN_TIMEOUT = 180_000;
const MILLION = 's1;n=1000000;a=b;o=0:5000;c=-;w=100000;t=10;l=30000;m=10;b=e:100:10000;r=1;j=nfed';

async function storm(url, options) {
  const opened = await openPage(h.browser, url, options);
  return opened;
}

/** Waits until the run on show ends; returns its state (done, cancelled, refused, error, idle). */
async function settled(page, timeout = RUN_TIMEOUT) {
  await page.waitForFunction(() => {
    const state = document.getElementById('results').dataset.state;
    return state && state !== 'running';
  }, null, { timeout });
  return page.locator('#results').getAttribute('data-state');
}

/**
 * Scrolls to each run's column in turn, as a reader would (a column's charts are drawn when it
 * comes near the screen), and waits until both its charts show their data; then back to the top.
 */
async function drawCharts(page) {
  await page.locator('.storm-run').first().waitFor({ timeout: 20_000 });
  for (const run of await page.locator('.storm-run').all()) {
    await run.scrollIntoViewIfNeeded();
    await run.locator('.storm-plot[data-drawn="true"]').nth(1).waitFor({ timeout: 20_000 });
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** The summary table: { runs: [label…], keys: [key…], [metric]: { [key]: number } }, once every chart shows its data. */
async function readSummary(page) {
  await drawCharts(page);
  return page.evaluate(() => {
    const table = document.getElementById('storm-summary');
    const out = { caption: table.caption.textContent, runs: [], keys: [] };
    for (const th of table.querySelectorAll('thead th[data-run]')) {
      out.runs.push(th.textContent);
      out.keys.push(th.dataset.run);
    }
    for (const row of table.querySelectorAll('tbody tr')) {
      out[row.dataset.metric] = Object.fromEntries([...row.querySelectorAll('td')].map((td) => [td.dataset.run, Number(td.dataset.value)]));
      out[`${row.dataset.metric}:text`] = [...row.querySelectorAll('td')].map((td) => td.textContent);
    }
    return out;
  });
}

const preset = (page, title) => page.getByRole('button', { name: title, exact: true });

test('the 5 s outage preset: every job completed or quarantined, and no jitter peaks at least 10× full jitter after recovery', async () => {
  const opened = await storm(`${h.base}storm.html`);
  const { page } = opened;
  await settled(page);  // a first visit runs the first preset by itself
  await preset(page, 'No jitter vs jitter after a 5 s outage').click();
  assert.equal(await settled(page), 'done', await page.locator('#storm-status').textContent());
  const summary = await readSummary(page);
  assert.deepEqual(summary.runs, ['No jitter', 'Full jitter', 'Equal jitter', 'Decorrelated jitter']);
  for (const key of summary.keys) {
    assert.equal(summary.completed[key] + summary.quarantined[key], 10_000, `${key}: completed + quarantined = jobs`);
    assert.ok(summary.attempts[key] >= 10_000, `${key}: at least one attempt per job`);
    assert.ok(summary.wastedAttempts[key] > 0 && summary.wastedAttempts[key] < summary.attempts[key], `${key}: the outage wasted some attempts`);
    assert.ok(summary.drainMs[key] > 5000, `${key}: drains after the outage`);
  }
  const none = summary.peakRateAfterRecovery.none;
  const full = summary.peakRateAfterRecovery.full;
  assert.ok(none >= 10 * full, `no jitter's peak after recovery ${none}/s is at least 10× full jitter's ${full}/s`);
  assert.match(await page.locator('#storm-status').textContent(), /^Done: 4 storms of 10,000 jobs in [0-9.]+ s\.$/);
  assert.match(await page.evaluate(() => location.hash), /^#s1;n=10000;/);
  // Hovering a chart reads exact values in its legend.
  const plot = page.locator('.storm-run').first().locator('.storm-plot').first();
  const over = plot.locator('.u-over');
  const box = await over.boundingBox();
  await over.hover({ position: { x: box.width * 0.3, y: box.height / 2 } });
  const legend = await plot.locator('.u-legend').textContent();
  assert.match(legend, /^Time[0-9.]+ sThrottled[0-9,.]+Outage failure[0-9,.]+Success[0-9,.]+Goodput \(completed\)[0-9,.]+$/, legend);
  await page.screenshot({ path: screenshotPath('storm-desktop'), fullPage: true });
  assertClean(opened);
  await opened.context.close();
});

test('storm lab II: the metastable preset shows goodput and the budget\'s refusals, with their text twins; a budget typed wrong is refused by name', async () => {
  const opened = await storm(`${h.base}storm.html`);
  const { page } = opened;
  await settled(page);
  // The first visit runs the first preset: jitter completes more jobs than no jitter.
  const first = await readSummary(page);
  assert.deepEqual(first.runs, ['No jitter', 'Full jitter', 'Equal jitter', 'Decorrelated jitter']);
  for (const key of ['full', 'equal', 'decorrelated']) assert.ok(first.completed[key] > first.completed.none, `${key} completes more than none`);
  await preset(page, 'A metastable failure: no budget, then gRPC and AWS budgets').click();
  assert.equal(await settled(page), 'done', await page.locator('#storm-status').textContent());
  const summary = await readSummary(page);
  assert.deepEqual(summary.runs, ['No jitter, no budget', 'No jitter, budget grpc:10:0.1', 'No jitter, budget aws-standard']);
  const [none, grpc, aws] = summary.keys;
  assert.equal(summary.retriesDenied[none], 0);
  assert.ok(summary.retriesDenied[grpc] > 0 && summary.retriesDenied[aws] > 0, 'the budgets refuse retries');
  assert.ok(summary.goodput[grpc] > 5 * summary.goodput[none], 'goodput recovers with a budget');
  assert.ok(summary.amplification[none] > 2.7 && summary.amplification[grpc] < 1.01);
  assert.equal(summary.quarantinedByBudget[grpc], summary.retriesDenied[grpc]);
  assert.match(summary['goodput:text'][1], /^[0-9,.]+$/);
  assert.equal(summary['amplification:text'][0], '2.80');
  assert.match(await page.evaluate(() => location.hash), /;g=-,grpc:10:0\.1,aws-standard;s=1000:500;d=5000:1000:100$/);
  // The charts draw goodput and the refusals (their legends), the depth chart the server's queue.
  const legends = await page.locator('.storm-run').nth(1).locator('.u-legend').allTextContents();
  assert.match(legends[0], /Goodput \(completed\).*Retries refused/);
  assert.match(legends[1], /Server queue/);
  await page.screenshot({ path: screenshotPath('storm-metastable'), fullPage: true });
  // A budget the core cannot read: refused by name next to its field, nothing runs.
  await page.getByLabel('Retry budgets to compare').fill('grpc:10');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await settled(page);
  assert.equal(await page.locator('#storm-error').textContent(),
    'Retry budgets to compare: budget must be grpc:MAX_TOKENS:TOKEN_RATIO, aws-standard or finagle:PERCENT:MIN_PER_S:WINDOW_MS, got "grpc:10"');
  assert.equal(await page.getByLabel('Retry budgets to compare').getAttribute('aria-invalid'), 'true');
  assertClean(opened);
  await opened.context.close();
});

test('Cancel stops a 1,000,000-job run: the page says so, nothing more arrives, Run works again', async () => {
  const opened = await storm(`${h.base}storm.html#${MILLION}`);
  const { page } = opened;
  assert.equal(await page.locator('#results').getAttribute('data-state'), 'idle', 'a link of up to 40 million attempts waits for Run');
  assert.match(await page.locator('#storm-status').textContent(),
    /^This link is a storm of 1,000,000 jobs in 4 runs: up to 40,000,000 attempts within 15\.1 s of simulated time, more than a link starts by itself \(10,000,000 attempts\)\. Press Run to start it\.$/);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => document.getElementById('storm-progress').value > 0, null, { timeout: 60_000 });
  await page.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await page.locator('#results').getAttribute('data-state'), 'cancelled');
  assert.match(await page.locator('#storm-status').textContent(), /^Cancelled at [0-9]+%/);
  await page.waitForTimeout(300);  // a storm that had finished draws its charts
  const before = await page.evaluate(() => [document.getElementById('storm-progress').value, document.querySelectorAll('.storm-run').length]);
  await page.waitForTimeout(1500);
  const later = await page.evaluate(() => [document.getElementById('storm-progress').value, document.querySelectorAll('.storm-run').length]);
  assert.deepEqual(later, before, 'no progress and no result after Cancel');
  assert.equal(await page.getByRole('button', { name: 'Cancel' }).isDisabled(), true);
  // A new run works (a new worker).
  await page.getByLabel('Jobs', { exact: true }).fill('1000');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  assert.equal(await settled(page), 'done');
  const summary = await readSummary(page);
  for (const key of summary.keys) assert.equal(summary.completed[key] + summary.quarantined[key], 1000);
  assertClean(opened);
  await opened.context.close();
});

// The guard: a link starts by itself only when its whole cost is bounded (stormCost in
// web/src/storm/storm-presets.mjs). This link from issue 20 asks for 10^11 attempts (about an
// hour of one core); before the guard counted attempts it started on open, and its
// progress (finished jobs: none until the very end) stayed at 0%.
const HOURS = 's1;n=100000;a=b;o=0:86400000;c=-;w=100000;t=1;l=30000;m=1000000;b=n;r=1;j=n';

test('a link that would run for hours waits for Run and says what it costs; once run, progress counts attempts', async () => {
  const opened = await storm(`${h.base}storm.html#${HOURS}`);
  const { page } = opened;
  // loadFromHash decides before the page marks itself ready: a started run would show 'running' here.
  assert.equal(await page.locator('#results').getAttribute('data-state'), 'idle', 'nothing started');
  assert.equal(await page.locator('#storm-status').textContent(),
    'This link is a storm of 100,000 jobs in one run: up to 100,000,000,000 attempts within 24 h 0 min of simulated time, '
    + 'more than a link starts by itself (10,000,000 attempts). Press Run to start it.');
  assert.equal(await page.locator('#storm-progress').evaluate((p) => p.value), 0);
  assert.equal(await page.locator('.storm-run').count(), 0);
  assert.equal(await page.getByLabel('Max attempts', { exact: true }).inputValue(), '1000000', 'the form holds the link');
  assert.equal(await page.locator('#storm-link').textContent(), `storm.html#${HOURS}`, 'the link is shown');
  await page.screenshot({ path: screenshotPath('storm-guard'), fullPage: false });

  // Run: no job finishes before the end (every one is quarantined after its millionth attempt),
  // so only a count of attempts can move the bar. It moves, and the count under it grows.
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  assert.equal(await page.locator('#results').getAttribute('data-state'), 'running');
  await page.waitForFunction(() => document.getElementById('storm-progress').value > 0, null, { timeout: 60_000 });
  const count = async () => {
    const text = await page.locator('#storm-count').textContent();
    const m = /^No jitter: ([0-9,]+) attempts of at most 100,000,000,000$/.exec(text);
    assert.ok(m, text);
    return Number(m[1].replaceAll(',', ''));
  };
  const first = await count();
  assert.ok(first > 0);
  await page.waitForFunction((before) => {
    const m = /([0-9,]+) attempts/.exec(document.getElementById('storm-count').textContent);
    return m && Number(m[1].replaceAll(',', '')) > before;
  }, first, { timeout: 60_000 });
  const value = await page.locator('#storm-progress').evaluate((p) => p.value);
  assert.ok(value > 0 && value < 0.5, `progress ${value}`);
  assert.match(await page.locator('#storm-progress').getAttribute('aria-valuetext'), /^0%, No jitter: [0-9,]+ attempts of at most 100,000,000,000$/);
  await page.screenshot({ path: screenshotPath('storm-guard-running'), fullPage: false });
  await page.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await page.locator('#results').getAttribute('data-state'), 'cancelled');
  assertClean(opened);
  await opened.context.close();
});

test('a link within the bound still starts by itself, 1,000,000 jobs included when its cost is small', async () => {
  // One strategy, 1,000 workers: at most 2,502,000 attempts (the time horizon bounds them).
  const link = 's1;n=1000000;a=b;o=0:5000;c=-;w=1000;t=10;l=30000;m=10;b=e:100:10000;r=1;j=f';
  const opened = await storm(`${h.base}storm.html#${link}`);
  const { page } = opened;
  // Started with no Run: the page decides once the core has costed the link, and a small run
  // may be over by the time the test looks, so 'running' and 'done' both say it started.
  assert.ok(['running', 'done'].includes(await page.locator('#results').getAttribute('data-state')), 'started on open');
  assert.equal(await settled(page), 'done', await page.locator('#storm-status').textContent());
  const summary = await readSummary(page);
  assert.ok(summary.attempts.full <= 2_502_000, `${summary.attempts.full} attempts, within the estimate`);
  assert.equal(summary.completed.full + summary.quarantined.full, 1_000_000);
  assertClean(opened);
  await opened.context.close();
});

test('contention links: 1,000 runs a point wait for Run and say the cost; Run starts them; 2 runs start by themselves', async () => {
  const opened = await storm(`${h.base}storm.html#c1;k=1000`);
  const { page } = opened;
  assert.equal(await page.locator('#results').getAttribute('data-state'), 'idle', 'nothing started');
  assert.equal(await page.locator('#storm-status').textContent(),
    'This link is the contention experiment with 1,000 runs a point: about 82,000,000 calls, more than a link starts by itself (2,000,000). Press Run to start it.');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  assert.equal(await page.locator('#results').getAttribute('data-state'), 'running');
  assert.match(await page.locator('#storm-status').textContent(), /^Running the contention experiment/, 'Run starts the contention experiment, not the form\'s storm');
  await page.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await page.locator('#results').getAttribute('data-state'), 'cancelled');
  assertClean(opened);
  await opened.context.close();

  const small = await storm(`${h.base}storm.html#c1;r=3;k=2`);
  assert.ok(['running', 'done'].includes(await small.page.locator('#results').getAttribute('data-state')), 'started on open');
  assert.equal(await settled(small.page), 'done');
  assert.equal(await small.page.locator('#contention-calls tbody tr').count(), 10);
  assertClean(small);
  await small.context.close();
});

test('a bad field is refused by name next to the form, and nothing runs', async () => {
  const opened = await storm(`${h.base}storm.html#${MILLION}`);
  const { page } = opened;
  const hash = await page.evaluate(() => location.hash);
  const jobs = page.getByLabel('Jobs', { exact: true });
  await jobs.fill('5');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  assert.equal(await settled(page), 'refused');
  const error = page.getByRole('alert');
  assert.match(await error.textContent(), /^Jobs: jobs must be .*got 5$/);
  assert.equal(await jobs.getAttribute('aria-invalid'), 'true');
  assert.match(await jobs.getAttribute('aria-describedby'), /storm-error/);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'f-jobs', 'focus moves to the refused field');
  assert.equal(await page.locator('.storm-run').count(), 0, 'nothing ran');
  assert.equal(await page.locator('#storm-progress').evaluate((p) => p.value), 0);
  assert.equal(await page.evaluate(() => location.hash), hash, 'the link is unchanged');
  // Another field: the core names it, the page names its label.
  await jobs.fill('1000');
  await page.getByLabel('Work time (ms)').fill('40000');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  assert.equal(await settled(page), 'refused');
  assert.match(await error.textContent(), /^(Work time \(ms\): workMs|Lease time \(ms\): leaseMs)/);
  assert.equal(await jobs.getAttribute('aria-invalid'), null, 'the earlier mark is gone');
  // A fixed backoff with decorrelated jitter: the strategies are named.
  await page.getByLabel('Work time (ms)').fill('10');
  await page.getByLabel('Backoff').selectOption('fixed');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  assert.equal(await settled(page), 'refused');
  assert.match(await error.textContent(), /^Strategies to compare: backoff\.jitter/);
  // No strategy at all: the page says so itself.
  for (const box of await page.getByRole('group', { name: 'Strategies to compare' }).getByRole('checkbox').all()) await box.uncheck();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  assert.match(await error.textContent(), /^Strategies to compare: choose at least one strategy/);
  assert.equal(await page.locator('.storm-run').count(), 0);
  assertClean(opened);
  await opened.context.close();
});

for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }, { width: 320, height: 720 }]) {
  test(`at ${viewport.width} px: axe clean with results on show, no sideways scroll, charts fit their column`, async () => {
    const opened = await storm(`${h.base}storm.html#${formatStormLink(PRESETS.find((p) => p.key === 'capacity').scenario)}`, { viewport });
    const { page } = opened;
    assert.equal(await settled(page), 'done');
    // The results are below the first screen at every width: no chart is drawn until its column
    // comes near it (a phone that shows the form pays for none at load).
    await page.locator('.storm-run').first().waitFor();
    await page.waitForTimeout(300);
    assert.equal(await page.locator('.storm-plot canvas').count(), 0, 'no chart drawn before the reader scrolls to it');
    await readSummary(page);
    const results = await new AxeBuilder({ page }).analyze();
    assert.deepEqual(results.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`), []);
    const levels = await page.evaluate(() => [...document.querySelectorAll('h1, h2, h3, h4')].map((el) => Number(el.tagName[1])));
    assert.equal(levels.filter((l) => l === 1).length, 1, 'one h1');
    for (let i = 1; i < levels.length; i++) assert.ok(levels[i] <= levels[i - 1] + 1, `h${levels[i - 1]} then h${levels[i]}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, 'no sideways scrolling');
    const fits = await page.evaluate(() => [...document.querySelectorAll('.storm-plot')].every((plot) => {
      const canvas = plot.querySelector('canvas').getBoundingClientRect();
      const column = plot.getBoundingClientRect();
      return canvas.width <= column.width + 1 && canvas.width >= column.width - 40;
    }));
    assert.ok(fits, 'each chart is as wide as its column, and no wider');
    assert.equal(await page.locator('#storm-summary caption').textContent(), 'Summary per strategy');
    assert.match(await page.locator('.storm-scenario-line').textContent(), /^10,000 jobs, all at once, outage of 5 s from 0 ms, capacity 1,000 per 1 s, /);
    assert.equal(await page.locator('.storm-plot[aria-hidden="true"]').count(), await page.locator('.storm-plot').count(), 'charts are hidden from assistive technology; the table is their text');
    await page.screenshot({ path: screenshotPath(`storm-${viewport.width}`), fullPage: viewport.width !== 1280 });
    assertClean(opened);
    await opened.context.close();
  });
}

// Long tasks are wall-clock time: on a machine whose cores are busy with other work the OS can
// stall the page's main thread in the middle of a short task and make it "long". So the run is
// tried up to three times, and one run without a long task passes; every run's long tasks are
// printed. A page that blocks for real (a synchronous chart build, the simulation on the main
// thread) fails all three.
// How long a million-job run takes and whether the main thread stays responsive
// (no task over 50 ms) is measured by `npm run bench:page`, which prints it: a
// timed assertion here would fail on a loaded machine without the page being slow.
test('a 1,000,000-job run in the worker: every job of every strategy accounted for, and the charts drawn', async (t) => {
  const opened = await storm(`${h.base}storm.html#${MILLION}`);
  const { page } = opened;
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  assert.equal(await settled(page), 'done', await page.locator('#storm-status').textContent());
  const summary = await readSummary(page);
  t.diagnostic(`attempts ${JSON.stringify(summary.attempts)}; peak after recovery ${JSON.stringify(summary.peakRateAfterRecovery)}`);
  for (const key of summary.keys) assert.equal(summary.completed[key] + summary.quarantined[key], 1_000_000, key);
  await page.screenshot({ path: screenshotPath('storm-million'), fullPage: true });
  assertClean(opened);
  await opened.context.close();
});

test('the link round-trips: a preset\'s address reproduces the same form and the same table in a new page', async () => {
  for (const p of PRESETS.filter((x) => x.scenario)) {
    const text = formatStormLink(p.scenario);
    assert.equal(formatStormLink(parseStormLink(text).scenario), text, p.key);
  }
  assert.equal(formatContentionLink(parseStormLink('c1;r=7;k=3').contention), 'c1;r=7;k=3');
  assert.throws(() => parseStormLink('s1;n=12x'), /n \(jobs\): expected an integer/);
  assert.throws(() => parseStormLink('s1;z=1'), /unknown field z/);

  const first = await storm(`${h.base}storm.html`);
  await settled(first.page);
  await preset(first.page, 'Redrive the quarantine: all at once vs in batches').click();
  assert.equal(await settled(first.page), 'done');
  const hash = await first.page.evaluate(() => location.hash);
  assert.equal(hash, `#${formatStormLink(PRESETS.find((p) => p.key === 'redrive').scenario)}`);
  const summary = await readSummary(first.page);
  assert.deepEqual(summary.runs, ['Full jitter, all at once', 'Full jitter, 800 a second']);
  assert.match(await first.page.locator('#storm-note').textContent(), /no redrive operation of its own/);
  const form = (page) => page.evaluate(() => [...document.querySelectorAll('#storm-form input, #storm-form select')]
    .map((el) => (el.type === 'checkbox' || el.type === 'radio' ? el.checked : el.value)));
  const firstForm = await form(first.page);
  // A preset adds a history entry: Back returns to the scenario before it.
  await first.page.goBack();
  await first.page.waitForFunction((h) => location.hash !== h && document.getElementById('results').dataset.state === 'done'
    && !document.getElementById('storm-link').textContent.endsWith(h), hash, { timeout: RUN_TIMEOUT });
  // Back to the first preset's scenario, which the first visit ran.
  assert.match(await first.page.evaluate(() => location.hash), /^#s1;n=10000;a=b;o=0:5000;c=1500:1000;/);
  assertClean(first);
  await first.context.close();

  const second = await storm(`${h.base}storm.html${hash}`);
  assert.equal(await settled(second.page), 'done');
  assert.deepEqual(await form(second.page), firstForm, 'the same form');
  assert.deepEqual(await readSummary(second.page), summary, 'the same table');
  assertClean(second);
  await second.context.close();
});

test('the contention experiment: total calls and completion time per client count, jitter cutting calls against plain exponential', async () => {
  const opened = await storm(`${h.base}storm.html`);
  const { page } = opened;
  await settled(page);
  await preset(page, 'The contention experiment').click();
  assert.equal(await settled(page), 'done', await page.locator('#storm-status').textContent());
  assert.match(await page.evaluate(() => location.hash), /^#c1;r=1;k=[0-9]+$/);
  const calls = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#contention-calls tbody tr')].map((tr) => [tr.dataset.clients,
    Object.fromEntries([...tr.querySelectorAll('td')].map((td) => [td.dataset.strategy, Number(td.dataset.value)]))])));
  assert.deepEqual(Object.keys(calls), ['10', '30', '50', '70', '90', '110', '130', '150', '170', '190']);
  for (const [clients, row] of Object.entries(calls)) {
    for (const value of Object.values(row)) assert.ok(value >= Number(clients), `${clients} clients: at least one call each`);
  }
  const largest = calls['190'];
  for (const k of ['full', 'equal', 'decorrelated']) assert.ok(largest[k] < largest.exponential, `${k} jitter makes fewer calls than plain exponential at 190 clients`);
  assert.equal(await page.locator('#contention-time tbody tr').count(), 10);
  assert.match(await page.locator('.storm-compare').textContent(), /Exponential Backoff And Jitter[^]*at 190 clients, plain exponential backoff made/);
  await page.screenshot({ path: screenshotPath('storm-contention'), fullPage: true });
  assertClean(opened);
  await opened.context.close();
});
