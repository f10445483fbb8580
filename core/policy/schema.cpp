#include "schema.h"

#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace dlq {
namespace {

// Field rows, so each row is one line of spec and one of access.
constexpr FieldSpec Integer(const char* name, const IntegerField& range, const char* label, const char* description,
                            bool required = false) {
  return {name, FieldKind::kInteger, &range, nullptr, label, description, required};
}
constexpr FieldSpec Boolean(const char* name, const char* label, const char* description) {
  return {name, FieldKind::kBoolean, nullptr, nullptr, label, description, false};
}
constexpr FieldSpec Pick(const char* name, const Choices& choices, const char* label, const char* description) {
  return {name, FieldKind::kChoice, nullptr, &choices, label, description, false};
}
// A mode's own field: only under `system` may it leave its default. The row's
// system column, the one statement of whose field it is: Check's refusal, the
// label's suffix and the description's prefix all come from it (WithSystemColumn).
constexpr FieldSpec OnlyUnder(System system, FieldSpec spec) {
  spec.only_under = kSystemChoices.items[static_cast<int>(system)].name;
  return spec;
}

const Field<Backoff> kBackoffFields[] = {
    {Pick("kind", kBackoffKindChoices, "Backoff",
          "How long a failed job waits before it is ready again: none, a fixed delay, or doubling up to the cap.")
         .Carried('b', "", "kind"),
     [](const Backoff& b) -> int64_t { return static_cast<int64_t>(b.kind); },
     [](Backoff& b, int64_t v) { b.kind = static_cast<BackoffKind>(v); }},
    {Integer("baseMs", kBaseMsField, "Base delay (ms)", "The first delay; every delay when fixed.")
         .Carried('b', "", "baseMs"),
     [](const Backoff& b) { return b.base_ms; }, [](Backoff& b, int64_t v) { b.base_ms = v; }},
    {Integer("capMs", kCapMsField, "Cap (ms)", "No delay is longer; at least the base delay.")
         .Carried('b', ".", "capMs"),
     [](const Backoff& b) { return b.cap_ms; }, [](Backoff& b, int64_t v) { b.cap_ms = v; }},
    {Pick("jitter", kJitterChoices, "Jitter",
          "Randomises each delay so retries spread out; decorrelated needs exponential backoff.")
         .Carried('b', "", "jitter"),
     [](const Backoff& b) -> int64_t { return static_cast<int64_t>(b.jitter); },
     [](Backoff& b, int64_t v) { b.jitter = static_cast<Jitter>(v); }},
    {Integer("jitterPermille", kJitterPermilleField, "BullMQ jitter (per mille)",
             "Jitter bullmq only: BullMQ's backoff.jitter j in thousandths; each delay is drawn from [v(1 - j), v).")
         .Carried('b', "", "jitterPermille"),
     [](const Backoff& b) { return b.jitter_permille; }, [](Backoff& b, int64_t v) { b.jitter_permille = v; }},
};

const Field<Policy> kPolicyFields[] = {
    {Integer("maxAttempts", kMaxAttemptsField, "Max attempts", "Total attempts a job gets, the first one included.",
             true)
         .Carried('m', "", "maxAttempts"),
     [](const Policy& p) { return p.max_attempts; }, [](Policy& p, int64_t v) { p.max_attempts = v; }},
    {Integer("leaseMs", kLeaseMsField, "Lease timeout (ms)",
             "How long a lease lasts before it expires unsettled; the attempt stays counted.")
         .Carried('l', "", "leaseMs"),
     [](const Policy& p) { return p.lease_ms; }, [](Policy& p, int64_t v) { p.lease_ms = v; }},
    {Integer("seed", kSeedField, "Seed", "Seeds the queue's own random streams (jitter), so a run repeats exactly.")
         .Carried('s', "", "seed"),
     [](const Policy& p) { return p.seed; }, [](Policy& p, int64_t v) { p.seed = v; }},
    {Pick("ordering", kOrderingChoices, "Ordering",
          "Which ready job a worker may take: the head, the first of a free key, or only the head ever.")
         .Carried('o', "", "ordering"),
     [](const Policy& p) -> int64_t { return static_cast<int64_t>(p.ordering); },
     [](Policy& p, int64_t v) { p.ordering = static_cast<Ordering>(v); }},
    {Pick("system", kSystemChoices, "System",
          "Whose semantics apply: the lab's rules, or what one real system does differently (docs/real-systems.md).")
         .Carried('r', "", "system"),
     [](const Policy& p) -> int64_t { return static_cast<int64_t>(p.system); },
     [](Policy& p, int64_t v) { p.system = static_cast<System>(v); }},
    {OnlyUnder(System::kBullMq, Integer("maxStalledCount", kMaxStalledCountField, "Max stalled count",
                                        "stalls (crashes) a job may have before it fails; a stall is not an attempt."))
         .Carried('r', "s", "maxStalledCount"),
     [](const Policy& p) { return p.max_stalled_count; }, [](Policy& p, int64_t v) { p.max_stalled_count = v; }},
    {OnlyUnder(System::kBullMq,
               Integer("removeOnFailCount", kRemoveOnFailCountField, "Remove on fail: keep newest",
                       "removeOnFail N; each failure trims the failed set to its newest N entries; 0: no count."))
         .Carried('r', "f", "removeOnFailCount"),
     [](const Policy& p) { return p.remove_on_fail_count; }, [](Policy& p, int64_t v) { p.remove_on_fail_count = v; }},
    {OnlyUnder(System::kSidekiq, Integer("deadMaxJobs", kDeadMaxJobsField, "Dead set max jobs",
                                         "dead_max_jobs; each kill trims the Dead set to its newest N - 1 entries."))
         .Carried('r', "d", "deadMaxJobs"),
     [](const Policy& p) { return p.dead_max_jobs; }, [](Policy& p, int64_t v) { p.dead_max_jobs = v; }},
    {OnlyUnder(System::kSidekiq,
               Boolean("retryInJitter", "Sidekiq 6.4.1 jitter on a custom delay",
                       "6.4.1 adds rand(10) * (count + 1) s to a fixed or exponential delay; under 1 s it "
                       "uses its own schedule."))
         .Carried('r', "j", "retryInJitter"),
     [](const Policy& p) -> int64_t { return p.retry_in_jitter; },
     [](Policy& p, int64_t v) { p.retry_in_jitter = v != 0; }},
    {OnlyUnder(System::kSidekiq,
               Boolean("retryEveryError", "Sidekiq 6.4.1 retries every error",
                       "6.4.1 cannot kill a job early, so every failure but a crash retries up to maxAttempts."))
         .Carried('r', "e", "retryEveryError"),
     [](const Policy& p) -> int64_t { return p.retry_every_error; },
     [](Policy& p, int64_t v) { p.retry_every_error = v != 0; }},
    {OnlyUnder(System::kRabbitMqQuorum,
               Pick("deliveryLimit", kDeliveryLimitChoices, "Delivery limit",
                    "x-delivery-limit from maxAttempts, or the version's (3.x none, 4.0+ 20), or a classic "
                    "queue's (no count; a return keeps its place)."))
         .Carried('r', "u", "deliveryLimit"),
     [](const Policy& p) -> int64_t { return static_cast<int64_t>(p.delivery_limit); },
     [](Policy& p, int64_t v) { p.delivery_limit = static_cast<DeliveryLimit>(v); }},
    {OnlyUnder(System::kRabbitMqQuorum,
               Pick("deadLetterExchange", kDeadLetterExchangeChoices, "Dead-letter exchange",
                    "with none, a message dead-lettered (delivery_limit, rejected) is dropped, not kept."))
         .Carried('r', "", "deadLetterExchange"),
     [](const Policy& p) -> int64_t { return static_cast<int64_t>(p.dead_letter_exchange); },
     [](Policy& p, int64_t v) { p.dead_letter_exchange = static_cast<DeadLetterExchange>(v); }},
    {OnlyUnder(System::kRabbitMqQuorum,
               Integer("dlqMaxLength", kDlqMaxLengthField, "DLQ x-max-length",
                       "the dead-letter queue's x-max-length with overflow drop-head; each dead letter past it "
                       "drops the oldest; 0: no limit."))
         .Carried('r', "m", "dlqMaxLength"),
     [](const Policy& p) { return p.dlq_max_length; }, [](Policy& p, int64_t v) { p.dlq_max_length = v; }},
    {OnlyUnder(System::kBullMq,
               Boolean("removeOnFail", "Remove on fail: true",
                       "removeOnFail true; a job that fails for good is removed, not kept in the failed set."))
         .Carried('r', "x", "removeOnFail"),
     [](const Policy& p) -> int64_t { return p.remove_on_fail; },
     [](Policy& p, int64_t v) { p.remove_on_fail = v != 0; }},
    {OnlyUnder(System::kSidekiq,
               Boolean("skipDeadSet", "No Dead set: dead false",
                       "dead: false (retry: false is this with maxAttempts 1); a job that fails for good is "
                       "dropped, not kept in the Dead set."))
         .Carried('r', "o", "skipDeadSet"),
     [](const Policy& p) -> int64_t { return p.skip_dead_set; },
     [](Policy& p, int64_t v) { p.skip_dead_set = v != 0; }},
    {OnlyUnder(System::kSidekiq,
               Integer("retryForMs", kRetryForMsField, "Retry for (ms)",
                       "retry_for (7.1.3+): no retry after the first failure's time + this; replaces the count "
                       "(8.1.0); 0: none."))
         .Carried('r', "l", "retryForMs"),
     [](const Policy& p) { return p.retry_for_ms; }, [](Policy& p, int64_t v) { p.retry_for_ms = v; }},
    {OnlyUnder(System::kSidekiq,
               Boolean("discardOnExhausted", "Retries exhausted: :discard",
                       "sidekiq_retries_exhausted returns :discard (7.2+); a job that fails for good is "
                       "dropped, not kept in the Dead set."))
         .Carried('r', "b", "discardOnExhausted"),
     [](const Policy& p) -> int64_t { return p.discard_on_exhausted; },
     [](Policy& p, int64_t v) { p.discard_on_exhausted = v != 0; }},
    {OnlyUnder(System::kRabbitMqQuorum,
               Integer("maxLength", kMaxLengthField, "Source x-max-length",
                       "the source queue's x-max-length (overflow drop-head); a publish past it "
                       "dead-letters the oldest ready message (maxlen); 0: no limit."))
         .Carried('r', "g", "maxLength"),
     [](const Policy& p) { return p.max_length; }, [](Policy& p, int64_t v) { p.max_length = v; }},
    {OnlyUnder(System::kRabbitMqQuorum,
               Integer("messageTtlMs", kMessageTtlMsField, "Source x-message-ttl (ms)",
                       "the source queue's x-message-ttl; a message reaching the ready head this long "
                       "after its publish is dead-lettered (expired); 0: none."))
         .Carried('r', "t", "messageTtlMs"),
     [](const Policy& p) { return p.message_ttl_ms; }, [](Policy& p, int64_t v) { p.message_ttl_ms = v; }},
    {OnlyUnder(System::kRabbitMqQuorum,
               Pick("delayedRetryType", kDelayedRetryTypeChoices, "Delayed retry (4.3)",
                    "4.3's delayed-retry-type: a return waits min(min x count, max); the lab's failures are "
                    "rejects: all and failed delay them."))
         .Carried('r', "y", "delayedRetryType"),
     [](const Policy& p) -> int64_t { return static_cast<int64_t>(p.delayed_retry_type); },
     [](Policy& p, int64_t v) { p.delayed_retry_type = static_cast<DelayedRetryType>(v); }},
    {OnlyUnder(System::kRabbitMqQuorum, Integer("delayedRetryMinMs", kDelayedRetryMinMsField, "Delayed retry min (ms)",
                                                "4.3's delayed-retry-min: the delay per delivery count (ms)."))
         .Carried('r', "i", "delayedRetryMinMs"),
     [](const Policy& p) { return p.delayed_retry_min_ms; }, [](Policy& p, int64_t v) { p.delayed_retry_min_ms = v; }},
    {OnlyUnder(System::kRabbitMqQuorum, Integer("delayedRetryMaxMs", kDelayedRetryMaxMsField, "Delayed retry max (ms)",
                                                "4.3's delayed-retry-max: no delay is longer (ms)."))
         .Carried('r', "w", "delayedRetryMaxMs"),
     [](const Policy& p) { return p.delayed_retry_max_ms; }, [](Policy& p, int64_t v) { p.delayed_retry_max_ms = v; }},
    {OnlyUnder(System::kPubSub, Pick("deadLetterTopic", kDeadLetterTopicChoices, "Dead-letter topic",
                                     "set: maxAttempts deliveries, then the dead-letter topic; none: redelivered until "
                                     "messageRetentionMs after publish, then deleted."))
         .Carried('r', "h", "deadLetterTopic"),
     [](const Policy& p) -> int64_t { return static_cast<int64_t>(p.dead_letter_topic); },
     [](Policy& p, int64_t v) { p.dead_letter_topic = static_cast<DeadLetterTopic>(v); }},
    {OnlyUnder(System::kPubSub,
               Integer("messageRetentionMs", kMessageRetentionMsField, "Message retention (ms)",
                       "message_retention_duration: with no dead-letter topic a message expires this long after "
                       "its publish."))
         .Carried('r', "v", "messageRetentionMs"),
     [](const Policy& p) { return p.message_retention_ms; }, [](Policy& p, int64_t v) { p.message_retention_ms = v; }},
    {OnlyUnder(
         System::kSpringKafka,
         Boolean("retryTopics", "Retry topics (@RetryableTopic)",
                 "@RetryableTopic: a failed record goes through retry topics and the partition moves on; off, the "
                 "DefaultErrorHandler holds the partition."))
         .Carried('r', "r", "retryTopics"),
     [](const Policy& p) -> int64_t { return p.retry_topics; }, [](Policy& p, int64_t v) { p.retry_topics = v != 0; }},
    {OnlyUnder(
         System::kSpringKafka,
         Integer("multiplierPermille", kMultiplierPermilleField, "Backoff multiplier (per mille)",
                 "ExponentialBackOff's multiplier in thousandths (1.5 is 1500); each delay is the last times it, in "
                 "whole ms, up to capMs."))
         .Carried('r', "p", "multiplierPermille"),
     [](const Policy& p) { return p.multiplier_permille; }, [](Policy& p, int64_t v) { p.multiplier_permille = v; }},
    {OnlyUnder(
         System::kSpringKafka,
         Boolean("noRecoverer", "No dead-letter recoverer",
                 "no DeadLetterPublishingRecoverer: a record that fails for good is logged and skipped, not sent to a "
                 "dead-letter topic."))
         .Carried('r', "a", "noRecoverer"),
     [](const Policy& p) -> int64_t { return p.no_recoverer; }, [](Policy& p, int64_t v) { p.no_recoverer = v != 0; }},
    {OnlyUnder(System::kRabbitMqQuorum,
               Pick("requeueWith", kRequeueWithChoices, "Requeue with (4.3)",
                    "How the consumer returns a failure: basic.reject is counted; 4.3's basic.nack is not, so "
                    "delivery-limit never ends its retries."))
         .Carried('r', "k", "requeueWith"),
     [](const Policy& p) -> int64_t { return static_cast<int64_t>(p.requeue_with); },
     [](Policy& p, int64_t v) { p.requeue_with = static_cast<RequeueWith>(v); }},
    // Capital code: every lowercase letter is taken (see kafka-connect's below).
    {OnlyUnder(System::kRabbitMqQuorum,
               Pick("deliveryTime", kDeliveryTimeChoices, "Delivery time (4.3)",
                    "Who delays a failure: the broker (its delayed retry, if any), or the consumer's "
                    "x-opt-delivery-time (4.3), set from the backoff."))
         .Carried('r', "X", "deliveryTime"),
     [](const Policy& p) -> int64_t { return static_cast<int64_t>(p.delivery_time); },
     [](Policy& p, int64_t v) { p.delivery_time = static_cast<DeliveryTime>(v); }},
    {OnlyUnder(System::kSqs,
               Integer("moveTaskRate", kMoveTaskRateField, "Move task rate (messages/s)",
                       "a redrive moves at most this many a second (StartMessageMoveTask), each as a new message "
                       "with a fresh retention; 0: the lab's replay."))
         .Carried('r', "z", "moveTaskRate"),
     [](const Policy& p) { return p.move_task_rate; }, [](Policy& p, int64_t v) { p.move_task_rate = v; }},
    // kafka-connect's codes are capitals: every lowercase letter is another r member's first letter.
    {OnlyUnder(
         System::kKafkaConnect,
         Boolean("toleranceAll", "errors.tolerance: all",
                 "errors.tolerance all: a record failing for good is skipped or goes to the DLQ topic; off (none, "
                 "the default), the task fails and stops."))
         .Carried('r', "T", "toleranceAll"),
     [](const Policy& p) -> int64_t { return p.tolerance_all; },
     [](Policy& p, int64_t v) { p.tolerance_all = v != 0; }},
    {OnlyUnder(System::kKafkaConnect,
               Boolean("dlqTopic", "DLQ topic set",
                       "errors.deadletterqueue.topic.name is set; blank (the default), a tolerated record is skipped."))
         .Carried('r', "D", "dlqTopic"),
     [](const Policy& p) -> int64_t { return p.dlq_topic; }, [](Policy& p, int64_t v) { p.dlq_topic = v != 0; }},
    {OnlyUnder(System::kKafkaConnect,
               Boolean("contextHeaders", "DLQ context headers",
                       "errors.deadletterqueue.context.headers.enable: a dead letter carries the __connect.errors.* "
                       "headers."))
         .Carried('r', "H", "contextHeaders"),
     [](const Policy& p) -> int64_t { return p.context_headers; },
     [](Policy& p, int64_t v) { p.context_headers = v != 0; }},
    {OnlyUnder(System::kKafkaConnect,
               Integer("retryTimeoutMs", kRetryTimeoutMsField, "errors.retry.timeout (ms)",
                       "errors.retry.timeout: retriable failures retry until this long after the first; 0: none; "
                       "9007199254740991: -1, forever."))
         .Carried('r', "R", "retryTimeoutMs"),
     [](const Policy& p) { return p.retry_timeout_ms; }, [](Policy& p, int64_t v) { p.retry_timeout_ms = v; }},
    {OnlyUnder(System::kServiceBus,
               Integer("defaultMessageTtlMs", kDefaultMessageTtlMsField, "Default message time to live (ms)",
                       "defaultMessageTimeToLive: a message expires this long after its enqueue (abandons keep it): "
                       "dead-lettered or dropped; 0: none."))
         .Carried('r', "L", "defaultMessageTtlMs"),
     [](const Policy& p) { return p.default_message_ttl_ms; },
     [](Policy& p, int64_t v) { p.default_message_ttl_ms = v; }},
    {OnlyUnder(System::kServiceBus,
               Boolean("deadLetterOnExpiry", "Dead-lettering on message expiration",
                       "deadLetteringOnMessageExpiration; an expired message goes to $DeadLetterQueue "
                       "(TTLExpiredException) instead of being dropped."))
         .Carried('r', "E", "deadLetterOnExpiry"),
     [](const Policy& p) -> int64_t { return p.dead_letter_on_expiry; },
     [](Policy& p, int64_t v) { p.dead_letter_on_expiry = v != 0; }},
    {OnlyUnder(
         System::kLab,
         Pick(
             "delayAt", kDelayAtChoices, "Delay lives in",
             "Where a retry waits: the broker's delay, a worker asleep holding it (busy, within its lease), or a retry "
             "queue republishing it at the tail (lab only)."))
         .Carried('r', "", "delayAt"),
     [](const Policy& p) -> int64_t { return static_cast<int64_t>(p.delay_at); },
     [](Policy& p, int64_t v) { p.delay_at = static_cast<DelayAt>(v); }},
    {Integer("quarantine.retentionMs", kRetentionMsField, "Retention (ms)",
             "An entry this old (from its arrival) is dropped for good; 0 keeps it forever.")
         .Carried('q', "", "retentionMs"),
     [](const Policy& p) { return p.retention_ms; }, [](Policy& p, int64_t v) { p.retention_ms = v; }},
    {Integer("quarantine.alarmDepth", kAlarmDepthField, "Alarm depth",
             "The depth alarm is raised at this many entries and cleared below; 0: no alarm.")
         .Carried('q', ".", "alarmDepth"),
     [](const Policy& p) { return p.alarm_depth; }, [](Policy& p, int64_t v) { p.alarm_depth = v; }},
    {Boolean("unsafeQuarantineOrder", "Unsafe quarantine order",
             "Teaching switch: a move into quarantine removes the job from its source first, so a crash between "
             "the two writes loses it.")
         .Carried('q', "u", "unsafeQuarantineOrder"),
     [](const Policy& p) -> int64_t { return p.unsafe_quarantine_order; },
     [](Policy& p, int64_t v) { p.unsafe_quarantine_order = v != 0; }},
    {Boolean("effects.charge", "Charge before the outcome",
             "Side effect: every attempt that reads its payload charges a card before its outcome is known (the "
             "ledger).")
         .Carried('t', "c", "effects.charge"),
     [](const Policy& p) -> int64_t { return p.effect_charge; },
     [](Policy& p, int64_t v) { p.effect_charge = v != 0; }},
    {Boolean("effects.idempotencyKey", "Idempotency key",
             "The charge carries the job's id as its key: the payment side applies one charge per key.")
         .Carried('t', "k", "effects.idempotencyKey"),
     [](const Policy& p) -> int64_t { return p.effect_idempotency_key; },
     [](Policy& p, int64_t v) { p.effect_idempotency_key = v != 0; }},
    {Boolean("antiPatterns.countInBody", "Anti-pattern: count in the message body",
             "The worker rewrites the count when it reports a failure; a crash reports nothing, so it is not counted.")
         .Carried('t', "b", "antiPatterns.countInBody"),
     [](const Policy& p) -> int64_t { return p.count_in_body; },
     [](Policy& p, int64_t v) { p.count_in_body = v != 0; }},
    {Boolean("antiPatterns.decideBeforeCount", "Anti-pattern: decide before counting",
             "The budget is compared with the count before this attempt: a budget of 3 gives a fourth attempt.")
         .Carried('t', "d", "antiPatterns.decideBeforeCount"),
     [](const Policy& p) -> int64_t { return p.decide_before_count; },
     [](Policy& p, int64_t v) { p.decide_before_count = v != 0; }},
    {Boolean("antiPatterns.dlqToSource", "Anti-pattern: dead letters routed to the source",
             "A consumer of the dead-letter queue sends every entry straight back to the source queue: the loop "
             "returns.")
         .Carried('t', "l", "antiPatterns.dlqToSource"),
     [](const Policy& p) -> int64_t { return p.dlq_to_source; },
     [](Policy& p, int64_t v) { p.dlq_to_source = v != 0; }},
    {Boolean("journal", "Journal",
             "Keep the journal of durable writes since the last snapshot (createQueue only; off for throughput runs).")
         .Carried('\0', "", "journal"),
     [](const Policy& p) -> int64_t { return p.journal; }, [](Policy& p, int64_t v) { p.journal = v != 0; }},
};

const Field<ClassRule> kClassRuleFields[] = {
    {Pick("retry", kRetryChoices, "Retry", "never quarantines at once; bounded retries within the class's budget.")
         .Carried('f', "", "retry"),
     [](const ClassRule& r) -> int64_t { return r.retry; }, [](ClassRule& r, int64_t v) { r.retry = v != 0; }},
    {Integer("maxAttempts", kClassMaxAttemptsField, "Max attempts (0: the policy's)",
             "The class's budget, never above the policy's; 0 uses the policy's.")
         .Carried('f', "", "maxAttempts"),
     [](const ClassRule& r) { return r.max_attempts; }, [](ClassRule& r, int64_t v) { r.max_attempts = v; }},
    {Boolean("alert", "Alert", "An arrival in quarantine with this class raises an alert.").Carried('f', "!", "alert"),
     [](const ClassRule& r) -> int64_t { return r.alert; }, [](ClassRule& r, int64_t v) { r.alert = v != 0; }},
};

// The rows as forms and lab.schema show them: a field of a system other than the
// default's (the lab's, whose own fields read as plain settings) says whose it is,
// from its system column: "Max stalled count (bullmq)", "Source x-message-ttl (ms,
// rabbitmq-quorum)", and a description that starts "BullMQ only: " (the system's label in
// the choice list). The texts live
// as long as the program (built once, never changed), so the specs may point at them.
std::vector<Field<Policy>> WithSystemColumn(std::span<const Field<Policy>> rows) {
  static std::deque<std::string> texts;  // a deque never moves its strings
  const std::string_view lab = SystemName(Policy{}.system);
  std::vector<Field<Policy>> out(rows.begin(), rows.end());
  for (Field<Policy>& row : out) {
    if (row.spec.only_under == nullptr || row.spec.only_under == lab) continue;
    std::string label = row.spec.label;
    const std::string system = row.spec.only_under;
    label = label.ends_with(')') ? label.insert(label.size() - 1, ", " + system) : label + " (" + system + ")";
    row.spec.label = texts.emplace_back(std::move(label)).c_str();
    // The description names the system as the form's choice list shows it ("BullMQ only: …").
    std::string shown = system;
    for (int i = 0; i < kSystemChoices.count; ++i) {
      if (system == kSystemChoices.items[i].name) shown = kSystemChoices.items[i].label;
    }
    row.spec.description = texts.emplace_back(shown + " only: " + row.spec.description).c_str();
  }
  return out;
}

}  // namespace

std::span<const Field<Policy>> PolicyFields() {
  static const std::vector<Field<Policy>> rows = WithSystemColumn(kPolicyFields);
  return rows;
}
std::span<const Field<Backoff>> BackoffFields() { return kBackoffFields; }
std::span<const Field<ClassRule>> ClassRuleFields() { return kClassRuleFields; }

bool IsScenarioField(const FieldSpec& spec) { return std::string_view(spec.name) != "journal"; }

}  // namespace dlq
