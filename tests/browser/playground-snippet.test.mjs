// The playground's Config snippet: generated from the policy in force and its mode, the
// picker following the mode; it follows every policy change (a set-up edit, a preset, an
// import, the browser's Back); an edit survives a policy change only as "edited"; Apply
// reads it back through the import's parser and the policy then generates that snippet;
// a bad edit is refused by name and nothing changes; Reset and Copy. The timeline's legend
// words a requeue as the core explains it. Keyboard, labels, axe and 390 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder, start, openPage, playground, assertClean, screenshotPath } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

const RABBIT = 'RabbitMQ: poison loop at the head';

/** The policy in force, as the core reports it to the page. */
const policyOf = (page) => page.evaluate(() => document.querySelector('dlq-playground').controller.session.view.policy);

/** The Config snippet panel's parts, opened. */
async function openSnippet(pg) {
  const panel = pg.region('Config snippet');
  const toggle = panel.getByRole('button', { name: 'Show snippet', exact: true });
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false', 'closed until opened');
  await toggle.click();
  assert.equal(await panel.getByRole('button', { name: 'Hide snippet', exact: true }).getAttribute('aria-expanded'), 'true');
  const text = panel.getByRole('textbox', { name: /^Snippet/ });
  await text.page().waitForFunction((el) => el.value.length > 0, await text.elementHandle());
  return {
    panel,
    text,
    system: panel.getByRole('combobox', { name: 'Snippet for', exact: true }),
    state: () => panel.locator('.dlq-config-state').textContent(),
    apply: panel.getByRole('button', { name: 'Apply to playground', exact: true }),
    reset: panel.getByRole('button', { name: 'Reset to generated', exact: true }),
    copy: panel.getByRole('button', { name: 'Copy', exact: true }),
    refusal: panel.getByRole('alert'),
    result: panel.locator('.dlq-config-result'),
  };
}

/** Waits until the snippet's text matches `pattern`; returns it. */
async function snippetMatching(snippet, pattern) {
  await snippet.text.page().waitForFunction(([el, source, flags]) => new RegExp(source, flags).test(el.value),
    [await snippet.text.elementHandle(), pattern.source, pattern.flags]);
  return snippet.text.inputValue();
}

async function setMaxAttempts(pg, n) {
  await pg.field('Max attempts').fill(String(n));
  await pg.field('Max attempts').press('Tab');
}

async function loadRabbit(pg) {
  await pg.root.getByRole('group', { name: 'Real systems' }).getByRole('button', { name: RABBIT, exact: true }).click();
}

test('the snippet follows the policy and its mode: set-up edits, a preset, an import, Back', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`);
  const { page } = opened;
  const pg = playground(page);
  const snippet = await openSnippet(pg);
  // The lab's own mode has no system of its own: the first system is picked.
  assert.equal(await snippet.system.inputValue(), 'sqs');
  assert.match(await snippet.text.inputValue(), /"maxReceiveCount": 3\b/);
  assert.equal(await snippet.state(), 'Generated from the playground\'s policy now.');
  assert.equal(await snippet.apply.isVisible(), false, 'nothing to apply while unedited');

  await setMaxAttempts(pg, 6);
  await snippetMatching(snippet, /"maxReceiveCount": 6\b/);

  // A preset in the rabbitmq-quorum mode: the picker follows the mode.
  await loadRabbit(pg);
  assert.equal((await policyOf(page)).system, 'rabbitmq-quorum');
  assert.equal(await snippet.system.inputValue(), 'rabbitmq');
  await snippetMatching(snippet, /"delivery-limit":3\b/);
  await setMaxAttempts(pg, 8);
  await snippetMatching(snippet, /"delivery-limit":7\b/);

  // The browser's Back (the preset's history entry) loads the policy before it; the snippet follows.
  await page.waitForFunction(() => location.hash.includes(';rq;'));
  await page.goBack();
  await page.waitForFunction(() => !location.hash.includes(';rq;'));
  await snippetMatching(snippet, /"delivery-limit":5\b/);
  assert.equal((await policyOf(page)).system, 'lab');

  // An import switches the mode: the picker follows to that system's snippet.
  await pg.button('Import a broker\'s config…').click();
  const dialog = page.getByRole('dialog', { name: 'Import a broker\'s config' });
  await dialog.getByLabel('Broker config', { exact: true }).fill('sidekiq_options retry: 4');
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  assert.equal(await snippet.system.inputValue(), 'sidekiq');
  await snippetMatching(snippet, /sidekiq_options retry: 4\n/);

  // Any system can be picked; keyboard only.
  await snippet.system.focus();
  await snippet.system.selectOption('temporal');
  await snippetMatching(snippet, /maximumAttempts: 5,/);
  assertClean(opened);
  await opened.context.close();
});

test('an edit survives a policy change only as "edited"; Apply round-trips; Reset drops it', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`);
  const { page } = opened;
  const pg = playground(page);
  await loadRabbit(pg);
  const snippet = await openSnippet(pg);
  const generated = await snippetMatching(snippet, /"delivery-limit":3\b/);
  const edited = generated.replace('"delivery-limit":3', '"delivery-limit":9');
  await snippet.text.fill(edited);
  assert.match(await snippet.state(), /^Edited\. Apply to playground reads it back/);
  assert.ok(await snippet.apply.isVisible() && await snippet.reset.isVisible());

  // A policy change regenerates nothing edited: the text stays, and says so.
  await setMaxAttempts(pg, 6);
  await page.waitForFunction(() => document.querySelector('.dlq-config-state').textContent.includes('changed since'));
  assert.equal(await snippet.text.inputValue(), edited, 'the edit is not overwritten');
  assert.match(await snippet.state(), /^Edited: the policy has changed since, and this text was kept\./);
  // Picking another system and back finds the edit again.
  await snippet.system.selectOption('bullmq');
  assert.match(await snippet.text.inputValue(), /attempts: 6,/);
  await snippet.system.selectOption('rabbitmq');
  assert.equal(await snippet.text.inputValue(), edited);

  // Apply: delivery-limit 9 is maxAttempts 10; the policy then generates the snippet, unedited.
  await snippet.apply.click();
  assert.equal((await policyOf(page)).maxAttempts, 10);
  assert.equal(await pg.field('Max attempts').inputValue(), '10');
  const regenerated = await snippetMatching(snippet, /"delivery-limit":9\b/);
  assert.equal(regenerated, edited.replaceAll('maxAttempts 4', 'maxAttempts 10').replace('delivery-limit 3.', 'delivery-limit 9.'),
    'the applied edit is the snippet of the new policy');
  assert.equal(await snippet.state(), 'Generated from the playground\'s policy now.');
  assert.equal(await snippet.apply.isVisible(), false);
  assert.equal(await snippet.text.evaluate((el) => el === document.activeElement), true, 'focus moves to the snippet, not to the page');
  assert.match(await snippet.result.textContent(), /^Applied the RabbitMQ quorum queues snippet \(the orders-retry policy definition\): 6 fields set\..*deadLetterExchange = set ← dead-letter-exchange "orders.dlx".*deliveryLimit = explicit ← delivery-limit 9/);
  assert.match(await snippet.result.textContent(), /maxAttempts = 10 ← delivery-limit 9/);
  await page.waitForFunction(() => location.hash.includes(';m10;'));

  // Reset to generated drops an edit.
  await snippet.text.fill(`${regenerated}# mine\n`);
  await snippet.reset.click();
  assert.equal(await snippet.text.inputValue(), regenerated);
  assert.equal(await snippet.reset.isVisible(), false);
  assertClean(opened);
  await opened.context.close();
});

// The snippets of the modes added with issue 34 read back too: each system preset's snippet, its
// budget edited, applies that budget and then generates the edited text's setting.
const ROUND_TRIPS = [
  { preset: 'Pub/Sub: exponential retry, then the dead-letter topic', key: 'pubsub', name: 'Google Cloud Pub/Sub',
    from: /(?<=^ {2})--max-delivery-attempts=5\b/m, to: '--max-delivery-attempts=8', maxAttempts: 8, part: 'the gcloud pubsub subscriptions create commands' },
  { preset: 'Service Bus: ten deliveries back to back', key: 'servicebus', name: 'Azure Service Bus',
    from: /"maxDeliveryCount": 10\b/, to: '"maxDeliveryCount": 4', maxAttempts: 4, part: 'resources.0.properties.{maxDeliveryCount, lockDuration, requiresSession}' },
  { preset: 'Spring Kafka: FixedBackOff(0, 9) holds the partition', key: 'kafka', name: 'Apache Kafka (Spring Kafka retry topics)',
    from: /(?<=FixedBackOff\(\d+L, |ExponentialBackOffWithMaxRetries\()9(?=L?\))/, to: '4', maxAttempts: 5, part: 'the Java code' },
  { preset: 'Spring Kafka: @RetryableTopic retry topics', key: 'kafka', name: 'Apache Kafka (Spring Kafka retry topics)',
    from: /(?<=^ {8})attempts = "4"/m, to: 'attempts = "6"', maxAttempts: 6, part: 'the Java code' },
];

for (const t of ROUND_TRIPS) {
  test(`Apply reads the ${t.key} snippet back: "${t.preset}" with its budget edited`, async () => {
    const opened = await openPage(h.browser, `${h.base}playground.html`);
    const { page } = opened;
    const pg = playground(page);
    await pg.root.getByRole('group', { name: 'Real systems' }).getByRole('button', { name: t.preset, exact: true }).click();
    const system = (await policyOf(page)).system;
    const snippet = await openSnippet(pg);
    assert.equal(await snippet.system.inputValue(), t.key, 'the picker follows the mode');
    const generated = await snippetMatching(snippet, t.from);
    await snippet.text.fill(generated.replace(t.from, t.to));
    assert.match(await snippet.state(), /^Edited\. Apply to playground reads it back/);
    await snippet.apply.click();
    await page.waitForFunction((n) => document.querySelector('dlq-playground').controller.session.view.policy.maxAttempts === n, t.maxAttempts);
    const after = await policyOf(page);
    assert.equal(after.system, system, 'the same system');
    assert.equal(await pg.field('Max attempts').inputValue(), String(t.maxAttempts));
    assert.ok((await snippet.result.textContent()).startsWith(`Applied the ${t.name} snippet (${t.part}): `), await snippet.result.textContent());
    // The policy now generates the edited setting, and the text is the generated one again.
    const regenerated = await snippetMatching(snippet, new RegExp(t.to.replace(/[()"]/g, '\\$&')));
    assert.equal(await snippet.state(), 'Generated from the playground\'s policy now.');
    assert.ok(regenerated.length > 0);
    assertClean(opened);
    await opened.context.close();
  });
}

test('a bad edit is refused by name and nothing changes; Copy copies the text', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`, { context: { permissions: ['clipboard-read', 'clipboard-write'] } });
  const { page } = opened;
  const pg = playground(page);
  await loadRabbit(pg);
  const snippet = await openSnippet(pg);
  const generated = await snippetMatching(snippet, /"delivery-limit":3\b/);
  await page.waitForFunction(() => location.hash.includes(';rq;'));
  const before = { policy: await policyOf(page), hash: await page.evaluate(() => location.hash), why: await pg.why() };
  const unchanged = async () => {
    assert.deepEqual(await policyOf(page), before.policy, 'the policy is unchanged');
    assert.equal(await page.evaluate(() => location.hash), before.hash, 'the link is unchanged');
  };

  // Inside the part read back, a setting the lab cannot express: the import refuses it by name.
  // (expires, a queue's own TTL: message-ttl is modelled since messageTtlMs.)
  const ttl = generated.replace('"delivery-limit":3', '"delivery-limit":3,"expires":60000');
  await snippet.text.fill(ttl);
  await snippet.apply.click();
  await snippet.refusal.waitFor();
  assert.match(await snippet.refusal.textContent(), /^Not applied \(RabbitMQ quorum queues snippet\): nothing changed\.expires is not modelled by the lab: expected it absent, got 60000 \(in the orders-retry policy definition\)$/);
  await unchanged();
  assert.equal(await snippet.text.inputValue(), ttl, 'the edit stays, to be corrected');
  assert.match(await snippet.state(), /^Edited\./);

  // Outside it: the line is named, and nothing is applied, not even the part that would be.
  const outside = generated.replace('"delivery-limit":3', '"delivery-limit":5').replace('NODE=rabbit@localhost', 'NODE=rabbit@elsewhere');
  await snippet.text.fill(outside);
  await snippet.apply.click();
  await page.waitForFunction(() => document.querySelector('.dlq-config-refusal').textContent.includes('is outside'));
  const line = outside.split('\n').findIndex((l) => l.startsWith('NODE=rabbit@elsewhere')) + 1;
  assert.match(await snippet.refusal.textContent(), new RegExp(`nothing changed\\.line ${line} is outside the orders-retry policy definition, the only part Apply reads back: expected "NODE=rabbit@localhost`));
  await unchanged();

  // The core's own refusal, by name: a budget past its range.
  await snippet.text.fill(generated.replace('"delivery-limit":3', '"delivery-limit":2000000'));
  await snippet.apply.click();
  await page.waitForFunction(() => document.querySelector('.dlq-config-refusal').textContent.includes('maxAttempts'));
  assert.match(await snippet.refusal.textContent(), /maxAttempts/);
  await unchanged();

  // A snippet no import reads: Apply is offered but disabled, and the state says why.
  await snippet.system.selectOption('temporal');
  await snippet.text.fill(`${await snippet.text.inputValue()}// mine\n`);
  assert.equal(await snippet.apply.isDisabled(), true);
  assert.match(await snippet.state(), /The Temporal snippet has no import to read it back/);

  await snippet.copy.click();
  await page.waitForFunction(() => document.querySelector('.dlq-config .dlq-copy-status').textContent === 'Snippet copied.');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), await snippet.text.inputValue());
  assert.equal(await pg.why(), before.why);
  assertClean(opened);
  await opened.context.close();
});

test('the legend says where a requeue goes, in the core\'s words: the tail, or near the head', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`);
  const { page } = opened;
  const pg = playground(page);
  const legend = pg.region('Timeline').getByRole('list', { name: 'Legend' }).locator('li[data-kind="requeued"]');
  // The a/b example (the lab's mode) requeues a in its script.
  assert.equal((await legend.textContent()).trim(), 'Requeued: requeue at the tail');
  await loadRabbit(pg);
  await page.waitForFunction(() => document.querySelector('li[data-kind="requeued"]').textContent.includes('head'));
  assert.equal((await legend.textContent()).trim(), 'Requeued: back near the head, as a quorum queue returns it');
  // A script with no requeue says no more than the glyph's name.
  await pg.root.getByRole('button', { name: /^Poison message/ }).click();
  await page.waitForFunction(() => !document.querySelector('li[data-kind="requeued"]').textContent.includes('head'));
  assert.equal((await legend.textContent()).trim(), 'Requeued');
  assertClean(opened);
  await opened.context.close();
});

for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 900 }]) {
  test(`${viewport.width} px: keyboard only, labelled, axe clean, no sideways scroll; screenshot`, async () => {
    const opened = await openPage(h.browser, `${h.base}playground.html`, { viewport });
    const { page } = opened;
    const pg = playground(page);
    await loadRabbit(pg);
    // Keyboard: the panel's toggle is reached by Tab and opened with Enter; the picker and the text follow.
    const toggle = pg.region('Config snippet').getByRole('button', { name: 'Show snippet', exact: true });
    await toggle.focus();
    await page.keyboard.press('Enter');
    const text = pg.region('Config snippet').getByRole('textbox', { name: /^Snippet/ });
    await page.waitForFunction(() => document.querySelector('.dlq-config-text').value.length > 0);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-label') ?? document.activeElement.labels?.[0]?.textContent), 'Snippet for');
    await page.keyboard.press('Tab');
    assert.equal(await text.evaluate((el) => el === document.activeElement), true, 'the snippet is next');
    // Typing edits it (single-key shortcuts do not fire in a text box).
    const cursor = await pg.cursor();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('# s f\n');
    assert.equal(await pg.cursor(), cursor, 'no shortcut fired');
    assert.match(await pg.region('Config snippet').locator('.dlq-config-state').textContent(), /^Edited\./);
    // Ctrl+Enter applies: the line typed is outside the part read back, so it is refused by name.
    await page.keyboard.press('Control+Enter');
    await pg.region('Config snippet').getByRole('alert').waitFor();
    assert.match(await pg.region('Config snippet').getByRole('alert').textContent(), /nothing changed\.line \d+ is outside the orders-retry policy definition/);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Copy');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Apply to playground');

    await pg.region('Config snippet').scrollIntoViewIfNeeded();
    const results = await new AxeBuilder({ page }).analyze();
    assert.deepEqual(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), []);
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(sideways <= 0, `no sideways scroll (${sideways} px)`);
    const box = await text.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= viewport.width, 'the snippet fits the width');
    await pg.region('Config snippet').screenshot({ path: screenshotPath(`playground-snippet-${viewport.width}`) });
    assertClean(opened);
    await opened.context.close();
  });
}

test('Apply across systems: a BullMQ snippet over Sidekiq\'s own settings applies, and they are reset', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`);
  const { page } = opened;
  const pg = playground(page);
  await pg.button('Import a broker\'s config…').click();
  const dialog = page.getByRole('dialog', { name: 'Import a broker\'s config' });
  await dialog.getByLabel('Broker config', { exact: true }).fill('sidekiq_options retry: 4, dead: false');
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  assert.equal((await policyOf(page)).skipDeadSet, true);
  const snippet = await openSnippet(pg);
  await snippet.system.selectOption('bullmq');
  const generated = await snippetMatching(snippet, /attempts: 5,/);
  await snippet.text.fill(generated.replace('attempts: 5,', 'attempts: 2,'));
  await snippet.apply.click();
  await page.waitForFunction(() => /^Applied the BullMQ snippet/.test(document.querySelector('.dlq-config-result').textContent));
  const policy = await policyOf(page);
  assert.equal(policy.system, 'bullmq');
  assert.equal(policy.maxAttempts, 2);
  assert.equal(policy.skipDeadSet, false);
  assert.equal(policy.retryInJitter, false);
  assert.match(await snippet.result.textContent(), /skipDeadSet = false ← only under system sidekiq: back to its default/);
  assertClean(opened);
  await opened.context.close();
});

test('a deeply nested SQS snippet is refused by name, replacing the refusal before it, with no error thrown', async () => {
  const opened = await openPage(h.browser, `${h.base}playground.html`);
  const { page } = opened;
  const pg = playground(page);
  const snippet = await openSnippet(pg);
  const generated = await snippetMatching(snippet, /"maxReceiveCount": 3\b/);
  const policy = await policyOf(page);
  await snippet.text.fill(generated.replace('"maxReceiveCount": 3', '"maxReceiveCount": 0'));
  await snippet.apply.click();
  await page.waitForFunction(() => document.querySelector('.dlq-config-refusal').textContent.includes('maxReceiveCount'));
  await snippet.text.fill(generated.replace('"maxReceiveCount": 3', `"maxReceiveCount": ${'['.repeat(6000)}${']'.repeat(6000)}`));
  await snippet.apply.click();
  await page.waitForFunction(() => document.querySelector('.dlq-config-refusal').textContent.includes('nested too deeply'));
  assert.equal(await snippet.refusal.textContent(),
    'Not applied (Amazon SQS snippet): nothing changed.template is nested too deeply: expected at most 16 levels of nested objects and arrays, got more than 16');
  await snippet.text.fill(generated.replace('"VisibilityTimeout": 30,', '"VisibilityTimeout": 30, "VisibilityTimeout": 31,'));
  await snippet.apply.click();
  await page.waitForFunction(() => document.querySelector('.dlq-config-refusal').textContent.includes('duplicate key'));
  assert.match(await snippet.refusal.textContent(), /nothing changed\.Resources\.OrdersQueue\.Properties\.VisibilityTimeout is a duplicate key: expected each key once, got "VisibilityTimeout" a second time$/);
  assert.deepEqual(await policyOf(page), policy);
  assertClean(opened);
  await opened.context.close();
});
