// A RabbitMQ quorum queue's dead letter drawn as the broker writes it: under system
// 'rabbitmq-quorum' a quarantine card shows its x-death record (queue, reason, count,
// time, newest first) and x-first-death-queue/reason, read from the entry's
// systemRecord (the core keeps it); a lab card shows none.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadLab } from '../../wasm/index.mjs';
import { AxeBuilder, start, openPage, playground, screenshotPath, assertClean, FIXTURES } from './harness.mjs';
import { ms } from '../../web/src/shared/time-format.mjs';

let h;
let lab;
before(async () => { [h, lab] = await Promise.all([start(), loadLab()]); });
after(async () => { await h?.close(); });

const link = (name) => readFileSync(path.join(FIXTURES, `${name}.link`), 'utf8').trim();

test('a rabbitmq-quorum quarantine card shows its x-death record; a lab card does not', async () => {
  const text = link('v2-rabbitmq-xdeath');
  const run = lab.runScenario(text);
  const record = run.quarantined()[0].systemRecord;
  run.dispose();
  const o = await openPage(h.browser, `${h.base}playground.html#${text}`);
  const card = playground(o.page).region('Quarantine').getByRole('listitem').first();
  const xDeath = card.locator('.dlq-record');
  await xDeath.waitFor();
  assert.equal((await xDeath.locator('.dlq-record-title').textContent()).trim(), 'x-death record');
  const rows = await xDeath.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rows, record['x-death'].map((d) => [d.queue, d.reason, String(d.count), `at ${ms(d.time)}`]));
  assert.deepEqual(rows.map((r) => r.slice(0, 3)), [['orders', 'rejected', '1'], ['orders', 'delivery_limit', '2']]);
  assert.deepEqual(await xDeath.locator('.dlq-record-field').allTextContents(),
    ['x-first-death-queue orders', 'x-first-death-reason delivery_limit']);
  const axe = await new AxeBuilder({ page: o.page }).include('.dlq-quarantine').analyze();
  assert.deepEqual(axe.violations.map((v) => v.id), []);
  await card.screenshot({ path: screenshotPath('quarantine-x-death') });
  assertClean(o);
  await o.context.close();

  const labLink = text.replace(';rq', '');
  const l = await openPage(h.browser, `${h.base}playground.html#${labLink}`);
  const labCard = playground(l.page).region('Quarantine').getByRole('listitem').first();
  await labCard.waitFor();
  assert.equal(await labCard.locator('.dlq-record').isVisible(), false);
  assertClean(l);
  await l.context.close();
});

for (const [fixture, reason, systemReason, at] of [['v2-rabbitmq-max-length', 'max-length', 'maxlen', 0],
  ['v2-rabbitmq-message-ttl', 'expired', 'expired', 100]]) {
  test(`a message dead-lettered undelivered (${systemReason}) shows its x-death record`, async () => {
    const o = await openPage(h.browser, `${h.base}playground.html#${link(fixture)}`);
    const card = playground(o.page).region('Quarantine').getByRole('listitem').first();
    const xDeath = card.locator('.dlq-record');
    await xDeath.waitFor();
    const rows = await xDeath.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    assert.deepEqual(rows, [['orders', systemReason, '1', `at ${ms(at)}`]]);
    assert.deepEqual(await xDeath.locator('.dlq-record-field').allTextContents(),
      ['x-first-death-queue orders', `x-first-death-reason ${systemReason}`]);
    assert.match(await card.textContent(), new RegExp(reason), 'the lab\'s reason');
    const axe = await new AxeBuilder({ page: o.page }).include('.dlq-quarantine').analyze();
    assert.deepEqual(axe.violations.map((v) => v.id), []);
    assertClean(o);
    await o.context.close();
  });
}
