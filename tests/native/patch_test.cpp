// An operator's patch of a quarantined job's payload before its replay (issue 22,
// the core's first part): Queue::Patch. The fixed payload is what the replay runs;
// bad input is refused by name and changes nothing.
#include <string>

#include "queue.h"
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
  REQUIRE(q.Quarantined().size() == 1);
  const QuarantineEntry before = q.Quarantined()[0];
  CHECK(before.payload == "{\"order\":");
  const uint64_t actions = q.stats().actions;
  REQUIRE(q.Patch("a", "{\"order\":1}").ok());
  CHECK(q.stats().actions == actions + 1);
  const QuarantineEntry after = q.Quarantined()[0];
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
  CHECK(q.Quarantined()[0].payload.empty());
  const std::string longest(kMaxPayloadBytes, 'x');
  REQUIRE(q.Patch("a", longest).ok());
  CHECK(q.Quarantined()[0].payload == longest);
}

TEST_CASE("patch: an unknown id, a job not in quarantine, a payload too long and a journaled queue are refused by name, nothing changed") {
  Queue q = Quarantined();
  const uint64_t actions = q.stats().actions;
  Status unknown = q.Patch("zz", "{}");
  CHECK(unknown.code() == Code::kNotFound);
  CHECK(unknown.message().find("\"zz\"") != std::string::npos);
  Status ready = q.Patch("b", "{}");
  CHECK(ready.code() == Code::kFailedPrecondition);
  CHECK(ready.message().find("quarantine") != std::string::npos);
  Status longer = q.Patch("a", std::string(kMaxPayloadBytes + 1, 'x'));
  CHECK(longer.code() == Code::kTooLarge);
  CHECK(longer.message().find("payload") != std::string::npos);
  CHECK(q.Quarantined()[0].payload == "{\"order\":");
  CHECK(q.stats().actions == actions);

  Queue journaled = Quarantined(/*journal=*/true);
  Status journal = journaled.Patch("a", "{}");
  CHECK(journal.code() == Code::kFailedPrecondition);
  CHECK(journal.message().find("journal") != std::string::npos);
  CHECK(journaled.Quarantined()[0].payload == "{\"order\":");
}

TEST_CASE("patch: a snapshot taken after a patch restores the patched payload") {
  Queue q = Quarantined();
  REQUIRE(q.Patch("a", "{\"order\":1}").ok());
  Result<std::string> snapshot = q.Snapshot();
  REQUIRE_MESSAGE(snapshot.ok(), snapshot.status().ToString());
  Result<Queue> restored = Queue::Restore(snapshot.value());
  REQUIRE_MESSAGE(restored.ok(), restored.status().ToString());
  REQUIRE(restored->Quarantined().size() == 1);
  CHECK(restored->Quarantined()[0].payload == "{\"order\":1}");
}

}  // namespace
}  // namespace dlq
