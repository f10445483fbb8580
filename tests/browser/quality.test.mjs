// Quality gates: axe-core (no serious or critical violations) at 1280×800 and
// 390×844, screenshots of both sizes as artifacts, the strict CSP really in
// force (header + meta, no inline script/style), visible keyboard focus, the
// accessible names from the issue, and prefers-reduced-motion.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder, start, openPage, playground, screenshotPath, ROOT } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

const SIZES = [['desktop', { width: 1280, height: 800 }], ['mobile', { width: 390, height: 844 }]];

/** Plays the a/b example to a state with something in every region, plus a quarantined job. */
async function richState(pg) {
  await pg.radio('Transient failure').check();
  await pg.field('Error text').fill('db timeout');
  await pg.button('Step').click();
  await pg.radio('Success').check();
  await pg.button('Step').click();
  await pg.field('Job id').fill('poison');
  await pg.field('Payload').fill('{"sku":');
  await pg.button('Add job').click();
  await pg.button('Step').click();
  await pg.radio('Permanent failure').check();
  await pg.field('Error text').fill('unexpected end of JSON');
  await pg.button('Step').click();
  await pg.button('Back').click();
}

async function axe(page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

for (const [name, viewport] of SIZES) {
  test(`${name} ${viewport.width}×${viewport.height}: axe clean, no horizontal overflow, screenshots saved`, async () => {
    const opened = await openPage(h.browser, `${h.base}playground.html`, { viewport });
    const { page } = opened;
    const pg = playground(page);
    await page.screenshot({ path: screenshotPath(`index-${name}-start`) });
    await richState(pg);
    await page.waitForTimeout(100);
    assert.deepEqual(await axe(page), []);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page does not scroll sideways (overflow ${overflow}px)`);
    await page.screenshot({ path: screenshotPath(`index-${name}`) });
    await page.screenshot({ path: screenshotPath(`index-${name}-full`), fullPage: true });
    await pg.region('Timeline').locator('.dlq-ev.g-permanent').hover();
    await page.screenshot({ path: screenshotPath(`index-${name}-tooltip`) });
    await page.keyboard.press('?');
    await page.getByRole('dialog').waitFor();
    assert.deepEqual(await axe(page), [], 'help dialog open');
    await page.screenshot({ path: screenshotPath(`index-${name}-help`) });
    await page.keyboard.press('Escape');

    const embed = await openPage(h.browser, `${h.base}embed.html`, { viewport });
    await embed.page.waitForSelector('#lesson-mounted[data-ready="true"]');
    assert.deepEqual(await axe(embed.page), []);
    await embed.page.screenshot({ path: screenshotPath(`embed-${name}`), fullPage: true });
    for (const o of [opened, embed]) {
      assert.deepEqual(o.problems, []);
      assert.deepEqual(o.dialogs, []);
      await o.context.close();
    }
    for (const file of [`index-${name}`, `embed-${name}`]) assert.ok(statSync(screenshotPath(file)).size > 10000);
  });
}

test('every control named in the issue has exactly that accessible name', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`);
  const pg = playground(opened.page);
  for (const name of ['Step', 'Back', 'Forward', 'Run', 'Reset', 'Add job', 'Copy link']) {
    assert.equal(await pg.button(name).count(), 1, `button "${name}"`);
  }
  for (const name of ['Success', 'Transient failure', 'Permanent failure']) assert.equal(await pg.radio(name).count(), 1);
  for (const name of ['Max attempts', 'Job id', 'Payload', 'Error text', 'Speed']) assert.equal(await pg.field(name).count(), 1, name);
  for (const name of ['Set-up', 'Ready', 'Completed', 'Quarantine', 'Timeline', 'Event log']) assert.equal(await pg.region(name).count(), 1, name);
  for (const name of ['a/b example', 'Poison message', 'Flaky dependency', 'Replay after a fix']) assert.equal(await pg.button(name).count(), 1);
  await pg.button('Step').click(); // Success (the default outcome): a completes
  await pg.radio('Permanent failure').check();
  await pg.button('Step').click();
  assert.equal(await pg.button('Replay b').count(), 1);
  await pg.button('Run').click();
  assert.equal(await pg.button('Pause').count(), 1);
  await pg.button('Pause').click();
  assert.deepEqual(opened.problems, []);
  await opened.context.close();
});

test('keyboard focus is visible on controls and timeline events', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`);
  const { page } = opened;
  const pg = playground(page);
  await pg.button('a/b example').focus();
  await page.keyboard.press('Tab');
  const outline = await page.evaluate(() => {
    const style = getComputedStyle(document.activeElement);
    return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
  });
  assert.notEqual(outline.style, 'none');
  assert.ok(outline.width >= 2);
  await pg.button('Step').click();
  await pg.button('Step').click();
  await pg.button('Back').click(); // the last two events are faint (later in the script)

  /** The focused glyph's ring: shown, around the glyph, opaque, and 3:1 or more against the white lane. */
  const ring = () => page.evaluate(() => {
    const g = document.activeElement;
    const circle = g.querySelector('.dlq-ring');
    const path = g.querySelector('.dlq-glyph');
    const style = getComputedStyle(circle);
    const box = (el) => el.getBoundingClientRect();
    let opacity = 1;
    for (let el = circle; el && el !== document.documentElement; el = el.parentElement) opacity *= Number(getComputedStyle(el).opacity);
    const rgb = style.stroke.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number);
    const lum = rgb.map((c) => { const s = c / 255; return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; });
    const L = 0.2126 * lum[0] + 0.7152 * lum[1] + 0.0722 * lum[2];
    const r = box(circle); // the circle's geometry (stroke not included)
    const p = box(path);
    const strokePx = parseFloat(style.strokeWidth) * (r.width / (2 * circle.r.baseVal.value));
    return {
      future: g.classList.contains('is-future'),
      shown: style.display !== 'none' && style.visibility !== 'hidden',
      opacity,
      contrast: 1.05 / (L + 0.05),
      strokePx,
      margin: Math.min(p.left - r.left, r.right - p.right, p.top - r.top, r.bottom - p.bottom) - strokePx / 2,
      size: r.width,
    };
  });
  await pg.field('Position in script').focus();
  await page.keyboard.press('Tab'); // keyboard focus: the latest event at the cursor
  await page.keyboard.press('ArrowLeft');
  const past = await ring();
  assert.equal(past.future, false);
  assert.ok(past.shown, 'the focused glyph shows its focus ring');
  assert.ok(past.size >= 18, `the ring is about 20px across (${past.size})`);
  assert.ok(past.margin >= 2, `it surrounds the glyph with a gap (${past.margin}px)`);
  assert.ok(past.strokePx >= 2, `its stroke is 2px or more (${past.strokePx})`);
  assert.ok(past.contrast >= 3, `non-text contrast against the white lane ${past.contrast.toFixed(2)}:1`);
  assert.equal(past.opacity, 1);
  await page.screenshot({ path: screenshotPath('index-desktop-focus') });
  await pg.region('Timeline').locator('.dlq-tl-scroll').screenshot({ path: screenshotPath('timeline-focus-ring') });
  await page.keyboard.press('End');
  const future = await ring();
  assert.equal(future.future, true);
  assert.ok(future.shown);
  assert.equal(future.opacity, 1, 'full strength on a faint (future) glyph too');
  const others = await pg.region('Timeline').locator('.dlq-ev:not(:focus) .dlq-ring').evaluateAll((rings) => rings.map((r) => getComputedStyle(r).display));
  assert.ok(others.length > 0 && others.every((d) => d === 'none'), 'only the focused glyph has a ring');
  // A mouse click focuses a glyph without :focus-visible: no ring.
  await pg.region('Timeline').locator('.dlq-ev.g-enqueued').first().click();
  assert.equal(await page.evaluate(() => document.activeElement.matches('.dlq-ev:focus-visible')), false);
  assert.equal(await page.evaluate(() => getComputedStyle(document.activeElement.querySelector('.dlq-ring')).display), 'none');
  assert.deepEqual(opened.problems, []);
  await opened.context.close();
});

test('strict CSP: sent and declared, no inline script or style, no violations reported', async () => {
  const html = readFileSync(path.join(ROOT, 'dist', 'playground.html'), 'utf8') + readFileSync(path.join(ROOT, 'dist', 'embed.html'), 'utf8');
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline <script>');
  assert.doesNotMatch(html, /<style|\sstyle=|\son[a-z]+=/i, 'no inline style or event handler attributes');
  const opened = await openPage(h.browser, null);
  const { page } = opened;
  const violations = [];
  await page.exposeFunction('reportViolation', (v) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => window.reportViolation(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const response = await page.goto(`${h.base}playground.html`);
  await page.waitForSelector('html[data-ready="true"]');
  assert.match(response.headers()['content-security-policy'], /script-src 'self' 'wasm-unsafe-eval'/);
  const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  assert.match(meta, /default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'/);
  await playground(page).button('Step').click();
  await playground(page).region('Timeline').locator('.dlq-ev').first().hover();
  assert.deepEqual(violations, []);
  assert.deepEqual(opened.problems, []);
  await opened.context.close();
});

test('prefers-reduced-motion: no transitions; following the cursor never animates the scroll', async () => {
  const reduced = await openPage(h.browser, `${h.base}playground.html`, { reducedMotion: 'reduce' });
  const read = (page) => page.evaluate(() => ({
    transition: getComputedStyle(document.querySelector('.dlq-ev .dlq-glyph')).transitionDuration,
    scroll: getComputedStyle(document.querySelector('.dlq-tl-scroll')).scrollBehavior,
  }));
  assert.deepEqual(await read(reduced.page), { transition: '0s', scroll: 'auto' });
  const normal = await openPage(h.browser, `${h.base}playground.html`);
  assert.deepEqual(await read(normal.page), { transition: '0.16s', scroll: 'auto' });
  for (const o of [reduced, normal]) {
    assert.deepEqual(o.problems, []);
    await o.context.close();
  }
});

test('the site works under a sub-path (all URLs relative)', async () => {
  const { serve } = await import('../../scripts/serve.mjs');
  const { mkdtempSync, cpSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(path.join(tmpdir(), 'dlq-subpath-'));
  // A copy, not a symlink: the server refuses symlinks that leave the folder it serves.
  cpSync(path.join(ROOT, 'dist'), path.join(dir, 'lessons'), { recursive: true });
  const server = await serve({ dir });
  try {
    const url = `http://127.0.0.1:${server.address().port}/lessons/playground.html`;
    const opened = await openPage(h.browser, url);
    const pg = playground(opened.page);
    await pg.button('Step').click();
    assert.equal(await pg.step(), 1);
    assert.deepEqual(opened.problems, []);
    await opened.context.close();
  } finally {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }
});
