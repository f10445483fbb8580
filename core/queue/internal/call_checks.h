// Internal to the core: callers use queue.h.
//
// The refusals of a queue call's arguments, before anything changes: each names
// the argument ("payload", or "jobs[3].payload" for a job of a batch: `argument`
// with `index`, SIZE_MAX for none), what was expected and what was given. The
// checks an enqueue makes per job are inline (a batch of a million makes them a
// million times); only a refusal builds its text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "job_store.h"
#include "policy.h"
#include "size_limits.h"
#include "status.h"

namespace dlq::checks {

// TooLarge naming `argument`[index].`field`, past `limit` bytes.
Status TooLong(const char* argument, size_t index, const char* field, size_t limit, size_t given);

inline Status Payload(std::string_view payload, const char* argument, size_t index = SIZE_MAX) {
  if (payload.size() <= kMaxPayloadBytes) return Status::Ok();
  return TooLong(argument, index, "payload", kMaxPayloadBytes, payload.size());
}
inline Status Key(std::string_view key, const char* argument, size_t index = SIZE_MAX) {
  if (key.size() <= kMaxKeyBytes) return Status::Ok();
  return TooLong(argument, index, "key", kMaxKeyBytes, key.size());
}
// A new job's id: non-empty, at most kMaxIdBytes, never given to `jobs` before.
Status NewId(std::string_view id, const JobStore& jobs, const char* argument, size_t index = SIZE_MAX);
Status ErrorText(std::string_view error_text);
// A worker's outcome by name, into `*out`.
Status OutcomeName(std::string_view outcome, Outcome* out);
// ProcessMany's outcomes: at most kMaxOutcomeLetters, each 's', 't' or 'p' (a bad
// one named by its UTF-16 index, as JavaScript counts).
Status OutcomeLetters(std::string_view outcomes);

}  // namespace dlq::checks
