#include "policy.h"
#include "schema.h"

#include <cmath>
#include <string>
#include <string_view>

#include "text.h"

namespace dlq {

const char* OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kSuccess: return "success";
    case Outcome::kTransient: return "transient";
    case Outcome::kPermanent: return "permanent";
    case Outcome::kUndeserializable: return "undeserializable";
    case Outcome::kUnknownSchema: return "unknown-schema";
    case Outcome::kPrecondition: return "precondition";
  }
  return "?";
}

Result<Outcome> ParseOutcome(std::string_view text) {
  for (int i = 0; i < kOutcomeCount; ++i) {
    if (text == OutcomeName(static_cast<Outcome>(i))) return static_cast<Outcome>(i);
  }
  return Status::InvalidArgument(
      "outcome must be one of \"success\", \"transient\", \"permanent\", \"undeserializable\", "
      "\"unknown-schema\", \"precondition\", got " +
      QuoteShort(text));
}

FailureClass ClassOf(Outcome outcome) {
  switch (outcome) {
    case Outcome::kPermanent: return FailureClass::kPermanent;
    case Outcome::kUndeserializable: return FailureClass::kUndeserializable;
    case Outcome::kUnknownSchema: return FailureClass::kUnknownSchema;
    case Outcome::kPrecondition: return FailureClass::kPrecondition;
    case Outcome::kSuccess:
    case Outcome::kTransient: break;
  }
  return FailureClass::kTransient;
}

const char* ClassName(FailureClass c) {
  switch (c) {
    case FailureClass::kTransient: return "transient";
    case FailureClass::kPermanent: return "permanent";
    case FailureClass::kUndeserializable: return "undeserializable";
    case FailureClass::kUnknownSchema: return "unknown-schema";
    case FailureClass::kPrecondition: return "precondition";
    case FailureClass::kCrash: return "crash";
  }
  return "?";
}

Result<FailureClass> ParseClass(std::string_view text) {
  for (int i = 0; i < kFailureClassCount; ++i) {
    if (text == ClassName(static_cast<FailureClass>(i))) return static_cast<FailureClass>(i);
  }
  return Status::InvalidArgument(
      "a failure class must be one of \"transient\", \"permanent\", \"undeserializable\", \"unknown-schema\", "
      "\"precondition\", \"crash\", got " +
      QuoteShort(text));
}

ClassTable::ClassTable() {
  (*this)[FailureClass::kPermanent].retry = false;
  (*this)[FailureClass::kUndeserializable].retry = false;
  ClassRule& unknown = (*this)[FailureClass::kUnknownSchema];
  unknown.retry = false;
  unknown.alert = true;
  ClassRule& precondition = (*this)[FailureClass::kPrecondition];
  precondition.max_attempts = 2;
  precondition.own_backoff = true;
  precondition.backoff = {BackoffKind::kFixed, 1000, 1000, Jitter::kNone};
}

const char* DispositionName(Disposition disposition) {
  switch (disposition) {
    case Disposition::kCompleted: return "completed";
    case Disposition::kRequeued: return "requeued";
    case Disposition::kQuarantined: return "quarantined";
    case Disposition::kDelayed: return "delayed";
    case Disposition::kDiscarded: return "discarded";
  }
  return "?";
}

const char* ReasonName(Reason reason) {
  switch (reason) {
    case Reason::kNone: return "";
    case Reason::kPermanent: return "permanent";
    case Reason::kExhausted: return "exhausted";
    case Reason::kStalled: return "stalled";
    case Reason::kMaxLength: return "max-length";
    case Reason::kExpired: return "expired";
  }
  return "?";
}

const char* BackoffKindName(BackoffKind kind) { return kBackoffKindChoices.Name(static_cast<int>(kind)); }

Result<BackoffKind> ParseBackoffKind(std::string_view text) {
  Result<int> index = kBackoffKindChoices.Parse(text, "backoff.kind");
  if (!index.ok()) return index.status();
  return static_cast<BackoffKind>(index.value());
}

const char* JitterName(Jitter jitter) { return kJitterChoices.Name(static_cast<int>(jitter)); }

Result<Jitter> ParseJitter(std::string_view text) {
  Result<int> index = kJitterChoices.Parse(text, "backoff.jitter");
  if (!index.ok()) return index.status();
  return static_cast<Jitter>(index.value());
}

const char* OrderingName(Ordering ordering) { return kOrderingChoices.Name(static_cast<int>(ordering)); }

const char* SystemName(System system) { return kSystemChoices.Name(static_cast<int>(system)); }

Result<System> ParseSystem(std::string_view text) {
  Result<int> index = kSystemChoices.Parse(text, "system");
  if (!index.ok()) return index.status();
  return static_cast<System>(index.value());
}

int XDeathSlot(Reason reason) {
  switch (reason) {
    case Reason::kExhausted: return 0;
    case Reason::kPermanent: return 1;
    case Reason::kMaxLength: return 2;
    case Reason::kExpired: return 3;
    case Reason::kNone:
    case Reason::kStalled: break;
  }
  return -1;
}

Reason XDeathReason(int slot) {
  constexpr Reason kReasons[XDeath::kSlots] = {Reason::kExhausted, Reason::kPermanent, Reason::kMaxLength,
                                               Reason::kExpired};
  return slot >= 0 && slot < XDeath::kSlots ? kReasons[slot] : Reason::kNone;
}

void XDeath::Add(Reason reason, int64_t now) {
  const int slot = XDeathSlot(reason);
  if (slot < 0) return;
  if (count[slot]++ == 0) time[slot] = now;
  if (first == Reason::kNone) first = reason;
  if (newest == reason) return;
  // Its entry moves to the front; the others keep their order behind it.
  Reason order[kSlots];
  Order(order);
  int n = 0;
  for (const Reason r : order) {
    if (r != Reason::kNone && r != reason && n < kSlots - 1) after[n++] = r;
  }
  while (n < kSlots - 1) after[n++] = Reason::kNone;
  newest = reason;
}

void XDeath::Order(Reason out[kSlots]) const {
  out[0] = newest;
  for (int i = 0; i < kSlots - 1; ++i) out[i + 1] = after[i];
}

const char* DeliveryLimitName(DeliveryLimit limit) { return kDeliveryLimitChoices.Name(static_cast<int>(limit)); }

const char* DeadLetterExchangeName(DeadLetterExchange dlx) {
  return kDeadLetterExchangeChoices.Name(static_cast<int>(dlx));
}

const char* DeadLetterTopicName(DeadLetterTopic topic) { return kDeadLetterTopicChoices.Name(static_cast<int>(topic)); }

const char* DelayedRetryTypeName(DelayedRetryType type) {
  return kDelayedRetryTypeChoices.Name(static_cast<int>(type));
}

const char* RequeueWithName(RequeueWith with) { return kRequeueWithChoices.Name(static_cast<int>(with)); }

const char* DeliveryTimeName(DeliveryTime time) { return kDeliveryTimeChoices.Name(static_cast<int>(time)); }

const char* DelayAtName(DelayAt where) { return kDelayAtChoices.Name(static_cast<int>(where)); }

Result<DelayAt> ParseDelayAt(std::string_view text) {
  Result<int> index = kDelayAtChoices.Parse(text, "delayAt");
  if (!index.ok()) return index.status();
  return static_cast<DelayAt>(index.value());
}

Result<Ordering> ParseOrdering(std::string_view text) {
  Result<int> index = kOrderingChoices.Parse(text, "ordering");
  if (!index.ok()) return index.status();
  return static_cast<Ordering>(index.value());
}

namespace {

// `text` in double quotes, as a refusal echoes a choice. Built by appends, not operator+
// on a temporary (g++ 12 warns -Wrestrict on "\"" + std::string(…): a known false positive).
std::string Quoted(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  out += text;
  out += '"';
  return out;
}

// The backoff's fields and pairs, named under `prefix` ("backoff" or
// "classes.precondition.backoff").
Status CheckBackoff(const Backoff& b, const std::string& prefix) {
  const std::string base_name = prefix + ".baseMs", cap_name = prefix + ".capMs";
  RETURN_IF_ERROR(IntegerField{base_name.c_str(), kBaseMsField.min, kBaseMsField.max}.Check(b.base_ms));
  RETURN_IF_ERROR(IntegerField{cap_name.c_str(), kCapMsField.min, kCapMsField.max}.Check(b.cap_ms));
  if (b.cap_ms < b.base_ms) {
    return Status::OutOfRange(cap_name + " must be an integer from " + base_name + " (" + std::to_string(b.base_ms) +
                              ") to " + std::to_string(kCapMsField.max) + ", got " + std::to_string(b.cap_ms));
  }
  if (b.kind == BackoffKind::kNone && b.jitter != Jitter::kNone) {
    return Status::InvalidArgument(prefix + ".jitter must be \"none\" when " + prefix +
                                   ".kind is \"none\" (there is no delay to jitter), got \"" + JitterName(b.jitter) +
                                   "\"");
  }
  if (b.jitter == Jitter::kDecorrelated && b.kind != BackoffKind::kExponential) {
    return Status::InvalidArgument(prefix + ".jitter \"decorrelated\" needs " + prefix +
                                   ".kind \"exponential\", got \"" + BackoffKindName(b.kind) + "\"");
  }
  const std::string permille_name = prefix + ".jitterPermille";
  const IntegerField permille{permille_name.c_str(), kJitterPermilleField.min, kJitterPermilleField.max};
  RETURN_IF_ERROR(permille.Check(b.jitter_permille));
  if (b.jitter != Jitter::kBullMq && b.jitter_permille != Backoff{}.jitter_permille) {
    return Status::InvalidArgument(permille_name + " applies only with " + prefix + ".jitter \"bullmq\" (leave it at " +
                                   std::to_string(Backoff{}.jitter_permille) + " otherwise), got " +
                                   std::to_string(b.jitter_permille) + " with jitter \"" + JitterName(b.jitter) + "\"");
  }
  return Status::Ok();
}

// RabbitMQ 4.3's delayed retry exists only on a 4.x quorum queue (a delivery count to
// multiply). Its min and max are taken as given, as the formula reads them: with type
// disabled they do nothing; a max below the min caps every delay at the max.
Status CheckDelayedRetry(const Policy& p) {
  if (p.delayed_retry_type == DelayedRetryType::kDisabled) return Status::Ok();
  if (p.delivery_limit == DeliveryLimit::kUnset3 || p.delivery_limit == DeliveryLimit::kClassicQueue) {
    return Status::InvalidArgument(
        "delayedRetryType " + Quoted(DelayedRetryTypeName(p.delayed_retry_type)) +
        " needs a RabbitMQ 4.3 quorum queue, so deliveryLimit \"explicit\" or \"unset-4.x\", got " +
        Quoted(DeliveryLimitName(p.delivery_limit)));
  }
  return Status::Ok();
}

// Pub/Sub's own bounds (cloud.google.com/pubsub/docs/handling-failures; the
// Subscription reference): max_delivery_attempts 5..100 (with a dead-letter topic), the ack deadline 10..600 s,
// a retry_policy that is exponential between minimum_backoff and maximum_backoff (each
// at most 600 s) with no jitter of the lab's, or none (immediate redelivery).
Status CheckPubSub(const Policy& p) {
  if (p.system != System::kPubSub) return Status::Ok();
  // With no dead-letter topic there is no max_delivery_attempts (the budget is unbounded): not asked.
  const bool counted = p.dead_letter_topic == DeadLetterTopic::kSet;
  if (counted && (p.max_attempts < kPubSubMinDeliveryAttempts || p.max_attempts > kPubSubMaxDeliveryAttempts)) {
    return Status::InvalidArgument(
        "maxAttempts must be an integer from 5 to 100 with system \"pubsub\" "
        "(dead_letter_policy.max_delivery_attempts), got " +
        std::to_string(p.max_attempts));
  }
  if (p.lease_ms < kPubSubMinAckDeadlineMs || p.lease_ms > kPubSubMaxAckDeadlineMs) {
    return Status::InvalidArgument(
        "leaseMs must be an integer from 10000 to 600000 with system \"pubsub\" "
        "(ack_deadline_seconds 10 to 600), got " +
        std::to_string(p.lease_ms));
  }
  const Backoff& b = p.backoff;
  if (b.kind == BackoffKind::kFixed) {
    return Status::InvalidArgument(
        "backoff.kind must be \"none\" (no retry_policy: immediate redelivery) or "
        "\"exponential\" (retry_policy) with system \"pubsub\", got \"fixed\"");
  }
  if (b.kind == BackoffKind::kExponential) {
    if (b.jitter != Jitter::kNone) {
      return Status::InvalidArgument(
          "backoff.jitter must be \"none\" with system \"pubsub\" (retry_policy has "
          "no jitter setting), got " +
          Quoted(JitterName(b.jitter)));
    }
    if (b.cap_ms > kPubSubMaxBackoffMs) {
      return Status::InvalidArgument(
          "backoff.capMs must be at most 600000 with system \"pubsub\" "
          "(retry_policy.maximum_backoff is at most 600 s), got " +
          std::to_string(b.cap_ms));
    }
  }
  return Status::Ok();
}

// Azure Service Bus (docs/real-systems.md): abandon "will make the message available again
// for immediate processing", so the broker has no retry delay to play. A backoff would be
// the application's own scheduling (a new, scheduled message), whose DeliveryCount starts
// again and which maxDeliveryCount then no longer bounds: a different system, so refused
// rather than played as if the broker waited. A class's own backoff is refused likewise
// unless it is the default table's (precondition's 1 s), which plays at once here. The
// lock (leaseMs) lasts at most 5 minutes.
Status CheckServiceBus(const Policy& p) {
  if (p.system != System::kServiceBus) return Status::Ok();
  if (p.lease_ms > kServiceBusLeaseMsField.max) {
    return Status::OutOfRange(
        "leaseMs must be an integer from 1 to 300000 with system \"service-bus\" (its "
        "lockDuration lasts at most 5 minutes), got " +
        std::to_string(p.lease_ms));
  }
  if (p.backoff.kind != BackoffKind::kNone) {
    return Status::InvalidArgument(std::string("backoff.kind must be \"none\" with system \"service-bus\" (abandon "
                                               "redelivers at once: Service Bus has no retry delay), got ") +
                                   Quoted(BackoffKindName(p.backoff.kind)));
  }
  const ClassTable defaults;
  for (int i = 0; i < kFailureClassCount; ++i) {
    const ClassRule& rule = p.classes.rules[i];
    if (!rule.own_backoff || rule.backoff.kind == BackoffKind::kNone) continue;
    if (defaults.rules[i].own_backoff && rule.backoff == defaults.rules[i].backoff) continue;
    return Status::InvalidArgument(std::string("classes.") + ClassName(static_cast<FailureClass>(i)) +
                                   ".backoff.kind must be \"none\" with system \"service-bus\" (abandon redelivers "
                                   "at once: Service Bus has no retry delay), got " +
                                   Quoted(BackoffKindName(rule.backoff.kind)));
  }
  return Status::Ok();
}

// Spring Kafka: the DefaultErrorHandler retries a record by seeking its partition back to it,
// so the partition is held while it retries (stall in force: nothing behind it is taken);
// @RetryableTopic republishes it to a retry topic and the partition moves on, keeping no order
// (none in force; spring_kafka.cpp, OrderingInForce). Its FixedBackOff and ExponentialBackOff
// draw no jitter.
// Kafka Connect: RetryWithToleranceOperator's backoff is its own (300 ms, doubled per retry,
// a draw below errors.retry.delay.max.ms past it): of the backoff only capMs (that max) is read
// (kafka_connect.cpp), so a lab jitter, which would promise draws Connect does not make, is
// refused by name; its kind and baseMs are not read (the preset and the Import write 300 ms
// exponential, what Connect does).
Status CheckKafkaConnect(const Policy& p) {
  if (p.system != System::kKafkaConnect) return Status::Ok();
  if (p.ordering == Ordering::kKey) {
    return Status::InvalidArgument(
        "ordering must be \"none\" or \"stall\" with system \"kafka-connect\" (its retry "
        "sleeps in the task's thread, holding every record behind it: stall applies "
        "either way), got \"key\"");
  }
  if (p.backoff.jitter != Jitter::kNone) {
    return Status::InvalidArgument(
        "backoff.jitter must be \"none\" with system \"kafka-connect\" (Connect draws its "
        "own jitter, below capMs = errors.retry.delay.max.ms, once the doubled delay passes "
        "it), got " +
        Quoted(JitterName(p.backoff.jitter)));
  }
  return Status::Ok();
}

Status CheckSpringKafka(const Policy& p) {
  if (p.system != System::kSpringKafka) return Status::Ok();
  // The module decides the ordering in force (stall blocking, none with retry topics); the field
  // may say so, or be left at none, but may not ask for what Spring Kafka does not do.
  const bool contradicts = p.ordering == Ordering::kKey || (p.retry_topics && p.ordering == Ordering::kStall);
  if (contradicts) {
    return Status::InvalidArgument(
        std::string("ordering must be \"none\"") + (p.retry_topics ? "" : " or \"stall\"") +
        " with system \"spring-kafka\" and retryTopics " +
        (p.retry_topics ? "true (a retry topic takes the record off its partition, which moves on: no order is kept)"
                        : "false (the DefaultErrorHandler seeks the partition back to the failed record, holding it: "
                          "stall applies either way)") +
        ", got " + Quoted(OrderingName(p.ordering)));
  }
  auto no_jitter = [](const Backoff& b, const std::string& prefix) {
    if (b.jitter == Jitter::kNone) return Status::Ok();
    return Status::InvalidArgument(prefix +
                                   ".jitter must be \"none\" with system \"spring-kafka\" (its FixedBackOff and "
                                   "ExponentialBackOff draw no jitter), got " +
                                   Quoted(JitterName(b.jitter)));
  };
  RETURN_IF_ERROR(no_jitter(p.backoff, "backoff"));
  for (int i = 0; i < kFailureClassCount; ++i) {
    if (!p.classes.rules[i].own_backoff) continue;
    RETURN_IF_ERROR(no_jitter(p.classes.rules[i].backoff,
                              std::string("classes.") + ClassName(static_cast<FailureClass>(i)) + ".backoff"));
  }
  return Status::Ok();
}

// 4.3's uncounted nack needs a 4.x quorum queue's delivery count; with a delayed retry that
// applies to returns (all, returned) the count its delay multiplies for a nack is not
// documented, so that pair is refused rather than guessed.
Status CheckRequeueWith(const Policy& p) {
  if (p.requeue_with != RequeueWith::kNack) return Status::Ok();
  if (p.delivery_limit == DeliveryLimit::kUnset3 || p.delivery_limit == DeliveryLimit::kClassicQueue) {
    return Status::InvalidArgument(
        "requeueWith \"nack\" (RabbitMQ 4.3's uncounted nack) needs a 4.x quorum queue, so "
        "deliveryLimit \"explicit\" or \"unset-4.x\", got " +
        Quoted(DeliveryLimitName(p.delivery_limit)));
  }
  if (p.delayed_retry_type == DelayedRetryType::kAll || p.delayed_retry_type == DelayedRetryType::kReturned) {
    return Status::InvalidArgument("requeueWith \"nack\" is not modelled with delayedRetryType " +
                                   Quoted(DelayedRetryTypeName(p.delayed_retry_type)) +
                                   " (the count a nacked message's delay multiplies is not documented): expected "
                                   "delayedRetryType \"disabled\" or \"failed\"");
  }
  return Status::Ok();
}

// x-opt-delivery-time is read by a 4.3 quorum queue (rabbit_fifo's should_delay: the annotation
// first, "precedence over delayed_retry configuration", then the delayed retry if any), so it
// needs a 4.x quorum queue's delivery count, as a delayed retry does. It rides on the AMQP 1.0
// modified outcome, so AMQP 0.9.1's basic.nack (requeueWith nack) cannot carry it.
Status CheckDeliveryTime(const Policy& p) {
  if (p.delivery_time != DeliveryTime::kBackoff) return Status::Ok();
  if (p.delivery_limit == DeliveryLimit::kUnset3 || p.delivery_limit == DeliveryLimit::kClassicQueue) {
    return Status::InvalidArgument(
        "deliveryTime \"backoff\" (RabbitMQ 4.3's x-opt-delivery-time) needs a 4.x quorum queue, "
        "so deliveryLimit \"explicit\" or \"unset-4.x\", got " +
        Quoted(DeliveryLimitName(p.delivery_limit)));
  }
  if (p.requeue_with == RequeueWith::kNack) {
    return Status::InvalidArgument(
        "deliveryTime \"backoff\" needs requeueWith \"reject\" (x-opt-delivery-time rides on "
        "the AMQP 1.0 modified outcome; AMQP 0.9.1's basic.nack cannot carry it), got \"nack\"");
  }
  return Status::Ok();
}

}  // namespace

Status Policy::Check(const Policy& p) {
  RETURN_IF_ERROR(kMaxAttemptsField.Check(p.max_attempts));
  RETURN_IF_ERROR(CheckBackoff(p.backoff, "backoff"));
  RETURN_IF_ERROR(kLeaseMsField.Check(p.lease_ms));
  RETURN_IF_ERROR(kSeedField.Check(p.seed));
  for (int i = 0; i < kFailureClassCount; ++i) {
    const ClassRule& rule = p.classes.rules[i];
    const std::string prefix = std::string("classes.") + ClassName(static_cast<FailureClass>(i));
    const std::string max_name = prefix + ".maxAttempts";
    const IntegerField max_field{max_name.c_str(), kClassMaxAttemptsField.min, kClassMaxAttemptsField.max};
    RETURN_IF_ERROR(max_field.Check(rule.max_attempts));
    if (rule.own_backoff) {
      RETURN_IF_ERROR(CheckBackoff(rule.backoff, prefix + ".backoff"));
    }
  }
  RETURN_IF_ERROR(kRetentionMsField.Check(p.retention_ms));
  RETURN_IF_ERROR(kAlarmDepthField.Check(p.alarm_depth));
  RETURN_IF_ERROR(kMaxStalledCountField.Check(p.max_stalled_count));
  RETURN_IF_ERROR(kDeadMaxJobsField.Check(p.dead_max_jobs));
  RETURN_IF_ERROR(kRemoveOnFailCountField.Check(p.remove_on_fail_count));
  RETURN_IF_ERROR(kDlqMaxLengthField.Check(p.dlq_max_length));
  RETURN_IF_ERROR(kMaxLengthField.Check(p.max_length));
  RETURN_IF_ERROR(kMessageTtlMsField.Check(p.message_ttl_ms));
  RETURN_IF_ERROR(kDelayedRetryMinMsField.Check(p.delayed_retry_min_ms));
  RETURN_IF_ERROR(kDelayedRetryMaxMsField.Check(p.delayed_retry_max_ms));
  RETURN_IF_ERROR(kMessageRetentionMsField.Check(p.message_retention_ms));
  RETURN_IF_ERROR(kMultiplierPermilleField.Check(p.multiplier_permille));
  RETURN_IF_ERROR(kRetryForMsField.Check(p.retry_for_ms));
  RETURN_IF_ERROR(kMoveTaskRateField.Check(p.move_task_rate));
  RETURN_IF_ERROR(kRetryTimeoutMsField.Check(p.retry_timeout_ms));
  RETURN_IF_ERROR(kDefaultMessageTtlMsField.Check(p.default_message_ttl_ms));
  // A mode's own setting means nothing elsewhere: refused rather than ignored. Whose each
  // field is, its row says (FieldSpec::only_under), so the form, the import and this agree.
  const Policy defaults;
  for (const Field<Policy>& row : PolicyFields()) {
    if (row.spec.only_under == nullptr || std::string_view(row.spec.only_under) == SystemName(p.system)) continue;
    const int64_t value = row.get(p);
    if (value == row.get(defaults)) continue;
    const std::string got = row.spec.kind == FieldKind::kInteger ? std::to_string(value)
                            : row.spec.kind == FieldKind::kBoolean
                                ? std::string(value != 0 ? "true" : "false")
                                : Quoted(row.spec.choices->Name(static_cast<int>(value)));
    return Status::InvalidArgument(std::string(row.spec.name) + " applies only with system \"" + row.spec.only_under +
                                   "\" (leave it at its default otherwise), got " + got + " with system \"" +
                                   SystemName(p.system) + "\"");
  }
  if (p.remove_on_fail && p.remove_on_fail_count != defaults.remove_on_fail_count) {
    return Status::InvalidArgument(
        "removeOnFail true removes every failed job, so removeOnFailCount must be 0 with it, got " +
        std::to_string(p.remove_on_fail_count));
  }
  // The DLQ's consumer would publish each dead letter straight back into the full source,
  // whose overflow dead-letters the head again: a loop that never settles.
  if (p.max_length != defaults.max_length && p.dlq_to_source) {
    return Status::InvalidArgument(
        "antiPatterns.dlqToSource must be false with a maxLength (each dead letter routed "
        "back overflows the source again: a loop with no end), got true with maxLength " +
        std::to_string(p.max_length));
  }
  // Each expired message routed back would expire again, one TTL later, for as long as time runs.
  if (p.message_ttl_ms != defaults.message_ttl_ms && p.dlq_to_source) {
    return Status::InvalidArgument(
        "antiPatterns.dlqToSource must be false with a messageTtlMs (each expired message "
        "routed back expires again: a loop with no end), got true with messageTtlMs " +
        std::to_string(p.message_ttl_ms));
  }
  if (p.default_message_ttl_ms != defaults.default_message_ttl_ms && p.dlq_to_source) {
    return Status::InvalidArgument(
        "antiPatterns.dlqToSource must be false with a defaultMessageTtlMs (each expired "
        "message routed back expires again: a loop with no end), got true with "
        "defaultMessageTtlMs " +
        std::to_string(p.default_message_ttl_ms));
  }
  RETURN_IF_ERROR(CheckDelayedRetry(p));
  RETURN_IF_ERROR(CheckPubSub(p));
  RETURN_IF_ERROR(CheckServiceBus(p));
  RETURN_IF_ERROR(CheckSpringKafka(p));
  RETURN_IF_ERROR(CheckKafkaConnect(p));
  RETURN_IF_ERROR(CheckRequeueWith(p));
  RETURN_IF_ERROR(CheckDeliveryTime(p));
  return Status::Ok();
}

bool Policy::IsLessonOne() const {
  Policy lesson;
  lesson.max_attempts = max_attempts;
  lesson.journal = journal;  // bookkeeping, not a rule: no link carries it
  return *this == lesson;
}

bool operator==(const Backoff& a, const Backoff& b) {
  return a.kind == b.kind && a.base_ms == b.base_ms && a.cap_ms == b.cap_ms && a.jitter == b.jitter &&
         a.jitter_permille == b.jitter_permille;
}

bool operator==(const ClassRule& a, const ClassRule& b) {
  return a.retry == b.retry && a.max_attempts == b.max_attempts && a.own_backoff == b.own_backoff &&
         (!a.own_backoff || a.backoff == b.backoff) && a.alert == b.alert;
}

bool operator==(const ClassTable& a, const ClassTable& b) {
  for (int i = 0; i < kFailureClassCount; ++i) {
    if (!(a.rules[i] == b.rules[i])) return false;
  }
  return true;
}

bool operator==(const Policy& a, const Policy& b) {
  return a.max_attempts == b.max_attempts && a.backoff == b.backoff && a.lease_ms == b.lease_ms && a.seed == b.seed &&
         a.classes == b.classes && a.ordering == b.ordering && a.retention_ms == b.retention_ms &&
         a.alarm_depth == b.alarm_depth && a.unsafe_quarantine_order == b.unsafe_quarantine_order &&
         a.journal == b.journal && a.system == b.system && a.retry_topics == b.retry_topics &&
         a.multiplier_permille == b.multiplier_permille && a.no_recoverer == b.no_recoverer &&
         a.max_stalled_count == b.max_stalled_count && a.dead_max_jobs == b.dead_max_jobs &&
         a.remove_on_fail_count == b.remove_on_fail_count && a.retry_in_jitter == b.retry_in_jitter &&
         a.retry_every_error == b.retry_every_error && a.delivery_limit == b.delivery_limit &&
         a.dead_letter_exchange == b.dead_letter_exchange && a.dlq_max_length == b.dlq_max_length &&
         a.remove_on_fail == b.remove_on_fail && a.skip_dead_set == b.skip_dead_set &&
         a.effect_charge == b.effect_charge && a.effect_idempotency_key == b.effect_idempotency_key &&
         a.count_in_body == b.count_in_body && a.decide_before_count == b.decide_before_count &&
         a.dlq_to_source == b.dlq_to_source && a.delay_at == b.delay_at && a.max_length == b.max_length &&
         a.message_ttl_ms == b.message_ttl_ms && a.delayed_retry_type == b.delayed_retry_type &&
         a.delayed_retry_min_ms == b.delayed_retry_min_ms && a.delayed_retry_max_ms == b.delayed_retry_max_ms &&
         a.dead_letter_topic == b.dead_letter_topic && a.message_retention_ms == b.message_retention_ms &&
         a.retry_topics == b.retry_topics && a.multiplier_permille == b.multiplier_permille &&
         a.no_recoverer == b.no_recoverer && a.retry_for_ms == b.retry_for_ms &&
         a.discard_on_exhausted == b.discard_on_exhausted && a.tolerance_all == b.tolerance_all &&
         a.dlq_topic == b.dlq_topic && a.context_headers == b.context_headers &&
         a.retry_timeout_ms == b.retry_timeout_ms && a.requeue_with == b.requeue_with &&
         a.move_task_rate == b.move_task_rate && a.delivery_time == b.delivery_time &&
         a.default_message_ttl_ms == b.default_message_ttl_ms && a.dead_letter_on_expiry == b.dead_letter_on_expiry;
}

}  // namespace dlq
