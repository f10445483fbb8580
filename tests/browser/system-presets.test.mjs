// The real-system presets added with issue 34 (web/src/playground/presets.mjs) in the
// playground: each loads from its chip, plays to its end with no dialog and no page
// error, and its summary adds up: the waits it names are the delays in the event log,
// and its ending (quarantined, dropped, or still retrying; the record's fields it
// names) is what the core's view shows. And the compare page plays the new systems
// side by side on one scenario.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { SYSTEM_PRESETS } from '../../web/src/playground/presets.mjs';
import { AxeBuilder, start, openPage, playground, assertClean, screenshotPath } from './harness.mjs';

let h;
before(async () => { h = await start(); });
after(async () => { await h?.close(); });

/** The delays `a`'s failures chose, in order, from the event log. */
const delaysOf = (lines) => lines.map((l) => /attempt "a" .* -> delayed (\d+)ms/.exec(l)?.[1]).filter(Boolean).map(Number);
/** `a`'s deliveries, from the event log. */
const attemptsOf = (lines) => lines.filter((l) => /attempt "a" /.test(l)).length;

// Each preset's summary, as what the page must show: `delays` the waits it names (a's, in ms),
// `attempts` a's deliveries, `quarantined` / `dropped` the ids there at the end, `record` fields
// of a's dead-letter record, `check` anything else the summary says.
const CASES = [
  { key: 'pubsub', delays: [10_000, 20_000, 40_000, 60_000], attempts: 5, quarantined: ['a'],
    record: { CloudPubSubDeadLetterSourceDeliveryCount: 5 } },
  { key: 'pubsub-no-dlt', quarantined: [],
    check: ({ lines, delays }) => {
      assert.ok(delays.length > 0 && delays.every((d) => d === 60_000), `every 60 s: ${delays}`);
      assert.ok(lines.some((l) => /"a"/.test(l) && /expired|dropped|discarded/.test(l)), 'a is deleted at its retention');
    } },
  { key: 'service-bus', delays: [], attempts: 10, quarantined: ['a'],
    record: { DeadLetterReason: 'MaxDeliveryCountExceeded', DeliveryCount: 10 },
    check: ({ lines }) => {
      // No retry delay: a's ten failures fall within one second of each other (b's one run sits between
      // a's first two, on the one worker): the first at 100 ms, the last at 1,100 ms.
      const at = lines.map((l) => /at (\d+)ms attempt "a" /.exec(l)?.[1]).filter(Boolean).map(Number);
      assert.equal(at.length, 10);
      assert.ok(at.at(-1) - at[0] <= 1000, `a's failures at ${at.join(', ')} ms`);
    } },
  { key: 'spring-kafka', attempts: 10, quarantined: ['a'],
    record: { 'kafka_dlt-original-topic': 'orders' },
    check: ({ lines, delays }) => {
      assert.ok(delays.every((d) => d === 0), `0 ms apart: ${delays}`);
      // b waits behind a on the held partition: its first delivery comes after a's tenth.
      const firstB = lines.findIndex((l) => /attempt "b" /.test(l));
      const lastA = lines.findLastIndex((l) => /attempt "a" /.test(l));
      assert.ok(firstB > lastA, 'b runs only after a is dead-lettered');
    } },
  { key: 'spring-kafka-retry-topics', delays: [1000, 1500, 2250], attempts: 4, quarantined: ['a'],
    check: ({ lines }) => {
      const bDone = lines.findIndex((l) => /completed "b"|attempt "b" .* success/.test(l));
      const aDead = lines.findIndex((l) => /quarantined "a"|attempt "a" .* -> quarantined/.test(l));
      assert.ok(bDone >= 0 && bDone < aDead, 'b runs meanwhile: no order is kept');
    } },
  { key: 'rabbitmq-43-nack', attempts: 5, quarantined: [] },
  { key: 'sidekiq-retry-for', delays: [20_000, 20_000, 20_000], quarantined: ['a'],
    check: ({ view }) => assert.ok(view.quarantined[0].attempts > 3, 'more runs than retry: 2 would allow') },
  { key: 'sidekiq-discard', quarantined: [], dropped: ['a'] },
  // Kafka Connect: 300 ms doubling while errors.retry.timeout (60 s) lasts, the task holding b.
  { key: 'kafka-connect', delays: [300, 600, 1200, 2400, 4800, 9600, 19_200, 38_400], quarantined: ['a'],
    record: { '__connect.errors.topic': 'orders', '__connect.errors.stage': 'TRANSFORMATION' },
    check: ({ lines }) => {
      const firstB = lines.findIndex((l) => /attempt "b" /.test(l));
      const lastA = lines.findLastIndex((l) => /attempt "a" /.test(l));
      assert.ok(firstB > lastA, 'b runs only after a goes to the DLQ topic');
    } },
  { key: 'kafka-connect-no-dlq', attempts: 1, quarantined: [], dropped: ['a'] },
  // 4.3's x-opt-delivery-time: the consumer's own exponential backoff, not the queue's linear delay.
  { key: 'rabbitmq-43-delivery-time', delays: [4000, 8000, 16_000], attempts: 4, quarantined: ['a'],
    record: { 'x-first-death-reason': 'delivery_limit' } },
  // Service Bus's time to live runs from the enqueue: at 30 s d and e (never delivered) and a (abandoned once).
  { key: 'service-bus-ttl', attempts: 1, quarantined: ['d', 'e', 'a'],
    record: { DeadLetterReason: 'TTLExpiredException', DeliveryCount: 0 },
    check: ({ view }) => {
      assert.deepEqual(view.quarantined.map((e) => [e.id, e.systemRecord.DeadLetterReason, e.systemRecord.DeliveryCount]),
        [['d', 'TTLExpiredException', 0], ['e', 'TTLExpiredException', 0], ['a', 'TTLExpiredException', 1]]);
      assert.equal(view.stats.completed, 2, 'b and c complete within their time to live');
    } },
  // SQS's move task at 2 a second: each of a, b, c goes back 500 ms after the one before, as a new message.
  // The redrive is the preset's script action after the world's run; Run plays the world on past it.
  { key: 'sqs-move-task', attempts: 3, quarantined: [],
    playOn: () => {
      const { controller } = document.querySelector('dlq-playground');
      controller.run();
      return new Promise((resolve) => {
        const poll = setInterval(() => {
          if (controller.session.view.stats.completed === 3) { clearInterval(poll); resolve(); }
        }, 50);
      });
    },
    check: ({ lines, view }) => {
      const moves = lines.map((l) => /at (\d+)ms replayed "([abc])" attempts 2 -> 0 moved as "([abc]\/moved-1)"/.exec(l)).filter(Boolean);
      assert.deepEqual(moves.map((m) => m[3]), ['a/moved-1', 'b/moved-1', 'c/moved-1'], 'three new messages');
      const due = lines.map((l) => /at (\d+)ms due "([bc])" attempts 0/.exec(l)).filter(Boolean).map((m) => Number(m[1]));
      assert.deepEqual(due.map((t) => t - Number(moves[0][1])), [500, 1000], 'moved 500 ms apart (2 a second)');
      for (const id of ['a', 'b', 'c']) {
        const after = lines.slice(lines.findIndex((l) => l.includes(`moved as "${id}/moved-1"`)));
        assert.ok(after.some((l) => new RegExp(`attempt "${id}" 1/2 success`).test(l)), `${id} succeeds once moved, on a new receive count`);
      }
      assert.equal(view.stats.completed, 3, 'all three complete');
    } },
];

for (const c of CASES) {
  test(`system preset "${c.key}" loads, plays without a dialog or error, and its summary adds up`, async () => {
    const preset = SYSTEM_PRESETS.find((p) => p.key === c.key);
    assert.ok(preset, c.key);
    const o = await openPage(h.browser, `${h.base}playground.html`);
    const { page } = o;
    const pg = playground(page);
    const chip = pg.root.getByRole('group', { name: 'Real systems' }).getByRole('button', { name: preset.name, exact: true });
    await chip.click();
    assert.equal(await chip.getAttribute('title'), preset.summary);
    await page.evaluate(() => document.querySelector('dlq-playground').controller.toEnd());
    if (c.playOn) await page.evaluate(c.playOn);
    const view = await page.evaluate(() => {
      const { controller } = document.querySelector('dlq-playground');
      const v = controller.session.view;
      return { policy: v.policy, quarantined: v.quarantined, discarded: v.discarded ?? [], stats: v.stats };
    });
    assert.equal(view.policy.system, preset.scenario.system);
    const lines = await pg.logLines();
    const delays = delaysOf(lines);
    if (c.delays) assert.deepEqual(delays, c.delays, 'the waits the summary names');
    if (c.attempts) assert.equal(attemptsOf(lines), c.attempts, 'a\'s deliveries');
    assert.deepEqual(view.quarantined.map((e) => e.id), c.quarantined);
    assert.deepEqual(await pg.ids('Quarantine'), c.quarantined, 'the Quarantine region shows the core\'s');
    if (c.dropped) assert.deepEqual(view.discarded.map((e) => e.id), c.dropped);
    if (c.record) {
      for (const [field, value] of Object.entries(c.record)) assert.equal(view.quarantined[0].systemRecord[field], value, field);
    }
    c.check?.({ lines, delays, view });
    const axe = await new AxeBuilder({ page }).include('dlq-playground').analyze();
    assert.deepEqual(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id), []);
    await page.screenshot({ path: screenshotPath(`preset-${c.key}`), fullPage: true });
    assertClean(o);
    await o.context.close();
  });
}

test('the compare page plays pubsub, service-bus and spring-kafka side by side with the lab', async () => {
  const systems = ['lab', 'pubsub', 'service-bus', 'spring-kafka'];
  const o = await openPage(h.browser, `${h.base}compare.html#v2;m5;s1;hb:pt;jb:,a:&with=${systems.join(',')}`, { viewport: { width: 1280, height: 900 } });
  const { page } = o;
  await page.locator('.cmp-col').nth(3).waitFor();
  const cols = await page.evaluate(() => [...document.querySelectorAll('.cmp-col')].map((col) => ({
    label: col.dataset.column,
    refused: col.querySelector('.cmp-refused')?.textContent ?? null,
    maxMs: Number(col.querySelector('svg.cmp-lanes')?.dataset.maxMs),
    quarantined: [...col.querySelectorAll('.cmp-ev')].filter((g) => g.dataset.kind === 'quarantined').map((g) => g.dataset.id),
  })));
  assert.deepEqual(cols.map((c) => c.label), systems);
  for (const col of cols) {
    assert.equal(col.refused, null, `${col.label} is played`);
    assert.deepEqual(col.quarantined, ['b'], `${col.label} quarantines the poison job b`);
  }
  assert.equal(new Set(cols.map((c) => c.maxMs)).size, 1, 'one time axis');
  const diff = await page.locator('#cmp-diff li').allTextContents();
  assert.ok(diff.length > 0 && diff.every((d) => d.length > 0));
  assert.ok(diff.some((d) => /pubsub|service-bus|spring-kafka/.test(d)), diff.join(' | '));
  const axe = await new AxeBuilder({ page }).analyze();
  assert.deepEqual(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id), []);
  await page.screenshot({ path: screenshotPath('compare-new-systems'), fullPage: true });
  assertClean(o);
  await o.context.close();
});
