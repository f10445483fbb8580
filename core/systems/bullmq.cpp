// bullmq: BullMQ 6 (docs/real-systems.md).
//   * Exponential backoff has no cap (the lab's delays still stop at a day).
//   * A crash (a lease that expires: a stall) is not an attempt; stalls have their
//     own budget, maxStalledCount, past which the job fails (reason stalled, with
//     BullMQ's failedReason); the queue keeps each job's stall count.
//   * Retention is lazy: entries are evicted when a later job fails (removeOnFail
//     {age}), not by a timer; removeOnFail N keeps the newest N; removeOnFail true
//     keeps none (the dead letter is dropped).
//   * job.retry() without resetAttemptsMade: a replay may keep the attempts.
#include "modules.h"

#include "backoff.h"

namespace dlq::systems {
namespace {

// The backoff as BullMQ applies it: its exponential has no cap.
Backoff Uncapped(const Backoff& b) {
  Backoff out = b;
  if (b.kind == BackoffKind::kExponential) out.cap_ms = kMaxDelayMs;
  return out;
}

class BullMqSystem final : public SystemRules {
 public:
  System id() const override { return System::kBullMq; }

  bool CountsStalls() const override { return true; }
  int64_t StallBudget(const Policy& p) const override { return p.max_stalled_count; }

  int64_t RetryDelay(const Policy& p, const Backoff& b, uint32_t attempt, int64_t previous,
                     Prng& jitter) const override {
    (void)p;
    return NextDelay(Uncapped(b), attempt, previous, jitter);
  }
  int64_t MaxRetryDelay(const Policy& p, const Backoff& b, uint32_t attempt, int64_t previous_max) const override {
    (void)p;
    return MaxDelay(Uncapped(b), attempt, previous_max);
  }
  uint32_t MaxRetryDelaySettlesAt(const Policy& p, const Backoff& b) const override {
    (void)p;
    return MaxDelaySettlesAt(Uncapped(b));
  }

  const char* OwnError(Reason reason) const override {
    return reason == Reason::kStalled ? kBullMqStalledError : nullptr;
  }
  const char* RecordTitle() const override { return "BullMQ failed job"; }
  DeadLetterRecord Record(const EntryFacts& entry) const override {
    return {RecordField::Number("attemptsMade", entry.attempts), RecordField::Number("stalledCounter", entry.stalls),
            RecordField::Text("failedReason", std::string(entry.last_error)),
            RecordField::Time("finishedOn", entry.arrived_at)};
  }

  DropCause DeadLetterDrop(const Policy& p) const override {
    return p.remove_on_fail ? DropCause::kRemoveOnFail : DropCause::kKept;
  }
  bool LazyRetention() const override { return true; }
  int64_t QuarantineKeepNewest(const Policy& p) const override {
    return p.remove_on_fail_count > 0 ? p.remove_on_fail_count : -1;
  }

  bool CanReplayKeepingAttempts() const override { return true; }
  bool Keeps(JobRecord record) const override { return record == JobRecord::kStalls; }
};

}  // namespace

const SystemRules& BullMq() {
  static const BullMqSystem system;
  return system;
}

}  // namespace dlq::systems
