// EventLog: a queue's timeline as compact records (it may hold millions), and
// their expansion into full Events. Records are written once and never changed
// after the call that wrote them returns; a refused batch truncates what it wrote.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "event.h"
#include "job_store.h"

namespace dlq {

struct EventRecord {
  uint64_t step;
  uint64_t action;
  int64_t time;
  int64_t until;  // kLeased: expiry; kDelayed, and a delaying kAttempt/kExpired: due time
  uint32_t job;
  uint32_t attempts;
  uint32_t max_attempts;  // the budget in force when it was written
  uint32_t error;         // an error-text index in the JobStore
  uint32_t lease;         // the lease number, or 0
  uint32_t ref;           // kReorder: 1 + its index in the reorder list; alarms: the depth
  EventKind kind;
  FailureClass failure_class;  // decided failures and alerts
  Outcome outcome;
  Disposition disposition;
  Reason reason;
};
static_assert(sizeof(EventRecord) <= 64, "an event record stays compact");

class EventLog {
 public:
  EventRecord& Append(const EventRecord& record) { return records_.emplace_back(record); }
  size_t size() const { return records_.size(); }
  const EventRecord& operator[](size_t index) const { return records_[index]; }
  void Truncate(size_t size) { records_.resize(size); }
  // Event `index` (0-based) with its strings from `jobs` and, for a reorder, the
  // jobs it overtook from `reorders` (indexes into jobs).
  Event Expand(size_t index, const JobStore& jobs, const std::vector<std::vector<uint32_t>>& reorders) const;

 private:
  std::deque<EventRecord> records_;  // a deque: growing never copies the whole log
};

}  // namespace dlq
