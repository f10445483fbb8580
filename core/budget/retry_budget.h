// Retry budgets: what real clients do against retry storms. A budget watches
// every attempt's answer and is asked before each retry; a retry it refuses is
// not made (the storm quarantines the job with reason `budget`, or fails it).
// One interface, one small file per kind:
//   grpc_budget.h     gRPC retry throttling (gRFC A6): a token bucket that stops
//                     retries while it holds half its tokens or fewer;
//   aws_budget.h      the AWS SDKs' standard mode: a 500-token retry quota;
//   finagle_budget.h  Finagle's RetryBudget: a share of recent requests plus a
//                     floor per second, over a sliding window.
// All integer arithmetic on virtual ms, so native and WebAssembly agree exactly.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "field.h"
#include "status.h"

namespace dlq {

enum class BudgetKind : uint8_t { kGrpc, kAwsStandard, kFinagle };

// "grpc" | "aws-standard" | "finagle" and back (exact).
const char* BudgetKindName(BudgetKind kind);
Result<BudgetKind> ParseBudgetKind(std::string_view text);

// A budget's parameters; each kind reads only its own.
struct BudgetOptions {
  BudgetKind kind = BudgetKind::kGrpc;
  // gRPC: maxTokens (1 to 1000) and tokenRatio in thousandths (gRPC keeps three decimals).
  int64_t max_tokens = 10;
  int64_t token_ratio_per_mille = 100;  // 0.1
  // Finagle: percentCanRetry as a whole percentage, minRetriesPerSec, and the ttl window.
  int64_t percent = 20;
  int64_t min_per_second = 10;
  int64_t window_ms = 10'000;
};

constexpr IntegerField kBudgetMaxTokensField{"budget.maxTokens", 1, 1000};
constexpr IntegerField kBudgetTokenRatioField{"budget.tokenRatioPerMille", 1, 1000};
constexpr IntegerField kBudgetPercentField{"budget.percent", 0, 1000};
constexpr IntegerField kBudgetMinPerSecondField{"budget.minPerSecond", 0, 1'000'000};
constexpr IntegerField kBudgetWindowMsField{"budget.windowMs", 1000, 60'000};  // whole seconds, as Finagle's ttl
constexpr const IntegerField* kBudgetIntegerFields[] = {&kBudgetMaxTokensField, &kBudgetTokenRatioField,
                                                        &kBudgetPercentField, &kBudgetMinPerSecondField,
                                                        &kBudgetWindowMsField};

// The kinds as a choice field lists them (field.h), in BudgetKind's order.
const Choices& BudgetKindChoices();

// The first parameter out of range, named ("budget.windowMs must be …"); or OK.
Status CheckBudget(const BudgetOptions& options);

// The command line's and the link's text, one grammar:
//   grpc:MAX_TOKENS:TOKEN_RATIO        e.g. grpc:10:0.1 (the ratio with at most 3 decimals)
//   aws-standard
//   finagle:PERCENT:MIN_PER_S:WINDOW_MS e.g. finagle:20:10:10000
// A refusal names `argument`, says what it expects and quotes what it got; a
// number out of range is refused with the field's own message after "<argument>: ".
Result<BudgetOptions> ParseBudget(std::string_view text, std::string_view argument);
// The text ParseBudget reads back to the same options.
std::string FormatBudget(const BudgetOptions& options);

class RetryBudget {
 public:
  virtual ~RetryBudget() = default;
  // A job's first attempt is sent at now_ms (Finagle deposits on each request).
  virtual void OnRequest(int64_t now_ms) = 0;
  // An attempt was answered at now_ms (a client timeout is a failure); `retry`:
  // it was a job's second attempt or later.
  virtual void OnAnswer(int64_t now_ms, bool success, bool retry) = 0;
  // May a job whose attempt just failed retry? An allowed retry pays at once.
  virtual bool TryRetry(int64_t now_ms) = 0;
};

// The budget the options describe, fresh (gRPC's and AWS's buckets full,
// Finagle's window empty). Precondition: CheckBudget(options) is OK.
std::unique_ptr<RetryBudget> MakeBudget(const BudgetOptions& options);

}  // namespace dlq
