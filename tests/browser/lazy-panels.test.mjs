// The playground's panels that a first view does not show load their modules on first
// open (web/src/playground/lazy-parts.mjs, snippet-panel.mjs): the page fetches none of
// them at load; the first open fetches the chunk and the dialog works; a slow chunk says
// "Loading …" meanwhile; a chunk that does not load is said by name, opens nothing, and
// the next open tries again.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, gotoReady, assertClean, playground } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

/** The lazy chunks by the module each holds (the bundler names a chunk after its module: import-view-<hash>.mjs). */
const CHUNK = {
  import: /\/src\/import-view-[A-Z0-9]+\.mjs$/,
  durability: /\/src\/durability-[A-Z0-9]+\.mjs$/,
  snippets: /\/src\/snippets-[A-Z0-9]+\.mjs$/,
};

/** The playground page, with every URL it requested (`requested`, kept up to date). */
async function openPlayground(route) {
  const opened = await openPage(h.browser);
  const requested = [];
  opened.page.on('request', (request) => requested.push(request.url()));
  if (route) await route(opened.page);
  await gotoReady(opened.page, `${h.base}playground.html`);
  return { ...opened, requested, pg: playground(opened.page) };
}

/** Waits until the Config snippet holds a generated snippet (the generators loaded). */
const snippetShown = (page) => page.waitForFunction(() => /\S/.test(document.querySelector('.dlq-config-text')?.value ?? ''));

const fetched = (requested, chunk) => requested.filter((url) => CHUNK[chunk].test(url)).length;

test('a first view fetches no lazy panel; the first open fetches its chunk once and the panel works', async () => {
  const { page, pg, requested, ...opened } = await openPlayground();
  for (const chunk of Object.keys(CHUNK)) assert.equal(fetched(requested, chunk), 0, `${chunk} is not fetched at load`);

  await pg.button('Import a broker\'s config…').click();
  const dialog = page.getByRole('dialog', { name: 'Import a broker\'s config' });
  await dialog.waitFor();
  await dialog.getByLabel('Broker config').fill('{"attempts":4,"backoff":{"type":"fixed","delay":500}}');
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await dialog.getByText(/^Imported BullMQ job options: \d+ fields set\.$/).waitFor();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await pg.button('Import a broker\'s config…').click();
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Close' }).click();
  assert.equal(fetched(requested, 'import'), 1);

  await pg.button('Crash, safe order').click();  // the crash preset plays, then opens Crash and restart
  const crash = page.getByRole('dialog', { name: 'Crash and restart' });
  await crash.waitFor();
  await crash.getByText(/Restarted from \d+ of \d+ writes/).waitFor();
  await crash.getByRole('button', { name: 'Close' }).click();
  assert.equal(fetched(requested, 'durability'), 1);

  await pg.button('Show snippet').click();
  await snippetShown(page);
  assert.equal(fetched(requested, 'snippets'), 1);
  assertClean({ ...opened });
  await opened.context.close();
});

test('a slow chunk says what is loading until its dialog opens', async () => {
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  const { page, pg, ...opened } = await openPlayground((p) => p.route(CHUNK.import, async (route) => {
    await held;
    await route.continue();
  }));
  await pg.button('Import a broker\'s config…').click();
  const status = pg.root.locator('.dlq-loading');
  await status.filter({ hasText: 'Loading the import dialog…' }).waitFor();
  assert.equal(await status.getAttribute('role'), 'status');
  release();
  await page.getByRole('dialog', { name: 'Import a broker\'s config' }).waitFor();
  assert.equal(await status.isHidden(), true, 'the loading line goes with the load');
  assertClean({ ...opened });
  await opened.context.close();
});

test('a chunk that does not load is said by name; nothing opens or changes; the next open loads it', async () => {
  let failing = true;
  const { page, pg, problems, ...opened } = await openPlayground((p) => p.route(/\/src\/(import-view|snippets)-[A-Z0-9]+\.mjs$/,
    (route) => (failing ? route.abort('connectionrefused') : route.continue())));
  // The playground writes its link into the address bar once drawn (url-sync.mjs, after its
  // debounce): read the link after that write, or a slow machine sees it land mid-test.
  await page.waitForFunction(() => location.hash.length > 1);
  const link = await page.evaluate(() => location.hash);
  await pg.button('Import a broker\'s config…').click();
  const alert = pg.root.locator('.dlq-action-error');
  await alert.filter({ hasText: /^Import a broker's config: it did not load \(.+\); check the connection, then try again\.$/ }).waitFor();
  assert.equal(await page.getByRole('dialog').count(), 0, 'no dialog opened');
  assert.equal(await page.evaluate(() => location.hash), link, 'nothing changed');

  await pg.button('Show snippet').click();
  const refusal = pg.root.locator('.dlq-config-refusal');
  await refusal.filter({ hasText: /The Config snippet did not load\..+: check the connection, then show the snippet again\./ }).waitFor();

  failing = false;
  await pg.button('Import a broker\'s config…').click();
  await page.getByRole('dialog', { name: 'Import a broker\'s config' }).waitFor();
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await pg.button('Hide snippet').click();
  await pg.button('Show snippet').click();
  await snippetShown(page);
  assert.equal(await refusal.isHidden(), true);
  // The refused fetches are this test's doing; nothing else may have gone wrong.
  const own = (p) => /ERR_CONNECTION_REFUSED|Failed to fetch dynamically imported module|Failed to load resource/.test(p);
  assert.ok(problems.some(own), 'the aborted fetches were seen');
  assertClean({ ...opened, problems: problems.filter((p) => !own(p)) });
  await opened.context.close();
});
