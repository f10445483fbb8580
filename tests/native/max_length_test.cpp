// rabbitmq-quorum's source-queue x-max-length with x-overflow drop-head (Policy::max_length):
// a publish past the limit dead-letters the oldest ready message with reason maxlen
// (queue.h, DropHeadOverLimit). The corpus's source-max-length-drop-head-dead-letters-maxlen
// was seen on RabbitMQ 3.10.8.
#include <cstdio>
#include <string>
#include <vector>

#include "crc32.h"
#include "event.h"
#include "queue.h"
#include "registry.h"
#include "scenario.h"
#include "test_util.h"

namespace dlq {
namespace {

using test::Ids;
using test::Strings;

Policy Limited(int64_t max_length) {
  Policy p;
  p.max_attempts = 6;  // x-delivery-limit 5, as the corpus's queue
  p.system = System::kRabbitMqQuorum;
  p.max_length = max_length;
  return p;
}

std::vector<Reason> OrderOf(const XDeath& x) {
  Reason order[XDeath::kSlots];
  x.Order(order);
  return {order, order + XDeath::kSlots};
}

}  // namespace

TEST_CASE("max-length: each publish past the limit dead-letters the oldest ready message as maxlen, undelivered") {
  Queue q = test::QueueWith(Limited(1), {"a", "b", "c"});
  CHECK(Ids(q.view().Ready()) == Strings{"c"});
  REQUIRE(q.view().Quarantined().size() == 2);
  for (const QuarantineEntry& e : q.view().Quarantined()) {
    CHECK(e.reason == Reason::kMaxLength);
    CHECK(e.attempts == 0);  // never delivered: nothing counted
    CHECK(e.last_error.empty());
    CHECK(e.x_death.count[2] == 1);
    CHECK(e.x_death.first == Reason::kMaxLength);
    CHECK(OrderOf(e.x_death) == std::vector<Reason>{Reason::kMaxLength, Reason::kNone, Reason::kNone, Reason::kNone});
  }
  CHECK(Ids(q.view().Quarantined()) == Strings{"a", "b"});
  CHECK(SystemOf(System::kRabbitMqQuorum).ReasonName(Reason::kMaxLength) == std::string("maxlen"));
  CHECK(ReasonName(Reason::kMaxLength) == std::string("max-length"));
  CHECK(q.stats().step == 0);  // no attempt was made
  // Then c is consumed and completes, as on the broker.
  const Attempt c = test::MustProcess(q, "success");
  CHECK(c.id == "c");
  CHECK(c.attempt == 1);
  // The timeline: a's dead-lettering follows b's enqueue, in the same action.
  std::vector<std::string> lines;
  for (const Event& e : q.view().Timeline()) lines.push_back(std::string(EventKindName(e.kind)) + " " + e.id);
  CHECK(lines == Strings{"enqueued a", "enqueued b", "quarantined a", "enqueued c", "quarantined b", "attempt c",
                         "completed c"});
  const Event a = q.view().EventAt(2);
  CHECK(a.reason == Reason::kMaxLength);
  CHECK(a.action == 2);
  CHECK(ExplainEvent(a) ==
        "\"a\" was dead-lettered (maxlen): a publish left orders over its maxLength, so its oldest ready message went "
        "to the dead-letter queue undelivered (drop-head); only an operator's replay brings it back");
  CHECK(RenderEvent(a).find("reason max-length") != std::string::npos);
}

TEST_CASE("max-length: within the limit nothing moves, the limit counts ready messages only, not leased ones") {
  Queue q = test::QueueWith(Limited(2), {"a", "b"});
  CHECK(q.view().Quarantined().empty());
  Result<LeaseGrant> lease = q.Lease();  // a leaves the ready queue
  REQUIRE(lease.ok());
  REQUIRE(q.Enqueue("c", "").ok());  // b, c ready: at the limit
  CHECK(q.view().Quarantined().empty());
  REQUIRE(q.Enqueue("d", "").ok());  // over it: the head, b, goes
  CHECK(Ids(q.view().Quarantined()) == Strings{"b"});
  CHECK(Ids(q.view().Ready()) == Strings{"c", "d"});
  // A return is not limited (RabbitMQ's check there is not modelled): a goes back near the head.
  REQUIRE(q.Settle(lease->token, "transient").ok());
  CHECK(Ids(q.view().Ready()) == Strings{"a", "c", "d"});
  CHECK(Ids(q.view().Quarantined()) == Strings{"b"});
}

TEST_CASE("max-length: enqueueMany dead-letters the same messages as one publish at a time, journal or not") {
  for (const bool journal : {true, false}) {
    Policy p = Limited(2);
    p.journal = journal;
    Queue one = test::QueueWith(p, {"a", "b", "c", "d", "e"});
    Result<Queue> made = Queue::Create(p);
    REQUIRE(made.ok());
    Queue many = std::move(made).value();
    REQUIRE(many.Enqueue("a", "payload of a").ok());
    const std::vector<JobRef> batch = {
        {"b", "payload of b"}, {"c", "payload of c"}, {"d", "payload of d"}, {"e", "payload of e"}};
    REQUIRE(many.EnqueueMany(batch).ok());
    CHECK(Ids(many.view().Ready()) == Strings{"d", "e"});
    CHECK(Ids(many.view().Quarantined()) == Ids(one.view().Quarantined()));
    CHECK(Ids(many.view().Quarantined()) == Strings{"a", "b", "c"});
    // A refused batch changes nothing, the overflow included.
    const std::vector<JobRef> bad = {{"f", ""}, {"a", ""}};
    CHECK(many.EnqueueMany(bad).code() == Code::kAlreadyExists);
    CHECK(Ids(many.view().Ready()) == Strings{"d", "e"});
    CHECK(many.view().Quarantined().size() == 3);
  }
}

TEST_CASE("max-length: with no dead-letter exchange the head is dropped, with dlqMaxLength the DLQ trims too") {
  Policy p = Limited(1);
  p.dead_letter_exchange = DeadLetterExchange::kNone;
  Queue dropped = test::QueueWith(p, {"a", "b"});
  CHECK(dropped.view().Quarantined().empty());
  REQUIRE(dropped.view().Discarded().size() == 1);
  CHECK(dropped.view().Discarded()[0].id == "a");
  CHECK(dropped.view().Discarded()[0].reason == Reason::kMaxLength);
  CHECK(dropped.view().Locate("a")->place == Place::kDiscarded);
  const Event e = dropped.view().EventAt(2);
  CHECK(e.kind == EventKind::kDiscarded);
  CHECK(ExplainEvent(e) ==
        "\"a\" was dead-lettered (maxlen): a publish left orders over its maxLength (drop-head), but its queue has "
        "no dead-letter exchange: the message is dropped undelivered, no entry is kept and nothing can replay it");
  Policy both = Limited(1);
  both.dlq_max_length = 1;
  Queue trimmed = test::QueueWith(both, {"a", "b", "c"});
  CHECK(Ids(trimmed.view().Quarantined()) == Strings{"b"});
  CHECK(trimmed.view().Locate("a")->place == Place::kDropped);
}

TEST_CASE("max-length: an x-death record keeps three reasons newest first through snapshots and journals") {
  Policy p = Limited(1);
  p.max_attempts = 2;
  Queue q = test::QueueWith(p, {"a", "b"});  // a: maxlen at 0
  REQUIRE(q.Advance(int64_t{10}).ok());
  REQUIRE(q.Replay("a"));  // ready: b, a (a replay is not limited)
  REQUIRE(test::MustProcess(q, "success").id == "b");
  REQUIRE(test::MustProcess(q, "permanent").id == "a");  // rejected at 10
  REQUIRE(q.Advance(int64_t{10}).ok());
  REQUIRE(q.Replay("a"));
  REQUIRE(test::MustProcess(q, "transient").id == "a");
  REQUIRE(test::MustProcess(q, "transient").id == "a");  // delivery_limit at 20
  XDeath x = q.view().Quarantined()[0].x_death;
  CHECK(OrderOf(x) == std::vector<Reason>{Reason::kExhausted, Reason::kPermanent, Reason::kMaxLength, Reason::kNone});
  CHECK(x.first == Reason::kMaxLength);  // never changes
  CHECK(x.time[2] == 0);
  Result<std::string> text = q.view().SnapshotText();
  REQUIRE(text.ok());
  CHECK(text->find(" x-death max-length exhausted 1 20 1 10 maxlen 1 0 after 2 permanent max-length") !=
        std::string::npos);
  Result<Queue> back = Queue::Restore(text.value());
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(back->view().Quarantined()[0].x_death == x);
  // maxlen again: its entry moves to the front, the one that was there follows it.
  REQUIRE(q.Replay("a"));
  REQUIRE(q.Enqueue("c", "").ok());  // a is the ready head: dead-lettered again
  x = q.view().Quarantined().back().x_death;
  CHECK(q.view().Quarantined().back().id == "a");
  CHECK(OrderOf(x) == std::vector<Reason>{Reason::kMaxLength, Reason::kExhausted, Reason::kPermanent, Reason::kNone});
  CHECK(x.count[2] == 2);
  // The journal since creation recovers it all; a crash after any write loses nothing.
  test::CheckJournalRecovers(q);
}

TEST_CASE("max-length: a snapshot's x-death row with a maxlen slot is checked") {
  Queue q = test::QueueWith(Limited(1), {"a", "b"});
  const std::string text = q.view().SnapshotText().value();
  const std::string row = " x-death max-length max-length 0 0 0 0 maxlen 1 0 after 0";
  REQUIRE(text.find(row) != std::string::npos);
  CHECK(Queue::Restore(text).ok());
  // The same snapshot, resealed, with the row changed: each inconsistent record is refused.
  const auto with_row = [&](const std::string& other) {
    std::string body = text.substr(0, text.rfind("end "));
    body.replace(body.find(row), row.size(), other);
    char end[32];
    std::snprintf(end, sizeof end, "end %08x\n", Crc32(body));
    return body + end;
  };
  CHECK(Queue::Restore(with_row(row)).ok());  // the reseal itself keeps it whole
  for (const char* bad : {" x-death max-length max-length 0 0 0 0 maxlen 0 0 after 0",             // no count
                          " x-death max-length max-length 0 0 0 0 maxlen 1 0",                     // no order
                          " x-death max-length max-length 0 0 0 0 maxlen 1 0 after 1 exhausted",   // one with none
                          " x-death max-length max-length 0 0 1 0 maxlen 1 0 after 0",             // two, one listed
                          " x-death max-length max-length 0 0 1 0 maxlen 1 0 after 1 max-length",  // the newest again
                          " x-death max-length exhausted 0 0 0 0 maxlen 1 0 after 0"}) {  // newest has no count
    const Result<Queue> r = Queue::Restore(with_row(bad));
    CHECK_MESSAGE(r.status().code() == Code::kInvalidSnapshot, bad);
  }
  CHECK(Queue::Restore(with_row(" x-death max-length permanent 0 0 1 0 maxlen 1 0 after 1 max-length")).ok());
}

TEST_CASE("max-length: travels through link v2 (g) and the snapshot text, refused by name out of range or mode") {
  Scenario s;
  s.policy = Limited(1);
  const std::string link = FormatScenario(s);
  CHECK(link.find(";rqg1") != std::string::npos);
  CHECK(ParseScenario(link).value().policy == s.policy);
  s.policy.dlq_max_length = 2;
  s.policy.dead_letter_exchange = DeadLetterExchange::kNone;
  CHECK(FormatScenario(s).find(";rqnm2g1") != std::string::npos);
  CHECK(ParseScenario(FormatScenario(s)).value().policy == s.policy);
  CHECK(ParseScenario("v2;m3;s1;rqg0").status().message() ==
        "scenario link is malformed at character 14: expected a maxLength other than 0, got the end of the link");
  Queue q = test::QueueWith(Limited(3), {"a"});
  const std::string snapshot = q.Snapshot().value();
  CHECK(snapshot.find("system rabbitmq-quorum maxLength 3") != std::string::npos);
  CHECK(Queue::Restore(snapshot).value().policy() == Limited(3));
  // The default writes nothing new.
  Queue plain = test::QueueWith(Limited(0), {"a"});
  CHECK(plain.Snapshot().value().find("maxLength") == std::string::npos);
  Policy p = Limited(-1);
  CHECK(Policy::Check(p).message() == "maxLength must be an integer from 0 to 1000000000, got -1");
  p = Limited(1'000'000'001);
  CHECK(Policy::Check(p).message() == "maxLength must be an integer from 0 to 1000000000, got 1000000001");
  p = Limited(2);
  p.system = System::kLab;
  CHECK(Policy::Check(p).message() ==
        "maxLength applies only with system \"rabbitmq-quorum\" (leave it at its default otherwise), got 2 with "
        "system \"lab\"");
  p = Limited(2);
  p.dlq_to_source = true;
  CHECK(Policy::Check(p).message() ==
        "antiPatterns.dlqToSource must be false with a maxLength (each dead letter routed back overflows the source "
        "again: a loop with no end), got true with maxLength 2");
}

}  // namespace dlq
