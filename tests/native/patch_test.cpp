// An operator's patch of a quarantined job's payload before its replay (issue 22):
// Queue::Patch, its event and its journal write. The fixed payload is what the replay runs;
// bad input is refused by name and changes nothing.
#include <string>
#include <string_view>
#include <vector>

#include "event.h"

#include "queue.h"
#include "scenario.h"
#include "session.h"
#include "test_util.h"

namespace dlq {
namespace {

Queue Quarantined(bool journal = false) {
  Policy p;
  p.max_attempts = 1;
  p.journal = journal;
  Result<Queue> q = Queue::Create(p);
  REQUIRE_MESSAGE(q.ok(), q.status().ToString());
  REQUIRE(q->Enqueue("a", "{\"order\":").ok());  // malformed: cut short
  REQUIRE(q->Enqueue("b", "{\"order\":2}").ok());
  REQUIRE(q->Process("permanent").ok());  // a quarantined
  return std::move(q).value();
}

TEST_CASE("patch: a quarantined job gets the new payload, keeps its entry, and the replay runs the fixed job") {
  Queue q = Quarantined();
  REQUIRE(q.view().Quarantined().size() == 1);
  const QuarantineEntry before = q.view().Quarantined()[0];
  CHECK(before.payload == "{\"order\":");
  const uint64_t actions = q.stats().actions;
  REQUIRE(q.Patch("a", "{\"order\":1}").ok());
  CHECK(q.stats().actions == actions + 1);
  const QuarantineEntry after = q.view().Quarantined()[0];
  CHECK(after.id == "a");
  CHECK(after.payload == "{\"order\":1}");
  CHECK(after.attempts == before.attempts);
  CHECK(after.reason == before.reason);
  CHECK(after.last_error == before.last_error);
  REQUIRE(q.Replay("a"));
  // b is ahead; a runs after it with the patched payload.
  REQUIRE(q.Process("success").ok());
  Result<LeaseGrant> lease = q.Lease();
  REQUIRE(lease.ok());
  CHECK(lease->id == "a");
  CHECK(lease->payload == "{\"order\":1}");
}

TEST_CASE("patch: an empty payload and one of exactly kMaxPayloadBytes are accepted") {
  Queue q = Quarantined();
  REQUIRE(q.Patch("a", "").ok());
  CHECK(q.view().Quarantined()[0].payload.empty());
  const std::string longest(kMaxPayloadBytes, 'x');
  REQUIRE(q.Patch("a", longest).ok());
  CHECK(q.view().Quarantined()[0].payload == longest);
}

TEST_CASE("patch: an unknown id, a job not in quarantine and a payload too long are refused by name, nothing changed") {
  Queue q = Quarantined(/*journal=*/true);
  const uint64_t actions = q.stats().actions;
  const size_t events = q.view().Timeline().size();
  const size_t writes = q.view().Journal()->size();
  Status unknown = q.Patch("zz", "{}");
  CHECK(unknown.code() == Code::kNotFound);
  CHECK(unknown.message().find("\"zz\"") != std::string::npos);
  Status ready = q.Patch("b", "{}");
  CHECK(ready.code() == Code::kFailedPrecondition);
  CHECK(ready.message().find("quarantine") != std::string::npos);
  Status longer = q.Patch("a", std::string(kMaxPayloadBytes + 1, 'x'));
  CHECK(longer.code() == Code::kTooLarge);
  CHECK(longer.message().find("payload") != std::string::npos);
  CHECK(q.view().Quarantined()[0].payload == "{\"order\":");
  CHECK(q.stats().actions == actions);
  CHECK(q.view().Timeline().size() == events);
  CHECK(q.view().Journal()->size() == writes);
}

TEST_CASE("patch: the timeline says it, and earlier events keep the size the payload had then") {
  Queue q = Quarantined(/*journal=*/true);
  REQUIRE(q.Patch("a", "{\"order\":1}").ok());
  const std::vector<Event> timeline = q.view().Timeline();
  const Event& patched = timeline.back();
  CHECK(patched.kind == EventKind::kPatched);
  CHECK(patched.id == "a");
  CHECK(patched.old_payload_bytes == 9);
  CHECK(patched.payload_bytes == 11);
  CHECK(RenderEvent(patched).find("patched \"a\" payload 9 -> 11 bytes") != std::string::npos);
  CHECK(ExplainEvent(patched).find("an operator patched the payload of \"a\" in quarantine") != std::string::npos);
  CHECK(timeline[0].kind == EventKind::kEnqueued);
  CHECK(timeline[0].payload_bytes == 9);  // as enqueued, not as patched
  REQUIRE(q.Replay("a"));
  CHECK(q.view().Timeline().back().payload_bytes == 11);  // the replay runs the fixed job
  CHECK(q.view().Timeline()[0].payload_bytes == 9);
  // A restored copy says the same.
  Result<Queue> back = Queue::Restore(q.view().SnapshotText().value());
  REQUIRE(back.ok());
  CHECK(back->view().Timeline()[0].payload_bytes == 9);
  CHECK(back->view().TimelineText() == q.view().TimelineText());
}

TEST_CASE("patch: with the journal on, a recovery from the journal alone restores the patched payload") {
  Queue q = Quarantined(/*journal=*/true);
  REQUIRE(q.Patch("a", "{\"order\":1}").ok());
  Result<std::vector<JournalEntry>> journal = q.view().Journal();
  REQUIRE(journal.ok());
  CHECK(journal->back().record.find(" set-payload 0 ") != std::string::npos);
  std::vector<std::string_view> records;
  for (const JournalEntry& e : journal.value()) records.push_back(e.record);
  Result<Recovery> r = Queue::Recover(std::nullopt, records, {});
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  REQUIRE(r->queue.view().Quarantined().size() == 1);
  CHECK(r->queue.view().Quarantined()[0].payload == "{\"order\":1}");
  CHECK(r->queue.view().TimelineText() == q.view().TimelineText());
  CHECK(r->queue.view().SnapshotText().value() == q.view().SnapshotText().value());
}

TEST_CASE("patch: a snapshot taken after a patch restores the patched payload") {
  Queue q = Quarantined();
  REQUIRE(q.Patch("a", "{\"order\":1}").ok());
  Result<std::string> snapshot = q.Snapshot();
  REQUIRE_MESSAGE(snapshot.ok(), snapshot.status().ToString());
  Result<Queue> restored = Queue::Restore(snapshot.value());
  REQUIRE_MESSAGE(restored.ok(), restored.status().ToString());
  REQUIRE(restored->view().Quarantined().size() == 1);
  CHECK(restored->view().Quarantined()[0].payload == "{\"order\":1}");
}

TEST_CASE(
    "patch: a link's f<id>:<payload> action patches, round-trips, and is refused by name on a job not in quarantine") {
  const std::string link = "v2;m1;s1;ja:%7B,b:2;ap,fa:%7B%7D,ra,s,s";
  const Scenario scenario = test::ParseOrDie(link);
  REQUIRE(scenario.actions.size() == 5);
  const auto* patch = std::get_if<action::Patch>(&scenario.actions[1]);
  REQUIRE(patch != nullptr);
  CHECK(patch->id == "a");
  CHECK(patch->payload == "{}");
  CHECK(FormatScenario(scenario) == link);
  Result<Queue> played = RunScenario(scenario);
  REQUIRE_MESSAGE(played.ok(), played.status().ToString());
  CHECK(played->view().Completed().size() == 2);
  CHECK(played->view().TimelineText().find("patched \"a\" payload 1 -> 2 bytes") != std::string::npos);
  // A session plays it too, and its checkpoints go back to before the patch.
  Session session = test::SessionOrDie(scenario);
  REQUIRE(session.Seek(1).ok());
  CHECK(session.queue().view().Quarantined()[0].payload == "{");
  REQUIRE(session.Seek(2).ok());
  CHECK(session.queue().view().Quarantined()[0].payload == "{}");
  // b is ready, not quarantined: the action is refused, naming it.
  Result<Queue> refused = RunScenario(test::ParseOrDie("v2;m1;s1;ja:x,b:y;ap,fb:z"));
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().message().find("action 2") != std::string::npos);
  CHECK(refused.status().message().find("expected in quarantine") != std::string::npos);
  CHECK(ParseScenario("v2;m1;s1;ja:x;afa").status().message().find("':' between action 1's id and payload") !=
        std::string::npos);
}

}  // namespace
}  // namespace dlq
