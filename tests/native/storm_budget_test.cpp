// Storm lab II (core/budget/, core/sim/server.h, the storm's new options): the
// retry budgets one by one and parsed from their text; the failure rate; closed
// loops; the server's queue and the client's timeout; and each published result
// docs/storm.md states, as a claim on the core's numbers (the Node suite makes
// the same claims through WebAssembly: tests/node/storm-budget.test.mjs).
#include <numeric>

#include "aws_budget.h"
#include "finagle_budget.h"
#include "grpc_budget.h"
#include "storm.h"
#include "test_util.h"

using namespace dlq;

namespace storm_budget_test {

namespace {

StormResult MustRun(const StormOptions& o) {
  Result<StormResult> r = RunStorm(o);
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  return std::move(r).value();
}

BudgetOptions MustParse(std::string_view text) {
  Result<BudgetOptions> b = ParseBudget(text, "--budget");
  REQUIRE_MESSAGE(b.ok(), b.status().ToString());
  return b.value();
}

// Completions per second over [from_ms, to_ms), from the series (bucket edges must fall on them).
double GoodputBetween(const StormResult& r, int64_t from_ms, int64_t to_ms) {
  const int64_t w = r.series.bucket_ms;
  REQUIRE(from_ms % w == 0);
  REQUIRE(to_ms % w == 0);
  uint64_t sum = 0;
  for (int64_t b = from_ms / w; b < to_ms / w && b < static_cast<int64_t>(r.series.length()); ++b) {
    sum += r.series.completed[static_cast<size_t>(b)];
  }
  return static_cast<double>(sum) * 1000.0 / static_cast<double>(to_ms - from_ms);
}

// Retries refused over retries wanted (made + refused).
double DeniedShare(const StormSummary& s) {
  const double made = static_cast<double>(s.attempts - s.jobs);
  return static_cast<double>(s.retries_denied) / (made + static_cast<double>(s.retries_denied));
}

// ---- the presets' scenarios (docs/storm.md "Presets that reproduce published results") ----

// gRPC throttling: 100,000 jobs at 10,000 a second, a failure rate, 3 attempts, grpc:10:0.1.
StormOptions GrpcCutoff(int64_t failure_per_million) {
  StormOptions o;
  o.jobs = 100'000;
  o.arrival = {ArrivalKind::kRate, 10'000, 100};
  o.failure_per_million = failure_per_million;
  o.max_attempts = 3;
  o.budget = BudgetOptions{};  // grpc:10:0.1
  return o;
}

// The metastable failure: 600 jobs a second into a server of 1,000 a second whose capacity drops
// to 100 a second for 1 s at 5 s (the trigger); clients time out after 500 ms and retry at once.
StormOptions Metastable() {
  StormOptions o;
  o.jobs = 30'000;  // 50 s of arrivals
  o.arrival = {ArrivalKind::kRate, 600, 100};
  o.server = StormServer{1000, 500, 5000, 1000, 100};
  o.workers = 100'000;
  o.max_attempts = 3;
  o.bucket_ms = 100;
  return o;
}

// Overload with backoff or without: a dependency that takes 1,000 successes a second, 5 attempts.
StormOptions Overload(bool closed, bool backoff) {
  StormOptions o;
  o.jobs = 20'000;
  o.arrival = closed ? StormArrival{ArrivalKind::kClosed, 1000, 50} : StormArrival{ArrivalKind::kRate, 2000, 100};
  o.capacity = StormCapacity{100, 100};
  o.workers = 100'000;
  o.max_attempts = 5;
  if (backoff) o.backoff = {BackoffKind::kExponential, 100, 5000, Jitter::kFull};
  return o;
}

}  // namespace

TEST_CASE("budget text: each kind parses and formats back, a bad one names the argument, the grammar and the text") {
  for (const char* text : {"grpc:10:0.1", "grpc:1000:1", "grpc:3:0.125", "aws-standard", "finagle:20:10:10000"}) {
    CAPTURE(text);
    CHECK(FormatBudget(MustParse(text)) == text);
  }
  const BudgetOptions grpc = MustParse("grpc:10:0.1");
  CHECK(grpc.kind == BudgetKind::kGrpc);
  CHECK(grpc.max_tokens == 10);
  CHECK(grpc.token_ratio_per_mille == 100);
  const BudgetOptions finagle = MustParse("finagle:20:10:10000");
  CHECK(finagle.percent == 20);
  CHECK(finagle.min_per_second == 10);
  CHECK(finagle.window_ms == 10'000);
  const auto refusal = [](std::string_view text) {
    Result<BudgetOptions> b = ParseBudget(text, "--budget");
    REQUIRE(!b.ok());
    return b.status().message();
  };
  CHECK(refusal("grpc:10") ==
        "--budget must be grpc:MAX_TOKENS:TOKEN_RATIO, aws-standard or finagle:PERCENT:MIN_PER_S:WINDOW_MS, got "
        "\"grpc:10\"");
  CHECK(refusal("token-bucket").find("got \"token-bucket\"") != std::string::npos);
  CHECK(refusal("aws-standard:5").find("got \"aws-standard:5\"") != std::string::npos);
  CHECK(refusal("grpc:x:0.1") == "--budget: MAX_TOKENS must be an integer from 1 to 1000, got \"x\"");
  CHECK(refusal("grpc:0:0.1") == "--budget: budget.maxTokens must be an integer from 1 to 1000, got 0");
  CHECK(refusal("grpc:10:0.0001") ==
        "--budget: TOKEN_RATIO must be a decimal from 0.001 to 1 with at most 3 decimals, got \"0.0001\"");
  CHECK(refusal("grpc:10:2") ==
        "--budget: TOKEN_RATIO must be a decimal from 0.001 to 1 with at most 3 decimals, got \"2\"");
  CHECK(refusal("finagle:20:10:1500") ==
        "--budget: budget.windowMs must be whole seconds from 1000 to 60000 (a multiple of 1000, as Finagle's ttl), "
        "got 1500");
  CHECK(refusal("finagle:20:10:100") == "--budget: budget.windowMs must be an integer from 1000 to 60000, got 100");
  CHECK(refusal("finagle:20:-1:10000") == "--budget: MIN_PER_S must be a whole number, got \"-1\"");
}

TEST_CASE("gRPC throttling: a failure takes a token, a success gives back the ratio, retries only above half") {
  GrpcBudget b(10, 100);
  CHECK(b.TryRetry(0));
  for (int i = 0; i < 4; ++i) b.OnAnswer(0, false, false);
  CHECK(b.milli_tokens() == 6000);
  CHECK(b.TryRetry(0));  // 6 > 5
  b.OnAnswer(0, false, false);
  CHECK(b.milli_tokens() == 5000);
  CHECK_FALSE(b.TryRetry(0));  // 5 is not above half of 10
  b.OnAnswer(0, true, false);
  CHECK(b.milli_tokens() == 5100);
  CHECK(b.TryRetry(0));
  for (int i = 0; i < 100; ++i) b.OnAnswer(0, true, false);
  CHECK(b.milli_tokens() == 10'000);  // never above the maximum
  for (int i = 0; i < 20; ++i) b.OnAnswer(0, false, false);
  CHECK(b.milli_tokens() == 0);  // never below 0
}

TEST_CASE(
    "AWS standard: a full bucket pays for 100 retries, a first-try success adds 1, a successful retry returns 5") {
  AwsStandardBudget b;
  int allowed = 0;
  while (b.TryRetry(0)) ++allowed;
  CHECK(allowed == 100);
  b.OnAnswer(0, true, false);  // +1
  CHECK(b.tokens() == 1);
  CHECK_FALSE(b.TryRetry(0));
  for (int i = 0; i < 4; ++i) b.OnAnswer(0, true, false);
  CHECK(b.TryRetry(0));  // 5 tokens: one retry
  CHECK(b.tokens() == 0);
  b.OnAnswer(0, true, true);  // that retry succeeded: its 5 come back
  CHECK(b.tokens() == 5);
  for (int i = 0; i < 1000; ++i) b.OnAnswer(0, true, false);
  CHECK(b.tokens() == 500);
}

TEST_CASE("Finagle: retries up to the percentage of the window's requests plus the floor, and old deposits expire") {
  FinagleBudget b(20, 1, 10'000);  // 20%, 1 a second over 10 s: a reserve of 10 retries
  int allowed = 0;
  while (b.TryRetry(0)) ++allowed;
  CHECK(allowed == 10);
  for (int i = 0; i < 50; ++i) b.OnRequest(100);  // 50 requests: 10 more retries
  allowed = 0;
  while (b.TryRetry(200)) ++allowed;
  CHECK(allowed == 10);
  // A window later the deposits and withdrawals have expired: the reserve is back.
  CHECK(b.Balance(20'000) == 1000);
}

TEST_CASE("a failure rate fails that share of the attempts outside the outage, seeded, p = 1 fails every one") {
  StormOptions o;
  o.jobs = 20'000;
  o.max_attempts = 1;
  o.failure_per_million = 200'000;
  const StormResult r = MustRun(o);
  CHECK(r.summary.random_failures > 3800);
  CHECK(r.summary.random_failures < 4200);
  CHECK(r.summary.quarantined == r.summary.random_failures);
  CHECK(MustRun(o).series.failed == r.series.failed);  // the same seed, the same draws
  o.seed = 2;
  CHECK(MustRun(o).summary.random_failures != r.summary.random_failures);
  o.failure_per_million = 1'000'000;
  CHECK(MustRun(o).summary.successes == 0);
  // With the outage: attempts inside it are outage failures, never drawn.
  o.failure_per_million = 100'000;
  o.max_attempts = 5;
  o.outage = StormOutage{0, 1000};
  o.backoff = {BackoffKind::kFixed, 400, 400, Jitter::kNone};
  o.workers = 20'000;
  const StormResult both = MustRun(o);
  CHECK(both.summary.outage_failures == 60'000);  // every job's attempts finishing at 10, 420 and 830 ms
  CHECK(both.summary.random_failures > 0);
  CHECK(both.summary.failures == both.summary.outage_failures + both.summary.random_failures);
}

TEST_CASE("closed loop: C clients, each sending its next job only once the previous one is over") {
  StormOptions o;
  o.jobs = 1000;
  o.arrival = {ArrivalKind::kClosed, 1000, 10};
  o.workers = 1000;
  o.work_ms = 10;
  o.max_attempts = 3;
  const StormResult r = MustRun(o);
  CHECK(r.summary.completed == 1000);
  CHECK(r.summary.drain_ms == 1000);  // 100 rounds of 10 jobs, 10 ms each
  for (size_t b = 0; b < r.series.length(); ++b) CHECK(r.series.in_flight[b] + r.series.ready[b] <= 10);
  // Quarantined and failed jobs free their client too.
  o.failure_per_million = 1'000'000;
  o.budget = MustParse("aws-standard");
  o.refused_retry = RefusedRetry::kFail;
  const StormResult failing = MustRun(o);
  CHECK(failing.summary.failed_jobs + failing.summary.quarantined == 1000);
  CHECK(failing.summary.failed_jobs == failing.summary.retries_denied);
}

TEST_CASE("the server takes up at most its capacity a second, first come first served, an idle server banks nothing") {
  ServerQueue q(StormServer{3, 1000, 0, 0, 0});
  CHECK(q.TakeUp(0) == 0);
  CHECK(q.TakeUp(0) == 333);
  CHECK(q.TakeUp(0) == 666);
  CHECK(q.TakeUp(0) == 1000);
  CHECK(q.Backlog(0) == 3);
  CHECK(q.Backlog(999) == 1);
  CHECK(q.TakeUp(5000) == 5000);  // idle since 1333: nothing banked
  CHECK(q.TakeUp(5000) == 5333);
  // A drop to 0 for a second: nothing is taken up in it.
  ServerQueue drop(StormServer{1000, 1000, 100, 1000, 0});
  for (int i = 0; i < 100; ++i) CHECK(drop.TakeUp(0) == i);
  CHECK(drop.TakeUp(100) == 1100);
  CHECK(drop.TakeUp(100) == 1101);
  CHECK(drop.Backlog(100) == 2);
}

TEST_CASE("a client gives up after its timeout and the attempt fails there, the server still does the abandoned work") {
  StormOptions o;
  o.jobs = 100;
  o.workers = 100;
  o.work_ms = 10;
  o.max_attempts = 1;
  o.server = StormServer{10, 500, 0, 0, 0};  // 10 a second: the 6th attempt is taken up at 500 ms
  const StormResult r = MustRun(o);
  // Taken up at 0, 100, …, 400 ms, answered 10 ms later: within 500 ms. The rest time out at 500 ms.
  CHECK(r.summary.completed == 5);
  CHECK(r.summary.timed_out == 95);
  CHECK(r.summary.drain_ms == 500);
  CHECK(r.series.server_queue[r.series.length() - 1] == 95 - 1);  // still queued at 500 ms (one taken up then)
}

// ---- the presets' claims ------------------------------------------------------

TEST_CASE("gRPC throttling cuts retries off near ratio / (1 + ratio): grpc:10:0.1 flows at 5% failures, stops at 15%") {
  const StormSummary at5 = MustRun(GrpcCutoff(50'000)).summary;
  const StormSummary at15 = MustRun(GrpcCutoff(150'000)).summary;
  CHECK(DeniedShare(at5) < 0.05);
  CHECK(DeniedShare(at15) > 0.95);
  // Where half the retries are refused: between 8% and 10%, around 1/11 = 9.1%.
  int64_t crossing = 0;
  for (int64_t ppm = 50'000; ppm <= 150'000 && crossing == 0; ppm += 5'000) {
    if (DeniedShare(MustRun(GrpcCutoff(ppm)).summary) > 0.5) crossing = ppm;
  }
  CHECK(crossing >= 80'000);
  CHECK(crossing <= 100'000);
}

TEST_CASE("the AWS bucket: a full bucket pays for 100 retries, then retries stop until successes refill it") {
  StormOptions o;
  o.jobs = 1000;
  o.outage = StormOutage{0, 60'000};
  o.max_attempts = 3;
  o.budget = MustParse("aws-standard");
  StormSummary s = MustRun(o).summary;
  CHECK(s.attempts - s.jobs == 100);
  CHECK(s.retries_denied == 1000);  // 900 at their first retry, the 100 at their second
  CHECK(s.quarantined_by_budget == 1000);
  // Failed back to their callers instead, when so configured.
  o.refused_retry = RefusedRetry::kFail;
  s = MustRun(o).summary;
  CHECK(s.failed_jobs == 1000);
  CHECK(s.quarantined == 0);
}

TEST_CASE(
    "metastable: a short capacity drop keeps goodput near zero long after it, with three attempts and no budget") {
  const StormResult r = MustRun(Metastable());
  CHECK(GoodputBetween(r, 0, 5000) > 590);
  // The trigger ends at 6 s; from 10 s (8 timeouts later) to the end of the arrivals nothing useful completes.
  CHECK(GoodputBetween(r, 10'000, 50'000) < 6);  // under 1% of the 600 a second that arrive
  CHECK(r.summary.amplification > 2.7);
}

TEST_CASE("metastable: the same trigger with a budget, or with closed-loop clients, recovers within a few timeouts") {
  for (const char* budget : {"grpc:10:0.1", "aws-standard"}) {
    CAPTURE(budget);
    StormOptions o = Metastable();
    o.budget = MustParse(budget);
    const StormResult r = MustRun(o);
    // Within 4 timeouts (2 s) of the trigger's end, goodput is back at the arrival rate.
    CHECK(GoodputBetween(r, 8000, 50'000) > 590);
    CHECK(r.summary.completed > 29'000);
  }
  StormOptions closed = Metastable();
  closed.arrival = {ArrivalKind::kClosed, 600, 6};  // 6 clients × 10 ms answers: 600 a second
  const StormResult r = MustRun(closed);
  CHECK(GoodputBetween(r, 0, 5000) > 590);
  CHECK(GoodputBetween(r, 7000, 50'000) > 590);
  CHECK(r.summary.completed == 30'000);
}

TEST_CASE("open versus closed loop: backoff barely lowers open-loop amplification, and clearly lowers closed-loop") {
  const double open = MustRun(Overload(false, false)).summary.amplification;
  const double open_backoff = MustRun(Overload(false, true)).summary.amplification;
  const double closed = MustRun(Overload(true, false)).summary.amplification;
  const double closed_backoff = MustRun(Overload(true, true)).summary.amplification;
  CAPTURE(open);
  CAPTURE(open_backoff);
  CAPTURE(closed);
  CAPTURE(closed_backoff);
  CHECK(open_backoff > 0.9 * open);      // under 10% lower
  CHECK(closed_backoff < 0.6 * closed);  // over 40% lower
}

TEST_CASE("storm II options: conservation and slicing hold with budgets, failure rates, servers and closed loops") {
  Prng rng(23);
  for (int i = 0; i < 60; ++i) {
    StormOptions o;
    o.jobs = 50 + rng.Below(2000);
    o.workers = 1 + rng.Below(200);
    o.work_ms = 1 + rng.Below(20);
    o.max_attempts = 1 + rng.Below(6);
    o.seed = rng.Below(1000);
    o.backoff = {BackoffKind::kExponential, 1 + static_cast<int64_t>(rng.Below(100)), 2000,
                 static_cast<Jitter>(rng.Below(4))};
    o.failure_per_million = rng.Below(3) == 0 ? 0 : rng.Below(400'000);
    const uint32_t arrival = rng.Below(3);
    o.arrival = {static_cast<ArrivalKind>(arrival), 100 + static_cast<int64_t>(rng.Below(5000)),
                 1 + static_cast<int64_t>(rng.Below(300))};
    if (rng.Below(2)) o.outage = StormOutage{rng.Below(500), rng.Below(2000)};
    const char* budgets[] = {"grpc:10:0.1", "aws-standard", "finagle:20:10:1000", "grpc:3:0.5"};
    if (rng.Below(3)) o.budget = MustParse(budgets[rng.Below(4)]);
    o.refused_retry = static_cast<RefusedRetry>(rng.Below(2));
    if (rng.Below(2)) {
      o.server =
          StormServer{50 + rng.Below(5000), 5 + rng.Below(1000), rng.Below(1000), rng.Below(1000), rng.Below(50)};
    }
    CAPTURE(i);
    const StormResult r = MustRun(o);
    const StormSummary& s = r.summary;
    CHECK(s.completed + s.quarantined + s.failed_jobs == s.jobs);
    CHECK(s.attempts == s.successes + s.failures);
    CHECK(s.failures == s.outage_failures + s.throttled + s.random_failures + s.timed_out);
    CHECK(s.completed <= s.successes);
    CHECK(s.quarantined_by_budget <= s.quarantined);
    if (!o.budget) CHECK(s.retries_denied == 0);
    CHECK(s.amplification == static_cast<double>(s.attempts) / static_cast<double>(s.jobs));
    // The page's guard: a budget, a server or a closed loop never pass the attempts bound.
    const Result<StormCost> cost = EstimateStormCost(o);
    REQUIRE(cost.ok());
    CHECK(s.attempts <= cost->attempts);
    const auto sum = [](const std::vector<uint32_t>& v) { return std::accumulate(v.begin(), v.end(), uint64_t{0}); };
    CHECK(sum(r.series.completed) == s.completed);
    CHECK(sum(r.series.denied) == s.retries_denied);
    CHECK(sum(r.series.timed_out) == s.timed_out);
    CHECK(sum(r.series.failed) == s.random_failures);
    // Sliced, the same storm.
    Result<Storm> sliced = Storm::Create(o);
    REQUIRE(sliced.ok());
    while (!sliced->Run(1 + rng.Below(500))) {}
    const StormResult& again = sliced->Result();
    CHECK(again.summary.attempts == s.attempts);
    CHECK(again.summary.retries_denied == s.retries_denied);
    CHECK(again.series.completed == r.series.completed);
    CHECK(again.series.server_queue == r.series.server_queue);
  }
}

TEST_CASE("storm II options are refused by name, with the range and what was given") {
  const auto refusal = [](const StormOptions& o) {
    const Status s = CheckStormOptions(o);
    REQUIRE(!s.ok());
    return s.message();
  };
  StormOptions o;
  o.failure_per_million = 1'000'001;
  CHECK(refusal(o) == "failurePerMillion must be an integer from 0 to 1000000, got 1000001");
  o = StormOptions{};
  o.arrival = {ArrivalKind::kClosed, 1000, 0};
  CHECK(refusal(o) == "arrival.clients must be an integer from 1 to 100000, got 0");
  o = StormOptions{};
  o.server = StormServer{0, 500, 0, 0, 0};
  CHECK(refusal(o) == "server.capacityPerSecond must be an integer from 1 to 10000000, got 0");
  o.server = StormServer{10, 0, 0, 0, 0};
  CHECK(refusal(o) == "server.timeoutMs must be an integer from 1 to 86400000, got 0");
  o = StormOptions{};
  o.budget = BudgetOptions{};
  o.budget->window_ms = 5;
  CHECK(refusal(o) == "budget.windowMs must be an integer from 1000 to 60000, got 5");
}

TEST_CASE(
    "the default preset: after a 5 s outage into 1,500 successes a second, every jitter completes more than none") {
  StormOptions o;
  o.jobs = 10'000;
  o.outage = StormOutage{0, 5000};
  o.capacity = StormCapacity{1500, 1000};
  o.workers = 10'000;
  o.max_attempts = 10;
  const auto run = [&](Jitter jitter) {
    o.backoff = {BackoffKind::kExponential, 100, 10'000, jitter};
    return MustRun(o).summary;
  };
  const StormSummary none = run(Jitter::kNone);
  const StormSummary full = run(Jitter::kFull);
  const StormSummary equal = run(Jitter::kEqual);
  const StormSummary decorrelated = run(Jitter::kDecorrelated);
  // Without jitter 1,500 of the herd succeed per retry wave, and the outage left 4 waves.
  CHECK(none.completed == 6000);
  CHECK(full.completed > 9900);
  CHECK(equal.completed == 10'000);
  CHECK(decorrelated.completed > none.completed);
  // Decorrelated jitter spends its attempts inside the outage: more quarantined than full or equal.
  CHECK(decorrelated.outage_failures > full.outage_failures);
  CHECK(decorrelated.quarantined > full.quarantined);
  CHECK(full.drain_ms < none.drain_ms);
}

}  // namespace storm_budget_test
