#include "grpc_budget.h"

#include <algorithm>

namespace dlq {

GrpcBudget::GrpcBudget(int64_t max_tokens, int64_t token_ratio_per_mille)
    : max_(max_tokens * 1000), ratio_(token_ratio_per_mille), tokens_(max_tokens * 1000) {}

void GrpcBudget::OnAnswer(int64_t, bool success, bool) {
  tokens_ = success ? std::min(max_, tokens_ + ratio_) : std::max<int64_t>(0, tokens_ - 1000);
}

bool GrpcBudget::TryRetry(int64_t) { return 2 * tokens_ > max_; }

}  // namespace dlq
