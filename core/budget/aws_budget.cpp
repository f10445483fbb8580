#include "aws_budget.h"

#include <algorithm>

namespace dlq {

void AwsStandardBudget::OnAnswer(int64_t, bool success, bool retry) {
  if (success) tokens_ = std::min(kCapacity, tokens_ + (retry ? kRetryCost : kNoRetryIncrement));
}

bool AwsStandardBudget::TryRetry(int64_t) {
  if (tokens_ < kRetryCost) return false;
  tokens_ -= kRetryCost;
  return true;
}

}  // namespace dlq
