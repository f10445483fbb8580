// The service-bus mode through WebAssembly (core/systems/service_bus.cpp; docs/real-systems.md):
// the dead-letter record an operator of Service Bus sees, the refusals by name, the snippet read
// back by the import, and the playground's preset. No Service Bus here: each rule is tested
// against its documentation (tests/native/service_bus_test.cpp quotes the sentences).
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadLab } from '../../wasm/index.mjs';
import { SYSTEM_PRESETS } from '../../web/src/playground/presets.mjs';
import { connectSnippets, snippetByKey, snippetForMode } from '../../web/src/shared/snippets.mjs';

const lab = await loadLab();
connectSnippets(lab);

test('a dead letter carries DeadLetterReason, DeadLetterErrorDescription, DeliveryCount and its sub-queue', () => {
  const q = lab.createQueue({ system: 'service-bus', maxAttempts: 2 });
  q.enqueue('a', 'body of a');
  q.enqueue('b', 'body of b');
  q.process('transient', 'db timeout');
  q.process('permanent', 'unexpected end of JSON');
  q.process('transient', 'db timeout');
  const [poison, exhausted] = q.quarantined();
  q.dispose();
  assert.equal(JSON.stringify(poison.systemRecord),
    '{"DeadLetterReason":"permanent","DeadLetterErrorDescription":"unexpected end of JSON","DeliveryCount":1,'
    + '"path":"orders/$deadletterqueue"}');
  assert.equal(JSON.stringify(exhausted.systemRecord),
    '{"DeadLetterReason":"MaxDeliveryCountExceeded","DeadLetterErrorDescription":"Message couldn\'t be consumed after '
    + 'maximum delivery attempts.","DeliveryCount":2,"path":"orders/$deadletterqueue"}');
  assert.equal(exhausted.systemReason, 'MaxDeliveryCountExceeded');
});

test('a backoff and a lock past 5 minutes are refused by name under service-bus', () => {
  assert.throws(() => lab.createQueue({ system: 'service-bus', maxAttempts: 3, backoff: { kind: 'fixed', baseMs: 500, capMs: 500 } }),
    /backoff\.kind must be "none" with system "service-bus" \(abandon redelivers at once: Service Bus has no retry delay\), got "fixed"/);
  assert.throws(() => lab.createQueue({ system: 'service-bus', maxAttempts: 3, leaseMs: 600_000 }),
    /leaseMs must be an integer from 1 to 300000 with system "service-bus" \(its lockDuration lasts at most 5 minutes\), got 600000/);
});

test('the Service Bus snippet is the service-bus mode\'s, and the import reads it back to the same policy', () => {
  assert.equal(snippetForMode('service-bus').key, 'servicebus');
  const q = lab.createQueue({ system: 'service-bus', maxAttempts: 7, leaseMs: 45_000 });
  const { text } = snippetByKey('servicebus').generate(q.policy(), q.rules());
  q.dispose();
  const back = lab.importConfig(text, {});
  assert.equal(back.ok, true, JSON.stringify(back));
  assert.equal(back.format, 'servicebus');
  assert.equal(back.system, 'service-bus');
  const set = Object.fromEntries(back.set.map((s) => [s.field, s.value]));
  assert.deepEqual([set.maxAttempts, set.leaseMs, set['backoff.kind']], [7, 45_000, 'none']);
});

test('the preset plays: a\'s 10 deliveries come back to back, then MaxDeliveryCountExceeded', () => {
  const preset = SYSTEM_PRESETS.find((p) => p.key === 'service-bus');
  const { system, maxAttempts, leaseMs } = preset.scenario;
  const q = lab.createQueue({ system, maxAttempts, leaseMs });
  q.enqueue('a', 'order a');
  for (let i = 0; i < 10; i++) assert.equal(q.process('transient', 'boom').delayMs ?? 0, 0);
  const [entry] = q.quarantined();
  q.dispose();
  assert.equal(entry.id, 'a');
  assert.equal(entry.systemRecord.DeliveryCount, 10);
  assert.equal(entry.systemRecord.DeadLetterReason, 'MaxDeliveryCountExceeded');
});

test('defaultMessageTtlMs with deadLetterOnExpiry: an expired message goes to the DLQ as TTLExpiredException', () => {
  const q = lab.createQueue({ system: 'service-bus', maxAttempts: 10, defaultMessageTtlMs: 1000, deadLetterOnExpiry: true });
  q.enqueue('a', 'body of a');
  q.process('transient', 'db timeout');  // abandoned: back at once, its clock from the enqueue kept
  q.advance(1000);
  const [entry] = q.quarantined();
  q.dispose();
  assert.equal(JSON.stringify(entry.systemRecord),
    '{"DeadLetterReason":"TTLExpiredException","DeadLetterErrorDescription":"The message expired and was dead lettered.",'
    + '"DeliveryCount":1,"path":"orders/$deadletterqueue"}');
  assert.equal(entry.systemReason, 'TTLExpiredException');
});

test('without deadLetterOnExpiry an expired message is dropped; both settings are refused elsewhere by name', () => {
  const q = lab.createQueue({ system: 'service-bus', maxAttempts: 10, defaultMessageTtlMs: 1000 });
  q.enqueue('a', 'body of a');
  q.advance(1500);
  assert.equal(q.quarantined().length, 0);
  assert.equal(q.stats().quarantined, 0);
  q.dispose();
  assert.throws(() => lab.createQueue({ system: 'rabbitmq-quorum', maxAttempts: 3, defaultMessageTtlMs: 1000 }),
    /defaultMessageTtlMs applies only with system "service-bus"/);
  assert.throws(() => lab.createQueue({ system: 'lab', maxAttempts: 3, deadLetterOnExpiry: true }),
    /deadLetterOnExpiry applies only with system "service-bus"/);
});

test('the snippet writes defaultMessageTimeToLive and deadLetteringOnMessageExpiration, and the import reads them back', () => {
  const q = lab.createQueue({ system: 'service-bus', maxAttempts: 5, leaseMs: 30_000, defaultMessageTtlMs: 90_500,
    deadLetterOnExpiry: true });
  const { text } = snippetByKey('servicebus').generate(q.policy(), q.rules());
  q.dispose();
  const props = JSON.parse(text).resources[0].properties;
  assert.equal(props.defaultMessageTimeToLive, 'PT90.5S');
  assert.equal(props.deadLetteringOnMessageExpiration, true);
  const back = lab.importConfig(text, {});
  assert.equal(back.ok, true, JSON.stringify(back));
  const set = Object.fromEntries(back.set.map((s) => [s.field, s.value]));
  assert.deepEqual([set.maxAttempts, set.leaseMs, set.defaultMessageTtlMs, set.deadLetterOnExpiry], [5, 30_000, 90_500, true]);
});

test('the service-bus-ttl preset plays: the backlog outlives its time to live, TTLExpiredException at 30 s', () => {
  const preset = SYSTEM_PRESETS.find((p) => p.key === 'service-bus-ttl');
  const played = lab.playWorld(preset.scenario);
  const q = lab.runScenario({ ...played, cursor: played.actions.length });
  const entries = q.quarantined();
  assert.deepEqual(entries.map((e) => [e.id, e.systemReason, e.arrivedAt]).sort(),
    [['a', 'TTLExpiredException', 30_000], ['d', 'TTLExpiredException', 30_000], ['e', 'TTLExpiredException', 30_000]]);
  assert.deepEqual(entries.map((e) => e.systemRecord.DeliveryCount).sort(), [0, 0, 1]);
  q.dispose();
});
