// The system modes (policy.h, System): each changes only what its system does
// differently from the lab's rules, and a lab policy is exactly as before.
#include <string>
#include <vector>

#include "backoff.h"
#include "event.h"
#include "queue.h"
#include "scenario.h"
#include "test_util.h"

namespace dlq {
namespace {

Queue Make(Policy p, const std::vector<std::string>& ids) {
  Result<Queue> q = Queue::Create(p);
  REQUIRE_MESSAGE(q.ok(), q.status().ToString());
  for (const std::string& id : ids) REQUIRE(q->Enqueue(id, "payload of " + id).ok());
  return std::move(q).value();
}

// The ids of `n` processes with `outcome`, in delivery order.
std::vector<std::string> Deliveries(Queue& q, const char* outcome, int n) {
  std::vector<std::string> ids;
  for (int i = 0; i < n; ++i) {
    Result<Attempt> a = q.Process(outcome);
    REQUIRE(a.ok());
    if (!a->processed) break;
    ids.push_back(a->id);
  }
  return ids;
}

TEST_CASE("systems: rabbitmq-quorum returns a requeued message near the head, the lab to the tail") {
  Policy p;
  p.max_attempts = 3;
  Queue lab = Make(p, {"a", "b"});
  CHECK(Deliveries(lab, "transient", 6) == std::vector<std::string>{"a", "b", "a", "b", "a", "b"});
  p.system = System::kRabbitMqQuorum;
  Queue rabbit = Make(p, {"a", "b"});
  // a is redelivered at once until its delivery-limit (maxAttempts − 1 returns) is used up.
  CHECK(Deliveries(rabbit, "transient", 6) == std::vector<std::string>{"a", "a", "a", "b", "b", "b"});
  // The events say where the return went.
  bool saw_head_return = false;
  for (const Event& e : rabbit.Timeline()) {
    if (e.kind == EventKind::kRequeued) {
      CHECK(e.at_head);
      CHECK(ExplainEvent(e) == "\"" + e.id + "\" went back near the head of the ready queue, so it runs again before the rest");
      saw_head_return = true;
    }
  }
  CHECK(saw_head_return);
  for (const Event& e : lab.Timeline()) {
    if (e.kind == EventKind::kRequeued) CHECK_FALSE(e.at_head);
  }
  const std::vector<QuarantineEntry> dead = rabbit.Quarantined();
  REQUIRE(dead.size() == 2);
  CHECK(std::string(SystemReasonName(p.system, dead[0].reason)) == "delivery_limit");
  CHECK(std::string(SystemReasonName(p.system, Reason::kPermanent)) == "rejected");
  CHECK(std::string(SystemReasonName(System::kSqs, Reason::kExhausted)).empty());
  CHECK(std::string(SystemReasonName(System::kLab, Reason::kExhausted)) == "exhausted");
}

TEST_CASE("systems: rabbitmq-quorum sends a delayed retry (the TTL retry-queue pattern) to the tail") {
  Policy p;
  p.max_attempts = 3;
  p.system = System::kRabbitMqQuorum;
  p.backoff = {BackoffKind::kFixed, 100, 100, Jitter::kNone};
  Queue q = Make(p, {"a", "b"});
  REQUIRE(q.Process("transient").ok());  // a: delayed 100 ms
  REQUIRE(q.Advance(int64_t{100}).ok());          // a back, behind b
  CHECK(Deliveries(q, "success", 2) == std::vector<std::string>{"b", "a"});
}

TEST_CASE("systems: a journal under rabbitmq-quorum recovers to the same state (head returns are durable)") {
  Policy p;
  p.max_attempts = 4;
  p.system = System::kRabbitMqQuorum;
  Queue q = Make(p, {"a", "b", "c"});
  for (const char* outcome : {"transient", "transient", "success", "transient", "permanent"}) {
    REQUIRE(q.Process(outcome).ok());
  }
  Result<std::vector<JournalEntry>> journal = q.Journal();
  REQUIRE(journal.ok());
  std::vector<std::string_view> records;
  for (const JournalEntry& e : journal.value()) records.push_back(e.record);
  Result<Recovery> r = Queue::Recover(std::nullopt, records, {});
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  CHECK(r->queue.Ready().size() == q.Ready().size());
  for (size_t i = 0; i < q.Ready().size(); ++i) CHECK(r->queue.Ready()[i].id == q.Ready()[i].id);
  CHECK(r->queue.policy() == q.policy());
}

TEST_CASE("systems: bullmq's exponential backoff has no cap") {
  Policy p;
  p.max_attempts = 8;
  p.backoff = {BackoffKind::kExponential, 100, 1000, Jitter::kNone};
  Prng jitter(1);
  CHECK(RetryDelay(p, p.backoff, 5, 0, jitter) == 1000);  // the lab: min(cap, 100 · 2^4)
  p.system = System::kBullMq;
  CHECK(RetryDelay(p, p.backoff, 5, 0, jitter) == 1600);  // BullMQ: 2^(n−1) · delay, no cap
  CHECK(RetryDelay(p, p.backoff, 40, 0, jitter) == kMaxDelayMs);  // the lab's delays stop at a day
  CHECK(MaxRetryDelay(p, p.backoff, 5, 0) == 1600);
}

TEST_CASE("systems: sidekiq's own delay is count^4 + 15 + rand(10)·(count + 1) s, and a dead job's retry is one more run") {
  Policy p;
  p.max_attempts = 3;
  p.system = System::kSidekiq;
  Prng jitter(7);
  for (uint32_t attempt = 1; attempt <= 5; ++attempt) {
    const int64_t count = attempt - 1;
    const int64_t least = (count * count * count * count + 15) * 1000;
    for (int i = 0; i < 50; ++i) {
      const int64_t d = RetryDelay(p, p.backoff, attempt, 0, jitter);
      CHECK(d >= least);
      CHECK(d <= least + 9 * (count + 1) * 1000);
      CHECK((d - least) % ((count + 1) * 1000) == 0);
    }
    CHECK(MaxRetryDelay(p, p.backoff, attempt, 0) == least + 9 * (count + 1) * 1000);
  }
  CHECK(RetryDelay(p, p.backoff, 30, 0, jitter) == kMaxDelayMs);
  // A policy's own backoff (a custom sidekiq_retry_in) is used as given.
  Backoff fixed{BackoffKind::kFixed, 500, 500, Jitter::kNone};
  CHECK(RetryDelay(p, fixed, 2, 0, jitter) == 500);

  Queue q = Make(p, {"a"});
  REQUIRE(q.Process("permanent").ok());  // a: dead after 1 run
  CHECK(q.Replay("a"));
  CHECK(q.Ready()[0].attempts == 0);
  p.backoff = {BackoffKind::kFixed, 1, 1, Jitter::kNone};
  Queue r = Make(p, {"a"});
  for (int i = 0; i < 3; ++i) {
    REQUIRE(r.Process("transient").ok());
    if (i < 2) REQUIRE(r.Advance(int64_t{1}).ok());
  }
  REQUIRE(r.Quarantined().size() == 1);
  CHECK(r.Replay("a"));
  CHECK(r.Ready()[0].attempts == 2);  // retry_count down by one: one more run
  const Event replayed = r.Timeline().back();
  REQUIRE(replayed.kind == EventKind::kReplayed);
  CHECK(RenderEvent(replayed).find("attempts 3 -> 2") != std::string::npos);
  CHECK(ExplainEvent(replayed) == "an operator replayed \"a\": attempts reset from 3 to 2, appended at the ready tail");
  Result<Attempt> last = r.Process("transient");
  REQUIRE(last.ok());
  CHECK(last->disposition == Disposition::kQuarantined);
  CHECK(last->reason == Reason::kExhausted);
}

TEST_CASE("systems: sqs brings a failed message back when its visibility timeout ends") {
  Policy p;
  p.max_attempts = 3;
  p.lease_ms = 5000;
  p.system = System::kSqs;
  Queue q = Make(p, {"a"});
  Result<Attempt> a = q.Process("transient");
  REQUIRE(a.ok());
  CHECK(a->disposition == Disposition::kDelayed);
  CHECK(a->delay_ms == 5000);
  CHECK(q.worst_case().time_ms == 3 * 5000 + 2 * 5000);
  // ChangeMessageVisibility: the policy's own backoff instead.
  p.backoff = {BackoffKind::kFixed, 200, 200, Jitter::kNone};
  Queue b = Make(p, {"a"});
  Result<Attempt> c = b.Process("transient");
  REQUIRE(c.ok());
  CHECK(c->delay_ms == 200);
}

TEST_CASE("systems: the mode travels through links and snapshots, and a lab policy writes nothing new") {
  Scenario s;
  s.policy.max_attempts = 3;
  CHECK(FormatScenario(s).find(";r") == std::string::npos);
  for (System system : {System::kRabbitMqQuorum, System::kBullMq, System::kSidekiq, System::kSqs}) {
    s.policy.system = system;
    const std::string link = FormatScenario(s);
    CHECK(link.rfind("v2;", 0) == 0);
    Result<Scenario> back = ParseScenario(link);
    REQUIRE(back.ok());
    CHECK(back->policy.system == system);
  }
  Result<Scenario> bad = ParseScenario("v2;m3;s1;rz");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message() ==
        "scenario link is malformed at character 11: expected system (q rabbitmq-quorum, b bullmq, k sidekiq, s sqs, "
        "l lab), got 'z'");
}

}  // namespace
}  // namespace dlq
