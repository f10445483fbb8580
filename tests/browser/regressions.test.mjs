// Regressions from the page review: the timeline's Tab stop (one, named, and
// following the cursor), <dlq-playground> before `ready` (removal frees the
// session; an early `scenario` change is applied), long ids in the cards and
// lane labels, the Event log's way back to the latest lines, and key badges
// that keep their padding inside buttons.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, playground, screenshotPath, assertClean } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

const SIZES = [['desktop', { width: 1280, height: 800 }], ['mobile', { width: 390, height: 844 }]];
const XSS = '<img src=x onerror=alert(1)>';


/** The role and accessible name Chromium computes for the focused element (or `selector`). */
async function accessible(page, selector = null) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const expression = selector ? `document.querySelector(${JSON.stringify(selector)})` : 'document.activeElement';
    const { result } = await cdp.send('Runtime.evaluate', { expression });
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { objectId: result.objectId, fetchRelatives: false });
    const node = nodes.find((n) => !n.ignored) ?? nodes[0];
    return { role: node.role?.value ?? '', name: (node.name?.value ?? '').trim(), ignored: Boolean(node.ignored) };
  } finally {
    await cdp.detach();
  }
}

/** Loads a scenario object into the page's playground (the controller's own load()). */
async function load(page, scenario) {
  await page.evaluate((s) => document.querySelector('dlq-playground').controller.load(s), scenario);
}

/** n jobs and a script of `steps` transient failures (10 attempts allowed): n + 2 × steps events. */
function bigScenario(n, steps) {
  return {
    maxAttempts: 10,
    jobs: Array.from({ length: n }, (_, i) => ({ id: `job-${i}`, payload: `order ${i}` })),
    actions: Array.from({ length: steps }, () => ({ type: 'process', outcome: 'transient', error: 'upstream 503' })),
  };
}

/** What the timeline's Tab stop is: its sequence number and label, plus how many glyphs are Tab stops. */
const tabStop = (page) => page.evaluate(() => {
  const stops = document.querySelectorAll('.dlq-timeline .dlq-ev[tabindex="0"]');
  const g = stops[0];
  return { count: stops.length, seq: g ? Number(g.dataset.seq) : null, label: g?.getAttribute('aria-label') ?? null };
});

test('timeline: one Tab stop, one Tab from "Position in script"; every Tab stop on the page has an accessible name', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`);
  const { page } = opened;
  const pg = playground(page);
  await pg.button('Step').click();
  await pg.field('Position in script').focus();
  await page.keyboard.press('Tab');
  const first = await page.evaluate(() => ({
    glyph: document.activeElement.matches('.dlq-timeline .dlq-ev[tabindex="0"]'),
    tag: document.activeElement.tagName,
    cls: document.activeElement.getAttribute('class'),
  }));
  assert.ok(first.glyph, `one Tab from the slider reaches the timeline's event (got ${first.tag}.${first.cls})`);
  const glyph = await accessible(page);
  assert.equal(glyph.role, 'button');
  assert.match(glyph.name, /^"a", step 1: /);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.closest('.dlq-timeline')), null, 'the next Tab leaves the timeline');
  const next = await accessible(page);
  // (Chromium's name follows the heading's CSS text-transform: "READY".)
  assert.deepEqual({ ...next, name: next.name.toLowerCase() }, { role: 'list', name: 'ready', ignored: false }, 'and lands on the Ready list');

  // A whole Tab cycle through the page: the timeline is one stop, and no stop is unnamed.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  const unnamed = [];
  let inTimeline = 0;
  let stops = 0;
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const where = await page.evaluate(() => {
      const a = document.activeElement;
      if (!a || a === document.body) return null;
      return { timeline: Boolean(a.closest('.dlq-timeline')), what: `${a.tagName.toLowerCase()}.${a.getAttribute('class') ?? ''}` };
    });
    if (!where) break; // wrapped past the end of the document
    stops += 1;
    if (where.timeline) inTimeline += 1;
    const { name, ignored } = await accessible(page);
    if (name === '' || ignored) unnamed.push(where.what);
  }
  assert.ok(stops > 20, `walked the page's Tab order (${stops} stops)`);
  assert.equal(inTimeline, 1, 'the timeline is exactly one Tab stop');
  assert.deepEqual(unnamed, [], 'every Tab stop has an accessible name');
  assertClean(opened);
  await opened.context.close();
});

test('timeline: the Tab stop follows the cursor (load, Back, slider, Forward) unless focus is in the timeline', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`);
  const { page } = opened;
  const pg = playground(page);
  const slider = pg.field('Position in script');
  const applied = async () => Number(await pg.region('Event log').locator('.dlq-count').textContent());
  /** Tab from the slider: focus must land on the latest event that has happened at the cursor. */
  async function expectLatest(what) {
    const stop = await tabStop(page);
    assert.equal(stop.count, 1, `${what}: exactly one event is a Tab stop`);
    assert.equal(stop.seq, await applied(), `${what}: the Tab stop is the latest applied event`);
    assert.match(stop.label, new RegExp(`, step ${await pg.step()}: `), `${what}: at the cursor's step`);
    await slider.focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => Number(document.activeElement.dataset.seq)), stop.seq, `${what}: Tab reaches it`);
  }

  // Focus a glyph at step 0 first, so a stale Tab stop would stay there.
  await pg.region('Timeline').locator('.dlq-ev[tabindex="0"]').focus();
  await page.keyboard.press('Home');
  await pg.button('Step').click();
  await expectLatest('Step');

  await load(page, bigScenario(300, 700)); // 1,700 events, cursor at the end (step 700)
  assert.equal(await pg.step(), 700);
  await expectLatest('a big load()');
  await pg.button('Back').click();
  await pg.button('Back').click();
  await expectLatest('Back');
  await slider.focus();
  await page.keyboard.press('Home');
  assert.equal(await pg.step(), 0);
  await expectLatest('slider Home');
  await slider.focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  assert.equal(await pg.step(), 5);
  await expectLatest('slider →');
  await pg.button('Forward').click();
  await pg.button('Forward').click();
  await expectLatest('Forward');

  // Focus in the timeline: Enter moves the cursor, the focused event keeps focus and the Tab stop.
  await slider.focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  const chosen = await page.evaluate(() => Number(document.activeElement.dataset.seq));
  await page.keyboard.press('Enter');
  assert.ok(await applied() < chosen + 3, 'Enter went back to that event');
  const after = await tabStop(page);
  assert.deepEqual({ count: after.count, seq: after.seq }, { count: 1, seq: chosen });
  assert.equal(await page.evaluate(() => Number(document.activeElement.dataset.seq)), chosen, 'focus stays on the event');
  assertClean(opened);
  await opened.context.close();
});

test('<dlq-playground> removed before ready frees its session: wasm heap back to baseline, no listeners left', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`);
  const { page } = opened;
  const cdp = await page.context().newCDPSession(page);
  const listeners = async (expression) => {
    const { result } = await cdp.send('Runtime.evaluate', { expression });
    const { listeners: all } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId });
    return all.filter((l) => l.type === 'hashchange' || l.type === 'keydown').length;
  };
  const settle = () => page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 400)));
  await settle();
  const heap = () => page.evaluate(async () => (await (await import('./wasm/index.mjs')).loadLab()).heapInUse());
  const baseline = { heap: await heap(), window: await listeners('window'), document: await listeners('document'), hash: new URL(page.url()).hash };

  // The measure is live: one kept playground (sync-url) costs heap and adds listeners.
  const kept = await page.evaluate(async () => {
    const el = document.createElement('dlq-playground');
    el.setAttribute('sync-url', '');
    el.setAttribute('scenario', 'v1;m3;ja:1,b:2;at,s');
    el.id = 'kept';
    document.body.append(el);
    return (await el.ready) !== null;
  });
  assert.ok(kept);
  assert.ok(await heap() > baseline.heap, 'a live playground holds heap');
  assert.ok(await listeners('window') > baseline.window, 'and a hashchange listener');
  await page.evaluate(() => document.querySelector('#kept').remove());
  await settle();
  assert.equal(await heap(), baseline.heap, 'removing a ready playground frees it');

  // 20 created and removed before they were ready.
  const results = await page.evaluate(async () => {
    const readies = [];
    for (let i = 0; i < 20; i++) {
      const el = document.createElement('dlq-playground');
      el.setAttribute('sync-url', '');
      el.setAttribute('scenario', `v1;m3;jq${i}:1,r${i}:2;at,s,s`);
      document.body.append(el);
      readies.push(el.ready);
      if (i % 2) await Promise.resolve(); // some removed a little later, still before ready
      el.remove();
    }
    return Promise.all(readies);
  });
  assert.deepEqual(results, Array(20).fill(null), 'ready resolves to null for a playground removed before it was ready');
  await settle();
  assert.equal(await heap(), baseline.heap, 'the wasm heap is back to its baseline');
  assert.equal(await listeners('window'), baseline.window, 'no hashchange listener left on window');
  assert.equal(await listeners('document'), baseline.document, 'no keydown listener left on document');
  assert.equal(await page.locator('section.dlq').count(), 1);
  assert.equal(new URL(page.url()).hash, baseline.hash, 'nothing rewrote the address bar');

  // Removed and put back before ready: it still works (one session).
  const moved = await page.evaluate(async () => {
    const el = document.createElement('dlq-playground');
    el.setAttribute('scenario', 'v1;m3;jm:1');
    document.body.append(el);
    el.remove();
    document.body.append(el);
    const controller = await el.ready;
    const ids = [...el.querySelectorAll('.dlq-ready .dlq-id')].map((n) => n.textContent);
    el.remove();
    return { same: controller === el.controller, ids };
  });
  assert.deepEqual(moved, { same: true, ids: ['m'] });
  await settle();
  assert.equal(await heap(), baseline.heap);
  await cdp.detach();
  assertClean(opened);
  await opened.context.close();
});

test('<dlq-playground>: a scenario attribute set after connect but before ready is applied', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`);
  const { page } = opened;
  const result = await page.evaluate(async () => {
    const el = document.createElement('dlq-playground');
    el.setAttribute('scenario', 'v1;m3;ja:1');
    el.setAttribute('label', 'Late attribute');
    document.body.append(el);
    el.setAttribute('scenario', 'v1;m3;jy:1');
    el.setAttribute('scenario', 'v1;m2;jz:1,w:2'); // the latest value wins
    await el.ready;
    return [...el.querySelectorAll('.dlq-ready .dlq-id')].map((n) => n.textContent);
  });
  assert.deepEqual(result, ['z', 'w']);
  const pg = playground(page, 1);
  assert.equal(await pg.field('Max attempts').inputValue(), '2');
  // A bad early value alerts inside that playground, as a later one does.
  const bad = await page.evaluate(async () => {
    const el = document.createElement('dlq-playground');
    el.setAttribute('label', 'Bad late attribute');
    document.body.append(el);
    el.setAttribute('scenario', 'nope');
    await el.ready;
    return el.querySelector('[role="alert"]:not([hidden])')?.textContent ?? '';
  });
  assert.match(bad, /malformed/);
  assertClean(opened);
  await opened.context.close();
});

/** Quarantined XSS id, two completed ids that share a long prefix, a long id and an unbreakable one in Ready. */
const LONG_IDS = {
  maxAttempts: 1,
  jobs: [
    { id: XSS, payload: 'x' },
    { id: 'customer-order-2024-000001', payload: 'p' },
    { id: 'customer-order-2024-000002', payload: 'q' },
    { id: 'a-very-long-ready-job-identifier-1234', payload: 'z' },
    { id: 'x'.repeat(120), payload: 'unbreakable' },
  ],
  actions: [{ type: 'process', outcome: 'permanent', error: 'bad' }, { type: 'process', outcome: 'success', error: '' },
    { type: 'process', outcome: 'success', error: '' }],
};

for (const [name, viewport] of SIZES) {
  test(`${name} ${viewport.width}×${viewport.height}: long ids wrap in the cards, the Replay button stays inside; lane labels stay distinct`, async () => {
    const opened = await openPage(h.browser, `${h.base}playground.html`, { viewport });
    const { page } = opened;
    const pg = playground(page);
    await load(page, LONG_IDS);
    assert.deepEqual(await pg.ids('Quarantine'), [XSS]);

    const boxes = await page.evaluate(() => [...document.querySelectorAll('.dlq-states .dlq-list > li')].map((li) => {
      const box = (el) => { const r = el.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width }; };
      return {
        id: li.dataset.id,
        card: box(li),
        idBox: box(li.querySelector('.dlq-id')),
        // Drawn controls only: a closed "Fix payload…" keeps its button undrawn.
        controls: [...li.querySelectorAll('button:not([hidden]), .dlq-badge')].filter((el) => el.checkVisibility())
          .map((el) => ({ what: el.textContent, ...box(el) })),
      };
    }));
    assert.equal(boxes.length, 5);
    for (const { id, card, idBox, controls } of boxes) {
      assert.ok(idBox.width > 60, `the id box of "${id.slice(0, 30)}" is ${idBox.width}px wide`);
      for (const c of [idBox, ...controls]) {
        const inside = c.left >= card.left && c.right <= card.right + 0.5 && c.top >= card.top && c.bottom <= card.bottom + 0.5;
        assert.ok(inside, `"${c.what ?? id}" lies inside its card (${JSON.stringify(c)} in ${JSON.stringify(card)})`);
      }
      for (const c of controls) {
        const overlaps = c.left < idBox.right && idBox.left < c.right && c.top < idBox.bottom && idBox.top < c.bottom;
        assert.ok(!overlaps, `"${c.what}" does not overlap the id`);
      }
    }
    const replay = pg.button(`Replay ${XSS}`);
    assert.ok(await replay.isVisible());
    await replay.scrollIntoViewIfNeeded();
    await pg.region('Quarantine').screenshot({ path: screenshotPath(`long-ids-${name}-quarantine`) });
    await pg.region('Ready').screenshot({ path: screenshotPath(`long-ids-${name}-ready`) });

    // Lane labels: one line each, the end of the id always shows, the whole id is the name and title.
    const labels = await page.evaluate(() => [...document.querySelectorAll('.dlq-tl-labels li')].map((li) => {
      const r = li.getBoundingClientRect();
      const tail = li.querySelector('.dlq-lane-tail');
      const t = tail?.getBoundingClientRect();
      return {
        text: li.textContent, title: li.title, height: r.height,
        tail: tail?.textContent ?? null, tailShown: t ? t.left >= r.left && t.right <= r.right + 0.5 && t.width > 0 : null,
      };
    }));
    assert.equal(labels.length, 5);
    for (const label of labels) {
      assert.equal(label.title, label.text, 'the title is the whole id');
      assert.ok(label.height <= 31, `one line (${label.height}px)`);
      if (label.tail !== null) assert.ok(label.tailShown, `the end of "${label.text.slice(0, 30)}" is visible`);
    }
    const [one, two] = labels.filter((l) => l.text.startsWith('customer-order'));
    assert.notEqual(one.tail, two.tail, 'ids that share a prefix show different ends');
    assert.deepEqual([one.tail, two.tail], ['000001', '000002']);
    const named = await accessible(page, '.dlq-tl-labels li:nth-child(2)');
    assert.equal(named.name, 'customer-order-2024-000001', 'the accessible name is the whole id');
    await pg.region('Timeline').scrollIntoViewIfNeeded();
    await pg.region('Timeline').screenshot({ path: screenshotPath(`long-ids-${name}-timeline`) });

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `no sideways scroll (${overflow}px)`);
    await page.screenshot({ path: screenshotPath(`long-ids-${name}-full`), fullPage: true });
    assertClean(opened);
    await opened.context.close();
  });
}

test('Event log: "Show all events", then "Show latest only" returns to the latest 200; lines are appended, not rebuilt', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`);
  const { page } = opened;
  const pg = playground(page);
  const log = pg.region('Event log');
  const lines = () => log.locator('.dlq-log-list > li').count();
  const lastSeq = async () => Number((await log.locator('.dlq-log-text').last().textContent()).match(/^#(\d+)/)[1]);
  await load(page, bigScenario(60, 150)); // 360 events
  assert.equal(await lines(), 200);
  assert.match(await log.locator('.dlq-log-earlier').textContent(), /160 earlier events are not shown/);

  await log.getByRole('button', { name: 'Show all events' }).click();
  assert.equal(await lines(), 360);
  assert.match(await log.locator('.dlq-log-earlier').textContent(), /Showing all 360 events/);
  const toLatest = log.getByRole('button', { name: 'Show latest only' });
  assert.ok(await toLatest.isVisible(), 'a way back to the latest lines is offered');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Show latest only', 'focus stays on the toggle');

  // Still incremental while showing all: the first line is the same node after a Step.
  await page.evaluate(() => { document.querySelector('.dlq-log-list > li').dataset.mark = 'first'; });
  await pg.button('Step').click();
  assert.equal(await lines(), 362);
  assert.equal(await log.locator('.dlq-log-list > li').first().getAttribute('data-mark'), 'first');
  assert.equal(await lastSeq(), 362);

  await toLatest.click();
  assert.equal(await lines(), 200);
  assert.equal(await lastSeq(), 362, 'the newest line is there');
  assert.match(await log.locator('.dlq-log-earlier').textContent(), /162 earlier events are not shown/);
  assert.ok(await log.getByRole('button', { name: 'Show all events' }).isVisible());
  await page.evaluate(() => { document.querySelector('.dlq-log-list > li').dataset.mark = 'window'; });
  await pg.button('Step').click();
  assert.equal(await lines(), 202, 'windowed again: lines are appended, the head is trimmed in batches');
  assert.equal(await log.locator('.dlq-log-list > li').first().getAttribute('data-mark'), 'window');
  assert.equal(await lastSeq(), 364);
  // The log follows the newest line.
  await page.waitForFunction(() => {
    const sc = document.querySelector('.dlq-log-scroll');
    return sc.scrollTop + sc.clientHeight >= sc.scrollHeight - 8;
  });
  assertClean(opened);
  await opened.context.close();
});

for (const [name, viewport] of SIZES) {
  test(`${name}: every button's label and key badge keep their padding (Forward F)`, async () => {
    const opened = await openPage(h.browser, `${h.base}playground.html`, { viewport });
    const { page } = opened;
    const insets = await page.evaluate(() => [...document.querySelectorAll('section.dlq .dlq-btn')]
      .filter((b) => b.offsetParent !== null)
      .map((b) => {
        const box = b.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(b);
        const content = range.getBoundingClientRect();
        return { name: b.textContent, left: content.left - box.left, right: box.right - content.right };
      }));
    assert.ok(insets.some((i) => i.name === 'ForwardF'));
    for (const i of insets) assert.ok(i.left >= 6 && i.right >= 6, `"${i.name}": content inset ${i.left.toFixed(1)} / ${i.right.toFixed(1)}px`);
    await page.locator('.dlq-controls').screenshot({ path: screenshotPath(`controls-${name}`) });
    assertClean(opened);
    await opened.context.close();
  });
}
