#include "ledger.h"

#include <map>

namespace dlq {
namespace {

// An attempt that ran the worker's code past reading its payload.
bool Charges(const Event& e) {
  if (e.kind == EventKind::kExpired) return true;
  return e.kind == EventKind::kAttempt && e.outcome != Outcome::kUndeserializable;
}

}  // namespace

EffectLedger LedgerOf(const Queue& queue) {
  EffectLedger ledger;
  if (!queue.policy().effect_charge) return ledger;
  const bool keyed = queue.policy().effect_idempotency_key;
  std::map<std::string, uint64_t, std::less<>> applied_per_job;
  std::vector<std::string> first_order;  // jobs in the order of their first charge
  constexpr size_t kSlice = 256;         // the timeline is read in slices, never copied whole
  const size_t count = queue.view().event_count();
  for (size_t from = 0; from < count; from += kSlice) {
    for (Event& e : queue.view().Timeline(from, kSlice)) {
      if (!Charges(e)) continue;
      auto [it, fresh] = applied_per_job.try_emplace(e.id, 0);
      if (fresh) first_order.push_back(e.id);
      ChargeRecord r;
      r.id = e.id;
      r.attempt = e.attempts;
      r.at = e.time;
      r.crashed = e.kind == EventKind::kExpired;
      r.outcome = r.crashed ? Outcome::kTransient : e.outcome;
      r.applied = !(keyed && it->second > 0);
      if (r.applied) {
        ++ledger.applied;
        if (it->second > 0) ++ledger.duplicates;
        ++it->second;
      } else {
        ++ledger.deduplicated;
      }
      ledger.charges.push_back(std::move(r));
    }
  }
  for (const std::string& id : first_order) {
    const uint64_t applied = applied_per_job.find(id)->second;
    if (applied > 1) ledger.duplicate_ids.push_back(id);
    const std::optional<JobLocation> at = queue.view().Locate(id);
    const bool dead = at.has_value() && (at->place == Place::kQuarantined || at->place == Place::kDropped ||
                                         at->place == Place::kLost || at->place == Place::kDiscarded);
    if (applied > 0 && dead) ledger.partial_ids.push_back(id);
  }
  ledger.partial = ledger.partial_ids.size();
  return ledger;
}

}  // namespace dlq
