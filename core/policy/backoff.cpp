#include "backoff.h"

#include <algorithm>

namespace dlq {
namespace {

// A uniform integer in [lo, hi] (hi - lo < 2^32 for every policy Check() accepts).
int64_t Uniform(Prng& prng, int64_t lo, int64_t hi) {
  return lo + static_cast<int64_t>(prng.Below(static_cast<uint32_t>(hi - lo + 1)));
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
  }
  return v;
}

int64_t MaxDelay(const Backoff& b, uint32_t attempt, int64_t previous_max) {
  if (b.kind == BackoffKind::kNone) return 0;
  if (b.jitter == Jitter::kDecorrelated) {
    const int64_t prev = previous_max > 0 ? previous_max : b.base_ms;
    return std::min(b.cap_ms, std::max(b.base_ms, 3 * prev));
  }
  return UnjitteredDelay(b, attempt);  // full and equal jitter reach v at their top
}

WorstCase WorstCasePath(const Policy& policy) {
  // Attempt n can be followed by another only after a failure of a class that
  // retries with a budget above n; the longest wait after it is the largest
  // delay any such class can give (its previous delay at most the largest the
  // step before could give, whatever the class: decorrelated jitter reads it).
  ClassRule rules[kFailureClassCount];
  int64_t most = 1;
  for (int c = 0; c < kFailureClassCount; ++c) {
    rules[c] = policy.RuleFor(static_cast<FailureClass>(c));
    if (rules[c].retry) most = std::max(most, rules[c].max_attempts);
  }
  WorstCase worst;
  worst.attempts = static_cast<uint32_t>(most);
  worst.time_ms = most * policy.lease_ms;  // every lease runs to its expiry
  int64_t previous = 0;
  for (uint32_t n = 1; n < worst.attempts; ++n) {
    int64_t longest = 0;
    for (const ClassRule& rule : rules) {
      if (rule.retry && n < rule.max_attempts) longest = std::max(longest, MaxDelay(rule.backoff, n, previous));
    }
    previous = longest;
    worst.time_ms += longest;
  }
  return worst;
}

}  // namespace dlq
