#include "system_records.h"

#include "queue_cost.h"
#include "registry.h"

namespace dlq {

SystemRecords::SystemRecords(const Policy& policy)
    : keeps_enqueued_at_(SystemOf(policy).Keeps(JobRecord::kFirstEnqueue)),
      keeps_ttl_(policy.MessageTtlMs() > 0),
      keeps_x_death_(SystemOf(policy).Keeps(JobRecord::kXDeath)),
      keeps_failed_at_(SystemOf(policy).RetryWindowMs(policy) > 0),
      keeps_moves_(SystemOf(policy).MoveRatePerSecond(policy) > 0) {}

size_t SystemRecords::TimesBytes(const Policy& policy, size_t jobs) {
  size_t bytes = 0;
  if (SystemOf(policy).Keeps(JobRecord::kFirstEnqueue)) bytes += jobs * sizeof(int64_t);  // the first enqueues
  if (policy.MessageTtlMs() > 0) bytes += jobs * sizeof(int64_t);                         // the TTLs' starts
  if (SystemOf(policy).RetryWindowMs(policy) > 0) bytes += jobs * sizeof(int64_t);        // the first failures
  if (SystemOf(policy).MoveRatePerSecond(policy) > 0) bytes += jobs * sizeof(uint32_t);   // the move counts
  return bytes;
}

size_t SystemRecords::MostXDeathBytes(const Policy& policy, size_t jobs) {
  return SystemOf(policy).Keeps(JobRecord::kXDeath) ? jobs * cost::kXDeath : 0;
}

size_t SystemRecords::Publish(int64_t now) {
  size_t bytes = 0;
  if (keeps_enqueued_at_) {
    enqueued_at_.push_back(now);
    bytes += sizeof(int64_t);
  }
  if (keeps_ttl_) {  // its TTL starts at its publish
    ttl_from_.push_back(now);
    bytes += sizeof(int64_t);
  }
  if (keeps_failed_at_) {  // it has not failed yet
    failed_at_.push_back(-1);
    bytes += sizeof(int64_t);
  }
  if (keeps_moves_) {  // never moved yet
    moves_.push_back(0);
    bytes += sizeof(uint32_t);
  }
  return bytes;
}

void SystemRecords::Unpublish() {
  if (!enqueued_at_.empty()) enqueued_at_.pop_back();
  if (!ttl_from_.empty()) ttl_from_.pop_back();
  if (!failed_at_.empty()) failed_at_.pop_back();
  if (!moves_.empty()) moves_.pop_back();
}

int64_t SystemRecords::Failed(uint32_t job, int64_t now) {
  if (!keeps_failed_at_) return 0;
  if (failed_at_[job] < 0) failed_at_[job] = now;  // Sidekiq sets failed_at when retry_count is absent
  return now - failed_at_[job];
}

void SystemRecords::Republish(uint32_t job, int64_t now) {
  if (keeps_ttl_) ttl_from_[job] = now;
}

void SystemRecords::Moved(uint32_t job, int64_t now) {
  if (keeps_enqueued_at_) enqueued_at_[job] = now;  // a new message: a fresh SentTimestamp and retention
  if (keeps_ttl_) ttl_from_[job] = now;
  if (keeps_moves_ && moves_[job] < UINT32_MAX) ++moves_[job];
}

size_t SystemRecords::DeadLettered(uint32_t job, Reason reason, int64_t now) {
  if (!keeps_x_death_) return 0;
  const auto [record, added] = x_death_.try_emplace(job);
  record->second.Add(reason, now);
  return added ? cost::kXDeath : 0;
}

void SystemRecords::ResizeForRestore(size_t jobs) {
  if (keeps_enqueued_at_) enqueued_at_.assign(jobs, 0);
  if (keeps_ttl_) ttl_from_.assign(jobs, 0);
  if (keeps_failed_at_) failed_at_.assign(jobs, -1);
  if (keeps_moves_) moves_.assign(jobs, 0);
}

void SystemRecords::Restore(uint32_t job, int64_t enqueued_at, int64_t ttl_from, const XDeath& x_death,
                            int64_t failed_at, uint32_t moves) {
  if (keeps_enqueued_at_) enqueued_at_[job] = enqueued_at;
  if (keeps_moves_) moves_[job] = moves;
  if (keeps_failed_at_) failed_at_[job] = failed_at;
  if (keeps_ttl_) ttl_from_[job] = ttl_from;
  if (x_death.empty()) {
    x_death_.erase(job);
  } else {
    x_death_[job] = x_death;
  }
}

size_t SystemRecords::RestoredBytes() const { return x_death_.size() * cost::kXDeath; }

}  // namespace dlq
