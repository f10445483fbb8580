// The retry schedule of a policy, as a card shows it: for each attempt of a job
// whose every attempt fails transiently, the delay after it and when it starts,
// each as min, median, p99 and max under the policy's jitter; and how likely the
// budget is to outlast an outage of a given length.
//
// The model (virtual ms; the world's, world.h, with a worker always free):
//  * Attempt 1 starts at 0, the moment the outage begins. Attempt n takes
//    its attempt time, fails transiently, waits RetryDelay(policy, the transient rule's
//    backoff, n, …) and attempt n + 1 starts then: start(n + 1) = start(n) +
//    attempt time + delay(n).
//  * The attempt time is what the run counts: workMs, but never past the lease
//    (leaseMs), which the queue expires first; with `leases` the whole lease,
//    leaseMs, as when nobody settles it (a hand-driven clock playground: the
//    worst case's lease term, backoff.h). A lease expiry is a crash: the
//    schedule counts its time, and the transient rule's budget and backoff. The transient class's rule in force
//    (Policy::RuleFor) gives the budget and the backoff; the policy's system applies (backoff.h).
//  * The budget outlasts an outage of outageMs when its last attempt finishes at
//    or after outageMs (the world judges an attempt when it finishes):
//    start(last) + attempt time >= outageMs. An outage of 0 is always outlasted.
//  * Jitter: `samples` runs, drawn one after another from stream kSchedule of
//    the policy's seed (prng.h), one draw per jittered delay as the queue draws.
//    A policy that draws nothing is computed once, exactly (`exact`). At most
//    kScheduleDraws delays are drawn in all: with a large budget fewer samples
//    run (`samples` says how many did).
//  * Each statistic is a nearest-rank percentile of the samples: the value of
//    rank ceil(p * n / 100) (1-based) in ascending order; the median is p = 50.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "field.h"
#include "policy.h"
#include "status.h"

namespace dlq {

constexpr IntegerField kScheduleSamplesField{"samples", 1, 10'000};
constexpr IntegerField kScheduleOutageMsField{"outageMs", 0, kMaxTimeMs};
constexpr IntegerField kScheduleWorkMsField{"workMs", 0, kMaxDelayMs};
constexpr const IntegerField* kScheduleIntegerFields[] = {&kScheduleSamplesField, &kScheduleOutageMsField,
                                                          &kScheduleWorkMsField};
// The first attempts that get a row of their own; the last attempt always has one (ScheduleTable.last).
constexpr size_t kScheduleRows = 50;
// Delays drawn at most, over all samples.
constexpr int64_t kScheduleDraws = 2'000'000;

struct ScheduleOptions {
  int64_t samples = 1'000;
  int64_t outage_ms = 0;
  int64_t work_ms = 0;
  bool leases = false;  // each attempt holds its lease to its expiry (leaseMs) instead of workMs
  // Only whether the schedule is exact: the first draw ends the run, with exact false and
  // no statistics (a checker rule's question; a budget of 1,000,000 draws at attempt 1).
  // Not a field: no page or link sets it.
  bool until_draw = false;
};

// How long one attempt of `policy` runs under `options` (see the model above).
int64_t ScheduleAttemptMs(const Policy& policy, const ScheduleOptions& options);

// The options (field.h), in the order the bindings read them.
std::span<const Field<ScheduleOptions>> ScheduleFields();

// The first option out of range, named as JS spells it; or OK.
Status CheckScheduleOptions(const ScheduleOptions& options);

// Nearest-rank statistics of one quantity over the samples.
struct Spread {
  int64_t min = 0;
  int64_t median = 0;
  int64_t p99 = 0;
  int64_t max = 0;
  bool operator==(const Spread&) const = default;
};

struct ScheduleRow {
  uint32_t attempt = 0;  // 1-based
  Spread start;          // when the attempt starts, from the first attempt's start
  bool retried = false;  // a delay follows: false for the last attempt (quarantine then)
  Spread delay;          // the delay after it fails (all 0 when !retried)
};

struct ScheduleTable {
  uint32_t attempts = 0;          // the transient class's budget
  std::vector<ScheduleRow> rows;  // attempts 1 … min(attempts, kScheduleRows)
  ScheduleRow last;               // the last attempt (also in rows when attempts <= kScheduleRows)
  int64_t attempt_ms = 0;         // each attempt's time (ScheduleAttemptMs)
  Spread total;                   // when the last attempt finishes: last.start + attempt_ms
  int64_t samples = 0;            // samples run
  bool exact = false;             // no draw: one run gives every sample
  int64_t outage_ms = 0;
  int64_t outlasting = 0;  // samples whose budget outlasts the outage
};

// The schedule of `policy` (Policy::Check's refusal first, then the options').
Result<ScheduleTable> RetrySchedule(const Policy& policy, const ScheduleOptions& options);

}  // namespace dlq
