// The system modes (policy.h, System): each changes only what its system does
// differently from the lab's rules, and a lab policy is exactly as before.
#include <algorithm>
#include <string>
#include <vector>

#include "backoff.h"
#include "event.h"
#include "modules.h"
#include "queue.h"
#include "registry.h"
#include "rules.h"
#include "schema.h"
#include "scenario.h"
#include "test_util.h"

namespace dlq::systems_test {
namespace {

// q's journal as Queue::Recover reads it: `entries` own the text that `records` views.
struct JournalRecords {
  std::vector<JournalEntry> entries;
  std::vector<std::string_view> records;
};
JournalRecords ReadJournal(const Queue& q) {
  Result<std::vector<JournalEntry>> journal = q.view().Journal();
  REQUIRE(journal.ok());
  JournalRecords out{std::move(journal).value(), {}};
  for (const JournalEntry& e : out.entries) out.records.push_back(e.record);
  return out;
}

// q recovered from its whole journal alone (no snapshot), as a restart would read it.
Recovery RecoverWhole(const Queue& q) {
  const JournalRecords journal = ReadJournal(q);
  Result<Recovery> r = Queue::Recover(std::nullopt, journal.records, {});
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  return std::move(r).value();
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
  Queue lab = test::QueueWith(p, {"a", "b"});
  CHECK(Deliveries(lab, "transient", 6) == std::vector<std::string>{"a", "b", "a", "b", "a", "b"});
  p.system = System::kRabbitMqQuorum;
  Queue rabbit = test::QueueWith(p, {"a", "b"});
  // a is redelivered at once until its delivery-limit (maxAttempts − 1 returns) is used up.
  CHECK(Deliveries(rabbit, "transient", 6) == std::vector<std::string>{"a", "a", "a", "b", "b", "b"});
  // The events say where the return went.
  bool saw_head_return = false;
  for (const Event& e : rabbit.view().Timeline()) {
    if (e.kind == EventKind::kRequeued) {
      CHECK(e.at_head);
      CHECK(ExplainEvent(e) ==
            "\"" + e.id + "\" went back near the head of the ready queue, so it runs again before the rest");
      saw_head_return = true;
    }
  }
  CHECK(saw_head_return);
  for (const Event& e : lab.view().Timeline()) {
    if (e.kind == EventKind::kRequeued) CHECK_FALSE(e.at_head);
  }
  const std::vector<QuarantineEntry> dead = rabbit.view().Quarantined();
  REQUIRE(dead.size() == 2);
  CHECK(std::string(SystemOf(p.system).ReasonName(dead[0].reason)) == "delivery_limit");
  CHECK(std::string(SystemOf(p.system).ReasonName(Reason::kPermanent)) == "rejected");
  CHECK(std::string(SystemOf(System::kSqs).ReasonName(Reason::kExhausted)).empty());
  CHECK(std::string(SystemOf(System::kLab).ReasonName(Reason::kExhausted)) == "exhausted");
}

TEST_CASE("systems: rabbitmq-quorum sends a delayed retry (the TTL retry-queue pattern) to the tail") {
  Policy p;
  p.max_attempts = 3;
  p.system = System::kRabbitMqQuorum;
  p.backoff = {BackoffKind::kFixed, 100, 100, Jitter::kNone};
  Queue q = test::QueueWith(p, {"a", "b"});
  REQUIRE(q.Process("transient").ok());   // a: delayed 100 ms
  REQUIRE(q.Advance(int64_t{100}).ok());  // a back, behind b
  CHECK(Deliveries(q, "success", 2) == std::vector<std::string>{"b", "a"});
}

TEST_CASE("systems: a journal under rabbitmq-quorum recovers to the same state (head returns are durable)") {
  Policy p;
  p.max_attempts = 4;
  p.system = System::kRabbitMqQuorum;
  Queue q = test::QueueWith(p, {"a", "b", "c"});
  for (const char* outcome : {"transient", "transient", "success", "transient", "permanent"}) {
    REQUIRE(q.Process(outcome).ok());
  }
  const Recovery r = RecoverWhole(q);
  CHECK(r.queue.view().Ready().size() == q.view().Ready().size());
  for (size_t i = 0; i < q.view().Ready().size(); ++i) CHECK(r.queue.view().Ready()[i].id == q.view().Ready()[i].id);
  CHECK(r.queue.policy() == q.policy());
}

TEST_CASE("systems: bullmq's exponential backoff has no cap") {
  Policy p;
  p.max_attempts = 8;
  p.backoff = {BackoffKind::kExponential, 100, 1000, Jitter::kNone};
  Prng jitter(1);
  CHECK(RetryDelay(p, p.backoff, 5, 0, jitter) == 1000);  // the lab: min(cap, 100 · 2^4)
  p.system = System::kBullMq;
  CHECK(RetryDelay(p, p.backoff, 5, 0, jitter) == 1600);          // BullMQ: 2^(n−1) · delay, no cap
  CHECK(RetryDelay(p, p.backoff, 40, 0, jitter) == kMaxDelayMs);  // the lab's delays stop at a day
  CHECK(MaxRetryDelay(p, p.backoff, 5, 0) == 1600);
}

TEST_CASE(
    "systems: bullmq's jitter is floor(random * v * j + v(1 - j)), on [floor(v(1 - j)), v - 1], every value reached") {
  Policy p;
  p.max_attempts = 4;
  p.system = System::kBullMq;
  p.backoff = {BackoffKind::kFixed, 200, 200, Jitter::kBullMq,
               500};  // BullMQ { type: 'fixed', delay: 200, jitter: 0.5 }
  Prng jitter(3);
  std::vector<int> seen(200, 0);
  for (int i = 0; i < 20'000; ++i) {
    const int64_t d = RetryDelay(p, p.backoff, 1, 0, jitter);
    REQUIRE(d >= 100);
    REQUIRE(d <= 199);
    seen[static_cast<size_t>(d)] += 1;
  }
  // Uniform over the 100 values: each near 200 of 20,000 (a 4-sigma band), none missed.
  for (int v = 100; v <= 199; ++v) {
    CHECK(seen[static_cast<size_t>(v)] > 140);
    CHECK(seen[static_cast<size_t>(v)] < 260);
  }
  CHECK(MaxRetryDelay(p, p.backoff, 1, 0) == 199);
  // Exponential, uncapped under bullmq: attempt 3 is v = 800, so [400, 799]; j = 0.1 gives [720, 799].
  p.backoff = {BackoffKind::kExponential, 200, 200, Jitter::kBullMq, 500};
  int64_t lo = kMaxDelayMs, hi = 0;
  for (int i = 0; i < 5'000; ++i) {
    const int64_t d = RetryDelay(p, p.backoff, 3, 0, jitter);
    lo = std::min(lo, d);
    hi = std::max(hi, d);
  }
  CHECK(lo == 400);
  CHECK(hi == 799);
  CHECK(MaxRetryDelay(p, p.backoff, 3, 0) == 799);
  p.backoff.jitter_permille = 100;
  for (int i = 0; i < 1'000; ++i) {
    const int64_t d = RetryDelay(p, p.backoff, 3, 0, jitter);
    REQUIRE(d >= 720);
    REQUIRE(d <= 799);
  }
  // j = 1 (BullMQ's full range): [0, v - 1]; v = 1 gives 0 always.
  p.backoff = {BackoffKind::kFixed, 1, 1, Jitter::kBullMq, 1000};
  for (int i = 0; i < 100; ++i) REQUIRE(RetryDelay(p, p.backoff, 1, 0, jitter) == 0);
  // One draw per delay from the PRNG given: the same seed repeats the same delays.
  Prng a(9), b(9);
  p.backoff = {BackoffKind::kFixed, 1000, 1000, Jitter::kBullMq, 250};
  for (int i = 0; i < 50; ++i) REQUIRE(RetryDelay(p, p.backoff, 1, 0, a) == RetryDelay(p, p.backoff, 1, 0, b));
}

TEST_CASE("systems: backoff.jitterPermille is refused by name out of range, or without jitter bullmq") {
  Policy p;
  p.system = System::kBullMq;
  const Policy before = p;
  p.backoff = {BackoffKind::kFixed, 200, 200, Jitter::kBullMq, 0};
  CHECK(Policy::Check(p).message() == "backoff.jitterPermille must be an integer from 1 to 1000, got 0");
  p.backoff.jitter_permille = 1001;
  CHECK(Policy::Check(p).message() == "backoff.jitterPermille must be an integer from 1 to 1000, got 1001");
  p.backoff = {BackoffKind::kFixed, 200, 200, Jitter::kFull, 300};
  CHECK(Policy::Check(p).message() ==
        "backoff.jitterPermille applies only with backoff.jitter \"bullmq\" (leave it at 500 otherwise), got 300 "
        "with jitter \"full\"");
  p.backoff = {BackoffKind::kNone, 1000, 60'000, Jitter::kBullMq, 500};
  CHECK(Policy::Check(p).message() ==
        "backoff.jitter must be \"none\" when backoff.kind is \"none\" (there is no delay to jitter), got \"bullmq\"");
  p = before;
  p.classes[FailureClass::kPrecondition].backoff = {BackoffKind::kFixed, 1000, 1000, Jitter::kNone, 7};
  CHECK(Policy::Check(p).message() ==
        "classes.precondition.backoff.jitterPermille applies only with classes.precondition.backoff.jitter \"bullmq\" "
        "(leave it at 500 otherwise), got 7 with jitter \"none\"");
  CHECK(ParseJitter("bullmq").value() == Jitter::kBullMq);
  CHECK(ParseJitter("BullMQ").status().message().find("backoff.jitter must be one of") == 0);
}

TEST_CASE(
    "systems: bullmq's jitter and its fraction travel through link v2 and snapshots, other jitters write nothing new") {
  Scenario s;
  s.policy.system = System::kBullMq;
  s.policy.backoff = {BackoffKind::kExponential, 200, 200, Jitter::kBullMq, 250};
  const std::string link = FormatScenario(s);
  CHECK(link.find(";bx200.200b250;") != std::string::npos);
  Result<Scenario> back = ParseScenario(link);
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(back->policy == s.policy);
  Result<Queue> q = Queue::Create(s.policy);
  REQUIRE(q.ok());
  const std::string snapshot = q->Snapshot().value();
  CHECK(snapshot.find("exponential 200 200 bullmq 250") != std::string::npos);
  CHECK(Queue::Restore(snapshot).value().policy() == s.policy);
  s.policy.backoff.jitter = Jitter::kFull;
  s.policy.backoff.jitter_permille = 500;
  CHECK(FormatScenario(s).find(";bx200.200f;") != std::string::npos);
  // Bad fractions are refused by name, at their position.
  CHECK(ParseScenario("v2;m3;bf200.200b;s1").status().message() ==
        "scenario link is malformed at character 17: expected backoff.jitterPermille (digits), got ';'");
  CHECK(ParseScenario("v2;m3;bf200.200b0;s1").status().message() ==
        "scenario link: backoff.jitterPermille must be an integer from 1 to 1000, got 0");
  CHECK(ParseScenario("v2;m3;bf200.200b12345;s1").status().message() ==
        "scenario link: backoff.jitterPermille at character 17 has more than 4 digits");
}

TEST_CASE(
    "systems: sidekiq's own delay is count^4 + 15 + rand(10)·(count + 1) s, and a dead job's retry is one more run") {
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
  // Past a day from count 18 on: retry: true's last delay, count 24, is 24^4 + 15 + rand(10) * 25 s, under
  // four days (kMaxSidekiqDelayMs); a count past 24 stops there.
  CHECK(MaxRetryDelay(p, p.backoff, 19, 0) == (18 * 18 * 18 * 18 + 15 + 9 * 19) * int64_t{1000});
  CHECK(MaxRetryDelay(p, p.backoff, 19, 0) > kMaxDelayMs);
  CHECK(MaxRetryDelay(p, p.backoff, 25, 0) == int64_t{332'016'000});
  CHECK(RetryDelay(p, p.backoff, 30, 0, jitter) == kMaxSidekiqDelayMs);
  // A policy's own backoff (a custom sidekiq_retry_in) is used as given.
  Backoff fixed{BackoffKind::kFixed, 500, 500, Jitter::kNone};
  CHECK(RetryDelay(p, fixed, 2, 0, jitter) == 500);

  Queue q = test::QueueWith(p, {"a"});
  REQUIRE(q.Process("permanent").ok());  // a: dead after 1 run
  CHECK(q.Replay("a"));
  CHECK(q.view().Ready()[0].attempts == 0);
  p.backoff = {BackoffKind::kFixed, 1, 1, Jitter::kNone};
  Queue r = test::QueueWith(p, {"a"});
  for (int i = 0; i < 3; ++i) {
    REQUIRE(r.Process("transient").ok());
    if (i < 2) REQUIRE(r.Advance(int64_t{1}).ok());
  }
  REQUIRE(r.view().Quarantined().size() == 1);
  CHECK(r.Replay("a"));
  CHECK(r.view().Ready()[0].attempts == 2);  // retry_count down by one: one more run
  const Event replayed = r.view().Timeline().back();
  REQUIRE(replayed.kind == EventKind::kReplayed);
  CHECK(RenderEvent(replayed).find("attempts 3 -> 2") != std::string::npos);
  CHECK(ExplainEvent(replayed) == "an operator replayed \"a\": attempts reset from 3 to 2, appended at the ready tail");
  Result<Attempt> last = r.Process("transient");
  REQUIRE(last.ok());
  CHECK(last->disposition == Disposition::kQuarantined);
  CHECK(last->reason == Reason::kExhausted);
}

TEST_CASE(
    "systems: sidekiq retryInJitter adds 6.4.1's rand(10)·(count + 1) s to a custom delay, under 1 s it falls back") {
  Policy p;
  p.max_attempts = 3;
  p.system = System::kSidekiq;
  p.retry_in_jitter = true;
  Prng jitter(11);
  const Backoff fixed{BackoffKind::kFixed, 10'000, 10'000, Jitter::kNone};
  for (uint32_t attempt = 1; attempt <= 4; ++attempt) {
    const int64_t count = attempt - 1;
    bool low = false, high = false;
    for (int i = 0; i < 200; ++i) {
      const int64_t d = RetryDelay(p, fixed, attempt, 0, jitter);
      CHECK(d >= 10'000);
      CHECK(d <= 10'000 + 9 * (count + 1) * 1000);
      CHECK((d - 10'000) % ((count + 1) * 1000) == 0);  // whole steps of count + 1 seconds
      low = low || d == 10'000;
      high = high || d == 10'000 + 9 * (count + 1) * 1000;
    }
    CHECK(low);   // rand(10) reaches 0 ...
    CHECK(high);  // ... and 9
    CHECK(MaxRetryDelay(p, fixed, attempt, 0) == 10'000 + 9 * (count + 1) * 1000);
  }
  // to_i of a delay under 1 s is 0: Sidekiq's own count^4 + 15 + jitter, as backoff none gives.
  const Backoff short_fixed{BackoffKind::kFixed, 999, 999, Jitter::kNone};
  for (int i = 0; i < 50; ++i) {
    const int64_t d = RetryDelay(p, short_fixed, 2, 0, jitter);
    CHECK(d >= 16'000);
    CHECK(d <= 16'000 + 18'000);
  }
  CHECK(MaxRetryDelay(p, short_fixed, 2, 0) == 16'000 + 18'000);
  // Full jitter can draw under 1 s, so the largest is the larger of the two paths.
  const Backoff full{BackoffKind::kFixed, 2'000, 2'000, Jitter::kFull};
  CHECK(MaxRetryDelay(p, full, 1, 0) == 15'000 + 9'000);
  // The draw order is Ruby's: rand(10) first, then the block (the lab's jitter).
  Prng a(3), b(3);
  const int64_t extra = b.Below(10);
  CHECK(RetryDelay(p, fixed, 1, 0, a) == 10'000 + extra * 1000);
  // Off (the default), or under another system, the custom delay is as given.
  p.retry_in_jitter = false;
  CHECK(RetryDelay(p, fixed, 2, 0, jitter) == 10'000);
  Policy lab;
  lab.retry_in_jitter = true;
  CHECK(Policy::Check(lab).message() ==
        "retryInJitter applies only with system \"sidekiq\" (leave it at its default otherwise), got true with system "
        "\"lab\"");
}

TEST_CASE("systems: sidekiq retryInJitter travels through links and snapshots, a bad one is refused by name") {
  Scenario s;
  s.policy.system = System::kSidekiq;
  s.policy.retry_in_jitter = true;
  s.policy.dead_max_jobs = 500;
  s.policy.backoff = {BackoffKind::kFixed, 10'000, 10'000, Jitter::kNone};
  const std::string link = FormatScenario(s);
  CHECK(link.find(";rkd500j") != std::string::npos);
  Result<Scenario> back = ParseScenario(link);
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(back->policy.retry_in_jitter);
  CHECK(back->policy == s.policy);
  CHECK(ParseScenario("v2;m3;s1;rbj").status().message().find("retryInJitter applies only with system \"sidekiq\"") !=
        std::string::npos);
  s.policy.dead_max_jobs = 10'000;
  CHECK(FormatScenario(s).find(";rkj") != std::string::npos);
  Result<Queue> made = Queue::Create(s.policy);
  REQUIRE(made.ok());
  Result<std::string> text = made->view().SnapshotText();
  REQUIRE(text.ok());
  CHECK(text->find(" system sidekiq retryInJitter") != std::string::npos);
  Result<Queue> restored = Queue::Restore(text.value());
  REQUIRE_MESSAGE(restored.ok(), restored.status().ToString());
  CHECK(restored->view().SnapshotText().value() == text.value());
  // Off writes nothing: every earlier link and snapshot reads and writes as before.
  s.policy.retry_in_jitter = false;
  CHECK(FormatScenario(s).find(";rk") != std::string::npos);
  CHECK(FormatScenario(s).find(";rkj") == std::string::npos);
}

TEST_CASE(
    "systems: sidekiq retryEveryError: 6.4.1 has no :kill, so a permanent failure retries like any other (retry: 0 "
    "still kills)") {
  Policy p;
  p.max_attempts = 3;
  p.system = System::kSidekiq;
  p.backoff = {BackoffKind::kFixed, 1, 1, Jitter::kNone};
  // Off (the default, 6.5.2+ with :kill): quarantined at once, reason permanent.
  Queue killed = test::QueueWith(p, {"a"});
  Result<Attempt> first = killed.Process("permanent");
  REQUIRE(first.ok());
  CHECK(first->disposition == Disposition::kQuarantined);
  CHECK(first->reason == Reason::kPermanent);
  // On: every class but a crash retries up to maxAttempts; the class is still the worker's.
  p.retry_every_error = true;
  for (FailureClass c : {FailureClass::kPermanent, FailureClass::kUndeserializable, FailureClass::kUnknownSchema,
                         FailureClass::kPrecondition, FailureClass::kTransient}) {
    CAPTURE(ClassName(c));
    CHECK(p.RuleFor(c).retry);
    CHECK(p.RuleFor(c).max_attempts == 3);
  }
  CHECK(p.RuleFor(FailureClass::kPrecondition).backoff ==
        p.classes[FailureClass::kPrecondition].backoff);  // its own delay
  Policy off = p;
  off.retry_every_error = false;
  CHECK(p.RuleFor(FailureClass::kCrash) == off.RuleFor(FailureClass::kCrash));  // a crash is the fetch's matter
  Queue q = test::QueueWith(p, {"a"});
  for (int run = 1; run <= 3; ++run) {
    Result<Attempt> a = q.Process("permanent");
    REQUIRE(a.ok());
    REQUIRE(a->processed);
    if (run < 3) {
      CHECK(a->disposition == Disposition::kDelayed);
      REQUIRE(q.Advance(int64_t{1}).ok());
    } else {
      CHECK(a->disposition == Disposition::kQuarantined);
      CHECK(a->reason == Reason::kExhausted);
    }
  }
  REQUIRE(q.view().Quarantined().size() == 1);
  CHECK(q.view().Quarantined()[0].attempts == 3);
  // retry: 0 (maxAttempts 1): one run, then Dead, as 6.4.1 does.
  p.max_attempts = 1;
  Queue zero = test::QueueWith(p, {"a"});
  Result<Attempt> only = zero.Process("permanent");
  REQUIRE(only.ok());
  CHECK(only->disposition == Disposition::kQuarantined);
  CHECK(only->reason == Reason::kExhausted);
  // The worst case counts the retries it now gets.
  p.max_attempts = 4;
  CHECK(WorstCasePath(p).attempts == 4);
  // Links, snapshots; refused by name elsewhere.
  Scenario s;
  s.policy = p;
  s.policy.retry_in_jitter = true;
  const std::string link = FormatScenario(s);
  CHECK(link.find(";rkje") != std::string::npos);
  REQUIRE(ParseScenario(link).ok());
  CHECK(ParseScenario(link)->policy == s.policy);
  Result<Queue> made = Queue::Create(s.policy);
  REQUIRE(made.ok());
  const std::string text = made->view().SnapshotText().value();
  CHECK(text.find(" system sidekiq retryInJitter retryEveryError") != std::string::npos);
  REQUIRE(Queue::Restore(text).ok());
  CHECK(Queue::Restore(text)->view().SnapshotText().value() == text);
  CHECK(ParseScenario("v2;m3;s1;rqe").status().message().find("retryEveryError applies only with system \"sidekiq\"") !=
        std::string::npos);
  Policy lab;
  lab.retry_every_error = true;
  CHECK(Policy::Check(lab).message() ==
        "retryEveryError applies only with system \"sidekiq\" (leave it at its default otherwise), got true with "
        "system \"lab\"");
}

TEST_CASE("systems: sqs brings a failed message back when its visibility timeout ends") {
  Policy p;
  p.max_attempts = 3;
  p.lease_ms = 5000;
  p.system = System::kSqs;
  Queue q = test::QueueWith(p, {"a"});
  Result<Attempt> a = q.Process("transient");
  REQUIRE(a.ok());
  CHECK(a->disposition == Disposition::kDelayed);
  CHECK(a->delay_ms == 5000);
  CHECK(WorstCasePath(q.policy()).time_ms == 3 * 5000 + 2 * 5000);
  // ChangeMessageVisibility: the policy's own backoff instead.
  p.backoff = {BackoffKind::kFixed, 200, 200, Jitter::kNone};
  Queue b = test::QueueWith(p, {"a"});
  Result<Attempt> c = b.Process("transient");
  REQUIRE(c.ok());
  CHECK(c->delay_ms == 200);
}

TEST_CASE("systems: the mode travels through links and snapshots, and a lab policy writes nothing new") {
  Scenario s;
  s.policy.max_attempts = 3;
  CHECK(FormatScenario(s).find(";r") == std::string::npos);
  for (System system : {System::kRabbitMqQuorum, System::kBullMq, System::kSidekiq, System::kSqs, System::kPubSub,
                        System::kServiceBus, System::kSpringKafka, System::kKafkaConnect}) {
    s.policy.system = system;
    s.policy.max_attempts = system == System::kPubSub ? 5 : 3;  // Pub/Sub's max_delivery_attempts: 5 to 100
    const std::string link = FormatScenario(s);
    CHECK(link.rfind("v2;", 0) == 0);
    Result<Scenario> back = ParseScenario(link);
    INFO(link, " ", back.ok() ? "" : back.status().message());
    REQUIRE(back.ok());
    CHECK(back->policy.system == system);
  }
  Result<Scenario> bad = ParseScenario("v2;m3;s1;rw");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message() ==
        "scenario link is malformed at character 11: expected system (q rabbitmq-quorum, b bullmq, k sidekiq, s sqs, "
        "p pubsub, z service-bus, f spring-kafka, c kafka-connect, l lab), got 'w'");
}

// A lease taken and left to expire: the consumer died.
void Crash(Queue& q) {
  Result<LeaseGrant> g = q.Lease();
  REQUIRE(g.ok());
  REQUIRE(g->leased);
  REQUIRE(q.Advance(g->expires_at - q.stats().now).ok());
}

TEST_CASE("systems: bullmq does not count a stall as an attempt, stalls have their own budget, maxStalledCount") {
  Policy p;
  p.max_attempts = 3;
  p.lease_ms = 300;
  Queue lab = test::QueueWith(p, {"a"});
  Crash(lab);
  CHECK(lab.view().Ready()[0].attempts == 1);  // the lab counts the crash
  p.system = System::kBullMq;
  Queue q = test::QueueWith(p, {"a", "b"});
  Crash(q);  // stall 1 of 1 allowed: back to wait, attemptsMade unchanged
  REQUIRE(q.view().Ready().size() == 2);
  CHECK(q.view().Ready()[1].id == "a");
  CHECK(q.view().Ready()[1].attempts == 0);
  REQUIRE(q.Process("success").ok());  // b
  Crash(q);                            // stall 2: past the budget, even with attempts left
  const std::vector<QuarantineEntry> dead = q.view().Quarantined();
  REQUIRE(dead.size() == 1);
  CHECK(dead[0].reason == Reason::kStalled);
  CHECK(std::string(ReasonName(dead[0].reason)) == "stalled");
  CHECK(dead[0].last_error == kBullMqStalledError);
  CHECK(dead[0].attempts == 1);  // BullMQ raises attemptsMade when it fails a job for stalling
  CHECK(dead[0].stalls == 2);
  // A replay resets attemptsMade but keeps the stall count (BullMQ's reprocessJob leaves stc).
  CHECK(q.Replay("a"));
  Crash(q);
  REQUIRE(q.view().Quarantined().size() == 1);
  CHECK(q.view().Quarantined()[0].stalls == 3);

  // maxStalledCount 0: the first stall fails the job; after a stall, errors still get the whole budget.
  p.max_stalled_count = 0;
  Queue zero = test::QueueWith(p, {"a"});
  Crash(zero);
  REQUIRE(zero.view().Quarantined().size() == 1);
  CHECK(zero.view().Quarantined()[0].reason == Reason::kStalled);
  p.max_stalled_count = 1;
  p.max_attempts = 2;
  Queue errors = test::QueueWith(p, {"a"});
  Crash(errors);
  REQUIRE(errors.Process("transient").ok());
  Result<Attempt> last = errors.Process("transient");
  REQUIRE(last.ok());
  CHECK(last->attempt == 2);
  CHECK(last->reason == Reason::kExhausted);
  CHECK(errors.view().Quarantined()[0].stalls == 1);
  // Outside bullmq the field is refused by name.
  Policy other;
  other.max_stalled_count = 2;
  const Status refused = Policy::Check(other);
  CHECK(refused.message() ==
        "maxStalledCount applies only with system \"bullmq\" (leave it at its default otherwise), got 2 with system "
        "\"lab\"");
}

TEST_CASE("systems: bullmq evicts by removeOnFail age only when a later job fails, not on a timer") {
  Policy p;
  p.max_attempts = 1;
  p.retention_ms = 1000;
  p.system = System::kBullMq;
  Queue q = test::QueueWith(p, {"a", "b", "c"});
  REQUIRE(q.Process("transient").ok());             // a failed at 0
  CHECK_FALSE(q.view().NextTimerAt().has_value());  // no retention timer
  REQUIRE(q.Advance(int64_t{1300}).ok());
  CHECK(q.view().Quarantined().size() == 1);  // expired, but nothing has failed since
  REQUIRE(q.Process("success").ok());         // b completes: the failed set is not trimmed
  CHECK(q.view().Quarantined().size() == 1);
  REQUIRE(q.Process("transient").ok());  // c fails: a goes
  REQUIRE(q.view().Quarantined().size() == 1);
  CHECK(q.view().Quarantined()[0].id == "c");
  CHECK(q.view().Locate("a")->place == Place::kDropped);
  CHECK(q.stats().expired == 1);
  // The lab drops a at its timer.
  p.system = System::kLab;
  Queue lab = test::QueueWith(p, {"a"});
  REQUIRE(lab.Process("transient").ok());
  CHECK(lab.view().NextTimerAt() == 1000);
}

TEST_CASE("systems: bullmq's removeOnFail N keeps the newest N failed jobs, trimmed at each failure") {
  Policy p;
  p.max_attempts = 1;
  p.system = System::kBullMq;
  p.remove_on_fail_count = 1;  // the corpus's remove-on-fail-count-keeps-newest, seen on BullMQ 6.7.0
  Queue q = test::QueueWith(p, {"a", "b"});
  REQUIRE(q.Process("transient").ok());
  REQUIRE(q.view().Quarantined().size() == 1);  // within the count: kept
  REQUIRE(q.Process("transient").ok());
  REQUIRE(q.view().Quarantined().size() == 1);
  CHECK(q.view().Quarantined()[0].id == "b");
  CHECK(q.view().Locate("a")->place == Place::kDropped);
  p.remove_on_fail_count = 2;
  Queue two = test::QueueWith(p, {"a", "b", "c"});
  for (int i = 0; i < 3; ++i) REQUIRE(two.Process("transient").ok());
  REQUIRE(two.view().Quarantined().size() == 2);
  CHECK(two.view().Quarantined()[0].id == "b");
  // Through link v2 and the snapshot; refused by name out of range or under another system.
  Scenario s;
  s.policy = p;
  const std::string link = FormatScenario(s);
  CHECK(link.find(";rbf2") != std::string::npos);
  CHECK(ParseScenario(link).value().policy == p);
  const std::string snapshot = two.Snapshot().value();
  CHECK(snapshot.find("system bullmq removeOnFailCount 2") != std::string::npos);
  CHECK(Queue::Restore(snapshot).value().policy() == p);
  CHECK(
      ParseScenario("v2;m3;s1;rbf0").status().message() ==
      "scenario link is malformed at character 14: expected a removeOnFailCount other than 0, got the end of the link");
  p.remove_on_fail_count = -1;
  CHECK(Policy::Check(p).message() == "removeOnFailCount must be an integer from 0 to 1000000000, got -1");
  p.remove_on_fail_count = 5;
  p.system = System::kSidekiq;
  CHECK(Policy::Check(p).message() ==
        "removeOnFailCount applies only with system \"bullmq\" (leave it at its default otherwise), got 5 with system "
        "\"sidekiq\"");
}

TEST_CASE("systems: a rabbitmq DLQ's x-max-length drops the oldest dead letter, drop-head") {
  Policy p;
  p.max_attempts = 6;  // x-delivery-limit 5
  p.system = System::kRabbitMqQuorum;
  p.dlq_max_length = 1;  // the corpus's dlq-max-length-drops-oldest, seen on RabbitMQ 3.10.8
  Queue q = test::QueueWith(p, {"a", "b"});
  REQUIRE(q.Process("permanent").ok());
  REQUIRE(q.view().Quarantined().size() == 1);  // within the length: kept
  REQUIRE(q.Process("permanent").ok());
  REQUIRE(q.view().Quarantined().size() == 1);
  CHECK(q.view().Quarantined()[0].id == "b");
  CHECK(q.view().Locate("a")->place == Place::kDropped);
  // Through link v2 and the snapshot; refused by name out of range or under another system.
  Scenario s;
  s.policy = p;
  const std::string link = FormatScenario(s);
  CHECK(link.find(";rqm1") != std::string::npos);
  CHECK(ParseScenario(link).value().policy == p);
  const std::string snapshot = q.Snapshot().value();
  CHECK(snapshot.find("system rabbitmq-quorum dlqMaxLength 1") != std::string::npos);
  CHECK(Queue::Restore(snapshot).value().policy() == p);
  CHECK(ParseScenario("v2;m3;s1;rqm0").status().message() ==
        "scenario link is malformed at character 14: expected a dlqMaxLength other than 0, got the end of the link");
  p.dlq_max_length = -1;
  CHECK(Policy::Check(p).message() == "dlqMaxLength must be an integer from 0 to 1000000000, got -1");
  p.dlq_max_length = 3;
  p.system = System::kBullMq;
  CHECK(Policy::Check(p).message() ==
        "dlqMaxLength applies only with system \"rabbitmq-quorum\" (leave it at its default otherwise), got 3 with "
        "system \"bullmq\"");
}

TEST_CASE(
    "systems: sidekiq trims the Dead set at each kill: dead timeout (retention, 180 days at 0), deadMaxJobs - 1") {
  Policy p;
  p.max_attempts = 1;
  p.system = System::kSidekiq;
  p.dead_max_jobs = 2;  // keeps the newest one
  Queue q = test::QueueWith(p, {"a", "b", "c"});
  for (int i = 0; i < 3; ++i) REQUIRE(q.Process("transient").ok());
  REQUIRE(q.view().Quarantined().size() == 1);
  CHECK(q.view().Quarantined()[0].id == "c");
  CHECK(q.view().Locate("a")->place == Place::kDropped);

  p.dead_max_jobs = 10'000;
  p.retention_ms = 1000;
  Queue t = test::QueueWith(p, {"a", "b"});
  REQUIRE(t.Process("transient").ok());
  CHECK_FALSE(t.view().NextTimerAt().has_value());
  REQUIRE(t.Advance(int64_t{1300}).ok());
  CHECK(t.view().Quarantined().size() == 1);  // lazy: still there
  REQUIRE(t.Process("transient").ok());       // the next kill trims it
  REQUIRE(t.view().Quarantined().size() == 1);
  CHECK(t.view().Quarantined()[0].id == "b");

  p.retention_ms = 0;  // Sidekiq's own 180 days
  Queue d = test::QueueWith(p, {"a", "b", "c"});
  REQUIRE(d.Process("transient").ok());
  REQUIRE(d.Advance(kSidekiqDeadTimeoutMs - 1).ok());
  REQUIRE(d.Process("transient").ok());
  CHECK(d.view().Quarantined().size() == 2);
  REQUIRE(d.Advance(int64_t{1}).ok());
  REQUIRE(d.Process("transient").ok());
  CHECK(d.view().Quarantined().size() == 2);  // a is 180 days old at c's kill
  CHECK(d.view().Locate("a")->place == Place::kDropped);
}

TEST_CASE("systems: sqs counts a DLQ entry's retention from the job's first enqueue") {
  Policy p;
  p.max_attempts = 1;
  p.retention_ms = 10'000;
  p.system = System::kSqs;
  Queue q = test::QueueWith(p, {"a"});
  REQUIRE(q.Advance(int64_t{4000}).ok());
  REQUIRE(q.Process("transient").ok());  // moved at 4000, enqueued at 0
  CHECK(q.view().Quarantined()[0].enqueued_at == 0);
  CHECK(q.view().NextTimerAt() == 10'000);  // not 14,000
  // The entry's view says so, for a page to draw: from its enqueue at 0 to the timer at 10,000.
  CHECK(q.view().Quarantined()[0].retention_from == 0);
  CHECK(q.view().Quarantined()[0].retention_until == 10'000);
  // A replayed message keeps its enqueue time; past its retention it goes at once.
  REQUIRE(q.Replay("a"));
  REQUIRE(q.Advance(int64_t{7000}).ok());
  REQUIRE(q.Process("transient").ok());
  CHECK(q.view().NextTimerAt() == 11'000);
  REQUIRE(q.Advance(int64_t{0}).ok());
  CHECK(q.view().Quarantined().empty());
  // The lab counts from the arrival.
  p.system = System::kLab;
  Queue lab = test::QueueWith(p, {"a"});
  REQUIRE(lab.Advance(int64_t{4000}).ok());
  REQUIRE(lab.Process("transient").ok());
  CHECK(lab.view().NextTimerAt() == 14'000);
  CHECK(lab.view().Quarantined()[0].retention_from == 4000);
  CHECK(lab.view().Quarantined()[0].retention_until == 14'000);
  // No retention, no window; a lazy mode's is from the arrival to the age its trims drop at.
  p.retention_ms = 0;
  Queue kept = test::QueueWith(p, {"a"});
  REQUIRE(kept.Process("transient").ok());
  CHECK(kept.view().Quarantined()[0].retention_until == -1);
  p.system = System::kBullMq;
  p.retention_ms = 5000;
  Queue lazy = test::QueueWith(p, {"a"});
  REQUIRE(lazy.Advance(int64_t{1000}).ok());
  REQUIRE(lazy.Process("transient").ok());
  CHECK(lazy.view().Quarantined()[0].retention_from == 1000);
  CHECK(lazy.view().Quarantined()[0].retention_until == 6000);
}

TEST_CASE("systems: rabbitmq-quorum's deliveryLimit: 3.x sets none (tail, no dead-lettering), 4.0 defaults to 20") {
  Policy p;
  p.system = System::kRabbitMqQuorum;
  p.delivery_limit = DeliveryLimit::kUnset4;
  CHECK(p.Budget() == 21);
  Queue four = test::QueueWith(p, {"a", "b"});
  std::vector<std::string> runs = Deliveries(four, "transient", 22);
  CHECK(std::count(runs.begin(), runs.end(), "a") == 21);
  CHECK(runs[20] == "a");  // near the head all the way
  CHECK(runs[21] == "b");
  REQUIRE(four.view().Quarantined().size() == 1);
  CHECK(four.view().Quarantined()[0].attempts == 21);
  p.delivery_limit = DeliveryLimit::kUnset3;
  CHECK(p.Budget() == Policy::kMaxAttempts);
  Queue three = test::QueueWith(p, {"a", "b", "c"});
  CHECK(Deliveries(three, "transient", 6) == std::vector<std::string>{"a", "b", "c", "a", "b", "c"});
  CHECK(three.view().Quarantined().empty());
  Policy lab;
  lab.delivery_limit = DeliveryLimit::kUnset4;
  CHECK(Policy::Check(lab).message() ==
        "deliveryLimit applies only with system \"rabbitmq-quorum\" (leave it at its default otherwise), got "
        "\"unset-4.x\" with system \"lab\"");
}

TEST_CASE("systems: rabbitmq-quorum's deliveryLimit classic-queue: no count, no limit, a return keeps its place") {
  Policy p;
  p.system = System::kRabbitMqQuorum;
  p.delivery_limit = DeliveryLimit::kClassicQueue;
  CHECK(p.Budget() == Policy::kMaxAttempts);
  CHECK(SystemOf(p).ReturnTo(p) == ReturnPlace::kInPlace);  // a classic queue keeps no delivery count
  Queue classic = test::QueueWith(p, {"a", "b"});
  // a goes back in its place at the head and is never dead-lettered for its returns (maxAttempts is unused).
  CHECK(Deliveries(classic, "transient", 5) == std::vector<std::string>{"a", "a", "a", "a", "a"});
  CHECK(classic.view().Quarantined().empty());
  bool saw_return = false;
  for (const Event& e : classic.view().Timeline()) {
    if (e.kind != EventKind::kRequeued) continue;
    CHECK(e.at_head);
    CHECK(e.in_place);
    CHECK(ExplainEvent(e).find("went back in its place at the head") != std::string::npos);
    CHECK(ExplainEvent(e).find("a classic queue keeps no delivery count") != std::string::npos);
    saw_return = true;
  }
  CHECK(saw_return);
  // Only a reject dead-letters: reason rejected in x-death.
  REQUIRE(classic.Process("permanent").ok());
  REQUIRE(classic.view().Quarantined().size() == 1);
  CHECK(std::string(SystemOf(p.system).ReasonName(classic.view().Quarantined()[0].reason)) == "rejected");
  CHECK(classic.view().Quarantined()[0].x_death.count[1] == 1);
  // A quorum queue's return is not in place; the setting travels through links and snapshots.
  Policy quorum = p;
  quorum.delivery_limit = DeliveryLimit::kUnset4;
  CHECK(SystemOf(quorum).ReturnTo(quorum) == ReturnPlace::kNearHead);
  Scenario s;
  s.policy = p;
  const std::string link = FormatScenario(s);
  CHECK(link.find(";rquc") != std::string::npos);
  REQUIRE(ParseScenario(link).ok());
  CHECK(ParseScenario(link)->policy.delivery_limit == DeliveryLimit::kClassicQueue);
  Result<std::string> text = classic.view().SnapshotText();
  REQUIRE(text.ok());
  CHECK(text->find("deliveryLimit classic-queue") != std::string::npos);
  Result<Queue> back = Queue::Restore(text.value());
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(back->policy().delivery_limit == DeliveryLimit::kClassicQueue);
  Policy lab;
  lab.delivery_limit = DeliveryLimit::kClassicQueue;
  CHECK(Policy::Check(lab).message() ==
        "deliveryLimit applies only with system \"rabbitmq-quorum\" (leave it at its default otherwise), got "
        "\"classic-queue\" with system \"lab\"");
}

TEST_CASE("systems: a rabbitmq-quorum entry keeps its x-death record across republishing") {
  Policy p;
  p.max_attempts = 2;
  p.system = System::kRabbitMqQuorum;
  Queue q = test::QueueWith(p, {"a"});
  Deliveries(q, "transient", 2);  // a: delivery_limit at 0
  REQUIRE(q.Advance(int64_t{50}).ok());
  REQUIRE(q.Replay("a"));
  Deliveries(q, "transient", 2);  // again at 50: count 2, time of the first
  XDeath x = q.view().Quarantined()[0].x_death;
  CHECK(x.count[0] == 2);
  CHECK(x.time[0] == 0);
  CHECK(x.first == Reason::kExhausted);
  REQUIRE(q.Advance(int64_t{50}).ok());
  REQUIRE(q.Replay("a"));
  Deliveries(q, "permanent", 1);  // rejected at 100: a new entry, first in the array
  x = q.view().Quarantined()[0].x_death;
  CHECK(x.count[1] == 1);
  CHECK(x.time[1] == 100);
  CHECK(x.newest == Reason::kPermanent);
  CHECK(x.first == Reason::kExhausted);  // never changes
  // The record survives a snapshot and a journal replay; a lab entry has none.
  Result<std::string> text = q.view().SnapshotText();
  REQUIRE(text.ok());
  CHECK(text->find(" x-death exhausted permanent 2 0 1 100") != std::string::npos);
  Result<Queue> back = Queue::Restore(text.value());
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(back->view().Quarantined()[0].x_death == x);
  Policy plain;
  Queue lab = test::QueueWith(plain, {"a"});
  Deliveries(lab, "permanent", 1);
  CHECK(lab.view().Quarantined()[0].x_death.empty());
}

TEST_CASE("systems: the modes' own settings and job fields travel through links, snapshots and journals") {
  Scenario s;
  s.policy.system = System::kBullMq;
  s.policy.max_stalled_count = 3;
  CHECK(FormatScenario(s).find(";rbs3") != std::string::npos);
  s.policy = Policy{};
  s.policy.system = System::kSidekiq;
  s.policy.dead_max_jobs = 500;
  CHECK(FormatScenario(s).find(";rkd500") != std::string::npos);
  s.policy = Policy{};
  s.policy.system = System::kRabbitMqQuorum;
  s.policy.delivery_limit = DeliveryLimit::kUnset4;
  const std::string link = FormatScenario(s);
  CHECK(link.find(";rqu4") != std::string::npos);
  REQUIRE(ParseScenario(link).ok());
  CHECK(ParseScenario(link)->policy.delivery_limit == DeliveryLimit::kUnset4);
  CHECK(ParseScenario("v2;m3;s1;rbs1").status().message().find("expected a maxStalledCount other than 1") !=
        std::string::npos);
  CHECK(ParseScenario("v2;m3;s1;rqu5")
            .status()
            .message()
            .find("expected deliveryLimit (u3 unset-3.x, u4 unset-4.x, uc classic-queue)") != std::string::npos);
  CHECK(ParseScenario("v2;m3;s1;rks2").status().message().find("maxStalledCount applies only with system") !=
        std::string::npos);

  // Per-job fields: stalls (bullmq) and the first enqueue (sqs) through snapshot and journal.
  for (System system : {System::kBullMq, System::kSqs}) {
    Policy p;
    p.system = system;
    p.max_attempts = 2;
    p.lease_ms = 100;
    p.retention_ms = 100'000;
    Result<Queue> made = Queue::Create(p);
    REQUIRE(made.ok());
    Queue q = std::move(made).value();
    REQUIRE(q.Advance(int64_t{5}).ok());
    REQUIRE(q.Enqueue("a", "x").ok());
    REQUIRE(q.Enqueue("b", "y").ok());
    Crash(q);
    REQUIRE(q.Process("transient").ok());
    REQUIRE(q.Process("transient").ok());
    Result<std::string> text = q.view().SnapshotText();
    REQUIRE(text.ok());
    CHECK(text->find(system == System::kBullMq ? " stalls 1" : " enqueued 5") != std::string::npos);
    Result<Queue> back = Queue::Restore(text.value());
    REQUIRE_MESSAGE(back.ok(), back.status().ToString());
    REQUIRE(back->view().SnapshotText().ok());
    CHECK(back->view().SnapshotText().value() == text.value());
    CHECK(RecoverWhole(q).queue.view().SnapshotText().value() == text.value());
  }
}

TEST_CASE("systems: bullmq's retry without a reset keeps attemptsMade: one more run, and a failure there is final") {
  Policy p;
  p.system = System::kBullMq;
  p.max_attempts = 3;
  p.journal = true;
  Queue q = test::QueueWith(p, {"a", "b"});
  REQUIRE(Deliveries(q, "transient", 6).size() == 6);  // a and b: three runs each, then failed
  REQUIRE(q.view().Quarantined().size() == 2);
  Result<bool> kept = q.ReplayKeepingAttempts("a");
  REQUIRE(kept.ok());
  CHECK(kept.value());
  CHECK(q.view().Locate("a")->place == Place::kReady);
  CHECK(q.view().Locate("a")->attempts == 3);  // attemptsMade stays
  // Its one more run fails: attempts 4 is past the budget, so it is failed again at once.
  REQUIRE(q.Process("transient").ok());
  CHECK(q.view().Locate("a")->place == Place::kQuarantined);
  CHECK(q.view().Locate("a")->attempts == 4);
  CHECK(q.view().Locate("a")->reason == Reason::kExhausted);
  // b's one more run succeeds: it completes.
  REQUIRE(q.ReplayKeepingAttempts("b").value());
  REQUIRE(q.Process("success").ok());
  CHECK(q.view().Locate("b")->place == Place::kCompleted);
  // The replayed event carries the kept count, and says so.
  const std::vector<Event> events = q.view().Timeline();
  const auto replayed =
      std::find_if(events.begin(), events.end(), [](const Event& e) { return e.kind == EventKind::kReplayed; });
  REQUIRE(replayed != events.end());
  CHECK(replayed->attempts == 3);
  CHECK(replayed->until == 3);
  CHECK(ExplainEvent(*replayed).find("without a reset: attempts kept at 3") != std::string::npos);
  // Not in quarantine: false, nothing changes.
  const std::string before = q.view().SnapshotText().value();
  CHECK_FALSE(q.ReplayKeepingAttempts("b").value());
  CHECK_FALSE(q.ReplayKeepingAttempts("zz").value());
  CHECK(q.view().SnapshotText().value() == before);
  // The journal recovers to the same queue (a put-ready row carries the attempts).
  CHECK(RecoverWhole(q).queue.view().SnapshotText().value() == q.view().SnapshotText().value());
}

TEST_CASE("systems: a retry without a reset is refused by name outside bullmq, and travels in link v2 as y<id>") {
  Policy p;
  p.max_attempts = 1;
  Queue q = test::QueueWith(p, {"a"});
  REQUIRE(q.Process("transient").ok());
  const std::string before = q.view().SnapshotText().value();
  Result<bool> refused = q.ReplayKeepingAttempts("a");
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().code() == Code::kInvalidArgument);
  CHECK(refused.status().message() ==
        "replay: resetAttempts false expected only under system bullmq (BullMQ's job.retry() without "
        "resetAttemptsMade), got it under system lab, where a replay always resets attempts");
  CHECK(q.view().SnapshotText().value() == before);
  // In a scenario: a v2 link writes y<id>; under lab the run is refused with the same words.
  Scenario s;
  s.policy.system = System::kBullMq;
  s.policy.max_attempts = 1;
  s.jobs = {{"a", "x", ""}};
  s.actions = {action::Process{Outcome::kTransient}, action::Replay{"a", true}, action::Process{Outcome::kSuccess}};
  s.cursor = s.actions.size();
  const std::string link = FormatScenario(s);
  CHECK(link.find("ya") != std::string::npos);
  Result<Scenario> back = ParseScenario(link);
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(back->actions == s.actions);
  Result<Queue> played = RunScenario(back.value());
  REQUIRE_MESSAGE(played.ok(), played.status().ToString());
  CHECK(played->view().Locate("a")->place == Place::kCompleted);
  CHECK(played->view().Locate("a")->attempts == 2);
  s.policy.system = System::kLab;
  Result<Queue> lab = RunScenario(s);
  REQUIRE_FALSE(lab.ok());
  CHECK(lab.status().message().find("resetAttempts false expected only under system bullmq") != std::string::npos);
}

TEST_CASE("systems: a lazy trim is journaled after the move it follows, a crash after any write loses nothing") {
  for (System system : {System::kSidekiq, System::kBullMq}) {
    Policy p;
    p.max_attempts = 1;
    p.system = system;
    p.retention_ms = 1000;
    if (system == System::kSidekiq) p.dead_max_jobs = 1;  // a kill trims the new entry itself
    Result<Queue> made = Queue::Create(p);
    REQUIRE(made.ok());
    Queue q = std::move(made).value();
    for (const char* id : {"a", "b", "c"}) REQUIRE(q.Enqueue(id, "x").ok());
    REQUIRE(q.Process("transient").ok());
    REQUIRE(q.Advance(int64_t{1500}).ok());
    REQUIRE(q.Process("permanent").ok());
    REQUIRE(q.Process("success").ok());
    CHECK(q.view().Quarantined().size() == (system == System::kSidekiq ? 0u : 1u));
    const JournalRecords journal = ReadJournal(q);
    const std::vector<std::string_view>& records = journal.records;
    // The removal follows the last arrival's two writes (b's, which trims a, and itself under sidekiq).
    std::vector<std::string> ops;
    for (const JournalEntry& e : journal.entries) ops.push_back(e.op);
    const auto put = std::find(ops.rbegin(), ops.rend(), "put-quarantine").base() - 1;
    REQUIRE(*put == "put-quarantine");
    REQUIRE(put + 2 < ops.end());
    CHECK(*(put + 1) == "remove-ready");
    CHECK(*(put + 2) == "remove-quarantine");
    for (size_t k = 1; k <= records.size(); ++k) {
      Result<Recovery> r = Queue::Recover(std::nullopt, records, {.crash_after = static_cast<int64_t>(k)});
      REQUIRE_MESSAGE(r.ok(), r.status().ToString());
      CHECK(r->lost.empty());
    }
    CHECK(RecoverWhole(q).queue.view().SnapshotText().value() == q.view().SnapshotText().value());
  }
}

}  // namespace

TEST_CASE("sidekiq: retry true plays all 25 retries, delays past a day, and a snapshot keeps a multi-day lastDelay") {
  Policy p;
  p.max_attempts = 26;
  p.system = System::kSidekiq;
  Result<Queue> made = Queue::Create(p);
  REQUIRE(made.ok());
  Queue q = std::move(made).value();
  REQUIRE(q.Enqueue("a", "x").ok());
  int runs = 0;
  int64_t longest = 0;
  while (q.view().Locate("a")->place != Place::kQuarantined) {
    if (q.view().Ready().empty()) REQUIRE(q.AdvanceToNext().has_value());
    Result<Attempt> a = q.Process("transient");
    REQUIRE(a.ok());
    ++runs;
    longest = std::max(longest, a->delay_ms);
    if (runs == 20) {  // delayed 19 times, the last past a day: the snapshot reads it back
      CHECK(longest > kMaxDelayMs);
      Result<std::string> text = q.view().SnapshotText();
      REQUIRE(text.ok());
      Result<Queue> restored = Queue::Restore(text.value());
      REQUIRE_MESSAGE(restored.ok(), restored.status().ToString());
      CHECK(restored->view().SnapshotText().value() == text.value());
    }
  }
  CHECK(runs == 26);
  CHECK(longest > 331'791'000);  // count 24's least, 24^4 + 15 s
  CHECK(longest <= kMaxSidekiqDelayMs);
}

// --- The modules (core/systems/system.h) and the registry ---------------------

// The entry's facts as the queue gives them (what the bindings will pass to Record).
EntryFacts FactsOf(const QuarantineEntry& e) {
  return {e.id,         e.payload,     e.attempts, e.stalls, e.last_error,
          e.arrived_at, e.enqueued_at, e.x_death,  e.reason, e.moves};
}

const RecordField* FieldNamed(const DeadLetterRecord& record, const std::string& name) {
  for (const RecordField& f : record) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

TEST_CASE("systems: the registry has one module per System value, in order, with its name and a distinct link letter") {
  REQUIRE(AllSystems().size() == static_cast<size_t>(kSystemCount));
  REQUIRE(kSystemChoices.count == kSystemCount);
  std::string letters;
  for (int i = 0; i < kSystemCount; ++i) {
    const SystemRules& system = SystemOf(static_cast<System>(i));
    CHECK(static_cast<int>(system.id()) == i);
    CHECK(AllSystems()[static_cast<size_t>(i)] == &system);
    CHECK(std::string(system.name()) == kSystemChoices.Name(i));
    CHECK(letters.find(system.link_letter()) == std::string::npos);
    letters += system.link_letter();
    CHECK(SystemByLinkLetter(system.link_letter()) == system.id());
  }
  CHECK(letters == "lqbkspzfc");  // released v2 links carry these letters: frozen
  CHECK_FALSE(SystemByLinkLetter('x').has_value());
  CHECK_FALSE(SystemByLinkLetter('\0').has_value());
  CHECK(
      SystemLetterList() ==
      "q rabbitmq-quorum, b bullmq, k sidekiq, s sqs, p pubsub, z service-bus, f spring-kafka, c kafka-connect, l lab");
  CHECK(&SystemOf(System::kBullMq) == &systems::BullMq());
}

TEST_CASE(
    "systems: every field's system column names a system of the registry, labels and descriptions derive from it") {
  int owned = 0;
  for (const Field<Policy>& row : PolicyFields()) {
    if (row.spec.only_under == nullptr) continue;
    ++owned;
    Result<System> system = ParseSystem(row.spec.only_under);
    REQUIRE_MESSAGE(system.ok(), row.spec.name);
    const std::string label = row.spec.label, description = row.spec.description, name = row.spec.only_under;
    if (system.value() == Policy{}.system) {  // the default's own fields read as plain settings
      CHECK(label.find(name) == std::string::npos);
      continue;
    }
    CHECK_MESSAGE((label.ends_with(" (" + name + ")") || label.ends_with(", " + name + ")")), label);
    const std::string shown = kSystemChoices.items[static_cast<int>(system.value())].label;  // "BullMQ"
    CHECK_MESSAGE(description.starts_with(shown + " only: "), description);
    CHECK(description.size() <= 160);  // one line (tests/node/schema.test.mjs)
  }
  CHECK(owned == 32);
  for (const Field<Policy>& row : PolicyFields()) {
    const std::string name = row.spec.name;
    if (name == "maxStalledCount") CHECK(std::string(row.spec.label) == "Max stalled count (bullmq)");
    if (name == "messageTtlMs") CHECK(std::string(row.spec.label) == "Source x-message-ttl (ms, rabbitmq-quorum)");
    if (name == "delayAt") CHECK(std::string(row.spec.label) == "Delay lives in");
  }
}

// A queue resolves what Decide asks of its system once (rules.h, DecideRules): each
// field must be the hook's own answer for the policy, under every system.
TEST_CASE("systems: DecideRules holds each hook's answer for the policy, under every system") {
  for (const SystemRules* system : AllSystems()) {
    for (const int64_t max_attempts : {1, 3, 7}) {
      Policy p;
      p.system = system->id();
      p.max_attempts = max_attempts;
      p.classes.rules[static_cast<int>(FailureClass::kPrecondition)].max_attempts = 2;
      INFO(system->name(), " maxAttempts ", max_attempts);
      const DecideRules rules(p);
      CHECK(rules.system == &SystemOf(p));
      CHECK(rules.budget == static_cast<uint32_t>(p.Budget()));
      CHECK(rules.counts_stalls == system->CountsStalls());
      CHECK(rules.stall_budget == system->StallBudget(p));
      CHECK(rules.retry_window_ms == system->RetryWindowMs(p));
      CHECK(rules.stop_hold_ms == system->StopHoldMs(p));
      for (int c = 0; c < kFailureClassCount; ++c) {
        const auto failure = static_cast<FailureClass>(c);
        CHECK(rules.rules[c] == p.RuleFor(failure));
        CHECK(rules.counts_failure[c] == system->CountsFailure(p, failure));
      }
    }
  }
}

TEST_CASE("systems: the queue's hooks per system (what each keeps, where a return goes, its retention and replay)") {
  const SystemRules& lab = SystemOf(System::kLab);
  const SystemRules& rabbit = SystemOf(System::kRabbitMqQuorum);
  const SystemRules& bullmq = SystemOf(System::kBullMq);
  const SystemRules& sidekiq = SystemOf(System::kSidekiq);
  const SystemRules& sqs = SystemOf(System::kSqs);
  // Which per-job records each keeps (queue.cpp's x_death_, enqueued_at_, StoredJob::stalls).
  for (const SystemRules* system : AllSystems()) {
    CHECK(system->Keeps(JobRecord::kStalls) == (system == &bullmq));
    CHECK(system->Keeps(JobRecord::kFirstEnqueue) == (system == &sqs || system->id() == System::kPubSub));
    CHECK(system->Keeps(JobRecord::kXDeath) == (system == &rabbit));
    CHECK(system->CountsStalls() == (system == &bullmq));
    CHECK(system->CanReplayKeepingAttempts() == (system == &bullmq));
    CHECK(system->LazyRetention() == (system == &bullmq || system == &sidekiq));
    CHECK(system->DescribesEntries() == (system != &lab));
  }
  Policy p;
  CHECK(lab.ReturnTo(p) == ReturnPlace::kTail);
  p.system = System::kRabbitMqQuorum;
  CHECK(rabbit.ReturnTo(p) == ReturnPlace::kNearHead);
  p.delivery_limit = DeliveryLimit::kUnset3;
  CHECK(rabbit.ReturnTo(p) == ReturnPlace::kTail);
  p.delivery_limit = DeliveryLimit::kClassicQueue;
  CHECK(rabbit.ReturnTo(p) == ReturnPlace::kInPlace);
  // Retention: sidekiq's 0 is its 180 days; bullmq's is the policy's; sqs counts from the first enqueue.
  Policy none;
  CHECK(sidekiq.LazyRetentionAge(none) == kSidekiqDeadTimeoutMs);
  CHECK(bullmq.LazyRetentionAge(none) == 0);
  CHECK(lab.LazyRetentionAge(none) == 0);
  none.retention_ms = 5000;
  CHECK(sidekiq.LazyRetentionAge(none) == 5000);
  CHECK(bullmq.LazyRetentionAge(none) == 5000);
  CHECK(lab.LazyRetentionAge(none) == 0);  // the lab's retention is a timer, not a trim
  CHECK(sqs.RetentionFrom(700, 200) == 200);
  CHECK(lab.RetentionFrom(700, 200) == 700);
  // Replay: sidekiq's retry of a dead job gives it one more run; the others reset.
  CHECK(sidekiq.AttemptsAfterReplay(4) == 3);
  CHECK(sidekiq.AttemptsAfterReplay(0) == 0);
  CHECK(lab.AttemptsAfterReplay(4) == 0);
  // BullMQ's own failedReason for a stall; the others keep the worker's error.
  CHECK(std::string(bullmq.OwnError(Reason::kStalled)) == kBullMqStalledError);
  CHECK(bullmq.OwnError(Reason::kExhausted) == nullptr);
  CHECK(lab.OwnError(Reason::kStalled) == nullptr);
  // The quarantine's bound: removeOnFail N, dead_max_jobs N - 1, a DLQ's x-max-length N.
  Policy keep;
  keep.remove_on_fail_count = 7;
  CHECK(bullmq.QuarantineKeepNewest(keep) == 7);
  keep.dead_max_jobs = 7;
  CHECK(sidekiq.QuarantineKeepNewest(keep) == 6);
  keep.dlq_max_length = 7;
  CHECK(rabbit.QuarantineKeepNewest(keep) == 7);
  CHECK(lab.QuarantineKeepNewest(keep) == -1);
  CHECK(sqs.QuarantineKeepNewest(keep) == -1);
}

TEST_CASE("systems: each system's dead-letter record has a title the page shows over it, in the system's own words") {
  for (const SystemRules* system : AllSystems()) {
    CAPTURE(system->name());
    REQUIRE(system->RecordTitle() != nullptr);
    CHECK_FALSE(std::string(system->RecordTitle()).empty());
  }
  // The names each system's operators meet (docs/real-systems.md); a system that names none is "dead-letter record".
  CHECK(std::string(SystemOf(System::kRabbitMqQuorum).RecordTitle()) == "x-death record");
  CHECK(std::string(SystemOf(System::kSqs).RecordTitle()) == "SQS DLQ message attributes");
  CHECK(std::string(SystemOf(System::kBullMq).RecordTitle()) == "BullMQ failed job");
  CHECK(std::string(SystemOf(System::kSidekiq).RecordTitle()) == "Sidekiq Dead set job");
  CHECK(std::string(SystemOf(System::kPubSub).RecordTitle()) == "Pub/Sub dead-letter attributes");
  CHECK(std::string(SystemOf(System::kServiceBus).RecordTitle()) == "$DeadLetterQueue message");
  CHECK(std::string(SystemOf(System::kSpringKafka).RecordTitle()) == "kafka_dlt-* headers");
  CHECK(std::string(SystemOf(System::kLab).RecordTitle()) == "dead-letter record");  // never shown: no record
}

TEST_CASE(
    "systems: the hooks agree with the queue that still branches on the system (the lead's rewiring keeps them)") {
  for (const SystemRules* system : AllSystems()) {
    Policy p;
    p.max_attempts = system->id() == System::kPubSub ? 5 : 2;  // Pub/Sub's max_delivery_attempts is 5..100
    p.retention_ms = 10'000;
    p.system = system->id();
    // Kafka Connect dead-letters only with errors.tolerance all and a DLQ topic (else the task stops).
    p.tolerance_all = p.dlq_topic = p.context_headers = system->id() == System::kKafkaConnect;
    if (system->id() == System::kKafkaConnect) p.retry_timeout_ms = 120'000;  // the transient is retried, as elsewhere
    Queue q = test::QueueWith(p, {"a"});
    REQUIRE(q.Advance(int64_t{1000}).ok());
    for (int64_t i = 1; i < p.max_attempts; ++i) REQUIRE(q.Process("transient").ok());
    REQUIRE(q.Advance(int64_t{60'000}).ok());
    REQUIRE(q.Process("permanent").ok());
    CAPTURE(system->name());
    CHECK(q.view().CanReplayKeepingAttempts() == system->CanReplayKeepingAttempts());
    CHECK(q.policy().LazyRetention() == system->LazyRetention());
    const std::vector<QuarantineEntry> dead = q.view().Quarantined();
    REQUIRE(dead.size() == 1);
    const QuarantineEntry& e = dead[0];
    CHECK((e.enqueued_at != 0 || system->Keeps(JobRecord::kFirstEnqueue)) == system->Keeps(JobRecord::kFirstEnqueue));
    CHECK(e.x_death.empty() == !system->Keeps(JobRecord::kXDeath));
    if (!system->LazyRetention()) {
      CHECK(e.retention_from == system->RetentionFrom(e.arrived_at, e.enqueued_at));
    } else {
      CHECK(e.retention_until == e.arrived_at + system->LazyRetentionAge(q.policy()));
    }
    const DeadLetterRecord record = system->RecordUnder(q.policy(), FactsOf(e));
    CHECK(record.empty() == !system->DescribesEntries());
  }
}

TEST_CASE("systems: each system's dead-letter record, in its own field names") {
  Policy p;
  p.max_attempts = 2;
  p.system = System::kRabbitMqQuorum;
  Queue rabbit = test::QueueWith(p, {"a"});
  REQUIRE(rabbit.Process("transient").ok());
  REQUIRE(rabbit.Process("transient").ok());
  const DeadLetterRecord x = SystemOf(p).Record(FactsOf(rabbit.view().Quarantined()[0]));
  REQUIRE(x.size() == 3);
  CHECK(x[0].name == "x-death");
  REQUIRE(x[0].kind == RecordField::Kind::kList);
  REQUIRE(x[0].list.size() == 1);
  CHECK(x[0].list[0] == std::vector<RecordField>{RecordField::Text("queue", "orders"),
                                                 RecordField::Text("reason", "delivery_limit"),
                                                 RecordField::Number("count", 1), RecordField::Time("time", 0)});
  CHECK(x[1] == RecordField::Text("x-first-death-queue", "orders"));
  CHECK(x[2] == RecordField::Text("x-first-death-reason", "delivery_limit"));

  QuarantineEntry e;
  e.payload = "{}";
  e.attempts = 3;
  e.stalls = 1;
  e.last_error = "boom";
  e.arrived_at = 900;
  e.enqueued_at = 100;
  const DeadLetterRecord sqs = SystemOf(System::kSqs).Record(FactsOf(e));
  CHECK(sqs == DeadLetterRecord{RecordField::Text("body", "{}"), RecordField::Number("ApproximateReceiveCount", 3),
                                RecordField::Time("SentTimestamp", 100), RecordField::Text("sourceQueue", "orders")});
  const DeadLetterRecord bull = SystemOf(System::kBullMq).Record(FactsOf(e));
  CHECK(bull == DeadLetterRecord{RecordField::Number("attemptsMade", 3), RecordField::Number("stalledCounter", 1),
                                 RecordField::Text("failedReason", "boom"), RecordField::Time("finishedOn", 900)});
  const DeadLetterRecord kiq = SystemOf(System::kSidekiq).Record(FactsOf(e));
  CHECK(kiq == DeadLetterRecord{RecordField::Number("retry_count", 2), RecordField::Text("error_message", "boom")});
  CHECK(SystemOf(System::kLab).Record(FactsOf(e)).empty());
  CHECK(FieldNamed(sqs, "ApproximateReceiveCount")->number == 3);
  CHECK(FieldNamed(bull, "x-death") == nullptr);
}

TEST_CASE("systems: a dead letter's drop is its own system's setting") {
  Policy p;
  CHECK(SystemOf(p).DeadLetterDrop(p) == DropCause::kKept);
  p.system = System::kRabbitMqQuorum;
  p.dead_letter_exchange = DeadLetterExchange::kNone;
  CHECK(p.DeadLetterDrop() == DropCause::kNoDeadLetterExchange);
  p = Policy{};
  p.system = System::kBullMq;
  p.remove_on_fail = true;
  CHECK(p.DeadLetterDrop() == DropCause::kRemoveOnFail);
  p = Policy{};
  p.system = System::kSidekiq;
  p.skip_dead_set = true;
  CHECK(p.DeadLetterDrop() == DropCause::kNoDeadSet);
  CHECK(p.DiscardsDeadLetters());
}

}  // namespace dlq::systems_test
