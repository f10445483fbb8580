// The sync-url playground and the address bar: only a scenario link
// (/^v[0-9]+;/) is a scenario; an emptied fragment or an in-page anchor keeps
// the state and gets the link back at once; a refused link stays in the address
// bar (and whole in the alert) until the user changes something; a preset right
// after a change keeps that change in the browser's history.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder, start, openPage, playground, screenshotPath, assertClean } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

async function open(hash = '', options) {
  const opened = await openPage(h.browser, `${h.base}playground.html${hash}`, options);
  return { ...opened, pg: playground(opened.page) };
}

const hashOf = (page) => page.evaluate(() => location.hash);
/** Waits until the debounced link write has put a scenario link in the fragment that differs from `not`. */
async function linkWritten(page, not = null) {
  await page.waitForFunction((old) => /^#v1;/.test(location.hash) && location.hash !== old, not);
  return hashOf(page);
}

/** Appends a far-away section and links to it and to '#', as a host page's own anchors. */
const addAnchors = (page) => page.evaluate(() => {
  const spacer = document.createElement('div');
  spacer.className = 'test-spacer';
  spacer.textContent = 'spacer';
  spacer.setAttribute('aria-hidden', 'true');
  const section = document.createElement('h2');
  section.id = 'section-2';
  section.textContent = 'Section 2';
  const toSection = document.createElement('a');
  toSection.href = '#section-2';
  toSection.textContent = 'to section 2';
  const toTop = document.createElement('a');
  toTop.href = '#';
  toTop.textContent = 'to the top';
  document.body.prepend(toSection);
  document.body.append(spacer, section, toTop);
  spacer.style.height = '3000px'; // (CSSOM, allowed by the CSP)
});

test('which fragments are scenario links (url.mjs, the documented rule)', async () => {
  const opened = await open();
  const verdicts = await opened.page.evaluate(async () => {
    const { isScenarioLink } = await import('./src/url.mjs');
    const texts = ['v1;m3;ja:x', 'v2;m3', 'v10;', 'v1;', '', 'section-2', 'v1', 'v2', 'V1;m3', 'vx;m3', ' v1;m3', 'top'];
    return Object.fromEntries(texts.map((t) => [t, isScenarioLink(t)]));
  });
  assert.deepEqual(verdicts, {
    'v1;m3;ja:x': true, 'v2;m3': true, 'v10;': true, 'v1;': true,
    '': false, 'section-2': false, v1: false, v2: false, 'V1;m3': false, 'vx;m3': false, ' v1;m3': false, top: false,
  });
  assertClean(opened);
  await opened.context.close();
});

test('location.hash = \'\' and an in-page href="#" keep the work: the link is put back at once and syncing goes on', async () => {
  const opened = await open();
  const { page, pg } = opened;
  const start = await linkWritten(page);
  await pg.button('Forward').click();
  await pg.button('Forward').click();
  await page.waitForFunction(() => location.hash.endsWith(';c2')); // both Forwards written
  const link = await hashOf(page);
  assert.notEqual(link, start);
  const state = await pg.snapshot();

  await page.evaluate(() => { location.hash = ''; });
  await page.waitForFunction((l) => location.hash === l, link, { timeout: 1000 });
  assert.deepEqual(await pg.snapshot(), state, 'the state stays');
  assert.equal(await page.getByRole('alert').count(), 0);

  await addAnchors(page);
  await page.getByRole('link', { name: 'to the top' }).click();
  await page.waitForFunction((l) => location.hash === l, link, { timeout: 1000 });
  assert.deepEqual(await pg.snapshot(), state);

  // Still in sync: the next change is written, and a reload brings it back.
  await pg.button('Forward').click();
  await linkWritten(page, link);
  const after = await pg.snapshot();
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  assert.deepEqual(await pg.snapshot(), after, 'a reload keeps the work');
  assertClean(opened);
  await opened.context.close();
});

test('an in-page anchor (#section-2) is not a scenario: no alert, the state stays, the page scrolls to it, the link comes back', async () => {
  const opened = await open();
  const { page, pg } = opened;
  await pg.button('Poison message').click();
  await pg.button('Forward').click();
  await page.waitForFunction(() => location.hash.includes('poison') && location.hash.endsWith(';c1'));
  const link = await hashOf(page);
  const state = await pg.snapshot();
  const entries = await page.evaluate(() => history.length);

  await addAnchors(page);
  await page.getByRole('link', { name: 'to section 2' }).click();
  await page.waitForFunction((l) => location.hash === l, link, { timeout: 1000 });
  assert.equal(await page.getByRole('alert').count(), 0, 'no "malformed link" alert');
  assert.deepEqual(await pg.snapshot(), state, 'the scenario is untouched');
  const view = await page.evaluate(() => {
    const r = document.querySelector('#section-2').getBoundingClientRect();
    return { scrollY, top: r.top, bottom: r.bottom, height: innerHeight };
  });
  assert.ok(view.scrollY > 1000 && view.top >= 0 && view.bottom <= view.height, `the anchor did its job: Section 2 scrolled into view (${JSON.stringify(view)})`);
  assert.equal(await page.evaluate(() => history.length), entries + 1, 'the click\'s own history entry, now holding the link');

  // Syncing goes on.
  await pg.button('Forward').click();
  await page.waitForFunction(() => location.hash.endsWith(';c2'));

  // Opened with an anchor: the default scenario, no alert; the fragment gets its link.
  const fresh = await openPage(h.browser, `${h.base}playground.html#section-2`);
  const again = playground(fresh.page);
  assert.equal(await fresh.page.getByRole('alert').count(), 0);
  assert.deepEqual(await again.ids('Ready'), ['a', 'b']);
  assert.equal(await again.cursor(), 0);
  await linkWritten(fresh.page);
  assertClean(fresh);
  assertClean(opened);
  await fresh.context.close();
  await opened.context.close();
});

test('a refused link stays in the address bar and whole in the alert until the user changes something; Back returns to it', async () => {
  const refused = `v3;m3;ja:${'x'.repeat(600)}`; // a link from a newer build, longer than 400 characters
  const opened = await open(`#${refused}`, { context: { permissions: ['clipboard-read', 'clipboard-write'] } });
  const { page, pg } = opened;
  const alert = page.getByRole('alert');
  assert.match(await alert.textContent(), /version of the link format that this page cannot read: scenario link is format v3/);
  const field = pg.field('Refused link');
  assert.equal(await field.inputValue(), `#${refused}`, 'the refused text is offered whole');
  await page.screenshot({ path: screenshotPath('refused-link-alert') });

  await page.waitForTimeout(400); // well past the link debounce
  assert.equal(await hashOf(page), `#${refused}`, 'the address bar keeps the refused link');

  await pg.button('Copy refused link').click();
  await pg.root.getByText('Copied.', { exact: true }).waitFor(); // the clipboard write is asynchronous
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), `#${refused}`);

  await pg.button('Dismiss').click();
  assert.equal(await alert.count(), 0);
  await page.waitForTimeout(300);
  assert.equal(await hashOf(page), `#${refused}`, 'dismissing is not a change: the link stays');

  // The first change writes a new history entry; Back brings the refused link (and its alert) back.
  await pg.button('Step').click();
  const next = await linkWritten(page, `#${refused}`);
  assert.match(next, /^#v1;m3;ja:charge%20order%201/);
  await page.goBack();
  await page.waitForFunction((r) => location.hash === r, `#${refused}`);
  await alert.waitFor();
  assert.equal(await pg.field('Refused link').inputValue(), `#${refused}`);
  await page.waitForTimeout(300);
  assert.equal(await hashOf(page), `#${refused}`, 'held again');
  await page.goForward();
  await page.waitForFunction(() => document.querySelector('section.dlq').dataset.step === '1');
  assertClean(opened);
  await opened.context.close();
});

test('a preset within the link debounce of a change keeps that change in history: Back brings it back', async () => {
  const opened = await open();
  const { page, pg } = opened;
  const start = await linkWritten(page);
  // Step and preset in one task: the preset comes well within 120 ms of the Step.
  await page.evaluate(() => {
    const buttons = [...document.querySelectorAll('section.dlq button')];
    buttons.find((b) => b.textContent.startsWith('Step')).click();
    buttons.find((b) => b.textContent.startsWith('Poison message')).click();
  });
  await page.waitForFunction(() => location.hash.includes('poison'));
  assert.deepEqual(await pg.ids('Ready'), ['ok-1', 'poison', 'ok-2', 'ok-3']);
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('section.dlq').dataset.cursor === '1');
  assert.deepEqual(await pg.ids('Completed'), ['a'], 'the Step before the preset');
  assert.deepEqual(await pg.ids('Ready'), ['b']);
  assert.equal(await page.getByRole('alert').count(), 0);
  assert.notEqual(await hashOf(page), start, 'the Step\'s own link (ordinary changes replace the entry, so it took start\'s place)');
  await page.goForward();
  await page.waitForFunction(() => location.hash.includes('poison'));
  assert.deepEqual(await pg.ids('Ready'), ['ok-1', 'poison', 'ok-2', 'ok-3']);
  assertClean(opened);
  await opened.context.close();
});

test('the refused-link alert at 390 px and 1280 px: axe clean, no sideways scroll', async () => {
  const refused = `v3;m3;ja:${'x'.repeat(600)}`;
  for (const [name, viewport] of [['mobile', { width: 390, height: 844 }], ['desktop', { width: 1280, height: 800 }]]) {
    const opened = await open(`#${refused}`, { viewport });
    const { page } = opened;
    await page.getByRole('alert').waitFor();
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
    assert.deepEqual(serious, []);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `no sideways scroll (${overflow}px)`);
    await page.screenshot({ path: screenshotPath(`refused-link-alert-${name}`) });
    assertClean(opened);
    await opened.context.close();
  }
});
