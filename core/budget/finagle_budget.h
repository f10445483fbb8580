// Finagle's RetryBudget (com.twitter.finagle.service.RetryBudget, the token
// budget): each request deposits percentCanRetry of a retry, each retry
// withdraws one, and deposits and withdrawals count only over the last ttl (a
// windowed adder of 10 slices); a reserve of minRetriesPerSec × ttl seconds
// retries is always there. A retry is allowed while the balance (window sum +
// reserve) holds a whole retry. Kept in hundredths of a retry. Finagle's ttl
// is 1 to 60 whole seconds; so is the window here.
#pragma once

#include <array>

#include "retry_budget.h"

namespace dlq {

class FinagleBudget final : public RetryBudget {
 public:
  FinagleBudget(int64_t percent, int64_t min_per_second, int64_t window_ms);
  void OnRequest(int64_t now_ms) override;
  void OnAnswer(int64_t, bool, bool) override {}
  bool TryRetry(int64_t now_ms) override;
  // The window sum plus the reserve, in hundredths of a retry.
  int64_t Balance(int64_t now_ms);

 private:
  static constexpr int kSlices = 10;
  void Advance(int64_t now_ms);
  int64_t deposit_, reserve_, slice_ms_;
  std::array<int64_t, kSlices> slices_{};
  int64_t slice_ = 0;  // the slice now falls in
};

}  // namespace dlq
