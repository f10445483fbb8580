#include "backoff.h"

#include <algorithm>

#include "registry.h"

namespace dlq {
namespace {

// A uniform integer in [lo, hi] (hi - lo < 2^32 for every policy Check() accepts).
int64_t Uniform(Prng& prng, int64_t lo, int64_t hi) {
  return lo + static_cast<int64_t>(prng.Below(static_cast<uint32_t>(hi - lo + 1)));
}

// A uniform integer in [0, bound), bound > 0, from whole 64-bit draws (rejection
// sampling: accept only below the largest multiple of bound).
uint64_t Below64(Prng& prng, uint64_t bound) {
  const uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
  while (true) {
    const uint64_t x = prng.Next();
    if (x < limit) return x % bound;
  }
}

// BullMQ 6's jitter (backoffs.js): Math.floor(Math.random() * v * j + v * (1 - j)), j = p / 1000.
// Math.random() is drawn as u / (v * p), u uniform in [0, v * p), so the sum is
// (u + v * (1000 - p)) / 1000 exactly and its floor is an integer division:
// every value of [floor(v(1 - j)), v - 1] is reached, each as often as BullMQ's.
int64_t BullMqJitter(Prng& prng, int64_t v, int64_t p) {
  if (v <= 0) return 0;
  const auto u = static_cast<int64_t>(Below64(prng, static_cast<uint64_t>(v * p)));  // v * p < 2^47
  return (u + v * (1000 - p)) / 1000;
}

}  // namespace

int64_t UnjitteredDelay(const Backoff& b, uint32_t attempt) {
  switch (b.kind) {
    case BackoffKind::kNone: return 0;
    case BackoffKind::kFixed: return b.base_ms;
    case BackoffKind::kExponential: {
      // base <= 2^27, so base << 36 stays below 2^63; past that the cap wins anyway.
      const uint32_t doublings = std::min<uint32_t>(attempt - 1, 36);
      return std::min(b.cap_ms, b.base_ms << doublings);
    }
  }
  return 0;
}

int64_t NextDelay(const Backoff& b, uint32_t attempt, int64_t previous, Prng& jitter) {
  if (b.kind == BackoffKind::kNone) return 0;
  const int64_t v = UnjitteredDelay(b, attempt);
  switch (b.jitter) {
    case Jitter::kNone: return v;
    case Jitter::kFull: return Uniform(jitter, 0, v);
    case Jitter::kEqual: {
      const int64_t h = v / 2;
      return h + Uniform(jitter, 0, v - h);
    }
    case Jitter::kDecorrelated: {
      const int64_t prev = previous > 0 ? previous : b.base_ms;
      return std::min(b.cap_ms, Uniform(jitter, b.base_ms, std::max(b.base_ms, 3 * prev)));
    }
    case Jitter::kBullMq: return BullMqJitter(jitter, v, b.jitter_permille);
  }
  return v;
}

int64_t MaxDelay(const Backoff& b, uint32_t attempt, int64_t previous_max) {
  if (b.kind == BackoffKind::kNone) return 0;
  if (b.jitter == Jitter::kDecorrelated) {
    const int64_t prev = previous_max > 0 ? previous_max : b.base_ms;
    return std::min(b.cap_ms, std::max(b.base_ms, 3 * prev));
  }
  const int64_t v = UnjitteredDelay(b, attempt);
  if (b.jitter == Jitter::kBullMq) return v - 1;  // [v(1 - j), v): its floor stops one below v
  return v;                                       // full and equal jitter reach v at their top
}

uint32_t MaxDelaySettlesAt(const Backoff& b) {
  if (b.kind != BackoffKind::kExponential || b.jitter == Jitter::kDecorrelated) return 1;
  // UnjitteredDelay doubles base until the cap, and stops doubling after 36.
  for (uint32_t doublings = 0; doublings < 36; ++doublings) {
    if ((b.base_ms << doublings) >= b.cap_ms) return doublings + 1;
  }
  return 37;
}

int64_t RetryDelay(const Policy& policy, const Backoff& b, uint32_t attempt, int64_t previous, Prng& jitter) {
  return SystemOf(policy).RetryDelay(policy, b, attempt, previous, jitter);
}

int64_t MaxRetryDelay(const Policy& policy, const Backoff& b, uint32_t attempt, int64_t previous_max) {
  return SystemOf(policy).MaxRetryDelay(policy, b, attempt, previous_max);
}

FailureScope FailureScope::Only(std::initializer_list<FailureClass> classes) {
  FailureScope scope;
  scope.mask_ = 0;
  for (FailureClass c : classes) scope.Add(c);
  return scope;
}

WorstCase WorstCasePath(const Policy& policy, const FailureScope& scope) {
  // Attempt n can be followed by another only after a failure of a class that
  // retries with a budget above n; the longest wait after it is the largest
  // delay any such class can give (its previous delay at most the largest the
  // step before could give, whatever the class: decorrelated jitter reads it).
  // Under decide_before_count Decide() compares the count before an attempt, so
  // a retrying class's budget allows one attempt (and one retry) more.
  const int64_t extra = policy.decide_before_count ? 1 : 0;
  ClassRule rules[kFailureClassCount];
  int64_t most = 1;
  WorstCase worst;
  for (int c = 0; c < kFailureClassCount; ++c) {
    rules[c] = policy.RuleFor(static_cast<FailureClass>(c));
    if (!scope.Has(static_cast<FailureClass>(c))) rules[c].retry = false;  // it never fails here: never retries
    if (rules[c].retry && rules[c].max_attempts + extra > most) {
      most = rules[c].max_attempts + extra;
      worst.attempts_class = static_cast<FailureClass>(c);
    }
  }
  // A system that counts crashes as stalls (bullmq) bounds them by its stall budget instead.
  const SystemRules& system = SystemOf(policy);
  worst.unbounded =
      policy.count_in_body && !system.CountsStalls() && rules[static_cast<int>(FailureClass::kCrash)].retry;
  for (int c = 0; c < kFailureClassCount; ++c) {  // a retried failure the system never counts (4.3's nack)
    if (rules[c].retry && !system.CountsFailure(policy, static_cast<FailureClass>(c))) worst.unbounded = true;
  }
  worst.attempts = static_cast<uint32_t>(most);
  worst.lease_ms = policy.lease_ms;
  // Stalls (bullmq) are runs the attempt budget leaves out, each to its lease's expiry.
  const bool crashes = scope.Has(FailureClass::kCrash);
  worst.stalls = system.CountsStalls() && crashes ? static_cast<uint32_t>(system.StallBudget(policy)) : 0;
  worst.time_ms = (most + worst.stalls) * policy.lease_ms;  // every lease runs to its expiry
  // Where each class's largest delay stops depending on the attempt (SystemRules::MaxRetryDelaySettlesAt).
  // A crash's delay follows the system's CrashPolicy (no consumer outcome: the broker's own delay).
  const Policy crash_policy = system.CrashPolicy(policy);
  const auto policy_of = [&](int c) -> const Policy& {
    return c == static_cast<int>(FailureClass::kCrash) ? crash_policy : policy;
  };
  uint32_t settles[kFailureClassCount] = {};
  for (int c = 0; c < kFailureClassCount; ++c) {
    if (rules[c].retry) settles[c] = system.MaxRetryDelaySettlesAt(policy_of(c), rules[c].backoff);
  }
  // Under a retry window (SystemRules::RetryWindowMs) attempt n is retried only while its
  // failure comes before the first failure + the window: with every lease run to its
  // expiry, (n - 1) * lease_ms + the delays so far (`since`) < window.
  const int64_t window = system.RetryWindowMs(policy);
  int64_t since = 0;
  int64_t previous = 0;
  for (uint32_t n = 1; n < worst.attempts; ++n) {
    if (window > 0 && since >= window) {  // attempt n fails past the window: the last one
      worst.time_ms -= static_cast<int64_t>(worst.attempts - n) * policy.lease_ms;
      worst.attempts = n;
      break;
    }
    WorstDelay term;
    term.first_attempt = term.last_attempt = n;
    for (int c = 0; c < kFailureClassCount; ++c) {
      const ClassRule& rule = rules[c];
      if (!rule.retry || n >= rule.max_attempts + extra) continue;
      const int64_t delay = MaxRetryDelay(policy_of(c), rule.backoff, n, previous);
      if (delay > term.delay_ms) {
        term.delay_ms = delay;
        term.failure_class = static_cast<FailureClass>(c);
        term.own_backoff = policy.classes.rules[c].own_backoff;
      }
    }
    previous = term.delay_ms;
    worst.time_ms += term.delay_ms;
    since += policy.lease_ms + term.delay_ms;  // attempt n + 1's failure, from the first failure
    WorstDelay* last = worst.delays.empty() ? nullptr : &worst.delays.back();
    if (last && last->delay_ms == term.delay_ms && last->failure_class == term.failure_class &&
        last->own_backoff == term.own_backoff) {
      last->last_attempt = n;
      // The term repeats: when every class still retrying has settled, attempt n + 1 reads
      // what attempt n read (the same previous delay, no attempt number), and so on until
      // the next class's budget ends. Add that run at once (a budget of 1,000,000 is one step).
      uint32_t settled = 0, until = worst.attempts;  // until: the first attempt a class stops retrying
      for (int c = 0; c < kFailureClassCount; ++c) {
        if (!rules[c].retry || n >= rules[c].max_attempts + extra) continue;
        settled = std::max(settled, settles[c]);
        until = std::min(until, static_cast<uint32_t>(rules[c].max_attempts + extra));
      }
      if (window > 0 && until - 1 > n) {  // only the attempts whose failure is still inside the window
        const int64_t step = policy.lease_ms + term.delay_ms;                             // >= 1 (leaseMs >= 1)
        const int64_t inside = since >= window ? 0 : (window - since + step - 1) / step;  // since + j * step < window
        until = static_cast<uint32_t>(std::min<int64_t>(until, static_cast<int64_t>(n) + 1 + inside));
      }
      if (n >= settled && until - 1 > n) {
        worst.time_ms += static_cast<int64_t>(until - 1 - n) * term.delay_ms;
        since += static_cast<int64_t>(until - 1 - n) * (policy.lease_ms + term.delay_ms);
        n = last->last_attempt = until - 1;
      }
    } else {
      worst.delays.push_back(term);
    }
  }
  return worst;
}

}  // namespace dlq
