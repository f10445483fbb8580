// A dead letter drawn as its own system records it: for every system the core lists
// (lab.schema's policy.system choices), the first of its presets that quarantines
// something is played to the end, and its quarantine card shows the core's record
// (entry.systemRecord) under the core's title (entry.systemRecordTitle): each field's
// name as the system spells it and its value, a time field (entry.systemRecordTimes)
// as its instant. No system is named here: a new one is covered by its presets.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadLab } from '../../wasm/index.mjs';
import { SYSTEM_PRESETS } from '../../web/src/playground/presets.mjs';
import { AxeBuilder, start, openPage, playground, assertClean } from './harness.mjs';
import { ms } from '../../web/src/shared/time-format.mjs';

let h;
let systems;
before(async () => {
  const [started, lab] = await Promise.all([start(), loadLab()]);
  h = started;
  systems = lab.schema.policy.find((row) => row.name === 'system').choices.map((c) => c.name);
});
after(async () => { await h?.close(); });

const shown = (name, value, times) => (times.includes(name) ? `at ${ms(value)}` : value === '' ? '""' : String(value));

/** Plays preset `preset` to its end; its first quarantine entry as the core gives it, or null. */
async function playPreset(page, preset) {
  const pg = playground(page);
  await pg.root.getByRole('group', { name: 'Real systems' }).getByRole('button', { name: preset.name, exact: true }).click();
  return page.evaluate(() => {
    const { controller } = document.querySelector('dlq-playground');
    controller.toEnd();
    return controller.session.view.quarantined[0] ?? null;
  });
}

test('each system\'s quarantine card shows its own record, title and fields from the core', async () => {
  const covered = [];
  for (const system of systems) {
    const presets = SYSTEM_PRESETS.filter((p) => p.scenario.system === system);
    for (const preset of presets) {
      const o = await openPage(h.browser, `${h.base}playground.html`);
      const entry = await playPreset(o.page, preset);
      if (entry === null) {
        assertClean(o);
        await o.context.close();
        continue;
      }
      const record = o.page.locator('.dlq-quarantine .dlq-list > li').first().locator('.dlq-record');
      await record.waitFor();
      assert.ok(entry.systemRecord && entry.systemRecordTitle, `${system}: the core gives a record and its title`);
      assert.equal((await record.locator('.dlq-record-title').textContent()).trim(), entry.systemRecordTitle);
      const times = entry.systemRecordTimes;
      const scalars = Object.entries(entry.systemRecord).filter(([, v]) => !Array.isArray(v));
      assert.deepEqual(await record.locator('.dlq-record-field').allTextContents(),
        scalars.map(([name, value]) => `${name} ${shown(name, value, times)}`), `${system}: each field as the core gives it`);
      for (const [name, items] of Object.entries(entry.systemRecord).filter(([, v]) => Array.isArray(v))) {
        const table = record.getByRole('table', { name });
        const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
        assert.deepEqual(rows, items.map((item) => Object.entries(item).map(([k, v]) => shown(k, v, times))));
      }
      const axe = await new AxeBuilder({ page: o.page }).include('.dlq-quarantine').analyze();
      assert.deepEqual(axe.violations.map((v) => v.id), [], `${system}: axe`);
      if (process.env.DLQ_RECORD_SHOTS) {
        await o.page.locator('.dlq-quarantine .dlq-list > li').first().screenshot({ path: `${process.env.DLQ_RECORD_SHOTS}/record-${system}.png` });
      }
      assertClean(o);
      await o.context.close();
      covered.push(system);
      break;
    }
  }
  // Every system with a preset that quarantines is covered; the lab keeps no record and shows no card.
  assert.ok(!covered.includes('lab'));
  assert.ok(covered.length >= 5, `covered: ${covered.join(', ')}`);
});

test('a lab quarantine card shows no system record', async () => {
  const o = await openPage(h.browser, `${h.base}playground.html`);
  const pg = playground(o.page);
  await pg.root.getByRole('button', { name: 'Poison message', exact: true }).click();
  await o.page.evaluate(() => document.querySelector('dlq-playground').controller.toEnd());
  const card = o.page.locator('.dlq-quarantine .dlq-list > li').first();
  await card.waitFor();
  assert.equal(await card.locator('.dlq-record').isVisible(), false);
  assertClean(o);
  await o.context.close();
});
