// Types for dlq-lab's JavaScript API (wasm/index.mjs). Generated from the core's tables by
// scripts/gen-types.mjs (through the built core's lab.schema), between "// @generated begin" and
// "// @generated end" markers: BackoffOptions, PolicyOptions, PolicyGroups (QuarantineOptions,
// EffectsOptions, AntiPatternOptions), StormOptions (with StormArrival, StormOutage, StormCapacity,
// StormBudget, StormServer) and ScenarioAction; tests/node/gen-types.test.mjs fails when they
// differ from a fresh generation. Everything else is hand-written: keep it in step with index.mjs.

/**
 * What a worker reports about one attempt (lab.outcomes lists them, in the core's order). Every
 * failing outcome is a failure class of the same name; the queue never infers one from error text.
 */
export type Outcome = 'success' | 'transient' | 'permanent' | 'undeserializable' | 'unknown-schema' | 'precondition';
/**
 * The class of a failure (lab.failureClasses lists them): one per failing outcome, plus 'crash' for
 * a lease that expired unsettled. 'crash' is never an outcome a worker reports.
 */
export type FailureClass = 'transient' | 'permanent' | 'undeserializable' | 'unknown-schema' | 'precondition' | 'crash';
/** 'never': quarantine at once (reason 'permanent'); 'bounded': retry within the class's attempt budget. */
export type Retry = 'never' | 'bounded';
/** 'requeued': straight back to the ready tail; 'delayed': parked until its due time, then to the ready tail. */
export type Disposition = 'completed' | 'requeued' | 'quarantined' | 'delayed'
  /** Dead-lettered with no dead-letter exchange: dropped (rabbitmq-quorum, deadLetterExchange 'none'). */
  | 'discarded';
/**
 * 'stalled' only under system 'bullmq': the job stalled more often than maxStalledCount allows.
 * 'max-length' only under 'rabbitmq-quorum' with a maxLength: a publish left the source over its
 * x-max-length (drop-head), so its oldest ready message was dead-lettered, never delivered.
 * 'expired' only under 'rabbitmq-quorum' with a messageTtlMs: it reached the ready head after its
 * message TTL ran out (x-death reason 'expired').
 */
export type Reason = 'permanent' | 'exhausted' | 'stalled' | 'max-length' | 'expired';
export type EventKind =
  | 'enqueued' | 'attempt' | 'requeued' | 'completed' | 'quarantined' | 'replayed'
  | 'leased' | 'expired' | 'delayed' | 'due'
  /** A quarantine arrival whose class raises an alert ('unknown-schema' by default). */
  | 'alert'
  /** A completion that overtook earlier-enqueued, unfinished jobs of its key (`key`, `overtook`). */
  | 'reorder'
  /** An operator's releaseKey(): this quarantined (or expired) holder stopped holding `key`. */
  | 'key-released'
  /** A quarantine entry reached its retention and was dropped for good; it can no longer be replayed. */
  | 'evidence-expired'
  /** The quarantine reached the alarm depth (`depth`). */
  | 'alarm-raised'
  /** The quarantine fell below the alarm depth again (`depth`). */
  | 'alarm-cleared'
  /** Recovery after a crash (lab.recover()) found the job in no place: it is lost, its id stays used. */
  | 'lost'
  /** Recovery after a crash found the job in two places and kept it once, in `place`. */
  | 'kept-once'
  /** Dead-lettered with no dead-letter exchange (deadLetterExchange 'none'): dropped, no entry kept (`reason`). */
  | 'discarded'
  /** An operator's patch(id, payload): the quarantined job's payload fixed (`payloadBytes`, `oldPayloadBytes`). */
  | 'patched';
/** Where a job is: the queue's five places (a 'kept-once' event's `place`). */
export type Place = 'ready' | 'delayed' | 'leased' | 'completed' | 'quarantine';
export type BackoffKind = 'none' | 'fixed' | 'exponential';
export type Jitter = 'none' | 'full' | 'equal' | 'decorrelated' | 'bullmq';
/**
 * Which ready job a worker may take:
 * - 'none' (default): the ready head; a retried job goes to the tail and is overtaken, even by later
 *   jobs of its own key (each such completion is a reorder).
 * - 'key': the first ready job whose key has no earlier-enqueued job still not completed (jobs
 *   without a key always qualify); held jobs keep their places (ready() says whom each waits for).
 *   A quarantined job holds its key until replayed and completed, or releaseKey().
 * - 'stall': only the head, ever; a failed head retries in place and a waiting head blocks everyone.
 */
export type Ordering = 'none' | 'key' | 'stall';
/**
 * Whose semantics the queue follows (docs/real-systems.md): 'lab' (the lesson's rules, the default),
 * or what one real system does differently: 'rabbitmq-quorum' (a message returned at once goes back
 * near the head), 'bullmq' (exponential backoff has no cap), 'sidekiq' (backoff kind 'none' is
 * Sidekiq's count^4 + 15 + rand(10)·(count + 1) s; retrying a dead job gives one more run), 'sqs'
 * (backoff kind 'none' waits for the visibility timeout, leaseMs; entries carry no reason), 'pubsub'
 * (maxAttempts is max_delivery_attempts, 5 to 100; deadLetterTopic 'none' redelivers until messageRetentionMs),
 * 'service-bus' (abandon redelivers at once: a backoff is refused; leaseMs is the lockDuration, at
 * most 5 minutes; entries carry DeadLetterReason and DeliveryCount), 'spring-kafka' (a blocking retry holds
 * the partition, or retry topics; entries carry kafka_dlt-* headers).
 */
export type System = 'lab' | 'rabbitmq-quorum' | 'bullmq' | 'sidekiq' | 'sqs' | 'pubsub' | 'service-bus' | 'spring-kafka' | 'kafka-connect';
/** rabbitmq-quorum: x-delivery-limit set from maxAttempts, or left to the version's default (3.x none, 4.0+ 20),
 *  or none at all on a classic queue ('classic-queue'). */
export type DeliveryLimit = 'explicit' | 'unset-3.x' | 'unset-4.x' | 'classic-queue';
/** rabbitmq-quorum: whether the source queue has a dead-letter exchange ('none': dead letters are dropped). */
export type DeadLetterExchange = 'set' | 'none';
/**
 * Where a retry's delay lives (lab system only): 'broker' (default: parked in delayed, back at the
 * ready tail), 'consumer-sleep' (the worker sleeps holding the job, busy meanwhile, and retries it
 * next; a sleep past the lease ends at its expiry, and the worker's own retry is then a duplicate),
 * 'retry-queue' (published to orders.retry and acked; a scheduler republishes it at the source's
 * tail, so a stalled partition runs on). A crash's retry is the broker's: requeued at once otherwise.
 */
export type DelayAt = 'broker' | 'consumer-sleep' | 'retry-queue';
/** One row of a table of lab.schema: a field of an options object, as the core describes it. */
export interface SchemaField {
  /** Its path in its object, as JS spells it: "backoff.baseMs" is options.backoff.baseMs. */
  readonly name: string;
  readonly kind: 'integer' | 'boolean' | 'choice';
  /** A form's label, e.g. "Base delay (ms)". */
  readonly label: string;
  /** One line: what it does. */
  readonly description: string;
  /** The object must give it (else the default applies). */
  readonly required: boolean;
  /** The core's default: a number, a boolean or a choice's name. */
  readonly default: number | boolean | string;
  /** Whether scenarios (links, snapshots) carry it. */
  readonly scenario: boolean;
  /** A mode's own field: the one system under which it may leave its default (policy rows only). */
  readonly onlyUnder?: System;
  /**
   * Its group's facts, where its table gives them (storm rows): the example a refusal of a group
   * that is not an object shows, whether the group may be null (none), and a text the core parses
   * in the object's place (a storm's budget: 'grpc:10:0.1').
   */
  readonly group?: { readonly name: string; readonly example: string; readonly nullable: boolean; readonly text?: string };
  /** Read, and then required, only when its group's kind is this one ('rate' for arrival.perSecond). */
  readonly onlyWith?: string;
  /** A form's short hint under the field (the storm lab's form). */
  readonly hint?: string;
  /** kind 'integer': the range, inclusive. */
  readonly min?: number;
  readonly max?: number;
  /** kind 'choice': the names it takes, in the core's order, each with a label. */
  readonly choices?: readonly { readonly name: string; readonly label: string }[];
}

/** The names of the core's integer fields, as its table (lab.integerFields) spells them. */
export type IntegerFieldName =
  | 'maxAttempts' | 'backoff.baseMs' | 'backoff.capMs' | 'leaseMs' | 'seed' | 'ms'
  /** A class's maxAttempts; messages name the class ("classes.precondition.maxAttempts"). */
  | 'classes.<class>.maxAttempts'
  | 'quarantine.retentionMs' | 'quarantine.alarmDepth'
  /** redrive()'s `max`. */
  | 'max'
  /** A crash action's `after`: the journal write after which the process dies. */
  | 'after'
  /** The simulated world's settings (core/scenario/world.h). */
  | 'world.workers' | 'world.workMs' | 'world.outage.startMs' | 'world.outage.endMs';

/**
 * Every thrown error is an Error with a `code`: 'invalid-type' (a TypeError: wrong JS type,
 * or a value that could not be read, such as a revoked Proxy), the core's 'invalid-argument' /
 * 'out-of-range' / 'too-large' (RangeError), 'already-exists', 'not-found', 'failed-precondition',
 * 'unsupported-version', 'resource-exhausted' (the heap budget has no room), 'stale-lease' (a
 * settle with a token that is unknown, already settled or expired), 'invalid-snapshot' (a snapshot
 * text that is malformed, truncated, altered or inconsistent), 'disposed', or 'aborted'
 * (the WebAssembly core stopped after a fatal error; every later call is refused). A refused
 * call changes nothing.
 */
export type ErrorCode =
  | 'invalid-type' | 'invalid-argument' | 'out-of-range' | 'already-exists' | 'not-found'
  | 'failed-precondition' | 'unsupported-version' | 'too-large' | 'resource-exhausted' | 'stale-lease'
  | 'invalid-snapshot' | 'disposed' | 'aborted';
export interface LabError extends Error { code: ErrorCode; }

// @generated begin BackoffOptions (scripts/gen-types.mjs from lab.schema; do not edit)
/** How long a job waits after a failed attempt before it is ready again (see docs/policy.md). */
export interface BackoffOptions {
  /**
   * How long a failed job waits before it is ready again: none, a fixed delay, or doubling up to the cap.
   * Default 'none'.
   */
  kind?: BackoffKind;
  /** The first delay; every delay when fixed. An integer from 1 to 86,400,000; default 1,000. */
  baseMs?: number;
  /** No delay is longer; at least the base delay. An integer from 1 to 86,400,000; default 60,000. */
  capMs?: number;
  /** Randomises each delay so retries spread out; decorrelated needs exponential backoff. Default 'none'. */
  jitter?: Jitter;
  /**
   * Jitter bullmq only: BullMQ's backoff.jitter j in thousandths; each delay is drawn from [v(1 - j), v). An
   * integer from 1 to 1,000; default 500.
   */
  jitterPermille?: number;
}
// @generated end BackoffOptions

/**
 * An override of one failure class's rule. Every field is optional and merged over the class's row
 * of the core's table (see ClassTable), field by field: `{ precondition: { maxAttempts: 3 } }` keeps
 * precondition's 1 s fixed backoff.
 */
export interface ClassRuleOptions {
  /** 'never' quarantines at once (reason 'permanent'); 'bounded' retries while budget is left. */
  retry?: Retry;
  /**
   * The class's attempt budget, the first attempt included: an integer from 0 to 1,000,000, where 0
   * means the policy's maxAttempts. Capped by the policy's maxAttempts (rules() shows the budget in force).
   * Attempts are one count per job, whatever the classes of its failures.
   */
  maxAttempts?: number;
  /**
   * The class's own backoff, merged field by field over the class's own (precondition: fixed 1,000 ms,
   * no jitter; every other class: the same defaults as the policy's backoff option); or 'policy' for
   * the policy's backoff. Checked like the policy's, named "classes.<class>.backoff.…".
   */
  backoff?: BackoffOptions | 'policy';
  /** An arrival in quarantine with this class raises an 'alert' event and marks the entry. */
  alert?: boolean;
}

/** Overrides of the class table, by class; a class left out keeps its default row. */
export type ClassOptions = { readonly [C in FailureClass]?: ClassRuleOptions };

/** One class's rule as configured (Policy.classes): every field present. */
export interface ClassRule {
  retry: Retry;
  /** 0: the policy's maxAttempts. May exceed the policy's; the budget in force never does (Queue.rules()). */
  maxAttempts: number;
  /** The class's own backoff, or 'policy' for the policy's. */
  backoff: Required<BackoffOptions> | 'policy';
  alert: boolean;
}

/** One class's rule in force (Queue.rules()): maxAttempts resolved and capped, the backoff it uses. */
export interface ResolvedClassRule {
  retry: Retry;
  /** The attempt budget in force: the class's, never above the policy's (0 resolved to the policy's). */
  maxAttempts: number;
  backoff: Required<BackoffOptions>;
  alert: boolean;
}

/**
 * The class table, one row per failure class. The core's defaults (the article's table):
 * - transient: bounded, maxAttempts 0 (the policy's), the policy's backoff
 * - permanent: never
 * - undeserializable: never
 * - unknown-schema: never, alert
 * - precondition: bounded, maxAttempts 2, fixed 1,000 ms backoff with no jitter
 * - crash (a lease that expired unsettled): bounded, maxAttempts 0 (the policy's), the policy's backoff
 */
export type ClassTable = { [C in FailureClass]: ClassRule };

// @generated begin PolicyOptions (scripts/gen-types.mjs from lab.schema; do not edit)
/** The policy fields a scenario link carries (scenario objects take these); absent fields take the core's defaults. */
export interface PolicyOptions {
  /** The policy's backoff (lab.schema.backoff). */
  backoff?: BackoffOptions;
  /**
   * Overrides of the class table, merged over the defaults row by row and field by field
   * (lab.schema.classRule).
   */
  classes?: ClassOptions;
  /** The policy's quarantine fields; absent ones keep their defaults. */
  quarantine?: QuarantineOptions;
  /** The policy's effects fields; absent ones keep their defaults. */
  effects?: EffectsOptions;
  /** The policy's antiPatterns fields; absent ones keep their defaults. */
  antiPatterns?: AntiPatternOptions;
  /** Total attempts a job gets, the first one included. An integer from 1 to 1,000,000; default 3. */
  maxAttempts: number;
  /**
   * How long a lease lasts before it expires unsettled; the attempt stays counted. An integer from 1 to
   * 86,400,000; default 30,000.
   */
  leaseMs?: number;
  /**
   * Seeds the queue's own random streams (jitter), so a run repeats exactly. An integer from 0 to
   * 4,294,967,295; default 1.
   */
  seed?: number;
  /**
   * Which ready job a worker may take: the head, the first of a free key, or only the head ever. Default
   * 'none'.
   */
  ordering?: Ordering;
  /**
   * Whose semantics apply: the lab's rules, or what one real system does differently (docs/real-systems.md).
   * Default 'lab'.
   */
  system?: System;
  /**
   * BullMQ only: stalls (crashes) a job may have before it fails; a stall is not an attempt. An integer from
   * 0 to 1,000; default 1.
   */
  maxStalledCount?: number;
  /**
   * BullMQ only: removeOnFail N; each failure trims the failed set to its newest N entries; 0: no count. An
   * integer from 0 to 1,000,000,000; default 0.
   */
  removeOnFailCount?: number;
  /**
   * Sidekiq only: dead_max_jobs; each kill trims the Dead set to its newest N - 1 entries. An integer from 1
   * to 1,000,000,000; default 10,000.
   */
  deadMaxJobs?: number;
  /**
   * Sidekiq only: 6.4.1 adds rand(10) * (count + 1) s to a fixed or exponential delay; under 1 s it uses its
   * own schedule. Default false.
   */
  retryInJitter?: boolean;
  /**
   * Sidekiq only: 6.4.1 cannot kill a job early, so every failure but a crash retries up to maxAttempts.
   * Default false.
   */
  retryEveryError?: boolean;
  /**
   * RabbitMQ quorum queue only: x-delivery-limit from maxAttempts, or the version's (3.x none, 4.0+ 20), or a
   * classic queue's (no count; a return keeps its place). Default 'explicit'.
   */
  deliveryLimit?: DeliveryLimit;
  /**
   * RabbitMQ quorum queue only: with none, a message dead-lettered (delivery_limit, rejected) is dropped, not
   * kept. Default 'set'.
   */
  deadLetterExchange?: DeadLetterExchange;
  /**
   * RabbitMQ quorum queue only: the dead-letter queue's x-max-length with overflow drop-head; each dead
   * letter past it drops the oldest; 0: no limit. An integer from 0 to 1,000,000,000; default 0.
   */
  dlqMaxLength?: number;
  /**
   * BullMQ only: removeOnFail true; a job that fails for good is removed, not kept in the failed set. Default
   * false.
   */
  removeOnFail?: boolean;
  /**
   * Sidekiq only: dead: false (retry: false is this with maxAttempts 1); a job that fails for good is
   * dropped, not kept in the Dead set. Default false.
   */
  skipDeadSet?: boolean;
  /**
   * Sidekiq only: retry_for (7.1.3+): no retry after the first failure's time + this; replaces the count
   * (8.1.0); 0: none. An integer from 0 to 9,007,199,254,740,991; default 0.
   */
  retryForMs?: number;
  /**
   * Sidekiq only: sidekiq_retries_exhausted returns :discard (7.2+); a job that fails for good is dropped,
   * not kept in the Dead set. Default false.
   */
  discardOnExhausted?: boolean;
  /**
   * RabbitMQ quorum queue only: the source queue's x-max-length (overflow drop-head); a publish past it
   * dead-letters the oldest ready message (maxlen); 0: no limit. An integer from 0 to 1,000,000,000; default
   * 0.
   */
  maxLength?: number;
  /**
   * RabbitMQ quorum queue only: the source queue's x-message-ttl; a message reaching the ready head this long
   * after its publish is dead-lettered (expired); 0: none. An integer from 0 to 9,007,199,254,740,991;
   * default 0.
   */
  messageTtlMs?: number;
  /**
   * RabbitMQ quorum queue only: 4.3's delayed-retry-type: a return waits min(min x count, max); the lab's
   * failures are rejects: all and failed delay them. Default 'disabled'.
   */
  delayedRetryType?: 'disabled' | 'all' | 'failed' | 'returned';
  /**
   * RabbitMQ quorum queue only: 4.3's delayed-retry-min: the delay per delivery count (ms). An integer from 0
   * to 86,400,000; default 0.
   */
  delayedRetryMinMs?: number;
  /**
   * RabbitMQ quorum queue only: 4.3's delayed-retry-max: no delay is longer (ms). An integer from 0 to
   * 86,400,000; default 0.
   */
  delayedRetryMaxMs?: number;
  /**
   * Google Cloud Pub/Sub only: set: maxAttempts deliveries, then the dead-letter topic; none: redelivered
   * until messageRetentionMs after publish, then deleted. Default 'set'.
   */
  deadLetterTopic?: 'set' | 'none';
  /**
   * Google Cloud Pub/Sub only: message_retention_duration: with no dead-letter topic a message expires this
   * long after its publish. An integer from 600,000 to 2,678,400,000; default 604,800,000.
   */
  messageRetentionMs?: number;
  /**
   * Spring Kafka only: @RetryableTopic: a failed record goes through retry topics and the partition moves on;
   * off, the DefaultErrorHandler holds the partition. Default false.
   */
  retryTopics?: boolean;
  /**
   * Spring Kafka only: ExponentialBackOff's multiplier in thousandths (1.5 is 1500); each delay is the last
   * times it, in whole ms, up to capMs. An integer from 1,000 to 10,000; default 2,000.
   */
  multiplierPermille?: number;
  /**
   * Spring Kafka only: no DeadLetterPublishingRecoverer: a record that fails for good is logged and skipped,
   * not sent to a dead-letter topic. Default false.
   */
  noRecoverer?: boolean;
  /**
   * RabbitMQ quorum queue only: How the consumer returns a failure: basic.reject is counted; 4.3's basic.nack
   * is not, so delivery-limit never ends its retries. Default 'reject'.
   */
  requeueWith?: 'reject' | 'nack';
  /**
   * RabbitMQ quorum queue only: Who delays a failure: the broker (its delayed retry, if any), or the
   * consumer's x-opt-delivery-time (4.3), set from the backoff. Default 'broker'.
   */
  deliveryTime?: 'broker' | 'backoff';
  /**
   * Amazon SQS only: a redrive moves at most this many a second (StartMessageMoveTask), each as a new message
   * with a fresh retention; 0: the lab's replay. An integer from 0 to 500; default 0.
   */
  moveTaskRate?: number;
  /**
   * Kafka Connect only: errors.tolerance all: a record failing for good is skipped or goes to the DLQ topic;
   * off (none, the default), the task fails and stops. Default false.
   */
  toleranceAll?: boolean;
  /**
   * Kafka Connect only: errors.deadletterqueue.topic.name is set; blank (the default), a tolerated record is
   * skipped. Default false.
   */
  dlqTopic?: boolean;
  /**
   * Kafka Connect only: errors.deadletterqueue.context.headers.enable: a dead letter carries the
   * __connect.errors.* headers. Default false.
   */
  contextHeaders?: boolean;
  /**
   * Kafka Connect only: errors.retry.timeout: retriable failures retry until this long after the first; 0:
   * none; 9007199254740991: -1, forever. An integer from 0 to 9,007,199,254,740,991; default 0.
   */
  retryTimeoutMs?: number;
  /**
   * Azure Service Bus only: defaultMessageTimeToLive: a message expires this long after its enqueue (abandons
   * keep it): dead-lettered or dropped; 0: none. An integer from 0 to 9,007,199,254,740,991; default 0.
   */
  defaultMessageTtlMs?: number;
  /**
   * Azure Service Bus only: deadLetteringOnMessageExpiration; an expired message goes to $DeadLetterQueue
   * (TTLExpiredException) instead of being dropped. Default false.
   */
  deadLetterOnExpiry?: boolean;
  /**
   * Where a retry waits: the broker's delay, a worker asleep holding it (busy, within its lease), or a retry
   * queue republishing it at the tail (lab only). Default 'broker'.
   */
  delayAt?: DelayAt;
  /**
   * Teaching switch: a move into quarantine removes the job from its source first, so a crash between the two
   * writes loses it. Default false.
   */
  unsafeQuarantineOrder?: boolean;
}
// @generated end PolicyOptions

// @generated begin PolicyGroups (scripts/gen-types.mjs from lab.schema; do not edit)
/** PolicyOptions.quarantine. */
export interface QuarantineOptions {
  /**
   * An entry this old (from its arrival) is dropped for good; 0 keeps it forever. An integer from 0 to
   * 9,007,199,254,740,991; default 0.
   */
  retentionMs?: number;
  /**
   * The depth alarm is raised at this many entries and cleared below; 0: no alarm. An integer from 0 to
   * 1,000,000,000; default 0.
   */
  alarmDepth?: number;
}

/** PolicyOptions.effects. */
export interface EffectsOptions {
  /**
   * Side effect: every attempt that reads its payload charges a card before its outcome is known (the
   * ledger). Default false.
   */
  charge?: boolean;
  /**
   * The charge carries the job's id as its key: the payment side applies one charge per key. Default false.
   */
  idempotencyKey?: boolean;
}

/** PolicyOptions.antiPatterns. */
export interface AntiPatternOptions {
  /**
   * The worker rewrites the count when it reports a failure; a crash reports nothing, so it is not counted.
   * Default false.
   */
  countInBody?: boolean;
  /**
   * The budget is compared with the count before this attempt: a budget of 3 gives a fourth attempt. Default
   * false.
   */
  decideBeforeCount?: boolean;
  /**
   * A consumer of the dead-letter queue sends every entry straight back to the source queue: the loop
   * returns. Default false.
   */
  dlqToSource?: boolean;
}
// @generated end PolicyGroups

/** One charge of the side-effect ledger. */
export interface Charge {
  id: string;
  /** The attempt that charged. */
  attempt: number;
  at: number;
  /** false: deduplicated by its idempotency key (the payment side had seen the key). */
  applied: boolean;
  /** The worker died after charging (its lease expired). */
  crashed: boolean;
  outcome: Outcome;
}

/** What the outside world saw of the attempts (core/queue/ledger.h); empty unless effects.charge. */
export interface Ledger {
  on: boolean;
  keyed: boolean;
  charges: Charge[];
  applied: number;
  deduplicated: number;
  /** Applied charges beyond the first, per job. */
  duplicates: number;
  /** Jobs charged that did not complete (in quarantine, dropped or lost). */
  partial: number;
  partialIds: string[];
  duplicateIds: string[];
}

/** A queue's policy (createQueue()): the fields a link carries, and the journal switch. */
export interface QueueOptions extends PolicyOptions {
  /**
   * Keep the journal of durable writes (default true); false: journal() is refused
   * ('failed-precondition'). Bookkeeping, not a rule: no link carries it.
   */
  journal?: boolean;
}

/** The policy fields a link carries, defaults filled in (parsed scenarios). */
export interface ScenarioPolicy extends PolicyOptions {
  backoff: Required<BackoffOptions>;
  leaseMs: number;
  seed: number;
  /** The whole class table as configured, every row present (defaults included). */
  classes: ClassTable;
  ordering: Ordering;
  system: System;
  quarantine: Required<QuarantineOptions>;
  unsafeQuarantineOrder: boolean;
  effects: Required<EffectsOptions>;
  antiPatterns: Required<AntiPatternOptions>;
}

/** The whole policy, defaults filled in (Queue.policy()); createQueue() takes it. */
export interface Policy extends ScenarioPolicy {
  journal: boolean;
}

export interface Job { id: string; payload: string; attempts: number; }

/** A job as ready() and completed() show it: with its ordering key, null when it has none. */
export interface KeyedJob extends Job { key: string | null; }

/** A ready job (ready()). */
export interface ReadyJob extends KeyedJob {
  /** Under 'key' ordering, the id of the earlier job of its key it waits for; null when it may run. */
  heldBy: string | null;
}

/** A job to enqueue (enqueueMany(), scenario jobs): `key`, if present, a non-empty string of at most lab.limits.keyBytes. */
export interface JobInput { id: string; payload: string; key?: string; }

/** One completion that overtook earlier-enqueued, not yet completed jobs of its key (reorders()). */
export interface Reorder {
  key: string;
  /** The job that completed. */
  id: string;
  /** The earlier jobs of its key it overtook, in enqueue order. */
  overtook: string[];
}

/** The quarantine's depth alarm (alarm()). */
export interface Alarm {
  raised: boolean;
  /** Entries in quarantine now. */
  depth: number;
  /** The policy's quarantine.alarmDepth; 0: no alarm. */
  threshold: number;
}

export interface QuarantineEntry extends KeyedJob {
  reason: Reason;
  /**
   * The reason as the policy's system names it, present only when the system is not 'lab':
   * RabbitMQ's x-death reason ('delivery_limit', 'rejected', 'maxlen', 'expired'), '' under SQS (a DLQ message carries
   * none), else `reason`.
   */
  systemReason?: string;
  /** The worker's error text on the final attempt. */
  lastError: string;
  /** The step at which the job arrived in quarantine. */
  step: number;
  /** The class of the failure that quarantined it ('crash' for a lease that expired). */
  class: FailureClass;
  /** True if its class raised an alert when it arrived (an 'alert' event). */
  alert: boolean;
  /** The time of the failure that quarantined it: its settle (or process()), or its lease's expiresAt. */
  arrivedAt: number;
  /** The time of its first attempt since it was enqueued or last replayed. */
  firstAttemptAt: number;
  /**
   * The queue it came from, the one a replay returns it to: the lab's one source queue, 'orders',
   * in every mode (derived from the policy, not stored: snapshots and journals carry nothing new).
   */
  sourceQueue: string;
  /** Present when the system is not 'lab': the entry as that system records it (SystemRecord). */
  systemRecord?: SystemRecord;
  /**
   * Present with systemRecord: what that system's operators call the record ('x-death record',
   * 'Pub/Sub dead-letter attributes', '$DeadLetterQueue message', 'kafka_dlt-* headers'; SystemRules::RecordTitle).
   */
  systemRecordTitle?: string;
  /** Present with systemRecord: the names of its fields that are virtual-ms instants ('time', 'SentTimestamp', …). */
  systemRecordTimes?: string[];
  /**
   * Present when a retention applies: when it starts counting (its arrival; under 'sqs' the job's
   * first enqueue, as SQS keeps a moved message's enqueue time) and when it runs out (a timer drops
   * the entry then; under 'bullmq' and 'sidekiq', whose trims are lazy, the first trim from then on).
   */
  retentionFrom?: number;
  retentionUntil?: number;
}

/** One x-death entry: one per {queue, reason}, newest first; `time` is the first death's there (virtual ms). */
export interface XDeathEntry {
  queue: string;
  reason: 'delivery_limit' | 'rejected' | 'maxlen' | 'expired';
  count: number;
  time: number;
}

/**
 * A quarantine entry in the system's own field names. rabbitmq-quorum: its x-death record and
 * x-first-death-*, kept across republishing. sqs: only the body, the receive count, the first
 * enqueue (SentTimestamp; a standard queue's DLQ retention counts from it) and the source queue
 * (an SQS DLQ message carries no reason). bullmq: attemptsMade (stalls excluded), stalledCounter,
 * failedReason, finishedOn. sidekiq: retry_count and error_message. pubsub: data and the
 * CloudPubSubDeadLetterSource* attributes. service-bus: DeadLetterReason, DeadLetterErrorDescription,
 * DeliveryCount and the DLQ's path. spring-kafka: the kafka_dlt-* headers. The lab's source queue is 'orders'.
 */
export interface SystemRecord {
  'x-death'?: XDeathEntry[];
  'x-first-death-queue'?: string;
  'x-first-death-reason'?: 'delivery_limit' | 'rejected' | 'maxlen' | 'expired';
  body?: string;
  ApproximateReceiveCount?: number;
  SentTimestamp?: number;
  sourceQueue?: string;
  attemptsMade?: number;
  stalledCounter?: number;
  failedReason?: string;
  finishedOn?: number;
  retry_count?: number;
  error_message?: string;
  data?: string;
  CloudPubSubDeadLetterSourceDeliveryCount?: number;
  CloudPubSubDeadLetterSourceSubscription?: string;
  CloudPubSubDeadLetterSourceTopicPublishTime?: number;
  DeadLetterReason?: string;
  DeadLetterErrorDescription?: string;
  DeliveryCount?: number;
  path?: string;
  'kafka_dlt-original-topic'?: string;
  'kafka_dlt-original-partition'?: number;
  'kafka_dlt-exception-message'?: string;
}

export interface AttemptResult {
  id: string;
  /** This attempt's number, 1-based. */
  attempt: number;
  outcome: Outcome;
  disposition: Disposition;
  /** Present when disposition is 'quarantined' (never 'max-length' or 'expired': those were never delivered). */
  reason?: Exclude<Reason, 'max-length' | 'expired'>;
  /** Present when disposition is 'delayed': the backoff chosen, in ms (> 0). */
  delayMs?: number;
  /** Present when disposition is 'delayed': when the job joins the ready tail. */
  dueAt?: number;
}

/** What lease() hands a worker. The attempt is counted already. */
export interface Lease {
  id: string;
  payload: string;
  /** The attempt this lease counted, 1-based. */
  attempt: number;
  /** "lease-<n>", never reused within the queue; settle() takes it. */
  token: string;
  leasedAt: number;
  /** When the lease expires unless settled first. */
  expiresAt: number;
}

/** Queue.locate(): a job's place and what its place's view would show of it. */
export type JobLocation =
  | { place: 'ready'; attempts: number; /** The id it waits for under key ordering, or null. */ heldBy: string | null }
  | { place: 'delayed'; attempts: number; dueAt: number }
  | { place: 'leased'; attempts: number; token: string; expiresAt: number }
  | { place: 'completed'; attempts: number }
  | { place: 'quarantine'; attempts: number; reason: Reason; class: FailureClass; /** QuarantineEntry.sourceQueue */ sourceQueue: string }
  | { place: 'dropped' | 'lost' | 'discarded'; attempts: number };

export interface DelayedJob extends Job {
  /** When it joins the ready tail. */
  dueAt: number;
  /** Where it waits, when not in the broker (DelayAt): 'worker' (asleep holding it) or the retry queue's name. */
  waitsIn?: 'worker' | 'orders.retry';
}

export interface LeasedJob extends Job {
  token: string;
  expiresAt: number;
}

/**
 * What one job does when a simulated worker runs it (core/scenario/world.h). Attempt numbers are the
 * queue's (1-based, reset by a replay).
 *   healthy       succeeds (fails transiently during the outage if it needs the dependency)
 *   poison        every attempt fails with `failure` (a failing outcome)
 *   flaky         attempts 1..count fail transiently, then it succeeds
 *   precondition  attempts that finish before `until` (ms) fail with 'precondition'
 *   crashes       the worker running attempts 1..count dies: nothing settles, the lease expires
 *   script        attempt n gets the n-th letter of `script` (s t p u v q, or c: the worker
 *                 crashes), then success
 */
/** 'malformed': its payload cannot be read (undeserializable) until an operator's patch(id, payload). */
export type BehaviourKind = 'healthy' | 'poison' | 'flaky' | 'precondition' | 'crashes' | 'script' | 'malformed';

export interface BehaviourOptions {
  id: string;
  kind: BehaviourKind;
  failure?: Outcome;
  count?: number;
  until?: number;
  script?: string;
  /** Default true: during the outage its attempts fail transiently. */
  needsDependency?: boolean;
}

/** The simulated world that plays a queue: behaviours, a dependency outage and a worker pool. */
export interface WorldOptions {
  /** How many attempts run at once, 1..64 (default 1). */
  workers?: number;
  /** How long one attempt takes, lease to settle, in ms (default 100). */
  workMs?: number;
  /** The dependency is down in [startMs, endMs); null or absent: no outage. */
  outage?: { startMs: number; endMs: number } | null;
  /** Jobs not listed are healthy. */
  behaviours?: ReadonlyArray<BehaviourOptions>;
}

/** A world as a parsed link gives it: every field present. */
export interface World {
  workers: number;
  workMs: number;
  outage: { startMs: number; endMs: number } | null;
  behaviours: (BehaviourOptions & { needsDependency: boolean })[];
}

/**
 * One run of the bounded path's retry delays (core/systems/backoff.h WorstDelay): after each failed
 * attempt firstAttempt..lastAttempt the longest wait is delayMs, given first (in lab.failureClasses
 * order) by `class`, with its own backoff or (ownBackoff false) the policy's.
 */
export interface WorstDelay { firstAttempt: number; lastAttempt: number; delayMs: number; class: FailureClass; ownBackoff: boolean; }
/**
 * The bounded path: the most attempts and the longest time from a job's first lease to quarantine,
 * and its terms: timeMs = (attempts + stalls) * leaseMs + the sum of (lastAttempt - firstAttempt + 1) * delayMs.
 */
export interface WorstCase {
  attempts: number; timeMs: number;
  /** Each attempt's lease, run to its expiry (the policy's leaseMs). */
  leaseMs: number;
  /** The leases BullMQ's stall budget adds, each run to its expiry (maxStalledCount under 'bullmq'; 0 elsewhere). */
  stalls: number;
  /** The first class whose budget is `attempts`. */
  attemptsClass: FailureClass;
  /** The retries' longest delays, in attempt order; equal neighbours from one class are one run. */
  delays: WorstDelay[];
  /**
   * antiPatterns.countInBody with a crash class that retries (not under 'bullmq', whose stall
   * budget bounds it): a crash is never counted, so a job whose worker keeps crashing is leased
   * forever; `attempts` and `timeMs` bound only the other failures. (antiPatterns.decideBeforeCount
   * is in `attempts` already: one more than a budget.)
   */
  unbounded: boolean;
}

export interface TimelineEvent {
  /** 1, 2, 3, … in order. */
  seq: number;
  /** The queue's step when it happened; 0 = before the first step. */
  step: number;
  /** The accepted call that caused it, 1-based (stats().actions counts them). */
  action: number;
  /** Virtual milliseconds. */
  time: number;
  kind: EventKind;
  id: string;
  /** 'attempt', 'leased', 'expired': this attempt's number; 'replayed': the count before the reset; else the job's count. */
  attempts: number;
  /** The attempt budget in force; for a decided failure ('attempt', 'expired'), its class's. */
  maxAttempts: number;
  outcome?: Outcome;          // 'attempt'
  disposition?: Disposition;  // 'attempt', 'expired'
  /** The failure's class: a failing 'attempt' (its outcome), 'expired' ('crash'), 'alert'. */
  class?: FailureClass;
  /** 'attempt': the worker's error text; 'expired': why. */
  error?: string;
  reason?: Reason;            // 'quarantined', and a quarantining 'attempt' or 'expired'
  payloadBytes?: number;      // 'enqueued', 'replayed' (the size then), 'patched' (the new size)
  oldPayloadBytes?: number;   // 'patched': the size before
  token?: string;             // 'leased', 'expired', and an 'attempt' that settled a lease
  /** 'leased': its expiry; 'delayed', and a delaying 'attempt' or 'expired': the due time. */
  until?: number;
  /** 'delayed', and a delaying 'attempt' or 'expired': until - time. */
  delayMs?: number;
  /** 'delayed', 'due', and a delaying 'attempt' or 'expired': where it waits, when not the broker. */
  delayAt?: Exclude<DelayAt, 'broker'>;
  /** With delayAt: where it waits, 'worker' (asleep holding it) or the retry queue's name. */
  waitsIn?: 'worker' | 'orders.retry';
  /** With delayAt 'consumer-sleep': the sleep outlasted the lease, so the wait ends at its expiry. */
  sleepCut?: true;
  /** 'reorder', 'key-released': the ordering key. */
  key?: string;
  /** 'reorder': the earlier jobs of its key it overtook, in enqueue order. */
  overtook?: string[];
  /** 'alarm-raised', 'alarm-cleared': the quarantine's depth then. */
  depth?: number;
  /** 'kept-once': where recovery kept the job it found in two places. */
  place?: Place;
  /** 'replayed' by an SQS move task (moveTaskRate > 0): the new message's MessageId. */
  messageId?: string;
  /** One stable line, byte-identical to the native core's (golden files). */
  text: string;
  /** One sentence stating the rule applied. */
  explanation: string;
}

export interface QueueStats {
  step: number; ready: number; completed: number; quarantined: number; events: number; maxAttempts: number;
  /** The virtual time in ms. */
  now: number;
  /** Accepted calls that changed the queue. */
  actions: number;
  delayed: number;
  /** Active leases. */
  leased: number;
  /** Completions that broke their key's order (reorders()). */
  reorders: number;
  /** Quarantine entries dropped at their retention. */
  expired: number;
  /** Jobs a crash left in no place (lab.recover(); each a 'lost' event). */
  lost: number;
  /** Present when the policy has deadLetterExchange 'none': jobs dropped as dead letters (each a 'discarded' event). */
  discarded?: number;
}

/** A job dead-lettered with no dead-letter exchange (q.discarded(), a session view's `discarded`). */
export interface DiscardedJob {
  id: string;
  payload: string;
  attempts: number;
  /** Why it was dead-lettered: 'exhausted' (the delivery limit), 'permanent' (a reject), 'max-length' (drop-head) or 'expired' (its TTL). */
  reason: Reason;
  /** RabbitMQ's name for it: 'delivery_limit', 'rejected', 'maxlen' or 'expired'. */
  systemReason: string;
  /** When it was dropped (virtual ms). */
  at: number;
}

/** A durable write's kind (JournalRecord.op). */
export type WriteOp =
  | 'create' | 'enqueue' | 'put-ready' | 'remove-ready' | 'put-delayed' | 'remove-delayed' | 'put-lease'
  | 'end-lease' | 'put-completed' | 'put-quarantine' | 'remove-quarantine' | 'release-key' | 'clock'
  | 'set-payload';

/** One durable write of a queue's journal (Queue.journal()). */
export interface JournalRecord {
  /** 1-based within the journal. */
  write: number;
  op: WriteOp;
  /** The job it writes; null for 'create' and 'clock'. */
  id: string | null;
  /** The record itself: opaque text (one line) with its own check; what lab.recover() reads. */
  record: string;
}

/** An element of lab.recover()'s journal: a record from Queue.journal() (only `record` is read), or its record string. */
export type JournalInput = Pick<JournalRecord, 'record'> | string;

/** Where lab.recover() stops the journal. */
export interface RecoverOptions {
  /**
   * How many of the journal's writes reached the disk: an integer from 0 (1 when recovering from
   * creation: write 1 creates the queue) to the journal's length, which is the default.
   */
  crashAfter?: number;
  /** Then a half-written next write, which recovery detects and discards (default false). */
  torn?: boolean;
}

/** What lab.recover() rebuilt. */
export interface Recovery {
  /** The recovered queue; its journal starts empty and follows its own state. */
  queue: Queue;
  /** Jobs found in no place, in enqueue order (each a 'lost' event; their ids stay used). */
  lost: string[];
  /** Jobs found in two places and kept once, in enqueue order (each a 'kept-once' event). */
  duplicated: string[];
  /** Journal writes applied. */
  applied: number;
  /** True if a torn write was detected and discarded. */
  tornDiscarded: boolean;
}

/** One clause of a goal as Queue.checkGoal() found it. */
export interface GoalClauseCheck {
  /** The clause's canonical text ("quarantined b as exhausted"). */
  text: string;
  /** Whether it holds now ('not' applied). A clause naming a job the queue was never given is never met. */
  met: boolean;
  /** What is true now, in a few words, the same with or without 'not': "b is ready with 2 attempts", "steps = 4", "no job b". */
  actual: string;
}

/** A goal checked against a queue (Queue.checkGoal()). */
export interface GoalCheck {
  /** True when every clause is met. */
  met: boolean;
  /** One per clause, in the goal's order. */
  clauses: GoalClauseCheck[];
}

export interface Queue {
  /**
   * Appends a job at the ready tail. Ids are unique over everything the queue was ever given.
   * `options.key` (a non-empty string of at most lab.limits.keyBytes) orders it among its key's jobs.
   */
  enqueue(id: string, payload: string, options?: { key?: string }): void;
  /** All or nothing. */
  enqueueMany(jobs: ReadonlyArray<JobInput>): void;
  /** One attempt at the head job; null when nothing is ready. The outcome is validated first. */
  process(outcome: Outcome, errorText?: string): AttemptResult | null;
  /**
   * One attempt per letter ('s' success, 't' transient, 'p' permanent; only these three) until nothing
   * is ready; returns the attempts made.
   */
  processMany(outcomes: string, errorText?: string): number;
  /**
   * An operator's explicit replay: attempts reset to 0, appended at the ready tail. False if not quarantined
   * (or if a restored snapshot left the queue's counters within 2^48 of 2^53 - 1: docs/snapshot-format.md).
   * `{ resetAttempts: false }` (system bullmq only; an invalid-argument error elsewhere) keeps its attempts,
   * as BullMQ's job.retry() without resetAttemptsMade: one more run, and a failure there is final.
   */
  replay(id: string, options?: { resetAttempts?: boolean }): boolean;
  /**
   * One scenario action, applied by the core exactly as a script plays it (the same rule a
   * session and a link use). An action that would find nothing to do is refused ('not-found',
   * 'failed-precondition', named "apply: …") and nothing changes. Returns null, or a crash's
   * report; after a crash the queue is the recovered one (a later crash restarts from it).
   */
  apply(action: ScenarioAction): CrashReport | null;
  /**
   * Where job `id` is now, with the fields its place's view shows, in one lookup (no pass over
   * the views); null for an id this queue was never given. 'dropped': its quarantine entry reached
   * its retention; 'lost': a crash left it in no place; 'discarded': dead-lettered with no dead-letter exchange.
   */
  locate(id: string): JobLocation | null;
  /** Takes the ready head and counts its attempt now; null when nothing is ready. */
  lease(): Lease | null;
  /**
   * Ends a lease with the worker's outcome, decided like process(). The outcome and error text
   * are checked first, then the token: unknown, settled or expired throws code 'stale-lease'.
   */
  settle(token: string, outcome: Outcome, errorText?: string): AttemptResult;
  /** Moves the clock on by `ms` (an integer from 0; time stays within 2^53 - 1), firing due timers in order. */
  advance(ms: number): void;
  /** Jumps to the earliest pending timer and fires what is due then: the new time, or null if none is pending. */
  advanceToNext(): number | null;
  /**
   * An operator's decision to let `key`'s jobs run past its holders in quarantine (or whose evidence
   * expired): the number of holders released, each a 'key-released' event (0: nothing changed).
   * Holders in flight or delayed keep holding. The completion past a released holder is a reorder.
   */
  releaseKey(key: string): number;
  /**
   * An operator's fix before a replay: gives the quarantined job `id` the payload `payload`, a
   * 'patched' event (the sizes before and after) and a journal write; its entry keeps its id,
   * attempts and reason, and a replay(id) then runs the fixed job. Throws, nothing changed, for an
   * unknown id (not-found), a job not in quarantine (failed-precondition) or a payload past the limit.
   */
  patch(id: string, payload: string): void;
  /**
   * Replays the `max` oldest quarantine entries (by arrival), each exactly like replay(id); returns how
   * many moved. `max`: an integer from 1 to 1,000,000,000 (lab.integerFields.max).
   */
  redrive(options: { max: number }): number;
  /**
   * What the simulated world does next to this queue, as a script action (a lease, a settle with
   * the world's verdict, an advance to the next worker finishing, or advanceToNext), or null when
   * nothing will ever happen again. Changes nothing: apply the action to play it.
   */
  nextWorldAction(world: WorldOptions): ScenarioAction | null;
  /** The quarantine's depth alarm. */
  alarm(): Alarm;
  /** Completions that broke their key's order, in the order they happened. `from` / `count` select a slice. */
  reorders(from?: number, count?: number): Reorder[];
  /** The virtual time in ms. */
  now(): number;
  /** The most attempts and the longest time a job can spend from its first lease to quarantine. */
  worstCase(): WorstCase;
  /** The whole policy, defaults filled in, the class table as configured. */
  policy(): Policy;
  /**
   * The whole state as a canonical text (equal states, equal texts) with a checksum, the same bytes
   * as the native core's; lab.restoreQueue() reads it back. Starts a new journal, which follows it.
   * 'too-large' past lab.limits.snapshotBytes (nothing changes).
   */
  snapshot(): string;
  /** The same text as snapshot(), the journal left as it is. */
  snapshotText(): string;
  /**
   * The durable writes since the last snapshot() (or since creation, whose first write is 'create'),
   * in order; fresh copies. 'failed-precondition' when the policy keeps no journal (journal: false).
   */
  journal(): JournalRecord[];
  /** Every failure class's rule in force: maxAttempts resolved and capped by the policy's, its backoff filled in. */
  rules(): { [C in FailureClass]: ResolvedClassRule };
  /** Fresh copies: head first. `from` / `count` select a slice (default: all). */
  ready(from?: number, count?: number): ReadyJob[];
  /** Fresh copies, in completion order. */
  completed(from?: number, count?: number): KeyedJob[];
  /** Fresh copies, in arrival order. */
  quarantined(from?: number, count?: number): QuarantineEntry[];
  /** Jobs dropped as dead letters with no dead-letter exchange, in enqueue order (empty otherwise). */
  discarded(from?: number, count?: number): DiscardedJob[];
  /** Fresh copies, in firing order: earliest due first, ties in the order set. */
  delayed(from?: number, count?: number): DelayedJob[];
  /** Active leases, in expiry order. */
  leased(from?: number, count?: number): LeasedJob[];
  stats(): QueueStats;
  /** Events from index `from` (0-based), at most `count`. */
  timeline(from?: number, count?: number): TimelineEvent[];
  /** Every event's `text`, each followed by "\n". */
  timelineText(): string;
  /**
   * Checks a goal (docs/goals.md), e.g. "quarantined b as exhausted; steps <= 3", against the queue now.
   * Never changes the queue. A goal that does not parse throws lab.parseGoal()'s error.
   */
  checkGoal(goal: string): GoalCheck;
  /**
   * Frees the wasm object; every later call throws (code 'disposed'). After the core aborted it
   * only forgets the queue and does not throw.
   */
  dispose(): void;
  readonly disposed: boolean;
}

// @generated begin ScenarioAction (scripts/gen-types.mjs from lab.schema; do not edit)
/** One scripted action (lab.schema.actions). */
export type ScenarioAction =
  /** process(outcome, error): lease the ready head and settle it at one instant. */
  | { type: 'process'; outcome: Outcome; error?: string }
  /** An operator's replay(id) of a quarantined job. */
  | { type: 'replay'; id: string; resetAttempts?: boolean }
  /** A job enqueued mid-run. */
  | { type: 'enqueue'; id: string; payload?: string; key?: string }
  /** lease(): the ready head, its attempt counted now. */
  | { type: 'lease' }
  /** settle(token, outcome, error) of an earlier lease. */
  | { type: 'settle'; token: string; outcome: Outcome; error?: string }
  /** advance(ms): the clock moves. */
  | { type: 'advance'; ms: number }
  /** advanceToNext(): the clock moves to the next timer. */
  | { type: 'advanceToNext' }
  /** releaseKey(key); refused when the run would release no holder. */
  | { type: 'releaseKey'; key: string }
  /** redrive({ max, class, reason }); refused when the quarantine has no such entry. */
  | { type: 'redrive'; max: number; class?: string; reason?: string }
  /** patch(id, payload): an operator's fix of a quarantined job's payload. */
  | { type: 'patch'; id: string; payload: string }
  /** The process dies after write `after` of the journal and restarts from the disk. */
  | { type: 'crash'; after: number; torn?: boolean };
// @generated end ScenarioAction

/**
 * The policy (as a link carries it, `classes` included) with the jobs and the script. The journal
 * switch is createQueue()'s only (no link carries it): a scenario's queue keeps a journal.
 */
export interface Scenario extends PolicyOptions {
  /** Enqueued in order before the first step. */
  jobs?: ReadonlyArray<{ id: string; payload?: string; key?: string }>;
  /** The script. */
  actions?: ReadonlyArray<ScenarioAction>;
  /** How many actions are applied; defaults to all of them. */
  cursor?: number;
  /** The world that plays it on; the link carries it (the script alone gives the state). */
  world?: WorldOptions;
}

/**
 * A parsed link: the whole policy with every default filled in, so `classes` is always the full
 * table (the defaults for a v1 link, or a v2 link that does not set it).
 */
export interface ParsedScenario extends ScenarioPolicy {
  /** `key` is present only for a job that has one. */
  jobs: { id: string; payload: string; key?: string }[];
  actions: ({ type: 'process'; outcome: Outcome; error: string } | { type: 'replay'; id: string; resetAttempts?: false } |
    { type: 'enqueue'; id: string; payload: string; key?: string } | { type: 'lease' } |
    { type: 'settle'; token: string; outcome: Outcome; error: string } | { type: 'advance'; ms: number } |
    { type: 'advanceToNext' } | { type: 'releaseKey'; key: string } | { type: 'redrive'; max: number; class?: FailureClass; reason?: 'permanent' | 'exhausted' } |
    { type: 'crash'; after: number; torn: boolean } | { type: 'patch'; id: string; payload: string })[];
  cursor: number;
  /** Present only when the link carries a world. */
  world?: World;
}

/** The backoff a client waits after its n-th lost write (n from 1), before the next read. */
export type ContentionStrategy = 'none' | 'exponential' | 'equal' | 'full' | 'decorrelated';

/**
 * sim.runContention()'s options. backoff(n): none 0; exponential min(capMs, baseMs * 2^n) (the
 * simulator's exponent: the queue's is 2^(n-1)); equal h + U[0, v - h], h = floor(v / 2); full
 * U[0, v]; decorrelated sleep = min(capMs, U[baseMs, 3 * sleep]), sleep starting at baseMs; all in
 * whole microseconds.
 */
export interface ContentionOptions {
  /** An integer from 1 to 10,000. */
  clients: number;
  strategy: ContentionStrategy;
  /** An integer from 1 to 100,000; default 5. */
  baseMs?: number;
  /** An integer from baseMs to 1,000,000; default 2,000. */
  capMs?: number;
  /** An integer from 0 to 4,294,967,295; default 1. */
  seed?: number;
  /** How many runs to average: an integer from 1 to 1,000; default 1. */
  runs?: number;
}

export interface ContentionResult {
  /** Write calls per run, successful and failed (the successful ones: exactly `clients`). */
  meanCalls: number;
  /** When the last client learns its write succeeded, per run, in ms (µs precision). */
  meanCompletionMs: number;
}

/** One quantity over a retry schedule's samples: nearest-rank statistics (the median is rank ceil(n / 2)). */
export interface Spread { min: number; median: number; p99: number; max: number; }

/** One attempt of a retry schedule: when it starts (from the first attempt's start) and the delay after it (null: the last). */
export interface ScheduleRow { attempt: number; start: Spread; delay: Spread | null; }

/** lab.retrySchedule()'s options; absent fields take the core's defaults (lab.schema.schedule). */
export interface ScheduleOptions {
  /** Seeded runs the statistics are taken over: 1 to 10,000; default 1,000 (fewer when the budget is large). */
  samples?: number;
  /** The outage's length from the first attempt, in ms: 0 to 2^53 - 1; default 0. */
  outageMs?: number;
  /** Each attempt's own time before it fails, in ms: 0 to 86,400,000; default 0 (never past the policy's leaseMs). */
  workMs?: number;
  /** Each attempt holds its lease until it expires (the policy's leaseMs) instead of workMs; default false. */
  leases?: boolean;
}

/** lab.retrySchedule(): the transient class's schedule under the policy (core/systems/schedule.h). */
export interface RetrySchedule {
  /** The transient class's budget. */
  attempts: number;
  /** Attempts 1 to min(attempts, 50). */
  rows: ScheduleRow[];
  /** The last attempt (also in rows when attempts <= 50). */
  last: ScheduleRow;
  /** Each attempt's time: the lease with `leases`, else workMs capped at the policy's leaseMs. */
  attemptMs: number;
  /** When the last attempt finishes: last.start + attemptMs. */
  total: Spread;
  /** Samples run (1 when exact). */
  samples: number;
  /** Nothing is drawn: one run is every sample. */
  exact: boolean;
  /** The share of samples whose last attempt finishes at or after `ms`. */
  outage: { ms: number; outlasting: number; probability: number };
}

/** sim.contentionCost(): the grid's runs a point and about how many calls they make in all. */
export interface ContentionCost {
  runs: number;
  calls: number;
}

/** sim.stormCost(): a bound on one storm's work (core/sim/storm.h, EstimateStormCost). */
export interface StormCost {
  /** The most attempts the storm can make. */
  attempts: number;
  /** The most simulated ms it can take; null when a capacity limit leaves the time open. */
  horizonMs: number | null;
}

// @generated begin StormOptions (scripts/gen-types.mjs from lab.schema; do not edit)
/** sim.createStorm()'s options (docs/storm.md; sim.schema.storm): jobs arrive, W workers take the ready head, each attempt finishes workMs later and is decided by the queue's policy; absent fields take the core's defaults. */
export interface StormOptions {
  /** As a queue's (lab.schema.backoff); the jitter draws come from the seed's jitter stream. */
  backoff?: BackoffOptions;
  /** How many jobs go through the storm. An integer from 10 to 1,000,000; default 1,000. */
  jobs: number;
  /**
   * How jobs arrive: all at 0 ms ('burst'), at a rate (open loop) or from clients (closed loop); default
   * burst.
   */
  arrival?: StormArrival;
  /** The dependency is down in [startMs, startMs + durationMs); default none. */
  outage?: StormOutage | null;
  /**
   * At most perWindow successful attempts per fixed window, counted when an attempt finishes; default none.
   */
  capacity?: StormCapacity | null;
  /**
   * Each attempt outside the outage fails with this probability, in millionths (a seeded draw). An integer
   * from 0 to 1,000,000; default 0.
   */
  failurePerMillion?: number;
  /**
   * A retry budget (docs/storm.md "Retry budgets"), or the command line's text ('grpc:10:0.1',
   * 'aws-standard', 'finagle:20:10:10000'); default none.
   */
  budget?: StormBudget | string | null;
  /** What a retry the budget refuses does to its job. Default 'quarantine'. */
  refusedRetry?: 'quarantine' | 'fail';
  /** The dependency as a server (the metastable model); default none. */
  server?: StormServer | null;
  /** How many attempts run at once. An integer from 1 to 100,000; default 1,000. */
  workers?: number;
  /** How long one attempt takes; below the lease. An integer from 1 to 86,400,000; default 10. */
  workMs?: number;
  /** How long a lease lasts, as a queue's. An integer from 1 to 86,400,000; default 30,000. */
  leaseMs?: number;
  /** Total attempts a job gets, as a queue's. An integer from 1 to 1,000,000; default 3. */
  maxAttempts: number;
  /** Seeds the storm's jitter, so a run repeats exactly. An integer from 0 to 4,294,967,295; default 1. */
  seed?: number;
  /** The series' bucket width; 0 chooses it after the run. An integer from 0 to 86,400,000; default 0. */
  bucketMs?: number;
}

/** StormOptions.arrival. */
export interface StormArrival {
  /** All jobs at once, or a steady rate that does not listen to answers. Default 'burst'. */
  kind: 'burst' | 'rate' | 'closed';
  /** The arrival rate (rate only). An integer from 1 to 10,000,000; default 1,000. */
  perSecond?: number;
  /**
   * Closed loop: clients that each send their next job once the previous one is over (closed only). An
   * integer from 1 to 100,000; default 100.
   */
  clients?: number;
}

/** StormOptions.outage. */
export interface StormOutage {
  /**
   * The dependency goes down at this time (null outage: none). An integer from 0 to 86,400,000; default 0.
   */
  startMs: number;
  /** How long the dependency stays down. An integer from 0 to 86,400,000; default 0. */
  durationMs: number;
}

/** StormOptions.capacity. */
export interface StormCapacity {
  /**
   * At most this many successful attempts per window (null capacity, or 0: unlimited). An integer from 0 to
   * 1,000,000,000; default 0.
   */
  perWindow: number;
  /** The capacity's fixed window. An integer from 1 to 86,400,000; default 1,000. */
  windowMs: number;
}

/** StormOptions.budget. */
export interface StormBudget {
  /**
   * Who may refuse a retry: gRPC's token bucket, the AWS SDKs' retry quota or Finagle's RetryBudget (null:
   * none). Default 'grpc'.
   */
  kind: 'grpc' | 'aws-standard' | 'finagle';
  /** gRPC: the bucket's size; retries stop at half of it. An integer from 1 to 1,000; default 10. */
  maxTokens?: number;
  /**
   * gRPC: what a success gives back, in thousandths of a token (100: 0.1). An integer from 1 to 1,000;
   * default 100.
   */
  tokenRatioPerMille?: number;
  /** Finagle: retries allowed as a percentage of recent requests. An integer from 0 to 1,000; default 20. */
  percent?: number;
  /** Finagle: retries always allowed per second of the window. An integer from 0 to 1,000,000; default 10. */
  minPerSecond?: number;
  /**
   * Finagle: how long a request's deposit counts (a multiple of 10). An integer from 1,000 to 60,000; default
   * 10,000.
   */
  windowMs?: number;
}

/** StormOptions.server. */
export interface StormServer {
  /**
   * The server takes up at most this many attempts a second; the rest wait in its queue (null server: none).
   * An integer from 1 to 10,000,000; default 1,000.
   */
  capacityPerSecond: number;
  /**
   * A client gives up on an attempt after this long; the server still does the work. An integer from 1 to
   * 86,400,000; default 1,000.
   */
  timeoutMs: number;
  /** The trigger: the server's capacity drops at this time. An integer from 0 to 86,400,000; default 0. */
  dropStartMs?: number;
  /** How long the drop lasts (0: none). An integer from 0 to 86,400,000; default 0. */
  dropMs?: number;
  /** Attempts a second the server takes up during the drop. An integer from 0 to 10,000,000; default 0. */
  dropPerSecond?: number;
}
// @generated end StormOptions

/** What a storm did. Counts of attempts count decided attempts (every one, once the storm is over). */
export interface StormSummary {
  jobs: number;
  /** successes + failures. */
  attempts: number;
  successes: number;
  /** outageFailures + throttled + randomFailures + timedOut. */
  failures: number;
  outageFailures: number;
  throttled: number;
  /** Failed by failurePerMillion. */
  randomFailures: number;
  /** Given up on by their client (server.timeoutMs); the server still did them. */
  timedOut: number;
  /** The failed attempts: work thrown away. */
  wastedAttempts: number;
  /** Retries the budget refused. */
  retriesDenied: number;
  /** Useful completions a second: completed * 1000 / drainMs (0 when drainMs is 0). */
  goodput: number;
  /** Attempts per job: attempts / jobs. */
  amplification: number;
  /** Most retries (attempts numbered 2 or more) per second in one bucket. */
  peakRetryRate: number;
  /** Most attempts per second in one bucket starting at or after the outage's end (any bucket without an outage). */
  peakRateAfterRecovery: number;
  /** When the last job completed, was quarantined or failed (so far, mid-run). */
  drainMs: number;
  completed: number;
  /** For any reason: the attempts used up, or a retry the budget refused. */
  quarantined: number;
  /** Of those, refused a retry by the budget (refusedRetry 'quarantine'). */
  quarantinedByBudget: number;
  /** Refused a retry and failed back to their caller (refusedRetry 'fail'). */
  failedJobs: number;
  /** The policy's bounded path, as queue.worstCase() gives it for the same policy (its two numbers, not its terms). */
  worstCase: Pick<WorstCase, 'attempts' | 'timeMs'>;
}

/**
 * Per bucket of bucketMs (bucket b covers [b * bucketMs, (b + 1) * bucketMs)), `length` values each: the
 * attempts decided in it by result, and the depths at its end (after everything before its end). Each array
 * is a copy the caller owns.
 */
export interface StormSeries {
  bucketMs: number;
  length: number;
  success: Uint32Array;
  outage: Uint32Array;
  throttled: Uint32Array;
  ready: Uint32Array;
  delayed: Uint32Array;
  inFlight: Uint32Array;
  quarantine: Uint32Array;
  /** Attempts decided in the bucket failed by the failure rate, and timed out by their client. */
  failed: Uint32Array;
  timedOut: Uint32Array;
  /** Jobs completed in the bucket (goodput), and retries the budget refused in it. */
  completed: Uint32Array;
  denied: Uint32Array;
  /** Attempts waiting for the server at the bucket's end (0 without a server). */
  serverQueue: Uint32Array;
}

export interface StormResult {
  summary: StormSummary;
  series: StormSeries;
}

/**
 * Runs on one grid (sim.createStormSet): one after another, every later run on the first one's
 * bucket width, so series and peak rates compare bucket for bucket.
 */
export interface StormSet {
  readonly size: number;
  /** True when every run is over. */
  run(maxEvents: number): boolean;
  /** The run stepping now (size when all are over). */
  readonly current: number;
  /** The running storm's progress (0 to 1) and its attempts so far. */
  readonly progress: number;
  readonly attempts: number;
  /** Run i's result, for i below current. */
  result(i: number): StormResult;
  readonly disposed: boolean;
  dispose(): void;
}

export interface Storm {
  /**
   * Advances at most maxEvents events (a non-negative integer, or Infinity), where an event is one job moving: an
   * arrival, a delay's end, an attempt's start or its decision. True when the storm is over (then it does nothing).
   */
  run(maxEvents: number): boolean;
  /** Jobs completed or quarantined over jobs, 0 to 1. */
  readonly progress: number;
  /** Attempts decided so far. */
  readonly attempts: number;
  /** The result when over; before, the counters now and the series so far. */
  result(): StormResult;
  /** True once dispose() ran. */
  readonly disposed: boolean;
  /** Frees the storm's wasm memory; every later call throws (code 'disposed'). */
  dispose(): void;
}

/** What a crash action recovered (SessionView.last.crash). */
export interface CrashReport {
  /** Journal writes applied, of the journal's. */
  applied: number;
  journal: number;
  tornDiscarded: boolean;
  /** Jobs the crash left in no place (each a 'lost' event). */
  lost: string[];
  /** Jobs found in two places and kept once (each a 'kept-once' event). */
  duplicated: string[];
}

/**
 * Everything a page draws after one action, in one answer from the core (Session). Lists are
 * capped as the page draws them: at most 100 entries each; Ready above 100 jobs as its first 24,
 * one gap item ({ id: '', gap: n }) and its last 8.
 */
export interface SessionView {
  cursor: number;
  length: number;
  /** Counts loads and set-up changes: the policy and the world change only with one. */
  generation: number;
  /** True when link format v1 cannot carry the scenario (the clock, classes, keys, a world, a crash). */
  advanced: boolean;
  /** Attempts hold leases here: a world plays, or the script leases (a retry schedule then counts each lease). */
  leases: boolean;
  /** How many actions from the first agree with the authored script (the last one loaded): a caption for position i holds while i <= authoredThrough. */
  authoredThrough: number;
  canUndo: boolean;
  stats: QueueStats;
  /** The whole script's timeline (seq 1, 2, 3, … along it); the first eventsAtCursor have happened. */
  timeline: TimelineEvent[];
  /** Where this answer's timeline differs from the one before (what a view redraws from). */
  eventsFrom: number;
  /** The events from eventsFrom on, as the core sent them. */
  events: TimelineEvent[];
  eventCount: number;
  eventsAtCursor: number;
  /** The last applied action and one sentence on what it did (null and "" at cursor 0). */
  last: { event: TimelineEvent | null; action: ParsedScenario['actions'][number] | null; explanation: string; crash: CrashReport | null };
  /** What the action dropped from the script (once): null, or the count and the core's reason (null: replaced by an edit). */
  dropped: { count: number; reason: string | null; replayed: boolean } | null;
  ready: (ReadyJob & { removable: boolean } | { id: ''; gap: number })[];
  leased: LeasedJob[];
  delayed: DelayedJob[];
  /** Where delayed jobs wait when not in the broker (policy.delayAt): 'worker' or the retry queue's name. */
  delayedIn?: 'worker' | 'orders.retry';
  completed: KeyedJob[];
  quarantined: QuarantineEntry[];
  /** Present when the policy has deadLetterExchange 'none': the jobs it dropped. */
  discarded?: DiscardedJob[];
  /** Present (true) where the core accepts replay(id, { resetAttempts: false }): system bullmq. */
  retryWithoutReset?: true;
  reorders: Reorder[];
  alarm: Alarm;
  worstCase: WorstCase;
  /** The side-effect ledger at the cursor (empty unless policy.effects.charge). */
  ledger: Ledger;
  /** Reports the core refused (report()) since the session was made; a goal's `refused`. */
  refused: number;
  /** Replays the session answered false (no such job in quarantine) since it was made; a goal's `refused-replays`. */
  refusedReplays: number;
  policy: Policy;
  world: World | null;
  /** With view({ link: true }): the share link, or why there is none. */
  link?: { text: string } | { error: ErrorCode; message: string };
}

/**
 * The one model behind a playground (lab.createSession): a scenario's script and cursor, the
 * queue at the cursor, the whole script's timeline and checkpoints every 64 actions. Each action
 * is one call into the core and returns the view to draw. Refusals throw as elsewhere, and
 * nothing changes.
 */
export interface Session {
  view(options?: { link?: boolean }): SessionView;
  /** Applies a script action at the cursor (its next scripted action is stepped along); accepted false: nothing to do. */
  act(action: ScenarioAction): { accepted: boolean; view: SessionView };
  /**
   * A redrive at `perSecond` (1 to 1000) entries a virtual second of those `only` takes now, recorded
   * as ordinary actions (a redrive a second; the world, or an advance of 1000 ms, in between);
   * accepted false when none matches. Bad input is refused by name; nothing changes then.
   */
  redriveAtRate(perSecond: number, only?: { class?: FailureClass; reason?: 'permanent' | 'exhausted' }):
    { accepted: boolean; view: SessionView };
  /**
   * The bounded path over the failures this playground can meet: the outcomes its reader can report,
   * a crash when its attempts hold leases, and what its world and authored script produce (the core
   * decides which classes, and so which terms, apply). Bad input is refused by name.
   */
  worstCase(scope: { outcomes: readonly Outcome[]; leases: boolean }): WorstCase;
  step(outcome: Outcome, errorText?: string): { accepted: boolean; view: SessionView };
  /**
   * A worker's report as text: the core parses `outcome`; one it does not know is refused with the core's
   * message ('invalid-argument'), counted in view().refused, and changes nothing else.
   */
  report(outcome: string, errorText?: string): { accepted: boolean; view: SessionView };
  /** The world's next action, applied; accepted false (action null) when nothing will happen again. */
  actWorld(): { accepted: boolean; action: ScenarioAction | null; view: SessionView };
  /**
   * A set-up job at cursor 0, else an 'enqueue' action. With `behaviour`, the job and the world's
   * behaviour for it are one change: at cursor 0 a set-up job, else an 'enqueue' at the cursor with
   * the script past it replaced.
   */
  addJob(id: string, payload: string, options?: { key?: string; behaviour?: Omit<BehaviourOptions, 'id'> }): SessionView;
  /**
   * Removes job `id` (a set-up job, else the script's first 'enqueue' of it) with the world's behaviour
   * for it, in one call; 'not-found' naming `id` when no job of the scenario has it.
   */
  removeJob(id: string): SessionView;
  /**
   * A policy edit in one call: these fields put over the scenario's policy (each group whole), the
   * script kept; with replayWorld (default) a world plays the script past the cursor again.
   */
  setPolicy(policy: Partial<PolicyOptions>, options?: { replayWorld?: boolean }): SessionView;
  /** The world that plays on replaced (null: none) in one call; it plays the script past the cursor again. */
  setWorld(world: WorldOptions | null): SessionView;
  /** The share link alone (no view built), or why there is none. */
  link(): { text: string } | { error: ErrorCode; message: string };
  seek(cursor: number): { moved: boolean; view: SessionView };
  undo(): { undone: boolean; view: SessionView };
  /** A new authored scenario; with clamp a cursor past what plays moves back instead of being refused. */
  load(scenario: Scenario | string, options?: { clamp?: boolean }): SessionView;
  /** A set-up change, the authored script kept; with replayWorld (default) a world plays the script past the cursor again. */
  change(scenario: Scenario, options?: { replayWorld?: boolean }): SessionView;
  scenario(): ParsedScenario;
  nextWorldAction(): ScenarioAction | null;
  /** The crash point that matters most in the journal, in one pass: rank 3 loses a job, 2 keeps one from quarantine, 1 doubles one. */
  writeThatMatters(): { after: number; rank: 1 | 2 | 3 } | null;
  cursorForEvent(seq: number): number;
  policy(): Policy;
  rules(): { [C in FailureClass]: ResolvedClassRule };
  journal(): JournalRecord[];
  locate(id: string): JobLocation | null;
  checkGoal(goal: string): GoalCheck;
  snapshotText(): string;
  /** The timeline up to the cursor, one RenderEvent line each. */
  timelineText(): string;
  readonly disposed: boolean;
  dispose(): void;
}

/** The formats lab.importConfig() reads ('pubsub': gcloud pubsub commands; 'servicebus': an Azure Service Bus ARM
 *  template or queue resource; 'spring-kafka': Spring Kafka's Java retry configuration). */
export type ConfigFormat = 'bullmq' | 'sqs' | 'sidekiq' | 'rabbitmq' | 'pubsub' | 'servicebus' | 'spring-kafka';
/** One policy field lab.importConfig() sets ("backoff.kind"), with the broker's setting it came from. */
export interface ConfigSetting { field: string; value: number | string | boolean; from: string; }
/** A refusal of lab.importConfig(): the key, what was expected, what was given, and the sentence. */
export interface ConfigRefusal { key: string; expected: string; given: string; message: string; }
/** lab.importConfig()'s answer. */
export type ConfigImport =
  | { ok: true; format: ConfigFormat; system: System; policy: Record<string, unknown>; set: ConfigSetting[];
      ignored: { key: string; why: string }[] }
  | { ok: false; format: ConfigFormat | null; refusals: ConfigRefusal[] };

export interface Lab {
  /** A queue at time 0 with the policy `options` describes (absent fields: the core's defaults). */
  createQueue(options: QueueOptions): Queue;
  /** The one model behind a playground: a session over the scenario (object or link text). */
  createSession(scenario: Scenario | string): Session;
  /** The scenario with the world's run (at most 2,000 more actions) as its script past the cursor. */
  playWorld(scenario: Scenario): ParsedScenario;
  /** Calls made into the core's module so far: what one user action costs. */
  readonly crossings: number;
  /** A queue in the state the scenario (object or link text) reaches at its cursor. */
  runScenario(scenario: Scenario | string): Queue;
  /**
   * What a scenario needs, as the core decides it: the link version it is written in (1 when
   * lesson 1's format can carry it), and whether it is lesson 1's.
   */
  scenarioFeatures(scenario: Scenario): { version: 1 | 2; lessonOne: boolean };
  /**
   * A queue equal in every observable to the one whose snapshot() gave `text`; its journal starts
   * empty and follows the snapshot. Codes: 'invalid-snapshot' (not a whole, unaltered, consistent
   * snapshot), 'unsupported-version' (a newer format), 'too-large' (past lab.limits.snapshotBytes).
   */
  restoreQueue(text: string): Queue;
  /**
   * The queue after a crash: `snapshot` (null: the journal runs from creation) with the first
   * `crashAfter` writes of `journal` applied (and, with `torn`, a half-written next one discarded).
   * A job found in quarantine and another place is kept in quarantine; in two other places, where
   * its newer write put it; in none, it is lost. Refusals: the snapshot's; 'invalid-argument' naming
   * journal[i] for a record that is not this lab's, is damaged, or does not follow the snapshot or
   * the record before it; 'out-of-range' for crashAfter; 'too-large' past lab.limits.journalRecords
   * records or lab.limits.journalBytes of them together; an unknown option by name.
   */
  recover(snapshot: string | null, journal: ReadonlyArray<JournalInput>, options?: RecoverOptions): Recovery;
  /** Link text -> scenario. Codes: 'too-large', 'unsupported-version', 'invalid-argument', 'out-of-range'. */
  parseScenario(text: string): ParsedScenario;
  /** Scenario -> link text that parseScenario() reads back; 'too-large' past maxScenarioTextBytes. */
  formatScenario(scenario: Scenario): string;
  /**
   * How far a script plays, whatever its cursor: the first `playable` actions are
   * accepted in order; `stopped` is the first refusal, or null when all are.
   */
  playableActions(scenario: Scenario | string): { playable: number; stopped: { code: ErrorCode; message: string } | null };
  /**
   * The canonical text of a goal (docs/goals.md): one space between tokens, "; " between clauses, ids
   * quoted only where they must be; it parses back to the same goal. Refusals: 'invalid-argument'
   * (a RangeError whose message names goal, the clause and its text, what was expected after what, and
   * what was given), 'too-large' past lab.limits.goalBytes bytes or lab.limits.goalClauses clauses.
   */
  parseGoal(goal: string): string;
  /**
   * An exercise's par: where `solution`'s script (played from its set-up) first meets `goal`, as
   * { actions, steps, moves } (script actions played, the queue's step counter then, and of those actions
   * the solver's own: not the ones its world would have taken itself), or null when it never does. Refusals: the goal's as parseGoal(), the scenario's as parseScenario(), and an action the
   * script reaches that the queue refuses, as runScenario().
   */
  goalPar(goal: string, solution: Scenario | string): { actions: number; steps: number; moves: number } | null;
  /** The solver's moves before `scenario`'s cursor: its actions but those its world would have taken itself. Refusals as goalPar(). */
  learnerMoves(scenario: Scenario | string): number;
  /** The most letters a world's script behaviour may have. */
  readonly maxScriptLetters: number;
  /**
   * A policy's retry schedule (core/systems/schedule.h): each attempt's start and the delay after it under the
   * policy's jitter (seeded; exact when nothing is drawn), and how likely the budget outlasts an outage of
   * options.outageMs. The policy is read as createQueue() reads it; refusals name the field.
   */
  retrySchedule(policy: PolicyOptions, options?: ScheduleOptions): RetrySchedule;
  /** `count` letters 's' / 't' / 'p' from the core's seeded PRNG. */
  randomOutcomes(options: { seed: number; count: number; successPercent: number; transientPercent: number }): string;
  /**
   * A broker's pasted config read by the core (core/config/config.h, wasm/config.mjs): BullMQ job
   * options, SQS queue attributes, a sidekiq_options line or a RabbitMQ policy, told apart by shape.
   * A refusal names every key the lab cannot express; it sets nothing.
   */
  importConfig(text: string, options?: { dlqRetention?: string | number }): ConfigImport;
  /** A config object's text read by the core's reader (JSON or a JavaScript object literal, JSON5). */
  readObjectText(text: string, name: string): { ok: true; value: unknown } |
    { ok: false; refusal: { key: string; why: string; detail?: string; expected?: string; given?: string } };
  /** The config readers' format names by key and their limits (UTF-16 units). */
  configFacts(): Readonly<{ formats: Readonly<Record<ConfigFormat, string>>; maxImportChars: number; maxSidekiqChars: number }>;
  /**
   * `key`'s snippet ('sqs', 'rabbitmq', 'sidekiq', 'bullmq', 'temporal', 'kafka', 'pubsub', 'servicebus') of a
   * policy in force (web/src/shared/snippets.mjs, policyInForce) written by the core; a RangeError
   * (code 'invalid-argument') for any other key.
   */
  writeSnippet(key: string, inForce: object): { language: string; text: string };
  /** The cap on what all queues keep (half the 2 GiB module memory by default), and what they keep now. */
  heapBudget(): { limitBytes: number; usedBytes: number };
  /**
   * An integer from 0 to 2 GiB. Calls that would keep more are refused ('resource-exhausted');
   * at 2 GiB nothing is refused early and running out of memory aborts the core.
   */
  setHeapBudget(bytes: number): void;
  /** True once the core has aborted; every later call then throws code 'aborted'. */
  readonly aborted: boolean;
  /** Bytes allocated on the wasm heap now. */
  heapInUse(): number;
  /** Size of the wasm linear memory in bytes; it grows, never shrinks. */
  memoryBytes(): number;
  /** True while the first 1,024 bytes of wasm memory are zero: a canary for writes through null. */
  nullPageIsClean(): boolean;
  /**
   * The core's size limits; past one a call is refused (code 'too-large') before anything is
   * copied into wasm memory. Strings are measured in UTF-8 bytes.
   */
  readonly limits: {
    readonly idBytes: number;           // 1,024
    readonly keyBytes: number;          // 1,024: an ordering key
    readonly payloadBytes: number;      // 16 MiB
    readonly errorTextBytes: number;    // 64 KiB
    readonly outcomeBytes: number;      // 64: an outcome's name
    readonly outcomeLetters: number;    // 4,194,304: one processMany() call
    readonly batchBytes: number;        // 256 MiB: ids + payloads of one enqueueMany()
    readonly batchJobs: number;         // 16,777,216 jobs in one enqueueMany()
    readonly scenarioTextBytes: number; // 8,192: a scenario link
    readonly scenarioItems: number;     // 1,048,576 jobs, and actions, in one scenario object
    readonly snapshotBytes: number;     // 128 MiB: a snapshot; also a journal's records together
    readonly journalRecords: number;    // 1,572,864 records handed to one recover() (a crash action's most writes)
    readonly journalBytes: number;      // 384 MiB: those records together (256 B a record)
    readonly goalBytes: number;         // 4,096: a goal's text (parseGoal(), checkGoal())
    readonly goalClauses: number;       // 32 clauses in one goal
  };
  /**
   * Every configurable field, described once by the core (core/base/field.h): one table per options
   * object. The API validates and copies with it, the Advanced set-up is built from it, and a test
   * checks this file against it.
   */
  readonly schema: {
    readonly policy: readonly SchemaField[];      // createQueue() and scenario objects; `scenario` false: createQueue only
    readonly backoff: readonly SchemaField[];     // a backoff object (the policy's, a class's own, a storm's)
    readonly classRule: readonly SchemaField[];   // classes.<class>; defaults are the transient class's
    readonly world: readonly SchemaField[];       // a world object (`outage` may be null)
    readonly schedule: readonly SchemaField[];    // retrySchedule()'s options
  };
  /**
   * The core's integer fields and their ranges; a number outside one is refused (code
   * 'out-of-range'), a value of another type too (code 'invalid-type').
   */
  readonly integerFields: { readonly [name in IntegerFieldName]: { readonly min: number; readonly max: number } };
  /** The outcomes a worker may report, in the core's order (frozen). */
  readonly outcomes: readonly Outcome[];
  /** The failure classes, in the core's order (frozen); the keys of a class table. */
  readonly failureClasses: readonly FailureClass[];
  /** Why an entry sits in quarantine (frozen): a redrive's `reason`. */
  readonly reasons: readonly ('permanent' | 'exhausted')[];
  /** The newest link format version this build reads and writes (it writes the lowest that fits). */
  readonly scenarioFormatVersion: number;
  readonly maxScenarioTextBytes: number;
  readonly maxAttemptsLimit: number;
  /** The retry queue a delay waits in under delayAt 'retry-queue'. */
  readonly retryQueueName: 'orders.retry';
}

/** Loads the core once (Node >= 20 and browsers) and returns the shared lab. */
/**
 * The simulations (wasm/sim.mjs): storms, storm sets and the contention experiment, in a WebAssembly module
 * of their own (dlq_sim.wasm: core/sim, core/budget) that only the storm lab's worker loads. The names are
 * the ones the Lab offered before the split.
 */
export interface Sim {
  /**
   * A storm of up to 1,000,000 jobs through an outage (docs/storm.md), to run in slices with storm.run(). Refusals
   * name the option: 'invalid-type' (TypeError) for a wrong type, 'out-of-range' (RangeError) for a number outside
   * its range (leaseMs must exceed workMs), 'invalid-argument' (RangeError) for an unknown arrival kind, backoff
   * kind or jitter, or a jitter without a backoff; 'resource-exhausted' when the heap budget has no room.
   */
  createStorm(options: StormOptions): Storm;
  /** Storms on one grid; a refusal names the run (`runs[i]: …`, error.index = i) and nothing runs. */
  createStormSet(runs: ReadonlyArray<StormOptions>): StormSet;
  /** The drawn series' names, in the core's order (the keys of StormResult.series besides bucketMs and length). */
  readonly stormSeries: readonly string[];
  /** createStorm(), run to the end, result(), disposed. */
  runStorm(options: StormOptions): StormResult;
  /**
   * What one storm will cost, before it runs: the most attempts it can make and the most simulated ms it can take
   * (null when a capacity limit leaves the time open). Options are refused exactly as createStorm() refuses them.
   */
  stormCost(options: StormOptions): StormCost;
  /**
   * What the contention experiment's grid costs (every strategy at each of contentionGridClients, the published
   * base and cap) with this seed and runs a point: about 82,000 calls a run. Refused as runContention() refuses them.
   */
  contentionCost(options: { seed?: number; runs?: number }): ContentionCost;
  /** The client counts of the contention experiment's grid: 10, 30, …, 190. */
  readonly contentionGridClients: readonly number[];
  /**
   * The classic contention experiment (docs/contention.md; Brooker's backoff simulator): the
   * clients each update one row once under optimistic concurrency, every hop |normal(10 ms, 2 ms)|,
   * a lost write retried after one hop plus the strategy's backoff(n). Means over `runs` runs; the
   * same options give the same numbers natively and in WebAssembly. Runs synchronously: 'none'
   * costs clients²/6 to clients²/4 calls a run. Refusals name the option: 'invalid-type' (TypeError) for a
   * value of the wrong type, 'out-of-range' (RangeError) for a number outside its range, a
   * fraction or capMs below baseMs, 'invalid-argument' (RangeError) for an unknown strategy.
   */
  runContention(options: ContentionOptions): ContentionResult;
  /** The cap on what this module's storms keep (half its 2 GiB memory by default), and what they keep now. */
  heapBudget(): { limitBytes: number; usedBytes: number };
  /** An integer from 0 to 2 GiB, as lab.setHeapBudget() for the lab's module. */
  setHeapBudget(bytes: number): void;
  /** Bytes allocated on this module's heap now. */
  heapInUse(): number;
  /** True once a module of this realm (the lab's or this one) has aborted; every later call then throws code 'aborted'. */
  readonly aborted: boolean;
  /** Calls made into the WebAssembly modules so far (the lab's and this one's). */
  readonly crossings: number;
  /** The simulations' field tables, rows as lab.schema's. */
  readonly schema: {
    readonly backoff: readonly SchemaField[];     // a storm's backoff (the same rows as lab.schema.backoff)
    readonly storm: readonly SchemaField[];       // createStorm() (`outage`, `capacity` may be null)
    readonly contention: readonly SchemaField[];  // runContention()
  };
}

export function loadLab(): Promise<Lab>;

/** Loads the simulations' module once (Node >= 20, browsers and workers) and returns the shared Sim. */
export function loadSim(): Promise<Sim>;
