// @ts-check
// One preset per real queue system: a lab scenario as close to the system's
// defaults as the lab's policy can say, the one place where the lab's rule and
// the system's part ways, a few sourced facts, and the configuration snippet
// for that system (its name and generator come from shared/snippets.mjs, the one
// place snippets are written): snippet(queue.policy(), queue.rules()).
//
// Plain data: no dependencies, no I/O, safe in the browser. Every fact is
// sourced: each entry's `sources` names the system's documentation it comes
// from, and it is written in this project's own words.
//
// The lab's rule, for comparison: count the attempt first; requeue at the tail
// while budget is left; quarantine permanent failures at once and exhausted ones
// at the end; only an explicit replay(id) brings a job back, with its attempts reset.
import { DELIVERY_LIMIT_RULE, snippetByKey } from '../shared/snippets.mjs';

export { policyInForce } from '../shared/snippets.mjs';

// ---- the jobs every preset runs: a and c healthy, b the poison one ------------

const JOBS = [{ id: 'a', payload: 'order-1' }, { id: 'b', payload: 'order-2' }, { id: 'c', payload: 'order-3' }];
// The lab's precondition row (2 attempts, its own 1 s) and unknown-schema's alert are the lab's
// own teaching rules; no system below has them, so every preset treats those failures like the rest.
const NO_LAB_EXTRAS = { 'unknown-schema': { alert: false }, precondition: { maxAttempts: 0, backoff: 'policy' } };
// A broker with no notion of a permanent failure retries every failure alike.
const ALL_RETRIED = {
  permanent: { retry: 'bounded' }, undeserializable: { retry: 'bounded' },
  'unknown-schema': { retry: 'bounded', alert: false }, precondition: { maxAttempts: 0, backoff: 'policy' },
};
const poison = (failure) => ({ behaviours: [{ id: 'b', kind: 'poison', failure }] });
const neverSettles = (count) => ({ behaviours: [{ id: 'b', kind: 'crashes', count }] });

const gh = (repo, path) => `https://github.com/${repo}/blob/HEAD/${path}`;

// ---- the systems ---------------------------------------------------------------------

/** A frozen deep copy of plain data (each preset gets its own, so no two share an object). */
function frozen(value) {
  if (value === null || typeof value !== 'object') return value;
  const copy = Array.isArray(value) ? value.map(frozen) : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, frozen(v)]));
  return Object.freeze(copy);
}

/**
 * A preset: its name and snippet generator are the snippet table's (shared/snippets.mjs); `loads`, when given,
 * says what is loaded where a preset is not the system's defaults.
 * @param {{ key: string, sources: string[], scenario: object, differs: string, facts: string[], loads?: string }} preset
 */
function entry({ key, sources, scenario, facts, ...rest }) {
  const { name, generate } = snippetByKey(key);
  return Object.freeze({ key, name, ...rest, source: sources.join(' '), sources: frozen(sources), scenario: frozen(scenario), facts: frozen(facts),
    snippet: generate });
}

export const SYSTEMS = Object.freeze([
  entry({
    key: 'sqs',
    sources: [
      'https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-dead-letter-queues',
      'https://docs.amazonaws.cn/en_us/AWSSimpleQueueService/latest/SQSDeveloperGuide/setting-up-dead-letter-queue-retention.html',
      'https://docs.aws.amazon.com/goto/WebAPI/sqs-2012-11-05/StartMessageMoveTask',
      'https://aws.github.io/modern-data-architecture-accelerator/typedocs/interfaces/_aws-mdaa_dataops-lambda-l3-construct.QueueDlqProps.html',
      'https://www.rubydoc.info/gems/aws-sdk-sqs/1.10.0/Aws/SQS/Resource',
    ],
    // maxReceiveCount has no default (no redrive policy, no DLQ); 3 is the lab's lesson value.
    // b is never deleted: each receive ends when its 30 s visibility timeout runs out. Retention stays 0 (forever):
    // a played world runs every timer, so any finite retention would drop b before the learner sees it; the
    // system's retention (4 days, at most 14) is in the facts and in the snippet's DLQ.
    scenario: { maxAttempts: 3, seed: 1, classes: ALL_RETRIED, jobs: JOBS, world: neverSettles(3) },
    differs: 'SQS counts receives, not failures: it cannot tell a permanent error from a crash, so an undeleted message comes back ' +
      'after every visibility timeout until maxReceiveCount.',
    facts: [
      'The broker counts how often a message was received without being deleted (on any queue); maxReceiveCount, 1 to 1000 ' +
        'with no default, caps it, and there is a DLQ only if you set a redrive policy.',
      'SQS has no backoff of its own: a message nobody deletes becomes visible again when its visibility timeout ' +
        '(30 s unless changed, 0 s to 12 h) runs out.',
      'A dead-lettered message keeps its body and attributes but gets no reason or error field; on a standard queue its ' +
        'original enqueue time keeps counting against the DLQ retention (4 days by default, up to 14).',
      'Moving messages back is a bulk move task (StartMessageMoveTask), not a per-message replay.',
    ],
  }),
  entry({
    key: 'rabbitmq',
    sources: [
      gh('rabbitmq/rabbitmq-website', 'docs/dlx.md'),
      gh('rabbitmq/rabbitmq-website', 'docs/quorum-queues/index.md'),
      gh('rabbitmq/rabbitmq-server', 'deps/rabbit/src/rabbit_dead_letter.erl'),
      'https://github.com/rabbitmq/rabbitmq-server/discussions/18226',
      'https://www.rabbitmq.com/docs/quorum-queues#delayed-retry',
    ],
    // The 4.x default delivery-limit 20: L + 1 deliveries, so the lab's maxAttempts 21 (3.x has no default limit).
    scenario: { maxAttempts: 21, seed: 1, classes: NO_LAB_EXTRAS, jobs: JOBS, world: poison('transient') },
    differs: 'A quorum queue with a delivery-limit returns a failed message near the head, not the tail, and its limit counts returns, ' +
      'so the lab\'s maxAttempts is delivery-limit + 1.',
    facts: [
      'Quorum queues count failed deliveries in x-delivery-count; from 4.0 a delivery-limit of 20 applies unless set (-1: none); ' +
        '4.3 counts only a reject or a lost connection, not a nack; classic queues count nothing.',
      'A reject with requeue=false dead-letters at once (reason "rejected"); x-death keeps queue, reason, count and time, not the consumer\'s error.',
      'Past the limit a message is dropped, or dead-lettered with reason delivery_limit when a dead-letter exchange is set; ' +
        'at-least-once dead-lettering also needs dead-letter-strategy at-least-once and overflow reject-publish.',
      `Quorum queues count returns: ${DELIVERY_LIMIT_RULE}. 4.3 can delay a return itself: min(delayed-retry-min × count, delayed-retry-max).`,
    ],
  }),
  entry({
    key: 'sidekiq',
    sources: [
      gh('sidekiq/sidekiq', 'lib/sidekiq/job_retry.rb'),
      gh('sidekiq/sidekiq', 'lib/sidekiq/config.rb'),
      gh('sidekiq/sidekiq', 'lib/sidekiq/api.rb'),
      'https://github.com/sidekiq/sidekiq/issues/3101',
    ],
    // retry: true is 25 retries, 26 runs. The lab cannot say count**4 + 15 s; an exponential from 15 s,
    // capped at the lab's longest delay (1 day), is the nearest curve. The Dead set keeps 180 days, but the
    // preset keeps b forever (retention 0): a played world runs every timer and would drop it (see the facts).
    scenario: { maxAttempts: 26, seed: 1, backoff: { kind: 'exponential', baseMs: 15_000, capMs: 86_400_000, jitter: 'none' },
      classes: NO_LAB_EXTRAS, jobs: JOBS, world: poison('transient') },
    differs: 'Sidekiq budgets retries, not runs (retry: 25 means 26 runs), and retrying a dead job gives it one more run ' +
      'instead of a reset count.',
    facts: [
      'retry: N allows N retries after the first run (true: 25); the Dead set keeps at most 10,000 jobs for 180 days, and retrying one ' +
        'gives it a single extra run.',
      'The default wait before the next run is count⁴ + 15 s plus a random 0 to 10·(count + 1) s, with no cap: about 20 days across 25 retries.',
      'From 6.5.2 sidekiq_retry_in can return :kill (straight to Dead); from 7.2 sidekiq_retries_exhausted can return :discard, ' +
        'and the exhausted job is dropped, never in Dead.',
      'retry_for: 48.hours (7.1.3) stops retries that long after the first failure (failed_at); from 8.1 it replaces the retry count.',
    ],
  }),
  entry({
    key: 'bullmq',
    sources: [
      gh('taskforcesh/bullmq', 'src/classes/backoffs.ts'),
      gh('taskforcesh/bullmq', 'docs/gitbook/guide/retrying-failing-jobs.md'),
      gh('taskforcesh/bullmq', 'docs/gitbook/patterns/stop-retrying-jobs.md'),
      gh('taskforcesh/bullmq', 'docs/gitbook/guide/jobs/retrying-job.md'),
      gh('taskforcesh/bullmq', 'src/interfaces/base-job-options.ts'),
    ],
    // attempts defaults to 1: the first error fails the job.
    scenario: { maxAttempts: 1, seed: 1, classes: NO_LAB_EXTRAS, jobs: JOBS, world: poison('transient') },
    differs: 'BullMQ counts failed runs but not crashes (stalls have their own budget), job.retry() keeps attemptsMade unless ' +
      'reset, and its exponential backoff has no cap.',
    facts: [
      'attempts includes the first run and defaults to 1, so without it a job fails on its first error.',
      'Fixed backoff waits delay; exponential waits 2^(attemptsMade − 1)·delay with no cap; jitter j draws from [v·(1 − j), v].',
      'Throwing UnrecoverableError, or a backoff strategy returning −1, moves a job to failed whatever attempts says.',
      'job.retry() resets attemptsMade only with resetAttemptsMade; without it the job runs once more. A removeOnFail age is applied lazily, when a later job fails.',
    ],
  }),
  entry({
    key: 'temporal',
    sources: [
      gh('temporalio/documentation', 'docs/encyclopedia/retry-policies.mdx'),
      'https://typescript.temporal.io/api/classes/common.ApplicationFailure',
      'https://docs.temporal.io/design-patterns/non-retryable-errors',
    ],
    // maximumAttempts is unlimited by default; the lab's largest budget, 1,000,000, stands in for it. The
    // default interval is 1 s doubling to 100 s. b fails with a non-retryable error.
    scenario: { maxAttempts: 1_000_000, seed: 1, backoff: { kind: 'exponential', baseMs: 1000, capMs: 100_000, jitter: 'none' },
      classes: NO_LAB_EXTRAS, jobs: JOBS, world: poison('permanent') },
    differs: 'Temporal has no quarantine: when its retry policy gives up, the failure goes back to the calling workflow, ' +
      'so there is nothing to replay, expire or alarm on.',
    facts: [
      'The server counts activity attempts; maximumAttempts is unlimited by default (0 also means unlimited, 1 means no retry).',
      'The wait is min(initialInterval·backoffCoefficient^retries, maximumInterval): 1 s doubling up to 100 s by default, with no documented jitter.',
      'An error whose ApplicationFailure type is in nonRetryableErrorTypes (an exact match), or one marked nonRetryable, ends the retries at once.',
      'The final failure wraps the last ApplicationFailure (type, message, details) and is handed back to the workflow.',
    ],
  }),
  entry({
    key: 'kafka',
    sources: [
      gh('spring-projects/spring-kafka', 'spring-kafka-docs/src/main/antora/modules/ROOT/pages/kafka/annotation-error-handling.adoc'),
      gh('spring-projects/spring-kafka', 'spring-kafka-docs/src/main/antora/modules/ROOT/pages/retrytopic/how-the-pattern-works.adoc'),
      gh('spring-projects/spring-kafka', 'spring-kafka/src/main/java/org/springframework/kafka/annotation/RetryableTopic.java'),
      gh('spring-projects/spring-kafka', 'spring-kafka/src/main/java/org/springframework/kafka/listener/DeadLetterPublishingRecoverer.java'),
      'https://github.com/spring-projects/spring-kafka/issues/4523',
    ],
    // @RetryableTopic: 3 attempts, a fixed 1 s; retry topics give up partition order (ordering none).
    scenario: { maxAttempts: 3, seed: 1, backoff: { kind: 'fixed', baseMs: 1000, capMs: 1000, jitter: 'none' },
      classes: NO_LAB_EXTRAS, jobs: JOBS, world: poison('transient') },
    differs: 'Kafka keeps no per-record delivery count or lease, so Spring counts attempts in the consumer, and its retry topics ' +
      'give up partition order to keep the partition moving.',
    facts: [
      'The broker counts nothing per record: Spring\'s DefaultErrorHandler tracks attempts in memory, so a crash can lose the count.',
      'Blocking retries (FixedBackOff(0, 9) by default: ten deliveries) seek back and hold the partition in order; @RetryableTopic ' +
        '(3 attempts, fixed 1 s by default) forwards through retry topics and loses that order.',
      'Deserialization and conversion errors are not retried by default, and more can be listed; DeadLetterPublishingRecoverer then writes to <topic>-dlt (the default recoverer only logs).',
      'The DLT record carries exception headers and its original topic, partition and offset; replaying it is left to the application.',
    ],
  }),
  entry({
    key: 'pubsub',
    sources: [
      'https://cloud.google.com/python/docs/reference/pubsub/latest/google.cloud.pubsub_v1.types.DeadLetterPolicy',
      'https://cloud.google.com/php/docs/reference/cloud-pubsub/latest/V1.RetryPolicy',
      'https://cloud.google.com/pubsub/docs/handling-failures',
      'https://docs.cloud.google.com/pubsub/docs/ordering.md.txt',
    ],
    // max_delivery_attempts 5, immediate redelivery, every failure alike (the subscriber can only nack).
    scenario: { maxAttempts: 5, seed: 1, classes: ALL_RETRIED, jobs: JOBS, world: poison('transient') },
    differs: 'Pub/Sub has no notion of a permanent failure and allows no fewer than 5 delivery attempts, and its dead-lettering ' +
      'is best effort, possibly more than once.',
    facts: [
      'The broker counts 1 + nacks + expired ack deadlines, approximately; max_delivery_attempts is 5 to 100, 5 by default.',
      'Redelivery is immediate unless a retry policy asks for exponential backoff between minimum_backoff (10 s) and maximum_backoff (600 s).',
      'Dead letters go to a topic, best effort, if its service account may publish there; a topic with no subscription loses ' +
        'them, and with no dead-letter policy a message is redelivered until its retention (7 days) ends, then deleted.',
      'Ordering keys are switched on per subscription.',
    ],
  }),
  entry({
    key: 'servicebus',
    sources: [
      'https://learn.microsoft.com/EN-US/AZURE/service-bus-messaging/service-bus-dead-letter-queues',
      'https://learn.microsoft.com/en-us/dotnet/api/azure.messaging.servicebus.administration.queueproperties.maxdeliverycount',
      'https://learn.microsoft.com/dotnet/api/azure.messaging.servicebus.servicebusreceiver.deadlettermessageasync',
      'https://learn.microsoft.com/azure/service-bus-messaging/message-expiration',
      'https://github.com/Azure/azure-service-bus/issues/445',
    ],
    // MaxDeliveryCount 10; b's receiver never completes it, so every peek-lock expires.
    scenario: { maxAttempts: 10, seed: 1, classes: NO_LAB_EXTRAS, jobs: JOBS, world: neverSettles(10) },
    differs: 'Service Bus counts expired locks as deliveries as the lab counts crashes, but its dead-letter queue never expires ' +
      'entries, and a replay is a copy your code sends.',
    facts: [
      'DeliveryCount goes up when a peek-lock expires or the message is abandoned, which makes it available again at once ' +
        '(no retry delay); MaxDeliveryCount is 10 by default, at least 1.',
      'An exhausted message moves to the $deadletterqueue subqueue with reason MaxDeliveryCountExceeded; a receiver can dead-letter ' +
        'at once with DeadLetterMessageAsync and its own reason and description.',
      'A message expires defaultMessageTimeToLive after its enqueue, however often abandoned (none by default): to the DLQ as ' +
        'TTLExpiredException with deadLetteringOnMessageExpiration, else dropped. Inside the DLQ nothing expires.',
      'Resubmitting means receiving from the DLQ, sending a copy and completing the original; from a subscription\'s DLQ the copy goes to the whole topic.',
    ],
  }),
  entry({
    key: 'kafka-connect',
    sources: [
      gh('apache/kafka', 'connect/runtime/src/main/java/org/apache/kafka/connect/runtime/ConnectorConfig.java'),
      gh('apache/kafka', 'connect/runtime/src/main/java/org/apache/kafka/connect/runtime/SinkConnectorConfig.java'),
      gh('apache/kafka', 'connect/runtime/src/main/java/org/apache/kafka/connect/runtime/errors/DeadLetterQueueReporter.java'),
      gh('apache/kafka', 'connect/runtime/src/main/java/org/apache/kafka/connect/runtime/errors/RetryWithToleranceOperator.java'),
    ],
    // The system's own mode: a sink connector that tolerates errors, with a DLQ topic and its context headers,
    // retrying a retriable failure for errors.retry.timeout = 60 s. The retry sleeps in the task's thread, so
    // the partition stalls behind b (ordering stall); the backoff is Connect's: 300 ms doubling, capped at
    // errors.retry.delay.max.ms (60 s).
    scenario: { system: 'kafka-connect', maxAttempts: 1, toleranceAll: true, dlqTopic: true, contextHeaders: true, retryTimeoutMs: 60_000,
      ordering: 'stall', seed: 1, backoff: { kind: 'exponential', baseMs: 300, capMs: 60_000, jitter: 'none' },
      jobs: JOBS, world: poison('transient') },
    loads: 'Kafka Connect: a sink connector as teams set it up to keep going (errors.tolerance all, a DLQ topic with context ' +
      'headers, errors.retry.timeout 60 s) is loaded in the playground below, not its defaults, which stop the task. Press Run to play it.',
    differs: 'Kafka Connect retries for a length of time, not a number of attempts, and by default a record that fails for good ' +
      'stops the whole task instead of being set aside.',
    facts: [
      'errors.tolerance is none by default: the first record that fails for good stops the task; all skips it, to the topic ' +
        'errors.deadletterqueue.topic.name names, or nowhere when that is blank (its default).',
      'errors.retry.timeout (0 by default: no retry; -1: forever) bounds retries of a RetriableException in time; the waits start ' +
        'at 300 ms and double up to errors.retry.delay.max.ms (60 s), jittered once there.',
      'Other exceptions in a converter or a transformation are not retried: they go to errors.tolerance at once.',
      'With errors.deadletterqueue.context.headers.enable, a dead letter carries __connect.errors.* headers: its original topic, ' +
        'partition and offset, the failing stage and the exception.',
    ],
  }),
]);

/** The system with `key`, or undefined. */
export function systemByKey(key) {
  return SYSTEMS.find((s) => s.key === key);
}
