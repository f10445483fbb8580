// Queue: the lesson's retry/quarantine policy applied to an in-memory job queue,
// on a virtual clock.
//
// Contract (lesson 1):
//  * Every job id is unique over everything the queue was ever given (ready,
//    delayed, leased, completed or quarantined); a duplicate is refused.
//  * Process() validates the outcome first, then takes the head of the ready
//    queue, counts the attempt, and only then decides (rules.h, Decide()):
//      success                          -> completed
//      permanent                        -> quarantine at once, reason "permanent"
//      transient, attempts < maximum    -> the ready tail, at once or after a delay
//      transient, attempts == maximum   -> quarantine, reason "exhausted"
//    and likewise for the capstone's failure classes, each by its rule in the
//    policy's class table (undeserializable and unknown-schema never retry;
//    precondition retries twice, after 1 s). Attempts are one count per job,
//    whatever the classes of its failures.
//  * Nothing leaves quarantine except through Replay(id), an operator's explicit
//    decision that resets the job's attempts to 0 and appends it at the ready tail.
//  * Views are copies. Every change appends events to the timeline; a refused call
//    changes nothing and appends nothing.
//
// The clock and leases (the capstone):
//  * Time is virtual, in integer milliseconds from 0, and moves only through
//    Advance(ms) and AdvanceToNext(). Every event carries the time it happened.
//  * After a transient failure with budget left the backoff (policy.h) gives a
//    delay: 0 sends the job to the ready tail at once (disposition requeued), d > 0
//    parks it in "delayed" until now + d (disposition delayed), when it joins the
//    ready tail.
//  * Lease() takes the ready head and counts the attempt at once: the queue
//    counts deliveries, not the worker. Settle(token, outcome) ends it like a
//    Process(); a token that is unknown, already settled or expired is refused
//    (StaleLease) and nothing changes. A lease that reaches its expiry unsettled
//    expires: its attempt stays counted and it is decided as a transient failure.
//    Process() is a lease and its settle at the same instant.
//  * Timers (due times and lease expiries) fire in time order, ties in the order
//    they were set, each at its own time.
//
// A step is one attempt started (Process() or Lease() that took a job) or one
// accepted Replay(); other events carry the current step. An action is one
// accepted call that changes the queue (an Advance() counts even by 0 ms: it is
// a decision about time); every event carries the action that caused it
// (1-based), so a viewer can group events without guessing.
//
// Size limits (size_limits.h) are checked before anything else. What a queue keeps is
// charged to the heap budget (heap_budget.h): a call that would keep more than
// the budget has room for is refused with ResourceExhausted and changes nothing.
//
// Counters (steps, actions, timer and arrival numbers, dropped entries, ready
// positions) stay at most 2^53 - 1, exact as JavaScript numbers, so a queue can
// always restore its own snapshot. Only a restored snapshot can bring one within
// kCounterRoom (2^48) of that; then every call that changes the queue is refused
// with OutOfRange (Replay() returns false, AdvanceToNext() nullopt) and nothing
// changes. One call adds far less than 2^48 to any counter.
//
// Deterministic: virtual time, the queue's own seeded PRNG streams, no dependence
// on hash iteration order.
//
// In parts: Queue is the facade of the calls that change a queue (and its
// factories); QueueView (Queue::view()) holds the reads. Both forward to the
// queue's state, QueueCore (internal/queue_core.h), which keeps the places, the
// journal, the heap account and the systems' per-job records as parts, each in
// its own file under internal/. This header needs none of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "event.h"
#include "place.h"
#include "policy.h"
#include "status.h"

namespace dlq {

struct JobView {
  std::string id;
  std::string payload;
  uint32_t attempts = 0;
  std::string key;      // its ordering key; "" for none
  std::string held_by;  // Ready() under key ordering: the id it waits for; "" when free to run
};

// Where one job is now (Queue::Locate): the fields its place's view would show.
// The most attempts a job may reach under bullmq's retries without a reset.
inline constexpr int64_t kMaxKeptAttempts = int64_t{UINT32_MAX} - 1;

struct JobLocation {
  Place place = Place::kReady;  // job_store.h; kDropped and kLost are in no view
  uint32_t attempts = 0;
  std::string held_by;            // kReady under key ordering: the id it waits for; "" when free to run
  int64_t until = 0;              // kDelayed: its due time; kLeased: its lease's expiry
  std::string token;              // kLeased
  Reason reason = Reason::kNone;  // kQuarantined
  FailureClass failure_class = FailureClass::kTransient;  // kQuarantined
  std::string source_queue;                               // kQuarantined: QuarantineEntry's
};

struct DelayedView {
  std::string id;
  std::string payload;
  uint32_t attempts = 0;
  int64_t due_at = 0;
};

struct LeaseView {
  std::string id;
  std::string payload;
  uint32_t attempts = 0;
  std::string token;
  int64_t expires_at = 0;
  int64_t leased_at = 0;
};

struct QuarantineEntry {
  std::string id;
  std::string payload;
  uint32_t attempts = 0;
  Reason reason = Reason::kNone;
  std::string last_error;                                 // the worker's error text on the final attempt
  uint64_t step = 0;                                      // the step at which it arrived
  FailureClass failure_class = FailureClass::kTransient;  // the final failure's class
  bool alert = false;                                     // its class raised an alert when it arrived
  int64_t arrived_at = 0;        // the time of the final failure (a settle, or a lease's expiry)
  int64_t first_attempt_at = 0;  // the time of its first attempt since enqueue or replay
  std::string key;               // its ordering key; "" for none
  // The modes' own fields (policy.h, System):
  uint32_t stalls = 0;      // bullmq: its stalls (stalledCounter)
  int64_t enqueued_at = 0;  // sqs: its first enqueue (retention counts from it)
  XDeath x_death;           // rabbitmq-quorum: its x-death record
  uint32_t moves = 0;       // sqs under a move task: how often one moved it (its MessageId: MessageIdOf)
  // The queue it came from (the one a replay returns it to): every job of this
  // lab comes from its one source queue, kSourceQueueName ("orders"), so it is
  // derived, never stored, and snapshots and journals carry nothing new.
  std::string source_queue;
  // Its retention as the core counts it: from retention_from (its arrival; under sqs
  // its first enqueue) to retention_until, when a timer drops it (under bullmq and
  // sidekiq, whose trims are lazy, the first trim from then on drops it). Both -1
  // when no retention applies. A page draws these; it does not work them out.
  int64_t retention_from = -1;
  int64_t retention_until = -1;
};

// What one Process() call did.
struct Attempt {
  bool processed = false;  // false: nothing was ready, nothing changed
  std::string id;
  uint32_t attempt = 0;  // this attempt's number, 1-based
  Outcome outcome = Outcome::kSuccess;
  Disposition disposition = Disposition::kCompleted;
  Reason reason = Reason::kNone;  // set when disposition is kQuarantined
  int64_t delay_ms = 0;           // set when disposition is kDelayed
  int64_t due_at = 0;             // likewise: when it joins the ready tail
};

// What one Lease() call did.
struct LeaseGrant {
  bool leased = false;  // false: nothing was ready, nothing changed
  std::string id;
  std::string payload;
  uint32_t attempt = 0;  // the attempt this lease counted, 1-based
  std::string token;     // "lease-<n>", never reused within the queue
  int64_t leased_at = 0;
  int64_t expires_at = 0;
};

// How many jobs each place holds.
struct QueueStats {
  uint64_t step = 0;
  uint64_t actions = 0;
  int64_t now = 0;
  size_t ready = 0, delayed = 0, leased = 0, completed = 0, quarantined = 0, events = 0;
  size_t reorders = 0;   // completions that broke their key's order
  size_t expired = 0;    // quarantine entries dropped at their retention
  size_t lost = 0;       // jobs a crash left in no place (Recover)
  size_t discarded = 0;  // jobs dead-lettered with no dead-letter exchange: gone, no entry kept
};

// A job that left with no quarantine entry (Queue::Discarded): what it was when it went.
struct DiscardedView {
  std::string id;
  std::string payload;
  uint32_t attempts = 0;
  Reason reason = Reason::kNone;  // why it was dead-lettered (kExhausted, kPermanent)
  int64_t at = 0;                 // when it was discarded
};

// One durable write of the journal (Queue::Journal()), as a caller sees it.
struct JournalEntry {
  uint64_t write = 0;  // 1-based within the journal
  std::string op;      // "put-quarantine", "end-lease", … (durable.h, WriteOp)
  std::string id;      // the job it writes, or "" (create, clock)
  std::string record;  // the record itself: opaque text with its own check
};

// Where Recover() stops the journal.
struct RecoverOptions {
  // Apply the journal's first k writes (default: all of them).
  std::optional<int64_t> crash_after;
  // Then a half-written (k+1)-th write, which recovery must detect and discard.
  bool torn = false;
};

struct Recovery;

// A job to enqueue, owning its strings (scenarios keep these).
struct JobSpec {
  std::string id;
  std::string payload;
  std::string key;  // its ordering key; "" for none
};

// A job to enqueue, viewing strings the caller keeps alive for the call.
struct JobRef {
  std::string_view id;
  std::string_view payload;
  std::string_view key = {};
};

// The quarantine's depth alarm.
struct AlarmView {
  bool raised = false;
  size_t depth = 0;       // entries now
  int64_t threshold = 0;  // the policy's alarm depth; 0: no alarm
};

// One completion that overtook earlier-enqueued, not yet completed jobs of its key.
struct ReorderView {
  std::string key;
  std::string id;
  std::vector<std::string> overtook;  // in enqueue order
};

// Which quarantine entries a redrive takes (an operator's choice): those of one
// failure class, or one reason, or both; the defaults take every entry.
struct RedriveFilter {
  std::optional<FailureClass> failure_class;
  Reason reason = Reason::kNone;  // kNone: any reason
  bool operator==(const RedriveFilter&) const = default;
};

// A call that finds a counter closer than this to 2^53 - 1 is refused (see above).
constexpr int64_t kCounterRoom = int64_t{1} << 48;

class QueueCore;  // internal/queue_core.h
class QueueView;

class Queue {
 public:
  // The first field Policy::Check() refuses, named; else a queue at time 0.
  static Result<Queue> Create(const Policy& policy);

  // A moved-from queue may only be assigned to or destroyed.
  Queue(Queue&&) noexcept;
  Queue& operator=(Queue&&) noexcept;
  Queue(const Queue&) = delete;  // a queue is an identity; copy its views instead
  Queue& operator=(const Queue&) = delete;
  ~Queue();

  // ---- Jobs in ---------------------------------------------------------------
  // Appends a job at the ready tail (then, under a maxLength, dead-letters the oldest ready
  // jobs past it: DropHeadOverLimit). InvalidArgument for an empty id,
  // AlreadyExists for an id this queue was ever given, TooLarge past the limits
  // in size_limits.h, ResourceExhausted past the heap budget. The payload is kept byte for byte (NUL and non-UTF-8
  // included). `key` (optional, at most kMaxKeyBytes) orders the job among its key's jobs.
  Status Enqueue(std::string_view id, std::string_view payload, std::string_view key = {});

  // All or nothing: either every job is appended in order, or (an empty id, an id
  // already given, a duplicate inside the batch, a string past its limit) none is
  // and the Status names the first offending job by its index. TooLarge when the
  // batch's ids and payloads add up to more than kMaxBatchBytes.
  Status EnqueueMany(const std::vector<JobRef>& jobs);

  // ---- Attempts --------------------------------------------------------------
  // One attempt at the head job with the worker's outcome. An invalid outcome
  // string is refused (InvalidArgument, or TooLarge past kMaxOutcomeBytes) even
  // when nothing is ready, and so is an error text past kMaxErrorTextBytes. With nothing ready the result
  // has processed == false and nothing changes.
  Result<Attempt> Process(std::string_view outcome, std::string_view error_text = {});
  Result<Attempt> Process(Outcome outcome, std::string_view error_text = {});

  // Runs one attempt per character of `outcomes` ('s' success, 't' transient,
  // 'p' permanent), stopping early when nothing is ready. Every character is
  // validated before anything moves (a bad one is named by its UTF-16 index, as
  // JavaScript counts); at most kMaxOutcomeLetters of them. Returns the number
  // of attempts made.
  Result<uint64_t> ProcessMany(std::string_view outcomes, std::string_view error_text = {});

  // Takes the ready head and counts its attempt now; the lease expires at
  // now + leaseMs unless settled first. leased == false when nothing is ready.
  Result<LeaseGrant> Lease();

  // Ends the lease `token` with the worker's outcome, decided like Process().
  // The outcome and error text are checked first, then the token: unknown,
  // already settled or expired is StaleLease, naming the job; nothing changes.
  Result<Attempt> Settle(std::string_view token, std::string_view outcome, std::string_view error_text = {});

  // ---- The clock -------------------------------------------------------------
  // Fires every timer due up to now + ms, each at its own time, and ends at
  // now + ms. OutOfRange for ms outside kAdvanceMsField or past kMaxTimeMs.
  Status Advance(int64_t ms);
  Status Advance(double ms);  // JavaScript numbers: refused unless an integer in range
  // Jumps to the earliest pending timer and fires everything due then; the new
  // time, or nullopt (nothing changes) when no timer is pending.
  std::optional<int64_t> AdvanceToNext();

  // ---- The operator ----------------------------------------------------------
  // Moves the quarantined job `id` back to the ready tail with attempts reset to 0
  // and the reason cleared. False (and nothing changes) if `id` is not in quarantine.
  bool Replay(std::string_view id);
  // BullMQ's job.retry() without resetAttemptsMade (system bullmq only): moves the
  // quarantined job `id` back to the ready tail with its attempts kept, so a job at
  // its budget runs once more and, failing, is quarantined again at once (exhausted);
  // succeeding, it completes. InvalidArgument under any other system, where a replay
  // always resets; false (and nothing changes) if `id` is not in quarantine.
  // OutOfRange once a job has kMaxKeptAttempts attempts (its count would not fit).
  // QueueView::CanReplayKeepingAttempts() says whether it is accepted here.
  Result<bool> ReplayKeepingAttempts(std::string_view id);

  // An operator's fix before a replay: gives the quarantined job `id` the payload
  // `payload`; it stays in quarantine (a Replay(id) then runs the fixed job) and
  // its entry keeps its id, attempts, reason and error. Refused by name, nothing
  // changed: NotFound for an unknown id, FailedPrecondition when the job is not in
  // quarantine, and TooLarge past kMaxPayloadBytes. Counts as an action, records a
  // patched event (the sizes before and after) and a set-payload journal write.
  // Earlier events keep the payload size they had (QueueView::EventAt).
  Status Patch(std::string_view id, std::string_view payload);

  // An operator's explicit decision to let a key's jobs run past its holders in
  // quarantine (or whose evidence expired): those holders stop holding the key.
  // Returns how many holders it released (0: nothing changes); each is an event.
  // Holders in flight or delayed keep holding. TooLarge past kMaxKeyBytes.
  Result<uint64_t> ReleaseKey(std::string_view key);

  // Replays the `max` oldest quarantine entries `only` takes (by arrival; the
  // defaults take every entry), each exactly like Replay(id); the others stay
  // where they are. Returns how many moved. OutOfRange unless max is in
  // kRedriveMaxField. QueueView::RedriveCount says how many it would move at most.
  Result<uint64_t> Redrive(int64_t max, const RedriveFilter& only = {});
  Result<uint64_t> Redrive(double max);  // JavaScript numbers: refused unless an integer in range

  // ---- Durability -------------------------------------------------------------
  // Every state change is a fixed sequence of durable writes (durable.h): a move
  // writes its destination first and removes the job from its source second,
  // except a move into quarantine under policy.unsafe_quarantine_order (the
  // other way round: a teaching switch). The journal keeps the writes since the
  // last snapshot (or since creation, whose first write is "create").

  // The whole state as a canonical text (equal states, equal texts), with a
  // checksum; docs/snapshot-format.md describes it. Starts a new journal, which
  // follows this snapshot. TooLarge past kMaxSnapshotBytes; nothing changes then.
  // QueueView::SnapshotText() gives the same text without starting a new journal.
  Result<std::string> Snapshot();

  // A queue equal to this one in every observable, its journal included (a
  // checkpoint for time travel: core/session/session.h). TooLarge past the heap budget
  // or kMaxSnapshotBytes' worth of state; nothing changes then.
  Result<Queue> Clone() const;

  // A queue equal to the snapshot's in every observable, with an empty journal
  // that follows the snapshot. Refusals (nothing is created): InvalidSnapshot for
  // anything not a whole, unaltered, consistent snapshot; UnsupportedVersion for
  // a newer format (checked before the checksum); TooLarge past kMaxSnapshotBytes.
  static Result<Queue> Restore(std::string_view snapshot);

  // The state after `snapshot` (nullopt: after creation, the journal's first
  // write) and the first options.crash_after writes of `journal` (records as
  // Journal() gives them, in order). A job found both in quarantine and in
  // another place is kept once, in quarantine; found in two other places, where
  // its newer write put it; found in none, it is lost (its id stays used).
  // Each is listed, and the recovered queue's timeline says so. In-flight
  // leases stay leases and still expire on the clock.
  // Refusals: the snapshot's, InvalidArgument naming journal[i] for a record that
  // is not this lab's, is damaged, or does not follow the snapshot or the record
  // before it; OutOfRange for crash_after outside 0..journal length (at least 1
  // after creation: write 1 creates the queue); TooLarge past kMaxJournalRecords
  // records or kMaxJournalBytes of them together.
  static Result<Recovery> Recover(std::optional<std::string_view> snapshot,
                                  const std::vector<std::string_view>& journal, const RecoverOptions& options = {});

  // What a crash after each write of `journal` would leave, in one pass over it
  // (Recover's arguments and refusals, without crash_after): ranks[k - 1] for a
  // crash after write k is 3 when recovery would find a job in no place (lost),
  // 2 when it would find one in quarantine and another place, 1 in two other
  // places, else 0; equal, write for write, to what Recover(…, {k}) lists. Write
  // 1 of a journal since creation creates the queue (rank 0). A torn next write
  // changes no rank: recovery discards it.
  static Result<std::vector<uint8_t>> CrashRanks(std::optional<std::string_view> snapshot,
                                                 const std::vector<std::string_view>& journal);

  // ---- Reads -----------------------------------------------------------------
  const Policy& policy() const;
  // How many jobs each place holds, the clock and the counters (now, step, …).
  QueueStats stats() const;
  // Everything else a caller reads (the places' copies, the timeline, the
  // journal, the alarm): a view that stays valid while this queue lives.
  QueueView view() const;

 private:
  friend class QueueCore;
  explicit Queue(std::unique_ptr<QueueCore> core);
  std::unique_ptr<QueueCore> core_;
};

// A queue's reads, each a copy (QueueView is cheap to copy: one pointer).
// Valid while its queue lives, moves included.
class QueueView {
 public:
  explicit QueueView(const QueueCore& core) : core_(&core) {}

  // Copies, in order: ready head first; completed and quarantine in arrival order.
  // `from` and `count` select a slice (a viewer showing the first 100 of 1,000,000
  // copies 100); out-of-range values give a shorter or empty slice.
  std::vector<JobView> Ready(size_t from = 0, size_t count = SIZE_MAX) const;
  std::vector<JobView> Completed(size_t from = 0, size_t count = SIZE_MAX) const;
  std::vector<QuarantineEntry> Quarantined(size_t from = 0, size_t count = SIZE_MAX) const;
  // In firing order: earliest due (or expiry) first, ties in the order set.
  std::vector<DelayedView> Delayed(size_t from = 0, size_t count = SIZE_MAX) const;
  std::vector<LeaseView> Leased(size_t from = 0, size_t count = SIZE_MAX) const;
  // Jobs discarded (dead-lettered with no dead-letter exchange), in enqueue order.
  std::vector<DiscardedView> Discarded(size_t from = 0, size_t count = SIZE_MAX) const;
  // Job `id` wherever it is, in O(1) (no pass over a view); nullopt for an id
  // this queue was never given.
  std::optional<JobLocation> Locate(std::string_view id) const;

  // True when Lease() would take a job now (something ready may run under the ordering).
  bool CanLease() const;
  // The time of the earliest pending timer (a due time, a lease expiry, a
  // retention end), or nullopt: where AdvanceToNext() would go.
  std::optional<int64_t> NextTimerAt() const;

  AlarmView alarm() const;
  std::vector<ReorderView> Reorders(size_t from = 0, size_t count = SIZE_MAX) const;
  // True once an operator has patched job `id` (the world's malformed behaviour reads it).
  bool WasPatched(std::string_view id) const;
  // Whether Queue::ReplayKeepingAttempts is accepted here (system bullmq): what a page offers.
  bool CanReplayKeepingAttempts() const;
  // How many quarantine entries `only` takes now (what a redrive of any max moves at most).
  size_t RedriveCount(const RedriveFilter& only) const;

  // The timeline. Events are numbered 1..event_count(); Timeline(from, count)
  // copies up to `count` events starting at index `from` (0-based), so a viewer
  // can fetch only what is new.
  size_t event_count() const;
  Event EventAt(size_t index) const;  // precondition: index < event_count()
  std::vector<Event> Timeline(size_t from = 0, size_t count = SIZE_MAX) const;
  // Every event rendered with RenderEvent(), one per line, each ending in "\n".
  std::string TimelineText() const;

  // Queue::Snapshot()'s text without starting a new journal.
  Result<std::string> SnapshotText() const;
  // The durable writes since the last snapshot (or since creation), in order.
  // FailedPrecondition when the policy keeps no journal (policy.journal false).
  Result<std::vector<JournalEntry>> Journal() const;
  size_t journal_size() const;

 private:
  const QueueCore* core_;
};

// What Queue::Recover() gives.
struct Recovery {
  Queue queue;
  std::vector<std::string> lost;        // ids found in no place, in enqueue order
  std::vector<std::string> duplicated;  // ids found in two places, kept once, in enqueue order
  uint64_t applied = 0;                 // journal writes applied
  bool torn_discarded = false;          // a torn last write was detected and discarded
};

}  // namespace dlq
