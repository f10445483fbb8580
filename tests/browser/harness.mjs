// Shared set-up for the browser suites: serve dist/ on 127.0.0.1 (port 0) with
// the production CSP, launch Debian's Chromium (its headless shell) once, and collect every page
// error / console error so a test can fail on them.
import assert from 'node:assert/strict';
import PlaywrightAxeBuilder from '@axe-core/playwright';
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../scripts/serve.mjs';
import { CHROMIUM_FOR_TESTS, CHROMIUM_TEST_ARGS } from '../../scripts/chromium.mjs';

/**
 * axe-core's Playwright builder as every browser test uses it. In its legacy mode axe runs in
 * the page itself; the default mode opens a second page for each analyze() to merge the
 * frames' partial results, which for these pages (no iframes) gives the same findings at about
 * twice the CPU (4.8 s against 1.8 s on the playground page here). Only violations are
 * collected in full: no test reads the passes.
 */
export class AxeBuilder extends PlaywrightAxeBuilder {
  constructor(options) {
    super(options);
    this.setLegacyMode();
    this.options({ resultTypes: ['violations'] });
  }
}

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SCREENSHOTS = path.join(ROOT, 'test-results', 'screenshots');
export const FIXTURES = path.join(ROOT, 'tests', 'fixtures', 'links');


/** Starts the server and the browser; returns { base, browser, close() }. */
export async function start() {
  const server = await serve({ dir: path.join(ROOT, 'dist') });
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({ executablePath: CHROMIUM_FOR_TESTS, args: CHROMIUM_TEST_ARGS });
  return {
    base,
    browser,
    async close() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * A page that records problems: page errors, console errors and warnings, failed requests,
 * and any dialog (an XSS would open one). `problems` must be empty at the end of every test:
 * call assertClean(). Returns { context, page, problems, dialogs }; `context.close()` ends it.
 *
 * The page is a clean one, but not always a new one: starting a browser context and its
 * renderer costs more CPU than loading a playground (about 0.67 s of 1.5 s here), so a page
 * whose test is over goes back to a pool, keyed by its options, after its origin's storage is
 * cleared, the mouse put back at the corner and the page taken to about:blank; the next test
 * with the same options navigates it. A test that changes the page or its context for longer
 * than a navigation (an init script, a route, an exposed function, a listener, a second page,
 * anything of the context but close) marks it, and a marked page is closed with its context
 * as before. `fresh: true` asks for a new context outright.
 */
export async function openPage(browser, url, { viewport = { width: 1280, height: 800 }, reducedMotion = 'no-preference', context: ctxOptions = {}, fresh = false } = {}) {
  const key = JSON.stringify([viewport, reducedMotion, ctxOptions]);
  const free = poolOf(browser, key);
  let slot = fresh ? null : free.pop();
  if (!slot) {
    const context = await browser.newContext({ viewport, reducedMotion, ...ctxOptions });
    const page = await context.newPage();
    slot = { context, page, viewport, lease: null };
    // Registered once per page; each event goes to the test that holds the page now.
    const lease = () => slot.lease;
    page.on('pageerror', (error) => lease()?.problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') lease()?.problems.push(`console.${message.type()}: ${message.text()}`);
    });
    page.on('requestfailed', (request) => lease()?.problems.push(`requestfailed: ${request.url()} ${request.failure()?.errorText}`));
    page.on('dialog', async (dialog) => {
      lease()?.dialogs.push(dialog.message());
      await dialog.dismiss();
    });
  }
  const lease = { problems: [], dialogs: [], marked: fresh };
  slot.lease = lease;
  slot.page.setDefaultTimeout(8000);
  const page = markingProxy(slot.page, lease, PAGE_KEEPS);
  const context = markingProxy(slot.context, lease, null, { close: () => release(free, slot, lease) });
  if (url) await gotoReady(page, url);
  return { context, page, problems: lease.problems, dialogs: lease.dialogs };
}

const pools = new WeakMap();  // browser → Map(options key → free slots)

function poolOf(browser, key) {
  if (!pools.has(browser)) pools.set(browser, new Map());
  const byKey = pools.get(browser);
  if (!byKey.has(key)) byKey.set(key, []);
  return byKey.get(key);
}

/** Page methods whose effect outlasts a navigation: a test that calls one gets its page closed, not reused. */
const PAGE_KEEPS = new Set(['addInitScript', 'exposeFunction', 'exposeBinding', 'route', 'routeFromHAR', 'routeWebSocket',
  'on', 'once', 'addListener', 'prependListener', 'prependOnceListener', 'setExtraHTTPHeaders', 'emulateMedia',
  'addLocatorHandler', 'requestGC', 'setDefaultNavigationTimeout', 'context']);

/**
 * `target` with every method bound to it; calling one of `keeps` (or, when `keeps` is null, any
 * method not in `own`) marks the lease. `own`: methods of the proxy itself.
 */
function markingProxy(target, lease, keeps, own = {}) {
  return new Proxy(target, {
    get(object, name) {
      if (Object.hasOwn(own, name)) return own[name];
      const value = Reflect.get(object, name, object);
      if (typeof value !== 'function') return value;
      const marks = keeps === null ? !['pages', 'browser'].includes(String(name)) : keeps.has(String(name));
      return (...args) => {
        if (marks) lease.marked = true;
        return value.apply(object, args);
      };
    },
  });
}

/** The test is over: the page goes back to the pool clean, or (marked, closed, or more pages) is closed with its context. */
async function release(free, slot, lease) {
  if (slot.lease !== lease) return;  // closed twice
  slot.lease = null;
  const { context, page } = slot;
  if (lease.marked || page.isClosed() || context.pages().length !== 1) {
    await context.close();
    return;
  }
  try {
    await page.evaluate(() => {
      try { localStorage.clear(); } catch { /* an opaque origin has none */ }
      try { sessionStorage.clear(); } catch { /* idem */ }
    });
    await page.mouse.move(0, 0);
    await page.goto('about:blank');
    const size = page.viewportSize();
    if (size?.width !== slot.viewport.width || size?.height !== slot.viewport.height) await page.setViewportSize(slot.viewport);
    free.push(slot);
  } catch {
    await context.close().catch(() => {});
  }
}

/** Navigates and waits until every playground on the page is drawn. */
export async function gotoReady(page, url) {
  await page.goto(url);
  await page.waitForSelector('html[data-ready="true"]');
}

export function screenshotPath(name) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return path.join(SCREENSHOTS, `${name}.png`);
}

/**
 * The playground inside <dlq-playground id=…> on a lesson page, once mounted (a lazy one is
 * scrolled to first): its root, timeline, and buttons and fields by their exact names.
 */
export async function lessonPlayground(page, id) {
  const host = page.locator(`#${id}`);
  await host.scrollIntoViewIfNeeded();
  const root = host.locator('section.dlq[data-ready="true"]');
  await root.waitFor();
  return {
    root,
    timeline: root.locator('.dlq-timeline'),
    button: (name) => root.getByRole('button', { name, exact: true }),
    field: (name) => root.getByLabel(name, { exact: true }),
  };
}

/**
 * Puts `text` in the address bar's fragment, as a reader pasting a link would. Resolves once the
 * page's own hashchange listener (registered before this one) has run, or after 2 s when the
 * fragment already was `text` (no event fires then).
 */
export async function setFragment(page, text) {
  await page.evaluate((fragment) => new Promise((resolve) => {
    window.addEventListener('hashchange', () => setTimeout(resolve, 0), { once: true });
    setTimeout(resolve, 2000);
    location.hash = fragment;
  }), text);
}

/** Scrolls to the end of the page a screen at a time, as a reader would (lazy embeds mount as they come near). */
export async function scrollThrough(page) {
  for (;;) {
    const more = await page.evaluate(() => {
      window.scrollBy(0, window.innerHeight);
      return window.scrollY + window.innerHeight < document.documentElement.scrollHeight - 1;
    });
    await page.waitForTimeout(30);
    if (!more) break;
  }
}

/**
 * Mounts every lazy playground on the page the way a reader would: scrolls down a screen at
 * a time (each mounts as it comes near; idle time mounts none), then goes back to any the
 * page did not see pass (on a busy machine a frame can come after a playground has already
 * scrolled out of the observer's margin), waits until every <dlq-playground> is drawn, and
 * scrolls back to the top.
 */
export async function mountAll(page) {
  await scrollThrough(page);
  const missed = await page.evaluate(() => [...document.querySelectorAll('dlq-playground')]
    .flatMap((el, index) => (el.controller ? [] : [index])));
  // Scrolled to by the DOM, not by Playwright's scrollIntoViewIfNeeded: that first waits for the
  // element's box to stay still for two frames, which a playground mounting in steps may not do in time.
  for (const index of missed) {
    await page.evaluate((i) => document.querySelectorAll('dlq-playground')[i].scrollIntoView({ block: 'center' }), index);
    await page.waitForFunction((i) => document.querySelectorAll('dlq-playground')[i].controller, index,
      { timeout: 60_000, polling: 100 });
  }
  await page.waitForFunction(() => [...document.querySelectorAll('dlq-playground')].every((el) => el.controller),
    null, { timeout: 60_000, polling: 200 });
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** Runs a lesson playground at its fastest speed (20 steps/s) until its run says it reached the end. */
export async function runToEnd(pg) {
  await pg.field('Speed').selectOption('20');
  await pg.button('Run').click();
  await pg.root.locator('.dlq-run-status').filter({ hasText: /end/ }).waitFor({ timeout: 30_000 });
}

/** Locators and readers for the playground at `index` on the page (0 = first). */
export function playground(page, index = 0) {
  const root = page.locator('section.dlq').nth(index);
  // A panel: a region on the standalone page, a named group in an embed (only the playground is a landmark there).
  const region = (name) => root.getByRole('region', { name, exact: true })
    .or(root.locator('section[role="group"]').and(root.getByRole('group', { name, exact: true })));
  const texts = (locator) => locator.allTextContents();
  return {
    root,
    region,
    button: (name) => root.getByRole('button', { name, exact: true }),
    radio: (name) => root.getByRole('group', { name: 'Outcome' }).getByRole('radio', { name, exact: true }),
    field: (name) => root.getByLabel(name, { exact: true }),
    ids: (name) => texts(region(name).locator('.dlq-list > li .dlq-id')),
    badges: (name) => texts(region(name).locator('.dlq-list > li .dlq-badge')),
    logLines: () => texts(region('Event log').locator('.dlq-log-text')),
    why: async () => (await root.locator('.dlq-why-text').textContent()).trim(),
    step: async () => Number(await root.getAttribute('data-step')),
    cursor: async () => Number(await root.getAttribute('data-cursor')),
    /** Everything a learner sees as state, for comparing two pages. */
    async snapshot() {
      return {
        ready: await texts(region('Ready').locator('.dlq-list > li')),
        completed: await texts(region('Completed').locator('.dlq-list > li')),
        quarantine: await texts(region('Quarantine').locator('.dlq-list > li')),
        log: await texts(region('Event log').locator('li')),
        why: await this.why(),
        step: await this.step(),
        cursor: await this.cursor(),
        glyphs: await region('Timeline').locator('.dlq-ev').count(),
        future: await region('Timeline').locator('.dlq-ev.is-future').count(),
      };
    },
  };
}

/**
 * axe's violations on `page`, one "rule: its first targets" line each. `firstOfEach` leaves out
 * every repeated widget (dlq-playground, dlq-exercise, dlq-predict) but the first of its kind: for
 * a page's second width, whose widgets have the markup and colours the first width checked in
 * full; axe's time grows with each one (lesson 2 at 320 px: 49 s in full, 9 s so). The page's
 * own content, and the first of each widget with its phone-only parts, are checked in full.
 */
export async function axeViolations(page, { firstOfEach = false } = {}) {
  let builder = new AxeBuilder({ page });
  if (firstOfEach) {
    await page.evaluate(() => {
      for (const tag of ['dlq-playground', 'dlq-exercise', 'dlq-predict']) {
        for (const el of [...document.querySelectorAll(tag)].slice(1)) el.setAttribute('data-axe-repeat', '');
      }
    });
    builder = builder.exclude('[data-axe-repeat]');
  }
  await layoutSettled(page);
  const results = await builder.analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map(describeNode).join(', ')}`);
}

/**
 * A violating node as its selector, with the colours and ratio axe measured when it has them
 * (a contrast finding then says what stood behind the text, not only where the text was).
 */
function describeNode(node) {
  const data = node.any.find((check) => check.data?.contrastRatio !== undefined)?.data;
  const target = node.target.join(' ');
  return data ? `${target} (${data.fgColor} on ${data.bgColor}, ${data.contrastRatio}:1)` : target;
}

/**
 * Resolves once the page's layout holds still for two frames: the document's height and the box
 * of every playground, exercise and predict unchanged. axe measures every element's box first and
 * checks the rules later, in slices; a widget that finishes drawing in between would move the
 * text axe is checking onto another element's background. The pointer goes to the corner first,
 * so no hover state (a timeline's tooltip) is left over from the test's last click.
 */
async function layoutSettled(page) {
  await page.mouse.move(0, 0);
  await page.waitForFunction(() => new Promise((resolve) => {
    const boxes = () => JSON.stringify([document.documentElement.scrollHeight,
      ...[...document.querySelectorAll('dlq-playground, dlq-exercise, dlq-predict')].map((el) => {
        const r = el.getBoundingClientRect();
        return [r.top, r.height];
      })]);
    const before = boxes();
    requestAnimationFrame(() => requestAnimationFrame(() => resolve(boxes() === before)));
  }), null, { polling: 100, timeout: 30_000 });
}

/** Every test ends with this: no page error, console error or failed request, and no dialog (an XSS would open one). */
export function assertClean({ problems, dialogs }) {
  assert.deepEqual(problems, [], 'no page errors, console errors or failed requests');
  assert.deepEqual(dialogs, [], 'no dialog opened');
}
