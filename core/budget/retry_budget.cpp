#include "retry_budget.h"

#include <charconv>
#include <vector>

#include "aws_budget.h"
#include "finagle_budget.h"
#include "grpc_budget.h"
#include "text.h"

namespace dlq {

namespace {

constexpr Choice kBudgetKindItems[] = {
    {"grpc", "gRPC retry throttling"}, {"aws-standard", "AWS SDK standard mode"}, {"finagle", "Finagle RetryBudget"}};
constexpr Choices kBudgetKindChoices{kBudgetKindItems, 3};

constexpr const char* kGrammar = "grpc:MAX_TOKENS:TOKEN_RATIO, aws-standard or finagle:PERCENT:MIN_PER_S:WINDOW_MS";

std::vector<std::string_view> Split(std::string_view text) {
  std::vector<std::string_view> parts;
  size_t at = 0;
  while (true) {
    const size_t end = text.find(':', at);
    parts.push_back(text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
    if (end == std::string_view::npos) return parts;
    at = end + 1;
  }
}

bool Digits(std::string_view text) {
  if (text.empty() || text.size() > 15) return false;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

int64_t ToInt(std::string_view digits) {
  int64_t value = 0;
  std::from_chars(digits.data(), digits.data() + digits.size(), value);
  return value;
}

// "0.1" -> 100: a decimal with at most three decimals, in thousandths; -1 if not one.
int64_t PerMille(std::string_view text) {
  const size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  if (!Digits(whole) || whole.size() > 6 ||
      (dot != std::string_view::npos && (fraction.empty() || fraction.size() > 3 || !Digits(fraction)))) {
    return -1;
  }
  int64_t value = ToInt(whole) * 1000;
  int64_t scale = 100;
  for (const char c : fraction) {
    value += (c - '0') * scale;
    scale /= 10;
  }
  return value;
}

}  // namespace

const Choices& BudgetKindChoices() { return kBudgetKindChoices; }

const char* BudgetKindName(BudgetKind kind) { return kBudgetKindChoices.Name(static_cast<int>(kind)); }

Result<BudgetKind> ParseBudgetKind(std::string_view text) {
  Result<int> index = kBudgetKindChoices.Parse(text, "budget.kind");
  if (!index.ok()) return index.status();
  return static_cast<BudgetKind>(index.value());
}

Status CheckBudget(const BudgetOptions& o) {
  if (static_cast<int>(o.kind) >= kBudgetKindChoices.count) {
    return Status::InvalidArgument("budget.kind must be one of \"grpc\", \"aws-standard\", \"finagle\", got " +
                                   std::to_string(static_cast<int>(o.kind)));
  }
  for (const IntegerField* field : kBudgetIntegerFields) {
    const int64_t value = field == &kBudgetMaxTokensField      ? o.max_tokens
                          : field == &kBudgetTokenRatioField   ? o.token_ratio_per_mille
                          : field == &kBudgetPercentField      ? o.percent
                          : field == &kBudgetMinPerSecondField ? o.min_per_second
                                                               : o.window_ms;
    RETURN_IF_ERROR(field->Check(value));
  }
  if (o.window_ms % 1000 != 0) {
    // Finagle's ttl is whole seconds (its reserve counts ttl.inSeconds), from 1 to 60.
    return Status::OutOfRange(
        "budget.windowMs must be whole seconds from 1000 to 60000 (a multiple of 1000, as Finagle's ttl), got " +
        std::to_string(o.window_ms));
  }
  return Status::Ok();
}

Result<BudgetOptions> ParseBudget(std::string_view text, std::string_view argument) {
  const std::string head(argument);
  const auto refuse = [&]() {
    return Status::InvalidArgument(head + " must be " + kGrammar + ", got " + QuoteShort(text));
  };
  const std::vector<std::string_view> parts = Split(text);
  BudgetOptions o;
  if (parts[0] == "grpc" && parts.size() == 3) {
    o.kind = BudgetKind::kGrpc;
    if (!Digits(parts[1])) {
      return Status::InvalidArgument(head + ": MAX_TOKENS must be an integer from 1 to 1000, got " +
                                     QuoteShort(parts[1]));
    }
    o.max_tokens = ToInt(parts[1]);
    o.token_ratio_per_mille = PerMille(parts[2]);
    if (o.token_ratio_per_mille < kBudgetTokenRatioField.min || o.token_ratio_per_mille > kBudgetTokenRatioField.max) {
      return Status::InvalidArgument(head +
                                     ": TOKEN_RATIO must be a decimal from 0.001 to 1 with at most 3 decimals, got " +
                                     QuoteShort(parts[2]));
    }
  } else if (parts[0] == "aws-standard" && parts.size() == 1) {
    o.kind = BudgetKind::kAwsStandard;
  } else if (parts[0] == "finagle" && parts.size() == 4) {
    o.kind = BudgetKind::kFinagle;
    const char* names[] = {"PERCENT", "MIN_PER_S", "WINDOW_MS"};
    int64_t* values[] = {&o.percent, &o.min_per_second, &o.window_ms};
    for (size_t i = 0; i < 3; ++i) {
      if (!Digits(parts[i + 1])) {
        return Status::InvalidArgument(head + ": " + names[i] + " must be a whole number, got " +
                                       QuoteShort(parts[i + 1]));
      }
      *values[i] = ToInt(parts[i + 1]);
    }
  } else {
    return refuse();
  }
  if (Status s = CheckBudget(o); !s.ok()) return Status::Error(s.code(), head + ": " + s.message());
  return o;
}

std::string FormatBudget(const BudgetOptions& o) {
  switch (o.kind) {
    case BudgetKind::kGrpc: {
      std::string ratio = std::to_string(o.token_ratio_per_mille / 1000);
      int64_t fraction = o.token_ratio_per_mille % 1000;
      if (fraction != 0) {
        std::string digits = std::to_string(1000 + fraction).substr(1);
        while (digits.back() == '0') digits.pop_back();
        ratio += "." + digits;
      }
      return "grpc:" + std::to_string(o.max_tokens) + ":" + ratio;
    }
    case BudgetKind::kAwsStandard: return "aws-standard";
    case BudgetKind::kFinagle:
      return "finagle:" + std::to_string(o.percent) + ":" + std::to_string(o.min_per_second) + ":" +
             std::to_string(o.window_ms);
  }
  return "?";
}

std::unique_ptr<RetryBudget> MakeBudget(const BudgetOptions& o) {
  switch (o.kind) {
    case BudgetKind::kGrpc: return std::make_unique<GrpcBudget>(o.max_tokens, o.token_ratio_per_mille);
    case BudgetKind::kAwsStandard: return std::make_unique<AwsStandardBudget>();
    case BudgetKind::kFinagle: return std::make_unique<FinagleBudget>(o.percent, o.min_per_second, o.window_ms);
  }
  return nullptr;
}

}  // namespace dlq
