// SQS's redrive as StartMessageMoveTask (sqs.cpp; Policy::move_task_rate). SQS has no
// local server here, so each case names the documentation sentence it encodes:
//   [MT]  StartMessageMoveTask (docs.aws.amazon.com/AWSSimpleQueueService/latest/APIReference/
//         API_StartMessageMoveTask.html): DestinationArn "If this field is left blank, the
//         messages will be redriven back to their respective original source queues."
//         MaxNumberOfMessagesPerSecond: "The number of messages to be moved per second (the
//         message movement rate)." "The maximum value for messages per second is 500."
//   [RD]  Configuring a dead-letter queue redrive (SQS developer guide,
//         sqs-configure-dead-letter-queue-redrive): the redrive "resets the retention period"
//         and the moved message gets a "new messageID and enqueueTime".
//   [RC]  The receive count starts again on a move (floci-io/floci#900, localstack PR #10425:
//         what the emulators' maintainers report AWS does; not in AWS's own text).
#include <string>
#include <vector>

#include "queue.h"
#include "registry.h"
#include "test_util.h"

namespace dlq::sqs_move_task_test {
namespace {

Policy Sqs(int64_t rate) {
  Policy p;
  p.system = System::kSqs;
  p.max_attempts = 1;
  p.move_task_rate = rate;
  return p;
}

EntryFacts FactsOf(const QuarantineEntry& e) {
  EntryFacts f;
  f.id = e.id;
  f.payload = e.payload;
  f.attempts = e.attempts;
  f.arrived_at = e.arrived_at;
  f.enqueued_at = e.enqueued_at;
  f.reason = e.reason;
  f.moves = e.moves;
  return f;
}

// `ids` enqueued at 0 and each failed once at `at` (maxAttempts 1: into the DLQ).
Queue Dead(const Policy& p, const std::vector<std::string>& ids, int64_t at) {
  Queue q = test::QueueWith(p, ids);
  REQUIRE(q.Advance(at).ok());
  for (size_t k = 0; k < ids.size(); ++k) REQUIRE(q.Process("transient").ok());
  REQUIRE(q.view().Quarantined().size() == ids.size());
  return q;
}

std::vector<Event> Kind(const Queue& q, EventKind kind) {
  std::vector<Event> out;
  for (const Event& e : q.view().Timeline()) {
    if (e.kind == kind) out.push_back(e);
  }
  return out;
}

}  // namespace

TEST_CASE("sqs move task [MT]: \"The maximum value for messages per second is 500\": moveTaskRate 0..500, sqs only") {
  CHECK(Policy::Check(Sqs(0)).ok());
  CHECK(Policy::Check(Sqs(1)).ok());
  CHECK(Policy::Check(Sqs(500)).ok());
  const Status high = Policy::Check(Sqs(501));
  REQUIRE_FALSE(high.ok());
  CHECK(high.message() == "moveTaskRate must be an integer from 0 to 500, got 501");
  CHECK_FALSE(Policy::Check(Sqs(-1)).ok());
  Policy lab = Sqs(10);
  lab.system = System::kLab;
  const Status other = Policy::Check(lab);
  REQUIRE_FALSE(other.ok());
  CHECK(other.message().starts_with("moveTaskRate applies only with system \"sqs\""));
  CHECK(SystemOf(Sqs(7)).MoveRatePerSecond(Sqs(7)) == 7);
  CHECK(SystemOf(lab).MoveRatePerSecond(Policy{}) == 0);  // every other system: the lab's replay
}

TEST_CASE(
    "sqs move task: rate 0 (every released link) keeps the lab's replay: at once, the message and its SentTimestamp "
    "kept") {
  Queue q = Dead(Sqs(0), {"a", "b"}, 4000);
  REQUIRE(q.Advance(int64_t{1000}).ok());
  REQUIRE(q.Redrive(int64_t{2}).value() == 2);
  CHECK(q.view().Ready().size() == 2);
  for (const Event& e : Kind(q, EventKind::kReplayed)) {
    CHECK(e.message_id.empty());
    CHECK(RenderEvent(e).find("moved") == std::string::npos);
  }
  REQUIRE(q.Process("transient").ok());
  const QuarantineEntry e = q.view().Quarantined().back();
  CHECK(e.enqueued_at == 0);
  CHECK(e.moves == 0);
  const DeadLetterRecord record = SystemOf(Sqs(0)).Record(FactsOf(e));
  CHECK(record.front().name == "body");  // no MessageId: the record as released
}

TEST_CASE(
    "sqs move task [MT]: \"the number of messages to be moved per second\": at most rate a second, in virtual time") {
  Queue q = Dead(Sqs(2), {"a", "b", "c", "d", "e"}, 100);
  REQUIRE(q.Redrive(int64_t{5}).value() == 5);
  CHECK(q.view().Quarantined().empty());
  // The first moves now; the others wait their turn: 500 ms apart at 2 a second.
  CHECK(test::Ids(q.view().Ready()) == std::vector<std::string>{"a"});
  const std::vector<DelayedView> waiting = q.view().Delayed();
  REQUIRE(waiting.size() == 4);
  std::vector<int64_t> due;
  for (const DelayedView& d : waiting) due.push_back(d.due_at);
  CHECK(due == std::vector<int64_t>{600, 1100, 1600, 2100});
  CHECK(waiting[0].id == "b");
  CHECK(waiting[0].attempts == 0);         // its receive count starts again [RC]
  REQUIRE(q.Advance(int64_t{1000}).ok());  // at 1100: b and c have moved
  CHECK(test::Ids(q.view().Ready()) == std::vector<std::string>{"a", "b", "c"});
  REQUIRE(q.Advance(int64_t{1000}).ok());
  CHECK(q.view().Ready().size() == 5);
}

TEST_CASE("sqs move task [MT]: at 500 a second, 1,000 messages take two seconds, never more than 500 in any second") {
  std::vector<std::string> ids;
  for (int i = 0; i < 1000; ++i) ids.push_back("m" + std::to_string(i));
  Queue q = Dead(Sqs(500), ids, 0);
  REQUIRE(q.Redrive(int64_t{1000}).value() == 1000);
  std::vector<int64_t> moved = {0};  // the first, at once
  for (const DelayedView& d : q.view().Delayed()) moved.push_back(d.due_at);
  REQUIRE(moved.size() == 1000);
  CHECK(moved.back() == 1998);
  for (size_t k = 0; k + 500 < moved.size(); ++k) CHECK(moved[k + 500] - moved[k] >= 1000);
}

TEST_CASE("sqs move task [RD]: each moved message gets a new MessageId and enqueueTime, so a fresh retention period") {
  Policy p = Sqs(1);
  p.retention_ms = 10'000;
  Queue q = Dead(p, {"a", "b"}, 4000);
  REQUIRE(q.Advance(int64_t{2000}).ok());  // 6000
  REQUIRE(q.Redrive(int64_t{2}).value() == 2);
  // The event log says which new message each became [MT: back to the source queue].
  const std::vector<Event> replayed = Kind(q, EventKind::kReplayed);
  REQUIRE(replayed.size() == 2);
  CHECK(replayed[0].message_id == "a/moved-1");
  CHECK(replayed[1].message_id == "b/moved-1");
  CHECK(RenderEvent(replayed[0]) == "#7 step 3 at 6000ms replayed \"a\" attempts 1 -> 0 moved as \"a/moved-1\"");
  CHECK(ExplainEvent(replayed[0]) ==
        "a message move task moved \"a\" back to the source queue as a new message "
        "\"a/moved-1\": receive count reset from 1 to 0, a fresh retention period");
  // It fails again at 9000: its DLQ record has its new MessageId and SentTimestamp, its
  // receive count counted from 0, and its retention counts from the move, not from 0.
  REQUIRE(q.Advance(int64_t{3000}).ok());
  REQUIRE(q.Process("transient").ok());
  const QuarantineEntry e = q.view().Quarantined().front();
  REQUIRE(e.id == "a");
  CHECK(e.attempts == 1);
  CHECK(e.enqueued_at == 6000);
  CHECK(e.moves == 1);
  CHECK(e.retention_from == 6000);
  CHECK(e.retention_until == 16'000);
  const DeadLetterRecord record = SystemOf(p).Record(FactsOf(e));
  REQUIRE(record.size() == 5);
  CHECK(record[0] == RecordField::Text("MessageId", "a/moved-1"));
  CHECK(record[2] == RecordField::Number("ApproximateReceiveCount", 1));
  CHECK(record[3] == RecordField::Number("SentTimestamp", 6000));
  // Moved again, it is a newer message still.
  REQUIRE(q.Replay("a"));
  CHECK(Kind(q, EventKind::kReplayed).back().message_id == "a/moved-2");
}

TEST_CASE("sqs move task: a snapshot and the journal carry the moves and the waiting messages") {
  Queue q = Dead(Sqs(3), {"a", "b", "c"}, 50);
  REQUIRE(q.Redrive(int64_t{3}).value() == 3);
  REQUIRE(q.Process("transient").ok());  // a, moved once, back in the DLQ
  test::CheckJournalRecovers(q);
  const std::string text = q.view().SnapshotText().value();
  CHECK(text.find(" moves 1") != std::string::npos);
  Result<Queue> restored = Queue::Restore(text);
  REQUIRE_MESSAGE(restored.ok(), restored.status().ToString());
  CHECK(restored->view().SnapshotText().value() == text);
  CHECK(restored->view().Quarantined()[0].moves == 1);
  CHECK(restored->view().Delayed().size() == 2);
}

TEST_CASE("sqs move task: the dead-letter queue's own consumer (dlqToSource) is not a move task") {
  Policy p = Sqs(1);
  p.dlq_to_source = true;
  Queue q = test::QueueWith(p, {"a"});
  REQUIRE(q.Process("transient").ok());
  REQUIRE(Kind(q, EventKind::kReplayed).size() == 1);
  for (const Event& e : Kind(q, EventKind::kReplayed)) {
    CHECK(e.routed_back);
    CHECK(e.message_id.empty());
  }
}

}  // namespace dlq::sqs_move_task_test
