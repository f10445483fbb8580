// Status and Result<T>: how every fallible call in the core reports failure.
//
// The core never throws and never aborts on bad input. A refused call returns a
// non-OK Status whose message names the argument, what was expected and what was
// given, and it leaves every object unchanged. The WebAssembly build runs without
// exception catching, so this value type is the only error channel.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace dlq {

enum class Code {
  kOk = 0,
  kInvalidArgument,     // a value of the wrong form: unknown outcome, empty id, malformed text
  kOutOfRange,          // a number outside its allowed range
  kAlreadyExists,       // a job id the queue has already been given
  kNotFound,            // an id the operation needs is absent
  kFailedPrecondition,  // the state does not allow the operation (e.g. nothing ready)
  kUnsupportedVersion,  // a scenario text of a format version this build does not read
  kTooLarge,            // an input longer than the documented limit
  kResourceExhausted,   // the heap budget (heap_budget.h) has no room for what the call would keep
  kStaleLease,          // a lease token that is unknown, already settled or expired
  kInvalidSnapshot,     // a snapshot text that is malformed, truncated or altered (its checksum fails)
};

// Stable lower-case name of a code, e.g. "invalid-argument"; used by the JS API.
const char* CodeName(Code code);

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  static Status Ok() { return Status(); }
  static Status Error(Code code, std::string message) { return Status(code, std::move(message)); }
  static Status InvalidArgument(std::string m) { return Status(Code::kInvalidArgument, std::move(m)); }
  static Status OutOfRange(std::string m) { return Status(Code::kOutOfRange, std::move(m)); }
  static Status AlreadyExists(std::string m) { return Status(Code::kAlreadyExists, std::move(m)); }
  static Status NotFound(std::string m) { return Status(Code::kNotFound, std::move(m)); }
  static Status FailedPrecondition(std::string m) { return Status(Code::kFailedPrecondition, std::move(m)); }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  // "OK" or "<code name>: <message>".
  std::string ToString() const;

 private:
  Status(Code code, std::string message) : code_(code), message_(std::move(message)) {}
  Code code_ = Code::kOk;
  std::string message_;
};

// A value or the Status that explains why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  // Precondition: !status.ok(). An OK status without a value is a bug in the
  // caller; it is turned into an internal-looking error rather than a Result
  // whose value() would read an empty optional.
  Result(Status status) : status_(std::move(status)) {  // NOLINT: implicit by design
    if (status_.ok())
      status_ = Status::Error(Code::kFailedPrecondition, "Result built from an OK status without a value");
  }

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  // Precondition: ok().
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace dlq

// Returns from the enclosing function with the Status of `...` (an expression
// giving a Status) when it is an error; goes on when it is ok. The function must
// return a Status or a Result<T> (which a Status converts to).
#define RETURN_IF_ERROR(...)                                                              \
  do {                                                                                    \
    if (::dlq::Status dlq_status_ = (__VA_ARGS__); !dlq_status_.ok()) return dlq_status_; \
  } while (false)
