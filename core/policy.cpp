#include "policy.h"

#include <cmath>
#include <string>

#include "text.h"

namespace dlq {

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
    case Disposition::kDelayed: return "delayed";
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

const char* BackoffKindName(BackoffKind kind) {
  switch (kind) {
    case BackoffKind::kNone: return "none";
    case BackoffKind::kFixed: return "fixed";
    case BackoffKind::kExponential: return "exponential";
  }
  return "?";
}

Result<BackoffKind> ParseBackoffKind(std::string_view text) {
  if (text == "none") return BackoffKind::kNone;
  if (text == "fixed") return BackoffKind::kFixed;
  if (text == "exponential") return BackoffKind::kExponential;
  return Status::InvalidArgument("backoff.kind must be one of \"none\", \"fixed\", \"exponential\", got " +
                                 QuoteShort(text));
}

const char* JitterName(Jitter jitter) {
  switch (jitter) {
    case Jitter::kNone: return "none";
    case Jitter::kFull: return "full";
    case Jitter::kEqual: return "equal";
    case Jitter::kDecorrelated: return "decorrelated";
  }
  return "?";
}

Result<Jitter> ParseJitter(std::string_view text) {
  if (text == "none") return Jitter::kNone;
  if (text == "full") return Jitter::kFull;
  if (text == "equal") return Jitter::kEqual;
  if (text == "decorrelated") return Jitter::kDecorrelated;
  return Status::InvalidArgument(
      "backoff.jitter must be one of \"none\", \"full\", \"equal\", \"decorrelated\", got " + QuoteShort(text));
}

std::string IntegerField::Message(std::string_view given) const {
  std::string message(name);
  message.append(" must be an integer from ").append(std::to_string(min)).append(" to ").append(std::to_string(max));
  message.append(", got ").append(given);
  return message;
}

Status IntegerField::Check(int64_t value) const {
  if (value < min || value > max) return Status::OutOfRange(Message(std::to_string(value)));
  return Status::Ok();
}

Status IntegerField::Check(double value) const {
  if (!(value >= static_cast<double>(min) && value <= static_cast<double>(max)) || value != std::trunc(value)) {
    return Status::OutOfRange(Message(DescribeNumber(value)));
  }
  return Status::Ok();
}

Status Policy::Check(const Policy& p) {
  if (Status s = kMaxAttemptsField.Check(p.max_attempts); !s.ok()) return s;
  if (Status s = kBaseMsField.Check(p.backoff.base_ms); !s.ok()) return s;
  if (Status s = kCapMsField.Check(p.backoff.cap_ms); !s.ok()) return s;
  if (p.backoff.cap_ms < p.backoff.base_ms) {
    return Status::OutOfRange("backoff.capMs must be an integer from backoff.baseMs (" +
                              std::to_string(p.backoff.base_ms) + ") to " + std::to_string(kCapMsField.max) +
                              ", got " + std::to_string(p.backoff.cap_ms));
  }
  if (p.backoff.kind == BackoffKind::kNone && p.backoff.jitter != Jitter::kNone) {
    return Status::InvalidArgument(std::string("backoff.jitter must be \"none\" when backoff.kind is \"none\" "
                                               "(there is no delay to jitter), got \"") +
                                   JitterName(p.backoff.jitter) + "\"");
  }
  if (p.backoff.jitter == Jitter::kDecorrelated && p.backoff.kind != BackoffKind::kExponential) {
    return Status::InvalidArgument(std::string("backoff.jitter \"decorrelated\" needs backoff.kind "
                                               "\"exponential\", got \"") +
                                   BackoffKindName(p.backoff.kind) + "\"");
  }
  if (Status s = kLeaseMsField.Check(p.lease_ms); !s.ok()) return s;
  if (Status s = kSeedField.Check(p.seed); !s.ok()) return s;
  return Status::Ok();
}

bool Policy::IsLessonOne() const {
  Policy lesson;
  lesson.max_attempts = max_attempts;
  return *this == lesson;
}

bool operator==(const Backoff& a, const Backoff& b) {
  return a.kind == b.kind && a.base_ms == b.base_ms && a.cap_ms == b.cap_ms && a.jitter == b.jitter;
}

bool operator==(const Policy& a, const Policy& b) {
  return a.max_attempts == b.max_attempts && a.backoff == b.backoff && a.lease_ms == b.lease_ms && a.seed == b.seed;
}

}  // namespace dlq
