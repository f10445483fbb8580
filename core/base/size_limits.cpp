#include "size_limits.h"

namespace dlq {

Status TooLarge(std::string_view name, size_t limit, size_t given, std::string_view unit) {
  std::string message(name);
  message.append(" must be at most ").append(std::to_string(limit)).append(" ").append(unit);
  message.append(", got ").append(std::to_string(given)).append(" ").append(unit);
  return Status::Error(Code::kTooLarge, std::move(message));
}

Status TooLargeAtLeast(std::string_view name, size_t limit, size_t at_least, std::string_view unit) {
  std::string message(name);
  message.append(" must be at most ").append(std::to_string(limit)).append(" ").append(unit);
  message.append(", got at least ").append(std::to_string(at_least)).append(" ").append(unit);
  return Status::Error(Code::kTooLarge, std::move(message));
}

Status CheckSize(std::string_view name, size_t limit, size_t given, std::string_view unit) {
  return given <= limit ? Status::Ok() : TooLarge(name, limit, given, unit);
}

}  // namespace dlq
