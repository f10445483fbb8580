// Embedding: several playgrounds on one page, each with its own state; only a
// `sync-url` playground touches location.hash.
import { test, before, after } from 'node:test';
import http from 'node:http';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve, CONTENT_SECURITY_POLICY } from '../../scripts/serve.mjs';
import assert from 'node:assert/strict';
import { start, openPage, playground, screenshotPath, ROOT } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

test('the embedding example: three independent playgrounds (two custom elements, one mount())', async () => {
  const opened = await openPage(h.browser, `${h.base}embed.html`);
  const { page, problems, dialogs } = opened;
  await page.waitForSelector('#lesson-mounted[data-ready="true"]');
  assert.equal(await page.locator('section.dlq').count(), 3);
  const [one, two, three] = [0, 1, 2].map((i) => playground(page, i));
  assert.deepEqual(await one.ids('Ready'), ['a', 'b']);
  assert.deepEqual(await two.ids('Ready'), ['ok-1', 'poison', 'ok-2']);
  assert.deepEqual(await three.ids('Ready'), ['report', 'export']);
  const before2 = await two.snapshot();
  const before3 = await three.snapshot();

  await one.radio('Transient failure').check();
  await one.button('Step').click();
  await one.button('Forward').dispatchEvent('click');
  assert.deepEqual(await one.ids('Ready'), ['b', 'a']);
  assert.deepEqual(await two.snapshot(), before2, 'playground 2 is untouched');
  assert.deepEqual(await three.snapshot(), before3, 'playground 3 is untouched');

  // Outcome radios are separate groups per playground.
  assert.equal(await two.radio('Success').isChecked(), true);
  // Keys go to the playground that has focus.
  await two.button('Forward').focus();
  await page.keyboard.press('f');
  await page.keyboard.press('f');
  assert.equal(await two.step(), 2);
  assert.equal(await one.step(), 1);
  await three.field('Job id').fill('report');
  await three.button('Add job').click();
  assert.match(await three.root.getByRole('group', { name: 'Set-up' }).getByRole('alert').textContent(), /already given/);
  assert.equal(await one.root.getByRole('group', { name: 'Set-up' }).getByRole('alert').count(), 0);

  await page.waitForTimeout(120); // past the link debounce
  assert.equal(new URL(page.url()).hash, '', 'embedded playgrounds leave the address bar alone');
  // Their "Copy link" field points at the full playground page.
  const link = await one.field('Link').inputValue();
  assert.match(link, /\/playground\.html#v1;m3;/);
  assert.deepEqual(problems, []);
  assert.deepEqual(dialogs, []);
  await opened.context.close();
});

test('the scenario attribute can be changed later, and a bad one alerts inside that playground only', async () => {
  const opened = await openPage(h.browser, `${h.base}embed.html`);
  const { page } = opened;
  await page.waitForSelector('#lesson-mounted[data-ready="true"]');
  const one = playground(page, 0);
  const two = playground(page, 1);
  await page.evaluate(() => document.querySelector('#lesson-ab').setAttribute('scenario', 'v1;m2;jz:1;ap'));
  assert.deepEqual(await one.ids('Quarantine'), ['z']);
  await page.evaluate(() => document.querySelector('#lesson-poison').setAttribute('scenario', 'nope'));
  assert.match(await two.root.getByRole('alert').textContent(), /malformed/);
  assert.equal(await one.root.getByRole('alert').count(), 0);
  assert.deepEqual(await two.ids('Ready'), ['a', 'b']);
  // mount() returns a controller; a removed element frees its session.
  await page.evaluate(async () => {
    const el = document.querySelector('#lesson-ab');
    await el.ready;
    el.remove();
  });
  assert.equal(await page.locator('section.dlq').count(), 2);
  assert.deepEqual(opened.problems, []);
  await opened.context.close();
});

const lessonPage = (src) => '<!doctype html><title>A lesson</title><link rel="icon" href="data:,">'
  + `<h1>A lesson</h1><iframe title="playground" src="${src}" width="1000" height="700"></iframe>`;

/** Opens `url` (a lesson page that frames the playground) and returns its iframe's frame too. */
async function openLesson(browser, url) {
  const opened = await openPage(browser, null);
  await opened.page.goto(url);
  const frame = await (await opened.page.$('iframe')).contentFrame();
  return { ...opened, frame };
}

test('frame-ancestors (sent as a header, since a <meta> CSP cannot carry it): this origin may frame the page, another may not', async () => {
  // The header is the <meta> policy plus frame-ancestors; the <meta> leaves it out (it would be ignored there).
  for (const file of ['playground.html', 'embed.html']) {
    const response = await fetch(`${h.base}${file}`);
    assert.equal(response.headers.get('content-security-policy'), `${CONTENT_SECURITY_POLICY}; frame-ancestors 'self'`);
    const meta = (await response.text()).match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/)[1];
    assert.equal(meta, CONTENT_SECURITY_POLICY, `${file}: the <meta> declares the same policy, without frame-ancestors`);
  }

  // Same origin: the site's own lesson page frames its copy of dist/ (served
  // with scripts/serve.mjs, so with the same header): framed and working.
  const dir = mkdtempSync(path.join(tmpdir(), 'dlq-frame-'));
  writeFileSync(path.join(dir, 'lesson.html'), lessonPage('dlq/playground.html'));
  // A copy, not a symlink: the server refuses symlinks that leave the folder it serves.
  cpSync(path.join(ROOT, 'dist'), path.join(dir, 'dlq'), { recursive: true });
  const site = await serve({ dir });
  // Another origin (another port), with no policy of its own that could block the frame.
  const elsewhere = http.createServer((req, res) => {
    res.setHeader('Content-Type', 'text/html');
    res.end(lessonPage(`${h.base}playground.html`));
  });
  await new Promise((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  try {
    const same = await openLesson(h.browser, `http://127.0.0.1:${site.address().port}/lesson.html`);
    await same.frame.waitForSelector('html[data-ready="true"]');
    await same.frame.getByRole('button', { name: 'Step', exact: true }).click();
    assert.equal(await same.frame.locator('section.dlq').getAttribute('data-step'), '1');
    assert.deepEqual(same.problems, []);
    await same.context.close();

    // Refused by the browser: nothing of the playground runs in the frame, and the console says why.
    const other = await openLesson(h.browser, `http://127.0.0.1:${elsewhere.address().port}/lesson.html`);
    await other.page.waitForTimeout(500);
    assert.equal(await other.frame.locator('section.dlq').count(), 0, 'the playground is not shown');
    assert.equal(other.problems.length, 2, JSON.stringify(other.problems));
    assert.equal(other.problems[0], `requestfailed: ${h.base}playground.html net::ERR_BLOCKED_BY_RESPONSE`);
    assert.match(other.problems[1], /^console\.error: Framing '.*' violates the following Content Security Policy directive: "frame-ancestors 'self'"/);
    await other.context.close();
  } finally {
    await new Promise((resolve) => site.close(resolve));
    await new Promise((resolve) => elsewhere.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A server on another origin (another port of 127.0.0.1) answering every request with `html`, under `csp` if given. */
async function hostPage(html, csp = null) {
  const server = http.createServer((req, res) => {
    if (csp) res.setHeader('Content-Security-Policy', csp);
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(html);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** embed.html's two lines, as an author copies them (with the site's own URL). */
async function copiedLines(browser) {
  const opened = await openPage(browser, `${h.base}embed.html`);
  const lines = await opened.page.locator('code[data-embed-lines]').textContent();
  await opened.context.close();
  return lines;
}

const hostHtml = (lines) => `<!doctype html><html lang="en"><title>An author's page</title><link rel="icon" href="data:,">
<main><h1>An author's page</h1>
${lines}
</main></html>`;

test('another origin embeds the playground with the two lines embed.html shows: the modules and the .wasm load across origins', async () => {
  const lines = await copiedLines(h.browser);
  assert.equal(lines, `<script type="module" src="${h.base}src/main.mjs"></script>\n`
    + '<dlq-playground scenario="v1;m3;ja:charge%20order%201,b:charge%20order%202;at:db%20timeout,s,s;c0">'
    + `If this text stays, the playground's script did not load: see ${h.base}embed.html</dlq-playground>`);
  // What a cross-origin module and WebAssembly load need, on the files an embed fetches (the CSP is the site's own, unchanged).
  for (const file of ['src/main.mjs', 'wasm/index.mjs', 'wasm/gen/dlq_core.wasm', 'src/playground.css']) {
    const response = await fetch(`${h.base}${file}`);
    assert.equal(response.headers.get('access-control-allow-origin'), '*', file);
    assert.equal(response.headers.get('cross-origin-resource-policy'), 'cross-origin', file);
    assert.equal(response.headers.get('content-security-policy'), `${CONTENT_SECURITY_POLICY}; frame-ancestors 'self'`, file);
  }
  const host = await hostPage(hostHtml(lines));
  try {
    const opened = await openPage(h.browser, null);
    const workers = [];
    opened.page.on('worker', (worker) => workers.push(worker.url()));
    await opened.page.goto(host.url);
    const pg = playground(opened.page);
    await pg.root.locator('.dlq-list').first().waitFor();
    assert.deepEqual(workers, [], 'a worker\'s script must be on the page\'s origin: the embed compiles the core in the page');
    assert.deepEqual(await pg.ids('Ready'), ['a', 'b']);
    await pg.radio('Transient failure').check();
    await pg.button('Step').click();
    assert.deepEqual(await pg.ids('Ready'), ['b', 'a']);
    assert.match(await pg.field('Link').inputValue(), new RegExp(`^${h.base.replace(/[.?/]/g, '\\$&')}playground\\.html#v1;m3;`),
      'Copy link opens the playground on its own site');
    assert.deepEqual(opened.problems, []);
    await opened.context.close();
  } finally {
    await host.close();
  }
});

test('a cross-origin load that fails says so in the page, with what to do; a blocked script leaves the element\'s sentence', async () => {
  const lines = await copiedLines(h.browser);
  const site = new URL(h.base).origin;
  // The page's own CSP allows the site's script but not fetching (connect-src) or compiling its .wasm.
  const host = await hostPage(hostHtml(lines), `default-src 'self'; script-src 'self' ${site}; style-src 'self' ${site}`);
  // And a page whose CSP blocks the script itself.
  const strict = await hostPage(hostHtml(lines), "default-src 'self'");
  try {
    const opened = await openPage(h.browser, null);
    await opened.page.goto(host.url);
    const fatal = opened.page.locator('dlq-playground .dlq-fatal[role="alert"]');
    await fatal.waitFor();
    assert.equal(await fatal.textContent(), `The playground could not start: could not load its core (WebAssembly) from ${h.base}wasm/gen/dlq_core.wasm `
      + `(${await fatal.evaluate((p) => p.textContent.match(/dlq_core\.wasm \((.+?)\)\. This page/)[1])}). This page is on ${new URL(host.url).origin}, the playground on ${site}: `
      + 'that server must send Access-Control-Allow-Origin (the lab\'s own server, npm start, does), and this page\'s Content-Security-Policy, '
      + `if it has one, must allow ${site} in script-src and connect-src, and 'wasm-unsafe-eval'. `
      + 'Or copy the lab\'s dist/ folder into this site and load it from there.');
    assert.ok(await fatal.isVisible());
    assert.equal(await opened.page.locator('section.dlq').count(), 0);
    // The browser's own reason is in the console too (the CSP refusal): expected here, and nothing else.
    assert.ok(opened.problems.length > 0 && opened.problems.every((p) => /Content Security Policy|connect-src|wasm|fetch/i.test(p)), JSON.stringify(opened.problems));
    await opened.page.screenshot({ path: screenshotPath('embed-load-failure'), fullPage: true });
    assert.deepEqual(opened.dialogs, []);
    await opened.context.close();

    const blocked = await openPage(h.browser, null);
    await blocked.page.goto(strict.url);
    await blocked.page.waitForTimeout(300);
    const element = blocked.page.locator('dlq-playground');
    assert.equal(await element.textContent(), `If this text stays, the playground's script did not load: see ${h.base}embed.html`);
    assert.ok(await element.isVisible());
    await blocked.context.close();
  } finally {
    await host.close();
    await strict.close();
  }
});
