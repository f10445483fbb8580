// gRPC retry throttling (gRFC A6, "Throttling Retry Attempts and Hedged RPCs"):
// token_count starts at max_tokens; every failed attempt takes 1, every success
// gives back token_ratio (never above max_tokens, never below 0); a retry is
// allowed only while token_count > max_tokens / 2. Kept in thousandths of a
// token, as gRPC keeps token_ratio to three decimals. In steady state retries
// flow while the failure share f satisfies (1 - f) * ratio > f, that is
// f < ratio / (1 + ratio): about 9.1% for a ratio of 0.1.
#pragma once

#include "retry_budget.h"

namespace dlq {

class GrpcBudget final : public RetryBudget {
 public:
  GrpcBudget(int64_t max_tokens, int64_t token_ratio_per_mille);
  void OnRequest(int64_t) override {}
  void OnAnswer(int64_t now_ms, bool success, bool retry) override;
  bool TryRetry(int64_t now_ms) override;
  int64_t milli_tokens() const { return tokens_; }

 private:
  int64_t max_;    // thousandths
  int64_t ratio_;  // thousandths
  int64_t tokens_;
};

}  // namespace dlq
