// Timeline events: every change to a queue appends exactly one or more of these;
// a refused call appends none. Each renders to one stable line of text (for golden
// files, byte-identical natively and in WebAssembly) and to one plain sentence
// that explains the rule applied (for people).
#pragma once

#include <cstdint>
#include <string>

#include "policy.h"

namespace dlq {

enum class EventKind : uint8_t { kEnqueued, kAttempt, kRequeued, kCompleted, kQuarantined, kReplayed };

// "enqueued" | "attempt" | "requeued" | "completed" | "quarantined" | "replayed".
const char* EventKindName(EventKind kind);

struct Event {
  uint64_t seq = 0;   // 1, 2, 3, … in the order events happened
  uint64_t step = 0;  // the queue's step when it happened; 0 = before the first step
  EventKind kind = EventKind::kEnqueued;
  std::string id;
  // kAttempt: this attempt's number (1-based). kRequeued, kCompleted, kQuarantined:
  // the job's attempt count. kReplayed: the count it had before the reset to 0.
  // kEnqueued: 0.
  uint32_t attempts = 0;
  uint32_t max_attempts = 0;  // the policy in force
  Outcome outcome = Outcome::kSuccess;                  // kAttempt only
  Disposition disposition = Disposition::kCompleted;    // kAttempt only: where it sent the job
  Reason reason = Reason::kNone;                        // kQuarantined, and a quarantining kAttempt
  std::string error;                                    // kAttempt: the worker's error text
  uint64_t payload_bytes = 0;                           // kEnqueued, kReplayed
};

// One line, no trailing newline, e.g.
//   #3 step 1 attempt "a" 1/3 transient error "db timeout" -> requeued
std::string RenderEvent(const Event& event);

// One sentence, e.g. "attempt 3 of 3 failed transiently: budget used up → quarantine".
std::string ExplainEvent(const Event& event);

}  // namespace dlq
