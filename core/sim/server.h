// The dependency as a server with a capacity (the metastable model, after
// Bronson et al., HotOS '21, and Huang et al., OSDI '22): it takes up attempts
// one after another, first come first served, at most `per_second` of them a
// second (fewer, `drop_per_second`, in the capacity drop [drop_start_ms,
// drop_start_ms + drop_ms): the trigger); an attempt waits in its queue until
// its turn. The server never learns that a client gave up: an abandoned attempt
// still takes its turn, which is how a queue outlives its trigger.
//
// Exact integer arithmetic: the server's clock counts whole ms plus "units" in
// the current ms, where one attempt needs 1000 units and a ms at r per second
// provides r of them; several attempts may be taken up in one ms.
#pragma once

#include <cstdint>

namespace dlq {

struct StormServer {
  int64_t per_second = 1000;  // capacity, attempts a second
  int64_t timeout_ms = 1000;  // a client gives up on an attempt after this long and decides it failed
  int64_t drop_start_ms = 0;  // the capacity drop (the trigger); drop_ms 0: none
  int64_t drop_ms = 0;
  int64_t drop_per_second = 0;
};

class ServerQueue {
 public:
  explicit ServerQueue(const StormServer& server) : server_(server) {}
  // The ms at which an attempt sent at `now_ms` is taken up; it then holds its
  // turn. Sends must come in time order.
  int64_t TakeUp(int64_t now_ms);
  // Attempts sent and not yet taken up at the end of ms `now_ms`.
  uint64_t Backlog(int64_t now_ms) const;

 private:
  struct Position {
    int64_t ms = 0;
    int64_t units = 0;  // used in ms `ms`, below RateAt(ms)
  };
  int64_t RateAt(int64_t ms) const;
  // The first ms after `ms` where the rate changes (INT64_MAX: never).
  int64_t SegmentEnd(int64_t ms) const;
  // `from` moved on by `units` of service.
  Position Advance(Position from, int64_t units) const;
  // The units the server provides from `from` to `to` (to after from).
  int64_t UnitsBetween(Position from, Position to) const;

  StormServer server_;
  Position next_;  // where the next attempt's turn may start
};

}  // namespace dlq
