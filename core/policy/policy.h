// The vocabulary of the lesson: what a worker reports about one attempt, what the
// queue does with the job, why a job is quarantined, and the retry policy itself.
#pragma once

#include <cstdint>
#include <string_view>

#include "field.h"
#include "status.h"

namespace dlq {

// The worker's classification of one attempt. The queue never infers it from error
// text: the worker (the application) supplies it, the queue applies the policy.
// Lesson 1 has the first three; the capstone adds three failures the broker
// cannot tell apart from the others without the worker's word.
enum class Outcome : uint8_t {
  kSuccess,
  kTransient,         // a passing outage: retry with backoff
  kPermanent,         // retrying cannot help
  kUndeserializable,  // the payload cannot be read at all
  kUnknownSchema,     // a payload of a version this worker does not know
  kPrecondition,      // something it needs is missing yet; may appear soon
};
constexpr int kOutcomeCount = 6;

// The class of a failure: one per failing outcome, plus kCrash for a lease
// that expired unsettled (no worker reported anything). Each has its own rule.
enum class FailureClass : uint8_t { kTransient, kPermanent, kUndeserializable, kUnknownSchema, kPrecondition, kCrash };
constexpr int kFailureClassCount = 6;

// Where a job went after an attempt.
enum class Disposition : uint8_t {
  kCompleted,
  kRequeued,  // straight to the ready tail (no delay)
  kQuarantined,
  kDelayed,    // parked until its due time, then to the ready tail
  kDiscarded,  // left the system with no quarantine entry (rabbitmq-quorum with no dead-letter exchange)
};

// Why a job sits in quarantine.
enum class Reason : uint8_t {
  kNone,       // not quarantined
  kPermanent,  // the worker said retrying cannot help
  kExhausted,  // failures used up the whole attempt budget
  kStalled,    // bullmq: its runs stalled more often than maxStalledCount allows
  kMaxLength,  // rabbitmq-quorum: the source queue was over its maxLength (drop-head); never delivered
  kExpired,    // rabbitmq-quorum: it reached the ready head at least messageTtlMs after it was published
};

enum class BackoffKind : uint8_t { kNone, kFixed, kExponential };

// Which ready job a worker may take (per-key ordering).
//   none  the ready head (lesson 1): a retried job is overtaken, even by later
//         jobs of its own key
//   key   the first ready job whose key has no earlier-enqueued job still not
//         completed (jobs without a key always qualify); held jobs keep their places
//   stall only the head, ever: a leased or waiting head blocks every other job
//         (one partition with in-place retry: head-of-line blocking)
enum class Ordering : uint8_t { kNone, kKey, kStall };
// Whose semantics the queue follows (docs/real-systems.md): the lab's own rules,
// or what one real system does differently, and only that. Each system is one
// module, core/systems/<name>.cpp (system.h lists what each does differently);
// which policy fields a system owns, the field table's system column says
// (schema.cpp, FieldSpec::only_under). Stored in snapshots and links: append-only.
enum class System : uint8_t {
  kLab,
  kRabbitMqQuorum,
  kBullMq,
  kSidekiq,
  kSqs,
  kPubSub,
  kServiceBus,
  kSpringKafka,
  kKafkaConnect
};
// rabbitmq-quorum: where the delivery-limit comes from.
//   explicit   x-delivery-limit = maxAttempts - 1
//   unset-3.x  none set, RabbitMQ 3.x: no limit; a return goes to the tail and nothing
//              is dead-lettered for it (the lab's budget is its largest, 1,000,000)
//   unset-4.x  none set, RabbitMQ 4.0+: the default limit 20, so 21 deliveries
//   classic-queue  the source is a classic queue (3.x's default type), which keeps no
//              delivery count, so no limit applies (the lab's budget is its largest); a
//              returned message keeps its place at the head. Only a reject dead-letters.
// Append-only: the value is stored in snapshots and links by name, and in order here.
enum class DeliveryLimit : uint8_t { kExplicit, kUnset3, kUnset4, kClassicQueue };
// rabbitmq-quorum: whether the source queue has a dead-letter exchange (R1: "messages
// from a queue can be dead-lettered ... if a DLX is configured", else they are dropped).
//   set   a dead letter goes to the dead-letter queue (the quarantine)
//   none  it is discarded: no entry anywhere, only a discarded event with its reason
enum class DeadLetterExchange : uint8_t { kSet, kNone };
// rabbitmq-quorum: RabbitMQ 4.3's native delayed retry (the queue's delayed-retry-type;
// rabbitmq.com/docs/quorum-queues#delayed-retry). A returned message waits
// min(delayed-retry-min x delivery_count, delayed-retry-max) before it is ready again.
//   disabled  no delayed retry (every version before 4.3; 4.3's default)
//   all       every return is delayed
//   failed    only a return that counts as a failure (basic.reject, a lost connection):
//             every failure the lab's worker has
//   returned  only a return that is not a failure (basic.nack, released): none of the
//             lab's, so the policy's backoff applies as without it
// Anything but disabled makes the queue a 4.3 quorum queue. Append-only (links, snapshots).
enum class DelayedRetryType : uint8_t { kDisabled, kAll, kFailed, kReturned };
// pubsub: whether the subscription has a dead_letter_policy (a dead-letter topic).
//   set   after max_delivery_attempts deliveries the message goes to the dead-letter
//         topic (the quarantine)
//   none  no dead-letter policy: the message is redelivered with no count until its
//         message_retention_duration (from its publish) runs out, then deleted; a
//         failure the worker acks as permanent is dropped (acked) too
// Append-only (links, snapshots).
enum class DeadLetterTopic : uint8_t { kSet, kNone };
// rabbitmq-quorum: how the consumer returns a failed message for a retry (its requeue).
//   reject  basic.reject: a genuine failure, counted in delivery-count (every version)
//   nack    basic.nack on RabbitMQ 4.3, which raises only x-acquired-count: the failure is
//           not counted, so delivery-limit never ends its retries (a lost connection, the
//           lab's crash, still counts). rabbitmq.com/docs/quorum-queues, "Poison message handling".
// Append-only (links, snapshots).
enum class RequeueWith : uint8_t { kReject, kNack };
// rabbitmq-quorum: what sets a failed message's delay under RabbitMQ 4.3's delayed retry.
//   broker   the queue's linear delay, min(delayed-retry-min x delivery_count, delayed-retry-max)
//   backoff  the consumer returns each failed attempt with the AMQP 1.0 modified outcome
//            (delivery-failed=true: counted) carrying x-opt-delivery-time = now + the policy's
//            backoff (its jitter, cap, a class's own backoff), which "takes precedence over the
//            calculated linear back-off delay" (rabbitmq.com/docs/quorum-queues, "Explicit
//            Delivery Time"). A crash (a lost connection) returns no outcome, so it still waits
//            the broker's delay (SystemRules::CrashPolicy).
// Append-only (links, snapshots).
enum class DeliveryTime : uint8_t { kBroker, kBackoff };
// Why a job that fails for good is dropped instead of quarantined (Policy::DeadLetterDrop):
// a RabbitMQ queue with no dead-letter exchange, BullMQ's removeOnFail true, or
// Sidekiq's dead: false. The value is stored in its events' ref, so it is append-only.
// pubsub's kNoDeadLetterTopic: a subscription with no dead_letter_policy (DeadLetterTopic).
// spring-kafka's kNoRecoverer: a DefaultErrorHandler with no DeadLetterPublishingRecoverer logs the record and skips
// it. sidekiq's kExhaustedDiscard: sidekiq_retries_exhausted returns :discard (7.2+). kafka-connect's
// kNoDeadLetterQueueTopic: errors.tolerance all with a blank errors.deadletterqueue.topic.name skips the record (logged
// at most). service-bus's kNoDeadLetteringOnExpiration: an expired message on a queue whose
// deadLetteringOnMessageExpiration is false ("expired messages are dropped").
enum class DropCause : uint8_t {
  kKept,
  kNoDeadLetterExchange,
  kRemoveOnFail,
  kNoDeadSet,
  kNoDeadLetterTopic,
  kNoRecoverer,
  kExhaustedDiscard,
  kNoDeadLetterQueueTopic,
  kNoDeadLetteringOnExpiration
};
// rabbitmq-quorum: a message's x-death record as RabbitMQ keeps it (R1, R3): one
// entry per {queue, reason} (the lab has one queue, so one per reason: delivery_limit
// for kExhausted, rejected for kPermanent, maxlen for kMaxLength, expired for kExpired),
// newest first, each with its count and the time of its first death there (a later
// death raises the count and moves the entry to the front); x-first-death-reason never
// changes. Republishing keeps it.
struct XDeath {
  static constexpr int kSlots = 4;
  uint32_t count[kSlots] = {0, 0, 0, 0};  // [0] delivery_limit, [1] rejected, [2] maxlen, [3] expired
  int64_t time[kSlots] = {0, 0, 0, 0};
  Reason first = Reason::kNone;  // kNone: never dead-lettered
  Reason newest = Reason::kNone;
  // The reasons whose entries follow newest's, in order (kNone past the last).
  Reason after[kSlots - 1] = {Reason::kNone, Reason::kNone, Reason::kNone};
  bool empty() const { return first == Reason::kNone; }
  // Records a death for `reason` (one with a slot, XDeathSlot) at `now`.
  void Add(Reason reason, int64_t now);
  // Its reasons newest first (kNone past the last).
  void Order(Reason out[kSlots]) const;
  bool operator==(const XDeath&) const = default;
};
// The x-death slot of a lab reason: 0 delivery_limit, 1 rejected, 2 maxlen, 3 expired, -1 none.
int XDeathSlot(Reason reason);
// The lab reason of an x-death slot (XDeathSlot's inverse).
Reason XDeathReason(int slot);

// The name the lab gives its source queue where a record names one (x-death's queue).
inline constexpr const char* kSourceQueueName = "orders";
enum class Jitter : uint8_t { kNone, kFull, kEqual, kDecorrelated, kBullMq };
// Where a retry's delay lives (idea 23; system lab only):
//   broker          the queue parks the job in "delayed" and returns it to the ready
//                   tail when due (the lab's rule)
//   consumer-sleep  the worker keeps the message and sleeps: the job waits in its worker,
//                   which takes nothing else meanwhile, and is retried when due; a sleep
//                   that would outlast the lease is cut at the lease's expiry, when the
//                   broker delivers the job again (the sleeping worker's retry is then a
//                   duplicate)
//   retry-queue     the worker publishes the job to a retry queue (kRetryQueueName) and
//                   acks it; a scheduler puts it back at the source's tail as a new
//                   message when due, so a stalled partition is not held meanwhile
// A crash's retry lives in the broker only: no live consumer sleeps or publishes it,
// so under consumer-sleep and retry-queue the broker redelivers it at once.
enum class DelayAt : uint8_t { kBroker, kConsumerSleep, kRetryQueue };
// The retry queue's name under retry-queue (the source's name plus ".retry").
inline constexpr const char* kRetryQueueName = "orders.retry";

// "success" | "transient" | "permanent" | "undeserializable" | "unknown-schema" |
// "precondition" and back. Parsing is exact (case-sensitive).
const char* OutcomeName(Outcome outcome);
Result<Outcome> ParseOutcome(std::string_view text);
// The class of a failing outcome (precondition: outcome != kSuccess).
FailureClass ClassOf(Outcome outcome);
// "transient" | "permanent" | "undeserializable" | "unknown-schema" | "precondition" | "crash".
const char* ClassName(FailureClass c);
Result<FailureClass> ParseClass(std::string_view text);
const char* DispositionName(Disposition disposition);
const char* ReasonName(Reason reason);          // "" for kNone
const char* BackoffKindName(BackoffKind kind);  // "none" | "fixed" | "exponential"
Result<BackoffKind> ParseBackoffKind(std::string_view text);
const char* JitterName(Jitter jitter);  // "none" | "full" | "equal" | "decorrelated" | "bullmq"
Result<Jitter> ParseJitter(std::string_view text);
const char* OrderingName(Ordering ordering);  // "none" | "key" | "stall"
Result<Ordering> ParseOrdering(std::string_view text);
const char* SystemName(System system);  // "lab" | "rabbitmq-quorum" | "bullmq" | "sidekiq" | "sqs" | "service-bus"
Result<System> ParseSystem(std::string_view text);
const char* DeliveryLimitName(DeliveryLimit limit);          // "explicit" | "unset-3.x" | "unset-4.x" | "classic-queue"
const char* DeadLetterExchangeName(DeadLetterExchange dlx);  // "set" | "none"
const char* DelayedRetryTypeName(DelayedRetryType type);     // "disabled" | "all" | "failed" | "returned"
const char* DeadLetterTopicName(DeadLetterTopic topic);      // "set" | "none"
const char* RequeueWithName(RequeueWith with);               // "reject" | "nack"
const char* DeliveryTimeName(DeliveryTime time);             // "broker" | "backoff"
const char* DelayAtName(DelayAt where);                      // "broker" | "consumer-sleep" | "retry-queue"
Result<DelayAt> ParseDelayAt(std::string_view text);

constexpr int64_t kMaxDelayMs = 86'400'000;  // one day
// Sidekiq's own default schedule stops here instead: four days covers every delay of
// retry: true's 25 retries (count 24 waits at most 24^4 + 15 + 9 * 25 = 332,016 s).
// No input field takes it; it bounds the delays the core computes and a snapshot's lastDelay.
constexpr int64_t kMaxSidekiqDelayMs = 345'600'000;
// Virtual time never passes 2^53 - 1 ms, so it is exact as a JavaScript number.
constexpr int64_t kMaxTimeMs = (int64_t{1} << 53) - 1;

constexpr IntegerField kMaxAttemptsField{"maxAttempts", 1, 1'000'000};
constexpr IntegerField kBaseMsField{"backoff.baseMs", 1, kMaxDelayMs};
constexpr IntegerField kCapMsField{"backoff.capMs", 1, kMaxDelayMs};  // and at least baseMs
constexpr IntegerField kLeaseMsField{"leaseMs", 1, kMaxDelayMs};
constexpr IntegerField kSeedField{"seed", 0, 4'294'967'295};
constexpr IntegerField kClassMaxAttemptsField{"classes.<class>.maxAttempts", 0, 1'000'000};  // 0: the policy's
constexpr IntegerField kRetentionMsField{"quarantine.retentionMs", 0, kMaxTimeMs};           // 0: forever
constexpr IntegerField kAlarmDepthField{"quarantine.alarmDepth", 0, 1'000'000'000};          // 0: off
constexpr IntegerField kRedriveMaxField{"max", 1, 1'000'000'000};
constexpr IntegerField kAdvanceMsField{"ms", 0, kMaxTimeMs};
constexpr IntegerField kMaxStalledCountField{"maxStalledCount", 0, 1000};   // bullmq only
constexpr IntegerField kDeadMaxJobsField{"deadMaxJobs", 1, 1'000'000'000};  // sidekiq only
// bullmq's removeOnFail: N (keep the newest N failed jobs); 0 keeps them all.
constexpr IntegerField kRemoveOnFailCountField{"removeOnFailCount", 0, 1'000'000'000};  // bullmq only
// BullMQ's backoff.jitter j as thousandths (j = 0.001 … 1); jitter "bullmq" only.
constexpr IntegerField kJitterPermilleField{"backoff.jitterPermille", 1, 1000};
// rabbitmq-quorum: the dead-letter queue's own x-max-length (overflow drop-head); 0: no limit.
constexpr IntegerField kDlqMaxLengthField{"dlqMaxLength", 0, 1'000'000'000};  // rabbitmq-quorum only
// rabbitmq-quorum: the source queue's own x-max-length (x-overflow drop-head); 0: no limit.
constexpr IntegerField kMaxLengthField{"maxLength", 0, 1'000'000'000};  // rabbitmq-quorum only
// rabbitmq-quorum: the source queue's x-message-ttl in ms; 0: none.
constexpr IntegerField kMessageTtlMsField{"messageTtlMs", 0, kMaxTimeMs};  // rabbitmq-quorum only
// rabbitmq-quorum 4.3: delayed-retry-min and delayed-retry-max in ms, 0 to a day, taken as
// the formula reads them (min 0 or max 0: no delay; with type disabled they do nothing).
constexpr IntegerField kDelayedRetryMinMsField{"delayedRetryMinMs", 0, kMaxDelayMs};  // rabbitmq-quorum only
constexpr IntegerField kDelayedRetryMaxMsField{"delayedRetryMaxMs", 0, kMaxDelayMs};  // rabbitmq-quorum only
// pubsub: the subscription's message_retention_duration in ms, 10 minutes to 31 days
// (Pub/Sub's own bounds), default 7 days (Pub/Sub's default).
constexpr IntegerField kMessageRetentionMsField{"messageRetentionMs", 600'000,
                                                int64_t{31} * 86'400'000};  // pubsub only
// pubsub: its max_delivery_attempts (the lab's maxAttempts) and ack deadline (leaseMs)
// bounds, refused by name under pubsub (Policy::Check).
constexpr int64_t kPubSubMinDeliveryAttempts = 5, kPubSubMaxDeliveryAttempts = 100;
constexpr int64_t kPubSubMinAckDeadlineMs = 10'000, kPubSubMaxAckDeadlineMs = 600'000;
// pubsub: retry_policy's minimum_backoff and maximum_backoff are at most 600 s.
constexpr int64_t kPubSubMaxBackoffMs = 600'000;
// service-bus: leaseMs is the peek-lock's lockDuration, which Service Bus holds at most
// 5 minutes (Policy::Check refuses a longer one under service-bus only).
constexpr IntegerField kServiceBusLeaseMsField{"leaseMs", 1, 300'000};
// service-bus: the entity's defaultMessageTimeToLive in ms, counted from the enqueue; 0: none
// (Service Bus's default, TimeSpan.MaxValue).
constexpr IntegerField kDefaultMessageTtlMsField{"defaultMessageTtlMs", 0, kMaxTimeMs};  // service-bus only
// spring-kafka: ExponentialBackOff's (and @RetryableTopic's) multiplier in thousandths, 1.0 to 10.0;
// each delay is the previous one times it, truncated to whole ms, up to capMs. 2000 doubles, as the lab does.
constexpr IntegerField kMultiplierPermilleField{"multiplierPermille", 1000, 10'000};  // spring-kafka only
// sidekiq 7.1.3+: retry_for in ms, the retry window from the job's first failure; 0: none.
constexpr IntegerField kRetryForMsField{"retryForMs", 0, kMaxTimeMs};  // sidekiq only
// sqs: StartMessageMoveTask's MaxNumberOfMessagesPerSecond, "The maximum value for messages per
// second is 500" (the SQS API reference); 0: no move task, the lab's replay (every released link's).
constexpr IntegerField kMoveTaskRateField{"moveTaskRate", 0, 500};  // sqs only
// kafka-connect: errors.retry.timeout in ms (0: no retry, Connect's default). Connect's -1
// (retry forever) is kMaxTimeMs, the end of the lab's virtual time, which no failure passes.
constexpr IntegerField kRetryTimeoutMsField{"retryTimeoutMs", 0, kMaxTimeMs};  // kafka-connect only
// kafka-connect: RetryWithToleranceOperator's first delay (RETRIES_DELAY_MIN_MS), the
// backoff's baseMs under kafka-connect (Check); capMs is errors.retry.delay.max.ms.
constexpr int64_t kKafkaConnectRetryDelayMinMs = 300;
constexpr const IntegerField* kIntegerFields[] = {&kMaxAttemptsField,
                                                  &kBaseMsField,
                                                  &kCapMsField,
                                                  &kLeaseMsField,
                                                  &kSeedField,
                                                  &kAdvanceMsField,
                                                  &kClassMaxAttemptsField,
                                                  &kRetentionMsField,
                                                  &kAlarmDepthField,
                                                  &kRedriveMaxField,
                                                  &kMaxStalledCountField,
                                                  &kDeadMaxJobsField,
                                                  &kJitterPermilleField,
                                                  &kRemoveOnFailCountField,
                                                  &kDlqMaxLengthField,
                                                  &kMaxLengthField,
                                                  &kMessageTtlMsField,
                                                  &kDelayedRetryMinMsField,
                                                  &kDelayedRetryMaxMsField,
                                                  &kMessageRetentionMsField,
                                                  &kMultiplierPermilleField,
                                                  &kRetryForMsField,
                                                  &kMoveTaskRateField,
                                                  &kRetryTimeoutMsField,
                                                  &kDefaultMessageTtlMsField};

// How long a job waits after a failed attempt before it is ready again.
//   none        0: straight back to the ready tail (lesson 1)
//   fixed       v = baseMs
//   exponential v = min(capMs, baseMs * 2^(n-1)) after attempt n
// then jitter:  none v | full U[0, v] | equal h + U[0, v - h], h = floor(v / 2) |
//   decorrelated min(capMs, U[baseMs, 3 * prev]), prev = the job's previous
//   delay (baseMs before its first); exponential only |
//   bullmq BullMQ 6's floor(random * v * j + v * (1 - j)), on [floor(v(1 - j)), v - 1],
//   j = jitterPermille / 1000, random in [0, 1) in steps of 1 / (v * jitterPermille)
//   (any system may use it; under "bullmq" its exponential v has no cap, backoff.h).
struct Backoff {
  BackoffKind kind = BackoffKind::kNone;
  int64_t base_ms = 1000;
  int64_t cap_ms = 60'000;
  Jitter jitter = Jitter::kNone;
  // BullMQ's jitter fraction in thousandths; differs from its default only with jitter bullmq.
  int64_t jitter_permille = 500;
};

// What the queue does with a failure of one class.
//   retry never   -> quarantine at once (reason permanent)
//   retry bounded -> retry while attempts < maxAttempts (the class's, capped by the
//                    policy's; 0 = the policy's), after the class's backoff (or the
//                    policy's); at the budget, quarantine (reason exhausted)
// `alert`: an arrival in quarantine with this class raises an alert event.
struct ClassRule {
  bool retry = true;
  int64_t max_attempts = 0;  // 0: the policy's
  bool own_backoff = false;  // false: the policy's backoff
  Backoff backoff;           // used when own_backoff
  bool alert = false;
};

// The article's table, one row per class: transient bounded with the policy's
// backoff; permanent and undeserializable never; unknown-schema never, with an
// alert; precondition bounded and short (2 attempts, a fixed 1 s delay, no
// jitter); crash bounded by the policy's budget (the receive count).
struct ClassTable {
  ClassRule rules[kFailureClassCount];
  ClassTable();
  const ClassRule& operator[](FailureClass c) const { return rules[static_cast<int>(c)]; }
  ClassRule& operator[](FailureClass c) { return rules[static_cast<int>(c)]; }
};

struct Policy {
  static constexpr int64_t kMinAttempts = kMaxAttemptsField.min;
  static constexpr int64_t kMaxAttempts = kMaxAttemptsField.max;

  // Total attempts a job gets, the first one included. A transient failure on
  // attempt == max_attempts quarantines the job as exhausted.
  int64_t max_attempts = 3;
  Backoff backoff;
  // How long a lease lasts before it expires (the attempt stays counted).
  int64_t lease_ms = 30'000;
  // Seeds the queue's PRNG streams (jitter); uint32.
  int64_t seed = 1;
  // The rule per failure class (see ClassTable for the defaults).
  ClassTable classes;
  Ordering ordering = Ordering::kNone;
  // Whose semantics apply (System); lab, the default, is the lesson's own.
  System system = System::kLab;
  // Per-mode settings; each may differ from its default only in its mode (Check).
  // bullmq: stalls a job may have before it fails (BullMQ's maxStalledCount).
  int64_t max_stalled_count = 1;
  // bullmq: removeOnFail: N, so each failure trims the failed set to its newest N (0: no count).
  int64_t remove_on_fail_count = 0;
  // sidekiq: the Dead set's dead_max_jobs (a kill keeps the newest N - 1).
  int64_t dead_max_jobs = 10'000;
  // sidekiq: 6.4.1's delay_for on a custom sidekiq_retry_in (backoff fixed or
  // exponential): rand(10) * (count + 1) s is added to the lab's delay, and a
  // delay under 1 s (to_i 0) falls back to Sidekiq's own schedule. Off: the
  // delay as given (every link written before it keeps its timeline).
  bool retry_in_jitter = false;
  // sidekiq: 6.4.1 has no :kill (sidekiq_retry_in may return it from 6.5.2), so
  // every failure but a crash is an exception like any other: retried up to the
  // policy's budget (retry: N), whatever its class's rule says (never-retry, its
  // own budget); its class is still the worker's, and its own backoff stays (the
  // block may pick a delay per exception). Off: the lab's rules, i.e. 6.5.2+'s :kill.
  bool retry_every_error = false;
  // rabbitmq-quorum: whether x-delivery-limit is set, or the version's default.
  DeliveryLimit delivery_limit = DeliveryLimit::kExplicit;
  // rabbitmq-quorum: with none, a dead letter is discarded instead of quarantined.
  DeadLetterExchange dead_letter_exchange = DeadLetterExchange::kSet;
  // rabbitmq-quorum: the DLQ's x-max-length with the default overflow drop-head, so
  // each dead letter past it drops the oldest one (0: no x-max-length).
  int64_t dlq_max_length = 0;
  // bullmq: removeOnFail true, so a job that fails for good is removed, kept in no failed set.
  bool remove_on_fail = false;
  // sidekiq: dead: false (or retry: false, with maxAttempts 1), so a job that fails for good
  // is not put in the Dead set: it is dropped.
  bool skip_dead_set = false;
  // sidekiq 7.1.3+: sidekiq_options retry_for (ms; 0: none), a time window instead of a
  // count: a failure after the first failure's time (failed_at) + retry_for is not
  // retried (job_retry.rb). 8.1.0 made it exclusive with retry, so with it maxAttempts
  // is not read (the lab's ceiling of kMaxAttemptsField.max attempts stays).
  int64_t retry_for_ms = 0;
  // sidekiq 7.2+: a sidekiq_retries_exhausted block returning :discard, so a job whose
  // retries are exhausted is discarded instead of going to the Dead set.
  bool discard_on_exhausted = false;
  // kafka-connect (a sink connector's errors.* settings; kafka_connect.cpp):
  //   tolerance_all    errors.tolerance all: a record failing for good is skipped or sent to
  //                    the DLQ topic; none (false, Connect's default): the task fails and stops
  //   dlq_topic        errors.deadletterqueue.topic.name is set (blank by default: no DLQ)
  //   context_headers  errors.deadletterqueue.context.headers.enable: the __connect.errors.* headers
  //   retry_timeout_ms errors.retry.timeout (kRetryTimeoutMsField); capMs is errors.retry.delay.max.ms
  bool tolerance_all = false;
  bool dlq_topic = false;
  bool context_headers = false;
  int64_t retry_timeout_ms = 0;
  // rabbitmq-quorum: the source queue's x-max-length with x-overflow drop-head: a publish
  // that leaves more than max_length messages ready dead-letters the oldest ready one
  // (reason maxlen; queue.h, DropHeadOverLimit). 0: no x-max-length.
  int64_t max_length = 0;
  // rabbitmq-quorum: the source queue's x-message-ttl: a ready message at the head whose
  // TTL (counted from its publish: an enqueue, a replay, a due retry; a return keeps it)
  // has run out is dead-lettered, reason expired (queue.h, ExpireHeads). 0: no TTL.
  int64_t message_ttl_ms = 0;
  // rabbitmq-quorum: RabbitMQ 4.3's delayed retry (DelayedRetryType) and its
  // delayed-retry-min / -max in ms: delay min(min x delivery count, max). Disabled (the
  // default): the timeline of every older link.
  DelayedRetryType delayed_retry_type = DelayedRetryType::kDisabled;
  int64_t delayed_retry_min_ms = 0;
  int64_t delayed_retry_max_ms = 0;
  // pubsub: whether the subscription has a dead-letter topic (DeadLetterTopic), and its
  // message_retention_duration: with no dead-letter topic a message is redelivered until
  // this long after its publish, then deleted (the queue's expiry at the ready head).
  DeadLetterTopic dead_letter_topic = DeadLetterTopic::kSet;
  int64_t message_retention_ms = int64_t{7} * 86'400'000;
  // service-bus: the queue's defaultMessageTimeToLive (0: none, TimeSpan.MaxValue) and
  // deadLetteringOnMessageExpiration. A message past its TTL (from its enqueue; an abandon or
  // an expired lock keeps it) is never delivered: it is dead-lettered (TTLExpiredException) with
  // the flag, dropped (DropCause::kNoDeadLetteringOnExpiration) without it (service_bus.cpp).
  int64_t default_message_ttl_ms = 0;
  bool dead_letter_on_expiry = false;
  // spring-kafka: @RetryableTopic's non-blocking retry topics instead of the DefaultErrorHandler's
  // blocking retry: a failed record is republished to a retry topic and the partition moves on
  // (ordering none; blocking, the partition is held: ordering stall). Check enforces the pair.
  bool retry_topics = false;
  // spring-kafka: the backoff's multiplier in thousandths (kMultiplierPermilleField).
  int64_t multiplier_permille = 2000;
  // spring-kafka: no DeadLetterPublishingRecoverer, so a record that fails for good is logged and
  // skipped (DropCause::kNoRecoverer), not published to the dead-letter topic.
  bool no_recoverer = false;
  // sqs: a redrive is a StartMessageMoveTask at this many messages a second (kMoveTaskRateField):
  // each moved message is a new message (a new MessageId, a fresh SentTimestamp and so a fresh
  // retention, its receive count from 0), the k-th of one redrive ready k x 1000 / rate ms later
  // (sqs.cpp, SystemRules::MoveRatePerSecond). 0: the lab's replay (at once, the message kept).
  int64_t move_task_rate = 0;
  // rabbitmq-quorum: basic.reject (counted) or 4.3's basic.nack (uncounted) for a retry (RequeueWith).
  RequeueWith requeue_with = RequeueWith::kReject;
  // rabbitmq-quorum: the broker's linear delayed retry, or the consumer's x-opt-delivery-time
  // from the policy's backoff (DeliveryTime; needs delayedRetryType all or failed).
  DeliveryTime delivery_time = DeliveryTime::kBroker;
  // Where a retry's delay lives (DelayAt); other than broker only with system lab.
  DelayAt delay_at = DelayAt::kBroker;
  // Quarantine operability: an entry whose age (from its arrival) reaches
  // retention_ms is dropped for good (0: kept forever); a depth alarm is raised
  // when the quarantine holds alarm_depth entries and cleared when it holds
  // fewer (0: no alarm).
  int64_t retention_ms = 0;
  int64_t alarm_depth = 0;
  // Durability (queue.h: Snapshot, Journal, Recover). A teaching switch: true writes a move into
  // quarantine in the unsafe order, removal from the source first, so a crash
  // between the two writes loses the job. Every other move writes its
  // destination first whatever this says.
  bool unsafe_quarantine_order = false;
  // Keep the journal of durable writes since the last snapshot (Queue::Journal()).
  // Off for throughput runs that never recover: a queue then costs no journal
  // memory or time, and Journal() is refused.
  bool journal = true;

  // Side effects (core/queue/ledger.h): with effect_charge every attempt that can
  // read its payload charges a card before its outcome is known, so a failure or
  // a crash after it leaves the charge made. With effect_idempotency_key the
  // charge carries the job's id as its key, and the payment side applies one
  // charge per key (later ones are deduplicated).
  bool effect_charge = false;
  bool effect_idempotency_key = false;
  // Anti-pattern switches, each a teaching device that breaks one rule visibly:
  //   count_in_body        the count lives in the message, rewritten by the worker
  //                        when it reports a failure; a crash (an expired lease)
  //                        reports nothing, so its attempt is not counted and a
  //                        job whose worker always crashes loops forever
  //   decide_before_count  Decide() compares the count before this attempt with
  //                        the budget: a budget of 3 gives a 4th attempt
  //   dlq_to_source        a consumer of the dead-letter queue routes every entry
  //                        back to the source queue at once (a replay that resets
  //                        its attempts), so a poison job loops again
  bool count_in_body = false;
  bool decide_before_count = false;
  bool dlq_to_source = false;

  // The rules below depend on the system in force: each is decided by its module
  // (core/systems/policy_rules.cpp, over system.h's SystemRules), so only the layers
  // above core/systems/ call them.
  //
  // The rule in force for class `c`, its max_attempts resolved (never above the
  // policy's budget) and its backoff filled in.
  ClassRule RuleFor(FailureClass c) const;
  // The policy's attempt budget: max_attempts, unless its system says otherwise (a
  // rabbitmq-quorum policy may leave the delivery-limit to the version).
  int64_t Budget() const;
  // The ordering the queue applies: the ordering field, unless its system decides it
  // (spring-kafka; SystemRules::OrderingInForce).
  Ordering OrderingInForce() const;
  // True when a returned message goes back near the head or keeps its place (SystemRules::ReturnTo).
  bool ReturnsNearHead() const;
  // True when retention is applied when jobs finish, not by a timer.
  bool LazyRetention() const;
  // The newest entries a quarantine keeps after each arrival, oldest dropped first
  // (-1: no count).
  int64_t QuarantineKeepNewest() const;
  // True when an arrival in quarantine trims it (a lazy mode, or a count to keep).
  bool TrimsQuarantine() const;
  // Why a dead letter is discarded, not quarantined: its mode's setting (DropCause), or kKept.
  DropCause DeadLetterDrop() const;
  bool DiscardsDeadLetters() const { return DeadLetterDrop() != DropCause::kKept; }
  // Why an expired message is discarded, not quarantined (SystemRules::ExpiryDrop), or kKept.
  DropCause ExpiryDrop() const;
  // True when a message past its TTL expires wherever it stands (SystemRules::ExpiresInPlace).
  bool ExpiresInPlace() const;
  // How long after its publish a ready message expires at the head (0: never): the
  // rabbitmq-quorum messageTtlMs, or the system's own (SystemRules::MessageTtl).
  int64_t MessageTtlMs() const;
  // True when a due retry starts a message's TTL again (a republish), as RabbitMQ's
  // retry queue does; false when a retry is a redelivery of the same message (pubsub).
  bool RetryRepublishes() const;

  // The first field out of range, named as JS spells it; or OK. Checks the
  // pairs too: capMs >= baseMs; jitter only with a backoff; decorrelated only
  // with exponential; and each class rule's (classes.<name>.maxAttempts in
  // 0..1000000, its own backoff like the policy's).
  static Status Check(const Policy& policy);

  // Lesson 1's single check, kept for its callers.
  static Status CheckMaxAttempts(int64_t value) { return kMaxAttemptsField.Check(value); }
  static Status CheckMaxAttempts(double value) { return kMaxAttemptsField.Check(value); }

  // True if the policy is lesson 1's (only maxAttempts may differ): the v1 link
  // format can carry it.
  bool IsLessonOne() const;
};

bool operator==(const Backoff& a, const Backoff& b);
bool operator==(const ClassRule& a, const ClassRule& b);
bool operator==(const ClassTable& a, const ClassTable& b);
bool operator==(const Policy& a, const Policy& b);

}  // namespace dlq
