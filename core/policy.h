// The vocabulary of the lesson: what a worker reports about one attempt, what the
// queue does with the job, why a job is quarantined, and the retry policy itself.
#pragma once

#include <cstdint>
#include <string_view>

#include "status.h"

namespace dlq {

// The worker's classification of one attempt. The queue never infers it from error
// text: the worker (the application) supplies it, the queue applies the policy.
enum class Outcome : uint8_t { kSuccess, kTransient, kPermanent };

// Where a job went after an attempt.
enum class Disposition : uint8_t { kCompleted, kRequeued, kQuarantined };

// Why a job sits in quarantine.
enum class Reason : uint8_t {
  kNone,       // not quarantined
  kPermanent,  // the worker said retrying cannot help
  kExhausted,  // transient failures used up the whole attempt budget
};

// "success" | "transient" | "permanent" and back. Parsing is exact (case-sensitive).
const char* OutcomeName(Outcome outcome);
Result<Outcome> ParseOutcome(std::string_view text);
const char* DispositionName(Disposition disposition);
const char* ReasonName(Reason reason);  // "" for kNone

struct Policy {
  static constexpr int64_t kMinAttempts = 1;
  static constexpr int64_t kMaxAttempts = 1'000'000;

  // Total attempts a job gets, the first one included. A transient failure on
  // attempt == max_attempts quarantines the job as exhausted.
  int64_t max_attempts = 3;

  // OK, or OutOfRange naming the argument: "maxAttempts must be an integer from 1
  // to 1000000, got 0". The double overload serves callers whose numbers may be
  // fractional or not finite (JavaScript); both give the same message shape.
  static Status CheckMaxAttempts(int64_t value);
  static Status CheckMaxAttempts(double value);
};

}  // namespace dlq
