#include "finagle_budget.h"

namespace dlq {

namespace {
constexpr int64_t kWithdrawal = 100;  // one retry, in hundredths
}

FinagleBudget::FinagleBudget(int64_t percent, int64_t min_per_second, int64_t window_ms)
    : deposit_(percent), reserve_(min_per_second * window_ms / 10), slice_ms_(window_ms / kSlices) {}

void FinagleBudget::Advance(int64_t now_ms) {
  const int64_t slice = now_ms / slice_ms_;
  // Slices the clock has left behind by a whole window are forgotten.
  for (int64_t s = slice_ + 1; s <= slice && s <= slice_ + kSlices; ++s) slices_[static_cast<size_t>(s % kSlices)] = 0;
  if (slice > slice_) slice_ = slice;
}

int64_t FinagleBudget::Balance(int64_t now_ms) {
  Advance(now_ms);
  int64_t sum = reserve_;
  for (const int64_t v : slices_) sum += v;
  return sum;
}

void FinagleBudget::OnRequest(int64_t now_ms) {
  Advance(now_ms);
  slices_[static_cast<size_t>(slice_ % kSlices)] += deposit_;
}

bool FinagleBudget::TryRetry(int64_t now_ms) {
  if (Balance(now_ms) < kWithdrawal) return false;
  slices_[static_cast<size_t>(slice_ % kSlices)] -= kWithdrawal;
  return true;
}

}  // namespace dlq
