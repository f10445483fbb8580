// Where a retry's delay lives (policy.h, DelayAt; idea 23): the broker (the lab's
// rule, unchanged), a consumer that sleeps holding the job, or a retry queue whose
// scheduler republishes it. Each in one line of the policy; links and snapshots
// carry it; bad input is refused by name and changes nothing.
#include "test_util.h"
#include "crc32.h"
#include "player.h"

#include <cstdio>

using namespace dlq;
using namespace dlq::test;

namespace delay_at_test {

namespace {

Policy With(DelayAt where, Ordering ordering = Ordering::kNone, int64_t lease_ms = 30'000) {
  Policy p;
  p.backoff.kind = BackoffKind::kFixed;
  p.backoff.base_ms = 1000;
  p.lease_ms = lease_ms;
  p.ordering = ordering;
  p.delay_at = where;  // the one line
  return p;
}

Queue Make(const Policy& p, std::vector<std::string> ids) {
  Result<Queue> made = Queue::Create(p);
  REQUIRE(made.ok());
  Queue q = std::move(made).value();
  for (const std::string& id : ids) REQUIRE(q.Enqueue(id, "").ok());
  return q;
}

// The last event of `kind` on the timeline.
Event Last(const Queue& q, EventKind kind) {
  const std::vector<Event> events = q.view().Timeline();
  for (auto it = events.rbegin(); it != events.rend(); ++it) {
    if (it->kind == kind) return *it;
  }
  FAIL("no such event");
  return {};
}

// One worker, 100 ms per attempt; job "a" fails once, "b" is healthy. Plays the
// world until nothing happens and gives the time each job completed.
std::vector<std::pair<std::string, int64_t>> PlayOneWorker(DelayAt where) {
  Queue q = Make(With(where), {"a", "b"});
  World w;
  Behaviour flaky;
  flaky.kind = BehaviourKind::kFlaky;
  flaky.count = 1;
  w.behaviours.push_back({"a", flaky});
  std::vector<std::pair<std::string, int64_t>> done;
  for (int i = 0; i < 100; ++i) {
    const std::optional<Action> next = NextWorldAction(q, w);
    if (!next) break;
    JournalOrigin origin;
    REQUIRE(ApplyAction(q, origin, *next, static_cast<size_t>(i)).ok());
    for (const Event& e : q.view().Timeline(q.view().event_count() - 1)) {
      if (e.kind == EventKind::kCompleted) done.emplace_back(e.id, e.time);
    }
  }
  CHECK(!NextWorldAction(q, w).has_value());
  return done;
}

// `text` with its "end <crc32>" line recomputed, so only the edit is judged.
std::string Resealed(const std::string& text) {
  const size_t end = text.rfind("end ");
  const std::string body = text.substr(0, end);
  char line[32];
  std::snprintf(line, sizeof line, "end %08x\n", Crc32(body));
  return body + line;
}

}  // namespace

TEST_SUITE("delayAt") {
  TEST_CASE("broker, the default: the delayed lines are as released (no place named)") {
    Queue q = Make(With(DelayAt::kBroker), {"a"});
    const Attempt a = MustProcess(q, "transient");
    CHECK(a.disposition == Disposition::kDelayed);
    CHECK(a.due_at == 1000);
    CHECK(RenderEvent(Last(q, EventKind::kDelayed)) == "#3 step 1 delayed \"a\" attempts 1 until 1000");
    CHECK(ExplainEvent(Last(q, EventKind::kDelayed)) ==
          "\"a\" waits in delayed until 1000 ms, then joins the tail of the ready queue");
    REQUIRE(q.Advance(int64_t{1000}).ok());
    CHECK(RenderEvent(Last(q, EventKind::kDue)) == "#4 step 1 at 1000ms due \"a\" attempts 1");
  }

  TEST_CASE("retry-queue: the job waits in orders.retry, so a stalled partition runs on, it comes back at the tail") {
    // Under the broker's delay a stalled partition waits for its delayed head.
    Queue broker = Make(With(DelayAt::kBroker, Ordering::kStall), {"a", "b", "c"});
    MustProcess(broker, "transient");
    CHECK(!broker.view().CanLease());
    REQUIRE(broker.Advance(int64_t{1000}).ok());
    CHECK(Ids(broker.view().Ready()) == Strings{"a", "b", "c"});  // back at the head, in place

    Queue q = Make(With(DelayAt::kRetryQueue, Ordering::kStall), {"a", "b", "c"});
    const Attempt a = MustProcess(q, "transient");
    CHECK(a.disposition == Disposition::kDelayed);
    CHECK(a.due_at == 1000);
    const Event delayed = Last(q, EventKind::kDelayed);
    CHECK(delayed.delay_at == DelayAt::kRetryQueue);
    CHECK(RenderEvent(delayed) == "#5 step 1 delayed \"a\" attempts 1 until 1000 in orders.retry");
    CHECK(ExplainEvent(delayed) ==
          "\"a\" was published to the retry queue orders.retry and acked; its scheduler puts it back at the tail of "
          "orders as a new message at 1000 ms");
    CHECK(RenderEvent(Last(q, EventKind::kAttempt)) ==
          "#4 step 1 attempt \"a\" 1/3 transient -> delayed 1000ms until 1000 in orders.retry");
    CHECK(ExplainEvent(Last(q, EventKind::kAttempt)) ==
          "attempt 1 of 3 failed transiently: 2 attempts left → retry after a backoff of 1000 ms, waiting in "
          "orders.retry, at 1000 ms");
    CHECK(q.view().CanLease());  // the partition is not held by a job that left it
    CHECK(MustProcess(q, "success").id == "b");
    REQUIRE(q.Advance(int64_t{1000}).ok());
    CHECK(Ids(q.view().Ready()) == Strings{"c", "a"});  // a new message at the source's tail
    CHECK(RenderEvent(Last(q, EventKind::kDue)) == "#8 step 2 at 1000ms due \"a\" attempts 1 in orders.retry");
    CHECK(ExplainEvent(Last(q, EventKind::kDue)) ==
          "the scheduler moved \"a\" from orders.retry to the tail of orders as a new message");
    // The snapshot carries the place, and a restored queue goes on alike.
    const std::string text = q.view().SnapshotText().value();
    CHECK(text.find("delayAt retry-queue") != std::string::npos);
    Result<Queue> back = Queue::Restore(text);
    REQUIRE(back.ok());
    CHECK(back->view().SnapshotText().value() == text);
    CHECK(back->policy().delay_at == DelayAt::kRetryQueue);
  }

  TEST_CASE("consumer-sleep: the sleeping worker is busy, so the other job completes later") {
    // Broker: a fails at 100 and waits in the broker; the worker takes b at once.
    const auto broker = PlayOneWorker(DelayAt::kBroker);
    CHECK(broker == std::vector<std::pair<std::string, int64_t>>{{"b", 200}, {"a", 1200}});
    // Consumer sleep: the worker sleeps holding a until 1100, retries it, and only then takes b.
    const auto sleep = PlayOneWorker(DelayAt::kConsumerSleep);
    CHECK(sleep == std::vector<std::pair<std::string, int64_t>>{{"a", 1200}, {"b", 1300}});
    // Retry queue: like the broker for the worker, which acked a and is free.
    const auto retry = PlayOneWorker(DelayAt::kRetryQueue);
    CHECK(retry == std::vector<std::pair<std::string, int64_t>>{{"b", 200}, {"a", 1200}});
  }

  TEST_CASE("consumer-sleep: when due the job is at the ready head, its worker's next, the events name the worker") {
    Queue q = Make(With(DelayAt::kConsumerSleep), {"a", "b"});
    const Attempt a = MustProcess(q, "transient");
    CHECK(a.delay_ms == 1000);
    const Event delayed = Last(q, EventKind::kDelayed);
    CHECK(!delayed.sleep_cut);
    CHECK(RenderEvent(delayed) == "#4 step 1 delayed \"a\" attempts 1 until 1000 in the worker");
    CHECK(ExplainEvent(delayed) ==
          "\"a\" waits in its worker, which sleeps holding it until 1000 ms and takes no other job meanwhile; then "
          "it retries it");
    REQUIRE(q.Advance(int64_t{1000}).ok());
    CHECK(Ids(q.view().Ready()) == Strings{"a", "b"});
    CHECK(ExplainEvent(Last(q, EventKind::kDue)) ==
          "the worker holding \"a\" stopped waiting: \"a\" is at the head of the ready queue, retried next");
  }

  TEST_CASE("consumer-sleep past the lease: the lease's expiry ends the wait and the broker delivers it again") {
    Queue q = Make(With(DelayAt::kConsumerSleep, Ordering::kNone, /*lease_ms=*/400), {"a"});
    const LeaseGrant grant = q.Lease().value();
    REQUIRE(q.Advance(int64_t{100}).ok());
    const Attempt a = q.Settle(grant.token, "transient").value();
    CHECK(a.disposition == Disposition::kDelayed);
    CHECK(a.due_at == 400);  // the lease's expiry, not 100 + 1000
    CHECK(a.delay_ms == 300);
    const Event delayed = Last(q, EventKind::kDelayed);
    CHECK(delayed.sleep_cut);
    CHECK(RenderEvent(delayed) ==
          "#4 step 1 at 100ms delayed \"a\" attempts 1 until 400 in the worker cut by its lease");
    CHECK(ExplainEvent(delayed).find("its lease expires at 400 ms, before the backoff ends") != std::string::npos);
    CHECK(ExplainEvent(delayed).find("is a duplicate") != std::string::npos);
    CHECK(ExplainEvent(Last(q, EventKind::kAttempt)) ==
          "attempt 1 of 3 failed transiently: 2 attempts left → retry after a backoff of 300 ms, its worker sleeping "
          "until its lease expires, at 400 ms");
    REQUIRE(q.Advance(int64_t{300}).ok());
    CHECK(Ids(q.view().Ready()) == Strings{"a"});
    CHECK(q.Lease().value().attempt == 2);  // the redelivery is counted: a second attempt
  }

  TEST_CASE("a crash's retry lives in the broker only: away from it, the broker redelivers at once") {
    for (const DelayAt where : {DelayAt::kConsumerSleep, DelayAt::kRetryQueue}) {
      CAPTURE(DelayAtName(where));
      Queue q = Make(With(where, Ordering::kNone, 500), {"a"});
      REQUIRE(q.Lease().value().leased);
      REQUIRE(q.Advance(int64_t{500}).ok());
      const Event expired = Last(q, EventKind::kExpired);
      CHECK(expired.disposition == Disposition::kRequeued);
      CHECK(q.view().Ready().size() == 1);
    }
    Queue broker = Make(With(DelayAt::kBroker, Ordering::kNone, 500), {"a"});
    REQUIRE(broker.Lease().value().leased);
    REQUIRE(broker.Advance(int64_t{500}).ok());
    CHECK(Last(broker, EventKind::kExpired).disposition == Disposition::kDelayed);
  }

  TEST_CASE("links v2 carry it as one letter after the lab's r, and only when it is not the broker") {
    Scenario s;
    s.policy = With(DelayAt::kConsumerSleep);
    s.jobs.push_back({"a", "", ""});
    const std::string link = FormatScenario(s);
    CHECK(link.find(";rlc") != std::string::npos);
    CHECK(ParseScenario(link).value() == s);
    s.policy.delay_at = DelayAt::kRetryQueue;
    CHECK(FormatScenario(s).find(";rlq") != std::string::npos);
    CHECK(ParseScenario(FormatScenario(s)).value() == s);
    s.policy.delay_at = DelayAt::kBroker;
    CHECK(FormatScenario(s).find(";r") == std::string::npos);
  }

  TEST_CASE("bad input is refused by name, with what was expected and what was given, nothing is made") {
    CHECK(ParseDelayAt("sleep").status().message() ==
          "delayAt must be one of \"broker\", \"consumer-sleep\", \"retry-queue\", got \"sleep\"");
    CHECK(ParseDelayAt("retry-queue").value() == DelayAt::kRetryQueue);
    Policy p = With(DelayAt::kConsumerSleep);
    p.system = System::kSidekiq;
    const Result<Queue> made = Queue::Create(p);
    REQUIRE(!made.ok());
    CHECK(made.status().message() ==
          "delayAt applies only with system \"lab\" (leave it at its default otherwise), got \"consumer-sleep\" with "
          "system \"sidekiq\"");
    // A link that puts it under another system is refused the same way.
    const Result<Scenario> link = ParseScenario("v2;m3;s1;rkq");
    REQUIRE(!link.ok());
    CHECK(link.status().message().find("delayAt applies only with system \"lab\"") != std::string::npos);
    // A snapshot that writes the default out is not canonical: refused, naming what it expected.
    Queue q = Make(With(DelayAt::kRetryQueue), {"a"});
    std::string text = q.view().SnapshotText().value();
    const size_t at = text.find("delayAt retry-queue");
    REQUIRE(at != std::string::npos);
    text.replace(at, 19, "delayAt broker");
    const Result<Queue> restored = Queue::Restore(Resealed(text));
    REQUIRE(!restored.ok());
    CHECK(restored.status().code() == Code::kInvalidSnapshot);
    CHECK(restored.status().message().find("consumer-sleep or retry-queue (broker is written as nothing)") !=
          std::string::npos);
    CHECK(restored.status().message().find("broker") != std::string::npos);
  }
}

}  // namespace delay_at_test
