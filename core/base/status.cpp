#include "status.h"

namespace dlq {

const char* CodeName(Code code) {
  switch (code) {
    case Code::kOk: return "ok";
    case Code::kInvalidArgument: return "invalid-argument";
    case Code::kOutOfRange: return "out-of-range";
    case Code::kAlreadyExists: return "already-exists";
    case Code::kNotFound: return "not-found";
    case Code::kFailedPrecondition: return "failed-precondition";
    case Code::kUnsupportedVersion: return "unsupported-version";
    case Code::kTooLarge: return "too-large";
    case Code::kResourceExhausted: return "resource-exhausted";
    case Code::kStaleLease: return "stale-lease";
    case Code::kInvalidSnapshot: return "invalid-snapshot";
  }
  return "unknown";
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  return std::string(CodeName(code_)) + ": " + message_;
}

}  // namespace dlq
