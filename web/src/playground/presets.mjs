// @ts-check
// One-key preset scenarios: plain data (set-up + a script to play with Forward
// or Run). The core computes everything that follows from them. Lesson 1's
// presets carry their script; the capstone's carry a world (core/scenario/world.h) whose
// run the core plays out when the preset loads (see `played` in model.mjs), so
// their script is what the simulated workers do.

const transient = (error) => ({ type: 'process', outcome: 'transient', error });
const permanent = (error) => ({ type: 'process', outcome: 'permanent', error });
const success = { type: 'process', outcome: 'success', error: '' };

export const PRESETS = [
  {
    key: 'a',
    name: 'a/b example',
    summary: 'A transient failure sends a to the tail, so b runs first.',
    scenario: {
      maxAttempts: 3,
      jobs: [{ id: 'a', payload: 'charge order 1' }, { id: 'b', payload: 'charge order 2' }],
      actions: [transient('db timeout'), success, success],
      cursor: 0,
    },
  },
  {
    key: 'p',
    name: 'Poison message',
    summary: 'One malformed message fails permanently and is quarantined; the good ones flow past it.',
    scenario: {
      maxAttempts: 3,
      jobs: [
        { id: 'ok-1', payload: '{"sku":1}' },
        { id: 'poison', payload: '{"sku":' },
        { id: 'ok-2', payload: '{"sku":2}' },
        { id: 'ok-3', payload: '{"sku":3}' },
      ],
      actions: [success, permanent('unexpected end of JSON'), success, success],
      cursor: 0,
    },
  },
  {
    key: 'y',
    name: 'Flaky dependency',
    summary: 'A dependency fails transiently for a while, then recovers within the budget.',
    scenario: {
      maxAttempts: 4,
      jobs: [{ id: 'sync-1', payload: 'crm' }, { id: 'sync-2', payload: 'crm' }, { id: 'sync-3', payload: 'crm' }],
      actions: [transient('503'), transient('503'), transient('503'), transient('503'), success, success, success],
      cursor: 0,
    },
  },
  {
    key: 'x',
    name: 'Replay after a fix',
    summary: 'A job exhausts its budget, an operator fixes the cause and replays it.',
    scenario: {
      maxAttempts: 2,
      jobs: [{ id: 'invoice', payload: 'customer 42' }, { id: 'receipt', payload: 'customer 7' }],
      actions: [transient('no tax table'), success, transient('no tax table'), { type: 'replay', id: 'invoice' }, success],
      cursor: 0,
    },
  },
];

const jobs = (ids, key) => ids.map((id) => (key ? { id, payload: `order ${id}`, key: key(id) } : { id, payload: `order ${id}` }));
const exponential = (baseMs, capMs, jitter) => ({ kind: 'exponential', baseMs, capMs, jitter });
const fixed = (ms) => ({ kind: 'fixed', baseMs: ms, capMs: ms, jitter: 'none' });
const storm = (jitter) => ({
  maxAttempts: 6, seed: 7, backoff: exponential(200, 4000, jitter),
  jobs: jobs(['j1', 'j2', 'j3', 'j4', 'j5', 'j6']),
  world: { workers: 6, workMs: 50, outage: { startMs: 0, endMs: 1500 } },
});
const outage = (maxAttempts) => ({
  maxAttempts, seed: 1, backoff: exponential(250, 4000, 'none'),
  jobs: jobs(['a', 'b', 'c', 'd']),
  world: { workers: 4, workMs: 100, outage: { startMs: 0, endMs: 3000 } },
});
const accounts = (ordering) => ({
  maxAttempts: 4, seed: 1, ordering, backoff: { kind: 'fixed', baseMs: 500, capMs: 500, jitter: 'none' },
  jobs: jobs(['a1', 'a2', 'b1', 'b2'], (id) => (id[0] === 'a' ? 'acct-7' : 'acct-9')),
  world: { workers: 1, workMs: 100, behaviours: [{ id: 'a1', kind: 'flaky', count: 2 }] },
});
const poisonPair = (unsafeQuarantineOrder) => ({
  maxAttempts: 3, seed: 1, unsafeQuarantineOrder,
  jobs: jobs(['a', 'b']),
  world: { workers: 1, workMs: 100, behaviours: [{ id: 'b', kind: 'poison', failure: 'permanent' }] },
});

/**
 * The capstone's presets: each shows one rule in under 30 s with Run (or Forward).
 * `crash: true` opens Crash and restart at the first write where a crash leaves
 * something behind, once the script has played.
 */
export const CAPSTONE_PRESETS = [
  { key: 'j', name: 'Storm, no jitter', summary: 'Six jobs fail together in an outage and, without jitter, retry together: every retry wave hits the dependency at once.', scenario: storm('none') },
  { key: 'h', name: 'Storm, full jitter', summary: 'The same outage with full jitter: the retries spread out over each backoff window instead of arriving together.', scenario: storm('full') },
  { key: 'o', name: 'Outage outlasted', summary: 'A 3 s outage; backoff 250, 500, 1000, 2000 ms outlasts it within 6 attempts, so every job completes.', scenario: outage(6) },
  { key: 'w', name: 'Outage exhausts budget', summary: 'The same outage with 3 attempts: the budget runs out first and healthy jobs end up quarantined.', scenario: outage(3) },
  { key: 'c', name: 'Consumer crash', summary: "a's worker dies mid-attempt: nothing settles, the lease expires, and the queue still counts that attempt.", scenario: {
    maxAttempts: 3, leaseMs: 1000, seed: 1, jobs: jobs(['a', 'b', 'c']),
    world: { workers: 1, workMs: 100, behaviours: [{ id: 'a', kind: 'crashes', count: 1 }] } } },
  { key: 'u', name: 'Unknown schema', summary: 'A payload of a schema the worker does not know is quarantined at once and raises an alert.', scenario: {
    maxAttempts: 3, seed: 1, jobs: jobs(['ok-1', 'v9', 'ok-2']),
    world: { behaviours: [{ id: 'v9', kind: 'poison', failure: 'unknown-schema' }] } } },
  { key: 'k', name: 'Hold the key', summary: "Ordering by key: a2 waits for a1 (account 7) while account 9's jobs flow.", scenario: accounts('key') },
  { key: 'i', name: 'Skip past', summary: 'No ordering: a2 completes before a1, which retries behind it; the reorder is recorded.', scenario: accounts('none') },
  { key: 't', name: 'Stall all', summary: "Stall: only the head runs, so a1's backoff blocks both accounts.", scenario: accounts('stall') },
  { key: 'e', name: 'Evidence expires', summary: 'A quarantine with 2 s retention: nobody replays the entry in time, and its evidence is dropped for good.', scenario: {
    maxAttempts: 3, seed: 1, quarantine: { retentionMs: 2000, alarmDepth: 0 }, jobs: jobs(['ok', 'bad']),
    world: { behaviours: [{ id: 'bad', kind: 'poison', failure: 'undeserializable' }] } } },
  { key: 'm', name: 'Alarm on a burst', summary: 'Three poison messages arrive together; the quarantine reaches the alarm depth of 2 and raises the alarm.', scenario: {
    maxAttempts: 3, seed: 1, quarantine: { retentionMs: 0, alarmDepth: 2 }, jobs: jobs(['p1', 'ok-1', 'p2', 'p3', 'ok-2']),
    world: { workers: 2, behaviours: ['p1', 'p2', 'p3'].map((id) => ({ id, kind: 'poison', failure: 'permanent' })) } } },
  { key: 'q', name: 'Crash, safe order', summary: 'Crash and restart between the two writes of a quarantine: the entry was written first, so b is found twice and kept once.', scenario: poisonPair(false), crash: true },
  { key: 'v', name: 'Crash, unsafe order', summary: 'The same crash with the removal written first: b is in no place after the restart. Lost.', scenario: poisonPair(true), crash: true },
];

/**
 * One preset per real-system mode (policy `system`, docs/real-systems.md): a small
 * scenario where that system's one difference from the lab's rules shows in the
 * first events. Their keys are words: they have a chip (and an embed's `presets`
 * can name them) but no single-key shortcut. `then`: script actions after the
 * world's run (the world plays on past them with Run).
 */
export const SYSTEM_PRESETS = [
  { key: 'rabbitmq', name: 'RabbitMQ: poison loop at the head',
    summary: 'A quorum queue puts a returned message back near the head: a is redelivered at once, ahead of b and c, until its delivery-limit of 3 (4 deliveries), then dead-lettered as delivery_limit.',
    scenario: {
      system: 'rabbitmq-quorum', maxAttempts: 4, jobs: jobs(['a', 'b', 'c']),
      actions: [transient('nack, requeue'), transient('nack, requeue'), transient('nack, requeue'), transient('nack, requeue'), success, success],
      cursor: 0,
    } },
  { key: 'rabbitmq-43', name: 'RabbitMQ 4.3: delayed retry',
    summary: "RabbitMQ 4.3's delayed retry (delayed-retry-type failed, min 1 s, max 2.5 s): a's rejects wait min(1,000 × delivery count, 2,500) ms, 1,000, 2,000, then 2,500, instead of coming back at the head at once; b runs meanwhile.",
    scenario: {
      system: 'rabbitmq-quorum', maxAttempts: 4, seed: 1, delayedRetryType: 'failed', delayedRetryMinMs: 1000, delayedRetryMaxMs: 2500,
      jobs: jobs(['a', 'b']),
      world: { workers: 1, workMs: 100, behaviours: [{ id: 'a', kind: 'poison', failure: 'transient' }] } } },
  { key: 'rabbitmq-43-delivery-time', name: 'RabbitMQ 4.3: the consumer sets the delivery time',
    summary: "RabbitMQ 4.3's x-opt-delivery-time: a's consumer returns each failure with the AMQP modified outcome (delivery-failed=true, counted) carrying now + its own exponential backoff, so a waits 4,000, 8,000, then 16,000 ms instead of the queue's linear 1,000, 2,000, 2,500; delivery-limit 3 still dead-letters it on its fourth delivery.",
    scenario: {
      system: 'rabbitmq-quorum', maxAttempts: 4, seed: 1, delayedRetryType: 'failed', delayedRetryMinMs: 1000, delayedRetryMaxMs: 2500,
      deliveryTime: 'backoff', backoff: exponential(4000, 60000, 'none'), jobs: jobs(['a', 'b']),
      world: { workers: 1, workMs: 100, behaviours: [{ id: 'a', kind: 'poison', failure: 'transient' }] } } },
  { key: 'rabbitmq-43-nack', name: 'RabbitMQ 4.3: a nack is not counted',
    summary: "On RabbitMQ 4.3 basic.nack does not raise delivery-count (only x-acquired-count): a's consumer nacks it five times and it is never dead-lettered, although delivery-limit is 2. A basic.reject would have sent it to the DLQ on its third delivery.",
    scenario: {
      system: 'rabbitmq-quorum', maxAttempts: 3, requeueWith: 'nack', seed: 1, jobs: jobs(['a', 'b']),
      actions: [transient('timeout'), transient('timeout'), transient('timeout'), transient('timeout'), transient('timeout')],
      cursor: 0 } },
  { key: 'bullmq', name: 'BullMQ: uncapped backoff',
    summary: "BullMQ's exponential backoff has no cap: a's retries wait 500, 1,000, 2,000 and 4,000 ms, past the 1 s cap the lab would apply.",
    scenario: {
      system: 'bullmq', maxAttempts: 5, seed: 1, backoff: exponential(500, 1000, 'none'), jobs: jobs(['a', 'b']),
      world: { workers: 1, workMs: 100, behaviours: [{ id: 'a', kind: 'poison', failure: 'transient' }] } } },
  { key: 'sidekiq', name: 'Sidekiq: its own clock, one more run from Dead',
    summary: "Sidekiq's delay is count⁴ + 15 + rand(10)·(count + 1) s: a waits 24 s, then 26 s, and goes to Dead after retry: 2; a retry from Dead gives it one more run, not a new budget.",
    scenario: {
      system: 'sidekiq', maxAttempts: 3, seed: 1, jobs: jobs(['a', 'b']),
      world: { workers: 1, workMs: 100, behaviours: [{ id: 'a', kind: 'poison', failure: 'transient' }] } },
    then: [{ type: 'replay', id: 'a' }] },
  { key: 'sidekiq-retry-for', name: 'Sidekiq 7/8: retry_for, a window instead of a count',
    summary: "Sidekiq's retry_for: 1.minute: a's failures, 20 s apart, are retried while they come within a minute of its first failure (failed_at); the one past it sends a to Dead, however many retries a count would allow.",
    scenario: {
      system: 'sidekiq', maxAttempts: 3, retryForMs: 60000, seed: 1, backoff: fixed(20000), jobs: jobs(['a', 'b']),
      world: { workers: 1, workMs: 100, behaviours: [{ id: 'a', kind: 'poison', failure: 'transient' }] } } },
  { key: 'sidekiq-discard', name: 'Sidekiq 7.2: sidekiq_retries_exhausted returns :discard',
    summary: "A sidekiq_retries_exhausted block returning :discard: a, out of retries after retry: 1, is dropped instead of going to Dead: nothing is quarantined and nothing can retry it.",
    scenario: {
      system: 'sidekiq', maxAttempts: 2, discardOnExhausted: true, seed: 1, jobs: jobs(['a', 'b']),
      world: { workers: 1, workMs: 100, behaviours: [{ id: 'a', kind: 'poison', failure: 'transient' }] } } },
  { key: 'sqs', name: 'SQS: back after the visibility timeout',
    summary: 'SQS has no backoff: a failed message comes back when its 5 s visibility timeout ends; after maxReceiveCount 3 it moves to the DLQ, which keeps no reason.',
    scenario: {
      system: 'sqs', maxAttempts: 3, leaseMs: 5000, seed: 1, jobs: jobs(['a', 'b']),
      world: { workers: 1, workMs: 100, behaviours: [{ id: 'a', kind: 'poison', failure: 'transient' }] } } },
  { key: 'sqs-move-task', name: 'SQS: redrive as a move task, 2 messages a second',
    summary: "maxReceiveCount 2, and the dependency is down for the first 5.45 s: a, b and c fail both receives and go to the DLQ. The redrive is a StartMessageMoveTask at 2 messages a second: each goes back 500 ms after the one before as a new message (a/moved-1 …) with receive count 0 and a fresh retention, and now succeeds.",
    scenario: {
      system: 'sqs', maxAttempts: 2, leaseMs: 5000, moveTaskRate: 2, seed: 1, jobs: jobs(['a', 'b', 'c']),
      world: { workers: 1, workMs: 100, outage: { startMs: 0, endMs: 5450 } } },
    then: [{ type: 'redrive', max: 10 }] },
  { key: 'pubsub', name: 'Pub/Sub: exponential retry, then the dead-letter topic',
    summary: "Pub/Sub's retry policy (minimum_backoff 10 s, maximum_backoff 60 s) waits 10, 20, 40 then 60 s between a's deliveries; after max_delivery_attempts 5 it is forwarded to the dead-letter topic with CloudPubSubDeadLetterSourceDeliveryCount 5.",
    scenario: {
      system: 'pubsub', maxAttempts: 5, leaseMs: 10000, seed: 1, backoff: exponential(10000, 60000, 'none'), jobs: jobs(['a', 'b']),
      world: { workers: 1, workMs: 100, behaviours: [{ id: 'a', kind: 'poison', failure: 'transient' }] } } },
  { key: 'pubsub-no-dlt', name: 'Pub/Sub: no dead-letter topic, lost at retention',
    summary: 'A subscription with no dead-letter policy counts nothing: a is redelivered every 60 s until its 10 min message_retention_duration runs out, then deleted with no trace.',
    scenario: {
      system: 'pubsub', maxAttempts: 5, leaseMs: 10000, seed: 1, deadLetterTopic: 'none', messageRetentionMs: 600000,
      backoff: exponential(60000, 60000, 'none'), jobs: jobs(['a', 'b']),
      world: { workers: 1, workMs: 100, behaviours: [{ id: 'a', kind: 'poison', failure: 'transient' }] } } },
  { key: 'service-bus', name: 'Service Bus: ten deliveries back to back',
    summary: "Service Bus has no retry delay: abandon makes a available again at once, so its 10 deliveries (maxDeliveryCount 10) fail within a second, then it goes to orders/$deadletterqueue with DeadLetterReason MaxDeliveryCountExceeded and DeliveryCount 10.",
    scenario: {
      system: 'service-bus', maxAttempts: 10, leaseMs: 60000, seed: 1, jobs: jobs(['a', 'b']),
      world: { workers: 1, workMs: 100, behaviours: [{ id: 'a', kind: 'poison', failure: 'transient' }] } } },
  { key: 'service-bus-ttl', name: 'Service Bus: a backlog outlives its time to live',
    summary: "defaultMessageTimeToLive PT30S with deadLetteringOnMessageExpiration: one worker takes 10 s a message, so the backlog outlives its time to live. At 30 s d and e (never delivered) and a (abandoned once: the abandon does not restart its clock, which runs from the enqueue) go to orders/$deadletterqueue with DeadLetterReason TTLExpiredException.",
    scenario: {
      system: 'service-bus', maxAttempts: 10, leaseMs: 60000, defaultMessageTtlMs: 30000, deadLetterOnExpiry: true, seed: 1,
      jobs: jobs(['a', 'b', 'c', 'd', 'e']),
      world: { workers: 1, workMs: 10000, behaviours: [{ id: 'a', kind: 'poison', failure: 'transient' }] } } },
  { key: 'spring-kafka', name: "Spring Kafka: FixedBackOff(0, 9) holds the partition",
    summary: "Spring Kafka's DefaultErrorHandler with its default FixedBackOff(0, 9): a is delivered ten times, 0 ms apart, while b waits behind it on the held partition; then a goes to the dead-letter topic with its kafka_dlt-* headers. Ten deliveries in no time outlast no outage.",
    scenario: {
      system: 'spring-kafka', maxAttempts: 10, ordering: 'stall', seed: 1, jobs: jobs(['a', 'b']),
      world: { workers: 1, workMs: 100, behaviours: [{ id: 'a', kind: 'poison', failure: 'transient' }] } } },
  { key: 'spring-kafka-retry-topics', name: 'Spring Kafka: @RetryableTopic retry topics',
    summary: "@RetryableTopic(attempts = \"4\", backOff = @BackOff(delay = 1000, multiplier = 1.5, maxDelay = 10000)): a leaves the partition for retry topics, waiting 1,000, 1,500 and 2,250 ms, and b runs meanwhile: no order is kept. Then a lands in the dead-letter topic.",
    scenario: {
      system: 'spring-kafka', retryTopics: true, multiplierPermille: 1500, maxAttempts: 4, seed: 1,
      backoff: exponential(1000, 10000, 'none'), jobs: jobs(['a', 'b']),
      world: { workers: 1, workMs: 100, behaviours: [{ id: 'a', kind: 'poison', failure: 'transient' }] } } },
  { key: 'kafka-connect', name: 'Kafka Connect: retried for errors.retry.timeout, then the DLQ topic',
    summary: "A sink connector with errors.tolerance=all, a DLQ topic with context headers, errors.retry.timeout=60000: a's retriable failure waits 300, 600, 1,200 … 38,400 ms (doubling from 300 ms) while the task holds b; past the minute a goes to orders-dlq with its __connect.errors.* headers and b runs.",
    scenario: {
      system: 'kafka-connect', maxAttempts: 3, toleranceAll: true, dlqTopic: true, contextHeaders: true, retryTimeoutMs: 60000,
      ordering: 'stall', seed: 1, backoff: exponential(300, 60000, 'none'), jobs: jobs(['a', 'b']),
      world: { workers: 1, workMs: 100, behaviours: [{ id: 'a', kind: 'poison', failure: 'transient' }] } } },
  { key: 'kafka-connect-no-dlq', name: 'Kafka Connect: errors.tolerance=all with no DLQ topic',
    summary: 'errors.tolerance=all with errors.deadletterqueue.topic.name blank (its default) and errors.retry.timeout 0 (its default): a fails once and is skipped, logged at most; b runs. No DLQ holds a and nothing can replay it.',
    scenario: {
      system: 'kafka-connect', maxAttempts: 3, toleranceAll: true, seed: 1, backoff: exponential(300, 60000, 'none'), jobs: jobs(['a', 'b']),
      world: { workers: 1, workMs: 100, behaviours: [{ id: 'a', kind: 'poison', failure: 'transient' }] } } },
];

/** The clean scenario shown when there is no (usable) link: the lesson's a/b example. */
export const DEFAULT_SCENARIO = PRESETS[0].scenario;
