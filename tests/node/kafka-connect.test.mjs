// The kafka-connect mode through WebAssembly (core/systems/kafka_connect.cpp; docs/real-systems.md):
// the DLQ record with its __connect.errors.* headers, the stopped task, the refusals by name, the
// connector JSON read back by the import, and the playground's presets. No Kafka Connect here:
// each rule is tested against apache/kafka's source (tests/native/kafka_connect_test.cpp quotes it).
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadLab } from '../../wasm/index.mjs';
import { SYSTEM_PRESETS } from '../../web/src/playground/presets.mjs';
import { policyInForce } from '../../web/src/shared/snippets.mjs';

const lab = await loadLab();
const CONNECT_BACKOFF = { kind: 'exponential', baseMs: 300, capMs: 60_000, jitter: 'none' };

test('a dead letter carries the __connect.errors.* headers when context headers are on', () => {
  const q = lab.createQueue({ maxAttempts: 3, system: 'kafka-connect', toleranceAll: true, dlqTopic: true, contextHeaders: true,
    backoff: CONNECT_BACKOFF });
  q.enqueue('a', 'body of a');
  q.process('undeserializable', 'Unknown magic byte!');
  const [entry] = q.quarantined();
  q.dispose();
  assert.equal(JSON.stringify(entry.systemRecord),
    '{"__connect.errors.topic":"orders","__connect.errors.partition":0,"__connect.errors.stage":"VALUE_CONVERTER",'
    + '"__connect.errors.exception.message":"Unknown magic byte!"}');
});

test('errors.tolerance none (the default) stops the task: nothing is quarantined and b waits', () => {
  const q = lab.createQueue({ maxAttempts: 3, system: 'kafka-connect', backoff: CONNECT_BACKOFF });
  q.enqueue('a', 'order a');
  q.enqueue('b', 'order b');
  q.process('permanent', 'no such column');
  assert.equal(q.quarantined().length, 0);
  assert.equal(q.process('success'), null);  // b waits behind the stopped task's record
  q.dispose();
});

test('a lab jitter and another system\'s use of its settings are refused by name', () => {
  assert.throws(() => lab.createQueue({ maxAttempts: 3, system: 'kafka-connect', backoff: { ...CONNECT_BACKOFF, jitter: 'full' } }),
    /backoff\.jitter must be "none" with system "kafka-connect"/);
  assert.throws(() => lab.createQueue({ maxAttempts: 3, toleranceAll: true }), /toleranceAll applies only with system "kafka-connect"/);
});

test('the connector JSON is the kafka-connect mode\'s snippet, and the import reads it back to the same policy', () => {
  const q = lab.createQueue({ maxAttempts: 3, system: 'kafka-connect', toleranceAll: true, dlqTopic: true, retryTimeoutMs: 600_000,
    backoff: { ...CONNECT_BACKOFF, capMs: 30_000 } });
  const { text } = lab.writeSnippet('kafka-connect', policyInForce(q.policy(), q.rules()));
  q.dispose();
  const back = lab.importConfig(text, {});
  assert.equal(back.ok, true, JSON.stringify(back));
  assert.equal(back.format, 'kafka-connect');
  assert.equal(back.system, 'kafka-connect');
  const set = Object.fromEntries(back.set.map((s) => [s.field, s.value]));
  assert.deepEqual([set.toleranceAll, set.dlqTopic, set.contextHeaders, set.retryTimeoutMs, set['backoff.capMs']],
    [true, true, false, 600_000, 30_000]);
  const props = lab.importConfig('errors.tolerance=all\nerrors.retry.timeout=-1\n', {});
  assert.equal(props.ok, true, JSON.stringify(props));
  assert.equal(Object.fromEntries(props.set.map((s) => [s.field, s.value])).retryTimeoutMs, 9007199254740991);
});

test('the presets play: retried for a minute then the DLQ topic; with no DLQ topic a is skipped', () => {
  const { scenario } = SYSTEM_PRESETS.find((p) => p.key === 'kafka-connect');
  const { system, toleranceAll, dlqTopic, contextHeaders, retryTimeoutMs, backoff } = scenario;
  const q = lab.createQueue({ maxAttempts: 3, system, toleranceAll, dlqTopic, contextHeaders, retryTimeoutMs, backoff });
  q.enqueue('a', 'order a');
  const delays = [];
  for (;;) {
    const r = q.process('transient', 'connection refused');
    if (r.disposition !== 'delayed') break;
    delays.push(r.delayMs);
    q.advance(r.delayMs);
  }
  assert.deepEqual(delays, [300, 600, 1200, 2400, 4800, 9600, 19_200, 38_400]);
  assert.equal(q.quarantined()[0].id, 'a');
  q.dispose();
  const none = SYSTEM_PRESETS.find((p) => p.key === 'kafka-connect-no-dlq').scenario;
  const s = lab.createQueue({ maxAttempts: 3, system: none.system, toleranceAll: none.toleranceAll, backoff: none.backoff });
  s.enqueue('a', 'order a');
  s.process('transient', 'connection refused');
  assert.equal(s.quarantined().length, 0);
  s.dispose();
});
