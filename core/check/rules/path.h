// How a rule prints time and the computed path, and the link that plays a finding.
#pragma once

#include <cstdint>
#include <string>

#include "check.h"
#include "join.h"

namespace dlq::check {

// A duration in the unit people read: "850 ms", "12 s", "12.5 s", "41 min", "2 h 5 min",
// "4 d", "4 d 3 h". Whole units are truncated, never rounded up past what was computed.
std::string DurationText(int64_t ms);

// The bounded path's end: "attempt 5 at 41 min → orders-dlq" (the last attempt running to
// its lease, each wait at its longest: WorstCasePath), the place named by `where`. A queue
// whose schedule is an Unknown ("policy") names it instead of a guessed attempt and time. A queue
// with no attempt limit says so instead ("retried without an attempt limit (…), then → …").
std::string PathText(const JoinedQueue& queue, const std::string& where);

// Where a terminal failure of `queue` goes, as a path prints it: the DLQ's name, "its Dead
// set"/"its failed set" (kept by the system), "dropped (retry: false)", "an unknown place".
std::string TerminalText(const JoinedQueue& queue);

// A v2 scenario URL (options.link_base + "#" + link) that plays `queue`'s failing case in the
// playground: its system's mode and the policy read, one job that needs a dependency which is
// down from 0 to `outage_ms` (at least 1 ms), so each of its attempts fails transiently.
std::string ScenarioLink(const QueueConfig& queue, int64_t outage_ms, const CheckOptions& options);

}  // namespace dlq::check
