// service-bus: an Azure Service Bus queue (or topic subscription) read in peek-lock mode
// (docs/real-systems.md, Azure Service Bus).
//   * maxAttempts is MaxDeliveryCount (Service Bus's default 10, minimum 1): abandon and
//     an expired lock (leaseMs is the lockDuration, at most 5 minutes: Policy::Check)
//     each raise DeliveryCount; past the count the broker dead-letters the message.
//   * Abandon "will make the message available again for immediate processing": no
//     delay, whatever the class. Policy::Check refuses a backoff (one would be the
//     application's own scheduling, a new message whose DeliveryCount starts again);
//     the default table's precondition delay plays at once here.
//   * Where an abandoned message stands among the others is not documented (a queue
//     without sessions promises no order), so it keeps the lab's rule: the tail.
//   * A dead letter goes to the queue's $DeadLetterQueue sub-queue, which always exists
//     (it "doesn't need to be explicitly created and can't be deleted"), so nothing is
//     dropped. Its record: DeadLetterReason MaxDeliveryCountExceeded with the broker's
//     DeadLetterErrorDescription, or, for a failure the worker calls permanent, the
//     application's own DeadLetterMessageAsync(message, reason, description): the lab's
//     reason name and the worker's error; and DeliveryCount.
//   * defaultMessageTimeToLive (defaultMessageTtlMs; 0 is TimeSpan.MaxValue, none) counts
//     from the enqueue ("expires-at-utc ... enqueued-time-utc + time-to-live"): an abandon
//     or an expired lock is no new enqueue, so it keeps it (RetryRepublishes false). Past it
//     a message is "ineligible for retrieval" wherever it stands (ExpiresInPlace: a receive
//     skips it; the ready head is expired when its time comes), a locked one is "still
//     handled normally" until its lock ends, and one abandoned or whose lock expires past
//     it is expired at once. deadLetteringOnMessageExpiration (deadLetterOnExpiry) sends it
//     to $DeadLetterQueue with DeadLetterReason TTLExpiredException; without it "expired
//     messages are dropped" (DropCause::kNoDeadLetteringOnExpiration). An abandon that
//     exhausts MaxDeliveryCount is decided first (which wins is not documented).
//   * The DLQ observes no time-to-live and has no automatic clean-up: the lab's
//     quarantine retention (retentionMs) is the operator's own, as in the lab.
#include "modules.h"

namespace dlq::systems {
namespace {

// The DLQ's path as Service Bus spells it: <queue path>/$deadletterqueue.
std::string DeadLetterPath() { return std::string(kSourceQueueName) + "/$deadletterqueue"; }

class ServiceBusSystem final : public SystemRules {
 public:
  System id() const override { return System::kServiceBus; }

  // Abandon: at once (Check has refused any backoff but the default precondition's).
  int64_t RetryDelay(const Policy& p, const Backoff& b, uint32_t attempt, int64_t previous,
                     Prng& jitter) const override {
    (void)p, (void)b, (void)attempt, (void)previous, (void)jitter;
    return 0;
  }
  int64_t MaxRetryDelay(const Policy& p, const Backoff& b, uint32_t attempt, int64_t previous_max) const override {
    (void)p, (void)b, (void)attempt, (void)previous_max;
    return 0;
  }
  uint32_t MaxRetryDelaySettlesAt(const Policy& p, const Backoff& b) const override { return (void)p, (void)b, 1; }

  const char* ReasonName(Reason reason) const override {
    return reason == Reason::kExhausted ? "MaxDeliveryCountExceeded"
           : reason == Reason::kExpired ? "TTLExpiredException"
                                        : dlq::ReasonName(reason);
  }

  int64_t MessageTtl(const Policy& p) const override { return p.default_message_ttl_ms; }
  bool RetryRepublishes() const override { return false; }
  DropCause ExpiryDrop(const Policy& p) const override {
    return p.dead_letter_on_expiry ? DropCause::kKept : DropCause::kNoDeadLetteringOnExpiration;
  }
  bool ExpiresInPlace() const override { return true; }

  const char* RecordTitle() const override { return "$DeadLetterQueue message"; }
  DeadLetterRecord Record(const EntryFacts& entry) const override {
    const char* broker = entry.reason == Reason::kExhausted ? kServiceBusMaxDeliveryDescription
                         : entry.reason == Reason::kExpired ? kServiceBusExpiredDescription
                                                            : nullptr;
    return {RecordField::Text("DeadLetterReason", ReasonName(entry.reason)),
            RecordField::Text("DeadLetterErrorDescription",
                              broker != nullptr ? std::string(broker) : std::string(entry.last_error)),
            RecordField::Number("DeliveryCount", entry.attempts), RecordField::Text("path", DeadLetterPath())};
  }
};

}  // namespace

const SystemRules& ServiceBus() {
  static const ServiceBusSystem system;
  return system;
}

}  // namespace dlq::systems
