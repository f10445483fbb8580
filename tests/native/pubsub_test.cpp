// The pubsub mode (core/systems/pubsub.cpp). Pub/Sub has no local server here, so
// each case names the documentation sentence it encodes:
//   [DLP] DeadLetterPolicy (cloud.google.com/pubsub/docs/reference/rpc/google.pubsub.v1#deadletterpolicy):
//         "The value must be between 5 and 100." "The number of delivery attempts is
//         defined as 1 + (the sum of number of NACKs and number of times the
//         acknowledgement deadline has been exceeded for the message)."
//   [RP]  RetryPolicy: "the exponential backoff between minimum_backoff and maximum_backoff";
//         without one, "immediate redelivery" (cloud.google.com/pubsub/docs/handling-failures).
//   [HF]  handling-failures: messages that cannot be delivered are retried "until the
//         acknowledgment deadline is met or the message expires" (message_retention_duration).
#include <string>
#include <vector>

#include "backoff.h"
#include "queue.h"
#include "registry.h"
#include "rules.h"
#include "scenario.h"
#include "test_util.h"

namespace dlq {
namespace {

Policy PubSub(int64_t attempts = 5) {
  Policy p;
  p.system = System::kPubSub;
  p.max_attempts = attempts;
  return p;
}

}  // namespace

TEST_CASE("pubsub [DLP]: \"The value must be between 5 and 100\": maxAttempts refused outside 5..100, by name") {
  CHECK(Policy::Check(PubSub(5)).ok());
  CHECK(Policy::Check(PubSub(100)).ok());
  const Status low = Policy::Check(PubSub(4));
  REQUIRE_FALSE(low.ok());
  CHECK(low.message() ==
        "maxAttempts must be an integer from 5 to 100 with system \"pubsub\" "
        "(dead_letter_policy.max_delivery_attempts), got 4");
  CHECK_FALSE(Policy::Check(PubSub(101)).ok());
  CHECK(Policy::Check([] {
          Policy p;
          p.max_attempts = 3;
          return p;
        }())
            .ok());         // the lab keeps its own range
  Policy none = PubSub(3);  // no dead-letter policy: no max_delivery_attempts, so maxAttempts is not asked
  none.dead_letter_topic = DeadLetterTopic::kNone;
  CHECK(Policy::Check(none).ok());
}

TEST_CASE(
    "pubsub: the ack deadline is the lease, 10..600 s, retry_policy is exponential (no jitter, max 600 s) or none") {
  Policy p = PubSub();
  p.lease_ms = 9'999;
  CHECK(Policy::Check(p).message() ==
        "leaseMs must be an integer from 10000 to 600000 with system \"pubsub\" (ack_deadline_seconds 10 to 600), got "
        "9999");
  p.lease_ms = 600'000;
  CHECK(Policy::Check(p).ok());
  p.backoff.kind = BackoffKind::kFixed;
  CHECK(Policy::Check(p).message().starts_with("backoff.kind must be \"none\""));
  p.backoff.kind = BackoffKind::kExponential;
  p.backoff.base_ms = 10'000;
  p.backoff.cap_ms = 600'000;
  CHECK(Policy::Check(p).ok());
  p.backoff.cap_ms = 600'001;
  CHECK(Policy::Check(p).message().starts_with("backoff.capMs must be at most 600000 with system \"pubsub\""));
  p.backoff.cap_ms = 60'000;
  p.backoff.jitter = Jitter::kFull;
  CHECK(Policy::Check(p).message().starts_with("backoff.jitter must be \"none\" with system \"pubsub\""));
  // Its own settings are refused under another system.
  Policy lab;
  lab.dead_letter_topic = DeadLetterTopic::kNone;
  CHECK(Policy::Check(lab).message().starts_with("deadLetterTopic applies only with system \"pubsub\""));
  lab = Policy{};
  lab.message_retention_ms = 600'000;
  CHECK(Policy::Check(lab).message().starts_with("messageRetentionMs applies only with system \"pubsub\""));
  Policy short_retention = PubSub();
  short_retention.message_retention_ms = 599'999;
  CHECK_FALSE(Policy::Check(short_retention).ok());
}

TEST_CASE(
    "pubsub [DLP]: every delivery counts, a crash (the ack deadline exceeded) included, the 5th failure dead-letters") {
  Policy p = PubSub(5);
  REQUIRE(Policy::Check(p).ok());
  CHECK(p.Budget() == 5);
  Queue q = test::QueueWith(p, {"a"});
  for (int i = 0; i < 4; ++i) {
    Result<Attempt> a = q.Process("transient");
    REQUIRE(a.ok());
    CHECK(a->disposition == Disposition::kRequeued);  // no retry_policy: immediate redelivery [RP]
    CHECK(a->delay_ms == 0);
  }
  REQUIRE(q.Process("transient").ok());
  REQUIRE(q.view().Quarantined().size() == 1);
  const QuarantineEntry e = q.view().Quarantined()[0];
  CHECK(e.attempts == 5);
  CHECK(std::string(SystemOf(p).ReasonName(e.reason)).empty());  // a dead-lettered message carries no reason
  Prng jitter(1);
  CHECK(Decide(p, FailureClass::kCrash, 4, 0, jitter).disposition != Disposition::kQuarantined);
  CHECK(Decide(p, FailureClass::kCrash, 5, 0, jitter).disposition == Disposition::kQuarantined);
}

TEST_CASE("pubsub [RP]: exponential backoff between minimum_backoff and maximum_backoff") {
  Policy p = PubSub(8);
  p.backoff.kind = BackoffKind::kExponential;
  p.backoff.base_ms = 10'000;  // minimum_backoff 10s
  p.backoff.cap_ms = 60'000;   // maximum_backoff 60s
  REQUIRE(Policy::Check(p).ok());
  Prng jitter(1);
  std::vector<int64_t> delays;
  for (uint32_t n = 1; n < 8; ++n) delays.push_back(Decide(p, FailureClass::kTransient, n, 0, jitter).delay_ms);
  CHECK(delays == std::vector<int64_t>{10'000, 20'000, 40'000, 60'000, 60'000, 60'000, 60'000});
}

TEST_CASE("pubsub: the dead-letter record is the message with CloudPubSubDeadLetterSource* attributes") {
  Policy p = PubSub(5);
  Queue q = test::QueueWith(p, {"a"});
  REQUIRE(q.Advance(int64_t{7}).ok());
  for (int i = 0; i < 5; ++i) REQUIRE(q.Process("transient").ok());
  REQUIRE(q.view().Quarantined().size() == 1);
  const QuarantineEntry e = q.view().Quarantined()[0];
  EntryFacts facts;
  facts.payload = e.payload;
  facts.attempts = e.attempts;
  facts.enqueued_at = e.enqueued_at;
  const DeadLetterRecord record = SystemOf(p).Record(facts);
  REQUIRE(record.size() == 4);
  CHECK(record[0].name == "data");
  CHECK(record[1] == RecordField::Number("CloudPubSubDeadLetterSourceDeliveryCount", 5));
  CHECK(record[2] == RecordField::Text("CloudPubSubDeadLetterSourceSubscription", "orders"));
  CHECK(record[3].name == "CloudPubSubDeadLetterSourceTopicPublishTime");
  CHECK(SystemOf(p).Keeps(JobRecord::kFirstEnqueue));
}

TEST_CASE(
    "pubsub [HF]: with no dead-letter topic a message is redelivered until its retention runs out, then deleted") {
  Policy p = PubSub(5);
  p.dead_letter_topic = DeadLetterTopic::kNone;
  p.message_retention_ms = 600'000;  // 10 minutes, the least Pub/Sub takes
  p.backoff.kind = BackoffKind::kExponential;
  p.backoff.base_ms = 100'000;
  p.backoff.cap_ms = 100'000;
  REQUIRE(Policy::Check(p).ok());
  CHECK(p.Budget() == Policy::kMaxAttempts);  // no count without a dead-letter policy
  CHECK(p.MessageTtlMs() == 600'000);
  CHECK_FALSE(p.RetryRepublishes());
  Queue q = test::QueueWith(p, {"a"});
  int attempts = 0;
  for (int i = 0; i < 50; ++i) {
    Result<Attempt> a = q.Process("transient");
    REQUIRE(a.ok());
    if (a->processed) {
      ++attempts;
      continue;
    }
    if (!q.AdvanceToNext().has_value()) break;
  }
  // Delivered at 0, 100 s, ..., 500 s: the retry due at 600 s finds it expired (its
  // publish time kept through every retry), so it is deleted undelivered.
  CHECK(attempts == 6);
  CHECK(q.view().Quarantined().empty());
  REQUIRE(q.view().Discarded().size() == 1);
  CHECK(q.view().Discarded()[0].reason == Reason::kExpired);
  CHECK(q.view().Discarded()[0].at == 600'000);
  // A failure the worker calls permanent is acked: gone, no dead-letter topic to keep it.
  Queue q2 = test::QueueWith(p, {"b"});
  REQUIRE(q2.Process("permanent").ok());
  CHECK(q2.view().Quarantined().empty());
  CHECK(q2.view().Discarded().size() == 1);
}

TEST_CASE("pubsub: with a dead-letter topic, retention does not expire messages in the lab (the budget ends them)") {
  Policy p = PubSub(5);
  CHECK(p.MessageTtlMs() == 0);
  CHECK(p.DeadLetterDrop() == DropCause::kKept);
  Policy none = p;
  none.dead_letter_topic = DeadLetterTopic::kNone;
  CHECK(none.DeadLetterDrop() == DropCause::kNoDeadLetterTopic);
}

}  // namespace dlq
