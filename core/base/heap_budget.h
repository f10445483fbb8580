// The heap budget: a process-wide cap on the bytes that queues keep (jobs, error
// texts, events), so that running out of memory is a clean, typed refusal
// (ResourceExhausted, nothing changed) long before the allocator fails.
//
// Natively the cap is off (SIZE_MAX). The WebAssembly build sets it to half of
// its 2 GB memory, leaving the rest for the temporary copies a call makes at the
// boundary and for allocator slack; there an allocation failure aborts the
// module, which the JS API then reports as code "aborted" for every later call.
//
// Single-threaded by contract, like the queues it counts.
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>

#include "status.h"

namespace dlq {

class HeapBudget {
 public:
  static size_t limit() { return limit_; }
  static size_t used() { return used_; }
  // Sets the cap; a cap below what is in use refuses every new charge until
  // enough is released. Nothing already charged is touched.
  static void set_limit(size_t bytes) { limit_ = bytes; }

  // OK if `bytes` more fit under the cap (nothing is charged), else
  // ResourceExhausted naming `what`: "enqueue needs 16777300 bytes of the heap
  // budget; 5242880 of 1073741824 are free (dispose of queues no longer needed)".
  static Status CheckRoom(size_t bytes, std::string_view what);

 private:
  friend class HeapCharge;
  static inline size_t limit_ = static_cast<size_t>(-1);
  static inline size_t used_ = 0;
};

// Bytes charged to the budget by one owner, given back when the owner dies.
// Movable (the source is left owning nothing), not copyable.
class HeapCharge {
 public:
  HeapCharge() = default;
  HeapCharge(HeapCharge&& other) noexcept : bytes_(std::exchange(other.bytes_, 0)) {}
  HeapCharge& operator=(HeapCharge&& other) noexcept {
    if (this != &other) {
      Return(bytes_);
      bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
  }
  HeapCharge(const HeapCharge&) = delete;
  HeapCharge& operator=(const HeapCharge&) = delete;
  ~HeapCharge() { Return(bytes_); }

  // Charges `bytes`. The owner checks HeapBudget::CheckRoom() before the call
  // that keeps them; small growth (one event) may rely on the headroom instead.
  void Add(size_t bytes);
  // Gives back `bytes` (at most what this owner holds).
  void Return(size_t bytes);
  size_t bytes() const { return bytes_; }

 private:
  size_t bytes_ = 0;
};

}  // namespace dlq
