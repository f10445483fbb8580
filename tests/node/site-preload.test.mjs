// The built site's preloads (scripts/site.mjs, on dist/ as `npm run build` wrote it): a page
// that loads the core names the .wasm and the JS API in its HTML, so the browser fetches them
// while it parses. The lesson pages import the JS API later, with import() (lessons/lesson.mjs,
// predict.mjs), and preload it from LATER_PRELOADS; the home page, which never starts the core,
// preloads neither. (tests/browser/site.test.mjs checks in Chromium that each preload is used.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../scripts/budgets.mjs';

const DIST = path.join(ROOT, 'dist');
const WASM = '<link rel="preload" href="./wasm/gen/dlq_core.wasm" as="fetch" type="application/wasm" crossorigin>';
const API = '<link rel="modulepreload" href="./wasm/index.mjs">';

function page(name) {
  const file = path.join(DIST, name);
  if (!existsSync(file)) throw new Error(`dist/${name} is not built (npm run build)`);
  return readFileSync(file, 'utf8');
}

/** The preload / modulepreload links of a page's head, in order. */
const links = (html) => [...html.matchAll(/<link rel="(?:module)?preload"[^>]*>/g)].map((m) => m[0]);

test('the lesson pages preload the .wasm and the JS API they import later, before their own script runs', () => {
  for (const name of ['lesson-1.html', 'lesson-2.html']) {
    const html = page(name);
    const found = links(html);
    assert.ok(found.includes(WASM), `${name} preloads the .wasm (as the JS API fetches it: as="fetch", crossorigin)`);
    assert.ok(found.includes(API), `${name} preloads the JS API`);
    assert.ok(html.indexOf(WASM) < html.indexOf('<script type="module"'), `${name}: the preloads come before the script`);
    assert.equal(found.filter((l) => l === WASM).length, 1, `${name}: the .wasm once`);
    assert.equal(html.match(/dlq:preload/), null, `${name}: the marker is replaced`);
  }
});

test('every preload of every page names a file dist/ has; the home page does not fetch the core', () => {
  for (const name of ['index.html', 'lesson-1.html', 'lesson-2.html', 'playground.html', 'embed.html', 'compare.html', 'storm.html', 'check.html']) {
    for (const link of links(page(name))) {
      const href = /href="([^"]+)"/.exec(link)[1];
      assert.match(href, /^\.\//, `${name}: ${href} is relative`);
      assert.ok(existsSync(path.join(DIST, href)), `${name}: ${href} exists`);
    }
  }
  const home = links(page('index.html'));
  assert.ok(!home.includes(WASM) && !home.includes(API), 'index.html starts no core: it preloads neither');
});
