// The harness's page pool (openPage in harness.mjs): a page whose test is over is handed to
// the next test with the same options only clean (its origin's storage empty, at the size the
// options give), and a page a test changed for longer than a navigation is never handed on.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, assertClean, AxeBuilder } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

const frameOf = (opened) => opened.page.mainFrame();
/** openPage on the home page (it has no playground to wait for). */
async function home(options) {
  const opened = await openPage(h.browser, null, options);
  await opened.page.goto(`${h.base}index.html`);
  return opened;
}

test('a released page comes back clean: storage emptied, size restored, problems its own', async () => {
  const first = await home({ viewport: { width: 700, height: 600 } });
  await first.page.evaluate(() => { localStorage.setItem('left', 'behind'); sessionStorage.setItem('left', 'behind'); });
  await first.page.setViewportSize({ width: 500, height: 400 });
  await first.page.evaluate(() => console.error('a problem of the first test'));
  const frame = frameOf(first);
  assert.equal(first.problems.length, 1);
  await first.context.close();

  const second = await home({ viewport: { width: 700, height: 600 } });
  assert.equal(frameOf(second), frame, 'the same page, reused');
  assert.deepEqual(await second.page.evaluate(() => [localStorage.length, sessionStorage.length]), [0, 0]);
  assert.deepEqual(second.page.viewportSize(), { width: 700, height: 600 });
  assertClean(second);  // the first test's console error stayed with it
  // axe (legacy mode) runs in the page itself: the page stays poolable.
  await new AxeBuilder({ page: second.page }).analyze();
  await second.context.close();
  const third = await home({ viewport: { width: 700, height: 600 } });
  assert.equal(frameOf(third), frame);
  await third.context.close();
});

test('a page with an init script, a listener or a second page is closed, not reused; other options get their own page', async () => {
  for (const change of [
    (o) => o.page.addInitScript(() => {}),
    (o) => o.page.on('request', () => {}),
    (o) => o.context.newPage(),
  ]) {
    const opened = await home({ viewport: { width: 640, height: 480 } });
    const frame = frameOf(opened);
    await change(opened);
    await opened.context.close();
    const next = await home({ viewport: { width: 640, height: 480 } });
    assert.notEqual(frameOf(next), frame, String(change));
    await next.context.close();
  }
  const a = await home({ viewport: { width: 641, height: 480 } });
  const b = await home({ viewport: { width: 641, height: 480 }, reducedMotion: 'reduce' });
  assert.notEqual(frameOf(a), frameOf(b), 'two pages at once, and another option, are two pages');
  assert.equal(await b.page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches), true);
  await a.context.close();
  await b.context.close();
});
