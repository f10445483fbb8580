// Timeline events: every change to a queue appends exactly one or more of these;
// a refused call appends none. Each renders to one stable line of text (for golden
// files, byte-identical natively and in WebAssembly) and to one plain sentence
// that explains the rule applied (for people). An event records what was true
// when it was written: the time, the action that caused it, the budget in force.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "policy.h"

namespace dlq {

enum class EventKind : uint8_t {
  kEnqueued,
  kAttempt,
  kRequeued,
  kCompleted,
  kQuarantined,
  kReplayed,         // lesson 1
  kLeased,           // a worker took the job: the attempt is counted now
  kExpired,          // a lease ran out unsettled: decided as a transient failure
  kDelayed,          // the job waits until `until`, then joins the ready tail
  kDue,              // a delayed job's time came: it joined the ready tail
  kAlert,            // a quarantine arrival whose class raises an alert (unknown-schema by default)
  kReorder,          // a completion that overtook earlier-enqueued jobs of its key
  kKeyReleased,      // an operator let a quarantined holder's successors run (releaseKey)
  kEvidenceExpired,  // a quarantine entry reached its retention and was dropped for good
  kAlarmRaised,      // the quarantine reached the alarm depth
  kAlarmCleared,     // and fell below it again
  kLost,             // recovery after a crash found the job in no place (Queue::Recover)
  kKeptOnce,         // recovery found it in two places and kept it in one
  kDiscarded,        // dead-lettered with nowhere to go (no dead-letter exchange): gone, no entry kept
  kPatched,          // an operator fixed a quarantined job's payload (Queue::Patch); it stays in quarantine
};
constexpr int kEventKindCount = 20;

// "enqueued" | "attempt" | "requeued" | "completed" | "quarantined" | "replayed" |
// "leased" | "expired" | "delayed" | "due" | "alert" | "reorder" | "key-released" |
// "evidence-expired" | "alarm-raised" | "alarm-cleared" | "lost" | "kept-once" | "discarded" | "patched".
const char* EventKindName(EventKind kind);

struct Event {
  uint64_t seq = 0;     // 1, 2, 3, … in the order events happened
  uint64_t step = 0;    // the queue's step when it happened; 0 = before the first step
  uint64_t action = 0;  // the accepted call that caused it, 1-based (Queue: "An action")
  int64_t time = 0;     // virtual milliseconds
  EventKind kind = EventKind::kEnqueued;
  std::string id;
  // kAttempt, kLeased, kExpired: this attempt's number (1-based). kReplayed: the
  // count before the reset to 0. kEnqueued: 0. Otherwise the job's count.
  uint32_t attempts = 0;
  uint32_t max_attempts = 0;                              // the budget in force: for a decided failure, its class's
  FailureClass failure_class = FailureClass::kTransient;  // a failing kAttempt, kExpired (crash), kAlert
  Outcome outcome = Outcome::kSuccess;                    // kAttempt only
  Disposition disposition = Disposition::kCompleted;      // kAttempt, kExpired: where it sent the job
  Reason reason = Reason::kNone;                          // kQuarantined, kDiscarded, and a deciding kAttempt/kExpired
  std::string error;                                      // kAttempt: the worker's error text; kExpired: why
  // kEnqueued, kReplayed: the payload's size then; kPatched: the new payload's.
  uint64_t payload_bytes = 0;
  uint64_t old_payload_bytes = 0;  // kPatched: the payload's size before
  std::string token;               // kLeased, kExpired, and a kAttempt that settled a lease
  // kLeased: its expiry; kDelayed, and a delaying kAttempt/kExpired: the due time.
  // kReplayed: the count it keeps (0; under Sidekiq one less than before).
  int64_t until = 0;
  int64_t delay_ms = 0;               // a delaying kAttempt/kExpired, kDelayed: until - time
  std::string key;                    // kReorder, kKeyReleased: the ordering key
  std::vector<std::string> overtook;  // kReorder: the earlier jobs it overtook, in enqueue order
  uint64_t depth = 0;                 // kAlarmRaised, kAlarmCleared: the quarantine's depth then
  std::string place;  // kKeptOnce: where it was kept ("ready", "delayed", "leased", "completed", "quarantine")
  // A requeue (kRequeued, and a requeuing kAttempt/kExpired) that put the job back
  // near the head: a RabbitMQ quorum queue's return (rabbitmq-quorum; SystemRules::ReturnTo, ReturnPlace).
  bool at_head = false;
  // With at_head: a RabbitMQ classic queue's requeue, which puts the message back in its
  // place (the queue keeps no delivery count), not a quorum queue's.
  bool in_place = false;
  // kReplayed: sent back by the dead-letter queue's own consumer (the dlqToSource
  // anti-pattern), not by an operator; kQuarantined: about to be (the next event).
  bool routed_back = false;
  // evidence-expired under sidekiq: trimmed by the Dead set's size (deadMaxJobs), not its age.
  bool trimmed = false;
  // kDelayed, kDue and a delaying kAttempt/kExpired: where the delay lives (policy.h,
  // DelayAt); sleep_cut: its worker's sleep outlasted the lease, so the lease's expiry
  // ends the wait (the broker delivers the job again; the worker's own retry duplicates it).
  DelayAt delay_at = DelayAt::kBroker;
  bool sleep_cut = false;
  // kDiscarded and a discarding kAttempt/kExpired: the setting that dropped it.
  DropCause drop_cause = DropCause::kKept;
  // kReplayed by an SQS move task (sqs with moveTaskRate): the new message's MessageId
  // (MessageIdOf, system.h); "" for every other replay.
  std::string message_id;
};

// One line, no trailing newline, e.g.
//   #3 step 1 attempt "a" 1/3 transient error "db timeout" -> requeued
//   #9 step 2 at 1300ms attempt "a" 2/3 transient lease lease-2 -> delayed 400ms until 1700
// The time is shown once the clock has moved (time > 0), so lesson-1 lines are
// exactly as released.
std::string RenderEvent(const Event& event);

// One sentence, e.g. "attempt 3 of 3 failed transiently: budget used up → quarantine".
std::string ExplainEvent(const Event& event);

}  // namespace dlq
