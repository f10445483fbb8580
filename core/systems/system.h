// A system is one module: what the lab does differently under each System
// (policy.h; docs/real-systems.md), behind one interface, one file per system:
//   lab.cpp              the lesson's own rules (every hook's default)
//   rabbitmq_quorum.cpp  a quorum queue: its delivery-limit, returns near the head,
//                        x-death, a DLQ's x-max-length, no dead-letter exchange
//   bullmq.cpp           stalls and their budget, an uncapped exponential backoff,
//                        removeOnFail, a retry keeping attemptsMade
//   sidekiq.cpp          its own delay formula and 6.4.1's jitter, retry_count,
//                        the Dead set's trim and timeout, dead: false
//   sqs.cpp              the visibility timeout as the delay, retention from the
//                        first enqueue, no reason on a DLQ message
//   pubsub.cpp           max_delivery_attempts, no dead-letter topic (redelivered until
//                        retention expires), the dead-letter attributes
//   service_bus.cpp      abandon redelivers at once in place, DeadLetterReason and
//                        DeliveryCount on a $DeadLetterQueue message
//   spring_kafka.cpp     blocking retry holding the partition or retry topics, Spring's
//                        multiplied backoff, kafka_dlt-* headers, no recoverer
//   kafka_connect.cpp    errors.tolerance none stops the task, retriable failures retried in
//                        errors.retry.timeout with its backoff, __connect.errors.* headers
// The registry (registry.h) maps the enum to its module; it and these files are
// the only code that names a specific system. Everything else asks the module of
// the policy in force (SystemOf). The Policy's data, its field table (whose
// system column, FieldSpec::only_under, says which fields a system owns) and
// Check stay in core/policy/, below this layer.
//
// Every hook is pure: it reads the policy (and what it is given) and changes
// nothing. Policy::Check has accepted every policy given to a hook.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "policy.h"
#include "prng.h"

namespace dlq {

// A per-job record a system keeps beside the lab's own fields (the queue stores,
// journals, snapshots and charges it only under a system that keeps it).
//   kStalls        bullmq: the job's stall count (StoredJob::stalls)
//   kFirstEnqueue  sqs: the time of the job's first enqueue (SentTimestamp; Queue::enqueued_at_)
//   kXDeath        rabbitmq-quorum: the message's x-death record (Queue::x_death_)
// (Under a move task, MoveRatePerSecond > 0, the queue also keeps each job's move count.)
enum class JobRecord : uint8_t { kStalls, kFirstEnqueue, kXDeath };

// The MessageId the lab gives job `id` after its `moves`-th move (moves > 0): SQS gives a moved
// message a new id (a UUID); the lab's is derived, "<id>/moved-<n>", so a reader can follow it.
std::string MessageIdOf(std::string_view id, uint32_t moves);

// Where a job returned at once (Disposition::kRequeued) goes; the value is the ref
// its events carry (event.h: at_head), so it is append-only.
//   kTail      the ready tail (the lab's rule)
//   kNearHead  near the head: a quorum queue's return (a delivery-limit in force)
//   kInPlace   its own place: a classic queue's requeue (it keeps no delivery count)
enum class ReturnPlace : uint8_t { kTail = 0, kNearHead = 1, kInPlace = 2 };

// What a dead-letter record reads of a quarantine entry: a view the caller fills
// (the queue's QuarantineEntry has every field), so this layer needs no queue type.
struct EntryFacts {
  std::string_view id;  // the job's id (the lab's; under a move task its MessageId derives from it)
  std::string_view payload;
  uint32_t attempts = 0;
  uint32_t stalls = 0;
  std::string_view last_error;
  int64_t arrived_at = 0;
  int64_t enqueued_at = 0;        // the first enqueue (kFirstEnqueue), else 0
  XDeath x_death;                 // kXDeath, else empty
  Reason reason = Reason::kNone;  // why it is in quarantine
  uint32_t moves = 0;             // under a move task: the moves that made it a new message (MessageIdOf), else 0
  FailureClass failure_class = FailureClass::kTransient;  // its last failure's class
};

// One field of the record a system itself keeps for a dead letter, in its own
// names ("x-death", "ApproximateReceiveCount"): a number, a time (a number the
// page reads as a virtual-ms instant: x-death's time, SentTimestamp), a text, or
// a list of objects (x-death's entries), each a list of fields. The page draws it
// as name/value rows; the bindings convert it one field at a time.
struct RecordField {
  enum class Kind : uint8_t { kNumber, kText, kList, kTime };
  std::string name;
  Kind kind = Kind::kNumber;
  double number = 0;                           // kNumber, kTime (integers below 2^53: exact in JS)
  std::string text;                            // kText
  std::vector<std::vector<RecordField>> list;  // kList

  static RecordField Number(std::string name, double value);
  static RecordField Time(std::string name, int64_t at);  // a virtual-ms instant
  static RecordField Text(std::string name, std::string value);
  static RecordField List(std::string name, std::vector<std::vector<RecordField>> items);
  bool operator==(const RecordField&) const = default;
};
using DeadLetterRecord = std::vector<RecordField>;

class SystemRules {
 public:
  virtual ~SystemRules() = default;

  // --- Which system -------------------------------------------------------
  virtual System id() const = 0;
  // Its name as links, snapshots and the API spell it (the system choice list, schema.h).
  const char* name() const { return SystemName(id()); }
  // Its letter in a v2 link's ";r" group (link.h; frozen: released links carry it),
  // read from the system choice list's link column (schema.h), its one source.
  char link_letter() const;

  // --- What counts as an attempt ------------------------------------------
  // The policy's attempt budget (the lab: maxAttempts; a quorum queue may leave its
  // delivery-limit to the version).
  virtual int64_t Budget(const Policy& p) const { return p.max_attempts; }
  // Changes class `c`'s rule as the system applies it, before RuleFor resolves its
  // budget and backoff (sidekiq 6.4.1: every exception retried). The lab: unchanged.
  virtual void AdjustRule(const Policy& p, FailureClass c, ClassRule* rule) const { (void)p, (void)c, (void)rule; }
  // True when a crash (an expired lease) is a stall with its own budget instead of
  // an attempt (bullmq); StallBudget is then the stalls a job may have before it
  // fails (reason stalled). Decide, WorstCasePath and the queue's stall count read it.
  virtual bool CountsStalls() const { return false; }
  virtual int64_t StallBudget(const Policy& p) const { return (void)p, 0; }

  // The retry window in ms from the job's first failure (0: no window): a failure at
  // or after first_failed_at + window is not retried (reason exhausted), whatever the
  // budget says. Decide reads it with the time since the job's first failure, which the
  // queue keeps while a window is in force; WorstCasePath and RetrySchedule stop there.
  // Sidekiq's retry_for: (failed_at + retry_for) < now ends it, so its window is retry_for + 1 ms.
  virtual int64_t RetryWindowMs(const Policy& p) const { return (void)p, 0; }

  // True when a failure of class `c` that is retried raises the system's attempt count
  // (the lab: always). False: the attempt is not counted (Decision::uncounted), its retry
  // is the policy's backoff after attempt 1 (no count grows), and the budget never ends
  // it, so WorstCasePath says unbounded (RabbitMQ 4.3's basic.nack: only x-acquired-count).
  virtual bool CountsFailure(const Policy& p, FailureClass c) const { return (void)p, (void)c, true; }

  // --- The delay rule and its jitter --------------------------------------
  // The retry delay after failed attempt `attempt` with `backoff` (the class's
  // rule's), drawing from `jitter` as the system does (backoff.h, RetryDelay).
  // The lab: NextDelay.
  virtual int64_t RetryDelay(const Policy& p, const Backoff& backoff, uint32_t attempt, int64_t previous,
                             Prng& jitter) const;
  // The largest delay RetryDelay can give (MaxDelay for the lab).
  virtual int64_t MaxRetryDelay(const Policy& p, const Backoff& backoff, uint32_t attempt, int64_t previous_max) const;
  // An attempt from which MaxRetryDelay(p, backoff, n, previous_max) no longer depends
  // on n (only on previous_max), so WorstCasePath can add a run of equal waits in
  // closed form instead of one attempt at a time. Any later attempt is also correct.
  // The lab: MaxDelaySettlesAt (backoff.h).
  virtual uint32_t MaxRetryDelaySettlesAt(const Policy& p, const Backoff& backoff) const;
  // The policy a crash's retry delay follows (Decide, WorstCasePath): a crash (a lost
  // connection, an expired lease) returns no outcome from the consumer, so a delay the
  // consumer sets on its returns does not apply to it (rabbitmq-quorum's deliveryTime
  // backoff: a crash waits the broker's linear delayed retry). The lab: the policy itself.
  virtual Policy CrashPolicy(const Policy& p) const { return p; }

  // --- Which ready job a worker may take ------------------------------------
  // The ordering the queue applies (spring-kafka: its blocking retry holds the partition,
  // stall; its retry topics keep none). The lab: the policy's ordering field.
  virtual Ordering OrderingInForce(const Policy& p) const { return p.ordering; }

  // --- Where a return goes -------------------------------------------------
  virtual ReturnPlace ReturnTo(const Policy& p) const { return (void)p, ReturnPlace::kTail; }

  // --- Terminal reasons and the dead-letter record -------------------------
  // How the system names a quarantine entry's reason (RabbitMQ's x-death reason,
  // "" for SQS, whose DLQ message carries none); the lab's ReasonName by default.
  virtual const char* ReasonName(Reason reason) const { return dlq::ReasonName(reason); }
  // The error text the system records when it fails a job for `reason` itself
  // (BullMQ's failedReason for a stall), or nullptr: the worker's last error stays.
  virtual const char* OwnError(Reason reason) const { return (void)reason, nullptr; }
  // True when an entry shows the system's own reason and record (every system but
  // the lab, whose entries are as they always were).
  virtual bool DescribesEntries() const { return true; }
  // The record the system itself keeps for a dead letter, in its own field names
  // (docs/real-systems.md): what an operator of that system would see. Empty for the lab.
  virtual DeadLetterRecord Record(const EntryFacts& entry) const { return (void)entry, DeadLetterRecord{}; }
  // What an operator of the system calls that record: the heading the page puts over
  // it ("x-death record", "$DeadLetterQueue message"). A system that names none gets
  // the generic "dead-letter record"; never empty.
  virtual const char* RecordTitle() const { return "dead-letter record"; }
  // The record under the policy in force, for a system whose record depends on a setting
  // (kafka-connect's context headers); Record by default.
  virtual DeadLetterRecord RecordUnder(const Policy& p, const EntryFacts& entry) const {
    return (void)p, Record(entry);
  }

  // --- A consumer that stops -------------------------------------------------
  // When > 0, a job that fails for good is neither quarantined nor dropped: it is held at
  // the head this long (a delay; with ordering stall in force nothing behind it is taken),
  // the lab's stand-in for a consumer that stops on it (kafka-connect's errors.tolerance
  // none: the task fails, the record stays at its offset). 0 (the lab): quarantined.
  virtual int64_t StopHoldMs(const Policy& p) const { return (void)p, 0; }

  // --- Why a dead letter is dropped ----------------------------------------
  // Its mode's setting that drops a job failing for good instead of quarantining
  // it (DropCause), or kKept.
  virtual DropCause DeadLetterDrop(const Policy& p) const { return (void)p, DropCause::kKept; }

  // --- Expiry in the source ---------------------------------------------------
  // How long after its publish a ready message expires at the head (0: never). The
  // lab: the policy's messageTtlMs (rabbitmq-quorum's x-message-ttl; 0 elsewhere).
  virtual int64_t MessageTtl(const Policy& p) const { return p.message_ttl_ms; }
  // True when a due retry is a new publish that starts the TTL again (RabbitMQ's
  // retry-queue pattern); false when it is a redelivery of the same message (pubsub).
  virtual bool RetryRepublishes() const { return true; }
  // Why an expired message is discarded instead of quarantined (DropCause), or kKept. The
  // lab: as any dead letter (DeadLetterDrop: a quorum queue with no dead-letter exchange).
  virtual DropCause ExpiryDrop(const Policy& p) const { return DeadLetterDrop(p); }
  // False (the lab): only the ready head expires (a quorum queue's x-message-ttl). True: a
  // message past its TTL is never handed out wherever it stands in ready (a receive skips
  // and dead-letters it), and one returned past it is dead-lettered at once (service-bus:
  // "If the lock expires or the message is abandoned, the expiration takes immediate effect").
  virtual bool ExpiresInPlace() const { return false; }

  // --- Retention and the quarantine's bound --------------------------------
  // True when retention is applied as jobs finish, not by a timer (bullmq, sidekiq).
  virtual bool LazyRetention() const { return false; }
  // The age at which a lazy trim drops an entry (0: none).
  virtual int64_t LazyRetentionAge(const Policy& p) const { return LazyRetention() ? p.retention_ms : 0; }
  // The newest entries the quarantine keeps after each arrival, oldest dropped
  // first (-1: no count).
  virtual int64_t QuarantineKeepNewest(const Policy& p) const { return (void)p, -1; }
  // Where an entry's retention clock starts: its arrival, or (sqs) its first enqueue.
  virtual int64_t RetentionFrom(int64_t arrived_at, int64_t first_enqueue) const {
    return (void)first_enqueue, arrived_at;
  }

  // --- Replay ---------------------------------------------------------------
  // True when a replay may keep the job's attempts (bullmq's job.retry() without a reset).
  virtual bool CanReplayKeepingAttempts() const { return false; }
  // The attempts a replay (with a reset) leaves a job that had `attempts`: 0, or
  // (sidekiq) one fewer, so a retried dead job gets one more run.
  virtual uint32_t AttemptsAfterReplay(uint32_t attempts) const { return (void)attempts, 0; }
  // The system's own redrive as a rate-limited move task (sqs: StartMessageMoveTask), in
  // messages a second, or 0: the lab's replay (every entry at once, the message kept).
  // Under a rate r the k-th entry (0-based) of one redrive moves k x 1000 / r ms later
  // (rounded up: never faster than r a second; until then it waits in delayed), and each
  // moved entry is a new message: its first enqueue (kFirstEnqueue) is the move's start
  // and its move count (EntryFacts::moves) grows by one. Replay(id) is a task of one entry.
  virtual int64_t MoveRatePerSecond(const Policy& p) const { return (void)p, 0; }

  // --- Per-job records ------------------------------------------------------
  virtual bool Keeps(JobRecord record) const { return (void)record, false; }
};

}  // namespace dlq
