// Internal to the core: callers use queue.h.
//
// SystemRecords: the per-job records a real system keeps beside a job, one part
// of QueueCore. Empty under the lab (so a lab job stays 104 bytes):
//  * sqs: each job's first enqueue (its retention counts from it);
//  * rabbitmq-quorum: each dead-lettered job's x-death record, and with a
//    messageTtlMs each job's TTL start (its last publish);
//  * under a retry window (SystemRules::RetryWindowMs: sidekiq's retry_for) each
//    job's first failure (failed_at; -1 before it fails; a replay keeps it);
//  * under a move task (SystemRules::MoveRatePerSecond: sqs's StartMessageMoveTask) each
//    job's move count: each move makes it a new message (its MessageId, MessageIdOf).
// Jobs are numbered as in the JobStore. Every call that keeps more returns the
// bytes it kept, for the queue's heap account; the room is checked by the caller.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "policy.h"

namespace dlq {

class SystemRecords {
 public:
  explicit SystemRecords(const Policy& policy);

  // What a restore of `jobs` jobs keeps here in per-job times, and the most it
  // may keep in x-death records (at most one per job).
  static size_t TimesBytes(const Policy& policy, size_t jobs);
  static size_t MostXDeathBytes(const Policy& policy, size_t jobs);

  // A new job published now: its records start. Returns the bytes kept.
  size_t Publish(int64_t now);
  // Forgets the last job's records (a refused batch is undone).
  void Unpublish();
  // Job `job` republished now (a return or a replay): a new message's TTL.
  void Republish(uint32_t job, int64_t now);
  // Job `job` moved now by a move task: a new message, whose first enqueue is now and
  // whose move count grows by one (each only where kept).
  void Moved(uint32_t job, int64_t now);
  // Job `job` dead-lettered for `reason` now: its x-death record counts it.
  // Returns the bytes kept (a new record's).
  size_t DeadLettered(uint32_t job, Reason reason, int64_t now);

  // Its first enqueue (sqs), else 0.
  int64_t EnqueuedAt(uint32_t job) const { return keeps_enqueued_at_ ? enqueued_at_[job] : 0; }
  // When its TTL started (with a messageTtlMs), else 0.
  int64_t TtlFrom(uint32_t job) const { return keeps_ttl_ ? ttl_from_[job] : 0; }
  // Under a retry window: job `job` failed now; returns the ms since its first
  // failure (0 for the first, whose time it keeps). Without a window: 0.
  int64_t Failed(uint32_t job, int64_t now);
  // Its first failure's time under a retry window, else -1 (none yet, or no window).
  int64_t FailedAt(uint32_t job) const { return keeps_failed_at_ ? failed_at_[job] : -1; }
  // How often a move task moved it (under one), else 0.
  uint32_t MovesOf(uint32_t job) const { return keeps_moves_ ? moves_[job] : 0; }
  // Its x-death record (rabbitmq-quorum, once dead-lettered), else empty.
  XDeath XDeathOf(uint32_t job) const {
    const auto it = x_death_.find(job);
    return it == x_death_.end() ? XDeath{} : it->second;
  }

  // Restoring: room for `jobs` jobs, then each job's records as a snapshot gives them.
  void ResizeForRestore(size_t jobs);
  void Restore(uint32_t job, int64_t enqueued_at, int64_t ttl_from, const XDeath& x_death, int64_t failed_at,
               uint32_t moves);
  // What the restored records keep beyond the per-job times (charged by the caller).
  size_t RestoredBytes() const;

 private:
  bool keeps_enqueued_at_ = false;
  bool keeps_ttl_ = false;
  bool keeps_x_death_ = false;
  bool keeps_failed_at_ = false;
  bool keeps_moves_ = false;
  std::vector<int64_t> enqueued_at_;              // sqs: per job, its first enqueue time
  std::unordered_map<uint32_t, XDeath> x_death_;  // rabbitmq-quorum: per dead-lettered job
  std::vector<int64_t> ttl_from_;                 // with a messageTtlMs: per job, its TTL's start
  std::vector<int64_t> failed_at_;                // under a retry window: per job, its first failure (-1: none)
  std::vector<uint32_t> moves_;                   // under a move task: per job, its moves
};

}  // namespace dlq
