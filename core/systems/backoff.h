// The retry clock's formulas, pure: no queue, no state but the PRNG passed in.
// Policy::Check() has accepted the Backoff given to every function here.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "policy.h"
#include "prng.h"

namespace dlq {

// The delay before jitter after failed attempt `attempt` (1-based): 0 for none,
// baseMs for fixed, min(capMs, baseMs * 2^(attempt-1)) for exponential (no
// overflow for any attempt count).
int64_t UnjitteredDelay(const Backoff& backoff, uint32_t attempt);

// The delay after failed attempt `attempt`, with jitter drawn from `jitter` (one
// draw per jittered delay; none for kind none or jitter none). `previous` is the
// job's previous delay, or 0 before its first retry (decorrelated then uses baseMs).
int64_t NextDelay(const Backoff& backoff, uint32_t attempt, int64_t previous, Prng& jitter);

// The largest delay NextDelay can give after `attempt`, when the job's previous
// delay was at most `previous_max` (0 before its first retry).
int64_t MaxDelay(const Backoff& backoff, uint32_t attempt, int64_t previous_max);
// The first attempt from which MaxDelay(backoff, n, previous_max) is the same for every
// n (it may still read previous_max): 1 for none, fixed and decorrelated jitter; for
// exponential the attempt whose doubling reaches the cap (or stops doubling).
uint32_t MaxDelaySettlesAt(const Backoff& backoff);

// The retry delay under the policy's system after failed attempt `attempt`, with
// `backoff` the rule's: the system's module decides (system.h, SystemRules::RetryDelay;
// the lab's is NextDelay). Every delay stops at kMaxDelayMs, Sidekiq's default
// schedule at kMaxSidekiqDelayMs.
int64_t RetryDelay(const Policy& policy, const Backoff& backoff, uint32_t attempt, int64_t previous, Prng& jitter);
// The largest delay RetryDelay can give, as MaxDelay for NextDelay.
int64_t MaxRetryDelay(const Policy& policy, const Backoff& backoff, uint32_t attempt, int64_t previous_max);

// The bounded path: the most attempts and the longest time a job can spend from
// its first lease to quarantine when it is leased as soon as it is ready:
// attempts * lease_ms (every lease running to its expiry) plus, after each of
// attempts 1..attempts-1, the largest delay any failure class that may still
// retry then can give (its own backoff or the policy's). `attempts` is the
// largest budget of a class that retries (the policy's maxAttempts by default).
// The teaching switches count too: under decide_before_count a retrying class's
// budget of N gives N + 1 attempts (one delay more); under count_in_body a crash
// is never counted, so when the crash class retries (and the system counts it as
// the lab does: not as a stall, SystemRules::CountsStalls, whose budget bounds it)
// a job whose worker keeps crashing is leased forever: `unbounded`, and time_ms
// bounds only the other paths.
//
// Under a system that counts stalls a crash is not an attempt while the stall
// budget lasts (SystemRules::StallBudget): each such stall is one more lease run
// to its expiry.
//
// The sum's terms, so a page can say where each part comes from:
// time_ms == (attempts + stalls) * lease_ms + the sum over delays of
// (last_attempt - first_attempt + 1) * delay_ms, always. Consecutive retries
// with the same delay from the same class are one run (a capped backoff's tail
// of equal waits is one term), so a budget of 1,000,000 still gives a few terms.
struct WorstDelay {
  uint32_t first_attempt = 0;  // the failed attempts it follows: first..last, within 1..attempts-1
  uint32_t last_attempt = 0;
  int64_t delay_ms = 0;  // each: the largest delay any class still retrying then can give
  // The first class (in FailureClass order) that gives it, and whether with its
  // own backoff (else the policy's); kTransient, the policy's, when all give 0.
  FailureClass failure_class = FailureClass::kTransient;
  bool own_backoff = false;
  bool operator==(const WorstDelay&) const = default;
};
struct WorstCase {
  uint32_t attempts = 0;
  int64_t time_ms = 0;
  int64_t lease_ms = 0;  // each attempt's lease (the policy's leaseMs)
  uint32_t stalls = 0;   // leases a stall budget adds (bullmq's maxStalledCount; 0 where crashes are attempts)
  FailureClass attempts_class = FailureClass::kTransient;  // the first class with the largest budget
  std::vector<WorstDelay> delays;                          // the runs of retries' delays, in attempt order
  bool unbounded = false;                                  // count_in_body: a crash loop has no end (see above)
};
// The failure classes a bounded path counts: those that can happen where it is
// shown (a playground whose reader can report only some outcomes, whose world
// produces only some failures). A class outside it gives no budget, no wait and
// (crash) no stall or crash loop. The default is every class.
class FailureScope {
 public:
  FailureScope() = default;
  static FailureScope Only(std::initializer_list<FailureClass> classes);
  void Add(FailureClass c) { mask_ |= Bit(c); }
  bool Has(FailureClass c) const { return (mask_ & Bit(c)) != 0; }
  bool operator==(const FailureScope&) const = default;

 private:
  static constexpr uint32_t Bit(FailureClass c) { return uint32_t{1} << static_cast<int>(c); }
  uint32_t mask_ = (uint32_t{1} << kFailureClassCount) - 1;
};
WorstCase WorstCasePath(const Policy& policy, const FailureScope& scope = {});

}  // namespace dlq
