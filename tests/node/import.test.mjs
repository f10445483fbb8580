// Import a broker's config (web/src/playground/import.mjs): each of the four formats
// translates to its system mode and the policy fields it determines, listing each
// field with the setting it came from; what the lab cannot express is refused by
// name (key, expected, given) with nothing to apply; malformed input is refused
// the same way. Every accepted translation is then applied by the core itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab } from './helpers.mjs';
import { connectImport, importConfig, policyChanges, MAX_IMPORT_CHARS, MAX_SIDEKIQ_CHARS } from '../../web/src/playground/import.mjs';
import { quoted } from '../../web/src/shared/quote.mjs';

/** The translation, which must be accepted. */
function accepted(text) {
  const r = importConfig(text);
  assert.equal(r.ok, true, `expected an import, got ${JSON.stringify(r.refusals)}`);
  return r;
}

/** The refusals, which must be there; each names its key, what was expected and what was given. */
function refusedWith(text, ...keys) {
  const r = importConfig(text);
  assert.equal(r.ok, false, `expected a refusal, got ${JSON.stringify(r)}`);
  assert.equal('policy' in r, false, 'a refusal carries nothing to apply');
  assert.deepEqual(r.refusals.map((x) => x.key), keys);
  for (const x of r.refusals) {
    assert.ok(x.message.startsWith(x.key), x.message);
    assert.ok(x.message.includes(`expected ${x.expected}`) && x.message.endsWith(`got ${x.given}`), x.message);
  }
  return r.refusals;
}

connectImport(lab);  // the core reads the configs, as the page connects it

const fields = (r) => Object.fromEntries(r.set.map((s) => [s.field, s.value]));

/** Applies the translation as the playground does (over the lab's defaults): the core takes it. */
function applied(r) {
  const base = lab.createQueue({ maxAttempts: 3 }).policy();
  const options = { ...r.policy, system: r.system };
  for (const group of ['backoff', 'quarantine']) if (group in options) options[group] = { ...base[group], ...options[group] };
  return lab.createQueue(options).policy();
}

// ---- BullMQ ---------------------------------------------------------------------

test('BullMQ: attempts are the total runs, exponential backoff without a cap, removeOnFail false kept', () => {
  const r = accepted('{"attempts":3,"backoff":{"type":"exponential","delay":1000},"removeOnFail":false}');
  assert.equal(r.format, 'bullmq');
  assert.equal(r.system, 'bullmq');
  assert.deepEqual(fields(r), { maxAttempts: 3, 'backoff.kind': 'exponential', 'backoff.baseMs': 1000,
    'backoff.capMs': 86_400_000, 'backoff.jitter': 'none', 'quarantine.retentionMs': 0 });
  assert.deepEqual(r.ignored.map((i) => i.key), ['removeOnFail']);
  assert.ok(r.set.every((s) => typeof s.from === 'string' && s.from.length > 0), 'every field says where it came from');
  const p = applied(r);
  assert.equal(p.system, 'bullmq');
  assert.deepEqual(p.backoff, { kind: 'exponential', baseMs: 1000, capMs: 86_400_000, jitter: 'none' });
});

test('BullMQ: a number is a fixed delay; no backoff or a delay of 0 retries at once; absent attempts is 1', () => {
  assert.deepEqual(fields(accepted('{"attempts":4,"backoff":250}')),
    { maxAttempts: 4, 'backoff.kind': 'fixed', 'backoff.baseMs': 250, 'backoff.capMs': 250, 'backoff.jitter': 'none', 'quarantine.retentionMs': 0 });
  assert.deepEqual(fields(accepted('{"attempts":2}')), { maxAttempts: 2, 'backoff.kind': 'none', 'backoff.jitter': 'none', 'quarantine.retentionMs': 0 });
  assert.deepEqual(fields(accepted('{"backoff":{"type":"fixed","delay":0}}')), { maxAttempts: 1, 'backoff.kind': 'none', 'backoff.jitter': 'none', 'quarantine.retentionMs': 0 });
  assert.deepEqual(fields(accepted('{"attempts":2,"backoff":{"type":"fixed","delay":500,"jitter":0}}'))['backoff.kind'], 'fixed');
  assert.equal(applied(accepted('{"attempts":4,"backoff":250}')).backoff.kind, 'fixed');
});

test('BullMQ: backoff.jitter j is the lab\'s jitter "bullmq" ([v(1−j), v)) in thousandths, applied by the core', () => {
  const r = accepted('{"attempts":3,"backoff":{"type":"exponential","delay":200,"jitter":0.125}}');
  assert.equal(fields(r)['backoff.jitter'], 'bullmq');
  assert.equal(fields(r)['backoff.jitterPermille'], 125);
  const p = applied(r);
  assert.deepEqual(p.backoff, { kind: 'exponential', baseMs: 200, capMs: 86_400_000, jitter: 'bullmq', jitterPermille: 125 });
  assert.equal(fields(accepted('{"attempts":3,"backoff":{"type":"fixed","delay":200,"jitter":1}}'))['backoff.jitterPermille'], 1000);
  // A delay of 0 has nothing to jitter: no backoff, as without the jitter.
  assert.equal(fields(accepted('{"attempts":3,"backoff":{"type":"fixed","delay":0,"jitter":0.5}}'))['backoff.jitter'], 'none');
});

test('BullMQ: removeOnFail N (or { count }) is removeOnFailCount, each failure keeping the newest N, applied by the core', () => {
  const r = accepted('{"attempts":1,"removeOnFail":5}');
  assert.equal(fields(r).removeOnFailCount, 5);
  assert.equal(applied(r).removeOnFailCount, 5);
  const both = fields(accepted('{"attempts":1,"removeOnFail":{"age":60,"count":3}}'));
  assert.equal(both.removeOnFailCount, 3);
  assert.equal(both['quarantine.retentionMs'], 60_000);
});

test('BullMQ: a removeOnFail age is the lazy retention, maxStalledCount the stall budget (the bullmq mode\'s own)', () => {
  const r = accepted('{"attempts":3,"removeOnFail":{"age":3600},"maxStalledCount":2}');
  assert.equal(r.system, 'bullmq');
  assert.equal(fields(r)['quarantine.retentionMs'], 3_600_000);
  assert.equal(fields(r).maxStalledCount, 2);
  const policy = applied(r);
  assert.equal(policy.quarantine.retentionMs, 3_600_000);
  assert.equal(policy.maxStalledCount, 2);
  assert.equal(fields(accepted('{"attempts":3,"maxStalledCount":0}')).maxStalledCount, 0);
});

test('BullMQ: removeOnFail true is the bullmq mode\'s removeOnFail (a failed job is dropped), Sidekiq\'s retry false and dead false its skipDeadSet', () => {
  const r = accepted('{"attempts":3,"removeOnFail":true}');
  assert.equal(fields(r).removeOnFail, true);
  assert.equal(applied(r).removeOnFail, true);
  const off = accepted('sidekiq_options retry: false');
  assert.equal(fields(off).maxAttempts, 1);
  assert.equal(fields(off).skipDeadSet, true);
  assert.equal(applied(off).skipDeadSet, true);
  const dead = accepted('sidekiq_options retry: 3, dead: false');
  assert.equal(fields(dead).maxAttempts, 4);
  assert.equal(applied(dead).skipDeadSet, true);
});

test('BullMQ refusals: removeOnFail, jitter, a custom strategy, stalls, other options, bad values', () => {
  const [remove] = refusedWith('{"attempts":3,"removeOnFail":"yes"}', 'removeOnFail');
  assert.match(remove.message, /^removeOnFail: expected true, false, a whole number from 1/);
  refusedWith('{"attempts":3,"removeOnFail":{"age":0}}', 'removeOnFail');
  refusedWith('{"attempts":3,"removeOnFail":0}', 'removeOnFail');
  refusedWith('{"attempts":3,"removeOnFail":{"count":2,"size":1}}', 'removeOnFail');
  const [jitter] = refusedWith('{"attempts":3,"backoff":{"type":"exponential","delay":1000,"jitter":0.0005}}', 'backoff.jitter');
  assert.equal(jitter.message, 'backoff.jitter: expected a number from 0 to 1 in thousandths (0.5, 0.125), got 0.0005');
  refusedWith('{"attempts":3,"backoff":{"type":"exponential","delay":1000,"jitter":"0.5"}}', 'backoff.jitter');
  assert.match(refusedWith('{"backoff":{"type":"custom"}}', 'backoff.type')[0].message, /custom backoffStrategy/);
  assert.match(refusedWith('{"attempts":3,"maxStalledCount":-1}', 'maxStalledCount')[0].message, /^maxStalledCount: expected a whole number from 0, got -1/);
  assert.match(refusedWith('{"attempts":3,"stalledInterval":30000}', 'stalledInterval')[0].message, /a Worker option, not a job option/);
  refusedWith('{"attempts":3,"priority":1,"lifo":true,"removeOnComplete":true,"delay":500}', 'priority', 'lifo', 'removeOnComplete', 'delay');
  refusedWith('{"attempts":0}', 'attempts');
  refusedWith('{"attempts":2.5}', 'attempts');
  refusedWith('{"attempts":"3"}', 'attempts');
  refusedWith('{"attempts":3,"backoff":{"type":"fixed","delay":-1}}', 'backoff.delay');
  refusedWith('{"attempts":3,"backoff":{"type":"fixed","delay":10,"factor":2}}', 'backoff.factor');
  refusedWith('{"attempts":3,"backoff":"fast"}', 'backoff');
  refusedWith('{"attempts":3,"backoff":{"type":"fixed","delay":10,"jitter":2}}', 'backoff.jitter');
  // Every refusal is reported at once, not only the first.
  refusedWith('{"attempts":3,"removeOnFail":-1,"backoff":{"type":"exponential","delay":1,"jitter":2}}', 'removeOnFail', 'backoff.jitter');
});

// ---- SQS ------------------------------------------------------------------------

const SQS_CLI = JSON.stringify({ Attributes: {
  QueueArn: 'arn:aws:sqs:us-east-1:123456789012:orders',
  ApproximateNumberOfMessages: '0',
  ApproximateNumberOfMessagesNotVisible: '0',
  ApproximateNumberOfMessagesDelayed: '0',
  CreatedTimestamp: '1700000000',
  LastModifiedTimestamp: '1700000000',
  VisibilityTimeout: '45',
  MaximumMessageSize: '262144',
  MessageRetentionPeriod: '1209600',
  DelaySeconds: '0',
  ReceiveMessageWaitTimeSeconds: '0',
  SqsManagedSseEnabled: 'true',
  RedrivePolicy: '{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:123456789012:orders-dlq","maxReceiveCount":5}',
} }, null, 4);

test('SQS: get-queue-attributes output: maxReceiveCount, the visibility timeout as the lease, retention as the DLQ\'s', () => {
  const r = accepted(SQS_CLI);
  assert.equal(r.format, 'sqs');
  assert.equal(r.system, 'sqs');
  assert.deepEqual(fields(r), { maxAttempts: 5, leaseMs: 45_000, 'backoff.kind': 'none', 'backoff.jitter': 'none',
    'quarantine.retentionMs': 1_209_600_000 });
  assert.match(r.set.find((s) => s.field === 'quarantine.retentionMs').from, /read as the dead-letter queue's/);
  // Read-only counters and settings without bearing are listed, not refused; they change nothing.
  assert.deepEqual(r.ignored.map((i) => i.key).sort(), ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesDelayed',
    'ApproximateNumberOfMessagesNotVisible', 'CreatedTimestamp', 'DelaySeconds', 'LastModifiedTimestamp', 'MaximumMessageSize',
    'QueueArn', 'ReceiveMessageWaitTimeSeconds', 'RedrivePolicy.deadLetterTargetArn', 'SqsManagedSseEnabled']);
  const p = applied(r);
  assert.equal(p.system, 'sqs');
  assert.equal(p.leaseMs, 45_000);
  assert.equal(p.quarantine.retentionMs, 1_209_600_000);
});

test('SQS: bare attributes, numbers or an object RedrivePolicy; absent timeouts take SQS\'s defaults', () => {
  const r = accepted('{"RedrivePolicy":{"deadLetterTargetArn":"arn:dlq","maxReceiveCount":"3"}}');
  assert.deepEqual(fields(r), { maxAttempts: 3, leaseMs: 30_000, 'backoff.kind': 'none', 'backoff.jitter': 'none',
    'quarantine.retentionMs': 345_600_000 });
  assert.equal(fields(accepted('{"VisibilityTimeout":5,"MessageRetentionPeriod":60,"RedrivePolicy":"{\\"maxReceiveCount\\":1}"}')).leaseMs, 5000);
});

test('SQS refusals: no RedrivePolicy, FIFO, a delivery delay, out of SQS\'s ranges, unknown attributes', () => {
  assert.match(refusedWith('{"VisibilityTimeout":"30"}', 'RedrivePolicy')[0].message, /without it SQS has no dead-letter queue/);
  const redrive = '"RedrivePolicy":"{\\"maxReceiveCount\\":5}"';
  refusedWith(`{${redrive},"FifoQueue":"true","ContentBasedDeduplication":"true"}`, 'FifoQueue', 'ContentBasedDeduplication');
  refusedWith(`{${redrive},"DelaySeconds":"10"}`, 'DelaySeconds');
  refusedWith(`{${redrive},"VisibilityTimeout":"43201"}`, 'VisibilityTimeout');
  refusedWith(`{${redrive},"MessageRetentionPeriod":"59"}`, 'MessageRetentionPeriod');
  refusedWith(`{${redrive},"VisibilityTimeout":"1.5"}`, 'VisibilityTimeout');
  refusedWith('{"RedrivePolicy":"{\\"maxReceiveCount\\":1001}"}', 'RedrivePolicy.maxReceiveCount');
  refusedWith('{"RedrivePolicy":"{\\"maxReceiveCount\\":0}"}', 'RedrivePolicy.maxReceiveCount');
  refusedWith('{"RedrivePolicy":"not json"}', 'RedrivePolicy');
  refusedWith('{"RedrivePolicy":{"maxReceiveCount":2,"deadLetterQueueSourceArn":"x"}}', 'RedrivePolicy.deadLetterQueueSourceArn');
  refusedWith(`{${redrive},"VisibilityTimout":"30"}`, 'VisibilityTimout');
  // VisibilityTimeout 0 is SQS's; the lab's lease is at least 1 ms: the core refuses it when applied.
  const zero = accepted(`{${redrive},"VisibilityTimeout":"0"}`);
  assert.throws(() => applied(zero), (e) => e.code === 'out-of-range' && /leaseMs/.test(e.message));
});

// ---- Sidekiq --------------------------------------------------------------------

test('Sidekiq: retry N is N + 1 runs, retry true (or none) 26; Sidekiq\'s own delay; names are ignored', () => {
  const r = accepted('sidekiq_options retry: 5, queue: "default"');
  assert.equal(r.format, 'sidekiq');
  assert.equal(r.system, 'sidekiq');
  assert.deepEqual(fields(r), { maxAttempts: 6, 'backoff.kind': 'none', 'backoff.jitter': 'none', retryInJitter: true });
  assert.deepEqual(r.ignored.map((i) => i.key), ['queue']);
  assert.equal(fields(accepted('sidekiq_options retry: true')).maxAttempts, 26);
  assert.equal(fields(accepted('sidekiq_options queue: :critical, backtrace: true')).maxAttempts, 26);
  assert.equal(fields(accepted('sidekiq_options retry: 0')).maxAttempts, 1);
  assert.equal(fields(accepted('  sidekiq_options(:retry => 3, "queue" => \'low\', dead: true)  # payments')).maxAttempts, 4);
  assert.equal(applied(r).system, 'sidekiq');
});

test('Sidekiq 7.1.3 retry_for: a window in ms, read in seconds or as a duration; retry beside it is not read (8.1.0)', () => {
  assert.equal(fields(accepted('sidekiq_options retry_for: 48.hours')).retryForMs, 172_800_000);
  assert.equal(fields(accepted('sidekiq_options retry_for: 3600')).retryForMs, 3_600_000);
  const window = accepted('sidekiq_options retry_for: 30.minutes, dead: false');
  assert.equal(lab.createQueue({ maxAttempts: 3, ...window.policy, system: window.system }).policy().retryForMs, 1_800_000);
  const both = accepted('sidekiq_options retry: 3, retry_for: 2.days');
  assert.equal(fields(both).retryForMs, 172_800_000);
  assert.equal(fields(both).maxAttempts, undefined);
  assert.match(JSON.stringify(both.ignored), /Sidekiq 8\.1\.0 makes them exclusive/);
});

test('Sidekiq refusals: retry false, dead false, retry_for, unknown keys, malformed lines', () => {
  assert.match(refusedWith('sidekiq_options retry: -1', 'retry')[0].message, /^retry: expected true, false or a whole number from 0, got -1/);
  refusedWith('sidekiq_options retry: 3, dead: 1', 'dead');
  // retry_for is read (Sidekiq 7.1.3's window, retryForMs): only a value that is no duration is refused.
  assert.match(refusedWith("sidekiq_options retry_for: 'low'", 'retry_for')[0].message,
    /^retry_for: expected seconds or a duration \(48\.hours, 30\.minutes, 2\.days\)/);
  refusedWith('sidekiq_options retry: 3, lock: :until_executed', 'lock');
  refusedWith('sidekiq_options retry: -1', 'retry');
  refusedWith('sidekiq_options retry: nil', 'retry');
  refusedWith('sidekiq_options retry 5', 'sidekiq_options');
  refusedWith('sidekiq_options', 'sidekiq_options');
  refusedWith('sidekiq_options retry: 5,\nqueue: "a"', 'sidekiq_options');
});

// ---- RabbitMQ -------------------------------------------------------------------

test('RabbitMQ: delivery-limit L is L + 1 deliveries, a quorum queue, the DLX as the quarantine', () => {
  const r = accepted('{"delivery-limit":20,"dead-letter-exchange":"dlx","dead-letter-strategy":"at-least-once","overflow":"reject-publish"}');
  assert.equal(r.format, 'rabbitmq');
  assert.equal(r.system, 'rabbitmq-quorum');
  assert.deepEqual(fields(r), { maxAttempts: 21, deliveryLimit: 'explicit', deadLetterExchange: 'set', 'backoff.kind': 'none', 'backoff.jitter': 'none' });
  assert.deepEqual(r.ignored.map((i) => i.key), ['dead-letter-strategy', 'overflow']);
  assert.equal(applied(r).system, 'rabbitmq-quorum');
  // A whole policy as list_policies prints it.
  const whole = accepted('{"vhost":"/","name":"orders-dlx","pattern":"^orders$","apply-to":"queues","priority":0,' +
    '"definition":{"delivery-limit":2,"dead-letter-exchange":"orders.dlx","dead-letter-routing-key":"orders"}}');
  assert.equal(fields(whole).maxAttempts, 3);
  assert.equal(fields(accepted('{"delivery-limit":0,"dead-letter-exchange":"dlx"}')).maxAttempts, 1);
});

test('RabbitMQ: no delivery-limit (absent or -1) is 3.x\'s no limit, deliveryLimit unset-3.x, said with 4.0\'s default', () => {
  const absent = accepted('{"dead-letter-exchange":"dlx"}');
  assert.equal(fields(absent).deliveryLimit, 'unset-3.x');
  assert.match(absent.set.find((s) => s.field === 'deliveryLimit').from, /3\.x sets no limit \(4\.0 and later default to 20/);
  assert.equal(applied({ ...absent, policy: { maxAttempts: 3, ...absent.policy } }).deliveryLimit, 'unset-3.x');
  assert.equal(fields(accepted('{"delivery-limit":-1,"dead-letter-exchange":"dlx"}')).deliveryLimit, 'unset-3.x');
});

test('RabbitMQ: no dead-letter-exchange is deadLetterExchange none (a dead letter is dropped), said why', () => {
  const r = accepted('{"delivery-limit":5}');
  assert.equal(fields(r).deadLetterExchange, 'none');
  assert.match(r.set.find((s) => s.field === 'deadLetterExchange').from, /RabbitMQ drops the message/);
  const q = applied({ ...r, policy: { ...r.policy } });
  assert.equal(q.deadLetterExchange, 'none');
});

test('RabbitMQ refusals: a bad limit, an empty DLX, a TTL, length limits, classic mirroring, unknown keys', () => {
  refusedWith('{"delivery-limit":-2,"dead-letter-exchange":"dlx"}', 'delivery-limit');
  refusedWith('{"delivery-limit":2.5,"dead-letter-exchange":"dlx"}', 'delivery-limit');
  refusedWith('{"delivery-limit":5,"dead-letter-exchange":"dlx","expires":60000,"max-length-bytes":10,"ha-mode":"all"}', 'expires', 'max-length-bytes', 'ha-mode');
  refusedWith('{"delivery-limit":5,"dead-letter-exchange":"dlx","dead-letter-strategy":"sometimes"}', 'dead-letter-strategy');
  refusedWith('{"delivery-limit":5,"dead-letter-exchange":""}', 'dead-letter-exchange');
  refusedWith('{"name":"p","apply-to":"exchanges","definition":{"delivery-limit":5,"dead-letter-exchange":"dlx"}}', 'apply-to');
  refusedWith('{"name":"p","definition":[1]}', 'definition');
});

test('RabbitMQ: max-length with overflow drop-head (or none, the default) is maxLength; other overflows and 0 are refused', () => {
  const r = accepted('{"delivery-limit":5,"dead-letter-exchange":"dlx","max-length":1,"overflow":"drop-head"}');
  assert.equal(fields(r).maxLength, 1);
  assert.match(r.set.find((s) => s.field === 'maxLength').from, /^max-length 1 with overflow "drop-head": a publish past it dead-letters the oldest/);
  assert.equal(applied(r).maxLength, 1);
  const absent = accepted('{"delivery-limit":5,"dead-letter-exchange":"dlx","max-length":3}');
  assert.equal(fields(absent).maxLength, 3);
  assert.match(absent.set.find((s) => s.field === 'maxLength').from, /"drop-head" \(the default\)/);
  assert.equal(fields(accepted('{"delivery-limit":5,"dead-letter-exchange":"dlx"}')).maxLength, undefined);
  for (const overflow of ['reject-publish', 'reject-publish-dlx']) {
    const [x] = refusedWith(`{"delivery-limit":5,"dead-letter-exchange":"dlx","max-length":1,"overflow":"${overflow}"}`, 'overflow');
    assert.equal(x.expected, '"drop-head" (or it absent)');
  }
  refusedWith('{"delivery-limit":5,"dead-letter-exchange":"dlx","max-length":0}', 'max-length');
  refusedWith('{"delivery-limit":5,"dead-letter-exchange":"dlx","max-length":"10"}', 'max-length');
  // Without a length limit an overflow changes nothing (the lab's own snippet writes reject-publish then).
  assert.deepEqual(accepted('{"delivery-limit":5,"dead-letter-exchange":"dlx","overflow":"reject-publish"}').ignored.map((i) => i.key), ['overflow']);
});

test('RabbitMQ: message-ttl is messageTtlMs (a message expires at the head); 0 and non-numbers are refused', () => {
  const r = accepted('{"delivery-limit":5,"dead-letter-exchange":"dlx","message-ttl":100}');
  assert.equal(fields(r).messageTtlMs, 100);
  assert.match(r.set.find((s) => s.field === 'messageTtlMs').from, /^message-ttl 100: a message at the head that long after its publish is dead-lettered/);
  assert.equal(applied(r).messageTtlMs, 100);
  refusedWith('{"delivery-limit":5,"dead-letter-exchange":"dlx","message-ttl":0}', 'message-ttl');
  refusedWith('{"delivery-limit":5,"dead-letter-exchange":"dlx","message-ttl":"100"}', 'message-ttl');
});

// ---- what it is -------------------------------------------------------------

test('malformed input is refused by name: empty, not JSON, not an object, no broker\'s keys, two brokers\' keys, too long', () => {
  for (const text of ['', '   \n', '{oops', '[1,2]', '42', '{}', '{"foo":1}', '{"attempts":2,"delivery-limit":3}', 'retry: 5']) {
    const [r] = refusedWith(text, 'config');
    assert.match(r.expected, /BullMQ .* SQS .* sidekiq_options .* RabbitMQ/);
  }
  assert.match(refusedWith('{oops', 'config')[0].message, /is not JSON nor a sidekiq_options line/);
  assert.match(refusedWith('{"attempts":2,"delivery-limit":3}', 'config')[0].given, /BullMQ job options and RabbitMQ policy definition together/);
  refusedWith(' '.repeat(MAX_IMPORT_CHARS + 1), 'config');
  assert.equal(importConfig(null).ok, false);
});

test('every accepted import is a policy the core takes, under that system, and sets exactly what it lists', () => {
  for (const text of ['{"attempts":3,"backoff":{"type":"exponential","delay":1000}}', SQS_CLI,
    'sidekiq_options retry: 5, queue: "default"', '{"delivery-limit":20,"dead-letter-exchange":"dlx"}']) {
    const r = accepted(text);
    const p = applied(r);
    assert.equal(p.system, r.system);
    for (const { field, value } of r.set) {
      assert.deepEqual(field.split('.').reduce((o, k) => o[k], p), value, `${r.format}: ${field}`);
    }
    // The policy carries exactly the fields listed.
    const listed = new Set(r.set.map((s) => s.field));
    const carried = Object.entries(r.policy).flatMap(([k, v]) => (typeof v === 'object' ? Object.keys(v).map((l) => `${k}.${l}`) : [k]));
    assert.deepEqual(new Set(carried), listed, r.format);
  }
});

// ---- configs as people have them (the probes) ------------------------------

test('BullMQ options as code has them: unquoted keys, single quotes, trailing commas, comments', () => {
  const json = fields(accepted('{"attempts":3,"backoff":{"type":"exponential","delay":1000}}'));
  assert.deepEqual(fields(accepted("{ attempts: 3, backoff: { type: 'exponential', delay: 1000, }, }")), json);
  refusedWith("{ attempts: 3, backoff: { type: 'exponential', delay: 500 * 2 } }", 'config');
  assert.deepEqual(fields(accepted("{\n  // three runs\n  attempts: 3,\n  /* then */ backoff: { type: 'exponential', delay: 1000 },\n}")), json);
});

test('keys with no bearing on retries are read and listed as changing nothing: RabbitMQ queue-mode lazy, BullMQ jobId', () => {
  const r = accepted('{"delivery-limit":20,"dead-letter-exchange":"dlx","queue-mode":"lazy","queue-version":2}');
  assert.deepEqual(fields(r), fields(accepted('{"delivery-limit":20,"dead-letter-exchange":"dlx"}')));
  assert.deepEqual(r.ignored.map((i) => i.key), ['queue-mode', 'queue-version']);
  assert.match(r.ignored[0].why, /^"lazy": .*storage only; no bearing on retries$/);
  refusedWith('{"delivery-limit":20,"queue-mode":"fast"}', 'queue-mode');
  const b = accepted("{ attempts: 2, jobId: 'order-42', keepLogs: 10 }");
  assert.deepEqual(b.ignored.map((i) => i.key), ['jobId', 'keepLogs']);
  assert.equal(fields(b).maxAttempts, 2);
});

test('SQS with both retentions: the DLQ\'s is the quarantine\'s (counted from the first enqueue), the source\'s changes nothing', () => {
  const source = JSON.stringify({ Attributes: { MessageRetentionPeriod: '345600', RedrivePolicy: '{"maxReceiveCount":5}' } });
  const r = importConfig(source, { dlqRetention: '1209600' });
  assert.equal(r.ok, true, JSON.stringify(r.refusals));
  assert.equal(fields(r)['quarantine.retentionMs'], 1_209_600_000);
  assert.match(r.set.find((s) => s.field === 'quarantine.retentionMs').from, /^the dead-letter queue's MessageRetentionPeriod 1209600 s, counted from the first enqueue/);
  const sourceNote = r.ignored.find((i) => i.key === 'MessageRetentionPeriod');
  assert.match(sourceNote.why, /^345600 s: the source queue's; the lab's source keeps a message until it is settled$/);
  assert.equal(applied(r).quarantine.retentionMs, 1_209_600_000);
  // The classic loss: a DLQ that keeps no longer than its source is said so.
  const short = importConfig(source, { dlqRetention: ' 345600 ' });
  assert.equal(fields(short)['quarantine.retentionMs'], 345_600_000);
  assert.match(short.ignored.find((i) => i.key === 'MessageRetentionPeriod').why, /The DLQ keeps no longer than its source \(345600 s ≤ 345600 s\)/);
  // Empty: as before, the one retention read as the DLQ's.
  assert.match(importConfig(source, { dlqRetention: '' }).set.find((s) => s.field === 'quarantine.retentionMs').from, /read as the dead-letter queue's/);
  // Bad values, and the field with another broker's config, are refused by name, nothing to apply.
  for (const bad of ['59', '1209601', 'a week', '1.5']) {
    const x = importConfig(source, { dlqRetention: bad });
    assert.equal(x.ok, false);
    assert.deepEqual(x.refusals.map((y) => y.key), ['DLQ MessageRetentionPeriod'], bad);
    assert.match(x.refusals[0].message, /^DLQ MessageRetentionPeriod: expected whole seconds from 60 to 1209600, got /);
  }
  for (const other of ['{"attempts":3}', 'sidekiq_options retry: 5', '{"delivery-limit":2}']) {
    const x = importConfig(other, { dlqRetention: '86400' });
    assert.equal(x.ok, false);
    assert.equal(x.refusals[0].message.startsWith('DLQ MessageRetentionPeriod applies only to SQS queue attributes: expected it empty'), true, x.refusals[0].message);
  }
});

// Every system's own fields set away from their defaults (the core accepts each under its system).
const SYSTEM_STATES = {
  lab: { system: 'lab', maxAttempts: 3, delayAt: 'consumer-sleep' },
  bullmq: { system: 'bullmq', maxAttempts: 3, maxStalledCount: 2, removeOnFailCount: 5 },
  'bullmq removeOnFail': { system: 'bullmq', maxAttempts: 3, removeOnFail: true },
  sidekiq: { system: 'sidekiq', maxAttempts: 6, retryInJitter: true, retryEveryError: true, deadMaxJobs: 7, skipDeadSet: true },
  'rabbitmq-quorum': { system: 'rabbitmq-quorum', maxAttempts: 5, deliveryLimit: 'unset-4.x', deadLetterExchange: 'none', dlqMaxLength: 3,
    maxLength: 4, messageTtlMs: 100 },
  sqs: { system: 'sqs', maxAttempts: 3, leaseMs: 5000 },
};

test('one import never blocks the next: every system\'s import over every system\'s own settings, the old ones reset', () => {
  const rows = lab.schema.policy;
  assert.ok(rows.filter((r) => r.onlyUnder).length >= 13, 'lab.schema says whose each mode field is');
  for (const [from, options] of Object.entries(SYSTEM_STATES)) {
    const current = lab.createQueue(options).policy();
    for (const text of ['{"attempts":3}', SQS_CLI, 'sidekiq_options retry: 5', '{"delivery-limit":20,"dead-letter-exchange":"dlx"}',
      '{"attempts":3,"removeOnFail":{"count":2}}', 'sidekiq_options retry: 3, dead: false', '{"delivery-limit":1,"max-length":2}']) {
      const result = accepted(text);
      const { changes, set } = policyChanges(result, current, [], rows);
      const { journal, ...rest } = current;
      let policy;
      assert.doesNotThrow(() => { policy = lab.createQueue({ ...rest, ...changes }).policy(); }, `${from} -> ${text}`);
      assert.equal(policy.system, result.system);
      for (const row of rows.filter((r) => r.onlyUnder !== undefined && r.onlyUnder !== result.system)) {
        assert.deepEqual(policy[row.name], row.default, `${from} -> ${result.system}: ${row.name} back to its default`);
        if (current[row.name] !== row.default) {
          assert.match(set.find((s) => s.field === row.name)?.from ?? '', new RegExp(`^only under system ${row.onlyUnder}: back to its default$`));
        }
      }
      for (const s of result.set) assert.deepEqual(s.field.split('.').reduce((o, k) => o[k], policy), s.value, `${from} -> ${s.field}`);
    }
  }
  // The same system keeps its own: an import under bullmq over bullmq's stall budget lists no reset.
  const same = policyChanges(accepted('{"attempts":4}'), lab.createQueue(SYSTEM_STATES.bullmq).policy(), [], rows);
  assert.equal(same.set.some((s) => s.from.startsWith('only under')), false);
});

test('every reader is linear and refuses by length first: a sidekiq_options line of 65,000 spaces, long JSON', () => {
  const timed = (text, options) => {
    const start = performance.now();
    const r = importConfig(text, options);
    return [r, performance.now() - start];
  };
  const [spaces, ms] = timed(`sidekiq_options ${' '.repeat(65_000)}x`);
  assert.equal(spaces.ok, false);
  assert.equal(spaces.refusals[0].message, `sidekiq_options is too long: expected one line of at most ${MAX_SIDEKIQ_CHARS.toLocaleString('en')} characters, got 65,017 characters`);
  assert.ok(ms < 100, `refused in ${ms.toFixed(1)} ms`);
  // Inside the length limit, the worst shapes for a backtracking pattern are read in a few ms.
  const worst = [
    `sidekiq_options retry: 5${' '.repeat(MAX_SIDEKIQ_CHARS - 40)}x`,
    `sidekiq_options(${' '.repeat(MAX_SIDEKIQ_CHARS - 40)}`,
    `sidekiq_options ${'retry: 1, '.repeat(100)}`,
    `sidekiq_options queue: "${'\\"'.repeat(480)}`,
    `{${' '.repeat(65_000)}`,
    `{"attempts":3,"jobId":"${'\\\\'.repeat(32_000)}"}`,
    `{"RedrivePolicy":"${'{'.repeat(16)}${' '.repeat(60_000)}"}`,
    `${'// x\n'.repeat(10_000)}{}`,
  ];
  for (const text of worst) {
    const [r, t] = timed(text);
    assert.equal(typeof r.ok, 'boolean');
    // Linear: a 64 KiB text in well under a second (a quadratic pattern takes seconds at this size).
    assert.ok(t < 400, `${JSON.stringify(text.slice(0, 24))}… took ${t.toFixed(1)} ms`);
  }
});

test('deep nesting is refused by name, not thrown: 5,000 nested arrays, in the config or in a RedrivePolicy string', () => {
  const deep = '['.repeat(5000) + ']'.repeat(5000);
  let r;
  assert.doesNotThrow(() => { r = importConfig(`{"RedrivePolicy":{"maxReceiveCount":1},"Policy":${deep}}`); });
  assert.equal(r.ok, false);
  assert.equal(r.refusals[0].message, 'config is nested too deeply: expected at most 16 levels of nested objects and arrays, got more than 16');
  const inner = importConfig(JSON.stringify({ RedrivePolicy: `{"maxReceiveCount":1,"x":${deep}}` }));
  assert.deepEqual(inner.refusals.map((x) => x.key), ['RedrivePolicy']);
  assert.match(inner.refusals[0].message, /^RedrivePolicy is nested too deeply/);
  // Sixteen levels are read (and refused for what they say, by name).
  assert.deepEqual(importConfig(`{"attempts":3,"repeat":${'['.repeat(15)}${']'.repeat(15)}}`).refusals.map((x) => x.key), ['repeat']);
});

test('a key given twice is refused, named: JSON, a nested object, a RedrivePolicy string, a sidekiq_options line', () => {
  const [top] = refusedWith('{"attempts":3,"attempts":50}', 'attempts');
  assert.equal(top.message, 'attempts is a duplicate key: expected each key once, got "attempts" a second time');
  refusedWith("{ attempts: 3, 'attempts': 50 }", 'attempts');
  refusedWith('{"attempts":3,"backoff":{"type":"fixed","delay":1,"\\u0064elay":2}}', 'backoff.delay');
  refusedWith('{"Attributes":{"RedrivePolicy":"{\\"maxReceiveCount\\":3,\\"maxReceiveCount\\":50}"}}', 'RedrivePolicy.maxReceiveCount');
  const [retry] = refusedWith('sidekiq_options retry: 5, :retry => 50', 'retry');
  assert.equal(retry.message, 'retry is a duplicate key: expected each key once, got retry a second time (50)');
  // The same key in two objects is two keys.
  assert.equal(fields(accepted('{"attempts":3,"backoff":{"type":"fixed","delay":5},"removeOnFail":{"count":2}}')).maxAttempts, 3);
});

test('a value echoed in a message is isolated (FSI … PDI), its bidi controls escaped: U+202E cannot turn the sentence', () => {
  const [r] = refusedWith('{"attempts":"\u202Eevil"}', 'attempts');
  assert.equal(r.message, 'attempts: expected a whole number from 1, got \u2068"\\u202eevil"\u2069');
  assert.equal(r.message.includes('\u202E'), false);
  // A right-to-left word is isolated as it is; plain text stays as it was.
  assert.equal(quoted('שלום'), '\u2068"שלום"\u2069');
  assert.equal(quoted('plain'), '"plain"');
  assert.equal(quoted(['\u202E']), '\u2068["\\u202e"]\u2069');
  // An unknown key of the reader's own, and a Sidekiq value as the line spells it.
  const key = importConfig('{"attempts":3,"\u202Eyek":1}');
  assert.equal(key.refusals[0].message.startsWith('\u2068\\u202eyek\u2069 is unknown'), true, key.refusals[0].message);
  const side = importConfig("sidekiq_options retry: 3, dead: '\u202Eon'");
  assert.match(side.refusals[0].message, /^dead: expected true or false, got \u2068'\\u202eon'\u2069$/);
});

test('a # inside a quoted Sidekiq value is part of the value; outside, it starts a comment', () => {
  const r = accepted('sidekiq_options queue: "orders#eu", retry: 3');
  assert.equal(fields(r).maxAttempts, 4);
  assert.match(r.ignored.find((i) => i.key === 'queue').why, /^"orders#eu": /);
  assert.equal(fields(accepted("sidekiq_options retry: 3, tags: ['#a'] # retry: 9".replace("['#a']", "'#a'"))).maxAttempts, 4);
  assert.equal(fields(accepted('sidekiq_options(retry: 2) # retry: 9')).maxAttempts, 3);
});
