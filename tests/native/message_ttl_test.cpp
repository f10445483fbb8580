// rabbitmq-quorum's source-queue x-message-ttl (Policy::message_ttl_ms): a quorum queue
// expires a message at the head, so a ready head whose TTL (from its publish) has run
// out is dead-lettered with reason expired (queue.h, ExpireHeads). The corpus's
// source-message-ttl-dead-letters-expired was seen on RabbitMQ 3.10.8.
#include <string>
#include <vector>

#include "event.h"
#include "queue.h"
#include "registry.h"
#include "scenario.h"
#include "test_util.h"

namespace dlq {
namespace {

using test::Ids;
using test::Strings;

Policy WithTtl(int64_t ttl_ms) {
  Policy p;
  p.max_attempts = 6;  // x-delivery-limit 5, as the corpus's queue
  p.system = System::kRabbitMqQuorum;
  p.message_ttl_ms = ttl_ms;
  return p;
}

std::vector<std::string> Lines(const Queue& q) {
  std::vector<std::string> lines;
  for (const Event& e : q.view().Timeline()) {
    lines.push_back(std::string(EventKindName(e.kind)) + " " + e.id + " at " + std::to_string(e.time));
  }
  return lines;
}

}  // namespace

TEST_CASE("message-ttl: a ready head past its TTL is dead-lettered as expired, the next one at the same instant") {
  Queue q = test::QueueWith(WithTtl(100), {"a", "b"});
  CHECK(q.view().NextTimerAt() == 100);   // a's TTL at the head
  REQUIRE(q.Advance(int64_t{400}).ok());  // the consumer attaches 400 ms later, as in the corpus
  CHECK(q.view().Ready().empty());
  REQUIRE(q.view().Quarantined().size() == 2);
  for (const QuarantineEntry& e : q.view().Quarantined()) {
    CHECK(e.reason == Reason::kExpired);
    CHECK(e.attempts == 0);  // never delivered
    CHECK(e.arrived_at == 100);
    CHECK(e.x_death.count[3] == 1);
    CHECK(e.x_death.time[3] == 100);
    CHECK(e.x_death.first == Reason::kExpired);
  }
  CHECK(Ids(q.view().Quarantined()) == Strings{"a", "b"});
  CHECK(SystemOf(System::kRabbitMqQuorum).ReasonName(Reason::kExpired) == std::string("expired"));
  CHECK(Lines(q) == Strings{"enqueued a at 0", "enqueued b at 0", "quarantined a at 100", "quarantined b at 100"});
  const Event a = q.view().EventAt(2);
  CHECK(ExplainEvent(a) ==
        "\"a\" was dead-lettered (expired): it reached the head of orders after its message TTL ran out, undelivered; "
        "only an operator's replay brings it back");
  CHECK(q.view().NextTimerAt() == std::nullopt);
  test::CheckJournalRecovers(q);
}

TEST_CASE("message-ttl: a delivered message does not expire, returned near the head past its TTL, it does at once") {
  Queue q = test::QueueWith(WithTtl(100), {"a", "b"});
  REQUIRE(q.Advance(int64_t{99}).ok());
  Result<LeaseGrant> lease = q.Lease();  // a, just in time
  REQUIRE(lease.ok());
  REQUIRE(lease->id == "a");
  REQUIRE(q.Advance(int64_t{51}).ok());  // b, the head since a's lease, expires at 100; a is leased
  CHECK(Ids(q.view().Quarantined()) == Strings{"b"});
  // a comes back near the head at 150 with its TTL from 0 (a return keeps it): expired at once.
  REQUIRE(q.Settle(lease->token, "transient").ok());
  CHECK(Ids(q.view().Quarantined()) == Strings{"b", "a"});
  CHECK(q.view().Quarantined()[1].attempts == 1);
  CHECK(q.view().Quarantined()[1].arrived_at == 150);
  // Before its TTL a head is delivered as ever.
  Queue fresh = test::QueueWith(WithTtl(100), {"c"});
  REQUIRE(fresh.Advance(int64_t{99}).ok());
  CHECK(test::MustProcess(fresh, "success").id == "c");
  test::CheckJournalRecovers(q);
}

TEST_CASE("message-ttl: a replay or a due retry is a new publish, with a new TTL, the x-death count grows") {
  Queue q = test::QueueWith(WithTtl(100), {"a"});
  REQUIRE(q.Advance(int64_t{150}).ok());  // expired at 100
  REQUIRE(q.Replay("a"));                 // republished at 150
  CHECK(q.view().NextTimerAt() == 250);
  REQUIRE(q.Advance(int64_t{200}).ok());
  const XDeath x = q.view().Quarantined()[0].x_death;
  CHECK(x.count[3] == 2);
  CHECK(x.time[3] == 100);  // the first death's
  CHECK(q.view().Quarantined()[0].arrived_at == 250);
  // A retry delayed in the retry queue (the TTL retry-queue pattern) comes back as a new message.
  Policy p = WithTtl(100);
  p.backoff = {BackoffKind::kFixed, 200, 200, Jitter::kNone};
  Queue retried = test::QueueWith(p, {"b"});
  REQUIRE(test::MustProcess(retried, "transient").disposition == Disposition::kDelayed);  // due at 200
  REQUIRE(retried.Advance(int64_t{250}).ok());
  CHECK(Ids(retried.view().Ready()) == Strings{"b"});  // its TTL from 200
  CHECK(retried.AdvanceToNext() == 300);
  CHECK(Ids(retried.view().Quarantined()) == Strings{"b"});
  test::CheckJournalRecovers(retried);
}

TEST_CASE("message-ttl: with no dead-letter exchange an expired message is dropped") {
  Policy p = WithTtl(10);
  p.dead_letter_exchange = DeadLetterExchange::kNone;
  Queue q = test::QueueWith(p, {"a"});
  REQUIRE(q.Advance(int64_t{10}).ok());
  REQUIRE(q.view().Discarded().size() == 1);
  CHECK(q.view().Discarded()[0].reason == Reason::kExpired);
  CHECK(q.view().Discarded()[0].at == 10);
  CHECK(ExplainEvent(q.view().EventAt(1)) ==
        "\"a\" was dead-lettered (expired): it reached the head of orders after its message TTL ran out, but its "
        "queue has no dead-letter exchange: the message is dropped undelivered, no entry is kept and nothing can "
        "replay it");
}

TEST_CASE("message-ttl: four x-death reasons keep their order, the TTL's start travels in rows, only when set") {
  Policy p = WithTtl(100);
  p.max_attempts = 2;
  p.max_length = 1;
  Queue q = test::QueueWith(p, {"a", "b"});  // a: maxlen at 0
  REQUIRE(q.Advance(int64_t{50}).ok());
  REQUIRE(q.Replay("a"));                                // b (TTL from 0), a (from 50)
  REQUIRE(test::MustProcess(q, "success").id == "b");    // at 50
  REQUIRE(test::MustProcess(q, "permanent").id == "a");  // rejected at 50
  REQUIRE(q.Replay("a"));
  REQUIRE(q.Advance(int64_t{100}).ok());  // expired at 150
  REQUIRE(q.Replay("a"));
  REQUIRE(test::MustProcess(q, "transient").id == "a");
  REQUIRE(test::MustProcess(q, "transient").id == "a");  // delivery_limit at 150
  const XDeath x = q.view().Quarantined().back().x_death;
  Reason order[XDeath::kSlots];
  x.Order(order);
  CHECK(std::vector<Reason>(order, order + XDeath::kSlots) ==
        std::vector<Reason>{Reason::kExhausted, Reason::kExpired, Reason::kPermanent, Reason::kMaxLength});
  const std::string text = q.view().SnapshotText().value();
  CHECK(text.find(" x-death max-length exhausted 1 150 1 50 maxlen 1 0 expired 1 150 after 3 expired permanent "
                  "max-length ttlFrom 150") != std::string::npos);
  CHECK(text.find("system rabbitmq-quorum maxLength 1 messageTtlMs 100") != std::string::npos);
  Result<Queue> back = Queue::Restore(text);
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(back->view().Quarantined().back().x_death == x);
  CHECK(back->view().SnapshotText().value() == text);
  // A job enqueued at 0 writes no ttlFrom (0 is its default); a lab queue none at all.
  Queue zero = test::QueueWith(WithTtl(100), {"z"});
  CHECK(zero.view().SnapshotText().value().find("ttlFrom") == std::string::npos);
  test::CheckJournalRecovers(q);
}

TEST_CASE("message-ttl: travels through link v2 (t) and the snapshot, refused by name out of range or mode") {
  Scenario s;
  s.policy = WithTtl(100);
  s.policy.max_length = 2;
  const std::string link = FormatScenario(s);
  CHECK(link.find(";rqg2t100") != std::string::npos);
  CHECK(ParseScenario(link).value().policy == s.policy);
  CHECK(ParseScenario("v2;m3;s1;rqt0").status().message() ==
        "scenario link is malformed at character 14: expected a messageTtlMs other than 0, got the end of the link");
  Policy p = WithTtl(-1);
  CHECK(Policy::Check(p).message() == "messageTtlMs must be an integer from 0 to 9007199254740991, got -1");
  p = WithTtl(100);
  p.system = System::kSqs;
  CHECK(Policy::Check(p).message() ==
        "messageTtlMs applies only with system \"rabbitmq-quorum\" (leave it at its default otherwise), got 100 with "
        "system \"sqs\"");
  p = WithTtl(100);
  p.dlq_to_source = true;
  CHECK(Policy::Check(p).message() ==
        "antiPatterns.dlqToSource must be false with a messageTtlMs (each expired message routed back expires again: "
        "a loop with no end), got true with messageTtlMs 100");
  Queue plain = test::QueueWith(WithTtl(0), {"a"});
  CHECK(plain.view().SnapshotText().value().find("messageTtlMs") == std::string::npos);
}

}  // namespace dlq
