// Internal to the core: callers use queue.h.
//
// DelayedPlace: the jobs waiting for their due time, earliest first (ties in the
// order set: each timer's seq comes from the queue's one timer counter).
// Bookkeeping only: what a due job does next is QueueCore's rule.
#pragma once

#include <cstddef>
#include <cstdint>

#include "timers.h"

namespace dlq {

class DelayedPlace {
 public:
  bool empty() const { return due_.empty(); }
  size_t size() const { return due_.size(); }
  // Parks `job` until `due_at` under timer `seq` (also how an image's entries load).
  void Add(int64_t due_at, uint64_t seq, uint32_t job) { due_.insert({due_at, seq, job}); }
  // The earliest due job's timer, or nullptr.
  const Timer* Next() const { return due_.empty() ? nullptr : &*due_.begin(); }
  // Removes and returns the earliest; precondition: !empty().
  Timer TakeNext() {
    const Timer timer = *due_.begin();
    due_.erase(due_.begin());
    return timer;
  }
  // In firing order (Timer.ref is the job).
  const TimerSet& timers() const { return due_; }

 private:
  TimerSet due_;
};

}  // namespace dlq
