// The storm: up to a million jobs through a dependency outage, under the queue's
// own policy, as counters and time-bucketed series. Not a Queue (no ids, no
// payloads, no timeline): a lean event loop over integer milliseconds with the
// same rules, so a million jobs run in well under a second natively.
//
// The model (docs/storm.md states it with the reasons):
//  * Jobs 0..N-1 arrive in order: all at 0 ms (burst), or job i at
//    floor(i * 1000 / perSecond) ms (rate: open loop, deaf to answers), or
//    closed loop: C clients send one job each at 0 ms and the next one the
//    moment their previous job completes, is quarantined or fails. An arrival
//    joins the ready tail.
//  * W workers. A free worker takes the ready head and counts its attempt at
//    once (attempts counted first); the attempt's work finishes workMs later,
//    when it is decided. leaseMs must exceed workMs: a storm has no crashes, so
//    no lease ever expires; it still sets the bounded path (worst case).
//  * An attempt whose work finishes inside the outage [startMs, startMs +
//    durationMs) fails transiently ("outage"). Otherwise, with a capacity, at
//    most perWindow attempts finishing in one fixed window [k * windowMs,
//    (k + 1) * windowMs) succeed; the rest of that window's fail transiently
//    ("throttled"). Otherwise the attempt succeeds.
//  * A failure rate p fails each attempt that is not in the outage with
//    probability p ("failed"), drawn from the storm's failure stream (prng.h)
//    in the order attempts are decided; such a failure uses no capacity.
//  * With a server (server.h), an attempt is first taken up by the server's
//    queue (at most C a second); its work finishes workMs after that. A client
//    that has no answer timeoutMs after it sent the attempt gives up: the
//    attempt is decided then, failed ("timedOut"), and the server still does
//    the abandoned work. Attempts are still decided in the order they started.
//  * With a retry budget (core/budget/retry_budget.h), every decided attempt is
//    reported to it, and each retry the policy would make must be allowed by it
//    first; a refused retry quarantines the job (reason "budget") or fails it
//    (the error goes back to the caller; nothing is kept), as refusedRetry says.
//  * Decide() (rules.h) applies the policy to every decided attempt, drawing its
//    jitter from the policy's jitter stream (prng.h), in the order the attempts
//    are decided: completed; retried at the ready tail at once (delay 0) or
//    after the backoff's delay, when it joins the ready tail; quarantined when
//    its budget is used up.
//  * At one instant, in this order: delayed jobs whose time came join the ready
//    tail (in the order their delays were set), then the instant's arrivals,
//    then the attempts finishing now are decided (in the order they started),
//    then free workers take ready jobs. This is the world player's order
//    (player.h) with a queue, which the equivalence test checks bucket for bucket.
//
// Series: per bucket of bucketMs, the attempts decided in it split by result
// (success, outage, throttled; and, for the summary, retries: attempts numbered
// 2 or more), and the depths (ready, delayed, in flight, quarantine) sampled at
// the bucket's end: the state after everything that happened before it.
// Deterministic: the same options give the same result, byte for byte, natively
// and in WebAssembly.
#pragma once

#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include <memory>

#include "backoff.h"
#include "heap_budget.h"
#include "policy.h"
#include "prng.h"
#include "retry_budget.h"
#include "rules.h"
#include "server.h"
#include "status.h"

namespace dlq {

enum class ArrivalKind : uint8_t { kBurst, kRate, kClosed };

// "burst" | "rate" | "closed" and back (exact).
const char* ArrivalKindName(ArrivalKind kind);
Result<ArrivalKind> ParseArrivalKind(std::string_view text);

struct StormArrival {
  ArrivalKind kind = ArrivalKind::kBurst;
  int64_t per_second = 1000;  // kRate only
  int64_t clients = 100;      // kClosed only
};

// What a retry the budget refuses does to its job.
enum class RefusedRetry : uint8_t { kQuarantine, kFail };
const char* RefusedRetryName(RefusedRetry refused);  // "quarantine" | "fail"

// The dependency is down in [start_ms, start_ms + duration_ms).
struct StormOutage {
  int64_t start_ms = 0;
  int64_t duration_ms = 0;
};

// At most per_window successful attempts per fixed window of window_ms (0: unlimited).
struct StormCapacity {
  int64_t per_window = 0;
  int64_t window_ms = 1000;
};

struct StormOptions {
  int64_t jobs = 1000;
  StormArrival arrival;
  std::optional<StormOutage> outage;
  std::optional<StormCapacity> capacity;
  // Each attempt outside the outage fails with probability failure_per_million / 10^6.
  int64_t failure_per_million = 0;
  std::optional<BudgetOptions> budget;  // none: every retry the policy makes is made
  RefusedRetry refused_retry = RefusedRetry::kQuarantine;
  std::optional<StormServer> server;  // none: an attempt's work starts when it is sent
  int64_t workers = 1000;
  int64_t work_ms = 10;
  // The policy, as a queue's (Policy::Check names its fields).
  int64_t lease_ms = 30'000;
  int64_t max_attempts = 3;
  Backoff backoff;
  int64_t seed = 1;
  // The series' bucket width; 0 chooses it after the run: the smallest of 10, 20,
  // 50, 100, 200, 500, 1000, 2000, 5000, 10000, … ms that keeps the series at
  // most kStormAutoBuckets long. A width given here is kept unless the series
  // would pass kMaxStormBuckets; then it doubles until it fits (series.bucket_ms
  // says which).
  int64_t bucket_ms = 0;
};

constexpr IntegerField kStormJobsField{"jobs", 10, 1'000'000};
constexpr IntegerField kStormPerSecondField{"arrival.perSecond", 1, 10'000'000};
constexpr IntegerField kStormOutageStartField{"outage.startMs", 0, kMaxDelayMs};
constexpr IntegerField kStormOutageDurationField{"outage.durationMs", 0, kMaxDelayMs};
constexpr IntegerField kStormPerWindowField{"capacity.perWindow", 0, 1'000'000'000};  // 0: unlimited
constexpr IntegerField kStormWindowMsField{"capacity.windowMs", 1, kMaxDelayMs};
constexpr IntegerField kStormClientsField{"arrival.clients", 1, 100'000};
constexpr IntegerField kStormFailureField{"failurePerMillion", 0, 1'000'000};
constexpr IntegerField kStormServerRateField{"server.capacityPerSecond", 1, 10'000'000};
constexpr IntegerField kStormServerTimeoutField{"server.timeoutMs", 1, kMaxDelayMs};
constexpr IntegerField kStormServerDropStartField{"server.dropStartMs", 0, kMaxDelayMs};
constexpr IntegerField kStormServerDropField{"server.dropMs", 0, kMaxDelayMs};
constexpr IntegerField kStormServerDropRateField{"server.dropPerSecond", 0, 10'000'000};
constexpr IntegerField kStormWorkersField{"workers", 1, 100'000};
constexpr IntegerField kStormWorkMsField{"workMs", 1, kMaxDelayMs};      // and below leaseMs
constexpr IntegerField kStormBucketMsField{"bucketMs", 0, kMaxDelayMs};  // 0: chosen after the run
// A storm's own integer fields (the policy's are the queue's: maxAttempts, backoff.*, leaseMs, seed).
constexpr const IntegerField* kStormIntegerFields[] = {
    &kStormJobsField,          &kStormPerSecondField,       &kStormOutageStartField, &kStormOutageDurationField,
    &kStormPerWindowField,     &kStormWindowMsField,        &kStormWorkersField,     &kStormWorkMsField,
    &kStormBucketMsField,      &kStormClientsField,         &kStormFailureField,     &kStormServerRateField,
    &kStormServerTimeoutField, &kStormServerDropStartField, &kStormServerDropField,  &kStormServerDropRateField,
    &kBudgetMaxTokensField,    &kBudgetTokenRatioField,     &kBudgetPercentField,    &kBudgetMinPerSecondField,
    &kBudgetWindowMsField};
// A storm's options (field.h), in the order the bindings read them; `backoff`
// is a backoff object (BackoffFields), and `outage`, `capacity`, `budget` and
// `server` may be null.
std::span<const Field<StormOptions>> StormFields();
constexpr size_t kStormAutoBuckets = 2000;
constexpr size_t kMaxStormBuckets = 100'000;

// The first option out of range, named as JS spells it ("jobs", "outage.durationMs",
// "backoff.capMs", "leaseMs" when it is not above workMs, …); or OK.
Status CheckStormOptions(const StormOptions& options);

// The policy a queue would run the storm with (its default class table; only
// the transient class ever fails in a storm).
Policy StormPolicy(const StormOptions& options);

struct StormSummary {
  uint64_t jobs = 0;
  uint64_t attempts = 0;  // decided attempts: successes + failures
  uint64_t successes = 0;
  uint64_t failures = 0;  // outage_failures + throttled + random_failures + timed_out
  uint64_t outage_failures = 0;
  uint64_t throttled = 0;
  uint64_t random_failures = 0;  // failed by the failure rate
  uint64_t timed_out = 0;        // given up on by their client (the server still did the work)
  uint64_t wasted_attempts = 0;  // failed attempts: the work the outage and the limit threw away
  uint64_t retries_denied = 0;   // retries the budget refused
  // Useful completions a second: completed * 1000 / drain_ms (0 when drain_ms is 0).
  double goodput = 0;
  double amplification = 0;  // attempts per job: attempts / jobs
  // Most attempts per second in one bucket, counting only retries (attempts
  // numbered 2 or more): retries in the bucket * 1000 / bucket_ms.
  double peak_retry_rate = 0;
  // Most attempts per second in one bucket that starts at or after the outage's
  // end (every bucket when there is no outage).
  double peak_rate_after_recovery = 0;
  int64_t drain_ms = 0;  // when the last job completed, was quarantined or failed (so far, before the end)
  uint64_t completed = 0;
  uint64_t quarantined = 0;            // for any reason: exhausted or refused by the budget
  uint64_t quarantined_by_budget = 0;  // of those, refused a retry by the budget
  uint64_t failed_jobs = 0;            // refused a retry and failed (refusedRetry "fail")
  WorstCase worst_case;                // the policy's bounded path (backoff.h), as the queue's worst_case()
};

// Contiguous uint32 arrays, one value per bucket, all `length()` long. A count
// past 2^32 - 1 stays at 2^32 - 1.
struct StormSeries {
  int64_t bucket_ms = 0;
  std::vector<uint32_t> success, outage, throttled;             // attempts decided in the bucket, by result
  std::vector<uint32_t> retries;                                // of those, attempts numbered 2 or more
  std::vector<uint32_t> failed, timed_out;                      // by result: the failure rate, the client's timeout
  std::vector<uint32_t> completed, denied;                      // jobs completed; retries the budget refused
  std::vector<uint32_t> ready, delayed, in_flight, quarantine;  // depths at the bucket's end
  std::vector<uint32_t> server_queue;                           // attempts waiting for the server at the bucket's end
  size_t length() const { return success.size(); }
  // The series a page draws, by their number in kStormSeriesNames.
  const std::vector<uint32_t>& Drawn(size_t which) const;
};

// The drawn series' names, as JS spells them, in the order StormSeries::Drawn numbers them.
constexpr const char* kStormSeriesNames[] = {"success",  "outage",    "throttled",  "ready",
                                             "delayed",  "inFlight",  "quarantine", "failed",
                                             "timedOut", "completed", "denied",     "serverQueue"};
constexpr size_t kStormSeriesCount = std::size(kStormSeriesNames);

struct StormResult {
  bool finished = false;
  StormSummary summary;
  StormSeries series;
};

class Storm {
 public:
  // The first option CheckStormOptions() refuses, named; ResourceExhausted when
  // the heap budget has no room for N jobs' state; else a storm at 0 ms.
  static dlq::Result<Storm> Create(const StormOptions& options);

  Storm(Storm&&) noexcept = default;
  Storm& operator=(Storm&&) noexcept = default;
  Storm(const Storm&) = delete;
  Storm& operator=(const Storm&) = delete;

  // Advances at most `max_events` events, where an event is one job moving: an
  // arrival, a delay's end, an attempt's start or its decision. Returns true
  // when the storm is over (every job completed, quarantined or failed); then it does
  // nothing more. Run(0) only reports.
  bool Run(uint64_t max_events);
  bool finished() const { return phase_ == Phase::kDone; }
  // Jobs completed, quarantined or failed, over N (0 to 1).
  double Progress() const;
  // What happened so far: when finished, the result; before, the counters now and
  // the series up to the bucket in progress (its depths sampled now).
  const StormResult& Result();
  const StormOptions& options() const { return options_; }
  uint64_t events() const { return events_; }                   // events so far
  uint64_t attempts() const { return successes_ + failures_; }  // decided so far

 private:
  enum class Phase : uint8_t { kDue, kArrive, kSettle, kLease, kNext, kDone };
  // A job is anonymous: all a storm keeps of it is this record, moved by value
  // from place to place (the ready ring, the in-flight ring, a timer slot), so
  // each place is written and read in order and a million jobs stay cache-friendly.
  struct Job {
    uint32_t attempts;    // below 2^20 (maxAttempts <= 10^6); in level 1 the top 12 bits hold the due offset
    uint32_t last_delay;  // the previous delay (decorrelated jitter reads it); at most a day
  };
  static constexpr uint32_t kNone = UINT32_MAX;
  // The timer wheel: level 0 has one slot per ms of the current block of
  // 2^kBlockBits ms; level 1 one slot per block, a ring long enough for the
  // longest delay. Each slot is a FIFO of chunks, so equal due times fire in the
  // order they were set; a block's level-1 slot moves to level 0, in order, when
  // the clock enters the block, before anything is set in it.
  static constexpr int kBlockBits = 12;
  static constexpr uint32_t kBlockSlots = 1u << kBlockBits;
  static constexpr int kAttemptBits = 20;
  // A job's attempts (at most maxAttempts) leave the top bits free for its due offset in level 1.
  static_assert(kMaxAttemptsField.max < (int64_t{1} << kAttemptBits) && kAttemptBits + kBlockBits == 32);
  static constexpr uint32_t kChunkJobs = 15;
  struct Chunk {  // 128 bytes
    Job jobs[kChunkJobs];
    uint32_t next;   // the slot's next chunk, or the free list's
    uint32_t count;  // jobs written
  };
  struct Slot {
    uint32_t head = kNone, tail = kNone;  // chunks
  };

  explicit Storm(const StormOptions& options);
  // Level-1 slots for the policy's longest delay (a power of two).
  static size_t Level1Slots(const StormOptions& options);
  int64_t ArrivalTime(uint64_t job) const;
  void PushReady(Job job) {
    size_t tail = ready_head_ + ready_size_;
    if (tail >= ready_.size()) tail -= ready_.size();
    ready_[tail] = job;
    ++ready_size_;
  }
  // Appends `job` to a slot's FIFO; a full tail chunk gets a new one from the pool.
  void Append(std::vector<Slot>& level, std::vector<uint64_t>& bits, size_t slot, Job job);
  void SetTimer(Job job, int64_t due);
  // The earliest time something may happen, or -1: a due time, a block holding
  // timers, an attempt's finish, an arrival.
  int64_t NextTime() const;
  void MoveClock(int64_t time);
  // Decides the attempt finishing now (timed out: its client gave up on it).
  void Settle(Job job, bool timed_out);
  // The job is over (completed, quarantined or failed): a closed-loop client sends its next.
  void EndJob();
  // The series at a base grid of cell_ms_: grows it to hold `time`, merging
  // cells when it would pass its bound.
  uint32_t CellOf(int64_t time);
  void Coarsen();
  void SampleDepths(size_t cell);
  void Finalize(int64_t end, StormResult* out) const;
  // Run's phases at one instant. Each spends one unit of *budget per event and
  // returns false when the budget ran out first (the phase resumes where it stopped).
  bool MoveDue(uint64_t* budget);
  bool Arrive(uint64_t* budget);
  bool SettleFinished(uint64_t* budget);
  bool LeaseReady(uint64_t* budget);
  void StartAttempt(Job job);
  // Finalize's parts: the bucket width for a run ending at `end`, and the series and
  // peak rates at that width.
  int64_t BucketWidth(int64_t end) const;
  void FillSeries(int64_t end, int64_t width, StormResult* out) const;

  StormOptions options_;
  Policy policy_;
  // What Decide asks of policy_'s system, resolved once (rules.h): asked per attempt, the
  // storm paid for every class's rule on each of its millions of decisions.
  DecideRules decide_;
  Prng jitter_;
  Prng failure_;  // the failure rate's draws
  std::unique_ptr<RetryBudget> budget_;
  std::optional<ServerQueue> server_;
  int64_t outage_start_ = 0, outage_end_ = 0;
  size_t jobs_ = 0;
  // The ready FIFO: a ring of N records.
  std::vector<Job> ready_;
  size_t ready_head_ = 0, ready_size_ = 0;
  // Attempts in flight, in start order (so in finish order: workMs is the same for all).
  struct Flight {
    Job job;
    int64_t finish;  // when it is decided: its answer, or its client's timeout
    bool timed_out;
  };
  std::vector<Flight> flight_;
  size_t flight_head_ = 0, flight_size_ = 0;
  // The timer wheel and its chunk pool (sized for every job at once, so no event allocates).
  std::vector<Slot> level0_, level1_;
  std::vector<uint64_t> level0_bits_, level1_bits_;
  uint32_t level1_mask_ = 0;
  std::vector<Chunk> chunks_;
  uint32_t free_chunk_ = kNone;
  uint32_t due_read_ = 0;  // jobs already moved out of the head chunk of now's slot
  uint64_t delayed_ = 0;
  // The clock and where the instant's work stands.
  int64_t now_ = 0;
  Phase phase_ = Phase::kDue;
  uint64_t arrived_ = 0;
  int64_t window_ = -1;
  int64_t window_successes_ = 0;
  // Counters.
  uint64_t completed_ = 0, quarantined_ = 0, quarantined_by_budget_ = 0, failed_jobs_ = 0;
  uint64_t successes_ = 0, failures_ = 0, outage_failures_ = 0, throttled_ = 0, random_failures_ = 0, timed_out_ = 0;
  uint64_t retries_denied_ = 0;
  int64_t drain_ms_ = 0;
  // The series at the base grid: cell c covers [c * cell_ms_, (c + 1) * cell_ms_).
  int64_t cell_ms_ = 10;
  bool auto_width_ = true;
  size_t max_cells_ = 0;
  // Counts per cell, numbered by CellCount; depths at each cell's end, by CellDepth.
  enum CellCount : int {
    kSuccess,
    kOutage,
    kThrottled,
    kRetries,
    kFailed,
    kTimedOut,
    kCompleted,
    kDenied,
    kCountSeries
  };
  enum CellDepth : int { kReady, kDelayed, kInFlight, kQuarantine, kServerQueue, kDepthSeries };
  static constexpr size_t kCellSeries = size_t{kCountSeries} + size_t{kDepthSeries};
  std::vector<uint32_t> cell_counts_[kCountSeries];
  std::vector<uint32_t> cell_depths_[kDepthSeries];
  size_t sampled_ = 0;  // cells whose depths are sampled
  StormResult result_;  // final once finished
  uint64_t events_ = 0;
  HeapCharge charge_;
};

// Create() and Run() to the end.
Result<StormResult> RunStorm(const StormOptions& options);

// Storms run one after another with their series on one grid, so their series
// and peak rates compare bucket for bucket: the first keeps its own bucketMs
// (0: chosen after its run), and every later one takes the width the first
// ended with. Each storm's state exists only while it runs.
class StormSet {
 public:
  // Every run's options are checked first: the first refusal, with the run's
  // index in *refused (when given); nothing runs then.
  static Result<StormSet> Create(std::vector<StormOptions> runs, size_t* refused = nullptr);

  // Advances the running storm by at most `max_events`; one that finishes keeps
  // its result and the next starts. True when every storm is over.
  // ResourceExhausted when the next storm's state has no room in the heap budget.
  Result<bool> Run(uint64_t max_events);
  size_t size() const { return runs_.size(); }
  // The storm running (size() when all are over).
  size_t current() const { return results_.size(); }
  // The running storm's progress (0 to 1) and decided attempts so far.
  double Progress() const { return running_ ? running_->Progress() : 0; }
  uint64_t Attempts() const { return running_ ? running_->attempts() : 0; }
  // The result of storm i < current().
  const StormResult& result(size_t i) const { return results_[i]; }

 private:
  explicit StormSet(std::vector<StormOptions> runs) : runs_(std::move(runs)) {}
  std::vector<StormOptions> runs_;
  std::optional<Storm> running_;
  std::vector<StormResult> results_;
};

// ---- what a storm will cost (core/sim/storm.cpp, at the end) ----

// A bound on one storm's work, from its options alone, before it runs: a page
// reads it to decide whether a shared link may start by itself.
struct StormCost {
  // The most attempts the storm can make: jobs × maxAttempts (a budget only
  // lowers it), and, when its time is bounded, at most workers × (floor(horizon_ms / workMs) + 1) (a worker
  // starts at most one attempt every workMs).
  uint64_t attempts = 0;
  // The most simulated time it can take, in ms; none when a capacity limit
  // (perWindow > 0) or a failure rate keeps failing attempts after the outage,
  // a server queues them, or closed-loop clients send jobs when earlier ones end:
  // then no time bounds it.
  std::optional<int64_t> horizon_ms;
};

// CheckStormOptions()'s refusal, or the bound. The horizon: without a capacity
// limit every attempt that finishes after the outage's end E succeeds, and only
// a failure sets a delay; so once T0 = max(E, the last arrival) + the longest
// delay (0 for no backoff, else max(baseMs, capMs)) has passed, no job is
// delayed any more, each one left needs one attempt, and the workers take them
// `workers` at a time: the run ends by T0 + workMs × (ceil(jobs / workers) + 1).
Result<StormCost> EstimateStormCost(const StormOptions& options);

}  // namespace dlq
