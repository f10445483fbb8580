#include "rules.h"

#include "backoff.h"
#include "registry.h"

namespace dlq {

namespace {

// The count the budget is compared with: this attempt's, counted first; the one
// before it under the decide-before-count anti-pattern (an attempt too many).
uint32_t CountForBudget(const Policy& policy, uint32_t attempts) {
  return policy.decide_before_count && attempts > 0 ? attempts - 1 : attempts;
}

}  // namespace

DecideRules::DecideRules(const Policy& policy)
    : system(&SystemOf(policy)),
      budget(static_cast<uint32_t>(policy.Budget())),
      counts_stalls(system->CountsStalls()),
      stall_budget(system->StallBudget(policy)),
      retry_window_ms(system->RetryWindowMs(policy)),
      stop_hold_ms(system->StopHoldMs(policy)) {
  for (int c = 0; c < kFailureClassCount; ++c) {
    rules[c] = policy.RuleFor(static_cast<FailureClass>(c));
    counts_failure[c] = system->CountsFailure(policy, static_cast<FailureClass>(c));
  }
}

Decision Decide(const Policy& policy, std::optional<FailureClass> failure, uint32_t attempts, int64_t previous_delay,
                Prng& jitter, uint32_t stalls, int64_t since_first_failure) {
  return Decide(policy, DecideRules(policy), failure, attempts, previous_delay, jitter, stalls, since_first_failure);
}

Decision Decide(const Policy& policy, const DecideRules& rules, std::optional<FailureClass> failure, uint32_t attempts,
                int64_t previous_delay, Prng& jitter, uint32_t stalls, int64_t since_first_failure) {
  Decision d;
  if (!failure.has_value()) {
    d.disposition = Disposition::kCompleted;
    d.budget = rules.budget;
    return d;
  }
  const ClassRule& rule = rules.rules[static_cast<int>(*failure)];
  d.budget = static_cast<uint32_t>(rule.max_attempts);
  const SystemRules& system = *rules.system;
  if (rules.counts_stalls && *failure == FailureClass::kCrash) {
    if (stalls > static_cast<uint64_t>(rules.stall_budget)) {
      d.disposition = Disposition::kQuarantined;
      d.reason = Reason::kStalled;
    } else {
      d.disposition = Disposition::kRequeued;
      d.uncounted = true;
    }
    d.alert = d.disposition == Disposition::kQuarantined && rule.alert;
    return d;
  }
  const int64_t window = rules.retry_window_ms;
  if (!rule.retry) {
    d.disposition = Disposition::kQuarantined;
    d.reason = Reason::kPermanent;
  } else if (!rules.counts_failure[static_cast<int>(*failure)]) {
    // Not counted (4.3's nack): retried whatever the budget; the count stays, so the delay is
    // the policy's after attempt 1 (no system rule: the return is not one of its failures).
    d.uncounted = true;
    d.delay_ms = NextDelay(rule.backoff, 1, previous_delay, jitter);
    d.disposition = d.delay_ms > 0 ? Disposition::kDelayed : Disposition::kRequeued;
  } else if (window > 0 && since_first_failure >= window) {
    d.disposition = Disposition::kQuarantined;  // the window is over (sidekiq's retry_for)
    d.reason = Reason::kExhausted;
  } else if (CountForBudget(policy, attempts) < static_cast<uint64_t>(rule.max_attempts)) {
    // A crash's retry has no live consumer to sleep or to publish it to a retry
    // queue: away from the broker's delay the broker redelivers it at once (policy.h, DelayAt).
    const bool broker_only = *failure == FailureClass::kCrash && policy.delay_at != DelayAt::kBroker;
    const bool crash = *failure == FailureClass::kCrash;
    if (broker_only) {
      d.delay_ms = 0;
    } else if (crash) {
      const Policy crash_policy = system.CrashPolicy(policy);
      d.delay_ms = system.RetryDelay(crash_policy, rule.backoff, attempts, previous_delay, jitter);
    } else {
      d.delay_ms = system.RetryDelay(policy, rule.backoff, attempts, previous_delay, jitter);
    }
    d.disposition = d.delay_ms > 0 ? Disposition::kDelayed : Disposition::kRequeued;
  } else {
    d.disposition = Disposition::kQuarantined;
    d.reason = Reason::kExhausted;
  }
  const int64_t hold = rules.stop_hold_ms;
  if (d.disposition == Disposition::kQuarantined && hold > 0) {  // the consumer stops on it (kafka-connect)
    d.disposition = Disposition::kDelayed;
    d.reason = Reason::kNone;
    d.delay_ms = hold;
  }
  d.alert = d.disposition == Disposition::kQuarantined && rule.alert;
  return d;
}

}  // namespace dlq
