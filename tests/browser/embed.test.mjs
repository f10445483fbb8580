// Embedding: several playgrounds on one page, each with its own state; only a
// `sync-url` playground touches location.hash.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, playground } from './harness.mjs';

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
  assert.match(await three.region('Set-up').getByRole('alert').textContent(), /already given/);
  assert.equal(await one.region('Set-up').getByRole('alert').count(), 0);

  await page.waitForTimeout(120); // past the link debounce
  assert.equal(new URL(page.url()).hash, '', 'embedded playgrounds leave the address bar alone');
  // Their "Copy link" field points at the full playground page.
  const link = await one.field('Link').inputValue();
  assert.match(link, /\/index\.html#v1;m3;/);
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
