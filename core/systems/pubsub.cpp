// pubsub: a Google Cloud Pub/Sub subscription (docs/real-systems.md, Pub/Sub rows).
//   * The budget is dead_letter_policy.max_delivery_attempts (the lab's maxAttempts,
//     5..100, Policy::Check); every delivery counts, an expired ack deadline (the
//     lease) included.
//   * retry_policy's minimum_backoff / maximum_backoff are the lab's exponential
//     baseMs / capMs (exponential between them, no jitter); no retry_policy is
//     backoff none, immediate redelivery. Both are the lab's own rules: no hook.
//   * With no dead-letter topic (deadLetterTopic none) there is no count: a message
//     is redelivered until message_retention_duration after its publish, then
//     deleted (expired at the ready head, discarded); a retry is a redelivery, not
//     a publish, so it keeps the publish time. A failure the worker acks as
//     permanent is dropped. With a dead-letter topic, expiry is not modelled (the
//     budget ends a message's life first in every set-up the lab plays).
//   * A dead-lettered message carries no reason: its data and the attributes
//     Pub/Sub adds (CloudPubSubDeadLetterSource*), with its delivery attempt.
#include "modules.h"

namespace dlq::systems {
namespace {

class PubSubSystem final : public SystemRules {
 public:
  System id() const override { return System::kPubSub; }

  // No dead-letter policy: no delivery count, so nothing ends a message but its expiry.
  int64_t Budget(const Policy& p) const override {
    return p.dead_letter_topic == DeadLetterTopic::kNone ? Policy::kMaxAttempts : p.max_attempts;
  }

  const char* ReasonName(Reason reason) const override { return (void)reason, ""; }
  // The message as the dead-letter topic's subscriber receives it: its data and the
  // attributes Pub/Sub adds (the source's delivery count: its delivery_attempt there).
  const char* RecordTitle() const override { return "Pub/Sub dead-letter attributes"; }
  DeadLetterRecord Record(const EntryFacts& entry) const override {
    return {RecordField::Text("data", std::string(entry.payload)),
            RecordField::Number("CloudPubSubDeadLetterSourceDeliveryCount", entry.attempts),
            RecordField::Text("CloudPubSubDeadLetterSourceSubscription", kSourceQueueName),
            RecordField::Time("CloudPubSubDeadLetterSourceTopicPublishTime", entry.enqueued_at)};
  }

  DropCause DeadLetterDrop(const Policy& p) const override {
    return p.dead_letter_topic == DeadLetterTopic::kNone ? DropCause::kNoDeadLetterTopic : DropCause::kKept;
  }

  int64_t MessageTtl(const Policy& p) const override {
    return p.dead_letter_topic == DeadLetterTopic::kNone ? p.message_retention_ms : 0;
  }
  bool RetryRepublishes() const override { return false; }

  bool Keeps(JobRecord record) const override { return record == JobRecord::kFirstEnqueue; }
};

}  // namespace

const SystemRules& PubSub() {
  static const PubSubSystem system;
  return system;
}

}  // namespace dlq::systems
