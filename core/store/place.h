// Place: where a job is now, as every view and location names it. Public: queue.h's
// JobLocation and the bindings read it.
#pragma once

#include <cstdint>

namespace dlq {

// Where a job is now. Exactly one place at a time.
// kDropped: its quarantine entry reached its retention; kLost: a crash between
// two writes of a move left it in no place (recovery found it nowhere);
// kDiscarded: it was dead-lettered with nowhere to go (no dead-letter exchange).
enum class Place : uint8_t { kReady, kDelayed, kLeased, kCompleted, kQuarantined, kDropped, kLost, kDiscarded };

// "ready" | "delayed" | "leased" | "completed" | "quarantine" | "dropped" | "lost" | "discarded".
const char* PlaceName(Place place);

}  // namespace dlq
