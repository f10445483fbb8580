// Timers: a set of pending (time, seq) entries, earliest first. Ties fire in the
// order they were set: `seq` comes from one counter per queue, shared by every
// kind of timer (due times, lease expiries and quarantine retention).
#pragma once

#include <cstdint>
#include <set>

#include "policy.h"

namespace dlq {

struct Timer {
  int64_t time;
  uint64_t seq;
  uint32_t ref;  // what fires: a job index (due time, retention) or a lease number
  bool operator<(const Timer& o) const { return time != o.time ? time < o.time : seq < o.seq; }
};

// Pending timers of one kind, in firing order.
using TimerSet = std::set<Timer>;

// now + span, stopped at the end of virtual time (2^53 - 1 ms): no timer, and so
// no clock, ever passes it.
inline int64_t Later(int64_t now, int64_t span) { return span > kMaxTimeMs - now ? kMaxTimeMs : now + span; }

}  // namespace dlq
