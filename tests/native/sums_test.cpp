// "Every total is its terms": a number the site shows as a sum comes from the core
// with its terms, and the terms add up to it. Checked over thousands of random
// policies under every system, drawn from our own PRNG (prng.h), so a failure
// names a policy that can be rebuilt from its seed.
#include "test_util.h"

namespace dlq::sums_test {
namespace {

constexpr System kSystems[] = {System::kLab,         System::kRabbitMqQuorum, System::kBullMq,     System::kSidekiq,
                               System::kSqs,         System::kPubSub,         System::kServiceBus, System::kSpringKafka,
                               System::kKafkaConnect};
constexpr int kPoliciesPerSystem = 3000;

int64_t Between(Prng& r, int64_t lo, int64_t hi) {  // inclusive; hi - lo < 2^32
  return lo + static_cast<int64_t>(r.Below(static_cast<uint32_t>(hi - lo + 1)));
}

// A small value most of the time, sometimes one near the field's top.
int64_t Sized(Prng& r, int64_t lo, int64_t small, int64_t hi) {
  return r.Below(8) == 0 ? Between(r, lo, hi) : Between(r, lo, std::min(small, hi));
}

Backoff RandomBackoff(Prng& r, System system) {
  Backoff b;
  b.kind = static_cast<BackoffKind>(r.Below(3));
  b.base_ms = Sized(r, 1, 5000, kMaxDelayMs);
  b.cap_ms = Sized(r, b.base_ms, b.base_ms * 40, kMaxDelayMs);
  if (system == System::kServiceBus) b.kind = BackoffKind::kNone;  // abandon redelivers at once: no backoff
  if (b.kind == BackoffKind::kNone) return b;
  const Jitter choices[] = {Jitter::kNone, Jitter::kFull, Jitter::kEqual, Jitter::kDecorrelated, Jitter::kBullMq};
  b.jitter = choices[r.Below(5)];
  if (b.jitter == Jitter::kDecorrelated && b.kind != BackoffKind::kExponential) b.jitter = Jitter::kFull;
  if (b.jitter == Jitter::kBullMq) b.jitter_permille = Between(r, 1, 1000);
  if (system == System::kSpringKafka || system == System::kKafkaConnect)
    b.jitter = Jitter::kNone, b.jitter_permille = Backoff{}.jitter_permille;  // none in Spring; Connect draws its own
  return b;
}

// A policy Policy::Check accepts under `system`: only that system's own settings move.
Policy RandomPolicy(Prng& r, System system) {
  Policy p;
  p.system = system;
  p.max_attempts = Sized(r, 1, 12, 2000);
  p.lease_ms = Sized(r, 1, 60'000, system == System::kServiceBus ? 300'000 : kMaxDelayMs);  // a lock: 5 min at most
  p.backoff = RandomBackoff(r, system);
  for (int c = 0; c < kFailureClassCount; ++c) {
    ClassRule& rule = p.classes.rules[c];
    if (r.Below(3) != 0) continue;  // mostly the article's table
    rule.retry = r.Below(4) != 0;
    rule.max_attempts = r.Below(2) == 0 ? 0 : Sized(r, 1, 12, 2000);
    rule.own_backoff = r.Below(2) == 0;
    if (rule.own_backoff) rule.backoff = RandomBackoff(r, system);
  }
  p.decide_before_count = r.Below(6) == 0;
  p.count_in_body = r.Below(6) == 0;
  switch (system) {
    case System::kBullMq: p.max_stalled_count = Sized(r, 0, 3, 1000); break;
    case System::kSidekiq:
      p.retry_in_jitter = r.Below(2) == 0;
      p.retry_every_error = r.Below(3) == 0;
      if (r.Below(3) == 0) p.retry_for_ms = Sized(r, 1, 600'000, 10 * kMaxDelayMs);  // 7.1.3's window: the count unread
      break;
    case System::kRabbitMqQuorum:  // now and then a version's default: a budget of 21 or 1,000,000
      p.delivery_limit = r.Below(8) == 0 ? static_cast<DeliveryLimit>(r.Below(4)) : DeliveryLimit::kExplicit;
      // now and then RabbitMQ 4.3's delayed retry (a 4.x quorum queue's): its own delays, min(min x count, max)
      if (r.Below(4) == 0 &&
          (p.delivery_limit == DeliveryLimit::kExplicit || p.delivery_limit == DeliveryLimit::kUnset4)) {
        p.delayed_retry_type = static_cast<DelayedRetryType>(1 + r.Below(3));
        p.delayed_retry_min_ms = Sized(r, 1, 5000, kMaxDelayMs);
        p.delayed_retry_max_ms = Sized(r, p.delayed_retry_min_ms, p.delayed_retry_min_ms * 40, kMaxDelayMs);
      }
      // now and then the consumer's x-opt-delivery-time (the backoff's delay first; not beside a nack)
      if ((p.delivery_limit == DeliveryLimit::kExplicit || p.delivery_limit == DeliveryLimit::kUnset4) &&
          r.Below(4) == 0) {
        p.delivery_time = DeliveryTime::kBackoff;
      }
      // now and then 4.3's uncounted nack (not beside a delayed retry of returns): an unbounded worst case
      if (r.Below(6) == 0 && p.delivery_time == DeliveryTime::kBroker &&
          (p.delivery_limit == DeliveryLimit::kExplicit || p.delivery_limit == DeliveryLimit::kUnset4) &&
          (p.delayed_retry_type == DelayedRetryType::kDisabled || p.delayed_retry_type == DelayedRetryType::kFailed)) {
        p.requeue_with = RequeueWith::kNack;
      }
      break;
    case System::kLab: p.delay_at = static_cast<DelayAt>(r.Below(3)); break;
    case System::kSqs: break;
    case System::kPubSub:  // max_delivery_attempts 5..100, ack deadline 10..600 s, exponential <= 600 s or none
      p.max_attempts = Between(r, 5, 100);
      p.lease_ms = Between(r, 10'000, 600'000);
      p.backoff.kind = r.Below(2) == 0 ? BackoffKind::kNone : BackoffKind::kExponential;
      p.backoff = Backoff{};
      p.backoff.kind = r.Below(2) == 0 ? BackoffKind::kNone : BackoffKind::kExponential;
      p.backoff.base_ms = Between(r, 1, 600'000);
      p.backoff.cap_ms = Between(r, p.backoff.base_ms, 600'000);
      p.dead_letter_topic = r.Below(4) == 0 ? DeadLetterTopic::kNone : DeadLetterTopic::kSet;
      break;
    case System::kServiceBus: break;
    case System::kSpringKafka:  // blocking holds the partition; retry topics keep no order
      p.retry_topics = r.Below(2) == 0;
      p.ordering = !p.retry_topics && r.Below(2) == 0 ? Ordering::kStall : Ordering::kNone;
      p.multiplier_permille = Sized(r, 1000, 3000, 10'000);
      p.no_recoverer = r.Below(4) == 0;
      break;
    case System::kKafkaConnect:  // errors.retry.timeout (0: no retry, up to 30 days) and errors.tolerance
      p.retry_timeout_ms = r.Below(4) == 0 ? 0 : Sized(r, 1, 600'000, 30 * 86'400'000LL);
      p.tolerance_all = r.Below(2) == 0;
      p.dlq_topic = p.tolerance_all && r.Below(2) == 0;
      break;
  }
  return p;
}

std::string Describe(System system, int i) { return std::string(SystemName(system)) + " policy " + std::to_string(i); }

TEST_CASE("the worst case is its terms: (attempts + stalls) leases plus each run of delays, under every system") {
  Prng r(20261203);
  for (System system : kSystems) {
    int checked = 0, with_stalls = 0;
    for (int i = 0; i < kPoliciesPerSystem; ++i) {
      const Policy p = RandomPolicy(r, system);
      const Status accepted = Policy::Check(p);
      REQUIRE_MESSAGE(accepted.ok(), (Describe(system, i) + ": " + accepted.ToString()));
      const WorstCase w = WorstCasePath(p);
      int64_t sum = (static_cast<int64_t>(w.attempts) + w.stalls) * w.lease_ms;
      uint32_t next = 1;  // the runs of delays cover attempts 1 … attempts - 1, in order, once each
      for (const WorstDelay& d : w.delays) {
        CHECK_MESSAGE(d.first_attempt == next, Describe(system, i));
        CHECK_MESSAGE(d.first_attempt <= d.last_attempt, Describe(system, i));
        sum += static_cast<int64_t>(d.last_attempt - d.first_attempt + 1) * d.delay_ms;
        next = d.last_attempt + 1;
      }
      CHECK_MESSAGE(next == std::max<uint32_t>(w.attempts, 1), Describe(system, i));
      CHECK_MESSAGE(w.lease_ms == p.lease_ms, Describe(system, i));
      CHECK_MESSAGE(sum == w.time_ms, (Describe(system, i) + ": terms " + std::to_string(sum) + " ms, total " +
                                       std::to_string(w.time_ms) + " ms"));
      CHECK_MESSAGE(w.stalls == (system == System::kBullMq ? p.max_stalled_count : 0), Describe(system, i));
      if (w.stalls > 0) ++with_stalls;
      ++checked;
    }
    CHECK(checked == kPoliciesPerSystem);
    if (system == System::kBullMq) CHECK(with_stalls > kPoliciesPerSystem / 2);
  }
}

TEST_CASE("the BullMQ import's worst case: 8 leases, 1 stall and 1 + 2 + … + 64 s add up to the total shown") {
  Policy p;
  p.system = System::kBullMq;
  p.max_attempts = 8;
  p.backoff = {BackoffKind::kExponential, 1000, 1000, Jitter::kNone};
  const WorstCase w = WorstCasePath(p);
  CHECK(w.attempts == 8);
  CHECK(w.stalls == 1);
  CHECK(w.time_ms == 9 * 30'000 + 127'000);  // 6 min 37 s: the stall's lease is one of the terms now
}

TEST_CASE("an exact retry schedule's total is its rows: attempts × workMs plus every delay, under every system") {
  Prng r(7);
  for (System system : kSystems) {
    int exact = 0;
    // A quarter as many under the sanitizers: each policy is checked alike.
    for (int i = 0; i < kPoliciesPerSystem / (test::kSanitized ? 12 : 3); ++i) {
      Policy p = RandomPolicy(r, system);
      p.max_attempts = std::min<int64_t>(p.max_attempts, kScheduleRows);  // every row shown
      ScheduleOptions options;
      options.work_ms = Sized(r, 0, 500, 100'000);
      options.samples = 5;
      Result<ScheduleTable> made = RetrySchedule(p, options);
      REQUIRE_MESSAGE(made.ok(), (Describe(system, i) + ": " + made.status().ToString()));
      const ScheduleTable& t = made.value();
      if (t.attempts > kScheduleRows) continue;  // a delivery limit left to the version: rows past 50 are not kept
      REQUIRE(t.rows.size() == t.attempts);
      CHECK(t.attempt_ms == std::min(options.work_ms, p.lease_ms));  // the queue expires a lease first
      int64_t start = 0;
      for (const ScheduleRow& row : t.rows) {
        if (t.exact) CHECK_MESSAGE(row.start.median == start, Describe(system, i));
        start += t.attempt_ms + (row.retried ? row.delay.median : 0);
      }
      if (!t.exact) continue;
      ++exact;
      CHECK_MESSAGE(t.total.median == start, (Describe(system, i) + ": rows add to " + std::to_string(start) +
                                              " ms, total " + std::to_string(t.total.median) + " ms"));
      CHECK_MESSAGE(t.total.median == t.last.start.median + t.attempt_ms, Describe(system, i));
    }
    CHECK(exact > 0);
  }
}

}  // namespace
}  // namespace dlq::sums_test
