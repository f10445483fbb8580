// The one place the attempt budget is decided. Every path that ends an attempt
// (a process(), a settle, a lease expiry) calls Decide(); nothing else chooses
// between completing, retrying and quarantining.
#pragma once

#include <cstdint>

#include "policy.h"
#include "prng.h"

namespace dlq {

struct Decision {
  Disposition disposition = Disposition::kCompleted;
  Reason reason = Reason::kNone;  // set when quarantined
  int64_t delay_ms = 0;           // set when kDelayed (> 0); kRequeued means 0
};

// The attempt has been counted already: `attempts` includes it.
//   success                            -> completed
//   permanent                          -> quarantine at once, reason permanent
//   transient, attempts < maxAttempts  -> retry after NextDelay(): requeued (0) or delayed
//   transient, attempts == maxAttempts -> quarantine, reason exhausted
// `previous_delay` is the job's previous delay (0 before its first retry); the
// jitter stream is drawn from only when a jittered delay is chosen.
Decision Decide(const Policy& policy, Outcome outcome, uint32_t attempts, int64_t previous_delay, Prng& jitter);

}  // namespace dlq
