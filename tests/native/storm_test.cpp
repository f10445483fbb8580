// The storm (core/sim/storm.h): refusals by name; equivalence with the real Queue
// played by the world (player.h), bucket for bucket; conservation over many
// seeded runs; determinism (sliced runs, the released fixtures in
// tests/fixtures/storms/, which the Node suite checks against WebAssembly too);
// the bucket width; and the thundering-herd preset docs/storm.md states.
#include <cctype>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <variant>

#include "player.h"
#include "storm.h"
#include "test_util.h"

using namespace dlq;
using namespace dlq::test;

namespace storm_test {

namespace {

StormOptions Options(int64_t jobs, int64_t workers, int64_t work_ms, int64_t max_attempts, Backoff backoff,
                     std::optional<StormOutage> outage = std::nullopt) {
  StormOptions o;
  o.jobs = jobs;
  o.workers = workers;
  o.work_ms = work_ms;
  o.max_attempts = max_attempts;
  o.backoff = backoff;
  o.outage = outage;
  return o;
}

StormResult MustRun(const StormOptions& o) {
  Result<StormResult> r = RunStorm(o);
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  return std::move(r).value();
}

std::string Refusal(const StormOptions& o) {
  Result<Storm> s = Storm::Create(o);
  REQUIRE(!s.ok());
  return s.status().message();
}

// ---- the same storm through the real Queue, played by the world -----------

struct Tally {
  StormSummary summary;
  StormSeries series;
};

// Runs the storm's scenario through a Queue played by NextWorldAction, with the
// storm's arrivals enqueued when their time comes (the world has none: its clock
// moves stop at the next arrival) and its capacity applied to the world's
// successes (the world has none either), then buckets the queue's full timeline
// at `width` ms exactly as the storm defines its series.
Tally ViaQueue(const StormOptions& o, int64_t width) {
  Policy policy = StormPolicy(o);
  Result<Queue> made = Queue::Create(policy);
  REQUIRE(made.ok());
  Queue& q = made.value();
  World world;
  world.workers = o.workers;
  world.work_ms = o.work_ms;
  if (o.outage) {
    world.outage_start = o.outage->start_ms;
    world.outage_end = o.outage->start_ms + o.outage->duration_ms;
  }
  REQUIRE(CheckWorld(world).ok());
  const auto n = static_cast<uint64_t>(o.jobs);
  const auto arrival = [&](uint64_t i) {
    return o.arrival.kind == ArrivalKind::kBurst ? int64_t{0} : static_cast<int64_t>(i) * 1000 / o.arrival.per_second;
  };
  uint64_t arrived = 0;
  int64_t window = -1, window_successes = 0;
  for (size_t index = 0;; ++index) {
    REQUIRE(index < 200'000);
    while (arrived < n && arrival(arrived) <= q.stats().now) {
      REQUIRE(q.Enqueue("job-" + std::to_string(arrived), "").ok());
      ++arrived;
    }
    std::optional<Action> next = NextWorldAction(q, world);
    std::optional<int64_t> target;
    if (next) {
      if (const auto* a = std::get_if<action::Advance>(&*next)) target = q.stats().now + a->ms;
      if (std::holds_alternative<action::AdvanceToNext>(*next)) target = q.view().NextTimerAt();
    }
    if (arrived < n && (!next || (target && *target > arrival(arrived)))) {
      REQUIRE(q.Advance(arrival(arrived) - q.stats().now).ok());
      continue;
    }
    if (!next) break;
    if (auto* settle = std::get_if<action::Settle>(&*next);
        settle != nullptr && settle->outcome == Outcome::kSuccess && o.capacity && o.capacity->per_window > 0) {
      const int64_t w = q.stats().now / o.capacity->window_ms;
      if (w != window) window = w, window_successes = 0;
      if (window_successes < o.capacity->per_window) {
        ++window_successes;
      } else {
        settle->outcome = Outcome::kTransient;
        settle->error = "throttled";
      }
    }
    JournalOrigin origin;  // the world never crashes the process
    const Status applied = ApplyAction(q, origin, *next, index);
    REQUIRE_MESSAGE(applied.ok(), applied.ToString());
  }
  REQUIRE(q.stats().ready == 0);
  REQUIRE(q.stats().delayed == 0);
  REQUIRE(q.stats().leased == 0);

  // Bucket the timeline.
  Tally t;
  StormSummary& s = t.summary;
  StormSeries& series = t.series;
  series.bucket_ms = width;
  uint32_t ready = 0, delayed = 0, in_flight = 0, quarantine = 0;
  size_t sampled = 0;
  const auto sample_until = [&](int64_t time, size_t limit) {
    // Buckets that end at or before `time` are over.
    while (sampled < limit && static_cast<int64_t>(sampled + 1) * width <= time) {
      series.ready.push_back(ready);
      series.delayed.push_back(delayed);
      series.in_flight.push_back(in_flight);
      series.quarantine.push_back(quarantine);
      ++sampled;
    }
  };
  const std::vector<Event> events = q.view().Timeline();
  for (const Event& e : events) {
    if (e.kind == EventKind::kAttempt && e.disposition != Disposition::kRequeued &&
        e.disposition != Disposition::kDelayed) {
      s.drain_ms = e.time;
    }
  }
  const size_t length = static_cast<size_t>(s.drain_ms / width) + 1;
  for (auto* v : {&series.success, &series.outage, &series.throttled, &series.retries}) v->assign(length, 0);
  for (const Event& e : events) {
    sample_until(e.time, length);
    switch (e.kind) {
      case EventKind::kEnqueued: ++ready; break;
      case EventKind::kLeased: --ready, ++in_flight; break;
      case EventKind::kDue: --delayed, ++ready; break;
      case EventKind::kAttempt: {
        --in_flight;
        const auto b = static_cast<size_t>(e.time / width);
        if (e.outcome == Outcome::kSuccess) {
          ++series.success[b], ++s.successes;
        } else if (e.error == "throttled") {
          ++series.throttled[b], ++s.throttled;
        } else {
          REQUIRE(e.error.rfind("dependency down", 0) == 0);
          ++series.outage[b], ++s.outage_failures;
        }
        if (e.attempts >= 2) ++series.retries[b];
        switch (e.disposition) {
          case Disposition::kCompleted: ++s.completed; break;
          case Disposition::kQuarantined: ++s.quarantined, ++quarantine; break;
          case Disposition::kRequeued: ++ready; break;
          case Disposition::kDelayed: ++delayed; break;
          case Disposition::kDiscarded: FAIL_CHECK("a storm's lab queue keeps every terminal failure"); break;
        }
        break;
      }
      default: break;  // the follow-up events (requeued, delayed, completed, quarantined) say it again
    }
  }
  sample_until(INT64_MAX, length);
  s.jobs = n;
  s.failures = s.outage_failures + s.throttled;
  s.attempts = s.successes + s.failures;
  s.wasted_attempts = s.failures;
  s.worst_case = WorstCasePath(q.policy());
  const int64_t outage_end = o.outage ? o.outage->start_ms + o.outage->duration_ms : 0;
  for (size_t b = 0; b < length; ++b) {
    const double per_second = 1000.0 / static_cast<double>(width);
    s.peak_retry_rate = std::max(s.peak_retry_rate, series.retries[b] * per_second);
    if (static_cast<int64_t>(b) * width >= outage_end) {
      const double all = static_cast<double>(uint64_t{series.success[b]} + series.outage[b] + series.throttled[b]);
      s.peak_rate_after_recovery = std::max(s.peak_rate_after_recovery, all * per_second);
    }
  }
  return t;
}

void CheckSameSummary(const StormSummary& a, const StormSummary& b) {
  CHECK(a.jobs == b.jobs);
  CHECK(a.attempts == b.attempts);
  CHECK(a.successes == b.successes);
  CHECK(a.failures == b.failures);
  CHECK(a.outage_failures == b.outage_failures);
  CHECK(a.throttled == b.throttled);
  CHECK(a.wasted_attempts == b.wasted_attempts);
  CHECK(a.peak_retry_rate == b.peak_retry_rate);
  CHECK(a.peak_rate_after_recovery == b.peak_rate_after_recovery);
  CHECK(a.drain_ms == b.drain_ms);
  CHECK(a.completed == b.completed);
  CHECK(a.quarantined == b.quarantined);
  CHECK(a.worst_case.attempts == b.worst_case.attempts);
  CHECK(a.worst_case.time_ms == b.worst_case.time_ms);
}

void CheckSameSeries(const StormSeries& a, const StormSeries& b) {
  CHECK(a.bucket_ms == b.bucket_ms);
  CHECK(a.success == b.success);
  CHECK(a.outage == b.outage);
  CHECK(a.throttled == b.throttled);
  CHECK(a.retries == b.retries);
  CHECK(a.ready == b.ready);
  CHECK(a.delayed == b.delayed);
  CHECK(a.in_flight == b.in_flight);
  CHECK(a.quarantine == b.quarantine);
}

// A small storm drawn from `prng`: every option the world shares with the storm.
StormOptions SmallStorm(Prng& prng) {
  StormOptions o;
  o.jobs = 10 + prng.Below(41);
  o.workers = 1 + prng.Below(6);
  o.work_ms = 1 + prng.Below(60);
  o.lease_ms = o.work_ms + 1 + prng.Below(1000);
  o.max_attempts = 1 + prng.Below(7);
  o.seed = prng.Below(1000);
  const uint32_t kind = prng.Below(5);  // exponential more often than not
  o.backoff.kind = kind == 0 ? BackoffKind::kNone : kind == 1 ? BackoffKind::kFixed : BackoffKind::kExponential;
  o.backoff.base_ms = 1 + prng.Below(300);
  o.backoff.cap_ms = o.backoff.base_ms + prng.Below(5000);
  if (o.backoff.kind != BackoffKind::kNone) {
    o.backoff.jitter = static_cast<Jitter>(prng.Below(o.backoff.kind == BackoffKind::kExponential ? 4 : 3));
  }
  if (prng.Below(4) != 0) o.outage = StormOutage{prng.Below(400), prng.Below(3000)};
  if (prng.Below(3) == 0) o.capacity = StormCapacity{prng.Below(6), 1 + prng.Below(300)};
  if (prng.Below(2) == 0) o.arrival = {ArrivalKind::kRate, 1 + prng.Below(2000)};
  o.bucket_ms = prng.Below(3) == 0 ? 1 + prng.Below(200) : 0;
  return o;
}

// ---- a small JSON reader for the released fixtures ------------------------

struct Json {
  std::variant<std::nullptr_t, bool, double, std::string, std::vector<Json>, std::map<std::string, Json>> v;
  const Json& operator[](const std::string& key) const { return std::get<std::map<std::string, Json>>(v).at(key); }
  bool has(const std::string& key) const {
    const auto* m = std::get_if<std::map<std::string, Json>>(&v);
    return m != nullptr && m->count(key) > 0;
  }
  double number() const { return std::get<double>(v); }
  int64_t integer() const { return static_cast<int64_t>(std::get<double>(v)); }
  const std::string& string() const { return std::get<std::string>(v); }
  bool null() const { return std::holds_alternative<std::nullptr_t>(v); }
  std::vector<uint32_t> u32s() const {
    std::vector<uint32_t> out;
    for (const Json& j : std::get<std::vector<Json>>(v)) out.push_back(static_cast<uint32_t>(j.number()));
    return out;
  }
};

Json ParseJson(const std::string& text, size_t& at) {
  const auto skip = [&] {
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
  };
  skip();
  REQUIRE(at < text.size());
  const char c = text[at];
  if (c == '{') {
    std::map<std::string, Json> m;
    ++at;
    skip();
    if (text[at] == '}') {
      ++at;
      return Json{std::move(m)};
    }
    while (true) {
      Json key = ParseJson(text, at);
      skip();
      REQUIRE(text[at] == ':');
      ++at;
      m[key.string()] = ParseJson(text, at);
      skip();
      if (text[at++] == '}') return Json{std::move(m)};
    }
  }
  if (c == '[') {
    std::vector<Json> a;
    ++at;
    skip();
    if (text[at] == ']') {
      ++at;
      return Json{std::move(a)};
    }
    while (true) {
      a.push_back(ParseJson(text, at));
      skip();
      if (text[at++] == ']') return Json{std::move(a)};
    }
  }
  if (c == '"') {
    const size_t end = text.find('"', at + 1);  // the fixtures' strings hold no escapes
    Json s{text.substr(at + 1, end - at - 1)};
    at = end + 1;
    return s;
  }
  for (const auto& [word, value] :
       {std::pair<const char*, Json>{"null", Json{nullptr}}, {"true", Json{true}}, {"false", Json{false}}}) {
    const size_t n = std::strlen(word);
    if (text.compare(at, n, word) == 0) {
      at += n;
      return value;
    }
  }
  size_t used = 0;
  const double value = std::stod(text.substr(at, 40), &used);
  at += used;
  return Json{value};
}

// The JS API's StormOptions object, as the fixtures hold it.
StormOptions FromJs(const Json& j) {
  StormOptions o;
  o.jobs = j["jobs"].integer();
  if (j.has("arrival") && j["arrival"]["kind"].string() == "rate") {
    o.arrival = {ArrivalKind::kRate, j["arrival"]["perSecond"].integer()};
  }
  if (j.has("outage") && !j["outage"].null())
    o.outage = StormOutage{j["outage"]["startMs"].integer(), j["outage"]["durationMs"].integer()};
  if (j.has("capacity") && !j["capacity"].null()) {
    o.capacity = StormCapacity{j["capacity"]["perWindow"].integer(), j["capacity"]["windowMs"].integer()};
  }
  if (j.has("workers")) o.workers = j["workers"].integer();
  if (j.has("workMs")) o.work_ms = j["workMs"].integer();
  if (j.has("leaseMs")) o.lease_ms = j["leaseMs"].integer();
  o.max_attempts = j["maxAttempts"].integer();
  if (j.has("backoff")) {
    const Json& b = j["backoff"];
    if (b.has("kind")) o.backoff.kind = ParseBackoffKind(b["kind"].string()).value();
    if (b.has("baseMs")) o.backoff.base_ms = b["baseMs"].integer();
    if (b.has("capMs")) o.backoff.cap_ms = b["capMs"].integer();
    if (b.has("jitter")) o.backoff.jitter = ParseJitter(b["jitter"].string()).value();
  }
  if (j.has("seed")) o.seed = j["seed"].integer();
  if (j.has("bucketMs")) o.bucket_ms = j["bucketMs"].integer();
  return o;
}

TEST_CASE("storm set: the runs share the first one's bucket width, and each equals its own run") {
  StormOptions first;
  first.jobs = 2000;
  first.max_attempts = 6;
  first.outage = StormOutage{0, 3000};
  first.backoff = {BackoffKind::kExponential, 100, 5000, Jitter::kNone};
  StormOptions second = first;
  second.backoff.jitter = Jitter::kFull;
  second.jobs = 50'000;  // alone it would choose a coarser grid
  Result<StormSet> set = StormSet::Create({first, second});
  REQUIRE(set.ok());
  size_t steps = 0;
  for (;;) {
    Result<bool> done = set->Run(10'000);
    REQUIRE(done.ok());
    ++steps;
    if (done.value()) break;
  }
  CHECK(steps > 2);
  REQUIRE(set->current() == 2);
  const int64_t width = set->result(0).series.bucket_ms;
  CHECK(set->result(1).series.bucket_ms == width);
  StormOptions alone = second;
  alone.bucket_ms = width;
  Result<StormResult> own = RunStorm(alone);
  REQUIRE(own.ok());
  CHECK(own->summary.attempts == set->result(1).summary.attempts);
  CHECK(own->series.success == set->result(1).series.success);
  CHECK(own->series.quarantine == set->result(1).series.quarantine);

  // A refusal names its run, and nothing runs.
  StormOptions bad = first;
  bad.jobs = 1;
  size_t refused = 99;
  Result<StormSet> no = StormSet::Create({first, bad}, &refused);
  CHECK(no.status().code() == Code::kOutOfRange);
  CHECK(refused == 1);
}

}  // namespace

TEST_CASE("storm options are refused by name, with the range and what was given, nothing is created") {
  const Backoff exp{BackoffKind::kExponential, 100, 10'000, Jitter::kFull};
  const StormOptions good = Options(1000, 100, 10, 5, exp, StormOutage{0, 5000});
  REQUIRE(CheckStormOptions(good).ok());
  const auto with = [&](auto change) {
    StormOptions o = good;
    change(o);
    return Refusal(o);
  };
  CHECK(with([](StormOptions& o) { o.jobs = 9; }) == "jobs must be an integer from 10 to 1000000, got 9");
  CHECK(with([](StormOptions& o) { o.jobs = 1'000'001; }) == "jobs must be an integer from 10 to 1000000, got 1000001");
  CHECK(with([](StormOptions& o) {
          o.arrival = {ArrivalKind::kRate, 0};
        }) == "arrival.perSecond must be an integer from 1 to 10000000, got 0");
  CHECK(with([](StormOptions& o) {
          o.arrival = {static_cast<ArrivalKind>(7), 1};
        }) == "arrival.kind must be one of \"burst\", \"rate\", \"closed\", got 7");
  CHECK(with([](StormOptions& o) {
          o.outage = StormOutage{-1, 10};
        }) == "outage.startMs must be an integer from 0 to 86400000, got -1");
  CHECK(with([](StormOptions& o) {
          o.outage = StormOutage{0, 86'400'001};
        }) == "outage.durationMs must be an integer from 0 to 86400000, got 86400001");
  CHECK(with([](StormOptions& o) {
          o.capacity = StormCapacity{-1, 100};
        }) == "capacity.perWindow must be an integer from 0 to 1000000000, got -1");
  CHECK(with([](StormOptions& o) {
          o.capacity = StormCapacity{5, 0};
        }) == "capacity.windowMs must be an integer from 1 to 86400000, got 0");
  CHECK(with([](StormOptions& o) { o.workers = 0; }) == "workers must be an integer from 1 to 100000, got 0");
  CHECK(with([](StormOptions& o) { o.workers = 100'001; }) ==
        "workers must be an integer from 1 to 100000, got 100001");
  CHECK(with([](StormOptions& o) { o.work_ms = 0; }) == "workMs must be an integer from 1 to 86400000, got 0");
  CHECK(with([](StormOptions& o) { o.max_attempts = 0; }) == "maxAttempts must be an integer from 1 to 1000000, got 0");
  CHECK(with([](StormOptions& o) { o.backoff.base_ms = 0; }) ==
        "backoff.baseMs must be an integer from 1 to 86400000, got 0");
  CHECK(with([](StormOptions& o) { o.backoff.cap_ms = 50; }) ==
        "backoff.capMs must be an integer from backoff.baseMs (100) to 86400000, got 50");
  CHECK(with([](StormOptions& o) { o.backoff.kind = BackoffKind::kNone; }) ==
        "backoff.jitter must be \"none\" when backoff.kind is \"none\" (there is no delay to jitter), got \"full\"");
  CHECK(with([](StormOptions& o) {
          o.backoff = {BackoffKind::kFixed, 100, 100, Jitter::kDecorrelated};
        }) == "backoff.jitter \"decorrelated\" needs backoff.kind \"exponential\", got \"fixed\"");
  CHECK(with([](StormOptions& o) { o.seed = 4'294'967'296; }) ==
        "seed must be an integer from 0 to 4294967295, got 4294967296");
  CHECK(with([](StormOptions& o) { o.lease_ms = 0; }) == "leaseMs must be an integer from 1 to 86400000, got 0");
  CHECK(with([](StormOptions& o) { o.lease_ms = 10; }) ==
        "leaseMs must be an integer from workMs + 1 (11) to 86400000 (an attempt ends before its lease), got 10");
  CHECK(with([](StormOptions& o) { o.bucket_ms = -1; }) == "bucketMs must be an integer from 0 to 86400000, got -1");
  CHECK(with([](StormOptions& o) { o.bucket_ms = 86'400'001; }) ==
        "bucketMs must be an integer from 0 to 86400000, got 86400001");
  // Codes: ranges are OutOfRange, names and pairs InvalidArgument.
  StormOptions o = good;
  o.jobs = 5;
  CHECK(Storm::Create(o).status().code() == Code::kOutOfRange);
  CHECK(RunStorm(o).status().code() == Code::kOutOfRange);
  CHECK(ParseArrivalKind("storm").status().message() ==
        "arrival.kind must be one of \"burst\", \"rate\", \"closed\", got \"storm\"");
  CHECK(ParseArrivalKind("rate").value() == ArrivalKind::kRate);
  // The edges are accepted.
  o = good;
  o.jobs = 10;
  o.workers = 100'000;
  o.outage = StormOutage{86'400'000, 0};
  o.capacity = StormCapacity{0, 86'400'000};
  o.lease_ms = 11;
  o.bucket_ms = 86'400'000;
  CHECK(Storm::Create(o).ok());
}

TEST_CASE("the heap budget refuses a storm it has no room for, naming createStorm, and keeps nothing") {
  const size_t used = HeapBudget::used();
  HeapBudget::set_limit(used + 1000);
  Result<Storm> refused = Storm::Create(Options(1'000'000, 10, 10, 3, {}));
  HeapBudget::set_limit(static_cast<size_t>(-1));
  REQUIRE(!refused.ok());
  CHECK(refused.status().code() == Code::kResourceExhausted);
  CHECK(refused.status().message().rfind("createStorm needs ", 0) == 0);
  CHECK(HeapBudget::used() == used);
  {
    Storm storm = Storm::Create(Options(1000, 10, 10, 3, {})).value();
    CHECK(HeapBudget::used() > used);
  }
  CHECK(HeapBudget::used() == used);
}

TEST_CASE("a storm with no outage completes every job in one attempt, workers in rounds") {
  StormOptions o = Options(100, 10, 20, 3, {});
  const StormResult r = MustRun(o);
  CHECK(r.finished);
  CHECK(r.summary.attempts == 100);
  CHECK(r.summary.successes == 100);
  CHECK(r.summary.completed == 100);
  CHECK(r.summary.wasted_attempts == 0);
  CHECK(r.summary.drain_ms == 200);  // ten rounds of ten, 20 ms each
  CHECK(r.series.bucket_ms == 10);
  REQUIRE(r.series.length() == 21);
  for (size_t b = 0; b < 21; ++b) CHECK(r.series.success[b] == (b % 2 == 0 && b > 0 ? 10 : 0));
  // At the end of bucket 0 (10 ms): ten in flight, ninety ready.
  CHECK(r.series.ready[0] == 90);
  CHECK(r.series.in_flight[0] == 10);
  CHECK(r.series.ready[20] == 0);
  CHECK(r.summary.peak_retry_rate == 0);
  CHECK(r.summary.peak_rate_after_recovery == 1000);  // 10 attempts in a 10 ms bucket
}

TEST_CASE(
    "the outage fails attempts whose work finishes inside it, the capacity throttles successes past its window's") {
  // One worker, 10 ms per attempt, no backoff, 3 attempts: attempts finish at 10, 20, 30, …
  StormOptions o = Options(10, 1, 10, 3, {}, StormOutage{10, 20});  // down in [10, 30)
  StormResult r = MustRun(o);
  // Jobs 0 and 1 finish at 10 and 20 ms, inside it (requeued to the tail); the rest then flow.
  CHECK(r.summary.outage_failures == 2);
  CHECK(r.summary.completed == 10);
  CHECK(r.series.outage[1] == 1);
  CHECK(r.series.outage[2] == 1);
  CHECK(r.series.success[3] == 1);
  // Capacity: two successes per 50 ms window; the rest of each window are throttled.
  o = Options(10, 10, 10, 100, {});
  o.capacity = StormCapacity{2, 50};
  r = MustRun(o);
  CHECK(r.summary.completed == 10);
  CHECK(r.summary.throttled > 0);
  CHECK(r.series.success[1] == 2);    // the first attempts finish at 10 ms: two succeed
  CHECK(r.series.throttled[1] == 8);  // the other eight are throttled and retried at once
  CHECK(r.series.throttled[2] == 8);  // 20 ms: same window, already used up
  CHECK(r.summary.drain_ms == 200);   // two per window: windows 0..4 -> the last at 200 ms (window 4 starts at 200)
}

TEST_CASE("small storms equal the real Queue played by the world, bucket for bucket") {
  Prng prng(20'261'130);
  for (int run = 0; run < 300; ++run) {
    const StormOptions o = SmallStorm(prng);
    CAPTURE(run);
    CAPTURE(o.jobs);
    CAPTURE(o.workers);
    CAPTURE(o.work_ms);
    CAPTURE(o.max_attempts);
    CAPTURE(static_cast<int>(o.backoff.kind));
    CAPTURE(static_cast<int>(o.backoff.jitter));
    CAPTURE(o.seed);
    const StormResult storm = MustRun(o);
    const Tally queue = ViaQueue(o, storm.series.bucket_ms);
    CheckSameSummary(storm.summary, queue.summary);
    CheckSameSeries(storm.series, queue.series);
  }
}

TEST_CASE("conservation holds over many seeded runs: every job ends once, every attempt is counted once") {
  Prng prng(7);
  for (int run = 0; run < 200; ++run) {
    StormOptions o = SmallStorm(prng);
    o.jobs = 10 + prng.Below(20'000);
    o.workers = 1 + prng.Below(2000);
    CAPTURE(run);
    const StormResult r = MustRun(o);
    const StormSummary& s = r.summary;
    CHECK(s.completed + s.quarantined == s.jobs);
    CHECK(s.attempts == s.successes + s.failures);
    CHECK(s.failures == s.outage_failures + s.throttled);
    CHECK(s.wasted_attempts == s.failures);
    CHECK(s.successes == s.completed);  // a success always completes; every quarantine is exhausted
    CHECK(s.attempts >= s.jobs);
    CHECK(s.attempts <= s.jobs * static_cast<uint64_t>(o.max_attempts));
    uint64_t success = 0, outage = 0, throttled = 0, retries = 0;
    for (size_t b = 0; b < r.series.length(); ++b) {
      success += r.series.success[b];
      outage += r.series.outage[b];
      throttled += r.series.throttled[b];
      retries += r.series.retries[b];
      CHECK(r.series.ready[b] + r.series.delayed[b] + r.series.in_flight[b] + r.series.quarantine[b] <= s.jobs);
      CHECK(r.series.in_flight[b] <= static_cast<uint64_t>(o.workers));
    }
    CHECK(success == s.successes);
    CHECK(outage == s.outage_failures);
    CHECK(throttled == s.throttled);
    CHECK(retries == s.attempts - s.jobs);  // every attempt after a job's first
    const size_t last = r.series.length() - 1;
    CHECK(r.series.ready[last] + r.series.delayed[last] + r.series.in_flight[last] == 0);
    CHECK(r.series.quarantine[last] == s.quarantined);
    CHECK(static_cast<int64_t>(last) == s.drain_ms / r.series.bucket_ms);
  }
}

TEST_CASE("the same options give the same storm, run at once or in slices of any size") {
  StormOptions o =
      Options(20'000, 300, 10, 8, {BackoffKind::kExponential, 50, 4000, Jitter::kDecorrelated}, StormOutage{200, 2500});
  o.capacity = StormCapacity{400, 100};
  o.arrival = {ArrivalKind::kRate, 20'000};
  const StormResult once = MustRun(o);
  CHECK(once.summary.throttled > 0);
  CHECK(once.summary.outage_failures > 0);
  for (const uint64_t slice : {uint64_t{1}, uint64_t{7}, uint64_t{1000}, uint64_t{65'536}}) {
    CAPTURE(slice);
    Storm storm = Storm::Create(o).value();
    double progress = storm.Progress();
    CHECK(progress == 0);
    uint64_t calls = 0;
    while (!storm.Run(slice)) {
      ++calls;
      CHECK(storm.Progress() >= progress);
      progress = storm.Progress();
      if (calls % 5000 == 0) CHECK(!storm.Result().finished);  // a look mid-run changes nothing
    }
    CHECK(storm.Progress() == 1);
    CHECK(storm.events() <= (calls + 1) * slice);
    CHECK(storm.Run(slice));  // finished: nothing more happens
    const StormResult& sliced = storm.Result();
    CHECK(sliced.finished);
    CheckSameSummary(sliced.summary, once.summary);
    CheckSameSeries(sliced.series, once.series);
  }
  CHECK(Storm::Create(o).value().Run(0) == false);
}

TEST_CASE("mid-run, Result() shows the counters now and the series so far") {
  StormOptions o =
      Options(5000, 50, 10, 5, {BackoffKind::kExponential, 100, 2000, Jitter::kFull}, StormOutage{0, 1000});
  Storm storm = Storm::Create(o).value();
  CHECK(!storm.Run(20'000));
  const StormResult partial = storm.Result();
  CHECK(!partial.finished);
  CHECK(partial.summary.completed + partial.summary.quarantined < 5000);
  CHECK(partial.summary.attempts == partial.summary.successes + partial.summary.failures);
  const size_t last = partial.series.length() - 1;
  const uint64_t placed = uint64_t{partial.series.ready[last]} + partial.series.delayed[last] +
                          partial.series.in_flight[last] + partial.series.quarantine[last];
  CHECK(placed + partial.summary.completed == 5000);  // burst: every job has arrived
  storm.Run(UINT64_MAX);
  CHECK(storm.Result().finished);
}

TEST_CASE("the bucket width: the smallest candidate that keeps the series at most 2,000 long, or the one given") {
  // A long run: 120 s of outage and exponential backoff capped at 20 s.
  StormOptions o =
      Options(2000, 20, 10, 20, {BackoffKind::kExponential, 100, 20'000, Jitter::kFull}, StormOutage{0, 120'000});
  StormResult r = MustRun(o);
  const int64_t candidates[] = {10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10'000, 20'000, 50'000};
  const int64_t w = r.series.bucket_ms;
  CHECK(r.series.length() <= kStormAutoBuckets);
  CHECK(r.series.length() == static_cast<size_t>(r.summary.drain_ms / w) + 1);
  for (const int64_t c : candidates) {
    if (c < w)
      CHECK(static_cast<uint64_t>(r.summary.drain_ms / c) + 1 > kStormAutoBuckets);  // a narrower one is too long
  }
  CHECK(w > 10);
  // The same storm at a width given: the same totals, summed differently.
  o.bucket_ms = 7;
  const StormResult seven = MustRun(o);
  CHECK(seven.series.bucket_ms == 7);
  CHECK(seven.series.length() == static_cast<size_t>(seven.summary.drain_ms / 7) + 1);
  CHECK(seven.summary.attempts == r.summary.attempts);
  // A width that would need more than kMaxStormBuckets doubles until it fits.
  o.bucket_ms = 1;
  const StormResult one = MustRun(o);
  const int64_t doubled = one.series.bucket_ms;
  CHECK(one.series.length() <= kMaxStormBuckets);
  CHECK(one.series.length() == static_cast<size_t>(one.summary.drain_ms / doubled) + 1);
  CHECK((doubled & (doubled - 1)) == 0);                                  // 1 ms, doubled k times
  CHECK(one.summary.drain_ms >= static_cast<int64_t>(kMaxStormBuckets));  // this run is long enough to need it
  CHECK(doubled > 1);
  CHECK(static_cast<uint64_t>(one.summary.drain_ms / (doubled / 2)) + 1 > kMaxStormBuckets);
  // Merging loses nothing: 7 ms and 1 ms buckets add up to the same series at their common multiple.
  uint64_t a = 0, b = 0;
  for (uint32_t x : seven.series.success) a += x;
  for (uint32_t x : one.series.success) b += x;
  CHECK(a == b);
}

TEST_CASE("the worst case is the queue's bounded path for the same policy") {
  for (const Jitter j : {Jitter::kNone, Jitter::kFull, Jitter::kEqual, Jitter::kDecorrelated}) {
    StormOptions o = Options(100, 10, 10, 10, {BackoffKind::kExponential, 100, 10'000, j});
    Queue q = Queue::Create(StormPolicy(o)).value();
    const StormResult r = MustRun(o);
    CHECK(r.summary.worst_case.attempts == WorstCasePath(q.policy()).attempts);
    CHECK(r.summary.worst_case.time_ms == WorstCasePath(q.policy()).time_ms);
  }
  // 10 leases of 30 s, then 1000 (precondition's 1 s) + 200 + 400 + … + 6400 + 10000 + 10000 ms.
  CHECK(MustRun(Options(100, 10, 10, 10, {BackoffKind::kExponential, 100, 10'000, Jitter::kFull}))
            .summary.worst_case.time_ms == 333'600);
}

TEST_CASE("the herd preset: without jitter the post-recovery peak is at least 10x full jitter's") {
  // docs/storm.md, "The herd preset": 10,000 jobs at once, a 5 s outage from 0,
  // 10 attempts, exponential 100..10,000 ms, 10,000 workers x 10 ms.
  for (const int64_t seed : {1, 2, 3, 4, 5}) {
    CAPTURE(seed);
    StormOptions o =
        Options(10'000, 10'000, 10, 10, {BackoffKind::kExponential, 100, 10'000, Jitter::kNone}, StormOutage{0, 5000});
    o.seed = seed;
    const StormResult none = MustRun(o);
    o.backoff.jitter = Jitter::kFull;
    const StormResult full = MustRun(o);
    CHECK(none.series.bucket_ms == full.series.bucket_ms);
    CHECK(none.summary.peak_rate_after_recovery >= 10 * full.summary.peak_rate_after_recovery);
    // Without jitter the whole herd comes back at once: all 10,000 in one bucket.
    CHECK(none.summary.peak_rate_after_recovery == 10'000 * 1000.0 / static_cast<double>(none.series.bucket_ms));
  }
}

TEST_CASE(
    "the released storm fixtures: the same summaries and series, value for value (the Node suite checks WebAssembly)") {
  const std::string dir = std::string(DLQ_SOURCE_DIR) + "/tests/fixtures/storms/";
  std::ifstream list(dir + "fixtures.txt");
  REQUIRE(list.good());
  std::string name;
  int count = 0;
  while (std::getline(list, name)) {
    if (name.empty() || name[0] == '#') continue;
    CAPTURE(name);
    std::ifstream file(dir + name + ".json");
    REQUIRE(file.good());
    std::stringstream text;
    text << file.rdbuf();
    size_t at = 0;
    const Json fixture = ParseJson(text.str(), at);
    const StormResult r = MustRun(FromJs(fixture["options"]));
    const Json& s = fixture["summary"];
    CHECK(r.summary.attempts == static_cast<uint64_t>(s["attempts"].integer()));
    CHECK(r.summary.successes == static_cast<uint64_t>(s["successes"].integer()));
    CHECK(r.summary.outage_failures == static_cast<uint64_t>(s["outageFailures"].integer()));
    CHECK(r.summary.throttled == static_cast<uint64_t>(s["throttled"].integer()));
    CHECK(r.summary.peak_retry_rate == s["peakRetryRate"].number());
    CHECK(r.summary.peak_rate_after_recovery == s["peakRateAfterRecovery"].number());
    CHECK(r.summary.drain_ms == s["drainMs"].integer());
    CHECK(r.summary.completed == static_cast<uint64_t>(s["completed"].integer()));
    CHECK(r.summary.quarantined == static_cast<uint64_t>(s["quarantined"].integer()));
    CHECK(r.summary.worst_case.time_ms == s["worstCase"]["timeMs"].integer());
    const Json& series = fixture["series"];
    CHECK(r.series.bucket_ms == series["bucketMs"].integer());
    CHECK(r.series.length() == static_cast<size_t>(series["length"].integer()));
    CHECK(r.series.success == series["success"].u32s());
    CHECK(r.series.outage == series["outage"].u32s());
    CHECK(r.series.throttled == series["throttled"].u32s());
    CHECK(r.series.ready == series["ready"].u32s());
    CHECK(r.series.delayed == series["delayed"].u32s());
    CHECK(r.series.in_flight == series["inFlight"].u32s());
    CHECK(r.series.quarantine == series["quarantine"].u32s());
    ++count;
  }
  CHECK(count >= 3);
}

// ---- the cost estimate a page's guard reads (EstimateStormCost) ----

StormCost MustEstimate(const StormOptions& o) {
  Result<StormCost> r = EstimateStormCost(o);
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  return r.value();
}

TEST_CASE("storm cost: jobs × attempts, tightened by the time horizon, a capacity limit leaves the time open") {
  const Backoff none{BackoffKind::kNone, 1000, 60'000, Jitter::kNone};
  // The link that once ran for hours: a day's outage, a million attempts each.
  StormOptions day = Options(100'000, 100'000, 1, 1'000'000, none, StormOutage{0, 86'400'000});
  StormCost cost = MustEstimate(day);
  CHECK(cost.attempts == 100'000'000'000);
  REQUIRE(cost.horizon_ms.has_value());
  CHECK(*cost.horizon_ms == 86'400'002);  // the outage's end + one round of work + one more
  // A 5 s outage: the horizon bounds it, workers × (horizon / workMs + 1).
  StormOptions shortened = day;
  shortened.outage = StormOutage{0, 5000};
  cost = MustEstimate(shortened);
  CHECK(*cost.horizon_ms == 5002);
  CHECK(cost.attempts == 100'000ull * 5003);
  // The million-job preset: the budget binds (10^7 a run); the longest delay is the cap.
  const Backoff exp{BackoffKind::kExponential, 100, 10'000, Jitter::kFull};
  cost = MustEstimate(Options(1'000'000, 100'000, 10, 10, exp, StormOutage{0, 5000}));
  CHECK(cost.attempts == 10'000'000);
  CHECK(*cost.horizon_ms == 5000 + 10'000 + 10 * (10 + 1));
  // A rate: the last arrival counts; a fixed backoff's longest delay is max(base, cap) (the default cap).
  StormOptions rate = Options(1000, 10, 10, 3, Backoff{BackoffKind::kFixed, 100, 60'000, Jitter::kNone});
  rate.arrival = {ArrivalKind::kRate, 100};
  CHECK(*MustEstimate(rate).horizon_ms == 9990 + 60'000 + 10 * (100 + 1));
  // A capacity limit: no time bound, only jobs × attempts; perWindow 0 is unlimited.
  StormOptions limited = shortened;
  limited.capacity = StormCapacity{1000, 1000};
  cost = MustEstimate(limited);
  CHECK_FALSE(cost.horizon_ms.has_value());
  CHECK(cost.attempts == 100'000'000'000);
  limited.capacity = StormCapacity{0, 1000};
  CHECK(*MustEstimate(limited).horizon_ms == 5002);
}

TEST_CASE("storm cost: options the storm refuses are refused by name, as Create refuses them") {
  StormOptions o = Options(1000, 100, 10, 5, Backoff{}, StormOutage{0, 5000});
  o.jobs = 9;
  Result<StormCost> r = EstimateStormCost(o);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message() == Refusal(o));
  CHECK(r.status().message() == "jobs must be an integer from 10 to 1000000, got 9");
  o.jobs = 1000;
  o.work_ms = 40'000;  // not below the lease
  CHECK(EstimateStormCost(o).status().message() == Refusal(o));
}

TEST_CASE("storm cost: the bound holds, attempts and drain time, over seeded scenarios") {
  Prng rnd(2024);
  int tightened = 0;
  for (int i = 0; i < 60; ++i) {
    const auto pick = [&](uint64_t n) { return static_cast<int64_t>(rnd.Next() % n); };
    // One draw a statement: the order is the same with every compiler.
    Backoff backoff;
    backoff.kind = static_cast<BackoffKind>(pick(3));
    backoff.jitter = backoff.kind == BackoffKind::kExponential ? Jitter::kDecorrelated : Jitter::kNone;
    backoff.base_ms = 1 + pick(300);
    backoff.cap_ms = backoff.base_ms + pick(3000);
    StormOptions o;
    o.backoff = backoff;
    o.jobs = 10 + pick(2000);
    o.workers = 1 + pick(300);
    o.work_ms = 1 + pick(40);
    const bool long_budget = pick(3) == 0;  // a budget no outage here uses up
    o.max_attempts = 1 + pick(long_budget ? 100'000 : 20);
    o.outage = StormOutage{pick(1000), 0};
    o.outage->duration_ms = pick(6000);
    if (pick(2) == 0) o.arrival = {ArrivalKind::kRate, 1 + pick(4000)};
    if (pick(4) == 0) o.capacity = StormCapacity{1 + pick(200), 1 + pick(500)};
    const StormCost cost = MustEstimate(o);
    const StormResult r = MustRun(o);
    CHECK(r.summary.attempts <= cost.attempts);
    if (cost.horizon_ms) CHECK(r.summary.drain_ms <= *cost.horizon_ms);
    if (cost.attempts < static_cast<uint64_t>(o.jobs * o.max_attempts)) ++tightened;
  }
  CHECK(tightened > 5);
}

}  // namespace storm_test
