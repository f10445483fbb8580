// The discarded terminal (policy.h, DeadLetterExchange): a rabbitmq-quorum queue
// with no dead-letter exchange drops a dead letter; the job leaves with no
// quarantine entry, a discarded event gives its reason, and it stays gone
// through snapshots, journals and recovery.
#include <string>
#include <vector>

#include "event.h"
#include "queue.h"
#include "scenario.h"
#include "test_util.h"

namespace dlq::discard_test {
namespace {

Policy NoDlx() {
  Policy p;
  p.max_attempts = 2;
  p.system = System::kRabbitMqQuorum;
  p.dead_letter_exchange = DeadLetterExchange::kNone;
  return p;
}

std::vector<std::string_view> Records(const Queue& q, std::vector<JournalEntry>& keep) {
  Result<std::vector<JournalEntry>> journal = q.view().Journal();
  REQUIRE(journal.ok());
  keep = std::move(journal).value();
  std::vector<std::string_view> records;
  for (const JournalEntry& e : keep) records.push_back(e.record);
  return records;
}

TEST_CASE("discard: with no dead-letter exchange an exhausted or rejected message is dropped, no entry kept") {
  Queue q = test::QueueWith(NoDlx(), {"a", "b", "c"});
  REQUIRE(q.Process("transient").ok());  // a back near the head
  Result<Attempt> a = q.Process("transient");
  REQUIRE(a.ok());
  CHECK(a->id == "a");
  CHECK(a->disposition == Disposition::kDiscarded);
  CHECK(a->reason == Reason::kExhausted);
  Result<Attempt> b = q.Process("permanent");
  REQUIRE(b.ok());
  CHECK(b->disposition == Disposition::kDiscarded);
  CHECK(b->reason == Reason::kPermanent);
  CHECK(q.view().Quarantined().empty());
  CHECK(q.stats().quarantined == 0);
  CHECK(q.stats().discarded == 2);
  const std::vector<DiscardedView> gone = q.view().Discarded();
  REQUIRE(gone.size() == 2);
  CHECK(gone[0].id == "a");
  CHECK(gone[0].attempts == 2);
  CHECK(gone[0].reason == Reason::kExhausted);
  CHECK(gone[1].id == "b");
  CHECK(gone[1].reason == Reason::kPermanent);
  CHECK_FALSE(q.Replay("a"));  // nothing to replay
  CHECK(q.view().Locate("a")->place == Place::kDiscarded);
  // The timeline: the deciding attempt says where the job went, then one discarded event.
  const std::vector<Event> events = q.view().Timeline();
  std::vector<std::string> lines;
  for (const Event& e : events) lines.push_back(RenderEvent(e));
  REQUIRE(lines.size() == 9);
  CHECK(lines[5] == "#6 step 2 attempt \"a\" 2/2 transient -> discarded");
  CHECK(lines[6] == "#7 step 2 discarded \"a\" attempts 2 reason exhausted");
  CHECK(lines[7] == "#8 step 3 attempt \"b\" 1/2 permanent -> discarded");
  CHECK(lines[8] == "#9 step 3 discarded \"b\" attempts 1 reason permanent");
  CHECK(ExplainEvent(events.back()).find("no dead-letter exchange: the message is dropped") != std::string::npos);
  for (const Event& e : events) CHECK(e.kind != EventKind::kQuarantined);
}

TEST_CASE(
    "discard: the default (a dead-letter exchange set) quarantines as before, and none is rabbitmq-quorum's only") {
  Policy p = NoDlx();
  p.dead_letter_exchange = DeadLetterExchange::kSet;
  Queue q = test::QueueWith(p, {"a"});
  REQUIRE(q.Process("permanent").ok());
  CHECK(q.view().Quarantined().size() == 1);
  CHECK(q.stats().discarded == 0);
  Policy lab;
  lab.dead_letter_exchange = DeadLetterExchange::kNone;
  const Status s = Policy::Check(lab);
  CHECK(s.ToString().find("deadLetterExchange") != std::string::npos);
  CHECK(s.ToString().find("rabbitmq-quorum") != std::string::npos);
  CHECK(s.ToString().find("\"none\"") != std::string::npos);
  CHECK_FALSE(Queue::Create(lab).ok());
}

TEST_CASE("discard: the setting travels through links and snapshots, the default writes nothing new") {
  Scenario s;
  s.policy = NoDlx();
  const std::string link = FormatScenario(s);
  CHECK(link.find(";rqn") != std::string::npos);
  Result<Scenario> back = ParseScenario(link);
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(back->policy == s.policy);
  s.policy.dead_letter_exchange = DeadLetterExchange::kSet;
  CHECK(FormatScenario(s).find(";rq") != std::string::npos);
  CHECK(FormatScenario(s).find(";rqn") == std::string::npos);
  // A lab link with the letter is refused by name (its check), nothing else read.
  Result<Scenario> bad = ParseScenario("v2;m3;s1;rln");
  CHECK_FALSE(bad.ok());

  Queue q = test::QueueWith(NoDlx(), {"a", "b"});
  REQUIRE(q.Process("permanent").ok());
  Result<std::string> text = q.view().SnapshotText();
  REQUIRE(text.ok());
  CHECK(text->find(" deadLetterExchange none") != std::string::npos);
  CHECK(text->find(" discarded ") != std::string::npos);
  Result<Queue> restored = Queue::Restore(text.value());
  REQUIRE_MESSAGE(restored.ok(), restored.status().ToString());
  CHECK(restored->view().SnapshotText().value() == text.value());
  CHECK(restored->stats().discarded == 1);
  CHECK(restored->view().Discarded()[0].id == "a");
  CHECK(restored->view().Discarded()[0].reason == Reason::kPermanent);
  CHECK_FALSE(restored->Replay("a"));
  Queue set = test::QueueWith(Policy{}, {"a"});
  CHECK(set.view().SnapshotText()->find("deadLetterExchange") == std::string::npos);
}

TEST_CASE("discard: the journal writes a discard as one removal, a crash after any write loses nothing") {
  Queue q = test::QueueWith(NoDlx(), {"a", "b", "c"});
  REQUIRE(q.Process("transient").ok());
  REQUIRE(q.Process("transient").ok());  // a discarded from ready
  Result<LeaseGrant> lease = q.Lease();
  REQUIRE(lease.ok());
  REQUIRE(q.Settle(lease->token, "permanent").ok());  // b discarded from its lease
  Result<LeaseGrant> again = q.Lease();
  REQUIRE(again.ok());
  REQUIRE(q.Advance(int64_t{60'000}).ok());  // c's lease expires: a crash, returned near the head
  Result<LeaseGrant> third = q.Lease();
  REQUIRE(third.ok());
  REQUIRE(q.Advance(int64_t{60'000}).ok());  // expires again: c discarded at its limit
  CHECK(q.stats().discarded == 3);
  std::vector<JournalEntry> keep;
  const std::vector<std::string_view> records = Records(q, keep);
  int discards = 0;
  for (const JournalEntry& e : keep) {
    CHECK(e.op != "put-quarantine");
    if (e.record.find(" discarded ") != std::string::npos) ++discards;
  }
  CHECK(discards == 3);
  for (size_t k = 1; k <= records.size(); ++k) {
    Result<Recovery> r = Queue::Recover(std::nullopt, records, {.crash_after = static_cast<int64_t>(k)});
    REQUIRE_MESSAGE(r.ok(), r.status().ToString());
    CHECK(r->lost.empty());  // (a return's two writes may leave it twice, kept once: not a discard's)
    CHECK(r->queue.stats().discarded <= 3);
  }
  Result<Recovery> whole = Queue::Recover(std::nullopt, records, {});
  REQUIRE_MESSAGE(whole.ok(), whole.status().ToString());
  CHECK(whole->queue.view().SnapshotText().value() == q.view().SnapshotText().value());
  CHECK(whole->queue.stats().discarded == 3);
}

namespace {

Policy Mode(System system, int64_t max_attempts) {
  Policy p;
  p.max_attempts = max_attempts;
  p.system = system;
  return p;
}

}  // namespace

TEST_CASE("discard: bullmq removeOnFail true and sidekiq skipDeadSet drop a job that fails for good, each saying why") {
  Policy bullmq = Mode(System::kBullMq, 2);
  bullmq.remove_on_fail = true;
  Policy sidekiq = Mode(System::kSidekiq, 1);  // retry: false is dead: false with one run
  sidekiq.skip_dead_set = true;
  struct Case {
    Policy policy;
    const char* says;
  };
  for (const Case& c : {Case{bullmq, "removeOnFail true removes a failed job"},
                        Case{sidekiq, "dead: false keeps it out of the Dead set"}}) {
    CAPTURE(c.says);
    Queue q = test::QueueWith(c.policy, {"a", "b"});
    while (q.view().Locate("a")->place != Place::kDiscarded) REQUIRE(q.Process("transient").ok());
    Result<Attempt> b = q.Process("permanent");
    REQUIRE(b.ok());
    CHECK(b->disposition == Disposition::kDiscarded);
    CHECK(q.view().Quarantined().empty());
    CHECK(q.stats().discarded == 2);
    CHECK(q.view().Discarded()[0].reason == Reason::kExhausted);
    CHECK_FALSE(q.Replay("a"));
    const std::vector<Event> events = q.view().Timeline();
    CHECK(ExplainEvent(events.back()).find(c.says) != std::string::npos);
    CHECK(ExplainEvent(events.back()).find("dead-letter exchange") == std::string::npos);
    // Through a link and a snapshot, and back.
    Scenario s;
    s.policy = c.policy;
    Result<Scenario> back = ParseScenario(FormatScenario(s));
    REQUIRE_MESSAGE(back.ok(), back.status().ToString());
    CHECK(back->policy == c.policy);
    Result<Queue> restored = Queue::Restore(q.view().SnapshotText().value());
    REQUIRE_MESSAGE(restored.ok(), restored.status().ToString());
    CHECK(restored->view().SnapshotText().value() == q.view().SnapshotText().value());
    CHECK(restored->stats().discarded == 2);
  }
  Scenario s;
  s.policy = bullmq;
  CHECK(FormatScenario(s).find(";rbx") != std::string::npos);
  s.policy = sidekiq;
  CHECK(FormatScenario(s).find(";rko") != std::string::npos);
}

TEST_CASE(
    "discard: removeOnFail and skipDeadSet are refused by name outside their mode and removeOnFail with a count") {
  Policy lab;
  lab.remove_on_fail = true;
  CHECK(Policy::Check(lab).ToString().find("removeOnFail applies only with system \"bullmq\"") != std::string::npos);
  Policy rabbit = Mode(System::kRabbitMqQuorum, 2);
  rabbit.skip_dead_set = true;
  CHECK(Policy::Check(rabbit).ToString().find("skipDeadSet applies only with system \"sidekiq\"") != std::string::npos);
  Policy both = Mode(System::kBullMq, 2);
  both.remove_on_fail = true;
  both.remove_on_fail_count = 3;
  CHECK(Policy::Check(both).ToString().find("removeOnFailCount must be 0 with it, got 3") != std::string::npos);
  CHECK_FALSE(ParseScenario("v2;m3;s1;rlx").ok());
  CHECK_FALSE(ParseScenario("v2;m3;s1;rbo").ok());
  CHECK_FALSE(ParseScenario("v2;m3;s1;rbf3x").ok());
  CHECK(ParseScenario("v2;m3;s1;rbx").ok());
  CHECK(ParseScenario("v2;m3;s1;rko").ok());
}

}  // namespace
}  // namespace dlq::discard_test
