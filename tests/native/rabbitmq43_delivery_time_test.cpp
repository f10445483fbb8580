// RabbitMQ 4.3's per-message x-opt-delivery-time in the rabbitmq-quorum mode
// (Policy::delivery_time, core/systems/rabbitmq_quorum.cpp). RabbitMQ 3.10 is what installs
// here, so this is tested against the documentation, each case quoting what it encodes:
//   rabbitmq.com/docs/quorum-queues, "Explicit Delivery Time": "The `x-opt-delivery-time`
//   annotation can be set on message properties to specify an explicit future delivery time
//   (in milliseconds since epoch). This annotation is only available when using the AMQP
//   `modify` outcome and takes precedence over the calculated linear back-off delay."
//   rabbitmq.com/blog, the RabbitMQ 4.3 release post: "Consumers can also dynamically override
//   this delay on a per-message basis. Using AMQP 1.0, a consumer can return a message with the
//   `x-opt-delivery-time` annotation (a Unix timestamp in milliseconds) in the modified
//   outcome." and its table: "AMQP 1.0 `modified` disposition with `delivery-failed=true`"
//   increments delivery-count; with `delivery-failed=false` it does not.
//   rabbitmq-server, deps/rabbit/src/rabbit_fifo.erl, should_delay/5: "First check for explicit
//   x-opt-delivery-time annotation. This takes precedence over delayed_retry configuration."
//   (the annotation applies when `DeliveryTime > Ts`; otherwise should_delay0 applies the delayed
//   retry, if any; a consumer that goes away returns its messages with no annotations).
#include <string>
#include <vector>

#include "backoff.h"
#include "queue.h"
#include "registry.h"
#include "rules.h"
#include "scenario.h"
#include "test_util.h"

namespace dlq::rabbitmq43_delivery_time_test {
namespace {

// A 4.3 quorum queue (x-delivery-limit 5) with a linear delayed retry of 1 s per count up to
// 3.5 s, whose consumer sets x-opt-delivery-time from a fixed 7 s backoff.
Policy Annotated() {
  Policy p;
  p.max_attempts = 6;
  p.system = System::kRabbitMqQuorum;
  p.delayed_retry_type = DelayedRetryType::kFailed;
  p.delayed_retry_min_ms = 1000;
  p.delayed_retry_max_ms = 3500;
  p.backoff = {BackoffKind::kFixed, 7000, 7000, Jitter::kNone};
  p.delivery_time = DeliveryTime::kBackoff;
  return p;
}

// The delays a failing message gets, one per failed attempt, until it is dead-lettered.
std::vector<int64_t> Delays(Queue& q, const char* outcome) {
  std::vector<int64_t> delays;
  for (int i = 0; i < 100; ++i) {
    Result<Attempt> a = q.Process(outcome);
    REQUIRE(a.ok());
    if (!a->processed) {
      if (!q.AdvanceToNext().has_value()) break;  // the delayed message comes due
      continue;
    }
    if (a->disposition == Disposition::kQuarantined) break;
    delays.push_back(a->delay_ms);
  }
  return delays;
}

}  // namespace

TEST_CASE(
    "x-opt-delivery-time \"takes precedence over the calculated linear back-off delay\": the delay is the backoff's") {
  Policy p = Annotated();
  REQUIRE_MESSAGE(Policy::Check(p).ok(), Policy::Check(p).ToString());
  Queue q = test::QueueWith(p, {"a"});
  CHECK(Delays(q, "transient") ==
        std::vector<int64_t>{7000, 7000, 7000, 7000, 7000});  // not 1000, 2000, 3000, 3500, 3500
  // The broker's linear delay, for comparison: deliveryTime broker (the default).
  Policy broker = p;
  broker.delivery_time = DeliveryTime::kBroker;
  Queue b = test::QueueWith(broker, {"a"});
  CHECK(Delays(b, "transient") == std::vector<int64_t>{1000, 2000, 3000, 3500, 3500});
  // The worst case reads the same clock.
  Backoff fixed = p.backoff;
  for (uint32_t n = 1; n <= 5; ++n) CHECK(MaxRetryDelay(p, fixed, n, 0) == 7000);
  // It settles where the later of the backoff's (1) and the linear delay's (min x 4 >= max) settles.
  CHECK(MaxDelaySettlesAt(fixed) == 1);
  CHECK(SystemOf(p).MaxRetryDelaySettlesAt(p, fixed) == 4);
}

TEST_CASE(
    "x-opt-delivery-time: \"modified disposition with delivery-failed=true\" increments delivery-count: the limit "
    "still ends it") {
  Policy p = Annotated();
  Queue q = test::QueueWith(p, {"a"});
  CHECK(Delays(q, "transient").size() == 5);  // delivery-limit 5: the sixth delivery is dead-lettered
  REQUIRE(q.view().Quarantined().size() == 1);
  CHECK(q.view().Quarantined()[0].attempts == 6);
  CHECK(std::string(SystemOf(p).ReasonName(q.view().Quarantined()[0].reason)) == "delivery_limit");
  CHECK(SystemOf(p).CountsFailure(p, FailureClass::kTransient));
  CHECK_FALSE(WorstCasePath(p).unbounded);
}

TEST_CASE("x-opt-delivery-time: the lab's retry clock whole: exponential, its jitter and cap, a class's own backoff") {
  Policy p = Annotated();
  p.backoff = {BackoffKind::kExponential, 500, 3000, Jitter::kNone};
  p.classes.rules[static_cast<int>(FailureClass::kPrecondition)].own_backoff = true;
  p.classes.rules[static_cast<int>(FailureClass::kPrecondition)].backoff = {BackoffKind::kFixed, 60000, 60000,
                                                                            Jitter::kNone};
  REQUIRE(Policy::Check(p).ok());
  Prng jitter(1);
  CHECK(Decide(p, FailureClass::kTransient, 1, 0, jitter).delay_ms == 500);
  CHECK(Decide(p, FailureClass::kTransient, 3, 0, jitter).delay_ms == 2000);
  CHECK(Decide(p, FailureClass::kTransient, 5, 0, jitter).delay_ms == 3000);  // capped
  CHECK(Decide(p, FailureClass::kPrecondition, 1, 0, jitter).delay_ms == 60000);
  // Full jitter draws as the lab does: within [0, the unjittered delay].
  p.backoff.jitter = Jitter::kFull;
  for (uint32_t n = 1; n <= 5; ++n) {
    const int64_t d = Decide(p, FailureClass::kTransient, n, 0, jitter).delay_ms;
    CHECK(d >= 0);
    CHECK(d <= MaxRetryDelay(p, p.backoff, n, 0));
  }
}

TEST_CASE(
    "x-opt-delivery-time \"is only available when using the AMQP modify outcome\": a lost connection keeps the linear "
    "delay") {
  Policy p = Annotated();
  Prng jitter(1);
  // A crash returns no outcome from the consumer, so no annotation: min(1000 x 2, 3500).
  CHECK(Decide(p, FailureClass::kCrash, 2, 0, jitter).delay_ms == 2000);
  CHECK(Decide(p, FailureClass::kCrash, 5, 0, jitter).delay_ms == 3500);
  CHECK(Decide(p, FailureClass::kTransient, 2, 0, jitter).delay_ms == 7000);
  // The worst case takes each class's own clock: a crash-only scope waits the linear delays.
  const WorstCase crashes = WorstCasePath(p, FailureScope::Only({FailureClass::kCrash}));
  CHECK(crashes.time_ms == 6 * p.lease_ms + 1000 + 2000 + 3000 + 3500 + 3500);
  const WorstCase transient = WorstCasePath(p, FailureScope::Only({FailureClass::kTransient}));
  CHECK(transient.time_ms == 6 * p.lease_ms + 5 * 7000);
  // With no delayed retry the annotation was the only delay: a lost connection is redelivered at once.
  p.delayed_retry_type = DelayedRetryType::kDisabled;
  REQUIRE(Policy::Check(p).ok());
  CHECK(Decide(p, FailureClass::kCrash, 2, 0, jitter).disposition == Disposition::kRequeued);
  CHECK(Decide(p, FailureClass::kTransient, 2, 0, jitter).delay_ms == 7000);
}

TEST_CASE(
    "x-opt-delivery-time: \"This takes precedence over delayed_retry configuration\", only when DeliveryTime > Ts") {
  // Without a delayed retry the annotation alone delays the message (should_delay's first clause).
  Policy p = Annotated();
  p.delayed_retry_type = DelayedRetryType::kDisabled;
  REQUIRE(Policy::Check(p).ok());
  Queue q = test::QueueWith(p, {"a"});
  CHECK(Delays(q, "transient") == std::vector<int64_t>{7000, 7000, 7000, 7000, 7000});
  // With delayed-retry-type returned (which leaves a failed return undelayed) it still applies.
  p.delayed_retry_type = DelayedRetryType::kReturned;
  REQUIRE(Policy::Check(p).ok());
  Queue r = test::QueueWith(p, {"a"});
  CHECK(Delays(r, "transient") == std::vector<int64_t>{7000, 7000, 7000, 7000, 7000});
  // A delay of 0 is "now", not a future time: the delayed retry applies as without the annotation.
  p = Annotated();
  p.backoff = Backoff{};  // kind none: every annotation is now
  Queue now = test::QueueWith(p, {"a"});
  CHECK(Delays(now, "transient") == std::vector<int64_t>{1000, 2000, 3000, 3500, 3500});
  for (uint32_t n = 1; n <= 5; ++n) CHECK(MaxRetryDelay(p, p.backoff, n, 0) == std::min<int64_t>(1000 * n, 3500));
  // Full jitter may draw 0: the bound is then the larger of the two clocks.
  p.backoff = {BackoffKind::kFixed, 1500, 1500, Jitter::kFull};
  CHECK(MaxRetryDelay(p, p.backoff, 1, 0) == 1500);
  CHECK(MaxRetryDelay(p, p.backoff, 3, 0) == 3000);
  // A backoff that never draws 0 never falls through: its own bound.
  p.backoff = {BackoffKind::kFixed, 1500, 1500, Jitter::kEqual};
  CHECK(MaxRetryDelay(p, p.backoff, 3, 0) == 1500);
}

TEST_CASE("x-opt-delivery-time is refused by name off a 4.x quorum queue, and with AMQP 0.9.1's basic.nack") {
  Policy p = Annotated();
  p.delayed_retry_type = DelayedRetryType::kDisabled;
  p.delivery_limit = DeliveryLimit::kUnset3;
  CHECK(Policy::Check(p).message() ==
        "deliveryTime \"backoff\" (RabbitMQ 4.3's x-opt-delivery-time) needs a 4.x quorum queue, so deliveryLimit "
        "\"explicit\" or \"unset-4.x\", got \"unset-3.x\"");
  p.delivery_limit = DeliveryLimit::kClassicQueue;
  CHECK(Policy::Check(p).message().find("got \"classic-queue\"") != std::string::npos);
  p.delivery_limit = DeliveryLimit::kUnset4;
  REQUIRE(Policy::Check(p).ok());
  p.requeue_with = RequeueWith::kNack;
  CHECK(Policy::Check(p).message() ==
        "deliveryTime \"backoff\" needs requeueWith \"reject\" (x-opt-delivery-time rides on the AMQP 1.0 modified "
        "outcome; AMQP 0.9.1's basic.nack cannot carry it), got \"nack\"");
  Policy lab;
  lab.delivery_time = DeliveryTime::kBackoff;
  CHECK(Policy::Check(lab).message().find("deliveryTime applies only with system \"rabbitmq-quorum\"") == 0);
}

TEST_CASE("x-opt-delivery-time travels through links (,r…Xb) and snapshots, broker, the default, writes nothing") {
  Scenario s;
  s.policy = Annotated();
  const std::string link = FormatScenario(s);
  CHECK(link.find("Xb") != std::string::npos);
  Result<Scenario> back = ParseScenario(link);
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(back->policy == s.policy);
  Queue q = test::QueueWith(s.policy, {"a"});
  REQUIRE(q.Process("transient").ok());
  Result<std::string> text = q.view().SnapshotText();
  REQUIRE(text.ok());
  CHECK(text->find("deliveryTime backoff") != std::string::npos);
  Result<Queue> restored = Queue::Restore(text.value());
  REQUIRE_MESSAGE(restored.ok(), restored.status().ToString());
  CHECK(restored->policy() == s.policy);
  s.policy.delivery_time = DeliveryTime::kBroker;
  CHECK(FormatScenario(s).find('X') == std::string::npos);
  Queue plain = test::QueueWith(s.policy, {"a"});
  CHECK(plain.view().SnapshotText().value().find("deliveryTime") == std::string::npos);
}

}  // namespace dlq::rabbitmq43_delivery_time_test
