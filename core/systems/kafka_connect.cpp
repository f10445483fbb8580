// kafka-connect: a sink connector's errors.* settings, as Connect's runtime applies them to a
// record failing in its converters and transformations (docs/real-systems.md, [C1]-[C4]).
//   * Retriable failures (the lab's transient and precondition: a RetriableException) are
//     retried while the failure comes before the first failure + errors.retry.timeout (0, the
//     default: never; Connect's -1, forever, is retryTimeoutMs kMaxTimeMs). Each wait is
//     RetryWithToleranceOperator.backoff: 300 ms << (retry - 1), Java's shift of a long, and past
//     errors.retry.delay.max.ms (capMs) a draw below it instead. A non-retriable failure
//     (permanent, undeserializable, unknown-schema) goes straight to tolerance handling.
//   * The retry loop sleeps in the task's thread, so the task takes nothing else meanwhile:
//     ordering stall in force.
//   * errors.tolerance none (the default): the task fails and stops; the record is not
//     dead-lettered and stays at its offset (StopHoldMs: held at the head). all: the record is
//     skipped, to the DLQ topic when one is named, else logged at most (DropCause).
//   * With errors.deadletterqueue.context.headers.enable the DLQ record carries the
//     DeadLetterQueueReporter's __connect.errors.* headers.
#include "modules.h"

#include "backoff.h"

namespace dlq::systems {
namespace {

// RETRIES_DELAY_MIN_MS << numRetry as Java computes it on a long: the shift count is taken
// mod 64 and the bits past 63 are lost, so the value may turn negative (JLS 15.19).
int64_t ShiftedDelay(uint32_t num_retry) {
  return static_cast<int64_t>(static_cast<uint64_t>(kKafkaConnectRetryDelayMinMs) << (num_retry & 63u));
}

bool Retriable(FailureClass c) {
  return c == FailureClass::kTransient || c == FailureClass::kPrecondition || c == FailureClass::kCrash;
}

class KafkaConnectSystem final : public SystemRules {
 public:
  System id() const override { return System::kKafkaConnect; }

  // Connect counts no attempts: only errors.retry.timeout ends the retries (RetryWindowMs).
  int64_t Budget(const Policy& p) const override { return (void)p, kMaxAttemptsField.max; }
  int64_t RetryWindowMs(const Policy& p) const override { return p.retry_timeout_ms; }

  // Only a RetriableException is retried (execAndRetry); anything else is handed to tolerance
  // at once. A timeout of 0 retries nothing: its deadline is the first attempt's start.
  void AdjustRule(const Policy& p, FailureClass c, ClassRule* rule) const override {
    if (!Retriable(c)) {
      rule->retry = false;
      return;
    }
    rule->retry = true;
    rule->own_backoff = false;  // one backoff for every retriable failure (Check keeps the table's)
    rule->max_attempts = p.retry_timeout_ms == 0 ? 1 : kMaxAttemptsField.max;
  }

  Ordering OrderingInForce(const Policy& p) const override { return (void)p, Ordering::kStall; }

  // backoff(attempt, deadline): delay = 300 << (attempt - 1); past the max, nextLong(max); a
  // negative one (the shift's overflow) makes await return at once. Connect also cuts the last
  // wait to the deadline; the lab does not (docs/real-systems.md): the same attempts, the last later.
  int64_t RetryDelay(const Policy& p, const Backoff& b, uint32_t attempt, int64_t previous,
                     Prng& jitter) const override {
    (void)p, (void)previous;
    const int64_t delay = ShiftedDelay(attempt - 1);
    if (delay > b.cap_ms) return jitter.Below(static_cast<uint32_t>(b.cap_ms));
    return delay < 0 ? 0 : delay;
  }
  int64_t MaxRetryDelay(const Policy& p, const Backoff& b, uint32_t attempt, int64_t previous_max) const override {
    (void)p, (void)previous_max;
    const int64_t delay = ShiftedDelay(attempt - 1);
    if (delay > b.cap_ms) return b.cap_ms - 1;
    return delay < 0 ? 0 : delay;
  }
  // The shift repeats every 64 retries: the delays never settle, so the worst case walks them.
  uint32_t MaxRetryDelaySettlesAt(const Policy& p, const Backoff& b) const override {
    return (void)p, (void)b, static_cast<uint32_t>(kMaxAttemptsField.max);
  }

  // A DLQ record carries the original record, and with context headers the exception; no reason.
  const char* ReasonName(Reason reason) const override { return (void)reason, ""; }
  // Without errors.deadletterqueue.context.headers.enable the DLQ record is the original key,
  // value and headers alone. With it, the DeadLetterQueueReporter's headers the lab can fill
  // ([C3]): the source topic and its one partition, the stage (a converter's for a payload it
  // cannot read, else a transformation's), the exception's message. The lab has no offsets,
  // connector name, task id or exception classes, so those headers are left out, not invented.
  const char* RecordTitle() const override { return "__connect.errors.* headers"; }
  DeadLetterRecord RecordUnder(const Policy& p, const EntryFacts& entry) const override {
    if (!p.context_headers) return {};
    const bool converter =
        entry.failure_class == FailureClass::kUndeserializable || entry.failure_class == FailureClass::kUnknownSchema;
    return {RecordField::Text("__connect.errors.topic", kSourceQueueName),
            RecordField::Number("__connect.errors.partition", 0),
            RecordField::Text("__connect.errors.stage", converter ? "VALUE_CONVERTER" : "TRANSFORMATION"),
            RecordField::Text("__connect.errors.exception.message", std::string(entry.last_error))};
  }

  int64_t StopHoldMs(const Policy& p) const override { return p.tolerance_all ? 0 : kMaxSidekiqDelayMs; }

  DropCause DeadLetterDrop(const Policy& p) const override {
    return p.tolerance_all && !p.dlq_topic ? DropCause::kNoDeadLetterQueueTopic : DropCause::kKept;
  }
};

}  // namespace

const SystemRules& KafkaConnect() {
  static const KafkaConnectSystem system;
  return system;
}

}  // namespace dlq::systems
