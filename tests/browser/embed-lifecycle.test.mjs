// Embeds as careless authors and frameworks treat them (issue 20): a relative
// link-base, a playground removed and added again under its <dlq-exercise>, a goal
// attribute changed after the box started, bad solution-crash values, and a page of
// lazy embeds whose empty elements used to count as in view all at once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve } from '../../scripts/serve.mjs';
import { start, openPage, assertClean, ROOT } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

const AB = 'v1;m3;ja:charge%20order%201,b:charge%20order%202;at:db%20timeout,s,s;c0';

/** Adds a <dlq-playground> with these attributes to the page; resolves with its text when it failed, else ''. */
async function addPlayground(page, id, attributes) {
  return page.evaluate(async ({ id, attributes }) => {
    const el = document.createElement('dlq-playground');
    el.id = id;
    for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
    document.querySelector('main').append(el);
    try {
      await el.ready;
      return '';
    } catch {
      return el.textContent;
    }
  }, { id, attributes });
}

test('link-base: a URL relative to the page makes a full link (and Copy link works); a bad one is refused by name', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`, { context: { permissions: ['clipboard-read', 'clipboard-write'] } });
  const { page } = opened;
  const cases = [
    ['./playground.html', `${h.base}playground.html`],
    ['playground.html', `${h.base}playground.html`],
    ['/playground.html', `${h.base}playground.html`],
    ['', `${h.base}lesson-1.html`],
    ['https://example.org/lab/playground.html', 'https://example.org/lab/playground.html'],
  ];
  for (const [i, [base, expected]] of cases.entries()) {
    assert.equal(await addPlayground(page, `t-base-${i}`, { scenario: AB, 'link-base': base }), '', `link-base="${base}" mounts`);
    const root = page.locator(`#t-base-${i} section.dlq`);
    const field = root.getByLabel('Link', { exact: true });
    await page.waitForFunction(({ id, expected }) => document.querySelector(`#${id} section.dlq`).querySelector('input.dlq-link[id$="-link"]')?.value.startsWith(`${expected}#v1;`),
      { id: `t-base-${i}`, expected });
    const url = await field.inputValue();
    assert.match(url, new RegExp(`^${expected.replace(/[.?/]/g, '\\$&')}#v1;m3;`), `link-base="${base}"`);
    await root.getByRole('button', { name: 'Copy link', exact: true }).click();
    // The clipboard write is asynchronous: the status follows once it resolves.
    await page.waitForFunction((id) => document.querySelector(`#${id} .dlq-share-status`).textContent !== '', `t-base-${i}`);
    assert.equal(await page.locator(`#t-base-${i} .dlq-share-status`).textContent(), 'Link copied.', `link-base="${base}"`);
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), url, `link-base="${base}": Copy link copies it`);
  }
  for (const [i, bad] of ['http://[::1', 'javascript:alert(1)', 'data:text/html,x'].entries()) {
    assert.equal(await addPlayground(page, `t-bad-base-${i}`, { scenario: AB, 'link-base': bad }),
      `The playground could not start: link-base: expected a URL, absolute (http or https) or relative to the page, such as "./playground.html", got ${JSON.stringify(bad)}`);
  }
  // mount() from JavaScript takes a relative linkBase too.
  const fromJs = await page.evaluate(async () => {
    const { mount } = await import('./src/playground.mjs');
    const el = document.createElement('div');
    document.querySelector('main').append(el);
    await mount(el, { scenario: 'v1;m3;ja:x', linkBase: 'playground.html' });
    const field = el.querySelector('input.dlq-link[id$="-link"]');
    while (field.value === '') await new Promise((resolve) => setTimeout(resolve, 20));  // the link is written after a debounce
    return `${location.origin}|${field.value}`;
  });
  const [origin, link] = fromJs.split('|');
  assert.match(link, new RegExp(`^${origin.replace(/[.?/]/g, '\\$&')}/playground\\.html#v1;`));
  assertClean(opened);
  await opened.context.close();
});

/** The <dlq-exercise> for playground `id` on the page: its status, clause texts and refusal. */
const exerciseState = (page, id) => page.evaluate((id) => {
  const box = document.querySelector(`dlq-exercise[for="${id}"]`);
  return {
    status: box.querySelector('.dlq-goal-status')?.textContent ?? null,
    clauses: [...box.querySelectorAll('.dlq-goal-clauses li code')].map((c) => c.textContent),
    refusal: box.querySelector('.dlq-fatal:not([hidden])')?.textContent ?? null,
  };
}, id);

test('an exercise rebinds to its playground when the playground is removed and added again', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`);
  const { page } = opened;
  const pg = page.locator('#l1-tail section.dlq');
  await page.locator('#l1-tail').scrollIntoViewIfNeeded();
  await page.evaluate(() => document.getElementById('l1-tail').ready);
  await page.waitForFunction(() => document.querySelector('dlq-exercise[for="l1-tail"] .dlq-goal-status'));
  // The learner meets the goal (by hand: a goal met by Show me's own run is not the learner's).
  for (const outcome of ['Transient failure', 'Transient failure', 'Success', 'Transient failure', 'Success', 'Success']) {
    await pg.getByRole('group', { name: 'Outcome' }).getByRole('radio', { name: outcome, exact: true }).check();
    await pg.getByRole('button', { name: 'Step', exact: true }).click();
  }
  await page.waitForFunction(() => document.querySelector('dlq-exercise[for="l1-tail"] .dlq-goal-status').textContent === '✓ Goal met.', null, { timeout: 20_000 });
  // A tab switch: the playground leaves the page and comes back later.
  const same = await page.evaluate(async () => {
    const el = document.getElementById('l1-tail');
    const before = el.controller;
    const parent = el.parentNode;
    const next = el.nextSibling;
    el.remove();
    await new Promise((resolve) => setTimeout(resolve, 50));
    parent.insertBefore(el, next);
    const after = await el.ready;
    return after === before || after === null;
  });
  assert.equal(same, false, 'a new controller');
  await page.waitForFunction(() => document.querySelector('dlq-exercise[for="l1-tail"] .dlq-goal-status').textContent.startsWith('✓ You met this goal'));
  // Every change now reaches the box through the new controller: no error, the clauses follow.
  await pg.getByRole('button', { name: 'Step', exact: true }).click();
  const state = await exerciseState(page, 'l1-tail');
  assert.equal(state.status, '✓ You met this goal (the playground has moved on since).');
  assert.deepEqual(state.clauses, ['order c, b, a', 'completed = 3']);
  const lines = await page.locator('dlq-exercise[for="l1-tail"] .dlq-goal-clauses li').allTextContents();
  assert.match(lines[1], /completed = 3 — not yet: completed = 1$/, 'the clause reads the new playground after its step');
  // Show me and Start again drive the new playground.
  await page.locator('dlq-exercise[for="l1-tail"]').getByRole('button', { name: 'Start again' }).click();
  assert.equal(await pg.getAttribute('data-step'), '0');
  assertClean(opened);
  await opened.context.close();
});

test('a changed goal is parsed again: new clauses at once, a refusal named in the box with the old clauses dropped', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`);
  const { page } = opened;
  const pg = page.locator('#l1-tail section.dlq');
  await page.locator('#l1-tail').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('dlq-exercise[for="l1-tail"] .dlq-goal-status'));
  // l1-tail's predict question answered first: until then the box withholds its clauses (and says so).
  const predict = page.locator('dlq-predict[for="l1-tail"]');
  for (const id of ['b', 'c', 'a']) await predict.getByRole('button', { name: id, exact: true }).click();
  await predict.getByRole('button', { name: 'Check my answer' }).click();
  await predict.locator('.predict-result', { hasText: 'The answer:' }).waitFor();
  const setGoal = (goal) => page.evaluate((goal) => {
    const box = document.querySelector('dlq-exercise[for="l1-tail"]');
    if (goal === null) box.removeAttribute('goal');
    else box.setAttribute('goal', goal);
  }, goal);

  await setGoal('completed = 1');
  assert.deepEqual(await exerciseState(page, 'l1-tail'), { status: 'Not yet: the parts below show what holds now.', clauses: ['completed = 1'], refusal: null });
  await pg.getByRole('button', { name: 'Step', exact: true }).click();  // a: success (the chosen outcome)
  assert.deepEqual(await exerciseState(page, 'l1-tail'), { status: '✓ Goal met.', clauses: ['completed = 1'], refusal: null });

  await setGoal('completd = 1');
  let state = await exerciseState(page, 'l1-tail');
  assert.match(state.refusal, /^This exercise's goal was refused: goal: clause 1 "completd = 1": expected a predicate/);
  assert.deepEqual(state.clauses, [], 'the old clauses are dropped');
  assert.equal(state.status, 'No goal to check.');
  await pg.getByRole('button', { name: 'Step', exact: true }).click();  // changes reach a refused goal without an error
  assert.deepEqual((await exerciseState(page, 'l1-tail')).clauses, []);

  await setGoal(null);
  state = await exerciseState(page, 'l1-tail');
  assert.equal(state.refusal, 'This exercise\'s goal was refused: goal: expected a goal (docs/goals.md), got no goal attribute');

  await setGoal('completed = 3');
  state = await exerciseState(page, 'l1-tail');
  assert.equal(state.refusal, null);
  assert.deepEqual(state.clauses, ['completed = 3']);
  assert.equal(state.status, 'Not yet: the parts below show what holds now.', 'a new goal starts over');
  assertClean(opened);
  await opened.context.close();
});

test('solution-crash: abc, -5 and 2.5 are refused by name; empty and a write number start', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`);
  const { page } = opened;
  await page.locator('#l1-tail').scrollIntoViewIfNeeded();
  await page.evaluate(() => document.getElementById('l1-tail').ready);
  const texts = await page.evaluate(async () => {
    const out = [];
    for (const value of ['abc', '-5', '2.5', '', '3']) {
      const el = document.createElement('dlq-exercise');
      el.setAttribute('for', 'l1-tail');
      el.setAttribute('goal', 'completed = 3');
      el.setAttribute('solution', 'v1;m3;ja:1,b:2,c:3;as,s,s;c0');
      el.setAttribute('solution-crash', value);
      document.querySelector('main').append(el);
      for (let i = 0; i < 200 && !el.querySelector('.dlq-fatal:not([hidden]), .dlq-goal-status'); i++) await new Promise((r) => setTimeout(r, 20));
      out.push(el.querySelector('.dlq-fatal:not([hidden])')?.textContent ?? (el.querySelector('.dlq-goal-status') ? 'started' : '(nothing)'));
    }
    return out;
  });
  assert.deepEqual(texts, [
    'This exercise could not start: solution-crash: expected nothing (the write that matters) or a write number from 1, got "abc".',
    'This exercise could not start: solution-crash: expected nothing (the write that matters) or a write number from 1, got "-5".',
    'This exercise could not start: solution-crash: expected nothing (the write that matters) or a write number from 1, got "2.5".',
    'started',
    'started',
  ]);
  assertClean(opened);
  await opened.context.close();
});

test('a refused <dlq-playground> mounts once its attribute is fixed and it is added again', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`);
  const { page } = opened;
  const steps = await page.evaluate(async () => {
    const el = document.createElement('dlq-playground');
    el.id = 't-refused';
    el.setAttribute('panels', 'controls charts');
    el.setAttribute('scenario', 'v1;m3;ja:charge%20order%201,b:charge%20order%202;at:db%20timeout,s,s;c0');
    el.innerHTML = '<ol class="dlq-captions"><li>Two jobs, a at the head.</li></ol>';
    document.querySelector('main').append(el);
    const out = [];
    try { await el.ready; out.push('mounted'); } catch { out.push(el.querySelector('.dlq-fatal').textContent); }
    el.remove();
    await new Promise((resolve) => setTimeout(resolve, 20));
    el.setAttribute('panels', 'controls state');
    document.querySelector('main').append(el);
    const controller = await el.ready;
    out.push(controller === el.controller && controller !== null ? 'mounted' : `ready gave ${controller}`);
    out.push(`${el.querySelectorAll('section.dlq').length} playground, ${el.querySelectorAll('.dlq-fatal').length} refusal`);
    out.push(el.querySelector('.dlq-caption')?.textContent ?? '(no caption)');
    return out;
  });
  assert.deepEqual(steps, [
    'The playground could not start: panels: expected a list of setup, presets, controls, state, timeline, log, link, snippet, ledger, got "controls charts"',
    'mounted',
    '1 playground, 0 refusal',
    'Two jobs, a at the head.',
  ]);
  assert.deepEqual(await page.locator('#t-refused section.dlq .dlq-list > li .dlq-id').allTextContents(), ['a', 'b']);
  assertClean(opened);
  await opened.context.close();
});

test('the scenario attribute takes the link as Copy link gives it: a full URL, a #fragment or the bare link', async () => {
  const opened = await openPage(h.browser, `${h.base}lesson-1.html`);
  const { page } = opened;
  const quarantined = (id) => page.locator(`#${id} section.dlq [aria-labelledby$="-quarantine-h"] .dlq-list > li .dlq-id`).allTextContents();
  const forms = [`${h.base}playground.html#v1;m2;jz:1;ap`, 'https://dlq.example/lab/playground.html#v1;m2;jz:1;ap', '#v1;m2;jz:1;ap', 'v1;m2;jz:1;ap'];
  for (const [i, scenario] of forms.entries()) {
    assert.equal(await addPlayground(page, `t-url-${i}`, { scenario }), '', scenario);
    assert.deepEqual(await quarantined(`t-url-${i}`), ['z'], scenario);
    assert.equal(await page.locator(`#t-url-${i} [role="alert"]:not([hidden])`).count(), 0, `${scenario}: no refusal`);
  }
  // Set later, the attribute reads the same forms.
  await page.evaluate((url) => document.getElementById('t-url-3').setAttribute('scenario', url), `${h.base}playground.html#v1;m2;jq:2;ap`);
  assert.deepEqual(await quarantined('t-url-3'), ['q']);
  // A URL with no link in it is refused by name: the attribute, what it takes, what it got.
  await page.evaluate((url) => document.getElementById('t-url-3').setAttribute('scenario', url), `${h.base}playground.html`);
  assert.equal(await page.locator('#t-url-3 .dlq-alert p').first().textContent(),
    'This link is malformed and could not be loaded: scenario: expected a scenario link (v2;…), a URL that ends in #v2;… (as Copy link gives) '
    + `or its #fragment, got a URL with no #fragment: "${h.base}playground.html". Showing the default scenario instead.`);
  assert.equal(await page.locator('#t-url-3').getByLabel('Refused link', { exact: true }).inputValue(), `${h.base}playground.html`,
    'the refused URL is shown as it was given');
  assertClean(opened);
  await opened.context.close();
});

test('lazy embeds reserve their height: of 40 empty ones at the top of a page, those off-screen stay unloaded until the reader comes near', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dlq-lazy-'));
  cpSync(path.join(ROOT, 'dist'), dir, { recursive: true });
  const embeds = Array.from({ length: 40 }, (_, i) => `<dlq-playground loading="lazy" compact id="lz-${i}" label="Lazy ${i}" scenario="v1;m3;ja:x"></dlq-playground>`).join('\n');
  writeFileSync(path.join(dir, 'lazy.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lazy embeds</title>
<link rel="icon" href="./favicon.svg"><script type="module" src="./src/lesson.mjs"></script></head><body><main><h1>Lazy embeds</h1>${embeds}</main></body></html>`);
  const server = await serve({ dir });
  try {
    const opened = await openPage(h.browser, undefined);
    const { page } = opened;
    // Read at the moment the page becomes interactive (this listener is the first on
    // document, before any lazy element's).
    await page.addInitScript(() => {
      document.addEventListener('dlq:interactive', () => {
        window.atInteractive = [...document.querySelectorAll('dlq-playground')].map((el) => ({
          mounting: el.mounting, height: Math.round(el.getBoundingClientRect().height), minHeight: el.style.minHeight }));
      }, { once: true });
    });
    await page.goto(`http://127.0.0.1:${server.address().port}/lazy.html`);
    await page.waitForSelector('html[data-ready="true"]');
    const state = await page.evaluate(() => window.atInteractive);
    const mounting = state.filter((s) => s.mounting).length;
    assert.ok(mounting >= 1 && mounting <= 2, `${mounting} of 40 mounted at load: only those in view (800 px, 600 px each)`);
    for (const [i, s] of state.entries()) if (!s.mounting) assert.equal(s.minHeight, '600px', `lz-${i} reserves its height`);
    assert.equal(state[39].mounting, false, 'the last is unloaded');
    assert.ok(state[39].height >= 600);
    // Idle time mounts nothing: a phone pays only for what its reader scrolls to.
    await page.waitForTimeout(1500);
    const later = await page.evaluate(() => [...document.querySelectorAll('dlq-playground')].filter((el) => el.mounting).length);
    assert.equal(later, mounting, 'a second and a half later, still only those in view');
    // Brought into view, it mounts, and gives the reserved height back.
    await page.locator('#lz-39').scrollIntoViewIfNeeded();
    await page.evaluate(() => document.getElementById('lz-39').ready);
    await page.waitForSelector('#lz-39 section.dlq');
    assert.equal(await page.locator('#lz-39').evaluate((el) => el.style.minHeight), '');
    assertClean(opened);
    await opened.context.close();
  } finally {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }
});
