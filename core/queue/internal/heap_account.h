// Internal to the core: callers use queue.h.
//
// HeapAccount: what one queue keeps, on the heap budget (heap_budget.h), one
// part of QueueCore. The cost table is queue_cost.h. Every mutator asks for room
// with one Need before it changes anything (CheckRoom); each piece is charged
// where it is kept (Add), and the event log's growth is charged as it really is
// (ChargeEvents). Given back whole when the queue dies.
#pragma once

#include <cstddef>

#include "heap_budget.h"
#include "queue_cost.h"
#include "status.h"

namespace dlq {

class HeapAccount {
 public:
  // Room on the budget for what a call may add, or ResourceExhausted naming `call`.
  // `journal`: the policy keeps one (its records copy what each move carries).
  static Status CheckRoom(const cost::Need& need, bool journal, const char* call) {
    return HeapBudget::CheckRoom(cost::Bytes(need, journal), call);
  }

  void Add(size_t bytes) { charge_.Add(bytes); }
  void Return(size_t bytes) { charge_.Return(bytes); }
  size_t bytes() const { return charge_.bytes(); }

  // Charges (or gives back) the event log's change since the last charge, the
  // log now taking `log_bytes` (EventLog::bytes()).
  void ChargeEvents(size_t log_bytes) {
    if (log_bytes >= events_charged_) {
      charge_.Add(log_bytes - events_charged_);
    } else {
      charge_.Return(events_charged_ - log_bytes);
    }
    events_charged_ = log_bytes;
  }

  // What is charged now, and back to it (a refused batch is undone).
  struct Mark {
    size_t bytes = 0, events = 0;
  };
  Mark mark() const { return {charge_.bytes(), events_charged_}; }
  void Rewind(const Mark& m) {
    charge_.Return(charge_.bytes() - m.bytes);
    events_charged_ = m.events;
  }

 private:
  HeapCharge charge_;
  size_t events_charged_ = 0;  // the part of charge_ that is the event log's bytes
};

}  // namespace dlq
