// spring-kafka (core/systems/spring_kafka.cpp): Spring Kafka has no local broker here,
// so each rule is tested against the documentation sentence it encodes, quoted.
#include <map>
#include <string>
#include <vector>

#include "backoff.h"
#include "config.h"
#include "modules.h"
#include "queue.h"
#include "registry.h"
#include "scenario.h"
#include "test_util.h"

namespace dlq::spring_kafka_test {
namespace {

Policy Spring() {
  Policy p;
  p.system = System::kSpringKafka;
  return p;
}

using test::Run;

TEST_CASE("spring-kafka: the default FixedBackOff(0, 9) is ten deliveries of the record at the head, 0 ms apart") {
  // [F1] annotation-error-handling.adoc: "By default, after ten failures, the failed record is
  // logged (at the ERROR level)." and the DefaultErrorHandler "seeks to the current offset for each
  // topic in the remaining records" (its javadoc): the failed record is redelivered before any other.
  Policy p = Spring();
  p.max_attempts = 10;  // FixedBackOff(0, 9): 9 retries after the first delivery
  REQUIRE(Policy::Check(p).ok());
  CHECK(p.OrderingInForce() == Ordering::kStall);  // the ordering field says none: blocking holds anyway
  Queue q = test::QueueWith(p, {"a", "b"});
  const std::vector<std::string> ids = Run(q, "transient", 11);
  CHECK(ids == std::vector<std::string>{"a", "a", "a", "a", "a", "a", "a", "a", "a", "a", "b"});
  REQUIRE(q.view().Quarantined().size() == 1);
  CHECK(q.stats().now == 0);  // no delay at all: ten deliveries outlast no outage
  const WorstCase w = WorstCasePath(p);
  CHECK(w.attempts == 10);
  // Only the leases and one wait: the precondition class's own fixed 1 s (the lab's class
  // table); the FixedBackOff's delays are all 0.
  CHECK(w.time_ms == 10 * p.lease_ms + 1000);
  for (const WorstDelay& d : w.delays) CHECK((d.delay_ms == 0 || d.failure_class == FailureClass::kPrecondition));

  // The lab's own rule for comparison: a requeued job goes to the tail and "b" overtakes it.
  Policy lab = p;
  lab.system = System::kLab;
  Queue l = test::QueueWith(lab, {"a", "b"});
  CHECK(Run(l, "transient", 3) == std::vector<std::string>{"a", "b", "a"});
}

TEST_CASE("spring-kafka: a blocking retry's back-off holds the partition, retry topics let it move on") {
  // [F2] how-the-pattern-works.adoc: "By using this strategy you lose Kafka's ordering guarantees for that topic."
  Policy p = Spring();
  p.max_attempts = 3;
  p.backoff = {BackoffKind::kFixed, 1000, 1000, Jitter::kNone};
  Queue blocking = test::QueueWith(p, {"a", "b"});
  Result<Attempt> a = blocking.Process("transient");
  REQUIRE(a.ok());
  CHECK(a->disposition == Disposition::kDelayed);
  CHECK(a->delay_ms == 1000);
  Result<Attempt> held = blocking.Process("success");  // "b" may not pass the waiting head
  REQUIRE(held.ok());
  CHECK_FALSE(held->processed);

  p.retry_topics = true;
  REQUIRE(Policy::Check(p).ok());
  CHECK(p.OrderingInForce() == Ordering::kNone);
  Queue topics = test::QueueWith(p, {"a", "b"});
  REQUIRE(topics.Process("transient").ok());
  Result<Attempt> next = topics.Process("success");
  REQUIRE(next.ok());
  CHECK(next->processed);
  CHECK(next->id == "b");
}

TEST_CASE("spring-kafka: ExponentialBackOff multiplies the last interval, truncated to whole ms, up to the max") {
  // Spring Framework's ExponentialBackOff javadoc: "The default interval is 2000L ms; the default
  // multiplier is 1.5; and the default max interval is 30000L. For 10 attempts the sequence will be
  // as follows: request# back off 1 2000 2 3000 3 4500 4 6750 5 10125 6 15187 7 22780 8 30000 9 30000 10 30000"
  Policy p = Spring();
  p.max_attempts = 11;
  p.backoff = {BackoffKind::kExponential, 2000, 30'000, Jitter::kNone};
  p.multiplier_permille = 1500;
  REQUIRE(Policy::Check(p).ok());
  const SystemRules& spring = SystemOf(p);
  Prng jitter(1);
  std::vector<int64_t> delays;
  for (uint32_t n = 1; n <= 10; ++n) delays.push_back(spring.RetryDelay(p, p.backoff, n, 0, jitter));
  CHECK(delays == std::vector<int64_t>{2000, 3000, 4500, 6750, 10125, 15187, 22780, 30000, 30000, 30000});
  for (uint32_t n = 1; n <= 10; ++n) CHECK(spring.MaxRetryDelay(p, p.backoff, n, 0) == delays[n - 1]);
  CHECK(spring.MaxRetryDelaySettlesAt(p, p.backoff) == 8);
  // The queue waits those delays.
  Queue q = test::QueueWith(p, {"a"});
  Result<Attempt> first = q.Process("transient");
  REQUIRE(first.ok());
  CHECK(first->delay_ms == 2000);
  REQUIRE(q.Advance(int64_t{2000}).ok());
  Result<Attempt> second = q.Process("transient");
  REQUIRE(second.ok());
  CHECK(second->delay_ms == 3000);
  // The worst case adds the same delays: 11 leases and 10 waits.
  int64_t waits = 0;
  for (int64_t d : delays) waits += d;
  CHECK(WorstCasePath(p).time_ms == 11 * p.lease_ms + waits);
  // multiplierPermille 2000 is the lab's doubling.
  p.multiplier_permille = 2000;
  for (uint32_t n = 1; n <= 6; ++n) {
    CHECK(spring.MaxRetryDelay(p, p.backoff, n, 0) == MaxDelay(p.backoff, n, 0));
  }
  // A multiplier too small to add a whole ms settles at once.
  p.backoff = {BackoffKind::kExponential, 500, 30'000, Jitter::kNone};
  p.multiplier_permille = 1001;
  CHECK(spring.MaxRetryDelay(p, p.backoff, 5, 0) == 500);
  CHECK(spring.MaxRetryDelaySettlesAt(p, p.backoff) == 1);
}

TEST_CASE("spring-kafka: the dead-letter record is the DeadLetterPublishingRecoverer's kafka_dlt-* headers") {
  // [F1]: "The record sent to the dead-letter topic is enhanced with the following headers"
  // (KafkaHeaders.DLT_ORIGINAL_TOPIC, DLT_ORIGINAL_PARTITION, DLT_EXCEPTION_MESSAGE, ...).
  Policy p = Spring();
  p.max_attempts = 2;
  Queue q = test::QueueWith(p, {"a"});
  REQUIRE(q.Process("transient", "db down").ok());
  REQUIRE(q.Process("transient", "db still down").ok());
  REQUIRE(q.view().Quarantined().size() == 1);
  const QuarantineEntry e = q.view().Quarantined()[0];
  EntryFacts facts;
  facts.payload = e.payload;
  facts.attempts = e.attempts;
  facts.last_error = e.last_error;
  const DeadLetterRecord record = SystemOf(p).Record(facts);
  CHECK(record == DeadLetterRecord{RecordField::Text("kafka_dlt-original-topic", "orders"),
                                   RecordField::Number("kafka_dlt-original-partition", 0),
                                   RecordField::Text("kafka_dlt-exception-message", "db still down")});
  CHECK(std::string(SystemOf(p).ReasonName(Reason::kExhausted)).empty());  // an exception, no reason
}

TEST_CASE("spring-kafka: with no recoverer a record that fails for good is logged and skipped") {
  // [F1]: "Failures are simply logged after retries are exhausted."
  Policy p = Spring();
  p.max_attempts = 2;
  p.no_recoverer = true;
  REQUIRE(Policy::Check(p).ok());
  CHECK(p.DeadLetterDrop() == DropCause::kNoRecoverer);
  Queue q = test::QueueWith(p, {"a", "b"});
  CHECK(Run(q, "transient", 3) == std::vector<std::string>{"a", "a", "b"});
  CHECK(q.view().Quarantined().empty());
  CHECK(q.stats().discarded == 1);
}

TEST_CASE("spring-kafka: its settings are refused by name where Spring Kafka has no such thing") {
  Policy p = Spring();
  p.ordering = Ordering::kKey;
  CHECK(Policy::Check(p).message() ==
        "ordering must be \"none\" or \"stall\" with system \"spring-kafka\" and retryTopics false (the "
        "DefaultErrorHandler seeks the partition back to the failed record, holding it: stall applies either way), "
        "got \"key\"");
  p.ordering = Ordering::kStall;
  CHECK(Policy::Check(p).ok());
  p.retry_topics = true;
  CHECK(Policy::Check(p).message() ==
        "ordering must be \"none\" with system \"spring-kafka\" and retryTopics true (a retry topic takes the record "
        "off its partition, which moves on: no order is kept), got \"stall\"");
  p = Spring();
  p.backoff = {BackoffKind::kFixed, 100, 100, Jitter::kFull};
  CHECK(Policy::Check(p).message() ==
        "backoff.jitter must be \"none\" with system \"spring-kafka\" (its FixedBackOff and ExponentialBackOff draw "
        "no jitter), got \"full\"");
  p = Spring();
  p.multiplier_permille = 999;
  CHECK(Policy::Check(p).message() == "multiplierPermille must be an integer from 1000 to 10000, got 999");
  Policy lab;
  lab.retry_topics = true;
  CHECK(Policy::Check(lab).message() ==
        "retryTopics applies only with system \"spring-kafka\" (leave it at its default otherwise), got true with "
        "system \"lab\"");
}

TEST_CASE("spring-kafka: the mode and its settings travel through link v2 and snapshots") {
  Scenario s;
  s.policy = Spring();
  s.policy.retry_topics = true;
  s.policy.multiplier_permille = 1500;
  s.policy.no_recoverer = true;
  s.policy.backoff = {BackoffKind::kExponential, 2000, 30'000, Jitter::kNone};
  const std::string link = FormatScenario(s);
  CHECK(link.find(";rf") != std::string::npos);
  Result<Scenario> back = ParseScenario(link);
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(back->policy == s.policy);
  Queue q = test::QueueWith(s.policy, {"a"});
  REQUIRE(q.Process("transient").ok());
  Result<std::string> text = q.view().SnapshotText();
  REQUIRE(text.ok());
  Result<Queue> restored = Queue::Restore(text.value());
  REQUIRE_MESSAGE(restored.ok(), restored.status().ToString());
  CHECK(restored->policy() == s.policy);
  CHECK(restored->view().SnapshotText().value() == text.value());
}

// The fields an import sets, as text (numbers as JavaScript writes them).
std::map<std::string, std::string> Fields(const config::ImportResult& r) {
  std::map<std::string, std::string> out;
  for (const config::SetField& f : r.set) {
    switch (f.value.kind) {
      case config::ConfigValue::Kind::kNumber: out[f.field] = config::JsNumberText(f.value.number); break;
      case config::ConfigValue::Kind::kText: out[f.field] = f.value.text; break;
      case config::ConfigValue::Kind::kFlag: out[f.field] = f.value.flag ? "true" : "false"; break;
    }
  }
  return out;
}

TEST_CASE("spring-kafka: the Java snippet the core writes reads back to its policy") {
  Prng prng(3434);
  for (int i = 0; i < 300; ++i) {
    config::PolicyFacts n;
    n.system = "spring-kafka";
    n.max_attempts = 1 + prng.Below(50);
    n.lease_ms = 30000;
    n.retry_topics = prng.Below(2) == 0;
    n.ordering = n.retry_topics ? "none" : "stall";
    n.no_recoverer = !n.retry_topics && prng.Below(3) == 0;
    const uint32_t kind = prng.Below(3);
    n.backoff.kind = kind == 0 ? "none" : kind == 1 ? "fixed" : "exponential";
    n.backoff.base_ms = 1 + prng.Below(10000);
    n.backoff.cap_ms = n.backoff.base_ms + prng.Below(100000);
    n.multiplier_permille = kind == 2 ? 1000 + prng.Below(9001) : 2000;
    for (const char* name : {"transient", "permanent", "undeserializable", "unknown-schema", "precondition", "crash"}) {
      n.rules.push_back({name, "bounded", n.max_attempts, n.backoff, false, false});
    }
    Result<config::Snippet> s = config::WriteSnippet("kafka", n);
    REQUIRE(s.ok());
    const config::ImportResult back = config::ReadConfig(s.value().text, nullptr);
    REQUIRE_MESSAGE(back.ok, s.value().text);
    CHECK(back.system == "spring-kafka");
    auto f = Fields(back);
    CHECK(f.at("maxAttempts") == config::JsNumberText(n.max_attempts));
    CHECK(f.at("retryTopics") == (n.retry_topics ? "true" : "false"));
    CHECK(f.at("ordering") == n.ordering);
    CHECK(f.at("backoff.kind") == n.backoff.kind);
    CHECK(f.at("backoff.jitter") == "none");
    if (n.backoff.kind != "none") CHECK(f.at("backoff.baseMs") == config::JsNumberText(n.backoff.base_ms));
    if (n.backoff.kind == "exponential") {
      CHECK(f.at("backoff.capMs") == config::JsNumberText(n.backoff.cap_ms));
      CHECK(f.at("multiplierPermille") == config::JsNumberText(n.multiplier_permille));
    }
    if (!n.retry_topics) CHECK(f.at("noRecoverer") == (n.no_recoverer ? "true" : "false"));
  }
}

TEST_CASE("spring-kafka: the reader takes Spring's defaults and refuses what it cannot read, by name") {
  // "By default, after ten failures, the failed record is logged": no BackOff is FixedBackOff(0, 9).
  config::ImportResult bare = config::ReadConfig("new DefaultErrorHandler();", nullptr);
  REQUIRE(bare.ok);
  auto f = Fields(bare);
  CHECK(f.at("maxAttempts") == "10");
  CHECK(f.at("backoff.kind") == "none");
  CHECK(f.at("noRecoverer") == "true");
  // @RetryableTopic's defaults: attempts 3, a 1000 ms fixed @BackOff.
  config::ImportResult topic = config::ReadConfig("@RetryableTopic\n@KafkaListener(topics = \"orders\")", nullptr);
  REQUIRE(topic.ok);
  f = Fields(topic);
  CHECK(f.at("maxAttempts") == "3");
  CHECK(f.at("backoff.kind") == "fixed");
  CHECK(f.at("backoff.baseMs") == "1000");
  config::ImportResult bad = config::ReadConfig("new DefaultErrorHandler(new FixedBackOff(100L, lots));", nullptr);
  REQUIRE_FALSE(bad.ok);
  REQUIRE(bad.refusals.size() == 1);
  CHECK(bad.refusals[0].message.find("FixedBackOff maxAttempts") != std::string::npos);
  CHECK(bad.refusals[0].message.find("got lots") != std::string::npos);
  config::ImportResult multiplier = config::ReadConfig(
      "@RetryableTopic(attempts = \"4\", backOff = @BackOff(delay = 100, multiplier = 0.5))", nullptr);
  REQUIRE_FALSE(multiplier.ok);
  CHECK(multiplier.refusals[0].message.find("@BackOff multiplier") != std::string::npos);
}

}  // namespace
}  // namespace dlq::spring_kafka_test
