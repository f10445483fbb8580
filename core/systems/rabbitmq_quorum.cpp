// rabbitmq-quorum: a RabbitMQ quorum queue with a dead-letter exchange (docs/real-systems.md).
//   * A message returned at once (nack/reject with requeue) goes back near the head,
//     as a quorum queue with a delivery-limit does; a classic queue (deliveryLimit
//     classic-queue) requeues it in its place and keeps no delivery count; RabbitMQ
//     3.x with no limit set returns it to the tail. A delayed one (the TTL
//     retry-queue pattern) goes to the tail, as in the lab.
//   * deliveryLimit says whether x-delivery-limit is set (maxAttempts - 1) or left to
//     the version's default (3.x: none; 4.0+: 20, so 21 deliveries).
//   * Each entry keeps its x-death record (policy.h, XDeath); reasons are x-death's:
//     delivery_limit, rejected, maxlen, expired.
//   * deadLetterExchange none drops a dead letter; dlqMaxLength is the DLQ's
//     x-max-length (overflow drop-head). maxLength and messageTtlMs (the source's
//     x-max-length and x-message-ttl) are read by the queue from their fields.
//   * delayedRetryType (RabbitMQ 4.3, rabbitmq.com/docs/quorum-queues#delayed-retry):
//     a return it applies to waits min(delayed-retry-min x delivery_count,
//     delayed-retry-max), the broker's own delay in place of the policy's backoff.
//     Every failure of the lab's worker is a genuine one (basic.reject, a lost
//     connection: counted in delivery_count), so "all" and "failed" apply and
//     "returned" (nack, released) does not. delivery_count after failed attempt n is n.
//   * deliveryTime backoff (4.3, quorum-queues "Explicit Delivery Time"; rabbit_fifo.erl's
//     should_delay): the worker returns a failed attempt with the AMQP 1.0 modified outcome
//     (delivery-failed=true: counted, as a reject is) carrying x-opt-delivery-time = now + the
//     policy's backoff. A time in the future "takes precedence over the calculated linear
//     back-off delay"; one not in the future (a delay of 0) falls through to the delayed retry,
//     if any applies. A crash (a lost connection) sends no outcome, so it waits the broker's
//     rule alone (CrashPolicy).
//   * requeueWith nack (4.3, "Poison message handling"): basic.nack raises only
//     x-acquired-count, so a nacked failure is not counted and is retried without end;
//     a crash (a lost connection) still counts.
#include <algorithm>
#include <cstdint>

#include "backoff.h"
#include "modules.h"

namespace dlq::systems {
namespace {

// RabbitMQ 4.0's default delivery-limit.
constexpr int64_t kRabbitMq4DeliveryLimit = 20;

// True when 4.3's delayed retry applies to a counted failure (a reject, a lost connection).
bool DelaysFailures(const Policy& p) {
  return p.delayed_retry_type == DelayedRetryType::kAll || p.delayed_retry_type == DelayedRetryType::kFailed;
}

// The least delay NextDelay can give after `attempt` (backoff.cpp's formulas): 0 means the
// consumer's x-opt-delivery-time may not be in the future, and the broker's rule then applies.
int64_t MinDelay(const Backoff& b, uint32_t attempt) {
  if (b.kind == BackoffKind::kNone) return 0;
  const int64_t v = UnjitteredDelay(b, attempt);
  switch (b.jitter) {
    case Jitter::kNone: return v;
    case Jitter::kFull: return 0;
    case Jitter::kEqual: return v / 2;
    case Jitter::kDecorrelated: return b.base_ms;
    case Jitter::kBullMq: return v * (1000 - b.jitter_permille) / 1000;
  }
  return 0;
}

bool ConsumerSetsDelay(const Policy& p) { return p.delivery_time == DeliveryTime::kBackoff; }

// 4.3's delay after failed attempt `attempt` (delivery_count = attempt): linear, capped.
// Policy::Check keeps min x count within int64 (min <= a day, count <= 1,000,000).
int64_t DelayedRetry(const Policy& p, uint32_t attempt) {
  const int64_t linear = p.delayed_retry_min_ms * static_cast<int64_t>(attempt);
  return linear < p.delayed_retry_max_ms ? linear : p.delayed_retry_max_ms;
}

class RabbitMqQuorumSystem final : public SystemRules {
 public:
  System id() const override { return System::kRabbitMqQuorum; }

  int64_t Budget(const Policy& p) const override {
    switch (p.delivery_limit) {
      case DeliveryLimit::kExplicit: return p.max_attempts;
      case DeliveryLimit::kUnset3: return Policy::kMaxAttempts;
      case DeliveryLimit::kClassicQueue: return Policy::kMaxAttempts;
      case DeliveryLimit::kUnset4: return kRabbitMq4DeliveryLimit + 1;
    }
    return p.max_attempts;
  }

  int64_t RetryDelay(const Policy& p, const Backoff& b, uint32_t attempt, int64_t previous,
                     Prng& jitter) const override {
    if (ConsumerSetsDelay(p)) {  // x-opt-delivery-time first; a time not in the future falls through
      const int64_t annotated = SystemRules::RetryDelay(p, b, attempt, previous, jitter);
      if (annotated > 0) return annotated;
    }
    if (DelaysFailures(p)) return DelayedRetry(p, attempt);
    return ConsumerSetsDelay(p) ? 0 : SystemRules::RetryDelay(p, b, attempt, previous, jitter);
  }
  int64_t MaxRetryDelay(const Policy& p, const Backoff& b, uint32_t attempt, int64_t previous_max) const override {
    if (ConsumerSetsDelay(p)) {
      const int64_t annotated = SystemRules::MaxRetryDelay(p, b, attempt, previous_max);
      // The broker's delay only when the annotation may be now (a delay of 0).
      const bool falls_through = DelaysFailures(p) && MinDelay(b, attempt) == 0;
      return falls_through ? std::max(annotated, DelayedRetry(p, attempt)) : annotated;
    }
    if (DelaysFailures(p)) return DelayedRetry(p, attempt);  // no jitter: the bound is the delay
    return SystemRules::MaxRetryDelay(p, b, attempt, previous_max);
  }
  // 4.3's delayed retry grows linearly until it reaches delayed-retry-max: from the first
  // attempt n with min x n >= max, every delay is max (min 0: every delay is 0). Under the
  // consumer's x-opt-delivery-time the backoff's settle point, and the linear one's too when
  // the delayed retry can still apply (MinDelay settles with the backoff's doubling).
  uint32_t MaxRetryDelaySettlesAt(const Policy& p, const Backoff& b) const override {
    const uint32_t backoff = SystemRules::MaxRetryDelaySettlesAt(p, b);
    if (!DelaysFailures(p)) return backoff;
    uint32_t linear = 1;
    if (p.delayed_retry_min_ms > 0 && p.delayed_retry_min_ms < p.delayed_retry_max_ms) {
      const int64_t n = (p.delayed_retry_max_ms + p.delayed_retry_min_ms - 1) / p.delayed_retry_min_ms;
      linear = n > static_cast<int64_t>(UINT32_MAX) ? UINT32_MAX : static_cast<uint32_t>(n);
    }
    return ConsumerSetsDelay(p) ? std::max(backoff, linear) : linear;
  }

  // A lost connection returns no modified outcome: no x-opt-delivery-time, the broker's delay.
  // The broker's rule alone: the delayed retry if it applies, else at once (with no delayed
  // retry, the annotation was the only delay: a delayed retry of 0 ms stands for none).
  Policy CrashPolicy(const Policy& p) const override {
    if (!ConsumerSetsDelay(p)) return p;
    Policy crash = p;
    crash.delivery_time = DeliveryTime::kBroker;
    if (!DelaysFailures(p)) {
      crash.delayed_retry_type = DelayedRetryType::kAll;
      crash.delayed_retry_min_ms = crash.delayed_retry_max_ms = 0;
    }
    return crash;
  }

  bool CountsFailure(const Policy& p, FailureClass c) const override {
    return p.requeue_with != RequeueWith::kNack || c == FailureClass::kCrash;
  }

  ReturnPlace ReturnTo(const Policy& p) const override {
    if (p.delivery_limit == DeliveryLimit::kUnset3) return ReturnPlace::kTail;
    return p.delivery_limit == DeliveryLimit::kClassicQueue ? ReturnPlace::kInPlace : ReturnPlace::kNearHead;
  }

  const char* ReasonName(Reason reason) const override {
    return reason == Reason::kExhausted   ? "delivery_limit"
           : reason == Reason::kPermanent ? "rejected"
           : reason == Reason::kMaxLength ? "maxlen"
           : reason == Reason::kExpired   ? "expired"
                                          : "";
  }

  // x-death: one entry per {queue, reason}, newest first; x-first-death-* never change.
  const char* RecordTitle() const override { return "x-death record"; }
  DeadLetterRecord Record(const EntryFacts& entry) const override {
    std::vector<std::vector<RecordField>> deaths;
    const XDeath& x = entry.x_death;
    Reason order[XDeath::kSlots];
    x.Order(order);
    for (const Reason reason : order) {
      const int slot = XDeathSlot(reason);
      if (slot < 0 || x.count[slot] == 0) continue;
      deaths.push_back({RecordField::Text("queue", kSourceQueueName), RecordField::Text("reason", ReasonName(reason)),
                        RecordField::Number("count", x.count[slot]), RecordField::Time("time", x.time[slot])});
    }
    return {RecordField::List("x-death", std::move(deaths)), RecordField::Text("x-first-death-queue", kSourceQueueName),
            RecordField::Text("x-first-death-reason", ReasonName(x.first))};
  }

  DropCause DeadLetterDrop(const Policy& p) const override {
    return p.dead_letter_exchange == DeadLetterExchange::kNone ? DropCause::kNoDeadLetterExchange : DropCause::kKept;
  }
  // The DLQ's x-max-length N (overflow drop-head) keeps the newest N.
  int64_t QuarantineKeepNewest(const Policy& p) const override { return p.dlq_max_length > 0 ? p.dlq_max_length : -1; }

  bool Keeps(JobRecord record) const override { return record == JobRecord::kXDeath; }
};

}  // namespace

const SystemRules& RabbitMqQuorum() {
  static const RabbitMqQuorumSystem system;
  return system;
}

}  // namespace dlq::systems
