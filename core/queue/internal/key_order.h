// Internal to the core: callers use queue.h.
//
// KeyOrder: per-key ordering's state. Per key, its jobs not yet completed, in
// enqueue order (the first one not released holds the key); and every reorder: a
// completion that overtook earlier jobs of its key, with the jobs it overtook.
// Whether the ordering applies (policy.ordering) and what a reorder records are
// QueueCore's; keys are views into the jobs' strings (JobStore keeps them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "job_store.h"
#include "ready_place.h"

namespace dlq {

class KeyOrder {
 public:
  // Job `job` (of non-empty `key`) joins its key's pending jobs, last.
  void Add(std::string_view key, uint32_t job) { pending_[key].push_back(job); }
  // Undoes the last Add to `key` (a refused batch).
  void UndoAdd(std::string_view key);
  // The pending jobs of `key` in enqueue order, or nullptr when none is pending.
  const std::deque<uint32_t>* Pending(std::string_view key) const {
    const auto it = pending_.find(key);
    return it == pending_.end() ? nullptr : &it->second;
  }
  // The job `job` waits for (the first earlier pending job of its key not
  // released), or -1 when it may run.
  int64_t HolderOf(const JobStore& jobs, uint32_t job) const;
  // How far from the head of `ready` the first job no one holds is, or -1 (all held).
  int64_t FirstFree(const ReadyPlace& ready, const JobStore& jobs) const;
  // Job `job` of `key` completed and leaves its key's pending jobs. True when it
  // overtook earlier ones: that reorder is recorded (number reorder_count()).
  bool Complete(std::string_view key, uint32_t job);

  size_t reorder_count() const { return reorder_job_.size(); }
  // Reorder k (0-based): the job that completed, and the jobs it overtook.
  uint32_t reorder_job(size_t k) const { return reorder_job_[k]; }
  const std::vector<uint32_t>& overtook(size_t k) const { return overtook_[k]; }
  // Every reorder's overtaken jobs, by reorder (what EventLog::Expand reads).
  const std::vector<std::vector<uint32_t>>& overtaken() const { return overtook_; }

  // Loading an image: a reorder as recorded.
  void RestoreReorder(uint32_t job, const std::vector<uint32_t>& overtook) {
    reorder_job_.push_back(job);
    overtook_.push_back(overtook);
  }

 private:
  std::unordered_map<std::string_view, std::deque<uint32_t>> pending_;
  std::vector<std::vector<uint32_t>> overtook_;  // per reorder: the jobs it overtook
  std::vector<uint32_t> reorder_job_;            // per reorder: the job that completed
};

}  // namespace dlq
