// The session (core/session/session.h): the one model behind a playground. Seeking
// anywhere equals replaying from zero, a crash action restarts the queue from
// its journal and travels through links, and the authored script is told apart
// from the learner's own history.
#include "session.h"

#include "player.h"
#include "prng.h"
#include "test_util.h"

namespace dlq {
namespace {

using test::ParseOrDie;
using test::SessionOrDie;

// The state at the session's cursor, replayed from zero.
std::string Replayed(const Session& session) {
  Scenario s = session.scenario();
  Result<Queue> q = RunScenario(s);
  REQUIRE_MESSAGE(q.ok(), q.status().ToString());
  return q->view().SnapshotText().value();
}

std::string Journal(const Queue& q) {
  std::string out;
  const Result<std::vector<JournalEntry>> journal = q.view().Journal();
  for (const JournalEntry& e : journal.value()) out += e.record + "\n";
  return out;
}

// A random action the queue may accept at this point (or refuse: the session must then change nothing).
Action RandomAction(Prng& rng, const Queue& q, size_t n) {
  const Outcome outcomes[] = {Outcome::kSuccess, Outcome::kTransient, Outcome::kPermanent, Outcome::kPrecondition};
  switch (rng.Below(12)) {
    case 0:
    case 1:
    case 2: return action::Process{outcomes[rng.Below(4)], rng.Below(2) ? "boom" : ""};
    case 3: return action::Enqueue{"n" + std::to_string(n), "p" + std::to_string(rng.Below(5)), ""};
    case 4: return action::Lease{};
    case 5: {
      const std::vector<LeaseView> leased = q.view().Leased();
      const uint32_t lease =
          leased.empty() ? 1 : LeaseTable::ParseToken(leased[rng.Below(static_cast<uint32_t>(leased.size()))].token);
      return action::Settle{lease, outcomes[rng.Below(4)], ""};
    }
    case 6: return action::Advance{static_cast<int64_t>(rng.Below(3000))};
    case 7: return action::AdvanceToNext{};
    case 8: {
      const std::vector<QuarantineEntry> entries = q.view().Quarantined();
      return action::Replay{entries.empty() ? "a" : entries[rng.Below(static_cast<uint32_t>(entries.size()))].id};
    }
    case 9: return action::Redrive{1};
    case 10: {
      const int64_t writes = static_cast<int64_t>(q.view().journal_size());
      return action::Crash{writes == 0 ? 0 : 1 + static_cast<int64_t>(rng.Below(static_cast<uint32_t>(writes))),
                           rng.Below(3) == 0};
    }
    default: return action::Process{Outcome::kSuccess, ""};
  }
}

TEST_CASE("session: seeking anywhere equals replaying the script from zero") {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    Prng rng(seed);
    Scenario s = ParseOrDie("v2;m3;bx100.5000f;l500;s7;ja:x,b:y,c:z");
    s.policy.seed = seed;
    Session session = SessionOrDie(s);
    for (size_t n = 0; n < 160; ++n) {
      const std::string before = session.queue().view().SnapshotText().value();
      const size_t length = session.length();
      Result<bool> acted = session.Act(RandomAction(rng, session.queue(), n));
      if (!acted.ok() || !acted.value()) {
        CHECK(session.queue().view().SnapshotText().value() == before);  // refused: nothing changed
        CHECK(session.length() == length);
      }
      if (rng.Below(10) == 0) REQUIRE(session.Seek(rng.Below(static_cast<uint32_t>(session.length() + 1))).ok());
    }
    REQUIRE(session.Seek(session.length()).ok());
    const std::string end_journal = Journal(session.queue());
    for (int k = 0; k < 12; ++k) {
      const size_t c = rng.Below(static_cast<uint32_t>(session.length() + 1));
      REQUIRE(session.Seek(c).ok());
      CHECK(session.cursor() == c);
      CHECK(session.queue().view().SnapshotText().value() == Replayed(session));
    }
    REQUIRE(session.Seek(session.length()).ok());
    CHECK(Journal(session.queue()) == end_journal);
    // A load of the same scenario gives the same timeline, event for event.
    Session again = SessionOrDie(session.scenario());
    REQUIRE(again.events().size() == session.events().size());
    for (size_t i = 0; i < again.events().size(); ++i) {
      CHECK(RenderEvent(again.events()[i]) == RenderEvent(session.events()[i]));
    }
  }
}

TEST_CASE("session: events before the cursor are what happened, numbered along the script") {
  Session session = SessionOrDie(ParseOrDie("v1;m3;ja:,b:;at,s,s"));
  CHECK(session.cursor() == 3);
  const size_t all = session.events().size();
  for (size_t i = 0; i < all; ++i) CHECK(session.events()[i].seq == i + 1);
  REQUIRE(session.Seek(1).ok());
  CHECK(session.EventsAt(1) < all);
  CHECK(session.CursorForEvent(session.EventsAt(1)) == 1);
  CHECK(session.LastActionEvent() != nullptr);
  CHECK(session.Explanation() == ExplainEvent(*session.LastActionEvent()));
  CHECK(session.IsRemovable("b"));
  CHECK_FALSE(session.IsRemovable("a"));
}

TEST_CASE("session: a crash action restarts from the journal, and its loss is the state") {
  // Unsafe order: a move into quarantine removes the job from ready first, so a
  // crash between the two writes loses it.
  Session session = SessionOrDie(ParseOrDie("v2;m1;s1;q0.0u;ja:,b:;as"));
  REQUIRE(session.Act(action::Process{Outcome::kPermanent, "bad"}).value());
  const std::vector<JournalEntry> journal = session.queue().view().Journal().value();
  int64_t between = 0;  // the write after which b is in no place
  for (const JournalEntry& e : journal) {
    if (e.op == "remove-ready" && e.id == "b") between = static_cast<int64_t>(e.write);
  }
  REQUIRE(between > 0);
  REQUIRE(session.Act(action::Crash{between, false}).value());
  CHECK(session.queue().stats().lost == 1);
  CHECK(session.queue().view().Locate("b").has_value());
  CHECK(session.Explanation().find("lost \"b\"") != std::string::npos);
  CHECK(session.events().back().kind == EventKind::kLost);

  // The link carries the crash; loading it gives the same state.
  const std::string link = FormatScenario(session.scenario());
  CHECK(link.find(",c" + std::to_string(between)) != std::string::npos);
  Session loaded = SessionOrDie(ParseOrDie(link.c_str()));
  CHECK(loaded.queue().view().SnapshotText().value() == session.queue().view().SnapshotText().value());
  // Time travel across it, both ways.
  REQUIRE(session.Seek(1).ok());
  CHECK(session.queue().stats().lost == 0);
  REQUIRE(session.Seek(3).ok());
  CHECK(session.queue().stats().lost == 1);

  // After the restart the queue goes on, and a second crash restarts from the first's state.
  REQUIRE(session.Act(action::Enqueue{"c", "later", ""}).value());
  REQUIRE(session.Act(action::Process{Outcome::kSuccess, ""}).value());
  const size_t writes = session.queue().view().journal_size();
  REQUIRE(session.Act(action::Crash{static_cast<int64_t>(writes), false}).value());
  CHECK(session.queue().view().SnapshotText().value() == Replayed(session));
}

// What Recover() after write k says, ranked as CrashRanks ranks it.
uint8_t RecoveredRank(const std::optional<std::string>& origin, const std::vector<std::string_view>& journal,
                      int64_t k) {
  RecoverOptions options;
  options.crash_after = k;
  Result<Recovery> r =
      Queue::Recover(origin ? std::optional<std::string_view>(*origin) : std::nullopt, journal, options);
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  if (!r->lost.empty()) return 3;
  for (const std::string& id : r->duplicated) {
    if (r->queue.view().Locate(id)->place == Place::kQuarantined) return 2;
  }
  return r->duplicated.empty() ? 0 : 1;
}

TEST_CASE("crash ranks: one pass over the journal equals a recovery after every write") {
  size_t ranked = 0, bad = 0, from_restart = 0;
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    Prng rng(seed);
    Scenario s =
        ParseOrDie(seed % 2 == 0 ? "v2;m3;bx100.5000f;l500;s7;q0.0u;ja:x,b:y,c:z" : "v2;m2;l500;s7;ja:x,b:y,c:z");
    s.policy.seed = seed;
    Session session = SessionOrDie(s);
    for (size_t n = 0; n < 60; ++n) {
      Action a = RandomAction(rng, session.queue(), n);
      if (std::holds_alternative<action::Crash>(a) && rng.Below(4) != 0) continue;  // a few restarts: origins too
      (void)session.Act(a);
    }
    const Result<std::vector<JournalEntry>> journal = session.queue().view().Journal();
    REQUIRE(journal.ok());
    std::vector<std::string_view> records;
    for (const JournalEntry& e : journal.value()) records.push_back(e.record);
    // The origin: creation, or the state the last crash restarted from.
    std::optional<std::string> origin;
    const auto& actions = session.scenario().actions;
    for (size_t i = 0; i < actions.size(); ++i) {
      if (std::holds_alternative<action::Crash>(actions[i])) {
        Scenario upto = session.scenario();
        upto.cursor = i + 1;
        origin = RunScenario(upto)->view().SnapshotText().value();
      }
    }
    if (records.empty()) continue;
    from_restart += origin.has_value();
    Result<std::vector<uint8_t>> ranks =
        Queue::CrashRanks(origin ? std::optional<std::string_view>(*origin) : std::nullopt, records);
    REQUIRE_MESSAGE(ranks.ok(), ranks.status().ToString());
    REQUIRE(ranks->size() == records.size());
    for (size_t k = 1; k <= records.size(); ++k) {
      CAPTURE(seed);
      CAPTURE(k);
      CHECK(ranks.value()[k - 1] == RecoveredRank(origin, records, static_cast<int64_t>(k)));
      ++ranked;
      bad += ranks.value()[k - 1] > 0;
    }
  }
  CHECK(ranked > 1000);
  CHECK(bad > 20);          // the unsafe order loses jobs at some writes, the safe order doubles some
  CHECK(from_restart > 3);  // journals that follow a restart's state, not only creation
}

TEST_CASE("session: a refused crash changes nothing") {
  Session session = SessionOrDie(ParseOrDie("v1;m3;ja:;at"));
  const std::string before = session.queue().view().SnapshotText().value();
  Result<bool> past = session.Act(action::Crash{1000, false});
  CHECK(past.status().code() == Code::kOutOfRange);
  CHECK(session.length() == 1);
  CHECK(session.queue().view().SnapshotText().value() == before);
  // No journal, no crash.
  Scenario off = ParseOrDie("v1;m3;ja:");
  off.policy.journal = false;
  Session quiet = SessionOrDie(off);
  CHECK(quiet.Act(action::Crash{1, false}).status().code() == Code::kFailedPrecondition);
  CHECK(quiet.length() == 0);
}

TEST_CASE("session: the authored script is told apart from the learner's history") {
  Session session = SessionOrDie(ParseOrDie("v1;m3;ja:;at,t,t;c0"));
  CHECK(session.AuthoredThrough() == 3);
  REQUIRE(session.Act(action::Process{Outcome::kTransient, ""}).value());  // along the script
  REQUIRE(session.Act(action::Process{Outcome::kTransient, ""}).value());
  CHECK(session.cursor() == 2);
  CHECK(session.AuthoredThrough() == 3);
  REQUIRE(session.Act(action::Process{Outcome::kSuccess, ""}).value());  // diverges at position 2
  CHECK(session.length() == 3);
  CHECK(session.AuthoredThrough() == 2);
  CHECK(session.cursor() > session.AuthoredThrough());
  // The dropped tail comes back with Undo, and the history is the authored one again.
  std::optional<DroppedActions> dropped = session.TakeDropped();
  REQUIRE(dropped.has_value());
  CHECK(dropped->count == 1);
  REQUIRE(session.Undo().value());
  CHECK(session.AuthoredThrough() == 3);

  // An error text is recorded, not decided on: a step that differs only in it
  // replaces the script but keeps the authored history (its captions hold).
  Session texts = SessionOrDie(ParseOrDie("v1;m3;ja:;at:db%20timeout,t:db%20timeout;c0"));
  REQUIRE(texts.Act(action::Process{Outcome::kTransient, ""}).value());
  CHECK(texts.length() == 1);
  CHECK(texts.AuthoredThrough() == 1);
  REQUIRE(texts.Act(action::Process{Outcome::kPermanent, ""}).value());
  CHECK(texts.AuthoredThrough() == 1);
}

TEST_CASE("session: a load that the cursor cannot pass is refused, or clamped") {
  Session session = SessionOrDie(ParseOrDie("v1;m3;ja:;as"));
  Scenario bad = ParseOrDie("v1;m3;ja:;as,s");  // the second process finds nothing ready
  const Status refused = session.Load(bad);
  CHECK(refused.code() == Code::kFailedPrecondition);
  CHECK(session.length() == 1);
  REQUIRE(session.Load(bad, true).ok());
  CHECK(session.length() == 1);
  CHECK(session.TakeDropped()->count == 1);
}

TEST_CASE("session: a dropped enqueue takes its job's behaviour with it, so the link still loads") {
  Scenario s = ParseOrDie("v2;m3;s1;y2.100;hb:f1,c:pp;ja:,b:;as,ec:later,s");
  REQUIRE(s.world.behaviours.size() == 2);
  Session session = SessionOrDie(s);
  REQUIRE(session.Seek(1).ok());
  REQUIRE(session.Act(action::Process{Outcome::kPermanent, ""}).value());  // drops the tail, the enqueue of c with it
  REQUIRE(session.scenario().world.behaviours.size() == 1);
  CHECK(session.scenario().world.behaviours[0].id == "b");  // b is a set-up job: kept
  Result<std::string> link = ShareScenario(session.scenario());
  REQUIRE_MESSAGE(link.ok(), link.status().ToString());
  REQUIRE(session.Undo().value());
  CHECK(session.scenario().world.behaviours.size() == 2);

  // A set-up change before c's enqueue: the world plays the rest again without c, and its behaviour goes.
  REQUIRE(session.Seek(1).ok());
  Scenario changed = session.scenario();
  changed.policy.max_attempts = 2;
  const Status played = session.Change(changed);
  REQUIRE_MESSAGE(played.ok(), played.ToString());
  CHECK(session.scenario().world.behaviours.size() == 1);
  CHECK(ShareScenario(session.scenario()).ok());
}

TEST_CASE("session: a set-up change with a world plays the script past the cursor again") {
  Scenario s = ParseOrDie("v2;m3;s1;y2.100;hb:f2;ja:,b:");
  Result<Scenario> played = PlayWorld(s);
  REQUIRE(played.ok());
  REQUIRE(played->actions.size() > 4);
  Session session = SessionOrDie(played.value());
  REQUIRE(session.Seek(2).ok());
  Scenario changed = session.scenario();
  changed.policy.max_attempts = 1;
  REQUIRE(session.Change(changed).ok());
  CHECK(session.cursor() == 2);
  CHECK(session.scenario().policy.max_attempts == 1);
  std::optional<DroppedActions> dropped = session.TakeDropped();
  REQUIRE(dropped.has_value());
  CHECK(dropped->replayed);
  CHECK(session.can_undo());
}

}  // namespace
}  // namespace dlq
