// Timers: a set of pending (time, seq) entries, earliest first. Ties fire in the
// order they were set: `seq` comes from one counter per queue, shared by every
// kind of timer (due times and lease expiries).
#pragma once

#include <cstdint>
#include <set>

namespace dlq {

struct Timer {
  int64_t time;
  uint64_t seq;
  uint32_t ref;  // what fires: a job index, or a lease number
  bool operator<(const Timer& o) const { return time != o.time ? time < o.time : seq < o.seq; }
};

// Pending timers of one kind, in firing order.
using TimerSet = std::set<Timer>;

// The earliest of two sets' first timers, or nullptr; `*first` says which set.
inline const Timer* Earliest(const TimerSet& a, const TimerSet& b, bool* from_b) {
  const Timer* x = a.empty() ? nullptr : &*a.begin();
  const Timer* y = b.empty() ? nullptr : &*b.begin();
  *from_b = y != nullptr && (x == nullptr || *y < *x);
  return *from_b ? y : x;
}

}  // namespace dlq
