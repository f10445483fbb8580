// An operator's fix, made visible (issue 22): a quarantine card's "Fix payload…" opens an
// editor with the entry's payload; "Patch and replay" sends the core patch(id, payload) and
// then replay(id), two actions on the timeline (a 'patched' event, then 'replayed'), each a
// step back on its own. The card shows the payload the core has at the cursor.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder, start, openPage, playground, screenshotPath, assertClean } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

// b's payload is cut short, so its worker cannot read it: undeserializable, quarantined at once.
const MALFORMED = 'v2;m3;s1;hb:m;ja:order%20a,b:%7B%22order%22%3A;as,u:malformed%20payload';

test('Patch and replay fixes the payload, replays it, and both actions step back', async () => {
  const o = await openPage(h.browser, `${h.base}playground.html#${MALFORMED}`);
  const { page } = o;
  const pg = playground(page);
  const card = pg.region('Quarantine').getByRole('listitem').first();
  await card.waitFor();
  assert.equal(await card.locator('.dlq-payload').textContent(), '{"order":');
  await card.getByText('Fix payload…').click();
  const editor = card.getByRole('textbox', { name: 'New payload for b' });
  assert.equal(await editor.inputValue(), '{"order":', 'the editor starts from the entry\'s payload');
  await editor.fill('{"order":2}');
  const axe = await new AxeBuilder({ page }).include('.dlq-state-views').analyze();
  assert.deepEqual(axe.violations.map((v) => v.id), []);
  await page.locator('.dlq-state-views').screenshot({ path: screenshotPath('playground-patch') });
  const before = await pg.cursor();
  await card.getByRole('button', { name: 'Patch and replay b' }).click();
  await pg.region('Quarantine').getByRole('listitem').first().waitFor({ state: 'detached' });
  assert.equal(await pg.cursor(), before + 2, 'two actions: the patch and the replay');
  const ready = pg.region('Ready').locator('.dlq-list > li').filter({ hasText: 'b' });
  assert.match(await ready.textContent(), /\{"order":2\}/);
  const log = (await pg.logLines()).join('\n');
  assert.match(log, /patched "b" payload 9 -> 11 bytes/);
  assert.match(log, /replayed "b"/);
  // The fixed job runs and completes.
  await pg.radio('Success').check();
  await pg.button('Step').click();
  await page.waitForFunction(() => document.querySelector('section.dlq')?.getAttribute('data-cursor') !== null);
  assert.deepEqual((await pg.ids('Completed')).sort(), ['a', 'b']);
  // Back twice: before the replay the entry is back with the fixed payload, before the patch with the old one.
  await pg.button('Back').click();
  await pg.button('Back').click();
  const fixed = pg.region('Quarantine').getByRole('listitem').first();
  await fixed.waitFor();
  assert.equal(await fixed.locator('.dlq-payload').textContent(), '{"order":2}');
  await pg.button('Back').click();
  await page.waitForFunction(() =>
    document.querySelector('.dlq-quarantine .dlq-list > li .dlq-payload')?.textContent === '{"order":');
  assertClean(o);
  await o.context.close();
});
