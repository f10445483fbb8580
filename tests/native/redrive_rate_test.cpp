// A rate-limited redrive (idea 33, issue 22): Session::RedriveAtRate sends the
// entries back per_second at a time, one batch per virtual second, recorded as
// ordinary actions; the goal counter replay-burst measures the largest batch.
#include "session.h"
#include "test_util.h"

namespace dlq::redrive_rate_test {
namespace {

using test::ParseOrDie;
using test::SessionOrDie;

bool Met(const std::string& goal, const Queue& q) {
  Result<Goal> g = ParseGoal(goal);
  REQUIRE_MESSAGE(g.ok(), g.status().ToString());
  return CheckGoal(g.value(), q).met;
}

std::string Actual(const std::string& goal, const Queue& q) {
  Result<Goal> g = ParseGoal(goal);
  REQUIRE_MESSAGE(g.ok(), g.status().ToString());
  return CheckGoal(g.value(), q).clauses.at(0).actual;
}

// The script past `from`, as a link writes its actions.
std::string ScriptAfter(const Session& s, size_t from) {
  Scenario tail = s.scenario();
  tail.jobs.clear();
  tail.world = World{};
  tail.actions.erase(tail.actions.begin(), tail.actions.begin() + static_cast<std::ptrdiff_t>(from));
  tail.cursor = tail.actions.size();
  const std::string text = FormatScenario(tail);
  const size_t at = text.find(";a");
  return at == std::string::npos ? "" : text.substr(at + 2);
}

std::vector<int64_t> ReplayTimes(const Session& s) {
  std::vector<int64_t> out;
  for (size_t k = 0; k < s.EventsAt(s.cursor()); ++k) {
    if (s.events()[k].kind == EventKind::kReplayed) out.push_back(s.events()[k].time);
  }
  return out;
}

// Five entries quarantined as permanent at time 0 (one attempt each).
const char* kFive = "v2;m1;s1;ja:,b:,c:,d:,e:;ap,p,p,p,p";

TEST_CASE("redrive at a rate, no world: batches of per_second, Advance 1000 after each") {
  Session s = SessionOrDie(ParseOrDie(kFive));
  const size_t before = s.length();
  Result<bool> done = s.RedriveAtRate(2);
  REQUIRE_MESSAGE(done.ok(), done.status().ToString());
  CHECK(done.value());
  CHECK(ScriptAfter(s, before) == "d2,w1000,d2,w1000,d1,w1000");
  CHECK(ReplayTimes(s) == std::vector<int64_t>{0, 0, 1000, 1000, 2000});
  CHECK(Met("quarantined = 0; ready = 5; now = 3000; replay-burst = 2", s.queue()));
  CHECK(Actual("replay-burst <= 2", s.queue()) == "replay-burst = 2: 2 replays in the second from 0 ms");
  // A plain redrive sends all five at one instant.
  Session burst = SessionOrDie(ParseOrDie(std::string(kFive) + ",d10"));
  CHECK(Met("replay-burst = 5", burst.queue()));
  CHECK(Met("replay-burst = 0", SessionOrDie(ParseOrDie(kFive)).queue()));
  // The recorded actions are the script: a link replays them exactly, with nothing new in it.
  Session again = SessionOrDie(s.scenario());
  CHECK(again.queue().view().SnapshotText().value() == s.queue().view().SnapshotText().value());
  // Back steps over one recorded action at a time.
  REQUIRE(s.Seek(s.cursor() - 1).ok());
  CHECK(s.queue().stats().now == 2000);
  CHECK(Met("ready = 5; quarantined = 0", s.queue()));
}

TEST_CASE(
    "replay-burst: the window runs from t up to, not including, t + 1000 ms: 999 ms apart count together, 1000 ms "
    "apart do not") {
  CHECK(Met("replay-burst = 2", SessionOrDie(ParseOrDie("v2;m1;s1;ja:,b:;ap,p,ra,w999,rb")).queue()));
  CHECK(Met("replay-burst = 1", SessionOrDie(ParseOrDie("v2;m1;s1;ja:,b:;ap,p,ra,w1000,rb")).queue()));
  // The fullest window counts, wherever it is; of equal ones the earliest is named.
  const Session later = SessionOrDie(ParseOrDie("v2;m1;s1;ja:,b:,c:;ap,p,p,ra,w5000,rb,w10,rc"));
  CHECK(Actual("replay-burst = 2", later.queue()) == "replay-burst = 2: 2 replays in the second from 5000 ms");
  const Session one = SessionOrDie(ParseOrDie("v2;m1;s1;ja:;ap,ra"));
  CHECK(Actual("replay-burst = 1", one.queue()) == "replay-burst = 1: 1 replay in the second from 0 ms");
}

TEST_CASE("redrive at a rate: the filter is Redrive's, n counts only what matches now") {
  // p1, p2 permanent; t1, t2 exhausted (budget 2).
  Session s = SessionOrDie(ParseOrDie("v2;m2;s1;jp1:,t1:,p2:,t2:;ap,t,p,t,t,t"));
  const size_t before = s.length();
  RedriveFilter exhausted;
  exhausted.reason = Reason::kExhausted;
  Result<bool> done = s.RedriveAtRate(1, exhausted);
  REQUIRE(done.ok());
  CHECK(done.value());
  CHECK(ScriptAfter(s, before) == "d1re,w1000,d1re,w1000");
  CHECK(Met("ready t1; ready t2; quarantined p1; quarantined p2; replay-burst = 1", s.queue()));
}

// Five quarantined entries, a world of two workers taking `work_ms` an attempt.
Scenario FiveWithWorld(int64_t work_ms) {
  Scenario scenario = ParseOrDie(kFive);
  scenario.world.workers = 2;
  scenario.world.work_ms = work_ms;
  return scenario;
}

TEST_CASE("redrive at a rate, with a world: the world plays each second, then the next batch") {
  Session s = SessionOrDie(FiveWithWorld(300));
  const size_t before = s.length();
  Result<bool> done = s.RedriveAtRate(2);
  REQUIRE_MESSAGE(done.ok(), done.status().ToString());
  CHECK(done.value());
  // Each second: the batch, two leases, the work (300 ms), two settles, and the rest of the second.
  CHECK(ScriptAfter(s, before) == "d2,l,l,w300,k1s,k2s,w700,d2,l,l,w300,k3s,k4s,w700,d1,l,w300,k5s,w700");
  CHECK(ReplayTimes(s) == std::vector<int64_t>{0, 0, 1000, 1000, 2000});
  CHECK(Met("completed = 5; quarantined = 0; now = 3000; replay-burst = 2", s.queue()));
}

TEST_CASE("redrive at a rate, with a world: an advance that would cross the second's end stops at the end") {
  // The work takes 1.5 s: the world's Advance to 1500 ms is cut at 1000, the next batch goes at 1000.
  Session s = SessionOrDie(FiveWithWorld(1500));
  const size_t before = s.length();
  REQUIRE(s.RedriveAtRate(2).ok());
  CHECK(ScriptAfter(s, before) == "d2,l,l,w1000,d2,w500,k1s,k2s,l,l,w500,d1,w1000");
  CHECK(ReplayTimes(s) == std::vector<int64_t>{0, 0, 1000, 1000, 2000});
  CHECK(s.queue().stats().now == 3000);

  // An AdvanceToNext past the end (a retry due at 5100 ms) is an Advance to the end instead.
  Scenario flaky = ParseOrDie("v2;m3;bf5000.60000n;s1;ja:;ap");
  flaky.world.behaviours.push_back({"a", Behaviour{BehaviourKind::kFlaky, Outcome::kPermanent, 1}});
  Session f = SessionOrDie(flaky);
  const size_t at = f.length();
  REQUIRE(f.RedriveAtRate(5).ok());
  REQUIRE(f.length() == at + 5);  // d1, l, w100, k1t, then the rest of the second
  CHECK(std::holds_alternative<action::Settle>(f.scenario().actions[at + 3]));
  CHECK(f.scenario().actions.back() == Action(action::Advance{900}));
  CHECK(f.queue().stats().now == 1000);
  CHECK(Met("delayed a", f.queue()));
}

TEST_CASE("redrive at a rate: an entry that fails back into quarantine does not extend n") {
  Scenario scenario = ParseOrDie("v2;m1;s1;ja:,b:,c:;ap,p,p");
  for (const char* id : {"a", "b", "c"}) scenario.world.behaviours.push_back({id, Behaviour{BehaviourKind::kPoison}});
  Session s = SessionOrDie(scenario);
  const size_t before = s.length();
  REQUIRE(s.RedriveAtRate(2).ok());
  // a and b fail again in the first second; the second batch takes c (the oldest entry), and it stops at 3.
  CHECK(ScriptAfter(s, before).rfind("d2,l,w100,k1p", 0) == 0);
  CHECK(ReplayTimes(s) == std::vector<int64_t>{0, 0, 1000});
  CHECK(Met("quarantined = 3; replay-burst = 2; now = 2000", s.queue()));
  CHECK(s.queue().view().Locate("c")->attempts == 1);
}

TEST_CASE("redrive at a rate: bad input and nothing to redrive change nothing") {
  Session s = SessionOrDie(ParseOrDie(kFive));
  const std::string before = s.queue().view().SnapshotText().value();
  const size_t length = s.length();
  for (int64_t bad : {int64_t{0}, int64_t{-3}, int64_t{1001}}) {
    Result<bool> refused = s.RedriveAtRate(bad);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.status().code() == Code::kOutOfRange);
    CHECK(refused.status().message() == "perSecond must be an integer from 1 to 1000, got " + std::to_string(bad));
  }
  RedriveFilter transient;
  transient.failure_class = FailureClass::kTransient;
  Result<bool> none = s.RedriveAtRate(3, transient);  // every entry is permanent
  REQUIRE(none.ok());
  CHECK_FALSE(none.value());
  CHECK(s.queue().view().SnapshotText().value() == before);
  CHECK(s.length() == length);
  CHECK(s.refused_replays() == 0);

  Session empty = SessionOrDie(ParseOrDie("v2;m1;s1;ja:"));
  CHECK_FALSE(empty.RedriveAtRate(1).value());
  CHECK(empty.length() == 0);
}

// A scenario with `n` entries quarantined as permanent at time 0 (jobs j0…, one attempt each).
Scenario ManyEntries(int n) {
  Scenario scenario = ParseOrDie("v2;m1;s1");
  for (int i = 0; i < n; ++i) {
    scenario.jobs.push_back(JobSpec{"j" + std::to_string(i), "", ""});
    scenario.actions.push_back(action::Process{Outcome::kPermanent, ""});
  }
  scenario.cursor = scenario.actions.size();
  return scenario;
}

TEST_CASE("redrive at a rate past the action limit is refused before anything changes, never cut short") {
  // 2,500 entries at 1 a second take 2,500 redrives and 2,500 advances: past the 2,000 actions one call plays.
  Session s = SessionOrDie(ManyEntries(2500));
  const std::string before = s.queue().view().SnapshotText().value();
  const size_t length = s.length();
  Result<bool> refused = s.RedriveAtRate(1);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().code() == Code::kTooLarge);
  CHECK(refused.status().message() ==
        "a redrive at a rate plays at most 2000 actions, and 2500 entries at perSecond 1 take 2500 s (a redrive and "
        "the second's actions each): nothing was redriven; raise perSecond or redrive fewer (only)");
  CHECK(s.queue().view().SnapshotText().value() == before);
  CHECK(s.length() == length);
  CHECK(s.queue().stats().quarantined == 2500);
  // Within the limit (1,000 seconds of 3: 2,000 actions) every entry comes back.
  Session fits = SessionOrDie(ManyEntries(2500));
  Result<bool> done = fits.RedriveAtRate(3);
  REQUIRE_MESSAGE(done.ok(), done.status().ToString());
  CHECK(done.value());
  CHECK(fits.queue().stats().quarantined == 0);
  CHECK(ReplayTimes(fits).size() == 2500);
  CHECK(fits.length() == length + 2 * 834);
}

TEST_CASE("redrive at a rate with a world past the action limit is refused as a whole too") {
  // A world (two workers): each second holds a redrive, a lease, a settle and advances, so 600 entries at
  // 1 a second pass 2,000 actions part way (the old loop stopped there and answered accepted).
  Scenario scenario = ManyEntries(600);
  scenario.world.workers = 2;
  Session s = SessionOrDie(scenario);
  const std::string before = s.queue().view().SnapshotText().value();
  const size_t length = s.length();
  Result<bool> refused = s.RedriveAtRate(1);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().code() == Code::kTooLarge);
  CHECK(s.queue().view().SnapshotText().value() == before);
  CHECK(s.length() == length);
}

TEST_CASE("redrive at a rate mid-script drops the redo tail once, Undo brings it back") {
  Scenario scenario = ParseOrDie(std::string(kFive) + ",d10,s;c5");
  Session s = SessionOrDie(scenario);
  REQUIRE(s.RedriveAtRate(3).ok());
  CHECK(ScriptAfter(s, 5) == "d3,w1000,d2,w1000");
  Result<bool> undone = s.Undo();
  REQUIRE(undone.ok());
  CHECK(undone.value());
  CHECK(ScriptAfter(s, 5) == "d10,s");
  CHECK(s.cursor() == 5);
}

}  // namespace
}  // namespace dlq::redrive_rate_test
