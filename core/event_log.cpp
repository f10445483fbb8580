#include "event_log.h"

#include "leases.h"

namespace dlq {

Event EventLog::Expand(size_t index, const JobStore& jobs, const std::vector<std::vector<uint32_t>>& reorders) const {
  const EventRecord& raw = records_[index];
  const StoredJob& job = jobs[raw.job];
  Event e;
  e.seq = index + 1;
  e.step = raw.step;
  e.action = raw.action;
  e.time = raw.time;
  e.kind = raw.kind;
  e.id = job.id;
  e.attempts = raw.attempts;
  e.max_attempts = raw.max_attempts;
  e.outcome = raw.outcome;
  e.failure_class = raw.failure_class;
  e.disposition = raw.disposition;
  e.reason = raw.reason;
  e.error = jobs.ErrorText(raw.error);
  if (raw.lease != 0) e.token = LeaseTable::Token(raw.lease);
  if (raw.kind == EventKind::kEnqueued || raw.kind == EventKind::kReplayed) e.payload_bytes = job.payload.size();
  const bool delaying = (raw.kind == EventKind::kAttempt || raw.kind == EventKind::kExpired) &&
                        raw.disposition == Disposition::kDelayed;
  if (raw.kind == EventKind::kLeased || raw.kind == EventKind::kDelayed || delaying) e.until = raw.until;
  if (raw.kind == EventKind::kDelayed || delaying) e.delay_ms = raw.until - raw.time;
  if (raw.kind == EventKind::kReorder || raw.kind == EventKind::kKeyReleased) e.key = job.key;
  if (raw.kind == EventKind::kReorder) {
    for (const uint32_t earlier : reorders[raw.ref - 1]) e.overtook.push_back(jobs[earlier].id);
  }
  if (raw.kind == EventKind::kAlarmRaised || raw.kind == EventKind::kAlarmCleared) e.depth = raw.ref;
  if (raw.kind == EventKind::kKeptOnce) e.place = PlaceName(static_cast<Place>(raw.ref));
  return e;
}

}  // namespace dlq
