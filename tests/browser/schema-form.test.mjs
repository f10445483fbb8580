// The Advanced set-up is the core's field tables drawn (lab.schema): every policy,
// backoff, class-rule and world field has a control with the row's label, kind,
// range and choices, and a value typed into one reaches the core's policy.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadLab } from 'dlq-lab';
import { start, openPage, playground, assertClean } from './harness.mjs';

const lab = await loadLab();
let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

/** Checks that `control` is the input a row of `kind` gets, with its range or choices. */
async function checkControl(control, row, at) {
  assert.equal(await control.count(), 1, `${at}: one control labelled "${row.label}"`);
  const shape = await control.evaluate((el) => ({
    tag: el.tagName, type: el.type, min: el.min, max: el.max, options: [...(el.options ?? [])].map((o) => o.value),
  }));
  if (row.kind === 'integer') {
    assert.deepEqual([shape.tag, shape.type, shape.min, shape.max], ['INPUT', 'number', String(row.min), String(row.max)], at);
  } else if (row.kind === 'choice') {
    assert.equal(shape.tag, 'SELECT', at);
    assert.deepEqual(shape.options, row.choices.map((c) => c.name), `${at}: the core's choices`);
  } else {
    assert.deepEqual([shape.tag, shape.type], ['INPUT', 'checkbox'], at);
  }
}

test('every field of the core\'s tables has its control in the Advanced set-up, and a change reaches the core', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`);
  const pg = playground(opened.page);
  await pg.root.locator('details.dlq-advanced > summary').click();
  await pg.root.locator('table.dlq-classes').waitFor();  // the body is built on the toggle event, after the click
  // A checkbox's label is its row's label and then its description in parentheses (a label may have its own).
  const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const label = (row) => (row.kind === 'boolean' ? new RegExp(`^${escaped(row.label)} \\(`) : row.label);
  const byLabel = (row) => pg.root.getByLabel(label(row), { exact: row.kind !== 'boolean' });
  const policyRows = [...lab.schema.backoff, ...lab.schema.policy.filter((r) => r.scenario && !r.required), ...lab.schema.world];
  for (const row of policyRows) await checkControl(byLabel(row), row, row.name);
  for (const cls of lab.failureClasses) {
    for (const row of lab.schema.classRule) {
      await checkControl(pg.root.getByLabel(`${cls}: ${row.label.toLowerCase()}`, { exact: true }), row, `${cls}.${row.name}`);
    }
  }
  // A typed value goes to the core, which puts it in the share link (v2;…;s77: the seed).
  await pg.field('Seed').fill('77');
  await pg.field('Seed').press('Tab');
  await opened.page.waitForFunction(() => /;s77(;|$)/.test(decodeURIComponent(location.hash)));
  // Out of range: the core's refusal, by the field's name, and the policy unchanged.
  await pg.field('Lease timeout (ms)').fill('0');
  await pg.field('Lease timeout (ms)').press('Tab');
  const alert = pg.root.locator('.dlq-advanced .dlq-field-error').first();
  assert.match(await alert.textContent(), /leaseMs must be an integer from 1 to 86400000, got 0/);
  assertClean(opened);
});

test('the class table says what the rules in force do: a class set to never is retried under retryEveryError', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`);
  const pg = playground(opened.page);
  await pg.root.locator('details.dlq-advanced > summary').click();
  const hint = pg.root.locator('tr', { has: opened.page.locator('th', { hasText: /^permanent$/ }) }).locator('.dlq-hint');
  assert.equal(await hint.textContent(), 'never retried');
  await pg.root.getByLabel('System', { exact: true }).selectOption('sidekiq');
  await pg.root.getByLabel(/^Sidekiq 6\.4\.1 retries every error \(/).check();
  await hint.filter({ hasText: 'retried under sidekiq' }).waitFor();
  assert.equal(await hint.textContent(), 'set to never, but retried under sidekiq');
  assertClean(opened);
});
