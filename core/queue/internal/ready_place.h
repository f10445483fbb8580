// Internal to the core: callers use queue.h.
//
// ReadyPlace: the ready queue, head first, and its durable positions. A job at
// the tail takes the position after the tail, a job at the head the one before
// the head, so positions rise from head to tail and a snapshot keeps the order by
// position alone (the caller stores each job's position: StoredJob::ready_pos).
// Bookkeeping only: which job may run (the ordering), and where a returned job
// goes, are QueueCore's rules.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ring.h"

namespace dlq {

class ReadyPlace {
 public:
  bool empty() const { return ring_.empty(); }
  size_t size() const { return ring_.size(); }
  // The job k places from the head (0 = the head). Precondition: k < size().
  uint32_t operator[](size_t k) const { return ring_[k]; }

  // Appends `job` at the tail / puts it at the head; returns its position.
  int64_t PushBack(uint32_t job) {
    ring_.push_back(job);
    return tail_++;
  }
  int64_t PushFront(uint32_t job) {
    ring_.push_front(job);
    return --head_;
  }
  // Takes the job k places from the head, keeping the order of the rest.
  uint32_t Take(size_t k) {
    const uint32_t job = ring_[k];
    if (k == 0) {
      ring_.pop_front();
    } else {
      ring_.erase(k);
    }
    return job;
  }
  // Undoes the last PushBack (a refused batch), its position with it.
  void UndoPushBack() {
    ring_.pop_back();
    --tail_;
  }
  // Room for `n` jobs without growing.
  void Reserve(size_t n) { ring_.Reserve(n); }

  // The bounds: the next position before the head and after the tail.
  int64_t head_position() const { return head_; }
  int64_t tail_position() const { return tail_; }

  // Loading an image: jobs in position order, then the bounds the image kept.
  void Restore(uint32_t job) { ring_.push_back(job); }
  void RestoreBounds(int64_t head, int64_t tail) {
    head_ = head;
    tail_ = tail;
  }

 private:
  Ring<uint32_t> ring_;
  int64_t head_ = 0, tail_ = 0;
};

}  // namespace dlq
