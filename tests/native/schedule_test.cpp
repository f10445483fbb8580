// The retry schedule (schedule.h): hand-derivable numbers without jitter (every
// statistic the one value), the jitter windows' bounds, the nearest-rank
// percentiles recomputed from the same seeded draws, the systems' own delays,
// the outage outlasted at its exact edge, the row and draw caps, determinism,
// and every refusal by name. tests/node/schedule.test.mjs checks that
// WebAssembly gives the same tables.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "backoff.h"
#include "prng.h"
#include "schedule.h"

using namespace dlq;

namespace schedule_test {

namespace {

Policy Exponential(int64_t attempts, int64_t base, int64_t cap, Jitter jitter = Jitter::kNone) {
  Policy p;
  p.max_attempts = attempts;
  p.backoff = {BackoffKind::kExponential, base, cap, jitter};
  return p;
}

ScheduleTable MustSchedule(const Policy& p, ScheduleOptions o = {}) {
  Result<ScheduleTable> r = RetrySchedule(p, o);
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  return r.value();
}

Spread One(int64_t v) { return {v, v, v, v}; }

}  // namespace

TEST_CASE("schedule: no jitter is exact, one run, and every statistic is the formula's value") {
  ScheduleOptions o;
  o.outage_ms = 2500;
  const ScheduleTable t = MustSchedule(Exponential(6, 100, 1000), o);
  CHECK(t.exact);
  CHECK(t.samples == 1);
  CHECK(t.attempts == 6);
  REQUIRE(t.rows.size() == 6);
  const int64_t delays[] = {100, 200, 400, 800, 1000, 0};  // min(1000, 100 * 2^(n-1)); none after the last
  const int64_t starts[] = {0, 100, 300, 700, 1500, 2500};
  for (size_t i = 0; i < 6; ++i) {
    CAPTURE(i);
    CHECK(t.rows[i].attempt == i + 1);
    CHECK(t.rows[i].delay == One(delays[i]));
    CHECK(t.rows[i].start == One(starts[i]));
    CHECK(t.rows[i].retried == (i < 5));
  }
  CHECK(t.last.attempt == 6);
  CHECK(t.last.start == One(2500));
  CHECK(t.total == One(2500));
  // The last attempt finishes at 2,500 ms: an outage of 2,500 ms is outlasted, one of 2,501 is not.
  CHECK(t.outlasting == 1);
  o.outage_ms = 2501;
  CHECK(MustSchedule(Exponential(6, 100, 1000), o).outlasting == 0);
}

TEST_CASE("schedule: the attempts' own time adds to every start (lesson 2's outage playground)") {
  // Fixed 250 ms, 3 attempts of 100 ms: starts 0, 100 + 250, 2 * (100 + 250); the last finishes at 800.
  Policy p;
  p.max_attempts = 3;
  p.backoff = {BackoffKind::kFixed, 250, 250, Jitter::kNone};
  ScheduleOptions o;
  o.work_ms = 100;
  o.outage_ms = 800;
  ScheduleTable t = MustSchedule(p, o);
  CHECK(t.rows[0].start == One(0));
  CHECK(t.rows[1].start == One(350));
  CHECK(t.rows[2].start == One(700));
  CHECK(t.total == One(800));
  CHECK(t.outlasting == 1);
  o.outage_ms = 801;
  CHECK(MustSchedule(p, o).outlasting == 0);
  // Lesson 2's l2-outage: exponential from 250, 3 attempts, 100 ms each, a 3 s outage: 0, 350, 950 ms; not outlasted.
  o.outage_ms = 3000;
  t = MustSchedule(Exponential(3, 250, 4000), o);
  CHECK(t.last.start == One(950));
  CHECK(t.outlasting == 0);
  // Its solution, a 1 s base: 0, 1100, 3200; the third attempt finishes at 3,300 ms, after the outage.
  t = MustSchedule(Exponential(3, 1000, 4000), o);
  CHECK(t.last.start == One(3200));
  CHECK(t.outlasting == 1);
}

TEST_CASE("schedule: full jitter stays in [0, v], and the statistics are nearest ranks of the seeded draws") {
  Policy p;
  p.max_attempts = 2;
  p.seed = 7;
  p.backoff = {BackoffKind::kFixed, 1000, 1000, Jitter::kFull};
  ScheduleOptions o;
  o.samples = 1000;
  o.outage_ms = 500;
  const ScheduleTable t = MustSchedule(p, o);
  CHECK_FALSE(t.exact);
  CHECK(t.samples == 1000);
  // The same draws by hand: one Below(1001) per sample from stream kSchedule of the seed.
  Prng prng(7, PrngStream::kSchedule);
  std::vector<int64_t> draws;
  for (int i = 0; i < 1000; ++i) draws.push_back(prng.Below(1001));
  std::vector<int64_t> sorted = draws;
  std::sort(sorted.begin(), sorted.end());
  CHECK(t.rows[0].delay.min == sorted[0]);
  CHECK(t.rows[0].delay.median == sorted[499]);  // rank ceil(50 * 1000 / 100) = 500
  CHECK(t.rows[0].delay.p99 == sorted[989]);     // rank 990
  CHECK(t.rows[0].delay.max == sorted[999]);
  CHECK(t.rows[1].start == t.rows[0].delay);  // work 0: the second attempt starts after the delay
  CHECK(t.rows[0].delay.min >= 0);
  CHECK(t.rows[0].delay.max <= 1000);
  CHECK(t.rows[0].delay.median > 400);
  CHECK(t.rows[0].delay.median < 600);
  CHECK(t.outlasting == std::count_if(draws.begin(), draws.end(), [](int64_t d) { return d >= 500; }));
  // Equal jitter keeps half: [500, 1000].
  p.backoff.jitter = Jitter::kEqual;
  const ScheduleTable e = MustSchedule(p, o);
  CHECK(e.rows[0].delay.min >= 500);
  CHECK(e.rows[0].delay.max <= 1000);
  CHECK(e.outlasting == 1000);
}

TEST_CASE("schedule: the same policy gives the same table, another seed other draws") {
  Policy p = Exponential(5, 200, 4000, Jitter::kDecorrelated);
  ScheduleOptions o;
  o.samples = 200;
  o.outage_ms = 1500;
  const ScheduleTable a = MustSchedule(p, o);
  const ScheduleTable b = MustSchedule(p, o);
  REQUIRE(a.rows.size() == b.rows.size());
  for (size_t i = 0; i < a.rows.size(); ++i) CHECK(a.rows[i].start == b.rows[i].start);
  CHECK(a.outlasting == b.outlasting);
  // Pinned: tests/node/schedule.test.mjs expects the same numbers from WebAssembly.
  CHECK(a.rows[1].delay == Spread{212, 632, 1647, 1714});
  CHECK(a.rows[4].start == Spread{1096, 3349, 9090, 10285});
  CHECK(a.outlasting == 191);
  p.seed = 8;
  const ScheduleTable c = MustSchedule(p, o);
  CHECK_FALSE(c.rows[4].start == a.rows[4].start);
  // Decorrelated: each delay in [base, min(cap, 3 * previous)].
  for (const ScheduleRow& row : a.rows) {
    if (!row.retried) continue;
    CHECK(row.delay.min >= 200);
    CHECK(row.delay.max <= 4000);
  }
}

TEST_CASE("schedule: the systems' own delays (Sidekiq's formula, SQS's visibility timeout)") {
  Policy p;
  p.max_attempts = 2;
  p.system = System::kSidekiq;  // kind none: (0^4 + 15 + rand(10) * 1) s after the first failure
  ScheduleOptions o;
  o.samples = 1000;
  ScheduleTable t = MustSchedule(p, o);
  CHECK_FALSE(t.exact);
  CHECK(t.rows[0].delay.min == 15'000);
  CHECK(t.rows[0].delay.max == 24'000);
  p.system = System::kSqs;
  p.lease_ms = 5000;
  t = MustSchedule(p, o);
  CHECK(t.exact);
  CHECK(t.rows[0].delay == One(5000));
}

TEST_CASE("schedule: bullmq's jitter shows its min, median and p99 within [v(1 - j), v - 1]") {
  Policy p;
  p.max_attempts = 3;
  p.system = System::kBullMq;
  p.backoff = {BackoffKind::kExponential, 200, 200, Jitter::kBullMq, 500};
  ScheduleOptions o;
  o.samples = 1000;
  const ScheduleTable t = MustSchedule(p, o);
  CHECK_FALSE(t.exact);
  CHECK(t.rows[0].delay.min >= 100);
  CHECK(t.rows[0].delay.p99 <= 199);
  CHECK(t.rows[0].delay.median > 130);  // uniform on [100, 199]: about 150
  CHECK(t.rows[0].delay.median < 170);
  CHECK(t.rows[1].delay.min >= 200);  // v = 400, no cap under bullmq
  CHECK(t.rows[1].delay.max <= 399);
  CHECK(t.rows[1].delay.p99 > 380);
}

TEST_CASE("schedule: rows stop at kScheduleRows, the last attempt always has one, and draws are capped") {
  Policy p;
  p.max_attempts = 100;
  p.backoff = {BackoffKind::kFixed, 10, 10, Jitter::kNone};
  ScheduleTable t = MustSchedule(p);
  CHECK(t.rows.size() == kScheduleRows);
  CHECK(t.last.attempt == 100);
  CHECK(t.last.start == One(990));
  p.max_attempts = 1'000'000;
  p.backoff.jitter = Jitter::kFull;
  ScheduleOptions o;
  o.samples = 10'000;
  t = MustSchedule(p, o);
  CHECK(t.samples == kScheduleDraws / 999'999);  // 2
  CHECK(t.last.start.max <= 999'999 * 10);
}

TEST_CASE("schedule: a transient class that never retries has one attempt") {
  Policy p;
  p.classes[FailureClass::kTransient].retry = false;
  ScheduleOptions o;
  ScheduleTable t = MustSchedule(p, o);
  CHECK(t.attempts == 1);
  REQUIRE(t.rows.size() == 1);
  CHECK_FALSE(t.rows[0].retried);
  CHECK(t.outlasting == 1);  // an outage of 0 is always outlasted
  o.outage_ms = 1;
  CHECK(MustSchedule(p, o).outlasting == 0);
}

TEST_CASE("schedule: bad input is refused by name, the policy's first") {
  ScheduleOptions o;
  o.samples = 0;
  Result<ScheduleTable> r = RetrySchedule(Policy{}, o);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == Code::kOutOfRange);
  CHECK(r.status().message() == "samples must be an integer from 1 to 10000, got 0");
  o.samples = 10;
  o.outage_ms = -1;
  CHECK(RetrySchedule(Policy{}, o).status().message() ==
        "outageMs must be an integer from 0 to 9007199254740991, got -1");
  o.outage_ms = 0;
  o.work_ms = kMaxDelayMs + 1;
  CHECK(RetrySchedule(Policy{}, o).status().message() == "workMs must be an integer from 0 to 86400000, got 86400001");
  Policy bad;
  bad.max_attempts = 0;
  CHECK(RetrySchedule(bad, o).status().message().rfind("maxAttempts must be an integer from 1 to 1000000", 0) == 0);
}

}  // namespace schedule_test
