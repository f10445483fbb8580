// The time axis (web/src/playground/timeline.mjs): every clock playground — the
// lesson pages' and the playground's — draws a linear axis that fits the
// scenario to the width and reads out "now"; the world's outage is a named band;
// zoom and pan work by buttons, keys, Ctrl + wheel and a drag; and lesson 2's
// jitter exercise shows its four runs differently at a glance, without scrolling.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, assertClean, screenshotPath, playground, lessonPlayground, runToEnd } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

// Lesson 2's clock playgrounds: features clock or world, or none given (the scenario decides).
const CLOCK = ['l2-backoff', 'l2-jitter', 'l2-outage', 'l2-lease', 'l2-classes', 'l2-order', 'l2-operate', 'l2-bounded', 'l2-systems'];

/** What the timeline shows now: its zoom, the strip's and the view's widths, the scroll offset. */
const geometry = (timeline) => timeline.evaluate((el) => {
  const sc = el.querySelector('.dlq-tl-scroll');
  const svg = el.querySelector('.dlq-tl-lanes');
  return {
    zoom: Number(el.dataset.zoom), strip: Number(svg.getAttribute('width')), scrollWidth: sc.scrollWidth,
    clientWidth: sc.clientWidth, left: sc.scrollLeft, range: el.querySelector('.dlq-tl-range').textContent,
  };
});

test('every clock playground shows "now" on a linear time axis; lesson 1\'s keep their steps', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-2.html`);
  const { page } = opened;
  for (const id of CLOCK) {
    const pg = await lessonPlayground(page, id);
    const group = pg.timeline.getByRole('group', { name: /^Events along the virtual clock/ });
    assert.equal(await group.count(), 1, `${id}: the time axis`);
    const now = pg.timeline.locator('.dlq-tl-now');
    assert.ok(await now.isVisible(), `${id}: the "now" readout is shown`);
    assert.match(await now.textContent(), /^Now \d[\d,]* ms · step \d+$/, id);
    assert.equal((await geometry(pg.timeline)).zoom, 1, `${id}: fitted to the width`);
    assert.ok(await pg.timeline.locator('.dlq-now.is-line').count() > 0, `${id}: a "now" line`);
  }
  // "now" follows the session's clock: Step in the backoff playground moves it.
  const backoff = await lessonPlayground(page, 'l2-backoff');
  await backoff.root.getByRole('group', { name: 'Outcome' }).getByRole('radio', { name: 'Transient failure', exact: true }).check();
  await backoff.button('Step').click();
  await backoff.button('Next event').click();
  assert.match(await backoff.timeline.locator('.dlq-tl-now').textContent(), /^Now 100 ms · step 1$/);
  assertClean(opened);
  await opened.context.close();

  const one = await openPage(h.browser, `${h.base}lesson-1.html`);
  const count = await lessonPlayground(one.page, 'l1-count');
  assert.equal(await count.timeline.locator('.dlq-tl-now').isVisible(), false, 'lesson 1 has no clock');
  assert.equal(await count.timeline.getByRole('group', { name: /^Events, one lane per job and one column per step/ }).count(), 1);
  assertClean(one);
  await one.context.close();

  const play = await openPage(h.browser, `${h.base}playground.html`);
  const pg = playground(play.page);
  assert.equal(await pg.region('Timeline').locator('.dlq-tl-now').isVisible(), false, 'the default (lesson 1) scenario has no clock');
  await pg.button('Outage outlasted').click();
  assert.match(await pg.region('Timeline').locator('.dlq-tl-now').textContent(), /^Now 0 ms · step 0$/);
  await runToEnd(pg);
  assert.match(await pg.region('Timeline').locator('.dlq-tl-now').textContent(), /^Now [\d,]+ ms · step \d+$/);
  assert.equal(await pg.region('Timeline').getByRole('img', { name: 'Outage: the dependency is down from 0 ms to 3,000 ms' }).count(), 1);
  // Zoomed in, then another scenario: it is shown whole.
  await pg.region('Timeline').getByRole('button', { name: 'Zoom in' }).click();
  assert.equal((await geometry(pg.region('Timeline'))).zoom, 2);
  await pg.button('Outage exhausts budget').click();
  assert.equal((await geometry(pg.region('Timeline'))).zoom, 1);
  assertClean(play);
  await play.context.close();
});

test('the outage is a named band on the axis; zoom and pan by buttons, keys, Ctrl + wheel and a drag', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-2.html`);
  const { page } = opened;
  const pg = await lessonPlayground(page, 'l2-outage');
  const band = pg.timeline.getByRole('img', { name: 'Outage: the dependency is down from 0 ms to 3,000 ms' });
  assert.equal(await band.count(), 1, 'the band is named for assistive technology');
  assert.equal(await pg.timeline.locator('.dlq-tl-axis .dlq-band-label').textContent(), 'outage 0 – 3 s', 'and in words on the axis');
  assert.match(await pg.timeline.locator('.dlq-tl-note').textContent(), /Shaded: the outage, 0 ms to 3,000 ms \(the dependency is down\)\./);
  assert.equal(await pg.timeline.getByRole('listitem').filter({ hasText: 'Outage: the dependency is down' }).isVisible(), true, 'the legend');
  await runToEnd(pg);
  let g = await geometry(pg.timeline);
  assert.equal(g.zoom, 1);
  assert.ok(g.scrollWidth <= g.clientWidth + 1, `fitted: nothing to scroll (${g.scrollWidth} > ${g.clientWidth})`);
  assert.match(g.range, /^0 – [\d.]+ s: the whole scenario$/);
  // The band is as wide as 3 s on the linear scale: 3,000 ms of the ticks' px per ms.
  const scale = await pg.timeline.evaluate((el) => {
    const ticks = [...el.querySelectorAll('.dlq-tl-axis text.dlq-tick')].map((t) => [t.textContent, Number(t.getAttribute('x'))]);
    const rect = el.querySelector('.dlq-tl-lanes .dlq-band-rect');
    return { ticks, band: Number(rect.getAttribute('width')) };
  });
  const oneSecond = scale.ticks.find(([t]) => t === '1 s');
  const twoSeconds = scale.ticks.find(([t]) => t === '2 s');
  assert.ok(oneSecond && twoSeconds, `ticks at round times: ${scale.ticks.map(([t]) => t)}`);
  assert.ok(Math.abs(scale.band - 3 * (twoSeconds[1] - oneSecond[1])) < 1.5, `the band spans 3 s (${scale.band} px)`);
  await page.screenshot({ path: screenshotPath('time-axis-outage'), fullPage: false });

  // Buttons: Zoom in twice, Later, Earlier, Fit.
  await pg.button('Zoom in').click();
  await pg.button('Zoom in').click();
  g = await geometry(pg.timeline);
  assert.equal(g.zoom, 4);
  assert.ok(g.strip > 3 * g.clientWidth, `the strip is 4× as wide (${g.strip} vs ${g.clientWidth})`);
  assert.match(g.range, / in view$/);
  const before = g.left;
  await pg.button('Later').click();
  await page.waitForFunction((b) => document.querySelector('#l2-outage .dlq-tl-scroll').scrollLeft > b, before);
  const later = (await geometry(pg.timeline)).left;
  await pg.button('Earlier').click();
  await page.waitForFunction((l) => document.querySelector('#l2-outage .dlq-tl-scroll').scrollLeft < l, later);
  await pg.button('Fit the whole scenario').click();
  assert.equal((await geometry(pg.timeline)).zoom, 1);

  // Keys, with focus in the timeline: + zooms in, - out, 0 fits, Shift + → pans.
  await pg.timeline.locator('.dlq-ev[tabindex="0"]').focus();
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  assert.equal((await geometry(pg.timeline)).zoom, 8);
  await page.keyboard.press('-');
  assert.equal((await geometry(pg.timeline)).zoom, 4);
  const keyLeft = (await geometry(pg.timeline)).left;
  await page.keyboard.press('Shift+ArrowRight');
  await page.waitForFunction((l) => document.querySelector('#l2-outage .dlq-tl-scroll').scrollLeft > l, keyLeft);
  await page.keyboard.press('0');
  assert.equal((await geometry(pg.timeline)).zoom, 1);

  // Ctrl + wheel over the lanes zooms in around the pointer; a drag pans.
  const lanes = await pg.timeline.locator('.dlq-tl-scroll').boundingBox();
  await page.mouse.move(lanes.x + lanes.width * 0.6, lanes.y + lanes.height - 12);
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -400);
  await page.keyboard.up('Control');
  await page.waitForFunction(() => Number(document.querySelector('#l2-outage .dlq-timeline').dataset.zoom) > 2);
  const dragFrom = (await geometry(pg.timeline)).left;
  await page.mouse.down();
  await page.mouse.move(lanes.x + lanes.width * 0.2, lanes.y + lanes.height - 12, { steps: 5 });
  await page.mouse.up();
  assert.ok((await geometry(pg.timeline)).left > dragFrom + 100, 'dragged left: later times come into view');
  await pg.timeline.screenshot({ path: screenshotPath('time-axis-zoomed') });
  assertClean(opened);
  await opened.context.close();
});

test('the jitter exercise: its four runs differ visibly, without scrolling', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-2.html`);
  const { page } = opened;
  const pg = await lessonPlayground(page, 'l2-jitter');
  await runToEnd(pg);
  const shapes = {};
  for (const jitter of ['none', 'full', 'equal', 'decorrelated']) {
    if (jitter !== 'none') {
      await pg.button('Reset').click();
      const details = pg.root.locator('details.dlq-advanced');
      if (!(await details.evaluate((d) => d.open))) await details.locator('summary').click();
      await pg.field('Jitter').selectOption(jitter);
    }
    await pg.timeline.scrollIntoViewIfNeeded();
    const seen = await pg.timeline.evaluate((el) => {
      const sc = el.querySelector('.dlq-tl-scroll');
      const view = sc.getBoundingClientRect();
      const attempts = [...el.querySelectorAll('.dlq-ev.g-transient, .dlq-ev.g-success')].map((g) => g.getBoundingClientRect());
      return {
        scrolls: sc.scrollWidth > sc.clientWidth + 1 || sc.scrollHeight > sc.clientHeight + 1,
        inView: attempts.every((r) => r.left >= view.left && r.right <= view.right && r.top >= view.top && r.bottom <= view.bottom),
        xs: attempts.map((r) => Math.round(r.left + r.width / 2)),
        count: attempts.length,
      };
    });
    assert.equal(seen.scrolls, false, `${jitter}: the whole run fits, nothing to scroll`);
    assert.ok(seen.inView, `${jitter}: every attempt is in view`);
    assert.ok(seen.count >= 24, `${jitter}: the run's attempts are drawn (${seen.count})`);
    shapes[jitter] = seen.xs;
    await pg.timeline.screenshot({ path: screenshotPath(`time-axis-jitter-${jitter}`) });
  }
  // Without jitter the attempts stand in four columns of six; with any jitter they spread out.
  const columns = (xs) => new Set(xs.map((x) => Math.round(x / 4))).size;
  assert.ok(columns(shapes.none) <= 5, `none: the lockstep columns (${columns(shapes.none)})`);
  for (const jitter of ['full', 'equal', 'decorrelated']) {
    assert.ok(columns(shapes[jitter]) >= 2 * columns(shapes.none), `${jitter} spreads the attempts (${columns(shapes[jitter])} places)`);
  }
  const names = Object.keys(shapes);
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      assert.notDeepEqual(shapes[names[i]], shapes[names[j]], `${names[i]} and ${names[j]} look different`);
    }
  }
  assertClean(opened);
  await opened.context.close();
});

test('the Retry schedule card: attempt → delay → start from the core, and the outage the learner picks', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-2.html`);
  const { page } = opened;
  const pg = await lessonPlayground(page, 'l2-outage');
  // The card answers the level's predict question: it is drawn once that question is answered.
  const predict = page.locator('dlq-predict[for="l2-outage"]');
  await predict.locator('.predict-choice').first().click();
  await predict.getByRole('button', { name: 'Check my answer' }).click();
  const card = pg.root.getByRole('group', { name: 'Retry schedule', exact: true });
  await card.scrollIntoViewIfNeeded();
  const rows = () => card.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  const answer = card.locator('.dlq-sched-answer');
  // Exponential from 250 ms, 3 attempts of 100 ms each (the world's work time): no jitter, so one exact schedule.
  assert.deepEqual(await rows(), [['1', '250 ms', '0 ms'], ['2', '500 ms', '350 ms'], ['3', '— (quarantine)', '950 ms']]);
  assert.match(await card.locator('.dlq-sched-summary').textContent(), /^3 attempts for a job that keeps failing transiently, each taking 100 ms\. No jitter/);
  const outage = card.getByLabel('Does the budget outlast an outage of');
  assert.equal(await outage.inputValue(), '3000', 'the world\'s outage to begin with');
  assert.equal(await answer.textContent(), 'No: the last attempt finishes at 1,050 ms, inside a 3,000 ms outage; the job is quarantined as exhausted.');
  await outage.fill('1000');
  assert.equal(await answer.textContent(), 'Yes: the last attempt finishes at 1,050 ms, after a 1,000 ms outage.');
  // A bad length is the core's refusal, by name.
  await outage.fill('');
  assert.equal(await card.getByRole('alert').textContent(), 'outageMs must be an integer from 0 to 9007199254740991, got NaN');
  await outage.fill('3000');
  assert.equal(await card.getByRole('alert').isVisible(), false);
  // The exercise's fix, a 1 s base: the card follows the policy in force.
  const details = pg.root.locator('details.dlq-advanced');
  if (!(await details.evaluate((d) => d.open))) await details.locator('summary').click();
  await pg.field('Base delay (ms)').fill('1000');
  await pg.field('Base delay (ms)').press('Tab');
  await page.waitForFunction(() => document.querySelector('#l2-outage .dlq-sched tbody td')?.textContent === '1,000 ms');
  assert.deepEqual((await rows()).map((r) => r[2]), ['0 ms', '1,100 ms', '3,200 ms']);
  assert.equal(await answer.textContent(), 'Yes: the last attempt finishes at 3,300 ms, after a 3,000 ms outage.');
  await card.screenshot({ path: screenshotPath('time-axis-schedule-exact') });
  assertClean(opened);
  await opened.context.close();

  // Under jitter: min · median · p99 of seeded runs, and the share that outlasts the outage.
  const play = await openPage(h.browser, `${h.base}playground.html`);
  const p = playground(play.page);
  await p.button('Storm, full jitter').click();
  const jittered = p.region('Retry schedule');
  assert.match(await jittered.locator('thead').textContent(), /Delay after it \(min · median · p99\)/);
  const text = await jittered.locator('.dlq-sched-answer').textContent();
  const m = text.match(/^Yes in ([\d.]+)% of the runs \(([\d,]+) of 1,000\): the last attempt finishes at /);
  assert.ok(m, text);
  const share = Number(m[2].replace(',', '')) / 1000;
  assert.equal(Number(await jittered.getAttribute('data-probability')), share);
  assert.ok(Math.abs(Number(m[1]) / 100 - share) < 0.0006, 'the percentage is the count over the samples');
  const again = await jittered.locator('tbody').textContent();
  await p.button('Storm, full jitter').click();
  assert.equal(await jittered.locator('tbody').textContent(), again, 'seeded: the same policy, the same numbers');
  assertClean(play);
  await play.context.close();
});
