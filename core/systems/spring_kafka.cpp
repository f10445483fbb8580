// spring-kafka: a Spring Kafka listener's error handling (docs/real-systems.md, [F1]-[F3]).
//   * Blocking (the default): the DefaultErrorHandler seeks the partition back to the
//     failed record and retries it after its BackOff, holding the partition meanwhile
//     (the ordering in force is stall, whatever the field says; Check refuses key). Its default is FixedBackOff(0, 9):
//     ten deliveries, no delay (maxAttempts 10, backoff none).
//   * retryTopics (@RetryableTopic): the record is republished to retry topics and the
//     partition moves on (ordering none); attempts counts the first, as maxAttempts does.
//   * ExponentialBackOff (and @RetryableTopic's multiplier): each delay is the previous
//     one times the multiplier, truncated to whole ms as Java's (long) cast does, up to
//     the max interval (capMs); no jitter. multiplierPermille 2000 is the lab's doubling.
//   * A record that fails for good goes to the dead-letter topic with the
//     DeadLetterPublishingRecoverer's kafka_dlt-* headers (no reason, no count: the
//     handler's count lives in memory); with noRecoverer it is logged and skipped.
#include "modules.h"

#include <algorithm>

#include "backoff.h"

namespace dlq::systems {
namespace {

// The next interval of Spring's ExponentialBackOff: (long) (current * multiplier), at most the max.
int64_t NextInterval(int64_t current, int64_t multiplier_permille, int64_t cap_ms) {
  return std::min(cap_ms, current * multiplier_permille / 1000);
}

// The delay after failed attempt `attempt` (1-based) of an exponential backoff: initial, then
// each the previous times the multiplier. Stops early once it no longer changes.
int64_t ExponentialDelay(const Backoff& b, int64_t multiplier_permille, uint32_t attempt) {
  int64_t v = std::min(b.base_ms, b.cap_ms);
  for (uint32_t n = 1; n < attempt; ++n) {
    const int64_t next = NextInterval(v, multiplier_permille, b.cap_ms);
    if (next == v) break;  // a fixed point (the cap, or a multiplier too small to add 1 ms)
    v = next;
  }
  return v;
}

class SpringKafkaSystem final : public SystemRules {
 public:
  System id() const override { return System::kSpringKafka; }

  // Blocking: the handler seeks the partition back to the failed record, so nothing behind
  // it is taken until it settles (stall). Retry topics: it leaves the partition (none).
  Ordering OrderingInForce(const Policy& p) const override {
    return p.retry_topics ? Ordering::kNone : Ordering::kStall;
  }

  int64_t RetryDelay(const Policy& p, const Backoff& b, uint32_t attempt, int64_t previous,
                     Prng& jitter) const override {
    if (b.kind != BackoffKind::kExponential) return NextDelay(b, attempt, previous, jitter);
    return ExponentialDelay(b, p.multiplier_permille, attempt);
  }
  int64_t MaxRetryDelay(const Policy& p, const Backoff& b, uint32_t attempt, int64_t previous_max) const override {
    if (b.kind != BackoffKind::kExponential) return MaxDelay(b, attempt, previous_max);
    return ExponentialDelay(b, p.multiplier_permille, attempt);
  }
  // The first attempt whose delay is a fixed point of the recurrence (every later one equals it).
  uint32_t MaxRetryDelaySettlesAt(const Policy& p, const Backoff& b) const override {
    if (b.kind != BackoffKind::kExponential) return MaxDelaySettlesAt(b);
    int64_t v = std::min(b.base_ms, b.cap_ms);
    uint32_t n = 1;
    for (int64_t next = NextInterval(v, p.multiplier_permille, b.cap_ms); next != v;
         next = NextInterval(v, p.multiplier_permille, b.cap_ms)) {
      v = next;
      ++n;
    }
    return n;
  }

  // A dead-letter record carries the exception, not a reason.
  const char* ReasonName(Reason reason) const override { return (void)reason, ""; }
  // The DeadLetterPublishingRecoverer's headers the lab can fill ([F3], KafkaHeaders): the
  // source topic and its one partition, and the last exception's message. It has no offsets,
  // exception classes or consumer group, so those headers are left out rather than invented.
  const char* RecordTitle() const override { return "kafka_dlt-* headers"; }
  DeadLetterRecord Record(const EntryFacts& entry) const override {
    return {RecordField::Text("kafka_dlt-original-topic", kSourceQueueName),
            RecordField::Number("kafka_dlt-original-partition", 0),
            RecordField::Text("kafka_dlt-exception-message", std::string(entry.last_error))};
  }

  DropCause DeadLetterDrop(const Policy& p) const override {
    return p.no_recoverer ? DropCause::kNoRecoverer : DropCause::kKept;
  }
};

}  // namespace

const SystemRules& SpringKafka() {
  static const SpringKafkaSystem system;
  return system;
}

}  // namespace dlq::systems
