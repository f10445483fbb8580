// The session's set-up edits as whole operations (core/session/session_edits.cpp:
// SetPolicy, AddJob with a behaviour, RemoveJob) and its view as a const read
// (Session::View, Session::Link). Each edit equals Change over the scenario the
// page used to copy out and edit itself; a refusal changes nothing.
#include "session.h"

#include "player.h"
#include "test_util.h"

namespace dlq {
namespace {

using test::ParseOrDie;
using test::SessionOrDie;

// Everything a page can observe of a session: its scenario, the queue at the cursor, the timeline's length.
struct Observed {
  Scenario scenario;
  std::string queue;
  size_t events = 0;
  uint64_t generation = 0;
  bool operator==(const Observed&) const = default;
};

Observed Observe(const Session& s) {
  return {s.scenario(), s.queue().view().SnapshotText().value(), s.events().size(), s.generation()};
}

TEST_CASE("session edits: SetPolicy equals a Change of the scenario's policy, with and without the world's replay") {
  Scenario s = ParseOrDie("v2;m3;s1;y2.100;hb:f2;ja:,b:");
  Result<Scenario> played = PlayWorld(s);
  REQUIRE(played.ok());
  for (const bool replay : {true, false}) {
    Session edited = SessionOrDie(played.value());
    Session changed = SessionOrDie(played.value());
    REQUIRE(edited.Seek(2).ok());
    REQUIRE(changed.Seek(2).ok());
    Policy policy = edited.scenario().policy;
    policy.max_attempts = 1;
    policy.backoff.base_ms = 250;
    Scenario next = changed.scenario();
    next.policy = policy;
    REQUIRE(edited.SetPolicy(policy, replay).ok());
    REQUIRE(changed.Change(next, replay).ok());
    CHECK(Observe(edited) == Observe(changed));
    CHECK(edited.scenario().policy.max_attempts == 1);
    CHECK(edited.TakeDropped().has_value() == changed.TakeDropped().has_value());
  }
}

TEST_CASE("session edits: a policy the core refuses changes nothing") {
  Session session = SessionOrDie(ParseOrDie("v1;m3;ja:,b:;at,s;c1"));
  const Observed before = Observe(session);
  Policy bad = session.scenario().policy;
  bad.max_attempts = 0;
  const Status refused = session.SetPolicy(bad);
  CHECK(refused.code() == Code::kOutOfRange);
  CHECK(refused.message().find("maxAttempts") != std::string::npos);
  CHECK(Observe(session) == before);
}

TEST_CASE("session edits: AddJob with a behaviour is a set-up job at 0, else an enqueue at the cursor") {
  Behaviour flaky;
  flaky.kind = BehaviourKind::kFlaky;
  flaky.count = 2;
  Session session = SessionOrDie(ParseOrDie("v2;m3;s1;y1.100;ja:;as"));
  REQUIRE(session.Seek(0).ok());
  REQUIRE(session.AddJob(JobSpec{"b", "p", ""}, flaky).ok());
  REQUIRE(session.scenario().jobs.size() == 2);
  CHECK(session.scenario().jobs[1].id == "b");
  REQUIRE(session.scenario().world.behaviours.size() == 1);
  CHECK(session.scenario().world.behaviours[0].behaviour == flaky);
  CHECK(session.length() == 1);  // the script kept

  // Again for the same id: its behaviour is replaced, not doubled.
  Behaviour poison;
  poison.kind = BehaviourKind::kPoison;
  REQUIRE(session.Seek(1).ok());
  REQUIRE(session.AddJob(JobSpec{"c", "", "k"}, poison).ok());
  CHECK(session.cursor() == 2);
  CHECK(session.length() == 2);
  const auto* enqueue = std::get_if<action::Enqueue>(&session.scenario().actions[1]);
  REQUIRE(enqueue != nullptr);
  CHECK(enqueue->id == "c");
  CHECK(enqueue->key == "k");
  CHECK(session.scenario().world.behaviours.size() == 2);
  REQUIRE(session.Seek(0).ok());
  REQUIRE(session.AddJob(JobSpec{"d", "", ""}, poison).ok());
  REQUIRE(session.Seek(0).ok());
  const Observed before = Observe(session);
  // A taken id is refused by the queue's own words; nothing changes.
  const Status taken = session.AddJob(JobSpec{"a", "", ""}, flaky);
  CHECK_FALSE(taken.ok());
  CHECK(Observe(session) == before);
}

TEST_CASE("session edits: RemoveJob takes the set-up job or the script's enqueue, and its behaviour") {
  Scenario s = ParseOrDie("v2;m3;s1;y1.100;hb:f1,c:pp;ja:,b:;as,ec:later,s");
  Session session = SessionOrDie(s);
  REQUIRE(session.Seek(0).ok());
  REQUIRE(session.RemoveJob("b").ok());
  CHECK(session.scenario().jobs.size() == 1);
  REQUIRE(session.scenario().world.behaviours.size() == 1);
  CHECK(session.scenario().world.behaviours[0].id == "c");

  // An enqueue before the cursor: the action goes and the cursor moves back one.
  Session script = SessionOrDie(s);
  REQUIRE(script.Seek(3).ok());
  REQUIRE(script.RemoveJob("c").ok());
  CHECK(script.cursor() == 2);
  CHECK(script.length() == 2);
  CHECK(script.scenario().world.behaviours.size() == 1);

  // No such job: NotFound naming the id, and nothing changes.
  const Observed before = Observe(script);
  const Status missing = script.RemoveJob("ghost");
  CHECK(missing.code() == Code::kNotFound);
  CHECK(
      missing.message() ==
      "id: expected the id of a set-up job or of a job an enqueue action adds, got \"ghost\" (no job of the scenario)");
  CHECK(Observe(script) == before);
}

TEST_CASE("session view: a const read, the changes taken once before it") {
  Session session = SessionOrDie(ParseOrDie("v1;m3;ja:,b:;at,t,t;c0"));
  REQUIRE(session.Act(action::Process{Outcome::kSuccess, ""}).value());  // drops the tail
  const SessionChanges changes = session.TakeChanges();
  REQUIRE(changes.dropped.has_value());
  CHECK(changes.dropped->count == 3);
  const ViewAsk ask;
  const SessionView first = session.View(ask, changes);
  const SessionView again = session.View(ask, changes);  // reading twice reads the same
  CHECK(first.cursor == 1);
  CHECK(first.length == 1);
  CHECK(first.dropped.has_value());
  CHECK(again.dropped.has_value());
  CHECK(first.events_from == again.events_from);
  CHECK(first.ready.size() == 1);
  CHECK(first.ready[0].job.id == "b");
  CHECK(first.ready[0].removable);
  CHECK(first.last_action != nullptr);
  // Taken: the next answer has nothing new.
  const SessionChanges none = session.TakeChanges();
  CHECK_FALSE(none.dropped.has_value());
  CHECK(none.events_from == SIZE_MAX);
  CHECK(session.View(ViewAsk{first.event_count}, none).events_from == first.event_count);
}

TEST_CASE("session view: Ready is drawn as a head and a tail around one gap") {
  Scenario s = ParseOrDie("v1;m3;ja:");
  s.jobs.clear();
  for (int i = 0; i < 200; ++i) s.jobs.push_back({"j" + std::to_string(i), "", ""});
  Session session = SessionOrDie(s);
  const SessionView v = session.View(ViewAsk{0, 100, 24, 8}, {});
  REQUIRE(v.ready.size() == 24 + 1 + 8);
  CHECK(v.ready[23].job.id == "j23");
  CHECK(v.ready[24].gap == 200 - 32);
  CHECK(v.ready[25].job.id == "j192");
}

TEST_CASE("session link: the scenario's text, as ShareScenario gives it") {
  Session session = SessionOrDie(ParseOrDie("v1;m3;ja:;at,s;c1"));
  Result<std::string> link = session.Link();
  REQUIRE(link.ok());
  CHECK(link.value() == ShareScenario(session.scenario()).value());
}

TEST_CASE("session edits: SetWorld equals a Change of the scenario's world, replayed, a bad one changes nothing") {
  const Scenario s = ParseOrDie("v2;m3;s1;y2.100;hb:f2;ja:,b:");
  Session edited = SessionOrDie(s);
  Session changed = SessionOrDie(s);
  World world = s.world;
  world.workers = 1;
  Scenario next = changed.scenario();
  next.world = world;
  REQUIRE(edited.SetWorld(world).ok());
  REQUIRE(changed.Change(next, true).ok());
  CHECK(Observe(edited) == Observe(changed));
  CHECK(edited.scenario().world.workers == 1);
  // No world: nobody plays.
  REQUIRE(edited.SetWorld(World{}).ok());
  CHECK(edited.scenario().world == World{});
  // A behaviour naming no job is refused whole.
  const Observed before = Observe(edited);
  World stray = world;
  stray.behaviours.push_back({"nobody", stray.behaviours.front().behaviour});
  const Status refused = edited.SetWorld(stray);
  CHECK_FALSE(refused.ok());
  CHECK(refused.message().find("nobody") != std::string::npos);
  CHECK(Observe(edited) == before);
}

}  // namespace
}  // namespace dlq
