#include "rules.h"

#include "backoff.h"

namespace dlq {

Decision Decide(const Policy& policy, Outcome outcome, uint32_t attempts, int64_t previous_delay, Prng& jitter) {
  Decision d;
  switch (outcome) {
    case Outcome::kSuccess:
      d.disposition = Disposition::kCompleted;
      break;
    case Outcome::kPermanent:
      d.disposition = Disposition::kQuarantined;
      d.reason = Reason::kPermanent;
      break;
    case Outcome::kTransient:
      if (attempts < static_cast<uint64_t>(policy.max_attempts)) {
        d.delay_ms = NextDelay(policy.backoff, attempts, previous_delay, jitter);
        d.disposition = d.delay_ms > 0 ? Disposition::kDelayed : Disposition::kRequeued;
      } else {
        d.disposition = Disposition::kQuarantined;
        d.reason = Reason::kExhausted;
      }
      break;
  }
  return d;
}

}  // namespace dlq
