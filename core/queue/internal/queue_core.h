// Internal to the core: callers use queue.h.
//
// QueueCore: the queue's rules, behind Queue (the facade, queue.h) and QueueView
// (its reads). queue.h's contract is this class's: Queue forwards every call here
// unchanged, so a queue's behaviour, snapshots and timelines are these methods'.
// Its state is in parts: the jobs (JobStore), the places a job is in (ReadyPlace,
// DelayedPlace, LeasedPlace, QuarantinePlace, FinishedPlaces), KeyOrder, the
// systems' records, the journal and the heap account. The parts keep their
// containers and answer about themselves; moving a job between places (what
// Decide says, the system module's hooks, the events and journal writes) is here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backoff.h"
#include "call_checks.h"
#include "delayed_place.h"
#include "durable.h"
#include "event.h"
#include "event_log.h"
#include "finished_places.h"
#include "heap_account.h"
#include "heap_budget.h"
#include "job_store.h"
#include "key_order.h"
#include "leased_place.h"
#include "policy.h"
#include "prng.h"
#include "quarantine_place.h"
#include "queue.h"
#include "queue_cost.h"
#include "ready_place.h"
#include "registry.h"
#include "rules.h"
#include "system_records.h"
#include "size_limits.h"
#include "status.h"
#include "timers.h"
#include "write_journal.h"

namespace dlq {

class QueueCore {
 public:
  // The first field Policy::Check() refuses, named; else a queue at time 0.
  static Result<QueueCore> Create(const Policy& policy);

  QueueCore(QueueCore&&) noexcept = default;
  QueueCore& operator=(QueueCore&&) noexcept = default;
  QueueCore(const QueueCore&) = delete;  // a queue is an identity; Clone() copies one
  QueueCore& operator=(const QueueCore&) = delete;

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

  // Moves the quarantined job `id` back to the ready tail with attempts reset to 0
  // and the reason cleared. False (and nothing changes) if `id` is not in quarantine.
  bool Replay(std::string_view id);
  // BullMQ's job.retry() without resetAttemptsMade (system bullmq only): moves the
  // quarantined job `id` back to the ready tail with its attempts kept, so a job at
  // its budget runs once more and, failing, is quarantined again at once (exhausted);
  // succeeding, it completes. InvalidArgument under any other system, where a replay
  // always resets; false (and nothing changes) if `id` is not in quarantine.
  // OutOfRange once a job has kMaxKeptAttempts attempts (its count would not fit).
  Result<bool> ReplayKeepingAttempts(std::string_view id);
  // Whether ReplayKeepingAttempts is accepted here (system bullmq): what a page offers.
  bool CanReplayKeepingAttempts() const { return system().CanReplayKeepingAttempts(); }

  // An operator's fix before a replay: gives the quarantined job `id` the payload
  // `payload`; it stays in quarantine (a Replay(id) then runs the fixed job) and
  // its entry keeps its id, attempts, reason and error. Refused by name, nothing
  // changed: NotFound for an unknown id, FailedPrecondition when the job is not in
  // quarantine, and TooLarge past kMaxPayloadBytes. Counts as an action, records a
  // patched event (the sizes before and after) and a set-payload journal write.
  // Earlier events keep the payload size they had (EventAt).
  Status Patch(std::string_view id, std::string_view payload);
  // True once an operator has patched job `id` (the world's malformed behaviour reads it).
  bool WasPatched(std::string_view id) const;

  // Takes the ready head and counts its attempt now; the lease expires at
  // now + leaseMs unless settled first. leased == false when nothing is ready.
  Result<LeaseGrant> Lease();

  // Ends the lease `token` with the worker's outcome, decided like Process().
  // The outcome and error text are checked first, then the token: unknown,
  // already settled or expired is StaleLease, naming the job; nothing changes.
  Result<Attempt> Settle(std::string_view token, std::string_view outcome, std::string_view error_text = {});

  // Fires every timer due up to now + ms, each at its own time, and ends at
  // now + ms. OutOfRange for ms outside kAdvanceMsField or past kMaxTimeMs.
  Status Advance(int64_t ms);
  Status Advance(double ms);  // JavaScript numbers: refused unless an integer in range
  // Jumps to the earliest pending timer and fires everything due then; the new
  // time, or nullopt (nothing changes) when no timer is pending.
  std::optional<int64_t> AdvanceToNext();

  // An operator's explicit decision to let a key's jobs run past its holders in
  // quarantine (or whose evidence expired): those holders stop holding the key.
  // Returns how many holders it released (0: nothing changes); each is an event.
  // Holders in flight or delayed keep holding. TooLarge past kMaxKeyBytes.
  Result<uint64_t> ReleaseKey(std::string_view key);

  // Replays the `max` oldest quarantine entries (by arrival), each exactly like
  // Replay(id); returns how many moved. OutOfRange unless max is in kRedriveMaxField.
  Result<uint64_t> Redrive(int64_t max);
  Result<uint64_t> Redrive(double max);
  // The same over the entries `only` takes: the `max` oldest of that class and/or
  // reason, in arrival order; the others stay where they are.
  Result<uint64_t> Redrive(int64_t max, const RedriveFilter& only);
  // How many quarantine entries `only` takes now (what a redrive of any max moves at most).
  size_t RedriveCount(const RedriveFilter& only) const;

  AlarmView alarm() const;
  std::vector<ReorderView> Reorders(size_t from = 0, size_t count = SIZE_MAX) const;

  // The bounded path of this queue's policy (backoff.h).
  WorstCase worst_case() const { return WorstCasePath(policy_); }

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

  int64_t now() const { return now_; }
  // True when Lease() would take a job now (something ready may run under the ordering).
  bool CanLease() const { return NextEligible() >= 0; }
  // The time of the earliest pending timer (a due time, a lease expiry, a
  // retention end), or nullopt: where AdvanceToNext() would go.
  std::optional<int64_t> NextTimerAt() const;
  QueueStats stats() const;
  size_t ready_size() const { return ready_.size(); }
  size_t delayed_size() const { return delayed_.size(); }
  size_t leased_size() const { return leases_.size(); }
  size_t completed_size() const { return finished_.completed().size(); }
  size_t quarantine_size() const { return quarantine_.size(); }
  uint64_t step() const { return step_; }
  const Policy& policy() const { return policy_; }
  // The module of the policy's system: every rule that differs by system is asked of it.
  const SystemRules& system() const { return *in_force_.decide.system; }

  // ---- Durability -------------------------------------------------------------
  // Every state change is a fixed sequence of durable writes (durable.h): a move
  // writes its destination first and removes the job from its source second,
  // except a move into quarantine under policy.unsafe_quarantine_order (the
  // other way round: a teaching switch). The journal keeps the writes since the
  // last snapshot (or since creation, whose first write is "create").

  // The whole state as a canonical text (equal states, equal texts), with a
  // checksum; docs/snapshot-format.md describes it. Starts a new journal, which
  // follows this snapshot. TooLarge past kMaxSnapshotBytes; nothing changes then.
  Result<std::string> Snapshot();
  // The same text without starting a new journal.
  Result<std::string> SnapshotText() const;
  // The durable writes since the last snapshot (or since creation), in order.
  // FailedPrecondition when the policy keeps no journal (policy.journal false).
  Result<std::vector<JournalEntry>> Journal() const;
  size_t journal_size() const { return journal_.size(); }

  // Clone, Restore, Recover and CrashRanks: the contracts are Queue's (queue.h),
  // which forwards to these.
  Result<QueueCore> Clone() const;
  static Result<QueueCore> Restore(std::string_view snapshot);
  static Result<Recovery> Recover(std::optional<std::string_view> snapshot,
                                  const std::vector<std::string_view>& journal, const RecoverOptions& options = {});
  static Result<std::vector<uint8_t>> CrashRanks(std::optional<std::string_view> snapshot,
                                                 const std::vector<std::string_view>& journal);

  // The timeline. Events are numbered 1..event_count(); Timeline(from, count)
  // copies up to `count` events starting at index `from` (0-based), so a viewer
  // can fetch only what is new.
  size_t event_count() const { return events_.size(); }
  Event EventAt(size_t index) const;  // precondition: index < event_count()
  std::vector<Event> Timeline(size_t from = 0, size_t count = SIZE_MAX) const;
  // Every event rendered with RenderEvent(), one per line, each ending in "\n".
  std::string TimelineText() const;

 private:
  // Recover's and CrashRanks' start: the arguments' sizes, then the image the
  // journal's writes apply to (the snapshot's, or the created queue's) and the
  // check and index of the first write to apply.
  struct Base {
    durable::Image image;
    uint32_t prev = 0;
    size_t first = 0;
  };
  static Status CheckRecoveryInput(std::optional<std::string_view> snapshot,
                                   const std::vector<std::string_view>& journal);
  static Status StartRecovery(std::optional<std::string_view> snapshot, const std::vector<std::string_view>& journal,
                              Base* out);
  // Room on the heap budget for what a call may add (queue_cost.h), or
  // ResourceExhausted naming `call`.
  Status CheckRoom(const cost::Need& need, const char* call) const;
  // Charges the event log's growth since the last charge (EventLog::bytes()).
  void ChargeEvents();

  explicit QueueCore(const Policy& policy);
  // The durable image (durable.h) of this queue, and a queue from one where every
  // job is in exactly one place (InvalidSnapshot naming the first inconsistency).
  durable::Image ToImage() const;
  static Result<QueueCore> FromImage(durable::Image&& image);
  class Loader;  // FromImage, a part at a time (image_loader.cpp)
  friend class Loader;
  durable::JobRow RowOf(uint32_t job) const;
  durable::Meta MetaNow() const;
  uint64_t RetentionSeq(uint32_t job) const { return quarantine_.RetentionTimers() ? jobs_[job].timer : 0; }
  // When quarantined `job` reaches its retention (QuarantinePlace::RetentionEnd).
  int64_t RetentionEndOf(uint32_t job) const {
    return quarantine_.RetentionEnd(jobs_[job].arrived_at, records_.EnqueuedAt(job));
  }
  // Removes quarantined `job` for good at its retention (its evidence is gone).
  // `trimmed`: by the Dead set's size (sidekiq), not by age; its event says so.
  void DropEntry(uint32_t job, bool trimmed = false);
  // bullmq (after a failure), sidekiq (after a kill) and a rabbitmq DLQ with x-max-length trim the quarantine now.
  void TrimLazily();
  // The events and moves a lazy trim may add to a call (every entry, at most).
  size_t TrimBound() const { return quarantine_.Trims() ? quarantine_.size() : 0; }
  // `attempts` decided by the call may each drop one more entry, with an alarm change.
  cost::Need WithTrim(cost::Need need, size_t attempts = 1) const {
    if (!quarantine_.Trims()) return need;
    need.events += TrimBound() + 2 * attempts;
    need.moves += TrimBound() + attempts;
    return need;
  }
  // Journal writes. A source is where a move takes a job from.
  struct Source {
    durable::WriteOp op;   // kRemoveReady, kRemoveDelayed, kEndLease, kRemoveQuarantine
    int64_t position = 0;  // ready position, delayed timer, quarantine arrival
    uint32_t lease = 0;    // kEndLease
    LeaseState how = LeaseState::kSettled;
  };
  // Appends `w` (numbered, chained, with the counters now and what was recorded
  // since the last write) when the policy keeps a journal.
  void Emit(durable::Write&& w, uint32_t job);
  // The put for `job` where it is now, then the removal from `from` (the
  // reverse for a quarantine under unsafe_quarantine_order).
  void EmitMove(uint32_t job, const Source& from);
  void EmitMoveWrites(uint32_t job, const Source& from);
  void EmitCreate();
  void EmitClock();
  // Where a batch started (EnqueueMany), so a refused one undoes every job it
  // appended, their events, writes and charges, and its action.
  struct BatchMark {
    size_t jobs, events;
    HeapAccount::Mark charged;
    size_t journal;
    WriteJournal::Marks journal_marks;
  };
  BatchMark MarkBatch() const;
  void UndoBatch(const BatchMark& mark);
  // Adds the job at the ready tail with its event (unless !record: the caller
  // writes it) and journal write; false, and nothing changed, when the id is taken.
  bool Append(std::string_view id, std::string_view payload, std::string_view key, uint64_t hash, bool record = true);
  uint32_t InternError(std::string_view text);  // charges a new text to the budget
  // OutOfRange naming `call` when a counter is within kCounterRoom of 2^53 - 1.
  Status CheckCounters(const char* call) const;
  // Appends an event about `job` as it is now (its attempts, the policy, the time).
  EventRecord& Record(EventKind kind, uint32_t job);
  // Fills `*out`, given all zero, as Record would fill its record, without appending it.
  void Describe(EventKind kind, uint32_t job, EventRecord* out) const;
  // How far from the ready head the job a worker may take now is (per the
  // ordering), or -1 when none may run.
  int64_t NextEligible() const;
  // The job `job` waits for under key ordering, or -1 when it may run.
  int64_t HolderOf(uint32_t job) const {
    return in_force_.ordering == Ordering::kKey ? keys_.HolderOf(jobs_, job) : -1;
  }
  // Takes the job `pos` from the ready head and counts its attempt (a new step); returns it.
  uint32_t StartAttempt(size_t pos);
  // A job back in ready: at the tail, or at the head when stalled in place.
  // `returned`: straight back from an attempt (not from a delay).
  void ReturnToReady(uint32_t job, bool returned);
  void Quarantine(uint32_t job);
  // A dead letter with no dead-letter exchange: the job leaves for no place.
  void Discard(uint32_t job);
  void Discard(uint32_t job, DropCause cause);  // dropped by `cause` (an expiry's may differ)
  // rabbitmq-quorum's x-max-length with x-overflow drop-head (policy.max_length), applied
  // after a publish (Enqueue, EnqueueMany): while more than max_length jobs are ready, the
  // ready head (the oldest) is dead-lettered with reason kMaxLength, into quarantine with
  // its x-death record (or discarded with no dead-letter exchange), each with its event
  // and move. Its attempts stay as they were: it was never delivered. Returns, due
  // retries and replays are not limited (RabbitMQ's own check there is not modelled).
  void DropHeadOverLimit();
  // rabbitmq-quorum's x-message-ttl (policy.message_ttl_ms), as a quorum queue applies it:
  // at the head. While the ready head's TTL has run out (HeadExpiry() <= now), it is
  // dead-lettered with reason kExpired, as DropHeadOverLimit does. Called when time
  // reaches a head's expiry (AdvanceTo, as a timer that fires before the others due at
  // the same instant) and after every call that may bring an older job to the head (an
  // attempt taken, a return near the head), so no call ever finds an expired head.
  void ExpireHeads();
  // When the ready head's TTL runs out (from TtlFrom), or nullopt (no TTL, nothing ready).
  std::optional<int64_t> HeadExpiry() const;
  // Dead-letters the ready head for `reason` (kMaxLength, kExpired), undelivered: into
  // quarantine with its x-death record, or discarded with no dead-letter exchange; its
  // event and move.
  void DeadLetterHead(Reason reason);
  // The same for the job `pos` places from the ready head; an expired one is discarded by
  // the policy's ExpiryDrop, any other by its DeadLetterDrop.
  void DeadLetterReady(size_t pos, Reason reason);
  // True when the ready job at `pos` is past its TTL now.
  bool ExpiredAt(size_t pos) const;
  // NextEligible for a receive: under a system whose expiry acts in place (ExpiresInPlace:
  // service-bus) an expired job it would hand out is dead-lettered first, and the next taken.
  // `counted`: the caller's action has begun (++actions_); if not, an expiry begins one.
  int64_t NextReceivable(bool counted = false);
  // Under ExpiresInPlace: the job `job`, just returned to ready (an abandon, an expired lock),
  // is dead-lettered at once when past its TTL.
  void ExpireReturned(uint32_t job);
  // What DropHeadOverLimit may add after a publish of `published` jobs (each may drop one head).
  cost::Need WithOverflow(cost::Need need, size_t published) const {
    if (policy_.max_length == 0) return need;
    need.events += 2 * published;  // its quarantined (or discarded) event and an alarm change
    need.moves += published;
    return WithTrim(need, published);
  }
  // What ExpireHeads may add to a call: every job that may be ready in it, `added` of them new.
  cost::Need WithExpiry(cost::Need need, size_t added = 0) const {
    if (in_force_.message_ttl_ms == 0) return need;
    const size_t live = ready_.size() + delayed_.size() + leases_.size() + added;
    need.events += 2 * live;
    need.moves += live;
    return WithTrim(need, live);
  }
  // `routed`: the dead-letter queue's consumer sent it back (dlq_to_source), not an operator.
  // `slot`: its place (0-based) in an operator's redrive, which under a move task
  // (SystemRules::MoveRatePerSecond) says when it moves: slot x 1000 / rate ms from now.
  void ReplayChecked(uint32_t job, bool routed = false, bool keep_attempts = false, uint64_t slot = 0);
  // Under a move task at `rate` a second, how long after a redrive's start its entry `slot` moves.
  static int64_t MoveAfterMs(int64_t rate, uint64_t slot) {
    return static_cast<int64_t>((slot * 1000 + static_cast<uint64_t>(rate) - 1) / static_cast<uint64_t>(rate));
  }
  // What a redrive of n entries asks of the heap budget.
  cost::Need RedriveNeed(size_t n) const;
  // The index of quarantined job `id` that a replay may take now (the counters have room), else -1.
  int64_t ReplayableIndex(std::string_view id) const;
  // True when the quarantine entry `job` is one `only` takes (its class and/or reason).
  bool RedriveTakes(uint32_t job, const RedriveFilter& only) const;
  // Anti-pattern switches (policy.h), each in one place:
  // count_in_body: a lease that expired reported nothing, so the count the
  // message carries was never rewritten; its attempt is forgotten.
  void ForgetCountOnCrash(uint32_t job);
  // dlq_to_source: a job that just arrived in quarantine (its move written) goes
  // straight back to the source queue, as a replay.
  void RouteDeadLetterToSource(uint32_t job);
  // Raises or clears the depth alarm after the quarantine changed because of `job`.
  void CheckAlarm(uint32_t job);
  // Decides the counted attempt of `job` (rules.h) and moves it; `kind` is
  // kAttempt (a process or a settle) or kExpired.
  // `failure` is the class of a failure, nullopt for a success.
  Attempt Finish(uint32_t job, EventKind kind, Outcome outcome, std::optional<FailureClass> failure, uint32_t error,
                 uint32_t lease);
  // Finish without the report: what ProcessMany's loop and an expiry need.
  Decision Apply(uint32_t job, EventKind kind, Outcome outcome, std::optional<FailureClass> failure, uint32_t error,
                 uint32_t lease);
  // Where a delay decided as `*d` lives, as its events' ref says (1 its worker, 2 the
  // retry queue, 3 its worker until the lease's expiry, to which it cuts d->delay_ms).
  uint32_t DelayRef(Decision* d, uint32_t lease) const;
  // Apply's moves: `job` completed (a reorder when it overtook its key), or parked in delayed.
  void Complete(uint32_t job);
  void Park(uint32_t job, int64_t delay_ms, int64_t due_at, uint32_t delay_ref);
  // What a caller is told of `job`'s attempt, decided as `d`.
  Attempt Report(uint32_t job, Outcome outcome, const Decision& d) const;
  // Processes the job `pos` from the ready head (NextEligible's answer) with an interned error text.
  Decision ProcessAt(size_t pos, Outcome outcome, uint32_t error);
  Attempt ProcessChecked(Outcome outcome, std::string_view error_text);
  // The three kinds of timer, each in its place's set.
  enum class TimerKind : uint8_t {
    kDue,          // a delayed job's due time: back to ready
    kLeaseExpiry,  // a lease ends unsettled: its attempt is decided as a crash
    kRetention,    // a quarantine entry's retention ends: its evidence is dropped
  };
  // The earliest pending timer and its kind, or nullptr (timers never tie: one
  // seq counter numbers all three kinds).
  const Timer* NextTimer(TimerKind* kind) const;
  void FireEarliest(TimerKind kind);
  // Fires every timer due at or before `target`, then sets the clock to `target`.
  void AdvanceTo(int64_t target);
  // Copies of jobs_[indexes[k]] for k in the slice [from, from + count).
  template <typename Indexes>
  std::vector<JobView> JobViews(const Indexes& indexes, size_t from, size_t count) const;

  Policy policy_;
  // The system's answers the attempt path asks, resolved once from policy_ (a queue's
  // policy never changes; an edit makes a new queue): asking the registry and a
  // virtual hook per question per attempt cost lesson 1 ~15% of its instructions.
  struct InForce {
    explicit InForce(const Policy& p);
    DecideRules decide;                       // Decide's (rules.h); decide.system is SystemOf(policy_)
    Ordering ordering;                        // Policy::OrderingInForce()
    ReturnPlace return_to;                    // SystemRules::ReturnTo(policy_)
    int64_t message_ttl_ms;                   // Policy::MessageTtlMs()
    bool expires_in_place;                    // Policy::ExpiresInPlace()
    DropCause dead_letter_drop, expiry_drop;  // Policy::DeadLetterDrop(), ExpiryDrop()
  };
  InForce in_force_;
  Prng jitter_;  // the jitter stream (prng.h): its own, so other draws never shift it
  // The clock and counters.
  uint64_t step_ = 0;
  uint64_t actions_ = 0;
  int64_t now_ = 0;
  uint64_t timer_seq_ = 0;  // one sequence for every timer: ties fire in the order set
  // The parts: the jobs, each place, per-key ordering and the systems' records.
  JobStore jobs_;
  ReadyPlace ready_;
  DelayedPlace delayed_;
  LeasedPlace leases_;
  QuarantinePlace quarantine_;  // with its retention, trims, alarm and counters
  FinishedPlaces finished_;     // completed, discarded, lost
  KeyOrder keys_;               // per key, its pending jobs; the reorders
  SystemRecords records_;       // the systems' per-job records (x-death, first enqueue, TTL start)
  // Per patch, in event order: its job, its event's index and the payload size before
  // it, so an earlier enqueued or replayed event still says the size it had then.
  struct PatchMark {
    uint32_t job;
    size_t event;
    uint64_t old_bytes;
  };
  std::vector<PatchMark> patches_;
  bool trim_due_ = false;  // a lazy trim waits for the move into quarantine to be written (EmitMove)
  // The journal since the last snapshot: records, each one's check, the check
  // the first follows, and how much of the timeline, error texts and reorders
  // the records already carry.
  WriteJournal journal_;
  uint32_t budget_in_force_ = 0;  // while Finish() writes: the class's budget, for every event it writes
  EventLog events_;
  HeapAccount charge_;  // what this queue keeps, on the heap budget (queue_cost.h)
};

}  // namespace dlq
