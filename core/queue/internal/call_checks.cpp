#include "call_checks.h"

#include <string>

#include "text.h"

namespace dlq::checks {

namespace {

// "id", or "jobs[3].id" for a job of a batch.
std::string ArgumentName(const char* argument, size_t index, const char* field) {
  if (index == SIZE_MAX) return argument;
  return std::string(argument) + "[" + std::to_string(index) + "]." + field;
}

// UTF-16 code units in s[0, byte): the index JavaScript gives the same character.
size_t Utf16Index(std::string_view s, size_t byte) {
  size_t units = 0;
  for (size_t i = 0; i < byte; ++i) {
    const auto b = static_cast<unsigned char>(s[i]);
    if ((b & 0xC0) != 0x80) units += b >= 0xF0 ? 2 : 1;  // a 4-byte sequence is a surrogate pair
  }
  return units;
}

// The UTF-8 character starting at s[i] (one byte if it is not well-formed).
std::string_view CharacterAt(std::string_view s, size_t i) {
  size_t end = i + 1;
  while (end < s.size() && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80 && end - i < 4) ++end;
  return IsValidUtf8(s.substr(i, end - i)) ? s.substr(i, end - i) : s.substr(i, 1);
}

}  // namespace

Status TooLong(const char* argument, size_t index, const char* field, size_t limit, size_t given) {
  return TooLarge(ArgumentName(argument, index, field), limit, given);
}

Status NewId(std::string_view id, const JobStore& jobs, const char* argument, size_t index) {
  const auto name = [&] { return ArgumentName(argument, index, "id"); };
  if (id.empty()) return Status::InvalidArgument(name() + " must be a non-empty string, got \"\"");
  if (id.size() > kMaxIdBytes) return TooLarge(name(), kMaxIdBytes, id.size());
  if (jobs.Contains(id)) {
    return Status::AlreadyExists(name() + " " + QuoteShort(id) +
                                 " was already given to this queue; ids must be unique");
  }
  return Status::Ok();
}

Status ErrorText(std::string_view error_text) { return CheckSize("errorText", kMaxErrorTextBytes, error_text.size()); }

Status OutcomeName(std::string_view outcome, Outcome* out) {
  RETURN_IF_ERROR(CheckSize("outcome", kMaxOutcomeBytes, outcome.size()));
  Result<Outcome> parsed = ParseOutcome(outcome);
  if (!parsed.ok()) return parsed.status();
  *out = parsed.value();
  return Status::Ok();
}

Status OutcomeLetters(std::string_view outcomes) {
  RETURN_IF_ERROR(CheckSize("outcomes", kMaxOutcomeLetters, outcomes.size()));
  for (size_t i = 0; i < outcomes.size(); ++i) {
    const char c = outcomes[i];
    if (c != 's' && c != 't' && c != 'p') {
      return Status::InvalidArgument("outcomes[" + std::to_string(Utf16Index(outcomes, i)) +
                                     "] must be 's' (success), 't' (transient) or 'p' (permanent), got " +
                                     Quote(CharacterAt(outcomes, i)));
    }
  }
  return Status::Ok();
}

}  // namespace dlq::checks
