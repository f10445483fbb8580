// Internal to the core: not part of the API dlq.h gives (layers of the core use it).
// The one place the attempt budget is decided. Every path that ends an attempt
// (a process(), a settle, a lease expiry) calls Decide(); nothing else chooses
// between completing, retrying and quarantining.
#pragma once

#include <cstdint>
#include <optional>

#include "policy.h"
#include "prng.h"

namespace dlq {

class SystemRules;

struct Decision {
  Disposition disposition = Disposition::kCompleted;
  Reason reason = Reason::kNone;  // set when quarantined
  int64_t delay_ms = 0;           // set when kDelayed (> 0); kRequeued means 0
  uint32_t budget = 0;            // the attempt budget in force (the class's, resolved)
  bool alert = false;             // quarantined with a class that raises an alert
  bool uncounted = false;         // the attempt does not count (a BullMQ stall sent back to wait)
};

// The attempt has been counted already: `attempts` includes it. `failure` is the
// failure's class, or nullopt for a success. With rule = policy.RuleFor(class):
//   success                                   -> completed
//   rule never retries                        -> quarantine at once, reason permanent
//   rule bounded, attempts < rule.maxAttempts -> retry after RetryDelay(policy, rule.backoff):
//                                                requeued (0) or delayed
//   rule bounded, attempts >= rule.maxAttempts -> quarantine, reason exhausted
// Under policy.decide_before_count (an anti-pattern switch) the budget is
// compared with attempts - 1, the count before this attempt: one attempt too many.
// `previous_delay` is the job's previous delay (0 before its first retry); the
// jitter stream is drawn from only when a jittered delay is chosen.
// Under delayAt consumer-sleep or retry-queue a crash's retry is requeued at once
// (no jitter drawn): the delay would need the consumer that crashed.
// Under a system that counts stalls (SystemRules::CountsStalls: bullmq) a crash is a
// stall, decided by the stall budget instead: `stalls` (this one included) <=
// StallBudget (maxStalledCount) -> requeued, uncounted (BullMQ's attemptsMade leaves
// stalls out); past it -> quarantine, reason stalled, the attempt counted (BullMQ
// raises attemptsMade when it fails a job for stalling).
// A failure the system does not count (SystemRules::CountsFailure false: RabbitMQ 4.3's
// nack) of a class that retries is retried with the budget unread: uncounted, after
// NextDelay(the rule's backoff, attempt 1).
// Under a retry window (SystemRules::RetryWindowMs > 0: sidekiq's retry_for) a
// failure `since_first_failure` ms at or past the window after the job's first
// failure (0 for the first failure itself) is not retried: quarantine, reason
// exhausted (before the budget is compared; a never-retry class stays permanent).
Decision Decide(const Policy& policy, std::optional<FailureClass> failure, uint32_t attempts, int64_t previous_delay,
                Prng& jitter, uint32_t stalls = 0, int64_t since_first_failure = 0);

// What Decide asks of the policy's system, resolved once: each field is the hook's
// answer for `policy` (the hooks are pure functions of the policy). A queue's policy
// never changes, so it resolves these at creation; asked per attempt they were a
// tenth of lesson 1's process cost (the registry lookup and a virtual call each).
struct DecideRules {
  explicit DecideRules(const Policy& policy);
  const SystemRules* system;
  uint32_t budget;                          // Policy::Budget()
  ClassRule rules[kFailureClassCount];      // Policy::RuleFor(c)
  bool counts_failure[kFailureClassCount];  // SystemRules::CountsFailure(policy, c)
  bool counts_stalls;                       // SystemRules::CountsStalls()
  int64_t stall_budget, retry_window_ms, stop_hold_ms;
};

// Decide, with `rules` == DecideRules(policy): the same decision.
Decision Decide(const Policy& policy, const DecideRules& rules, std::optional<FailureClass> failure, uint32_t attempts,
                int64_t previous_delay, Prng& jitter, uint32_t stalls = 0, int64_t since_first_failure = 0);

}  // namespace dlq
