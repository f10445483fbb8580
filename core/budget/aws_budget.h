// The AWS SDKs' standard retry mode (the "retry quota"): a bucket of 500
// tokens, full at the start; a retry costs 5 and is refused when fewer are
// left; a success that needed no retry adds 1, and a successful retry returns
// the 5 it cost (never above 500). A full bucket pays for 100 retries; after
// that retries stop until successes refill it. (The SDKs charge 10 for a retry
// after a timeout; the storm charges 5 for every retry, as the lab's issue defines it.)
#pragma once

#include "retry_budget.h"

namespace dlq {

class AwsStandardBudget final : public RetryBudget {
 public:
  static constexpr int64_t kCapacity = 500, kRetryCost = 5, kNoRetryIncrement = 1;
  void OnRequest(int64_t) override {}
  void OnAnswer(int64_t now_ms, bool success, bool retry) override;
  bool TryRetry(int64_t now_ms) override;
  int64_t tokens() const { return tokens_; }

 private:
  int64_t tokens_ = kCapacity;
};

}  // namespace dlq
