// Internal to the core: callers use queue.h.
//
// FinishedPlaces: where jobs end. Completed jobs in completion order; discarded
// jobs (dead letters with no dead-letter exchange) in enqueue order, as a
// restored queue lists them; and how many jobs a crash lost (recovery.cpp).
// Dropped jobs (retention, trims) are counted by QuarantinePlace.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dlq {

class FinishedPlaces {
 public:
  void Complete(uint32_t job) { completed_.push_back(job); }
  // Jobs are discarded in any order: kept sorted by index (enqueue order).
  void Discard(uint32_t job) { discarded_.insert(std::lower_bound(discarded_.begin(), discarded_.end(), job), job); }

  const std::vector<uint32_t>& completed() const { return completed_; }
  const std::vector<uint32_t>& discarded() const { return discarded_; }
  size_t lost() const { return lost_; }

  // Loading an image, in job order: a lost job is counted, a discarded one listed.
  void RestoreLost() { ++lost_; }
  void RestoreDiscarded(uint32_t job) { discarded_.push_back(job); }

 private:
  std::vector<uint32_t> completed_;
  std::vector<uint32_t> discarded_;
  size_t lost_ = 0;
};

}  // namespace dlq
