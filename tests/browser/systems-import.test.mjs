// Real systems in the playground: each system preset, loaded from the a/b example,
// puts its system in the policy (the Advanced set-up's System, the link's `;r…`)
// and its first events show that system's difference; Import a broker's config
// takes each of the four formats, changes the policy and the link, and refuses
// what the lab cannot express by name, with nothing changed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder, start, openPage, playground, assertClean, screenshotPath } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

const LETTER = { 'rabbitmq-quorum': 'q', bullmq: 'b', sidekiq: 'k', sqs: 's' };

/** The policy in force, as the core reports it to the page. */
const policyOf = (page) => page.evaluate(() => document.querySelector('dlq-playground').controller.session.view.policy);

/** Waits for the page's link (sync-url: the hash) to carry `part`; returns it. */
async function linkWith(page, part) {
  await page.waitForFunction((p) => location.hash.includes(p), part);
  return page.evaluate(() => location.hash);
}

/** The Advanced set-up's System select, opened. */
async function systemField(pg) {
  const details = pg.root.locator('details.dlq-advanced');
  if (!(await details.evaluate((d) => d.open))) await details.locator('summary').click();
  return pg.field('System');
}

const PRESETS = [
  { name: 'RabbitMQ: poison loop at the head', system: 'rabbitmq-quorum', forward: 2,
    // a is redelivered at once, ahead of b and c (the lab would run b next).
    first: [/attempt "a" 1\/4 transient .* -> requeued/, /requeued "a" attempts 1/, /attempt "a" 2\/4 transient/],
    end: { quarantine: 'a', systemReason: 'delivery_limit' } },
  { name: 'BullMQ: uncapped backoff', system: 'bullmq', forward: 3,
    first: [/leased "a" 1\/5/, /attempt "a" 1\/5 transient .* -> delayed 500ms/],
    delays: [500, 1000, 2000, 4000] },
  { name: 'Sidekiq: its own clock, one more run from Dead', system: 'sidekiq', forward: 3,
    first: [/leased "a" 1\/3/, /attempt "a" 1\/3 transient .* -> delayed 24000ms/],
    delays: [24000, 26000] },
  { name: 'SQS: back after the visibility timeout', system: 'sqs', forward: 3,
    first: [/leased "a" 1\/3 lease lease-1 until 5000/, /attempt "a" 1\/3 transient .* -> delayed 5000ms/],
    delays: [5000, 5000], end: { quarantine: 'a', systemReason: '(no reason kept)' } },
];

for (const preset of PRESETS) {
  test(`system preset "${preset.name}" from the a/b example: ${preset.system} in the policy, its first events`, async () => {
    const opened = await openPage(h.browser, `${h.base}playground.html`);
    const { page } = opened;
    const pg = playground(page);
    assert.equal((await policyOf(page)).system, 'lab');
    const chip = pg.root.getByRole('group', { name: 'Real systems' }).getByRole('button', { name: preset.name, exact: true });
    assert.ok((await chip.getAttribute('title')).length > 20, 'a one-line summary');
    await chip.click();
    assert.match(await pg.why(), new RegExp(`^${preset.name.replace(/[()]/g, '\\$&')}:`));
    assert.equal((await policyOf(page)).system, preset.system);
    assert.equal(await (await systemField(pg)).inputValue(), preset.system, 'the Advanced set-up shows the system');
    assert.match(await linkWith(page, `;r${LETTER[preset.system]};`), /^#v2;/);

    for (let i = 0; i < preset.forward; i++) await pg.button('Forward').click();
    const lines = (await pg.logLines()).filter((l) => !/ enqueued /.test(l));
    preset.first.forEach((pattern, i) => assert.match(lines[i] ?? '', pattern, `event ${i + 1} after the enqueues`));

    await page.evaluate(() => document.querySelector('dlq-playground').controller.toEnd());
    if (preset.delays) {
      const delays = (await pg.logLines()).map((l) => /attempt "a" .* -> delayed (\d+)ms/.exec(l)?.[1]).filter(Boolean).map(Number);
      assert.deepEqual(delays, preset.delays);
    }
    if (preset.end) {
      assert.deepEqual(await pg.ids('Quarantine'), [preset.end.quarantine]);
      const entry = pg.region('Quarantine').locator('.dlq-list > li').first();
      assert.equal((await entry.locator('.dlq-v.dlq-system').textContent()).trim(), preset.end.systemReason);
    }
    if (preset.system === 'sidekiq') {
      // The script ends with a retry from Dead; Run plays the world on: exactly one more run, then Dead again.
      const lines2 = await pg.logLines();
      assert.match(lines2.at(-1), /replayed "a"/);
      await pg.button('Run').click();
      await page.waitForFunction(() => [...document.querySelectorAll('.dlq-log-text')].some((l) => /step 6 .* quarantined "a"/.test(l.textContent)));
      const after = (await pg.logLines()).slice(lines2.length);
      assert.equal(after.filter((l) => /attempt "a"/.test(l)).length, 1, 'one more run');
      assert.match(after.find((l) => /attempt "a"/.test(l)), /3\/3 .* -> quarantined/);
    }
    assertClean(opened);
    await opened.context.close();
  });
}

/** Opens the import dialog, pastes `text` (and the SQS DLQ's retention) and presses Import; returns the dialog's locator. */
async function importText(pg, text, dlqRetention = '') {
  const dialog = pg.root.getByRole('dialog', { name: 'Import a broker\'s config' });
  if (!(await dialog.isVisible())) await pg.button('Import a broker\'s config…').click();
  await dialog.getByLabel('Broker config', { exact: true }).fill(text);
  await dialog.getByLabel('SQS: the dead-letter queue\'s MessageRetentionPeriod (s)', { exact: true }).fill(dlqRetention);
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  return dialog;
}

const IMPORTS = [
  { format: 'BullMQ', text: '{"attempts":4,"backoff":{"type":"exponential","delay":1000},"removeOnFail":false}',
    system: 'bullmq', policy: { maxAttempts: 4, backoff: { kind: 'exponential', baseMs: 1000, capMs: 86_400_000, jitter: 'none' } } },
  { format: 'SQS', text: JSON.stringify({ Attributes: { QueueArn: 'arn:aws:sqs:us-east-1:123456789012:orders', VisibilityTimeout: '45',
    MessageRetentionPeriod: '1209600', RedrivePolicy: '{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:123456789012:orders-dlq","maxReceiveCount":5}' } }, null, 2),
  system: 'sqs', policy: { maxAttempts: 5, leaseMs: 45_000, quarantine: { retentionMs: 1_209_600_000, alarmDepth: 0 } } },
  // The import turns on 6.4.1's jitter on a custom delay (retryInJitter): the link's mode letter carries j.
  { format: 'Sidekiq', text: 'sidekiq_options retry: 5, queue: "default"', system: 'sidekiq', policy: { maxAttempts: 6, retryInJitter: true },
    link: ';rkj;' },
  { format: 'RabbitMQ', text: '{"delivery-limit":20,"dead-letter-exchange":"dlx"}', system: 'rabbitmq-quorum', policy: { maxAttempts: 21 } },
];

for (const example of IMPORTS) {
  test(`import ${example.format}: the mode and its settings, listed, in the policy and the link`, async () => {
    const opened = await openPage(h.browser, `${h.base}playground.html`);
    const { page } = opened;
    const pg = playground(page);
    const dialog = await importText(pg, example.text);
    const status = dialog.getByRole('status');
    await status.getByText(/^Imported /).waitFor();
    assert.match(await status.textContent(), new RegExp(`system = ${example.system}`));
    const policy = await policyOf(page);
    assert.equal(policy.system, example.system);
    for (const [key, value] of Object.entries(example.policy)) assert.deepEqual(policy[key], value, key);
    assert.equal(await dialog.getByRole('alert').isHidden(), true);
    await linkWith(page, example.link ?? `;r${LETTER[example.system]};`);
    // The jobs and the script stay: the a/b example's.
    assert.deepEqual(await pg.ids('Ready'), ['a', 'b']);
    assert.match(await pg.why(), new RegExp(`^Imported .*system ${example.system}`));
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    assert.equal(await (await systemField(pg)).inputValue(), example.system);
    assertClean(opened);
    await opened.context.close();
  });
}

test('import refusals: named in the dialog, and nothing changed (policy, link, script)', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`);
  const { page } = opened;
  const pg = playground(page);
  await pg.button('Forward').click();
  const hash = await linkWith(page, ';c1');
  const policy = await policyOf(page);
  const refusals = [
    ['{"attempts":3,"backoff":{"type":"exponential","delay":1000,"jitter":0.0005},"removeOnFail":"yes"}',
      [/removeOnFail: expected true, false/, /backoff\.jitter: expected a number from 0 to 1 in thousandths/]],
    ['sidekiq_options retry: -1', [/retry: expected true, false or a whole number from 0, got -1/]],
    ['{"delivery-limit":2.5,"dead-letter-exchange":"dlx"}', [/delivery-limit: expected a whole number from 0, got 2\.5/]],
    ['{"VisibilityTimeout":"30"}', [/RedrivePolicy is missing/]],
    ['{not json', [/config is not JSON nor a sidekiq_options line/]],
    // The translation is fine; the core refuses the value, named with the broker setting it came from.
    ['{"attempts":2000000}', [/maxAttempts.*\(maxAttempts from attempts 2000000/]],
  ];
  for (const [text, patterns] of refusals) {
    const dialog = await importText(pg, text);
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    const said = await alert.textContent();
    assert.match(said, /Not imported .*nothing changed\./);
    for (const p of patterns) assert.match(said, p, text);
    assert.equal(await dialog.getByLabel('Broker config', { exact: true }).inputValue(), text, 'the text stays to be corrected');
  }
  await page.waitForTimeout(300);  // past the link's debounce
  assert.deepEqual(await policyOf(page), policy);
  assert.equal(await page.evaluate(() => location.hash), hash);
  assert.equal(await pg.cursor(), 1);
  assertClean(opened);
  await opened.context.close();
});

test('screenshots: the set-up with the real-system presets, and the import dialog open', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`);
  const { page } = opened;
  const pg = playground(page);
  await pg.root.getByRole('group', { name: 'Real systems' }).getByRole('button', { name: 'RabbitMQ: poison loop at the head' }).click();
  await page.evaluate(() => document.querySelector('dlq-playground').controller.toEnd());
  await page.screenshot({ path: screenshotPath('playground-systems'), fullPage: true });
  const dialog = await importText(pg, '{"attempts":3,"backoff":{"type":"exponential","delay":1000},"removeOnFail":false}');
  await dialog.getByRole('status').getByText(/^Imported /).waitFor();
  await page.screenshot({ path: screenshotPath('playground-import') });
  await importText(pg, '{"attempts":3,"removeOnFail":"yes","backoff":{"type":"exponential","delay":1000,"jitter":0.5}}');
  await dialog.getByRole('alert').waitFor();
  await page.screenshot({ path: screenshotPath('playground-import-refused') });
  assertClean(opened);
  await opened.context.close();
});

test('one import never blocks the next: Sidekiq, then BullMQ options as code has them, then RabbitMQ and SQS; what only the old system had is reset', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`);
  const { page } = opened;
  const pg = playground(page);
  let dialog = await importText(pg, 'sidekiq_options retry: 5');
  const status = dialog.getByRole('status');
  await status.getByText(/^Imported /).waitFor();
  assert.equal((await policyOf(page)).retryInJitter, true);
  // The probe: refused before (retryInJitter applies only with system "sidekiq" …, got true with system "bullmq").
  dialog = await importText(pg, "{ attempts: 3, backoff: { type: 'fixed', delay: 500, }, jobId: 'order-42', }");
  await status.getByText(/^Imported BullMQ/).waitFor();
  assert.equal(await dialog.getByRole('alert').isHidden(), true);
  let policy = await policyOf(page);
  assert.equal(policy.system, 'bullmq');
  assert.equal(policy.retryInJitter, false);
  assert.equal(policy.maxAttempts, 3);
  assert.match(await status.textContent(), /retryInJitter = false ← only under system sidekiq: back to its default/);
  assert.match(await dialog.locator('.dlq-import-ignored').textContent(), /jobId "order-42": names the job/);
  await linkWith(page, ';rb;');
  // RabbitMQ with a storage-only key, listed as read, changing nothing.
  await importText(pg, '{"delivery-limit":4,"queue-mode":"lazy","max-length":3}');
  await status.getByText(/^Imported RabbitMQ/).waitFor();
  assert.match(await status.textContent(), /Read, changes nothing:queue-mode "lazy": where a classic queue keeps its messages/);
  assert.equal((await policyOf(page)).maxLength, 3);
  // SQS over RabbitMQ's own settings, with both retentions.
  await importText(pg, JSON.stringify({ Attributes: { MessageRetentionPeriod: '345600', RedrivePolicy: '{"maxReceiveCount":4}' } }), '1209600');
  await status.getByText(/^Imported Amazon SQS/).waitFor();
  policy = await policyOf(page);
  assert.equal(policy.system, 'sqs');
  assert.equal(policy.maxLength, 0);
  assert.equal(policy.deadLetterExchange, 'set');
  assert.equal(policy.quarantine.retentionMs, 1_209_600_000);
  assert.match(await status.textContent(), /MessageRetentionPeriod 345600 s: the source queue's/);
  assert.deepEqual(await pg.ids('Ready'), ['a', 'b'], 'the jobs stay');
  assertClean(opened);
  await opened.context.close();
});

test('import: each refusal replaces the one before; deep nesting, a key given twice, a bidi override echoed isolated', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`);
  const { page } = opened;
  const pg = playground(page);
  const policy = await policyOf(page);
  const cases = [
    [`{"attempts":${'['.repeat(6000)}${']'.repeat(6000)}}`, 'config is nested too deeply: expected at most 16 levels of nested objects and arrays, got more than 16'],
    ['{"attempts":3,"attempts":50}', 'attempts is a duplicate key: expected each key once, got "attempts" a second time'],
    ['{"attempts":"\u202Eevil"}', 'attempts: expected a whole number from 1, got \u2068"\\u202eevil"\u2069'],
    [`sidekiq_options ${' '.repeat(65_000)}x`, 'sidekiq_options is too long: expected one line of at most 1,024 characters, got 65,017 characters'],
  ];
  for (const [text, said] of cases) {
    const dialog = await importText(pg, text);
    const alert = dialog.getByRole('alert');
    await page.waitForFunction((s) => document.querySelector('.dlq-import-refusal')?.textContent.includes(s), said);
    assert.equal(await alert.locator('li').count(), 1, 'only this refusal is on show');
    assert.equal(await alert.locator('li').textContent(), said);
  }
  assert.deepEqual(await policyOf(page), policy);
  assertClean(opened);
  await opened.context.close();
});

test('screenshot: the import dialog with the SQS dead-letter queue\'s retention and the list of what changes nothing', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`, { viewport: { width: 1280, height: 1100 } });
  const { page } = opened;
  const pg = playground(page);
  const dialog = await importText(pg, JSON.stringify({ Attributes: {
    QueueArn: 'arn:aws:sqs:us-east-1:123456789012:orders', VisibilityTimeout: '45', MessageRetentionPeriod: '345600',
    ReceiveMessageWaitTimeSeconds: '20',
    RedrivePolicy: '{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:123456789012:orders-dlq","maxReceiveCount":5}' } }, null, 2), '345600');
  await dialog.getByRole('status').getByText(/^Imported /).waitFor();
  assert.match(await dialog.locator('.dlq-import-ignored').textContent(), /The DLQ keeps no longer than its source \(345600 s ≤ 345600 s\)/);
  await page.screenshot({ path: screenshotPath('playground-import-sqs') });
  await pg.root.getByRole('button', { name: 'RabbitMQ', exact: true }).click();
  await importText(pg, '{"delivery-limit":20,"dead-letter-exchange":"dlx","queue-mode":"lazy","dead-letter-routing-key":"orders"}');
  await dialog.getByRole('status').getByText(/^Imported RabbitMQ/).waitFor();
  await page.screenshot({ path: screenshotPath('playground-import-read-only') });
  const results = await new AxeBuilder({ page }).include('.dlq-import').analyze();
  assert.deepEqual(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), []);
  // A phone: the dialog and its SQS field fit the width.
  await page.setViewportSize({ width: 390, height: 844 });
  const sideways = await page.evaluate(() => document.querySelector('.dlq-import').scrollWidth - document.querySelector('.dlq-import').clientWidth);
  assert.ok(sideways <= 0, `no sideways scroll in the dialog (${sideways} px)`);
  await dialog.getByLabel('SQS: the dead-letter queue\'s MessageRetentionPeriod (s)', { exact: true }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('playground-import-390') });
  assertClean(opened);
  await opened.context.close();
});
