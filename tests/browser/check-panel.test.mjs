// The Check page (check.html): an example, a pasted file, dropped files and a picked folder each
// give the report the native CLI prints for the same files (the page's "As dlq-lab check prints
// it" is compared byte for byte, the findings drawn one per finding, grouped by queue); a file
// that does not parse is refused naming file and line; "Open in playground" lands on the
// finding's scenario; axe clean with no sideways scroll at desktop and phone widths, under the
// strict CSP; the playground does not fetch the checker; the Import dialog points to the page.
// docs/check-panel.png is the desktop screenshot after the Terraform example.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AxeBuilder, start, openPage, assertClean, screenshotPath, playground, ROOT } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

const CORPUS = path.join(ROOT, 'tests', 'fixtures', 'check');

/** The native CLI's output run in tests/fixtures/check on `args`, links based on this server's playground. */
function cli(args) {
  const result = spawnSync(path.join(ROOT, 'build', 'native', 'dlq-lab'),
    ['check', ...args, '--link-base', `${h.base}playground.html`], { cwd: CORPUS, encoding: 'utf8' });
  return { exitCode: result.status, out: result.stdout, err: result.stderr };
}

async function axe(page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

const cliText = (page) => page.locator('#chk-text').textContent();

/** What the page drew: per group, its heading and each finding's level, rule, file:line and link. */
function drawn(page) {
  return page.evaluate(() => [...document.querySelectorAll('.chk-queue')].map((group) => ({
    heading: group.querySelector('h3').textContent,
    findings: [...group.querySelectorAll('.chk-finding')].map((f) => ({
      level: f.querySelector('.chk-level').textContent, rule: f.querySelector('.chk-rule').textContent,
      at: f.querySelector('.chk-at').textContent, link: f.querySelector('.chk-open')?.getAttribute('href') ?? '',
      skipped: f.classList.contains('is-skipped'),
    })),
  })));
}

/** The page's findings in the report's order (file, line, rule), from the groups it drew. */
function sameFindings(groups, report) {
  const shown = groups.flatMap((g) => g.findings);
  assert.equal(shown.length, report.findings.length, 'one item per finding');
  const key = (f) => `${f.level} ${f.rule} ${f.at} ${f.link}`;
  assert.deepEqual(shown.map(key).sort(), report.findings.map((f) => key({ ...f, at: `${f.file}:${f.line}` })).sort());
}

test('an example: the CLI\'s report, grouped by queue, summary, and Open in playground lands on the finding\'s scenario', async () => {
  const opened = await openPage(h.browser, `${h.base}check.html`);
  const { page } = opened;
  assert.match(await page.locator('#chk-reads').textContent(), /Terraform/);
  await page.getByRole('button', { name: 'Terraform plan (SQS)', exact: true }).click();
  await page.locator('#chk-results').waitFor();
  const name = 'terraform/inline-redrive/plan.json';
  const expected = cli([name]);
  assert.equal(await cliText(page), expected.out, 'the text the CLI prints');
  const report = JSON.parse(cli([name, '--format', 'json']).out);
  const groups = await drawn(page);
  sameFindings(groups, report);
  assert.deepEqual(groups.filter((g) => !g.heading.startsWith('About')).map((g) => g.heading.split(' ')[0]),
    report.queues.map((q) => q.name), 'one group per queue, in the report\'s order');
  const { errors, warnings, notes } = report.summary;
  const summary = await page.locator('#chk-summary').textContent();
  assert.match(summary, new RegExp(`^${errors} errors?, ${warnings} warnings?, ${notes} notes?`));
  assert.match(summary, new RegExp(`would exit ${expected.exitCode}`));
  assert.deepEqual(await axe(page), []);
  await page.waitForTimeout(100);
  await page.screenshot({ path: path.join(ROOT, 'docs', 'check-panel.png'), fullPage: true });

  // Open in playground: the finding's v2 link, on this site's playground, and the scenario loads.
  const finding = report.findings.find((f) => f.link !== '');
  assert.ok(finding, 'the example has a finding with a scenario');
  assert.ok(finding.link.startsWith(`${h.base}playground.html#v2`), finding.link);
  const open = page.locator('.chk-open').first();
  const href = await open.getAttribute('href');
  assert.equal(href, report.findings.filter((f) => f.link !== '').map((f) => f.link)
    .find((l) => l === href), 'the link is one of the report\'s');
  await open.click();
  await page.waitForURL(/playground\.html#v2/);
  await page.waitForSelector('html[data-ready="true"]');
  // Loaded, not refused: no alert, and the address keeps the finding's scenario (links.test.mjs's test of a good link).
  await playground(page).root.waitFor();
  assert.equal(await page.getByRole('alert').count(), 0, 'the scenario loads without an alert');
  await page.waitForFunction((hash) => decodeURIComponent(location.hash) === decodeURIComponent(hash), `#${href.split('#')[1]}`);
  assertClean(opened);
  await opened.context.close();
});

test('a pasted file, dropped files and a picked folder give what the CLI prints for them; a broken file is refused by name', async () => {
  const opened = await openPage(h.browser, `${h.base}check.html`);
  const { page } = opened;
  // Pasted, under its name.
  await page.getByLabel('Paste a file', { exact: true }).fill(readFileSync(path.join(CORPUS, 'bullmq/emails.json'), 'utf8'));
  await page.getByLabel('Its file name', { exact: true }).fill('emails.json');
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await page.locator('#chk-results').waitFor();
  const bullmq = spawnSync(path.join(ROOT, 'build', 'native', 'dlq-lab'), ['check', 'emails.json', '--link-base', `${h.base}playground.html`],
    { cwd: path.join(CORPUS, 'bullmq'), encoding: 'utf8' });
  assert.equal(await cliText(page), bullmq.stdout);

  // Dropped: two files onto the drop zone (named files, as on the command line).
  await page.getByRole('button', { name: 'Clear', exact: true }).click();
  const files = ['rabbitmq-4x/definitions.json', 'bullmq/webhooks.json'];
  const contents = files.map((f) => readFileSync(path.join(CORPUS, f), 'utf8'));
  const transfer = await page.evaluateHandle(([names, texts]) => {
    const data = new DataTransfer();
    names.forEach((name, i) => data.items.add(new File([texts[i]], name.split('/').pop(), { type: 'application/json' })));
    return data;
  }, [files, contents]);
  await page.dispatchEvent('#chk-drop', 'drop', { dataTransfer: transfer });
  await page.locator('#chk-file-list li').nth(1).waitFor();
  assert.deepEqual(await page.locator('#chk-file-list code').allTextContents(), ['definitions.json', 'webhooks.json']);
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await page.locator('#chk-results').waitFor();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dlq-check-drop-'));
  files.forEach((f, i) => writeFileSync(path.join(dir, path.basename(f)), contents[i]));
  const dropped = spawnSync(path.join(ROOT, 'build', 'native', 'dlq-lab'),
    ['check', 'definitions.json', 'webhooks.json', '--link-base', `${h.base}playground.html`], { cwd: dir, encoding: 'utf8' });
  rmSync(dir, { recursive: true, force: true });
  assert.equal(await cliText(page), dropped.stdout);

  // A folder, chosen: its files under their paths, the README passed over, as `dlq-lab check sidekiq`.
  await page.getByRole('button', { name: 'Clear', exact: true }).click();
  await page.locator('#chk-folder').setInputFiles(path.join(CORPUS, 'sidekiq'));
  await page.locator('#chk-file-list li').first().waitFor();
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await page.locator('#chk-results').waitFor();
  assert.equal(await cliText(page), cli(['sidekiq']).out);
  sameFindings(await drawn(page), JSON.parse(cli(['sidekiq', '--format', 'json']).out));

  // A file that does not parse: the CLI's message, naming the file; the report is gone.
  await page.getByRole('button', { name: 'Clear', exact: true }).click();
  await page.getByLabel('Paste a file', { exact: true }).fill('{"format_version": "1.2",\n  "planned_values": ');
  await page.getByLabel('Its file name', { exact: true }).fill('plan.json');
  await page.getByLabel('Paste a file', { exact: true }).press('Control+Enter');
  const alert = page.getByRole('alert');
  await alert.waitFor();
  assert.match(await alert.textContent(), /^plan\.json: not a file dlq-lab reads \(it reads: /);
  assert.equal(await page.locator('#chk-results').isVisible(), false);
  assertClean(opened);
  await opened.context.close();
});

for (const [name, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]]) {
  test(`${name}: axe clean with a report, keyboard reachable, no sideways scroll`, async () => {
    const opened = await openPage(h.browser, `${h.base}check.html`, { viewport });
    const { page } = opened;
    assert.deepEqual(await axe(page), [], 'empty form');
    await page.getByRole('button', { name: 'Sidekiq app', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.locator('#chk-results').waitFor();
    assert.deepEqual(await axe(page), [], 'with a report');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page does not scroll sideways (overflow ${overflow}px)`);
    await page.screenshot({ path: screenshotPath(`check-${name}`), fullPage: true });
    assertClean(opened);
    await opened.context.close();
  });
}

test('the playground never fetches the checker, and its Import dialog points to the Check page', async () => {
  const opened = await openPage(h.browser, null);
  const { page } = opened;
  const fetched = [];
  page.on('request', (request) => fetched.push(request.url()));
  await page.goto(`${h.base}playground.html`);
  await page.waitForSelector('html[data-ready="true"]');
  const pg = playground(page);
  await pg.button('Import a broker\'s config…').click();
  const dialog = pg.root.getByRole('dialog', { name: 'Import a broker\'s config' });
  const link = dialog.getByRole('link', { name: 'Check page', exact: true });
  assert.equal(await link.getAttribute('href'), './check.html');
  assert.deepEqual(fetched.filter((url) => /dlq_check|wasm\/check\.mjs/.test(url)), []);
  // Every page's nav has the Check link.
  for (const file of ['index.html', 'playground.html', 'lesson-1.html', 'lesson-2.html', 'storm.html', 'compare.html', 'embed.html', 'check.html']) {
    const html = readFileSync(path.join(ROOT, 'dist', file), 'utf8');
    assert.match(html, /<nav aria-label="Site">[\s\S]*?<a href="\.\/check\.html"[^>]*>Check<\/a>[\s\S]*?<\/nav>/, `${file}: nav links Check`);
  }
  assertClean(opened);
  await opened.context.close();
});
