// sidekiq: Sidekiq 6/7 (docs/real-systems.md).
//   * With backoff kind none the delay is Sidekiq's own (job_retry.rb delay_for):
//     count^4 + 15 + rand(10) * (count + 1) s, count = attempts - 1.
//   * retryInJitter: a custom delay (backoff fixed or exponential) gets 6.4.1's
//     jitter rand(10) * (count + 1) s on top; under 1 s it falls back to the above.
//   * retryEveryError: 6.4.1 has no :kill, so every failure but a crash retries up
//     to maxAttempts, its class's never-retry or budget ignored.
//   * The Dead set is trimmed at each kill, not by a timer: entries at least the dead
//     timeout old (retentionMs; 0: Sidekiq's 180 days) go, and the newest
//     deadMaxJobs - 1 stay (zremrangebyrank(0, -N)). dead: false drops a dead job.
//   * Retrying a dead job gives it one more run (its count goes down by one).
//   * retryForMs (7.1.3's retry_for, job_retry.rb): a failure is not retried once
//     (failed_at + retry_for) < now, failed_at being the first failure's time (a retried
//     dead job keeps it); 8.1.0 makes it exclusive with retry, so the count is not read.
//   * discardOnExhausted: sidekiq_retries_exhausted returns :discard (7.2+), so a job
//     whose retries end (or that is killed) is dropped, not put in the Dead set.
#include "modules.h"

#include <algorithm>

#include "backoff.h"

namespace dlq::systems {
namespace {

// Sidekiq's default delay in ms after failed attempt `attempt`, with `extra` its rand(10) draw.
int64_t DefaultDelay(uint32_t attempt, int64_t extra) {
  const int64_t count = static_cast<int64_t>(attempt) - 1;  // retry_count: 0 at the first failure
  if (count > 24) return kMaxSidekiqDelayMs;                // 25^4 s is past four days already (and no overflow)
  return std::min(kMaxSidekiqDelayMs, (count * count * count * count + 15 + extra * (count + 1)) * 1000);
}

// Sidekiq 6.4.1's delay_for with a custom sidekiq_retry_in returning `custom_ms`
// (the lab's delay) and `extra` its rand(10) draw: the jitter rand(10) * (count + 1) s
// is added to it; a custom delay whose to_i is 0 (under 1 s) falls back to the default.
int64_t CustomDelay(uint32_t attempt, int64_t custom_ms, int64_t extra) {
  if (custom_ms < 1000) return DefaultDelay(attempt, extra);
  const int64_t count = static_cast<int64_t>(attempt) - 1;
  return std::min(kMaxDelayMs, custom_ms + extra * (count + 1) * 1000);
}

// The smallest delay NextDelay can give after `attempt` (its jitter's lowest draw),
// as far as the fallback under 1 s needs it.
int64_t LeastDelay(const Backoff& b, uint32_t attempt) {
  const int64_t v = UnjitteredDelay(b, attempt);
  switch (b.jitter) {
    case Jitter::kNone: return v;
    case Jitter::kFull: return 0;
    case Jitter::kEqual: return v / 2;
    case Jitter::kDecorrelated: return std::min(b.cap_ms, b.base_ms);
    case Jitter::kBullMq: break;
  }
  return v;
}

class SidekiqSystem final : public SystemRules {
 public:
  System id() const override { return System::kSidekiq; }

  // retry_for and retry are exclusive (8.1.0): with a window the count is the lab's ceiling.
  int64_t Budget(const Policy& p) const override { return p.retry_for_ms > 0 ? kMaxAttemptsField.max : p.max_attempts; }
  // (failed_at + retry_for) < now: still retried at exactly failed_at + retry_for (ms clock).
  int64_t RetryWindowMs(const Policy& p) const override { return p.retry_for_ms > 0 ? p.retry_for_ms + 1 : 0; }

  void AdjustRule(const Policy& p, FailureClass c, ClassRule* rule) const override {
    if (!p.retry_every_error || c == FailureClass::kCrash) return;
    rule->retry = true;  // no :kill on 6.4.1: the exception is retried as any other
    rule->max_attempts = Budget(p);
  }

  int64_t RetryDelay(const Policy& p, const Backoff& b, uint32_t attempt, int64_t previous,
                     Prng& jitter) const override {
    if (b.kind == BackoffKind::kNone) return DefaultDelay(attempt, jitter.Below(10));
    if (p.retry_in_jitter) {
      const int64_t extra = jitter.Below(10);  // Ruby draws rand(10) before it calls the block
      return CustomDelay(attempt, NextDelay(b, attempt, previous, jitter), extra);
    }
    return NextDelay(b, attempt, previous, jitter);
  }
  int64_t MaxRetryDelay(const Policy& p, const Backoff& b, uint32_t attempt, int64_t previous_max) const override {
    if (b.kind == BackoffKind::kNone) return DefaultDelay(attempt, 9);
    if (p.retry_in_jitter) {
      // The largest custom delay with the largest draw, or the fallback when a draw can be under 1 s.
      int64_t most = CustomDelay(attempt, MaxDelay(b, attempt, previous_max), 9);
      if (LeastDelay(b, attempt) < 1000) most = std::max(most, DefaultDelay(attempt, 9));
      return most;
    }
    return MaxDelay(b, attempt, previous_max);
  }
  // The default delay stops growing after count 24 (attempt 26); the custom delay's jitter,
  // 9 * (count + 1) s at its top, passes kMaxDelayMs by count kMaxDelayMs / 9 s.
  uint32_t MaxRetryDelaySettlesAt(const Policy& p, const Backoff& b) const override {
    constexpr uint32_t kDefaultSettles = 26;
    if (b.kind == BackoffKind::kNone) return kDefaultSettles;
    if (!p.retry_in_jitter) return MaxDelaySettlesAt(b);
    constexpr auto kCustomSettles = static_cast<uint32_t>(kMaxDelayMs / 9000 + 1);
    return std::max({MaxDelaySettlesAt(b), kDefaultSettles, kCustomSettles});
  }

  const char* RecordTitle() const override { return "Sidekiq Dead set job"; }
  DeadLetterRecord Record(const EntryFacts& entry) const override {
    return {RecordField::Number("retry_count", entry.attempts - 1),
            RecordField::Text("error_message", std::string(entry.last_error))};
  }

  DropCause DeadLetterDrop(const Policy& p) const override {
    if (p.skip_dead_set) return DropCause::kNoDeadSet;  // msg["dead"] == false is read first
    return p.discard_on_exhausted ? DropCause::kExhaustedDiscard : DropCause::kKept;
  }
  bool LazyRetention() const override { return true; }
  int64_t LazyRetentionAge(const Policy& p) const override {
    return p.retention_ms == 0 ? kSidekiqDeadTimeoutMs : p.retention_ms;
  }
  // dead_max_jobs N keeps the newest N - 1 (zremrangebyrank(0, -N) after the add).
  int64_t QuarantineKeepNewest(const Policy& p) const override { return p.dead_max_jobs - 1; }

  uint32_t AttemptsAfterReplay(uint32_t attempts) const override { return attempts > 0 ? attempts - 1 : 0; }
};

}  // namespace

const SystemRules& Sidekiq() {
  static const SidekiqSystem system;
  return system;
}

}  // namespace dlq::systems
