// The retry clock: the backoff formulas at their edges, jitter ranges and
// distributions, delayed jobs, leases counted by the queue, stale tokens, lease
// expiry, timer order, and the bounded path reached exactly.
#include <map>

#include "backoff.h"
#include "rules.h"
#include "test_util.h"

using namespace dlq;
using namespace dlq::test;

namespace clock_test {

namespace {

Backoff Exponential(int64_t base, int64_t cap, Jitter jitter = Jitter::kNone) {
  return Backoff{BackoffKind::kExponential, base, cap, jitter};
}

Queue MakeTimed(const Policy& policy) {
  Result<Queue> made = Queue::Create(policy);
  REQUIRE(made.ok());
  return std::move(made).value();
}

Policy Timed(int64_t max_attempts, Backoff backoff, int64_t lease_ms = 30'000, int64_t seed = 1) {
  Policy p;
  p.max_attempts = max_attempts;
  p.backoff = backoff;
  p.lease_ms = lease_ms;
  p.seed = seed;
  // The default precondition rule (a 1 s retry) would dominate the bounded path;
  // these tests are about the policy's own backoff, so that class does not retry.
  p.classes[FailureClass::kPrecondition].retry = false;
  return p;
}

}  // namespace

TEST_SUITE("backoff formulas") {
  TEST_CASE("none is 0, fixed is baseMs, exponential doubles up to the cap") {
    CHECK(UnjitteredDelay(Backoff{}, 1) == 0);
    CHECK(UnjitteredDelay(Backoff{BackoffKind::kFixed, 250, 60'000, Jitter::kNone}, 1) == 250);
    CHECK(UnjitteredDelay(Backoff{BackoffKind::kFixed, 250, 60'000, Jitter::kNone}, 999'999) == 250);
    const Backoff b = Exponential(100, 1000);
    CHECK(UnjitteredDelay(b, 1) == 100);  // attempt 1: baseMs * 2^0
    CHECK(UnjitteredDelay(b, 2) == 200);
    CHECK(UnjitteredDelay(b, 4) == 800);
    CHECK(UnjitteredDelay(b, 5) == 1000);                     // 1600, capped
    CHECK(UnjitteredDelay(Exponential(100, 100), 1) == 100);  // capMs == baseMs
    CHECK(UnjitteredDelay(Exponential(100, 100), 30) == 100);
  }

  TEST_CASE("2^(n-1) never overflows, whatever n") {
    const Backoff widest = Exponential(kMaxDelayMs, kMaxDelayMs);
    for (uint32_t n : {1u, 2u, 37u, 38u, 63u, 64u, 65u, 1'000'000u, 4'000'000'000u}) {
      CHECK(UnjitteredDelay(widest, n) == kMaxDelayMs);
      CHECK(UnjitteredDelay(Exponential(1, kMaxDelayMs), n) == (n <= 27 ? int64_t{1} << (n - 1) : kMaxDelayMs));
    }
  }

  TEST_CASE("each jitter stays in its range and spreads as it should") {
    struct Case {
      Jitter jitter;
      int64_t lo, hi;
      double mean;
    };
    const int64_t v = 1000;  // exponential 1000/1000: v = 1000 on every attempt
    const Case cases[] = {
        {Jitter::kNone, 1000, 1000, 1000.0},
        {Jitter::kFull, 0, 1000, 500.0},
        {Jitter::kEqual, 500, 1000, 750.0},
    };
    for (const Case& c : cases) {
      Prng prng(7, PrngStream::kJitter);
      int64_t min = INT64_MAX, max = INT64_MIN;
      double sum = 0;
      const int draws = 100'000;
      for (int i = 0; i < draws; ++i) {
        const int64_t d = NextDelay(Exponential(v, v, c.jitter), 1, 0, prng);
        min = std::min(min, d);
        max = std::max(max, d);
        sum += static_cast<double>(d);
      }
      CAPTURE(JitterName(c.jitter));
      CHECK(min >= c.lo);
      CHECK(max <= c.hi);
      CHECK(min <= c.lo + 2);  // the edges are reached (1 in 1001 per draw)
      CHECK(max >= c.hi - 2);
      CHECK(std::abs(sum / draws - c.mean) < 0.01 * static_cast<double>(v));
    }
  }

  TEST_CASE("decorrelated jitter draws from [baseMs, 3 * previous], capped") {
    const Backoff b = Exponential(100, 5000, Jitter::kDecorrelated);
    Prng prng(3, PrngStream::kJitter);
    int64_t previous = 0;
    int64_t max_seen = 0;
    for (int i = 0; i < 10'000; ++i) {
      const int64_t d = NextDelay(b, 1 + static_cast<uint32_t>(i % 5), previous, prng);
      CHECK(d >= 100);
      CHECK(d <= std::min<int64_t>(5000, 3 * (previous > 0 ? previous : 100)));
      max_seen = std::max(max_seen, d);
      previous = i % 5 == 4 ? 0 : d;  // a new job every five retries
    }
    CHECK(max_seen == 5000);  // the cap is reached and holds
    CHECK(MaxDelay(b, 1, 0) == 300);
    CHECK(MaxDelay(b, 2, 300) == 900);
    CHECK(MaxDelay(b, 5, 4000) == 5000);
  }

  TEST_CASE("the same seed gives the same delays, streams are independent of the base generator") {
    Prng a(42, PrngStream::kJitter), b(42, PrngStream::kJitter), base(42);
    CHECK(a.Next() == b.Next());
    CHECK(Prng(42, PrngStream::kJitter).Next() != base.Next());
    CHECK(Prng(1, PrngStream::kJitter).Next() == 0xBAA24E21D05C2935ULL);  // pinned: native and wasm agree
  }

  TEST_CASE("Decide: the one table of the attempt budget") {
    Prng prng(1);
    const Policy p = Timed(3, Exponential(100, 1000));
    CHECK(Decide(p, std::nullopt, 3, 0, prng).disposition == Disposition::kCompleted);
    const Decision permanent = Decide(p, FailureClass::kPermanent, 1, 0, prng);
    CHECK(permanent.disposition == Disposition::kQuarantined);
    CHECK(permanent.reason == Reason::kPermanent);
    const Decision retry = Decide(p, FailureClass::kTransient, 2, 0, prng);
    CHECK(retry.disposition == Disposition::kDelayed);
    CHECK(retry.delay_ms == 200);
    const Decision last = Decide(p, FailureClass::kTransient, 3, 0, prng);
    CHECK(last.disposition == Disposition::kQuarantined);
    CHECK(last.reason == Reason::kExhausted);
    CHECK(Decide(Timed(3, Backoff{}), FailureClass::kTransient, 1, 0, prng).disposition == Disposition::kRequeued);
    CHECK(Decide(Timed(1, Backoff{}), FailureClass::kTransient, 1, 0, prng).reason == Reason::kExhausted);
  }
}

TEST_SUITE("policy checks") {
  TEST_CASE("each field is refused by name with its range and the value given") {
    Policy p;
    p.backoff.base_ms = 0;
    CHECK(Policy::Check(p).message() == "backoff.baseMs must be an integer from 1 to 86400000, got 0");
    p = Policy{};
    p.backoff.cap_ms = 999;
    CHECK(Policy::Check(p).message() ==
          "backoff.capMs must be an integer from backoff.baseMs (1000) to 86400000, got 999");
    p = Policy{};
    p.lease_ms = 86'400'001;
    CHECK(Policy::Check(p).message() == "leaseMs must be an integer from 1 to 86400000, got 86400001");
    p = Policy{};
    p.seed = -1;
    CHECK(Policy::Check(p).message() == "seed must be an integer from 0 to 4294967295, got -1");
    p = Policy{};
    p.backoff.jitter = Jitter::kFull;
    CHECK(Policy::Check(p).code() == Code::kInvalidArgument);
    p.backoff.kind = BackoffKind::kFixed;
    CHECK(Policy::Check(p).ok());
    p.backoff.jitter = Jitter::kDecorrelated;
    CHECK(Policy::Check(p).message() ==
          "backoff.jitter \"decorrelated\" needs backoff.kind \"exponential\", got \"fixed\"");
    CHECK(kMaxAttemptsField.Check(2.5).message() == "maxAttempts must be an integer from 1 to 1000000, got 2.5");
    CHECK(Queue::Create(p).status().code() == Code::kInvalidArgument);
  }
}

TEST_SUITE("the clock") {
  TEST_CASE("a delay of 0 requeues at once, a delay parks the job until its due time, to the millisecond") {
    Queue q = MakeTimed(Timed(3, Backoff{BackoffKind::kFixed, 500, 500, Jitter::kNone}));
    REQUIRE(q.EnqueueMany({{"a", ""}, {"b", ""}}).ok());
    Attempt a = MustProcess(q, "transient", "db down");
    CHECK(a.disposition == Disposition::kDelayed);
    CHECK(a.delay_ms == 500);
    CHECK(a.due_at == 500);
    REQUIRE(q.view().Delayed().size() == 1);
    CHECK(q.view().Delayed()[0].due_at == 500);
    CHECK(Ids(q.view().Ready()) == Strings{"b"});
    REQUIRE(q.Advance(int64_t{499}).ok());
    CHECK(q.stats().delayed == 1);
    REQUIRE(q.Advance(int64_t{1}).ok());
    CHECK(q.stats().delayed == 0);
    CHECK(Ids(q.view().Ready()) == Strings{"b", "a"});  // the tail
    CHECK(q.stats().now == 500);
    const Event due = q.view().EventAt(q.view().event_count() - 1);
    CHECK(due.kind == EventKind::kDue);
    CHECK(due.time == 500);
    CHECK(RenderEvent(due) == "#5 step 1 at 500ms due \"a\" attempts 1");
  }

  TEST_CASE("advance fires timers in time order, ties in the order they were set, each at its own time") {
    Queue q = MakeTimed(Timed(3, Backoff{BackoffKind::kFixed, 100, 100, Jitter::kNone}, 100));
    REQUIRE(q.EnqueueMany({{"a", ""}, {"b", ""}, {"c", ""}}).ok());
    REQUIRE(q.Lease().ok());      // a: expires at 100
    MustProcess(q, "transient");  // b: due at 100, set after a's lease
    REQUIRE(q.Advance(int64_t{40}).ok());
    REQUIRE(q.Lease().ok());  // c: expires at 140
    REQUIRE(q.Advance(int64_t{1000}).ok());
    std::vector<std::string> fired;
    for (const Event& e : q.view().Timeline()) {
      if (e.kind == EventKind::kExpired || e.kind == EventKind::kDue) {
        fired.push_back(std::string(EventKindName(e.kind)) + " " + e.id + " @" + std::to_string(e.time));
      }
    }
    CHECK(fired == Strings{"expired a @100", "due b @100", "expired c @140", "due a @200", "due c @240"});
    CHECK(q.stats().now == 1040);
  }

  TEST_CASE("advanceToNext jumps to the earliest timer and fires everything due then, nothing pending is nullopt") {
    Queue q = MakeTimed(Timed(3, Backoff{BackoffKind::kFixed, 300, 300, Jitter::kNone}));
    CHECK_FALSE(q.AdvanceToNext().has_value());
    CHECK(q.stats().actions == 0);
    REQUIRE(q.EnqueueMany({{"a", ""}, {"b", ""}}).ok());
    MustProcess(q, "transient");
    MustProcess(q, "transient");
    const std::optional<int64_t> at = q.AdvanceToNext();
    REQUIRE(at.has_value());
    CHECK(*at == 300);
    CHECK(Ids(q.view().Ready()) == Strings{"a", "b"});
    CHECK_FALSE(q.AdvanceToNext().has_value());
  }

  TEST_CASE("advance refuses what is not a duration, and time past 2^53 - 1") {
    Queue q = MakeQueue(3);
    CHECK(q.Advance(int64_t{-1}).message() == "ms must be an integer from 0 to 9007199254740991, got -1");
    CHECK(q.Advance(1.5).message() == "ms must be an integer from 0 to 9007199254740991, got 1.5");
    REQUIRE(q.Advance(kMaxTimeMs - 5).ok());
    CHECK(q.Advance(int64_t{6}).code() == Code::kOutOfRange);
    CHECK(q.stats().now == kMaxTimeMs - 5);
    REQUIRE(q.Advance(int64_t{0}).ok());
  }
}

TEST_SUITE("leases") {
  TEST_CASE("a lease counts the attempt at once and hands out a fresh token") {
    Queue q = MakeTimed(Timed(3, Backoff{}, 1000));
    REQUIRE(q.Enqueue("a", "pay").ok());
    REQUIRE(q.Advance(int64_t{7}).ok());
    Result<LeaseGrant> g = q.Lease();
    REQUIRE(g.ok());
    CHECK(g->leased);
    CHECK(g->id == "a");
    CHECK(g->payload == "pay");
    CHECK(g->attempt == 1);
    CHECK(g->token == "lease-1");
    CHECK(g->leased_at == 7);
    CHECK(g->expires_at == 1007);
    CHECK(q.stats().ready == 0);
    REQUIRE(q.view().Leased().size() == 1);
    CHECK(q.view().Leased()[0].attempts == 1);  // counted before the worker did anything
    CHECK(q.view().Leased()[0].expires_at == 1007);
    Result<LeaseGrant> none = q.Lease();
    REQUIRE(none.ok());
    CHECK_FALSE(none->leased);
    Result<Attempt> done = q.Settle("lease-1", "success");
    REQUIRE(done.ok());
    CHECK(done->disposition == Disposition::kCompleted);
    CHECK(done->attempt == 1);
    CHECK(RenderEvent(q.view().EventAt(1)) == "#2 step 1 at 7ms leased \"a\" 1/3 lease lease-1 until 1007");
    CHECK(RenderEvent(q.view().EventAt(2)) == "#3 step 1 at 7ms attempt \"a\" 1/3 success lease lease-1 -> completed");
  }

  TEST_CASE("stale tokens are refused by name, after the outcome and error text, and change nothing") {
    Queue q = MakeTimed(Timed(3, Backoff{}, 100));
    REQUIRE(q.EnqueueMany({{"a", ""}, {"b", ""}}).ok());
    REQUIRE(q.Lease().ok());  // lease-1: a
    REQUIRE(q.Lease().ok());  // lease-2: b
    REQUIRE(q.Settle("lease-1", "success").ok());
    REQUIRE(q.Advance(int64_t{100}).ok());  // lease-2 expires
    const std::string before = q.view().TimelineText();
    const QueueStats stats = q.stats();
    CHECK(q.Settle("lease-9", "success").status().message() == "token \"lease-9\" names no lease this queue granted");
    CHECK(q.Settle("nonsense", "success").status().code() == Code::kStaleLease);
    CHECK(q.Settle("lease-01", "success").status().code() == Code::kStaleLease);
    CHECK(q.Settle("lease-1", "success").status().message() == "lease lease-1 for job \"a\" was already settled");
    CHECK(q.Settle("lease-2", "success").status().message() ==
          "lease lease-2 for job \"b\" expired at 100 ms; its attempt was counted");
    CHECK(q.Settle("lease-1", "maybe").status().code() == Code::kInvalidArgument);  // the outcome first
    CHECK(q.Settle("lease-1", "success", std::string(kMaxErrorTextBytes + 1, 'e')).status().code() == Code::kTooLarge);
    CHECK(q.view().TimelineText() == before);
    CHECK(q.stats().actions == stats.actions);
  }

  TEST_CASE("an expired lease keeps its attempt and is decided as a transient failure, to exhaustion") {
    Queue q = MakeTimed(Timed(2, Backoff{}, 100));
    REQUIRE(q.Enqueue("a", "").ok());
    REQUIRE(q.Lease().ok());
    REQUIRE(q.Advance(int64_t{99}).ok());
    CHECK(q.stats().leased == 1);
    REQUIRE(q.Advance(int64_t{1}).ok());
    CHECK(q.stats().leased == 0);
    REQUIRE(q.view().Ready().size() == 1);
    CHECK(q.view().Ready()[0].attempts == 1);
    const Event expired = q.view().EventAt(2);
    CHECK(expired.kind == EventKind::kExpired);
    CHECK(expired.error == "lease-1 expired after 100 ms without a settle");
    CHECK(RenderEvent(expired) == "#3 step 1 at 100ms expired \"a\" 1/2 lease lease-1 -> requeued");
    REQUIRE(q.Lease().ok());
    REQUIRE(q.AdvanceToNext().has_value());
    REQUIRE(q.view().Quarantined().size() == 1);
    CHECK(q.view().Quarantined()[0].reason == Reason::kExhausted);
    CHECK(q.view().Quarantined()[0].attempts == 2);
    CHECK(q.view().Quarantined()[0].last_error == "lease-2 expired after 100 ms without a settle");
  }

  TEST_CASE("process() is a lease and its settle at one instant: lesson 1 unchanged") {
    Queue q = MakeQueue(3);
    REQUIRE(q.Enqueue("a", "").ok());
    MustProcess(q, "transient", "x");
    CHECK(q.view().TimelineText() ==
          "#1 step 0 enqueued \"a\" payload 0 bytes\n"
          "#2 step 1 attempt \"a\" 1/3 transient error \"x\" -> requeued\n"
          "#3 step 1 requeued \"a\" attempts 1\n");
    CHECK(q.view().EventAt(1).action == 2);
  }
}

TEST_SUITE("the bounded path") {
  // Leases every job the moment it is ready and never settles: every lease runs
  // to its expiry. Returns {attempts, time from the first lease to quarantine}.
  WorstCase Simulate(const Policy& p) {
    Queue q = MakeTimed(p);
    REQUIRE(q.Enqueue("j", "").ok());
    REQUIRE(q.Advance(int64_t{12345}).ok());  // start at an arbitrary time
    const int64_t start = q.stats().now;
    while (q.stats().quarantined == 0) {
      if (q.stats().ready > 0) REQUIRE(q.Lease().ok());
      REQUIRE(q.AdvanceToNext().has_value());
    }
    return {q.view().Quarantined()[0].attempts, q.stats().now - start};
  }

  TEST_CASE("worstCase() is reached exactly by a simulation of leases that all expire") {
    const Policy cases[] = {
        Timed(1, Backoff{}, 1000),
        Timed(4, Backoff{}, 1000),
        Timed(4, Backoff{BackoffKind::kFixed, 250, 250, Jitter::kNone}, 1000),
        Timed(6, Exponential(100, 1000), 500),
        Timed(5, Exponential(100, 100), 30'000),
    };
    for (const Policy& p : cases) {
      const WorstCase predicted = WorstCasePath(p);
      const WorstCase simulated = Simulate(p);
      CAPTURE(p.max_attempts);
      CHECK(predicted.attempts == simulated.attempts);
      CHECK(predicted.time_ms == simulated.time_ms);
    }
    // 6 leases of 500 ms + delays 100, 200, 400, 800, 1000.
    CHECK(WorstCasePath(Timed(6, Exponential(100, 1000), 500)).time_ms == 3000 + 2500);
  }

  TEST_CASE("worstCase() counts every class that may still retry: the default precondition rule's 1 s included") {
    Policy p;
    p.max_attempts = 4;
    p.lease_ms = 100;
    // Attempt 1 may fail as a precondition (a 1,000 ms retry); later attempts only
    // by classes with the policy's budget (no backoff here).
    CHECK(WorstCasePath(p).time_ms == 4 * 100 + 1000);
    CHECK(WorstCasePath(p).attempts == 4);
    // The worst path, played: a precondition failure after a lease ran almost to
    // its expiry, then three leases that expire.
    Result<Queue> made = Queue::Create(p);
    REQUIRE(made.ok());
    Queue q = std::move(made).value();
    REQUIRE(q.Enqueue("j", "").ok());
    REQUIRE(q.Lease().ok());
    REQUIRE(q.Advance(int64_t{99}).ok());
    REQUIRE(q.Settle("lease-1", "precondition").ok());  // due at 1099
    REQUIRE(q.AdvanceToNext().has_value());
    REQUIRE(q.Lease().ok());
    REQUIRE(q.AdvanceToNext().has_value());  // expires at 1199
    REQUIRE(q.Lease().ok());
    REQUIRE(q.AdvanceToNext().has_value());  // 1299
    REQUIRE(q.Lease().ok());
    REQUIRE(q.AdvanceToNext().has_value());  // 1399: the fourth attempt, exhausted
    REQUIRE(q.stats().quarantined == 1);
    CHECK(q.stats().now == 1399);  // one short of 1400: the first lease was settled 1 ms early
    // A class whose own budget is larger than the policy's is capped by it.
    p.classes[FailureClass::kPrecondition].max_attempts = 10;
    CHECK(WorstCasePath(p).attempts == 4);
    // With no class retrying, one attempt.
    for (ClassRule& rule : p.classes.rules) rule.retry = false;
    CHECK(WorstCasePath(p).attempts == 1);
    CHECK(WorstCasePath(p).time_ms == 100);
  }

  TEST_CASE(
      "worstCase() under the teaching switches: decide-before-count's extra attempt, count-in-body's endless crash "
      "loop") {
    // Decide before counting: a budget of 4 gives a 5th attempt, and a 4th delay before it.
    Policy before = Timed(4, Exponential(100, 1000), 500);
    before.decide_before_count = true;
    const WorstCase w = WorstCasePath(before);
    CHECK(w.attempts == 5);
    CHECK(w.time_ms == 5 * 500 + 100 + 200 + 400 + 800);
    CHECK_FALSE(w.unbounded);
    const WorstCase played = Simulate(before);
    CHECK(played.attempts == w.attempts);
    CHECK(played.time_ms == w.time_ms);
    // A budget of 1 under it: one retry, so two attempts.
    before.max_attempts = 1;
    CHECK(WorstCasePath(before).attempts == 2);
    CHECK(Simulate(before).attempts == 2);
    // Count in the body: a crash is never counted, so a job whose worker keeps crashing loops forever.
    Policy body = Timed(4, Exponential(100, 1000), 500);
    body.count_in_body = true;
    CHECK(WorstCasePath(body).unbounded);
    Queue q = MakeTimed(body);
    REQUIRE(q.Enqueue("j", "").ok());
    for (int i = 0; i < 50; ++i) {
      if (q.stats().ready > 0) REQUIRE(q.Lease().ok());
      REQUIRE(q.AdvanceToNext().has_value());
    }
    CHECK(q.stats().quarantined == 0);  // 25 leases expired, and it is still in flight
    // ... unless the crash class does not retry (a crash quarantines at once) or the system is bullmq (its stall
    // budget).
    body.classes[FailureClass::kCrash].retry = false;
    CHECK_FALSE(WorstCasePath(body).unbounded);
    body.classes[FailureClass::kCrash] = Policy{}.classes[FailureClass::kCrash];
    body.system = System::kBullMq;
    CHECK_FALSE(WorstCasePath(body).unbounded);
    CHECK_FALSE(WorstCasePath(Timed(4, Exponential(100, 1000), 500)).unbounded);
  }

  TEST_CASE("the clock and every timer stop at the end of virtual time, 2^53 - 1 ms") {
    Policy p = Timed(3, Backoff{BackoffKind::kFixed, 1000, 1000, Jitter::kNone}, 30'000);
    Result<Queue> made = Queue::Create(p);
    REQUIRE(made.ok());
    Queue q = std::move(made).value();
    REQUIRE(q.EnqueueMany({{"a", ""}, {"b", ""}}).ok());
    REQUIRE(q.Advance(kMaxTimeMs - 10).ok());
    Result<LeaseGrant> g = q.Lease();
    REQUIRE(g.ok());
    CHECK(g->expires_at == kMaxTimeMs);
    Attempt b = MustProcess(q, "transient");
    CHECK(b.due_at == kMaxTimeMs);
    CHECK(b.delay_ms == 10);
    while (q.AdvanceToNext().has_value()) {
      CHECK(q.stats().now <= kMaxTimeMs);
    }
    CHECK(q.stats().now == kMaxTimeMs);
  }

  TEST_CASE("jittered simulations stay within worstCase(), and the extremes are as large as a million attempts allow") {
    for (Jitter j : {Jitter::kFull, Jitter::kEqual, Jitter::kDecorrelated}) {
      for (int64_t seed = 0; seed < 20; ++seed) {
        const Policy p = Timed(6, Exponential(100, 2000, j), 500, seed);
        CHECK(Simulate(p).time_ms <= WorstCasePath(p).time_ms);
      }
    }
    const WorstCase huge = WorstCasePath(Timed(1'000'000, Exponential(kMaxDelayMs, kMaxDelayMs), kMaxDelayMs));
    CHECK(huge.attempts == 1'000'000);
    CHECK(huge.time_ms == (int64_t{2} * 1'000'000 - 1) * kMaxDelayMs);
  }
}

TEST_SUITE("the bounded path's terms") {
  // The sum the terms state: attempts (and bullmq's stalls) leases plus each run of delays.
  int64_t SumOfTerms(const WorstCase& w) {
    int64_t sum = (static_cast<int64_t>(w.attempts) + w.stalls) * w.lease_ms;
    for (const WorstDelay& d : w.delays) sum += (d.last_attempt - d.first_attempt + 1) * d.delay_ms;
    return sum;
  }

  TEST_CASE("lesson 2's bounded path: three 1 s leases, then 1 s and 2 s from the policy's backoff") {
    const WorstCase w = WorstCasePath(Timed(3, Exponential(1000, 4000), 1000));
    CHECK(w.time_ms == 6000);
    CHECK(w.lease_ms == 1000);
    CHECK(w.attempts_class == FailureClass::kTransient);
    REQUIRE(w.delays.size() == 2);
    CHECK(w.delays[0] == WorstDelay{1, 1, 1000, FailureClass::kTransient, false});
    CHECK(w.delays[1] == WorstDelay{2, 2, 2000, FailureClass::kTransient, false});
    CHECK(SumOfTerms(w) == w.time_ms);
  }

  TEST_CASE("the precondition class's own 1 s is named where it is the longest wait") {
    // Lesson 2's confusing card: the default 30 s lease and a 100 ms backoff capped at 400 ms.
    Policy p = Timed(5, Exponential(100, 400), 30'000);
    p.classes[FailureClass::kPrecondition] = Policy{}.classes[FailureClass::kPrecondition];  // the default rule again
    const WorstCase w = WorstCasePath(p);
    CHECK(w.time_ms == 5 * 30'000 + 1000 + 200 + 400 + 400);
    REQUIRE(w.delays.size() == 3);
    CHECK(w.delays[0] == WorstDelay{1, 1, 1000, FailureClass::kPrecondition, true});
    CHECK(w.delays[1] == WorstDelay{2, 2, 200, FailureClass::kTransient, false});
    CHECK(w.delays[2] == WorstDelay{3, 4, 400, FailureClass::kTransient, false});  // the cap: one run of two
    CHECK(SumOfTerms(w) == w.time_ms);
  }

  TEST_CASE("a capped tail is one run, so a million attempts give a few terms, the sum always holds") {
    const WorstCase huge = WorstCasePath(Timed(1'000'000, Exponential(100, 60'000), 30'000));
    CHECK(huge.delays.size() < 16);
    CHECK(huge.delays.back().last_attempt == 999'999);
    CHECK(SumOfTerms(huge) == huge.time_ms);
    for (Jitter j : {Jitter::kNone, Jitter::kFull, Jitter::kEqual, Jitter::kDecorrelated}) {
      for (int64_t n : {1, 2, 7, 40}) {
        const WorstCase w = WorstCasePath(Timed(n, Exponential(100, 5000, j), 500));
        CAPTURE(n);
        CHECK(SumOfTerms(w) == w.time_ms);
        if (!w.delays.empty()) {
          CHECK(w.delays.front().first_attempt == 1);
          CHECK(w.delays.back().last_attempt == w.attempts - 1);
        }
      }
    }
    // No class retries: one attempt, no delays.
    Policy p = Timed(4, Backoff{}, 100);
    for (ClassRule& rule : p.classes.rules) rule.retry = false;
    CHECK(WorstCasePath(p).delays.empty());
    CHECK(WorstCasePath(p).attempts == 1);
  }
}

}  // namespace clock_test
