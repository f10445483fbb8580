// RabbitMQ 4.3's delayed retry in the rabbitmq-quorum mode (Policy::delayed_retry_*,
// core/systems/rabbitmq_quorum.cpp). RabbitMQ 3.10 is what installs here, so these
// rules are tested against their documentation, each case naming the sentence it
// encodes: rabbitmq.com/docs/quorum-queues, "Delayed retry" (the keys delayed-retry-type
// disabled | all | failed | returned, delayed-retry-min, delayed-retry-max; "the delay is
// min(delayed-retry-min x delivery_count, delayed-retry-max)"), and "Poison message
// handling" (4.3 counts only basic.reject and a lost connection in delivery_count;
// basic.nack and released raise x-acquired-count only); and rabbitmq.com/docs/4.3/nack,
// "basic.reject vs. basic.nack" (requeueWith, Policy::requeue_with).
#include <string>
#include <vector>

#include "backoff.h"
#include "queue.h"
#include "registry.h"
#include "rules.h"
#include "scenario.h"
#include "test_util.h"

namespace dlq::rabbitmq43_test {
namespace {

Policy Delayed(DelayedRetryType type, int64_t min_ms, int64_t max_ms) {
  Policy p;
  p.max_attempts = 6;  // x-delivery-limit 5
  p.system = System::kRabbitMqQuorum;
  p.delayed_retry_type = type;
  p.delayed_retry_min_ms = min_ms;
  p.delayed_retry_max_ms = max_ms;
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

TEST_CASE("rabbitmq 4.3: \"the delay is min(delayed-retry-min x delivery_count, delayed-retry-max)\": linear, capped") {
  Policy p = Delayed(DelayedRetryType::kAll, 1000, 3500);
  REQUIRE(Policy::Check(p).ok());
  Queue q = test::QueueWith(p, {"a"});
  // delivery_count 1..5 after each reject; the sixth delivery exceeds delivery-limit 5.
  CHECK(Delays(q, "transient") == std::vector<int64_t>{1000, 2000, 3000, 3500, 3500});
  REQUIRE(q.view().Quarantined().size() == 1);
  CHECK(q.view().Quarantined()[0].attempts == 6);
  CHECK(std::string(SystemOf(p).ReasonName(q.view().Quarantined()[0].reason)) == "delivery_limit");
  // The worst case reads the same bound: no jitter, so the largest delay is the delay.
  Backoff none;
  for (uint32_t n = 1; n <= 5; ++n) {
    CHECK(MaxRetryDelay(p, none, n, 0) == std::min<int64_t>(1000 * n, 3500));
  }
}

TEST_CASE("rabbitmq 4.3: delayed-retry-type \"failed\" delays a basic.reject (counted), the lab's failure") {
  Policy p = Delayed(DelayedRetryType::kFailed, 250, 100000);
  Queue q = test::QueueWith(p, {"a"});
  CHECK(Delays(q, "transient") == std::vector<int64_t>{250, 500, 750, 1000, 1250});
  // A crash is a lost connection: also a genuine failure, also delayed.
  Prng jitter(1);
  const Decision d = Decide(p, FailureClass::kCrash, 2, 0, jitter);
  CHECK(d.disposition == Disposition::kDelayed);
  CHECK(d.delay_ms == 500);
}

TEST_CASE(
    "rabbitmq 4.3: delayed-retry-type \"returned\" applies to nack and released only, so a reject returns at once") {
  Policy p = Delayed(DelayedRetryType::kReturned, 1000, 5000);
  Queue q = test::QueueWith(p, {"a", "b"});
  Prng jitter(1);
  const Decision d = Decide(p, FailureClass::kTransient, 1, 0, jitter);
  CHECK(d.disposition == Disposition::kRequeued);  // near the head, as without a delayed retry
  CHECK(Delays(q, "transient") == std::vector<int64_t>{0, 0, 0, 0, 0});
}

TEST_CASE("rabbitmq 4.3: \"disabled\" is the default: every older link and snapshot keeps its timeline") {
  Policy p;
  CHECK(p.delayed_retry_type == DelayedRetryType::kDisabled);
  p.system = System::kRabbitMqQuorum;
  p.max_attempts = 3;
  Queue q = test::QueueWith(p, {"a"});
  CHECK(Delays(q, "transient") == std::vector<int64_t>{0, 0});
  Scenario s;
  s.policy = p;
  CHECK(FormatScenario(s).find('y') == std::string::npos);
}

TEST_CASE("rabbitmq 4.3: delayed retry needs a 4.x quorum queue, min and max are read as the formula reads them") {
  Policy p = Delayed(DelayedRetryType::kAll, 1000, 2000);
  p.delivery_limit = DeliveryLimit::kUnset3;
  const Policy before = p;
  CHECK(Policy::Check(p).message() ==
        "delayedRetryType \"all\" needs a RabbitMQ 4.3 quorum queue, so deliveryLimit \"explicit\" or \"unset-4.x\", "
        "got \"unset-3.x\"");
  CHECK(p == before);
  p.delivery_limit = DeliveryLimit::kClassicQueue;
  CHECK(Policy::Check(p).message().find("got \"classic-queue\"") != std::string::npos);
  p.delivery_limit = DeliveryLimit::kUnset4;  // 4.0's default limit 20 still holds in 4.3
  CHECK(Policy::Check(p).ok());
  CHECK(p.Budget() == 21);
  p = Delayed(DelayedRetryType::kAll, 1000, 2000);
  p.system = System::kLab;
  CHECK(Policy::Check(p).message() ==
        "delayedRetryType applies only with system \"rabbitmq-quorum\" (leave it at its default otherwise), got "
        "\"all\" with system \"lab\"");
  p = Delayed(DelayedRetryType::kAll, 1000, kMaxDelayMs + 1);
  CHECK(Policy::Check(p).message() == "delayedRetryMaxMs must be an integer from 0 to 86400000, got 86400001");
  // A max below the min caps every delay at the max; a min of 0 delays nothing (min(0 x n, max) = 0).
  p = Delayed(DelayedRetryType::kAll, 5000, 1500);
  REQUIRE(Policy::Check(p).ok());
  Queue capped = test::QueueWith(p, {"a"});
  CHECK(Delays(capped, "transient") == std::vector<int64_t>{1500, 1500, 1500, 1500, 1500});
  p = Delayed(DelayedRetryType::kAll, 0, 1500);
  Queue none = test::QueueWith(p, {"a"});
  CHECK(Delays(none, "transient") == std::vector<int64_t>{0, 0, 0, 0, 0});
}

TEST_CASE("rabbitmq 4.3: the delayed retry travels through links and snapshots") {
  Scenario s;
  s.policy = Delayed(DelayedRetryType::kFailed, 1500, 9000);
  const std::string link = FormatScenario(s);
  Result<Scenario> back = ParseScenario(link);
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(back->policy == s.policy);
  Queue q = test::QueueWith(s.policy, {"a"});
  REQUIRE(q.Process("transient").ok());
  Result<std::string> text = q.view().SnapshotText();
  REQUIRE(text.ok());
  CHECK(text->find("delayedRetryType failed") != std::string::npos);
  Result<Queue> restored = Queue::Restore(text.value());
  REQUIRE_MESSAGE(restored.ok(), restored.status().ToString());
  CHECK(restored->policy() == s.policy);
}

TEST_CASE(
    "rabbitmq 4.3: \"basic.nack ... does not count this as failure. Using this method does not increment the "
    "delivery-count header\"") {
  Policy p = Delayed(DelayedRetryType::kDisabled, 0, 0);  // x-delivery-limit 5
  p.requeue_with = RequeueWith::kNack;
  REQUIRE_MESSAGE(Policy::Check(p).ok(), Policy::Check(p).ToString());
  Queue q = test::QueueWith(p, {"a"});
  for (int i = 0; i < 50; ++i) {  // far past delivery-limit 5: every nack returns it, uncounted
    Result<Attempt> a = q.Process("transient");
    REQUIRE(a.ok());
    REQUIRE(a->processed);
    CHECK(a->disposition == Disposition::kRequeued);
  }
  CHECK(q.view().Quarantined().empty());
  CHECK(q.view().Locate("a")->attempts == 0);  // delivery-count never rose
  // The worst case has no end: the budget never runs out.
  CHECK(WorstCasePath(p).unbounded);
  CHECK_FALSE(SystemOf(p).CountsFailure(p, FailureClass::kTransient));
  // A reject requeue=false still dead-letters at once (reason rejected): a never-retry class.
  Prng jitter(1);
  CHECK(Decide(p, FailureClass::kPermanent, 1, 0, jitter).reason == Reason::kPermanent);
}

TEST_CASE(
    "rabbitmq 4.3: \"basic.reject signals that message processing failed ... increments the message's delivery-count "
    "header\", so does a lost connection") {
  Policy p = Delayed(DelayedRetryType::kDisabled, 0, 0);
  Queue rejected = test::QueueWith(p, {"a"});
  CHECK(Delays(rejected, "transient").size() == 5);  // delivery-limit 5: the sixth delivery dead-letters
  CHECK(rejected.view().Quarantined().size() == 1);
  CHECK_FALSE(WorstCasePath(p).unbounded);
  // Under nack a crash (the connection lost with the message unacked) still counts.
  p.requeue_with = RequeueWith::kNack;
  CHECK(SystemOf(p).CountsFailure(p, FailureClass::kCrash));
  Prng jitter(1);
  CHECK(Decide(p, FailureClass::kCrash, 6, 0, jitter).disposition == Disposition::kQuarantined);
  CHECK(Decide(p, FailureClass::kTransient, 6, 0, jitter).disposition == Disposition::kRequeued);
  CHECK(Decide(p, FailureClass::kTransient, 6, 0, jitter).uncounted);
  // The lab and every other system count every failure.
  Policy lab;
  CHECK(SystemOf(lab).CountsFailure(lab, FailureClass::kTransient));
}

TEST_CASE(
    "rabbitmq 4.3: requeueWith nack is refused by name off a 4.x quorum queue and beside a delayed retry of returns") {
  Policy p = Delayed(DelayedRetryType::kDisabled, 0, 0);
  p.requeue_with = RequeueWith::kNack;
  p.delivery_limit = DeliveryLimit::kUnset3;
  CHECK(Policy::Check(p).message().find(
            "requeueWith \"nack\" (RabbitMQ 4.3's uncounted nack) needs a 4.x quorum queue") == 0);
  p.delivery_limit = DeliveryLimit::kExplicit;
  p.delayed_retry_type = DelayedRetryType::kReturned;
  p.delayed_retry_min_ms = 1000;
  p.delayed_retry_max_ms = 2000;
  CHECK(Policy::Check(p).message().find("requeueWith \"nack\" is not modelled with delayedRetryType \"returned\"") ==
        0);
  p.delayed_retry_type = DelayedRetryType::kFailed;  // a crash is delayed; a nack is not (the policy's backoff)
  REQUIRE(Policy::Check(p).ok());
  Prng jitter(1);
  CHECK(Decide(p, FailureClass::kCrash, 2, 0, jitter).delay_ms == 2000);
  CHECK(Decide(p, FailureClass::kTransient, 2, 0, jitter).delay_ms == 0);
  Policy lab;
  lab.requeue_with = RequeueWith::kNack;
  CHECK(Policy::Check(lab).message().find("requeueWith applies only with system \"rabbitmq-quorum\"") == 0);
  // Through a link and a snapshot.
  Scenario s;
  s.policy = Delayed(DelayedRetryType::kDisabled, 0, 0);
  s.policy.requeue_with = RequeueWith::kNack;
  const std::string link = FormatScenario(s);
  CHECK(link.find(";rqkn") != std::string::npos);
  Result<Scenario> back = ParseScenario(link);
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(back->policy == s.policy);
  Queue q = test::QueueWith(s.policy, {"a"});
  REQUIRE(q.Process("transient").ok());
  Result<Queue> restored = Queue::Restore(q.view().SnapshotText().value());
  REQUIRE_MESSAGE(restored.ok(), restored.status().ToString());
  CHECK(restored->policy() == s.policy);
}

}  // namespace dlq::rabbitmq43_test
