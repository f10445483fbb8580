// The bounded path's closed form (backoff.cpp, WorstCasePath): once every retrying
// class's largest delay has settled (SystemRules::MaxRetryDelaySettlesAt), a run of equal
// waits is added in one step. Checked against the step-by-step walk, one attempt at a
// time, on thousands of random policies under every system, and the settle point itself
// against MaxRetryDelay past it.
#include "registry.h"
#include "test_util.h"

namespace dlq::worst_case_test {
namespace {

constexpr System kSystems[] = {System::kLab,         System::kRabbitMqQuorum, System::kBullMq, System::kSidekiq,
                               System::kSqs,         System::kServiceBus,     System::kPubSub, System::kSpringKafka,
                               System::kKafkaConnect};

// A backoff Pub/Sub's retry_policy can say (Policy::Check, CheckPubSub): none (immediate
// redelivery) or exponential between minimum_backoff and maximum_backoff (<= 600 s), no jitter.
Backoff PubSubBackoff(Backoff b) {
  if (b.kind == BackoffKind::kFixed) b.kind = BackoffKind::kExponential;
  b.jitter = Jitter::kNone;
  b.jitter_permille = Backoff{}.jitter_permille;
  b.cap_ms = std::min<int64_t>(b.cap_ms, kPubSubMaxBackoffMs);
  b.base_ms = std::min(b.base_ms, b.cap_ms);
  return b;
}
// Spring Kafka's FixedBackOff and ExponentialBackOff draw no jitter (CheckSpringKafka).
Backoff NoJitter(Backoff b) {
  b.jitter = Jitter::kNone;
  b.jitter_permille = Backoff{}.jitter_permille;
  return b;
}

int64_t Between(Prng& r, int64_t lo, int64_t hi) {  // inclusive; hi - lo < 2^32
  return lo + static_cast<int64_t>(r.Below(static_cast<uint32_t>(hi - lo + 1)));
}
int64_t Sized(Prng& r, int64_t lo, int64_t small, int64_t hi) {
  return r.Below(8) == 0 ? Between(r, lo, hi) : Between(r, lo, std::min(small, hi));
}

Backoff RandomBackoff(Prng& r) {
  Backoff b;
  b.kind = static_cast<BackoffKind>(r.Below(3));
  b.base_ms = Sized(r, 1, 5000, kMaxDelayMs);
  b.cap_ms = Sized(r, b.base_ms, b.base_ms * 40, kMaxDelayMs);
  if (b.kind == BackoffKind::kNone) return b;
  const Jitter choices[] = {Jitter::kNone, Jitter::kFull, Jitter::kEqual, Jitter::kDecorrelated, Jitter::kBullMq};
  b.jitter = choices[r.Below(5)];
  if (b.jitter == Jitter::kDecorrelated && b.kind != BackoffKind::kExponential) b.jitter = Jitter::kFull;
  if (b.jitter == Jitter::kBullMq) b.jitter_permille = Between(r, 1, 1000);
  return b;
}

// As sums_test.cpp's, with budgets up to 20,000 so that runs past every settle point
// (Sidekiq's custom jitter settles at attempt 9,601) are common.
Policy RandomPolicy(Prng& r, System system) {
  Policy p;
  p.system = system;
  p.max_attempts = Sized(r, 1, 40, 20'000);
  p.lease_ms = Sized(r, 1, 60'000, system == System::kServiceBus ? 300'000 : kMaxDelayMs);  // a lock: 5 min at most
  if (system == System::kPubSub) {  // max_delivery_attempts 5..100, the ack deadline 10..600 s
    p.max_attempts = Between(r, kPubSubMinDeliveryAttempts, kPubSubMaxDeliveryAttempts);
    p.lease_ms = Between(r, kPubSubMinAckDeadlineMs, kPubSubMaxAckDeadlineMs);
  }
  p.backoff = RandomBackoff(r);
  if (system == System::kServiceBus) p.backoff = Backoff{};  // abandon redelivers at once: no backoff
  for (int c = 0; c < kFailureClassCount; ++c) {
    ClassRule& rule = p.classes.rules[c];
    if (r.Below(3) != 0) continue;
    rule.retry = r.Below(4) != 0;
    rule.max_attempts = r.Below(2) == 0 ? 0 : Sized(r, 1, 40, 20'000);
    rule.own_backoff = r.Below(2) == 0;
    if (rule.own_backoff) rule.backoff = RandomBackoff(r);
    if (system == System::kServiceBus && rule.own_backoff) rule.backoff = Backoff{};
    if (system == System::kPubSub && rule.own_backoff) rule.backoff = PubSubBackoff(rule.backoff);
    if (system == System::kSpringKafka && rule.own_backoff) rule.backoff = NoJitter(rule.backoff);
    if (system == System::kKafkaConnect && rule.own_backoff) rule.backoff = NoJitter(rule.backoff);
  }
  p.decide_before_count = r.Below(6) == 0;
  p.count_in_body = r.Below(6) == 0;
  switch (system) {
    case System::kBullMq: p.max_stalled_count = Sized(r, 0, 3, 1000); break;
    case System::kSidekiq:
      p.retry_in_jitter = r.Below(2) == 0;
      p.retry_every_error = r.Below(3) == 0;
      break;
    case System::kRabbitMqQuorum:  // a version's default now and then: 21 or 1,000,000 deliveries
      p.delivery_limit = r.Below(8) == 0 ? static_cast<DeliveryLimit>(r.Below(4)) : DeliveryLimit::kExplicit;
      // now and then RabbitMQ 4.3's delayed retry (a 4.x quorum queue's): min(min x count, max)
      if (r.Below(3) == 0 &&
          (p.delivery_limit == DeliveryLimit::kExplicit || p.delivery_limit == DeliveryLimit::kUnset4)) {
        p.delayed_retry_type = static_cast<DelayedRetryType>(1 + r.Below(3));
        p.delayed_retry_min_ms = Sized(r, 0, 5000, kMaxDelayMs);
        p.delayed_retry_max_ms = Sized(r, 0, p.delayed_retry_min_ms * 40 + 1, kMaxDelayMs);
      }
      // now and then the consumer's x-opt-delivery-time (the backoff's; over the delayed retry, if any)
      if ((p.delivery_limit == DeliveryLimit::kExplicit || p.delivery_limit == DeliveryLimit::kUnset4) &&
          r.Below(3) == 0) {
        p.delivery_time = DeliveryTime::kBackoff;
      }
      break;
    case System::kLab: p.delay_at = static_cast<DelayAt>(r.Below(3)); break;
    case System::kSqs: break;
    case System::kServiceBus: break;
    case System::kPubSub:  // now and then no dead-letter policy: no count (1,000,000 deliveries)
      p.backoff = PubSubBackoff(p.backoff);
      // One in 12: each such policy's walk is a million steps, and at one in 3 they were 35 s of
      // the native suite's CPU; the 125 or so left still give every part its long equal runs.
      if (r.Below(12) == 0) p.dead_letter_topic = DeadLetterTopic::kNone;
      break;
    case System::kSpringKafka:  // blocking (the partition held) or retry topics; a multiplier now and then
      p.backoff = NoJitter(p.backoff);
      p.retry_topics = r.Below(2) == 0;
      p.ordering = p.retry_topics ? Ordering::kNone : Ordering::kStall;
      if (r.Below(2) == 0)
        p.multiplier_permille = Between(r, kMultiplierPermilleField.min, kMultiplierPermilleField.max);
      break;
    case System::kKafkaConnect:  // errors.retry.timeout (0: no retry, up to 30 days), tolerance; its own jitter
      p.backoff = NoJitter(p.backoff);
      p.retry_timeout_ms =
          r.Below(4) == 0 ? 0 : Sized(r, 1, 86'400'000, 30 * 86'400'000LL);  // past 64 retries: the shift wraps
      p.tolerance_all = r.Below(2) == 0;
      p.dlq_topic = p.tolerance_all && r.Below(2) == 0;
      break;
  }
  return p;
}

// The walk the closed form replaces: every attempt 1 … attempts - 1, the largest delay of
// any class still retrying, equal consecutive terms merged (backoff.h's contract).
WorstCase StepByStep(const Policy& policy) {
  const int64_t extra = policy.decide_before_count ? 1 : 0;
  WorstCase worst = WorstCasePath(policy);  // attempts, stalls, lease: not what is checked here
  worst.delays.clear();
  worst.time_ms = (static_cast<int64_t>(worst.attempts) + worst.stalls) * policy.lease_ms;
  const Policy crash_policy = SystemOf(policy).CrashPolicy(policy);
  int64_t previous = 0;
  for (uint32_t n = 1; n < worst.attempts; ++n) {
    WorstDelay term;
    term.first_attempt = term.last_attempt = n;
    for (int c = 0; c < kFailureClassCount; ++c) {
      const ClassRule rule = policy.RuleFor(static_cast<FailureClass>(c));
      if (!rule.retry || n >= rule.max_attempts + extra) continue;
      // A crash's delay follows the system's CrashPolicy (rabbitmq-quorum's deliveryTime backoff: the broker's).
      const Policy& own = c == static_cast<int>(FailureClass::kCrash) ? crash_policy : policy;
      const int64_t delay = MaxRetryDelay(own, rule.backoff, n, previous);
      if (delay > term.delay_ms) {
        term.delay_ms = delay;
        term.failure_class = static_cast<FailureClass>(c);
        term.own_backoff = policy.classes.rules[c].own_backoff;
      }
    }
    previous = term.delay_ms;
    worst.time_ms += term.delay_ms;
    WorstDelay* last = worst.delays.empty() ? nullptr : &worst.delays.back();
    if (last && last->delay_ms == term.delay_ms && last->failure_class == term.failure_class &&
        last->own_backoff == term.own_backoff) {
      last->last_attempt = n;
    } else {
      worst.delays.push_back(term);
    }
  }
  return worst;
}

// One system and a quarter of its policies per test case, so ctest runs them side by side: as
// one case this was the suite's longest test (33 s native, 79 s sanitized), a tail that left the
// other core idle (Pub/Sub's share alone was 30 s).
constexpr int kParts = 4;
void ClosedFormEqualsWalk(size_t index, int part) {
  const System system = kSystems[index];
  Prng r(33 + index * kParts + static_cast<size_t>(part));
  int jumped = 0;
  // Fewer under the sanitizers, each compared alike: a Pub/Sub policy with no dead-letter topic
  // walks 1,000,000 deliveries, so Pub/Sub's four parts took 76 s of the sanitized suite at 400.
  const int policies = (test::kSanitized ? 100 : 1500) / kParts;
  for (int i = 0; i < policies; ++i) {
    const Policy p = RandomPolicy(r, system);
    REQUIRE_MESSAGE(Policy::Check(p).ok(), Policy::Check(p).ToString());
    const WorstCase fast = WorstCasePath(p);
    const WorstCase slow = StepByStep(p);
    const std::string what = std::string(SystemName(system)) + " policy " + std::to_string(i);
    CHECK_MESSAGE(fast.time_ms == slow.time_ms, what);
    CHECK_MESSAGE(fast.delays == slow.delays, what);
    for (const WorstDelay& d : fast.delays) jumped += d.last_attempt - d.first_attempt > 100 ? 1 : 0;
  }
  // Long runs of equal waits are common: the jump is exercised. Kafka Connect's delays never
  // settle (its shift repeats every 64 retries, kafka_connect.cpp): its worst case is walked.
  if (system != System::kKafkaConnect) CHECK(jumped > policies / 30);
}

static_assert(std::size(kSystems) == 9, "one set of test cases below per system in kSystems");
#define DLQ_CLOSED_FORM_PART(index, name, part)                                                             \
  TEST_CASE("the closed-form worst case equals the step-by-step walk on thousands of policies, under " name \
            " (part " #part " of 4)") {                                                                     \
    REQUIRE(std::string(SystemName(kSystems[index])) == name);                                              \
    ClosedFormEqualsWalk(index, part - 1);                                                                  \
  }
#define DLQ_CLOSED_FORM_CASE(index, name) \
  DLQ_CLOSED_FORM_PART(index, name, 1)    \
  DLQ_CLOSED_FORM_PART(index, name, 2)    \
  DLQ_CLOSED_FORM_PART(index, name, 3)    \
  DLQ_CLOSED_FORM_PART(index, name, 4)
static_assert(kParts == 4, "DLQ_CLOSED_FORM_CASE writes four parts");
DLQ_CLOSED_FORM_CASE(0, "lab")
DLQ_CLOSED_FORM_CASE(1, "rabbitmq-quorum")
DLQ_CLOSED_FORM_CASE(2, "bullmq")
DLQ_CLOSED_FORM_CASE(3, "sidekiq")
DLQ_CLOSED_FORM_CASE(4, "sqs")
DLQ_CLOSED_FORM_CASE(5, "service-bus")
DLQ_CLOSED_FORM_CASE(6, "pubsub")
DLQ_CLOSED_FORM_CASE(7, "spring-kafka")
DLQ_CLOSED_FORM_CASE(8, "kafka-connect")
#undef DLQ_CLOSED_FORM_CASE
#undef DLQ_CLOSED_FORM_PART

TEST_CASE("past its settle point a system's largest delay no longer depends on the attempt") {
  Prng r(3333);
  for (System system : kSystems) {
    for (int i = 0; i < 2000; ++i) {
      const Policy drawn = RandomPolicy(r, system);
      // Half the time the policy a crash's delay follows (CrashPolicy: deliveryTime broker for rabbitmq-quorum).
      const Policy p = r.Below(2) == 0 ? drawn : SystemOf(drawn).CrashPolicy(drawn);
      const Backoff& b = p.backoff;
      const SystemRules& rules = SystemOf(p);
      const uint32_t settles = rules.MaxRetryDelaySettlesAt(p, b);
      const int64_t previous = r.Below(4) == 0 ? 0 : Sized(r, 1, 100'000, kMaxDelayMs);
      const int64_t at = rules.MaxRetryDelay(p, b, settles, previous);
      // Only attempts that can be: a settle point at kMaxAttemptsField.max (Kafka Connect's) says "never".
      for (uint32_t n : {settles + 1, settles + 2, settles + 37, settles + 10'000, 1'000'000u}) {
        if (n < settles || n > kMaxAttemptsField.max) continue;
        const std::string what =
            std::string(SystemName(system)) + " policy " + std::to_string(i) + " attempt " + std::to_string(n);
        CHECK_MESSAGE(rules.MaxRetryDelay(p, b, n, previous) == at, what);
      }
    }
  }
}

TEST_CASE("a RabbitMQ 3.x queue with no delivery-limit: 1,000,000 deliveries in a few terms") {
  Policy p;
  p.system = System::kRabbitMqQuorum;
  p.delivery_limit = DeliveryLimit::kUnset3;
  p.backoff = {BackoffKind::kExponential, 1000, 60'000, Jitter::kFull};
  const WorstCase w = WorstCasePath(p);
  REQUIRE(w.attempts == 1'000'000);
  REQUIRE(w.delays.size() == 7);  // 1, 2, 4, … 32 s, then 60 s for the rest
  CHECK(w.delays.back().first_attempt == 7);
  CHECK(w.delays.back().last_attempt == 999'999);
  CHECK(w.time_ms == StepByStep(p).time_ms);
}

}  // namespace
}  // namespace dlq::worst_case_test
