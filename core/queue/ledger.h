// The side-effect ledger: what the outside world saw of a queue's attempts, as
// opposed to what the queue decided. Under policy.effect_charge (policy.h) every
// attempt that can read its payload (all but an undeserializable one) charges a
// card before its outcome is known: a transient or permanent failure, or a
// worker that crashed (an expired lease), leaves the charge made. A dead job in
// quarantine therefore proves nothing about earlier effects.
//
// Contract:
//  * Derived from the queue's timeline only (its attempt and expiry events, in
//    order) and where each job is now: pure, deterministic, and empty unless the
//    policy charges.
//  * Without an idempotency key every charge is applied. With one
//    (policy.effect_idempotency_key) the key is the job's id, and the payment
//    side applies the first charge per key; each later one is deduplicated
//    (applied false), after a retry, a crash or a replay alike.
//  * duplicates: applied charges beyond the first, per job. partial: jobs with
//    an applied charge that did not complete (in quarantine, dropped at their
//    retention, or lost in a crash): dead, and charged.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "queue.h"

namespace dlq {

struct ChargeRecord {
  std::string id;
  uint32_t attempt = 0;                 // the attempt that charged (the event's count)
  int64_t at = 0;                       // virtual ms
  bool applied = true;                  // false: deduplicated by its idempotency key
  bool crashed = false;                 // the worker died after charging (the lease expired)
  Outcome outcome = Outcome::kSuccess;  // what the attempt reported (crashed: transient)
};

struct EffectLedger {
  std::vector<ChargeRecord> charges;  // in timeline order
  uint64_t applied = 0;
  uint64_t deduplicated = 0;
  uint64_t duplicates = 0;
  uint64_t partial = 0;
  std::vector<std::string> partial_ids;    // the partial jobs, in the order of their first charge
  std::vector<std::string> duplicate_ids;  // jobs charged more than once, likewise
};

EffectLedger LedgerOf(const Queue& queue);

}  // namespace dlq
