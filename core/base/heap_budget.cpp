#include "heap_budget.h"

#include <algorithm>
#include <string>

namespace dlq {

Status HeapBudget::CheckRoom(size_t bytes, std::string_view what) {
  const size_t free = used_ >= limit_ ? 0 : limit_ - used_;
  if (bytes <= free) return Status::Ok();
  return Status::Error(Code::kResourceExhausted, std::string(what) + " needs " + std::to_string(bytes) +
                                                     " bytes of the heap budget; " + std::to_string(free) + " of " +
                                                     std::to_string(limit_) +
                                                     " are free (dispose of queues that are no longer needed)");
}

void HeapCharge::Add(size_t bytes) {
  bytes_ += bytes;
  HeapBudget::used_ += bytes;
}

void HeapCharge::Return(size_t bytes) {
  bytes = std::min(bytes, bytes_);
  bytes_ -= bytes;
  HeapBudget::used_ -= bytes;
}

}  // namespace dlq
