// The timeline's lane labels at size (web/src/playground/timeline.mjs): only the
// labels of the lanes in view (plus a margin) are in the DOM, each at its lane's
// top and in lane order; the column is as wide as the longest id makes it, as if
// every label were there; scrolling brings the labels of the lanes scrolled to.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, assertClean, playground } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

const LANE = 30;

/** The labels in the DOM: text, top (px), classes; and the column's width. */
const labels = (timeline) => timeline.evaluate((el) => {
  const ol = el.querySelector('.dlq-tl-labels');
  return {
    width: ol.getBoundingClientRect().width,
    height: ol.getBoundingClientRect().height,
    shown: [...ol.children].map((li) => ({ id: li.textContent, title: li.title, top: parseFloat(li.style.top), alt: li.classList.contains('is-alt') })),
  };
});

const frame = (page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));

test('1,000 lanes: the labels in view only, at their lanes, the column as wide as the longest id', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`);
  const { page } = opened;
  const pg = playground(page);
  const long = 'job-0700-xyz';  // one id longer than the others (and short enough for the column's cap): it sizes the column
  await page.evaluate((longId) => {
    const jobs = Array.from({ length: 1000 }, (_, i) => ({ id: i === 700 ? longId : `job-${String(i).padStart(4, '0')}`, payload: '' }));
    const actions = Array.from({ length: 10 }, () => ({ type: 'process', outcome: 'success', error: '' }));
    document.querySelector('dlq-playground').controller.load({ maxAttempts: 3, jobs, actions });
  }, long);
  await frame(page);
  const timeline = pg.region('Timeline');
  const before = await labels(timeline);
  assert.ok(before.shown.length > 5 && before.shown.length < 40, `a window of labels, not 1,000 (${before.shown.length})`);
  assert.equal(before.height, 1000 * LANE, 'the column is as tall as every lane');
  before.shown.forEach((label, k) => {
    const lane = before.shown[0].top / LANE + k;
    assert.equal(label.top, lane * LANE, `label ${k} sits at its lane's top`);
    assert.equal(label.title, label.id, 'the title is the whole id');
    assert.equal(label.alt, lane % 2 === 1, 'every other lane is shaded');
  });
  // The view follows the cursor's latest event (job-0009's lane): its label is drawn.
  assert.ok(before.shown.some((l) => l.id === 'job-0009'), before.shown.map((l) => l.id).join(' '));
  // The column's width (plus its 1 px border) is what the longest id gives a label, measured here in the labels' own font.
  const natural = await timeline.evaluate((el, id) => {
    const li = document.createElement('li');
    li.textContent = id;
    li.style.cssText = 'position: static; display: inline-block; width: max-content';
    el.querySelector('.dlq-tl-labels').append(li);
    const w = li.getBoundingClientRect().width;
    li.remove();
    return w;
  }, long);
  assert.ok(natural > 100, `the long id is the widest (${natural}px)`);
  assert.ok(Math.abs(before.width - (Math.min(132, natural) + 1)) <= 1.5, `column ${before.width}px for a ${natural}px longest label`);

  // Scrolled down to lane 690: the labels there are drawn (the long one among them), the first ones are gone.
  await timeline.locator('.dlq-tl-scroll').evaluate((sc) => { sc.scrollTop = 690 * 30; });
  await frame(page);
  await frame(page);
  const after = await labels(timeline);
  assert.ok(after.shown.length < 40, `still a window (${after.shown.length})`);
  assert.ok(!after.shown.some((l) => l.id === 'job-0009'), 'the labels scrolled away left the DOM');
  const at = after.shown.find((l) => l.title === long);
  assert.ok(at, `the label of lane 700 is drawn: ${after.shown.map((l) => l.id).join(' ')}`);
  assert.equal(at.top, 700 * LANE);
  assert.equal(after.width, before.width, 'the column keeps its width while scrolling');
  const ids = after.shown.map((l) => l.top);
  assert.deepEqual(ids, [...ids].sort((a, b) => a - b), 'the DOM holds the labels in lane order');
  assertClean(opened);
  await opened.context.close();
});
