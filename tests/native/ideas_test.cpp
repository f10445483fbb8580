// The ideas a learner tries by doing (issue 22): the side-effect ledger, the three
// anti-pattern switches, a refused report that leaves the next job untouched,
// and that the switches travel in links and snapshots while a policy without
// them writes exactly what it wrote before.
#include "ledger.h"
#include "session.h"
#include "test_util.h"

namespace dlq::ideas_test {
namespace {

using test::ParseOrDie;
using test::SessionOrDie;

Queue RunOrDie(const std::string& text) {
  Result<Queue> q = RunScenario(ParseOrDie(text));
  REQUIRE_MESSAGE(q.ok(), q.status().ToString());
  return std::move(q).value();
}

bool Met(const std::string& goal, const Queue& q, GoalContext context = {}) {
  Result<Goal> g = ParseGoal(goal);
  REQUIRE_MESSAGE(g.ok(), g.status().ToString());
  return CheckGoal(g.value(), q, context).met;
}

TEST_CASE("ledger: empty unless the policy charges, every attempt charges before its outcome") {
  CHECK(LedgerOf(RunOrDie("v1;m3;ja:;at,t,t")).charges.empty());
  // Three transient failures: three charges applied, the job dead in quarantine.
  const Queue q = RunOrDie("v2;m3;s1;tc;ja:;at,t,t");
  const EffectLedger ledger = LedgerOf(q);
  REQUIRE(ledger.charges.size() == 3);
  CHECK(ledger.applied == 3);
  CHECK(ledger.duplicates == 2);
  CHECK(ledger.partial == 1);
  CHECK(ledger.partial_ids == test::Strings{"a"});
  CHECK(ledger.duplicate_ids == test::Strings{"a"});
  CHECK(ledger.charges[2].attempt == 3);
  CHECK(ledger.charges[2].outcome == Outcome::kTransient);
  CHECK(Met("charges = 3; duplicates = 2; partial = 1", q));
  // A success on the first attempt: one charge, nothing partial or doubled.
  CHECK(Met("charges = 1; duplicates = 0; partial = 0", RunOrDie("v2;m3;s1;tc;ja:;as")));
  // An undeserializable payload cannot be read, so it charges nothing.
  CHECK(Met("charges = 0; partial = 0", RunOrDie("v2;m3;s1;tc;ja:;au")));
}

TEST_CASE("ledger: a crash after the charge and a replay charge again, unless the key deduplicates") {
  // a's worker charges and dies (its lease expires at 30 s). b fails permanently
  // after charging; a's retry charges again and completes; b is replayed and completes.
  const std::string script = ";ja:,b:;al,w30000,p,s,rb,s";
  const Queue plain = RunOrDie("v2;m3;s1;tc" + script);
  const EffectLedger p = LedgerOf(plain);
  CHECK(p.applied == 4);
  CHECK(p.duplicates == 2);
  CHECK(p.partial == 0);
  CHECK(p.charges[0].crashed);
  CHECK(Met("completed a; completed b; duplicates = 2", plain));

  const Queue keyed = RunOrDie("v2;m3;s1;tck" + script);
  const EffectLedger k = LedgerOf(keyed);
  CHECK(k.charges.size() == 4);
  CHECK(k.applied == 2);
  CHECK(k.deduplicated == 2);
  CHECK(k.duplicates == 0);
  CHECK(k.charges[1].applied);        // b's first
  CHECK_FALSE(k.charges[2].applied);  // a's retry after its crash
  CHECK(Met("completed a; completed b; charges = 2; duplicates = 0", keyed));
}

TEST_CASE("ledger: a permanent failure after the charge is a partial effect, key or not") {
  CHECK(Met("quarantined a as permanent; partial = 1; charges = 1", RunOrDie("v2;m3;s1;tck;ja:;ap")));
}

TEST_CASE("anti-pattern: decide before counting gives a fourth attempt") {
  const Queue right = RunOrDie("v2;m3;s1;ja:;at,t,t");
  CHECK(Met("quarantined a as exhausted; attempts a = 3", right));
  const Queue wrong = RunOrDie("v2;m3;s1;td;ja:;at,t,t,t");
  CHECK(Met("quarantined a as exhausted; attempts a = 4; steps = 4", wrong));
  // With the switch on, a script of three failures leaves a ready for a fourth.
  CHECK(Met("ready a; attempts a = 3", RunOrDie("v2;m3;s1;td;ja:;at,t,t")));
}

TEST_CASE("anti-pattern: a count in the message body is lost at every crash, so the job loops") {
  const std::string three = "l,w30000,l,w30000,l,w30000";
  // The queue counts deliveries: after three expiries the crash class's budget is spent.
  CHECK(Met("quarantined a as exhausted; attempts a = 3", RunOrDie("v2;m3;s1;ja:;a" + three)));
  // The body's count is never rewritten by a worker that died: six crashes, still 0.
  const Queue body = RunOrDie("v2;m3;s1;tb;ja:;a" + three + "," + three);
  CHECK(Met("ready a; attempts a = 0; steps = 6; not quarantined a", body));
  CHECK(body.view().Timeline().back().kind == EventKind::kRequeued);
  // A reported failure is still counted: the worker rewrites the body then.
  CHECK(Met("quarantined a as exhausted", RunOrDie("v2;m3;s1;tb;ja:;at,t,t")));
}

TEST_CASE("anti-pattern: dead letters routed back to the source rebuild the loop") {
  const Queue loop = RunOrDie("v2;m3;s1;tl;ja:,b:;ap,s,p,p");
  // a never stays in quarantine: each permanent failure is replayed at once.
  CHECK(Met("ready a; attempts a = 0; quarantined = 0; completed b; steps >= 7", loop));
  int quarantined = 0, replayed = 0;
  for (const Event& e : loop.view().Timeline()) {
    if (e.id != "a") continue;
    quarantined += e.kind == EventKind::kQuarantined;
    replayed += e.kind == EventKind::kReplayed;
  }
  CHECK(quarantined == 3);
  CHECK(replayed == 3);
  // The timeline says who sent it back: the dead-letter queue's consumer, not an operator.
  const std::vector<Event> events = loop.view().Timeline();
  const auto back =
      std::find_if(events.begin(), events.end(), [](const Event& e) { return e.kind == EventKind::kReplayed; });
  REQUIRE(back != events.end());
  CHECK(back->routed_back);
  CHECK(ExplainEvent(*back).find("dead-letter queue's consumer sent \"a\" straight back") != std::string::npos);
  CHECK(RenderEvent(*back).find("routed back by the dead-letter queue") != std::string::npos);
  CHECK_FALSE(RunOrDie("v2;m3;s1;ja:;ap,ra").view().Timeline().back().routed_back);
  // The quarantine itself says where the entry went: back to the source, not waiting for an operator.
  const auto held =
      std::find_if(events.begin(), events.end(), [](const Event& e) { return e.kind == EventKind::kQuarantined; });
  REQUIRE(held != events.end());
  CHECK(held->routed_back);
  CHECK(ExplainEvent(*held) ==
        "\"a\" quarantined (permanent) after 1 attempt, and the dead-letter queue's consumer "
        "routed it straight back to the source queue (an anti-pattern): the loop starts again");
  CHECK(RenderEvent(*held).find("routed") == std::string::npos);  // the stable line is as released
  const std::vector<Event> kept = RunOrDie("v2;m3;s1;ja:;ap").view().Timeline();
  const auto stays =
      std::find_if(kept.begin(), kept.end(), [](const Event& e) { return e.kind == EventKind::kQuarantined; });
  REQUIRE(stays != kept.end());
  CHECK_FALSE(stays->routed_back);
  CHECK(ExplainEvent(*stays).find("only an operator's replay brings it back") != std::string::npos);
  // A snapshot keeps it.
  Result<Queue> restored = Queue::Restore(loop.view().SnapshotText().value());
  REQUIRE(restored.ok());
  for (const Event& e : restored->view().Timeline()) {
    if (e.kind == EventKind::kQuarantined) CHECK(e.routed_back);
  }
  CHECK(restored->view().SnapshotText().value() == loop.view().SnapshotText().value());
  CHECK(restored->view().TimelineText() == loop.view().TimelineText());
  // Without the switch the first permanent failure stays put.
  CHECK(Met("quarantined a as permanent", RunOrDie("v2;m3;s1;ja:,b:;ap,s")));
}

TEST_CASE("switches: links and snapshots carry them, all off writes what it wrote before") {
  for (const char* text : {"v2;m3;s1;tc;ja:", "v2;m3;s1;tck;ja:", "v2;m3;s1;tb;ja:", "v2;m3;s1;td;ja:",
                           "v2;m3;s1;tl;ja:", "v2;m3;s1;q0.2u;tckbdl;ja:"}) {
    const Scenario s = ParseOrDie(text);
    CHECK(FormatScenario(s) == text);
    Result<Queue> q = RunScenario(s);
    REQUIRE(q.ok());
    const std::string snap = q->view().SnapshotText().value();
    CHECK(snap.find("switches") != std::string::npos);
    Result<Queue> back = Queue::Restore(snap);
    REQUIRE_MESSAGE(back.ok(), back.status().ToString());
    CHECK(back->policy() == s.policy);
  }
  const Queue plain = RunOrDie("v2;m3;s1;ja:");
  CHECK(plain.view().SnapshotText().value().find("switches") == std::string::npos);
  CHECK(FormatScenario(ParseOrDie("v1;m3;ja:;at")) == "v1;m3;ja:;at");
}

TEST_CASE("switches: a bad switch letter is refused by name, out of order is refused") {
  Result<Scenario> empty = ParseScenario("v2;m3;s1;t;ja:");
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.status().code() == Code::kInvalidArgument);
  CHECK(empty.status().message().find("teaching switch") != std::string::npos);
  CHECK_FALSE(ParseScenario("v2;m3;s1;tkc;ja:").ok());
  CHECK_FALSE(ParseScenario("v2;m3;s1;tcc;ja:").ok());
  CHECK_FALSE(ParseScenario("v2;m3;s1;tz").ok());
}

TEST_CASE("operator: redrive by class or by reason takes only those entries, oldest first") {
  // p1, p2 permanent; t1, t2 exhausted (budget 2).
  const std::string set_up = "v2;m2;s1;jp1:,t1:,p2:,t2:;ap,t,p,t,t,t";
  const Queue before = RunOrDie(set_up);
  CHECK(Met("quarantined p1 as permanent; quarantined t1 as exhausted; quarantined = 4", before));
  const Queue by_reason = RunOrDie(set_up + ",d10re");
  CHECK(Met("ready t1; ready t2; quarantined p1; quarantined p2", by_reason));
  CHECK(test::Ids(by_reason.view().Ready()) == test::Strings{"t1", "t2"});
  const Queue by_class = RunOrDie(set_up + ",d1kp");
  CHECK(Met("ready p1; quarantined p2; quarantined t1; quarantined t2", by_class));
  const Queue both = RunOrDie(set_up + ",d10ktre");
  CHECK(Met("ready t1; ready t2; quarantined = 2", both));
  // Nothing of that kind: refused as nothing to do, and nothing changes.
  Result<Queue> none = RunScenario(ParseOrDie(set_up + ",d5ku"));
  REQUIRE_FALSE(none.ok());
  CHECK(none.status().code() == Code::kFailedPrecondition);
  CHECK(none.status().message().find("no quarantine entry of that class or reason") != std::string::npos);
  // Links carry the filter; a bad letter is refused by name.
  for (const char* text : {"v2;m2;s1;ja:;ap,d3kp", "v2;m2;s1;ja:;ap,d3rp", "v2;m2;s1;ja:;ap,d3kprp"}) {
    CHECK(FormatScenario(ParseOrDie(text)) == text);
  }
  Result<Scenario> bad = ParseScenario("v2;m2;s1;ja:;ap,d3kz");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message().find("class (t, p, u, v, q or c)") != std::string::npos);
  CHECK_FALSE(ParseScenario("v2;m2;s1;ja:;ap,d3rx").ok());
  // The unfiltered redrive is as before.
  CHECK(FormatScenario(ParseOrDie("v2;m2;s1;ja:;ap,d3")) == "v2;m2;s1;ja:;ap,d3");
}

TEST_CASE("session: a refused report leaves the next job untouched and is counted") {
  Result<Session> made = Session::Create(ParseOrDie("v1;m3;ja:,b:"));
  REQUIRE(made.ok());
  Session session = std::move(made).value();
  const std::string before = session.queue().view().SnapshotText().value();
  Result<bool> refused = session.ActReport("retry-later", "");
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().code() == Code::kInvalidArgument);
  CHECK(refused.status().message().find("outcome must be one of") != std::string::npos);
  CHECK(refused.status().message().find("retry-later") != std::string::npos);
  CHECK(session.refused() == 1);
  CHECK(session.queue().view().SnapshotText().value() == before);
  CHECK(session.length() == 0);
  CHECK(Met("refused = 1; ready a; attempts a = 0; steps = 0", session.queue(), {session.refused()}));
  Result<bool> ok = session.ActReport("success", "");
  REQUIRE(ok.ok());
  CHECK(ok.value());
  CHECK(Met("refused >= 1; completed a; attempts a = 1", session.queue(), {session.refused()}));
  CHECK_FALSE(Met("refused >= 1", session.queue()));  // a bare queue has no refusals
}

TEST_CASE("session: a second replay answers false, changes nothing, and is counted (refused-replays)") {
  Result<Session> made = Session::Create(ParseOrDie("v1;m3;ja:,b:;ap"));
  REQUIRE(made.ok());
  Session session = std::move(made).value();
  REQUIRE(session.queue().view().Locate("a")->place == Place::kQuarantined);
  Result<bool> first = session.Act(action::Replay{"a"});
  REQUIRE(first.ok());
  CHECK(first.value());
  const std::string before = session.queue().view().SnapshotText().value();
  const size_t length = session.length();
  Result<bool> second = session.Act(action::Replay{"a"});
  REQUIRE(second.ok());
  CHECK_FALSE(second.value());  // a is in Ready now: nothing to replay
  CHECK(session.refused_replays() == 1);
  CHECK(session.refused() == 0);  // a refused report is another count
  CHECK(session.queue().view().SnapshotText().value() == before);
  CHECK(session.length() == length);
  const GoalContext context{session.refused(), session.refused_replays()};
  CHECK(Met("refused-replays = 1; event replayed a; ready a; attempts a = 0", session.queue(), context));
  CHECK_FALSE(Met("refused-replays >= 1", session.queue(), {session.refused()}));  // the count is the session's
  // A replay of a job never given is refused the same way.
  CHECK_FALSE(session.Act(action::Replay{"nobody"}).value());
  CHECK(session.refused_replays() == 2);
  // An accepted replay is not counted.
  REQUIRE(session.Act(action::Process{Outcome::kPermanent, ""}).ok());
  REQUIRE(session.Act(action::Replay{"b"}).ok());
  CHECK(session.refused_replays() == 2);
}

TEST_CASE("every quarantine entry names its source queue, a goal reads it with 'from'") {
  Queue q = test::MakeQueue(3);
  REQUIRE(q.EnqueueMany({{"a", "A"}, {"b", "B"}}).ok());
  REQUIRE(q.Process(Outcome::kPermanent).ok());
  const std::vector<QuarantineEntry> entries = q.view().Quarantined();
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].source_queue == "orders");
  CHECK(entries[0].source_queue == kSourceQueueName);
  CHECK(q.view().Locate("a")->source_queue == "orders");
  CHECK(q.view().Locate("b")->source_queue.empty());  // only an entry names one
  CHECK(Met("quarantined a from orders", q));
  CHECK_FALSE(Met("quarantined a from orders-dlq", q));
  CHECK_FALSE(Met("quarantined b from orders", q));
  const GoalCheck check = CheckGoal(ParseGoal("quarantined a from orders").value(), q);
  CHECK(check.clauses[0].text == "quarantined a from orders");
  CHECK(check.clauses[0].actual == "a is quarantined as permanent (class permanent) with 1 attempt, from orders");
  CHECK(FormatGoal(ParseGoal("quarantined   a  from \"my queue\"").value()) == "quarantined a from \"my queue\"");
  CHECK(ParseGoal("quarantined a from").status().ToString() ==
        "invalid-argument: goal: clause 1 \"quarantined a from\": expected a source queue's name after "
        "\"quarantined a from\", got the end of the clause");
  CHECK(ParseGoal("quarantined a as permanent from orders").status().code() == Code::kInvalidArgument);
  // The snapshot carries nothing new: the name is derived from the lab's one source queue.
  CHECK(q.view().SnapshotText().value().find("orders") == std::string::npos);
}

}  // namespace
}  // namespace dlq::ideas_test
