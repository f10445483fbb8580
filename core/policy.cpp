#include "policy.h"

#include <cmath>
#include <string>

#include "text.h"

namespace dlq {
namespace {

std::string MaxAttemptsMessage(const std::string& given) {
  return "maxAttempts must be an integer from " + std::to_string(Policy::kMinAttempts) + " to " +
         std::to_string(Policy::kMaxAttempts) + ", got " + given;
}

}  // namespace

const char* OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kSuccess: return "success";
    case Outcome::kTransient: return "transient";
    case Outcome::kPermanent: return "permanent";
  }
  return "?";
}

Result<Outcome> ParseOutcome(std::string_view text) {
  if (text == "success") return Outcome::kSuccess;
  if (text == "transient") return Outcome::kTransient;
  if (text == "permanent") return Outcome::kPermanent;
  return Status::InvalidArgument("outcome must be one of \"success\", \"transient\", \"permanent\", got " +
                                 QuoteShort(text));
}

const char* DispositionName(Disposition disposition) {
  switch (disposition) {
    case Disposition::kCompleted: return "completed";
    case Disposition::kRequeued: return "requeued";
    case Disposition::kQuarantined: return "quarantined";
  }
  return "?";
}

const char* ReasonName(Reason reason) {
  switch (reason) {
    case Reason::kNone: return "";
    case Reason::kPermanent: return "permanent";
    case Reason::kExhausted: return "exhausted";
  }
  return "?";
}

Status Policy::CheckMaxAttempts(int64_t value) {
  if (value < kMinAttempts || value > kMaxAttempts) {
    return Status::OutOfRange(MaxAttemptsMessage(std::to_string(value)));
  }
  return Status::Ok();
}

Status Policy::CheckMaxAttempts(double value) {
  if (!(value >= kMinAttempts && value <= kMaxAttempts) || value != std::trunc(value)) {
    return Status::OutOfRange(MaxAttemptsMessage(DescribeNumber(value)));
  }
  return Status::Ok();
}

}  // namespace dlq
