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
    return reason == Reason::kExhausted ? "MaxDeliveryCountExceeded" : dlq::ReasonName(reason);
  }

  const char* RecordTitle() const override { return "$DeadLetterQueue message"; }
  DeadLetterRecord Record(const EntryFacts& entry) const override {
    const bool broker = entry.reason == Reason::kExhausted;
    return {RecordField::Text("DeadLetterReason", ReasonName(entry.reason)),
            RecordField::Text("DeadLetterErrorDescription",
                              broker ? std::string(kServiceBusMaxDeliveryDescription) : std::string(entry.last_error)),
            RecordField::Number("DeliveryCount", entry.attempts), RecordField::Text("path", DeadLetterPath())};
  }
};

}  // namespace

const SystemRules& ServiceBus() {
  static const ServiceBusSystem system;
  return system;
}

}  // namespace dlq::systems
