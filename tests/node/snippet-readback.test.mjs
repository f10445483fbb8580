// The playground's Config snippet read back (web/src/playground/snippet-readback.mjs):
// a snippet generated from a policy (web/src/shared/snippets.mjs), read back through the
// import's parser (import.mjs) and applied as the playground applies it, gives the same
// policy and so the same snippet; an edit inside the part read back changes exactly that
// setting; an edit anywhere else, or one the lab cannot express, is refused by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab } from './helpers.mjs';
import { SNIPPETS, connectSnippets, snippetByKey, snippetForMode } from '../../web/src/shared/snippets.mjs';
import { canReadBack, readBack } from '../../web/src/playground/snippet-readback.mjs';
import { connectImport, importConfig, policyChanges } from '../../web/src/playground/import.mjs';

connectImport(lab);  // the core reads the configs, as the page connects it
connectSnippets(lab);  // and writes the snippets it has ported

/** The core's policy in force for `options`, and `key`'s snippet of it. */
function generated(key, options) {
  const q = lab.createQueue(options);
  try {
    const policy = q.policy();
    return { policy, text: snippetByKey(key).generate(policy, q.rules()).text };
  } finally {
    q.dispose();
  }
}

/** Apply, as the playground does: read back, import, one change over the policy in force. */
function apply(key, edited, generatedText, policy) {
  const read = readBack(key, edited, generatedText);
  if (!read.ok) return read;
  const result = importConfig(read.config);
  if (!result.ok) return result;
  const { changes, set } = policyChanges(result, policy, read.keep, lab.schema.policy);
  const { journal, ...options } = { ...policy, ...changes };
  return { ok: true, read, set, options };
}

// One policy per readable system that its import can say whole, so Apply of the unedited
// snippet is the identity.
const ROUND_TRIP = {
  bullmq: { system: 'bullmq', maxAttempts: 4, backoff: { kind: 'fixed', baseMs: 500, capMs: 500, jitter: 'none' } },
  sidekiq: { system: 'sidekiq', maxAttempts: 6, backoff: { kind: 'exponential', baseMs: 2000, capMs: 60_000, jitter: 'none' } },
  rabbitmq: { system: 'rabbitmq-quorum', maxAttempts: 5 },
  sqs: { system: 'sqs', maxAttempts: 3, leaseMs: 5000, quarantine: { retentionMs: 86_400_000, alarmDepth: 2 } },
  servicebus: { system: 'service-bus', maxAttempts: 7, leaseMs: 45_000 },
  // Pub/Sub's retry policy and dead-letter topic (its reader sets ordering and the message retention too).
  pubsub: { system: 'pubsub', maxAttempts: 6, leaseMs: 20_000, backoff: { kind: 'exponential', baseMs: 10_000, capMs: 60_000, jitter: 'none' } },
  // Spring Kafka's blocking DefaultErrorHandler (ordering stall) with a FixedBackOff.
  kafka: { system: 'spring-kafka', maxAttempts: 4, ordering: 'stall', backoff: { kind: 'fixed', baseMs: 500, capMs: 500, jitter: 'none' } },
};
// Spring Kafka's other shape: @RetryableTopic retry topics with an exponential @BackOff.
const KAFKA_TOPICS = { system: 'spring-kafka', retryTopics: true, multiplierPermille: 1500, maxAttempts: 4,
  backoff: { kind: 'exponential', baseMs: 1000, capMs: 10_000, jitter: 'none' } };
// Pub/Sub with no dead-letter topic: only orders-sub is created.
const PUBSUB_NO_DLT = { system: 'pubsub', maxAttempts: 5, leaseMs: 10_000, deadLetterTopic: 'none', messageRetentionMs: 600_000,
  backoff: { kind: 'exponential', baseMs: 60_000, capMs: 60_000, jitter: 'none' } };

test('the seven systems the import reads are the ones read back, each its mode\'s snippet', () => {
  assert.deepEqual(SNIPPETS.filter((s) => canReadBack(s.key)).map((s) => s.key),
    ['sqs', 'rabbitmq', 'sidekiq', 'bullmq', 'kafka', 'pubsub', 'servicebus']);
  assert.equal(snippetForMode('pubsub').key, 'pubsub');
  assert.equal(snippetForMode('spring-kafka').key, 'kafka');
  for (const mode of ['bullmq', 'sidekiq', 'sqs']) assert.equal(snippetForMode(mode).key, mode);
  assert.equal(snippetForMode('service-bus').key, 'servicebus');
  assert.equal(snippetForMode('rabbitmq-quorum').key, 'rabbitmq');
  assert.equal(snippetForMode('lab'), undefined);
});

test('Apply of an unedited snippet gives the same policy back, and so the same snippet', () => {
  for (const [key, options] of [...Object.entries(ROUND_TRIP), ['kafka', KAFKA_TOPICS], ['pubsub', PUBSUB_NO_DLT]]) {
    const { policy, text } = generated(key, options);
    const r = apply(key, text, text, policy);
    assert.equal(r.ok, true, `${key}: ${JSON.stringify(r.refusals)}`);
    const again = generated(key, r.options);
    assert.deepEqual(again.policy, policy, key);
    assert.equal(again.text, text, key);
  }
});

test('an edit inside the part read back sets exactly that setting; the part kept is the playground\'s', () => {
  const edits = {
    bullmq: [/attempts: 4,/, 'attempts: 7,', { maxAttempts: 7 }],
    sidekiq: [/sidekiq_options retry: 5/, 'sidekiq_options retry: 9', { maxAttempts: 10 }],
    rabbitmq: [/"delivery-limit":4/, '"delivery-limit":20', { maxAttempts: 21 }],
    sqs: [/"VisibilityTimeout": 5,/, '"VisibilityTimeout": 45,', { leaseMs: 45_000 }],
    servicebus: [/"maxDeliveryCount": 7,/, '"maxDeliveryCount": 12,', { maxAttempts: 12 }],
    pubsub: [/(?<=^ {2})--max-delivery-attempts=6\b/m, '--max-delivery-attempts=9', { maxAttempts: 9 }],  // the flag, not its comment
    kafka: [/new FixedBackOff\(500L, 3L\)/, 'new FixedBackOff(500L, 7L)', { maxAttempts: 8 }],
  };
  for (const [key, [from, to, want]] of Object.entries(edits)) {
    const { policy, text } = generated(key, ROUND_TRIP[key]);
    assert.match(text, from, key);
    const r = apply(key, text.replace(from, to), text, policy);
    assert.equal(r.ok, true, `${key}: ${JSON.stringify(r.refusals)}`);
    const after = generated(key, r.options).policy;
    assert.deepEqual(after, { ...policy, ...want }, key);
  }
  // The lab's default classes (precondition's own budget) make BullMQ's backoff the worker's custom
  // strategy, which the parser does not read: the attempts apply, the playground's backoff stays.
  const lab3 = generated('bullmq', { maxAttempts: 3, backoff: { kind: 'fixed', baseMs: 250, capMs: 250, jitter: 'none' } });
  assert.match(lab3.text, /backoff: \{ type: 'custom' \}/);
  const custom = apply('bullmq', lab3.text.replace('attempts: 3,', 'attempts: 5,'), lab3.text, lab3.policy);
  assert.equal(custom.ok, true, JSON.stringify(custom.refusals));
  assert.deepEqual(custom.read.keep, ['backoff']);
  assert.deepEqual(generated('bullmq', custom.options).policy, { ...lab3.policy, system: 'bullmq', maxAttempts: 5 });

  // What the snippet carries where the parser does not read stays: Sidekiq's backoff, SQS's quarantine.
  assert.deepEqual(readBack('sidekiq', ...Array(2).fill(generated('sidekiq', ROUND_TRIP.sidekiq).text)).keep, ['backoff', 'retryInJitter', 'retryEveryError']);
  assert.deepEqual(readBack('sqs', ...Array(2).fill(generated('sqs', ROUND_TRIP.sqs).text)).keep, ['quarantine']);
});

test('an edit outside the part read back is refused by name (its line or its JSON path)', () => {
  const bull = generated('bullmq', ROUND_TRIP.bullmq);
  const edited = bull.text.replace('lockDuration: 30000', 'lockDuration: 5000');
  const line = edited.split('\n').findIndex((l) => l.includes('lockDuration: 5000')) + 1;
  const r = readBack('bullmq', edited, bull.text);
  assert.equal(r.ok, false);
  assert.deepEqual(r.refusals.map((x) => x.key), [`line ${line}`]);
  assert.match(r.refusals[0].message, /^line \d+ is outside jobOptions, the only part Apply reads back: expected " {2}lockDuration: 30000, .* \(as generated\), got " {2}lockDuration: 5000, /);

  // A line added inside jobOptions moves the lines after it: still only that part differs.
  const grown = bull.text.replace('const jobOptions = {\n', 'const jobOptions = {\n  // a note of mine\n');
  assert.equal(readBack('bullmq', grown, bull.text).ok, true);

  const sqs = generated('sqs', ROUND_TRIP.sqs);
  const template = JSON.parse(sqs.text);
  template.Resources.OrdersDLQ.Properties.MessageRetentionPeriod = 60;
  const s = readBack('sqs', JSON.stringify(template, null, 2), sqs.text);
  assert.deepEqual(s.refusals.map((x) => x.key), ['Resources.OrdersDLQ.Properties.MessageRetentionPeriod']);
  assert.match(s.refusals[0].message, /is outside Resources\.OrdersQueue\.Properties\.\{VisibilityTimeout, RedrivePolicy\}.*got 60$/);

  // Pub/Sub: the IAM bindings after the create commands are not read; an edit there is refused by its line.
  const ps = generated('pubsub', ROUND_TRIP.pubsub);
  assert.match(ps.text, /--role=roles\/pubsub\.publisher/);
  const iam = ps.text.replace('--role=roles/pubsub.publisher', '--role=roles/pubsub.editor');
  const iamLine = iam.split('\n').findIndex((l) => l.includes('roles/pubsub.editor')) + 1;
  const p = readBack('pubsub', iam, ps.text);
  assert.equal(p.ok, false);
  assert.deepEqual(p.refusals.map((x) => x.key), [`line ${iamLine}`]);
  assert.match(p.refusals[0].message, /is outside the gcloud pubsub subscriptions create commands, the only part Apply reads back/);
  // A flag added to orders-sub's command is inside the part: read back (and refused by the import if unknown).
  const flag = apply('pubsub', ps.text.replace('  --topic=orders \\\n', '  --topic=orders \\\n  --labels=team=a \\\n'), ps.text, ps.policy);
  assert.equal(flag.ok, false);
  assert.deepEqual(flag.refusals.map((x) => x.key), ['--labels']);

  // Spring Kafka: the leading comments (the policy and its notes) are not read; the Java code is.
  const k = generated('kafka', ROUND_TRIP.kafka);
  const header = k.text.replace(/^\/\/ dlq-lab policy/, '// my policy');
  const kr = readBack('kafka', header, k.text);
  assert.deepEqual(kr.refusals.map((x) => x.key), ['line 1']);
  assert.match(kr.refusals[0].message, /is outside the Java code, the only part Apply reads back/);
});

test('what the lab cannot express is refused by the import, by name; a broken part by the read-back', () => {
  const bull = generated('bullmq', ROUND_TRIP.bullmq);
  const lifo = apply('bullmq', bull.text.replace('attempts: 4,', 'attempts: 4, lifo: true,'), bull.text, bull.policy);
  assert.equal(lifo.ok, false);
  assert.deepEqual(lifo.refusals.map((x) => x.key), ['lifo']);
  assert.match(lifo.refusals[0].message, /^lifo is not modelled by the lab/);

  const broken = readBack('bullmq', bull.text.replace('attempts: 4,', 'attempts: 2 * 2,'), bull.text);
  assert.deepEqual(broken.refusals.map((x) => x.key), ['jobOptions']);
  assert.match(broken.refusals[0].message, /^jobOptions is not a plain object literal \(invalid character '\*' at 2:15\)/);

  const rabbit = generated('rabbitmq', ROUND_TRIP.rabbitmq);
  const none = apply('rabbitmq', rabbit.text.replace('"delivery-limit":4', '"delivery-limit":-2'), rabbit.text, rabbit.policy);
  assert.deepEqual(none.refusals.map((x) => x.key), ['delivery-limit']);

  const gone = readBack('sidekiq', generated('sidekiq', ROUND_TRIP.sidekiq).text.replace(/ *sidekiq_options retry: \d+\n/, ''), generated('sidekiq', ROUND_TRIP.sidekiq).text);
  assert.deepEqual(gone.refusals.map((x) => x.key), ['sidekiq_options']);
  assert.match(gone.refusals[0].message, /^sidekiq_options is missing: expected/);

  // Pub/Sub and Spring Kafka: the part gone is refused as missing; a value the import refuses, by its flag or call.
  const ps = generated('pubsub', ROUND_TRIP.pubsub);
  const noCreate = readBack('pubsub', ps.text.split('\n').filter((l) => !/subscriptions create|^ {2}--/.test(l)).join('\n'), ps.text);
  assert.deepEqual(noCreate.refusals.map((x) => x.key), ['the gcloud pubsub subscriptions create commands']);
  assert.match(noCreate.refusals[0].message, /is missing: expected/);
  const four = apply('pubsub', ps.text.replace(/(?<=^ {2})--max-delivery-attempts=6\b/m, '--max-delivery-attempts=4'), ps.text, ps.policy);
  assert.deepEqual(four.refusals.map((x) => x.key), ['--max-delivery-attempts']);
  const k = generated('kafka', ROUND_TRIP.kafka);
  const both = apply('kafka', `${k.text}@RetryableTopic(attempts = "3")\n`, k.text, k.policy);
  assert.equal(both.ok, false);
  assert.deepEqual(both.refusals.map((x) => x.key), ['config']);

  const notJson = readBack('sqs', '{ not json', generated('sqs', ROUND_TRIP.sqs).text);
  assert.deepEqual(notJson.refusals.map((x) => x.key), ['template']);
});

test('a system with no import is refused by name, as is text that is not text', () => {
  const temporal = readBack('temporal', 'x', 'y');
  assert.equal(temporal.ok, false);
  assert.equal(temporal.refusals[0].message, 'system has no import: expected one of bullmq, sidekiq, rabbitmq, sqs, servicebus, pubsub, kafka (the snippets the import reads), got "temporal"');
  assert.equal(readBack('bullmq', null, 'x').refusals[0].message, 'snippet: expected text, got null');
});

test('policyChanges merges groups over the policy in force and leaves the kept ones alone', () => {
  const current = lab.createQueue({ maxAttempts: 3, quarantine: { retentionMs: 5000, alarmDepth: 4 } }).policy();
  const result = importConfig('{"Attributes":{"RedrivePolicy":"{\\"maxReceiveCount\\":7}","VisibilityTimeout":"12"}}');
  const kept = policyChanges(result, current, ['quarantine']);
  assert.deepEqual(kept.changes, { system: 'sqs', maxAttempts: 7, leaseMs: 12_000, backoff: { ...current.backoff, kind: 'none', jitter: 'none' } });
  assert.ok(kept.set.every((s) => !s.field.startsWith('quarantine')));
  const all = policyChanges(result, current);
  assert.deepEqual(all.changes.quarantine, { retentionMs: 345_600_000, alarmDepth: 4 });
});

// Every system's own fields away from their defaults (as tests/node/import.test.mjs sets them).
const SYSTEM_STATES = {
  lab: { system: 'lab', maxAttempts: 3, delayAt: 'consumer-sleep' },
  bullmq: { system: 'bullmq', maxAttempts: 3, maxStalledCount: 2, removeOnFailCount: 5 },
  sidekiq: { system: 'sidekiq', maxAttempts: 6, retryInJitter: true, retryEveryError: true, deadMaxJobs: 7, skipDeadSet: true },
  'rabbitmq-quorum': { system: 'rabbitmq-quorum', maxAttempts: 5, deliveryLimit: 'unset-4.x', deadLetterExchange: 'none', dlqMaxLength: 3,
    maxLength: 4, messageTtlMs: 100 },
  sqs: { system: 'sqs', maxAttempts: 3, leaseMs: 5000 },
};

test('Apply of any readable snippet over any system\'s own settings: the core takes it, and what only the old system had is reset', () => {
  for (const [from, options] of Object.entries(SYSTEM_STATES)) {
    for (const key of ['bullmq', 'sidekiq', 'rabbitmq', 'sqs']) {
      const { policy, text } = generated(key, options);
      const r = apply(key, text, text, policy);
      assert.equal(r.ok, true, `${from} -> ${key}: ${JSON.stringify(r.refusals)}`);
      let after;
      assert.doesNotThrow(() => { after = generated(key, r.options).policy; }, `${from} -> ${key}`);
      for (const row of lab.schema.policy.filter((x) => x.onlyUnder !== undefined && x.onlyUnder !== after.system)) {
        assert.deepEqual(after[row.name], row.default, `${from} -> ${key}: ${row.name}`);
      }
    }
  }
});

test('a snippet nested deeply, or with a key given twice, is refused by name and nothing thrown; a long one by its length', () => {
  const sqs = generated('sqs', ROUND_TRIP.sqs);
  const deep = sqs.text.replace('"VisibilityTimeout": 5,', `"VisibilityTimeout": ${'['.repeat(6000)}${']'.repeat(6000)},`);
  let r;
  assert.doesNotThrow(() => { r = readBack('sqs', deep, sqs.text); });
  assert.equal(r.ok, false);
  assert.equal(r.refusals[0].message, 'template is nested too deeply: expected at most 16 levels of nested objects and arrays, got more than 16');
  const twice = readBack('sqs', sqs.text.replace('"VisibilityTimeout": 5,', '"VisibilityTimeout": 5, "VisibilityTimeout": 50,'), sqs.text);
  assert.deepEqual(twice.refusals.map((x) => x.key), ['Resources.OrdersQueue.Properties.VisibilityTimeout']);
  assert.match(twice.refusals[0].message, /is a duplicate key: expected each key once, got "VisibilityTimeout" a second time$/);

  const bull = generated('bullmq', ROUND_TRIP.bullmq);
  const dup = readBack('bullmq', bull.text.replace('attempts: 4,', 'attempts: 4, attempts: 50,'), bull.text);
  assert.deepEqual(dup.refusals.map((x) => x.key), ['jobOptions']);
  assert.match(dup.refusals[0].message, /^jobOptions has attempts, which is a duplicate key: expected .*, got "attempts" a second time$/);
  const deepBull = readBack('bullmq', bull.text.replace('attempts: 4,', `attempts: 4, x: ${'['.repeat(5000)}${']'.repeat(5000)},`), bull.text);
  assert.match(deepBull.refusals[0].message, /^jobOptions is nested too deeply/);

  const side = generated('sidekiq', ROUND_TRIP.sidekiq);
  const again = apply('sidekiq', side.text.replace(/sidekiq_options retry: 5/, 'sidekiq_options retry: 5, retry: 50'), side.text, side.policy);
  assert.deepEqual(again.refusals.map((x) => x.key), ['retry']);

  const long = readBack('rabbitmq', `rabbitmqctl set_policy ${' '.repeat(70_000)}`, generated('rabbitmq', ROUND_TRIP.rabbitmq).text);
  assert.equal(long.refusals[0].message, 'snippet is too long: expected at most 65,536 characters, got 70,023');
  // Inside the limit, a long line that almost matches the policy line is read in linear time.
  const rabbit = generated('rabbitmq', ROUND_TRIP.rabbitmq);
  const start = performance.now();
  readBack('rabbitmq', `${rabbit.text}rabbitmqctl set_policy${' set_policy'.repeat(5000)}\n`, rabbit.text);
  assert.ok(performance.now() - start < 400, `${(performance.now() - start).toFixed(1)} ms`);
});
