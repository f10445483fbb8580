// The Policy's rules that depend on its system, declared with the Policy
// (policy.h) and decided here, by the module of the system in force (system.h).
// The policy layer below cannot call them (the build links it first), so the
// field table and Check stay free of any one system's rule.
#include "policy.h"
#include "registry.h"

namespace dlq {

ClassRule Policy::RuleFor(FailureClass c) const {
  ClassRule rule = classes[c];
  const int64_t budget = Budget();
  SystemOf(*this).AdjustRule(*this, c, &rule);
  if (rule.max_attempts == 0 || rule.max_attempts > budget) rule.max_attempts = budget;
  if (!rule.own_backoff) rule.backoff = backoff;
  return rule;
}

int64_t Policy::Budget() const { return SystemOf(*this).Budget(*this); }

Ordering Policy::OrderingInForce() const { return SystemOf(*this).OrderingInForce(*this); }

bool Policy::ReturnsNearHead() const { return SystemOf(*this).ReturnTo(*this) != ReturnPlace::kTail; }

bool Policy::LazyRetention() const { return SystemOf(*this).LazyRetention(); }

int64_t Policy::QuarantineKeepNewest() const { return SystemOf(*this).QuarantineKeepNewest(*this); }

bool Policy::TrimsQuarantine() const { return LazyRetention() || QuarantineKeepNewest() >= 0; }

DropCause Policy::DeadLetterDrop() const { return SystemOf(*this).DeadLetterDrop(*this); }

int64_t Policy::MessageTtlMs() const { return SystemOf(*this).MessageTtl(*this); }

bool Policy::RetryRepublishes() const { return SystemOf(*this).RetryRepublishes(); }
DropCause Policy::ExpiryDrop() const { return SystemOf(*this).ExpiryDrop(*this); }
bool Policy::ExpiresInPlace() const { return SystemOf(*this).ExpiresInPlace(); }

}  // namespace dlq
