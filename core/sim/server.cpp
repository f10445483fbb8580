#include "server.h"

#include <algorithm>
#include <limits>

namespace dlq {

namespace {
constexpr int64_t kUnitsPerAttempt = 1000;
constexpr int64_t kForever = std::numeric_limits<int64_t>::max();
}  // namespace

int64_t ServerQueue::RateAt(int64_t ms) const {
  const bool dropped =
      server_.drop_ms > 0 && ms >= server_.drop_start_ms && ms < server_.drop_start_ms + server_.drop_ms;
  return dropped ? server_.drop_per_second : server_.per_second;
}

int64_t ServerQueue::SegmentEnd(int64_t ms) const {
  if (server_.drop_ms == 0) return kForever;
  if (ms < server_.drop_start_ms) return server_.drop_start_ms;
  if (ms < server_.drop_start_ms + server_.drop_ms) return server_.drop_start_ms + server_.drop_ms;
  return kForever;
}

ServerQueue::Position ServerQueue::Advance(Position at, int64_t units) const {
  while (units > 0) {
    const int64_t rate = RateAt(at.ms);
    const int64_t end = SegmentEnd(at.ms);
    if (rate == 0) {  // nothing is served until the segment ends (a drop to 0 ends: the rate after it is positive)
      at = {end, 0};
      continue;
    }
    const int64_t left = rate - at.units;  // in this ms
    if (units < left) {
      at.units += units;
      return at;
    }
    units -= left;
    at = {at.ms + 1, 0};
    // Whole ms at this rate, up to the segment's end.
    const int64_t whole = std::min(units / rate, end - at.ms);
    at.ms += whole;
    units -= whole * rate;
  }
  return at;
}

int64_t ServerQueue::UnitsBetween(Position from, Position to) const {
  int64_t units = 0;
  while (from.ms < to.ms) {
    const int64_t rate = RateAt(from.ms);
    const int64_t stop = std::min(SegmentEnd(from.ms), to.ms);
    units += (stop - from.ms) * rate - from.units;
    from = {stop, 0};
  }
  return units + (to.units - from.units);
}

int64_t ServerQueue::TakeUp(int64_t now_ms) {
  // An idle server banks no capacity: the turn starts now at the earliest.
  if (next_.ms < now_ms) next_ = {now_ms, 0};
  // A ms that provides nothing (a drop to 0) starts no turn: move to where service resumes.
  if (RateAt(next_.ms) == 0) next_ = {SegmentEnd(next_.ms), 0};
  const int64_t turn = next_.ms;
  next_ = Advance(next_, kUnitsPerAttempt);
  return turn;
}

uint64_t ServerQueue::Backlog(int64_t now_ms) const {
  const Position from{now_ms + 1, 0};
  if (next_.ms < from.ms) return 0;
  // The queued attempts' turns start 1000 units apart back from next_ (the busy server's
  // turns are contiguous): those at or after `from` are the ones not yet taken up.
  return static_cast<uint64_t>(UnitsBetween(from, next_) / kUnitsPerAttempt);
}

}  // namespace dlq
