// The built site (scripts/site.mjs): dist/ is bundled and minified by esbuild, the
// entry points embedders are promised still work and share one instance with the
// page, every preload the pages declare is fetched once and used, and the plain
// modules in web/src still work unbundled.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve } from '../../scripts/serve.mjs';
import { buildSite } from '../../scripts/site.mjs';
import { start, openPage, playground, assertClean, ROOT } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

const DIST = path.join(ROOT, 'dist');

/** The href of every preload / modulepreload link in a page. */
function preloads(html) {
  return [...html.matchAll(/<link rel="(?:module)?preload" href="([^"]+)"/g)].map((m) => m[1]);
}

test('dist/ layout: the documented entry points exist, each page preloads files that exist, with relative URLs only', () => {
  for (const file of ['src/main.mjs', 'src/playground.mjs', 'src/url.mjs', 'wasm/index.mjs', 'wasm/index.d.ts', 'wasm/gen/dlq_core.wasm']) {
    assert.ok(existsSync(path.join(DIST, file)), `dist/${file}`);
  }
  for (const page of ['playground.html', 'embed.html', 'compare.html']) {
    const links = preloads(readFileSync(path.join(DIST, page), 'utf8'));
    assert.ok(!links.some((href) => href.endsWith('.wasm')), `${page} does not preload a .wasm (it would compete with the first paint)`);
    assert.ok(links.includes('./wasm/index.mjs'), `${page} preloads the JS API`);
    for (const href of links) {
      assert.match(href, /^\.\//, `${page}: ${href} is relative`);
      assert.ok(existsSync(path.join(DIST, href)), `${page}: ${href} exists`);
    }
  }
  // The checker's documentation, where its SARIF helpUri links point (docs/check.md#<rule-id>).
  assert.equal(readFileSync(path.join(DIST, 'docs', 'check.md'), 'utf8'), readFileSync(path.join(ROOT, 'docs', 'check.md'), 'utf8'));
  // Minified: the bundle is not the source copied.
  const main = readFileSync(path.join(DIST, 'src', 'main.mjs'), 'utf8');
  assert.doesNotMatch(main, /^\/\/ Entry point/m);
  assert.match(main, /\/\/# sourceMappingURL=main\.mjs\.map\s*$/);
});

test('a cold load fetches each file once (every preload is used), and src/playground.mjs, src/main.mjs and the page share one instance', async () => {
  const opened = await openPage(h.browser, null);
  const { page } = opened;
  const requests = [];
  page.on('request', (request) => requests.push(new URL(request.url()).pathname));
  await page.goto(`${h.base}playground.html`);
  await page.waitForSelector('html[data-ready="true"]');
  const fetched = requests.filter((p) => p !== '/favicon.svg');
  assert.deepEqual(fetched.filter((p, i) => fetched.indexOf(p) !== i), [], 'no file is fetched twice (a preload that is not used is fetched again)');
  const links = preloads(readFileSync(path.join(DIST, 'playground.html'), 'utf8')).map((href) => href.slice(1));
  for (const link of links) assert.ok(fetched.includes(link), `${link} is fetched`);

  const shared = await page.evaluate(async () => {
    const { mount } = await import('./src/playground.mjs');
    const main = await import('./src/main.mjs');
    const target = document.createElement('div');
    document.querySelector('main').append(target);
    const controller = await mount(target, { label: 'Mounted by an embedder' });
    return {
      same: mount === main.mount,
      element: customElements.get('dlq-playground') === document.querySelector('dlq-playground').constructor,
      drawn: target.querySelector('section.dlq') !== null,
      link: /^v[0-9]+;/.test(controller.link()),
    };
  });
  assert.deepEqual(shared, { same: true, element: true, drawn: true, link: true });
  assert.equal(await playground(page, 1).step(), 0);
  await playground(page, 1).button('Step').click();
  assert.equal(await playground(page, 1).step(), 1);
  assert.equal(await playground(page, 0).step(), 0, 'the page\'s own playground is untouched');
  assertClean(opened);
  await opened.context.close();
});

test('the plain modules in web/src work unbundled (DLQ_BUNDLE=0 writes that site)', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dlq-unbundled-'));
  const out = path.join(dir, 'site');
  buildSite(ROOT, { out, bundled: false, precompressed: false });
  assert.ok(existsSync(path.join(out, 'src', 'playground', 'model.mjs')), 'the source modules are copied as they are');
  const server = await serve({ dir: out });
  try {
    for (const file of ['playground.html', 'embed.html']) {
      const opened = await openPage(h.browser, `http://127.0.0.1:${server.address().port}/${file}`);
      const pg = playground(opened.page);
      await pg.button('Step').click();
      assert.equal(await pg.step(), 1);
      assertClean(opened);
      await opened.context.close();
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a page compiles the core in a worker that ends once it has answered; where no worker may start, the page compiles the core itself', async () => {
  // wasm/instantiate.mjs: the streaming compile's tasks stay off the page's main thread.
  const opened = await openPage(h.browser, null);
  const workers = [];
  opened.page.on('worker', (worker) => workers.push({ url: new URL(worker.url()).pathname, closed: new Promise((resolve) => { worker.on('close', resolve); }) }));
  await opened.page.goto(`${h.base}playground.html`);
  await opened.page.waitForSelector('html[data-ready="true"]');
  assert.deepEqual(workers.map((w) => w.url), ['/wasm/compile-worker.mjs']);
  await workers[0].closed;
  const pg = playground(opened.page);
  await pg.button('Step').click();
  assert.equal(await pg.step(), 1);
  assertClean(opened);
  await opened.context.close();

  // A page whose Content-Security-Policy forbids workers (an embedder's may): the browser refuses
  // the worker, and the playground starts all the same.
  const refused = await openPage(h.browser, null);
  const started = [];
  refused.page.on('worker', (worker) => started.push(worker.url()));
  await refused.page.route('**/playground.html', async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace('default-src \'self\';', 'default-src \'self\'; worker-src \'none\';');
    assert.match(html, /worker-src 'none'/);
    await route.fulfill({ response, body: html });
  });
  await refused.page.goto(`${h.base}playground.html`);
  await refused.page.waitForSelector('html[data-ready="true"]');
  const refusedPg = playground(refused.page);
  await refusedPg.button('Step').click();
  assert.equal(await refusedPg.step(), 1);
  assert.deepEqual(started, []);
  assert.ok(refused.problems.length > 0 && refused.problems.every((p) => /Content Security Policy.*worker-src/s.test(p)), JSON.stringify(refused.problems));
  await refused.context.close();
});
