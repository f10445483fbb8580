// kafka-connect (core/systems/kafka_connect.cpp): Kafka Connect has no local worker here, so
// each rule is tested against the documentation or the apache/kafka source it encodes, quoted:
// [C1] ConnectorConfig's errors.* docs, [C2] SinkConnectorConfig's DLQ docs, [C3]
// DeadLetterQueueReporter, [C4] RetryWithToleranceOperator (connect/runtime, apache/kafka trunk).
#include <string>
#include <vector>

#include <map>

#include "backoff.h"
#include "config.h"
#include "modules.h"
#include "queue.h"
#include "registry.h"
#include "scenario.h"
#include "test_util.h"

namespace dlq::kafka_connect_test {
namespace {

// A connector as Connect's defaults have it: tolerance none, no DLQ topic, no retry, max delay 60 s.
Policy Connect() {
  Policy p;
  p.system = System::kKafkaConnect;
  p.backoff = {BackoffKind::kExponential, kKafkaConnectRetryDelayMinMs, 60'000, Jitter::kNone};
  return p;
}

using test::Run;

TEST_CASE("kafka-connect: tolerance none (the default) fails the task: nothing is dead-lettered and it stops") {
  // [C1] ERRORS_TOLERANCE_DOC: "'none' is the default value and signals that any error will result in
  // an immediate connector task failure". ERRORS_RETRY_TIMEOUT_DOC: "The default is 0, which means no
  // retries will be attempted."
  Policy p = Connect();
  REQUIRE(Policy::Check(p).ok());
  CHECK(p.OrderingInForce() == Ordering::kStall);
  Queue q = test::QueueWith(p, {"a", "b"});
  Result<Attempt> a = q.Process("transient");
  REQUIRE(a.ok());
  // Not quarantined, not dropped: the record stays at its offset, held at the head, and the task
  // takes nothing behind it (the lab holds it for the longest delay it keeps).
  CHECK(a->disposition == Disposition::kDelayed);
  CHECK(a->delay_ms == kMaxSidekiqDelayMs);
  CHECK(q.view().Quarantined().empty());
  CHECK(q.stats().discarded == 0);
  Result<Attempt> next = q.Process("success");
  REQUIRE(next.ok());
  CHECK_FALSE(next->processed);  // "b" waits behind the failed task's record
  // A non-retriable failure stops it the same way.
  Queue r = test::QueueWith(p, {"a", "b"});
  CHECK(test::MustProcess(r, "undeserializable").disposition == Disposition::kDelayed);
  CHECK(r.view().Quarantined().empty());
}

TEST_CASE("kafka-connect: tolerance all with no DLQ topic skips the record, with one it is dead-lettered") {
  // [C1] "'all' changes the behavior to skip over problematic records." [C2] DLQ_TOPIC_NAME_DOC: "The
  // topic name is blank by default, which means that no messages are to be recorded in the DLQ."
  Policy p = Connect();
  p.tolerance_all = true;
  REQUIRE(Policy::Check(p).ok());
  CHECK(p.DeadLetterDrop() == DropCause::kNoDeadLetterQueueTopic);
  Queue skip = test::QueueWith(p, {"a", "b"});
  CHECK(test::MustProcess(skip, "transient").disposition == Disposition::kDiscarded);  // no retry: timeout 0
  const Attempt next = test::MustProcess(skip, "success");                             // the task moves past it
  CHECK(next.id == "b");
  CHECK(skip.view().Quarantined().empty());
  CHECK(skip.stats().discarded == 1);

  p.dlq_topic = true;
  REQUIRE(Policy::Check(p).ok());
  CHECK(p.DeadLetterDrop() == DropCause::kKept);
  Queue dlq = test::QueueWith(p, {"a", "b"});
  CHECK(Run(dlq, "permanent", 3) == std::vector<std::string>{"a", "b"});
  CHECK(test::Ids(dlq.view().Quarantined()) == std::vector<std::string>{"a", "b"});
}

TEST_CASE("kafka-connect: the DLQ record carries the __connect.errors.* headers only when enabled") {
  // [C2] DLQ_CONTEXT_HEADERS_ENABLE_DOC: "If true, add headers containing error context to the messages
  // written to the dead letter queue. ... all error context header keys will start with __connect.errors."
  // [C3] DeadLetterQueueReporter: HEADER_PREFIX + "topic", "partition", "stage", "exception.message".
  Policy p = Connect();
  p.tolerance_all = true;
  p.dlq_topic = true;
  Queue q = test::QueueWith(p, {"a", "b"});
  test::MustProcess(q, "undeserializable", "bad magic byte");
  test::MustProcess(q, "permanent", "no such table");
  REQUIRE(q.view().Quarantined().size() == 2);
  auto facts_of = [](const QuarantineEntry& e) {
    EntryFacts facts;
    facts.payload = e.payload;
    facts.attempts = e.attempts;
    facts.last_error = e.last_error;
    facts.reason = e.reason;
    facts.failure_class = e.failure_class;
    return facts;
  };
  const QuarantineEntry a = q.view().Quarantined()[0];
  const QuarantineEntry b = q.view().Quarantined()[1];
  CHECK(SystemOf(p).RecordUnder(p, facts_of(a)).empty());  // the original record alone
  p.context_headers = true;
  REQUIRE(Policy::Check(p).ok());
  CHECK(SystemOf(p).RecordUnder(p, facts_of(a)) ==
        DeadLetterRecord{RecordField::Text("__connect.errors.topic", "orders"),
                         RecordField::Number("__connect.errors.partition", 0),
                         RecordField::Text("__connect.errors.stage", "VALUE_CONVERTER"),
                         RecordField::Text("__connect.errors.exception.message", "bad magic byte")});
  CHECK(SystemOf(p).RecordUnder(p, facts_of(b))[2] == RecordField::Text("__connect.errors.stage", "TRANSFORMATION"));
  CHECK(std::string(SystemOf(p).ReasonName(Reason::kExhausted)).empty());  // an exception, no reason
}

TEST_CASE("kafka-connect: the retry backoff is 300 ms doubled, then a draw below errors.retry.delay.max.ms") {
  // [C4] backoff(): "long delay = RETRIES_DELAY_MIN_MS << numRetry; if (delay > errorMaxDelayInMillis)
  // { delay = ThreadLocalRandom.current().nextLong(errorMaxDelayInMillis); }", RETRIES_DELAY_MIN_MS = 300.
  // [C1] ERRORS_RETRY_MAX_DELAY_DOC: "Jitter will be added to the delay once this limit is reached".
  const Policy p = Connect();
  const SystemRules& s = SystemOf(p);
  Prng prng(7);
  CHECK(s.RetryDelay(p, p.backoff, 1, 0, prng) == 300);
  CHECK(s.RetryDelay(p, p.backoff, 2, 0, prng) == 600);
  CHECK(s.RetryDelay(p, p.backoff, 8, 0, prng) == 38'400);
  for (uint32_t n : {9u, 20u, 54u}) {  // 300 << 8 = 76,800 > 60,000: a draw in [0, 60,000)
    const int64_t d = s.RetryDelay(p, p.backoff, n, 0, prng);
    CHECK(d >= 0);
    CHECK(d < 60'000);
    CHECK(s.MaxRetryDelay(p, p.backoff, n, 0) == 59'999);
  }
  // Java's long shift: 300 << 55 sets the sign bit (await returns at once), and the count is taken
  // mod 64, so retry 65 waits 300 ms again.
  CHECK(s.RetryDelay(p, p.backoff, 56, 0, prng) == 0);
  CHECK(s.MaxRetryDelay(p, p.backoff, 56, 0) == 0);
  CHECK(s.RetryDelay(p, p.backoff, 65, 0, prng) == 300);
}

TEST_CASE("kafka-connect: errors.retry.timeout is a window from the first failure, only retriable failures retry") {
  // [C1] ERRORS_RETRY_TIMEOUT_DOC: "The maximum duration in milliseconds that a failed operation will be
  // reattempted." [C4] execAndRetry: "if (time.milliseconds() < deadline) { backoff(attempt, deadline); ... }"
  // for a RetriableException only; "For transformations and converters, all exceptions are tolerated. For
  // others operations, only RetriableException are tolerated."
  Policy p = Connect();
  p.tolerance_all = true;
  p.dlq_topic = true;
  p.retry_timeout_ms = 1000;
  p.lease_ms = 10;
  REQUIRE(Policy::Check(p).ok());
  CHECK(SystemOf(p).RetryWindowMs(p) == 1000);
  Queue q = test::QueueWith(p, {"a", "b"});
  // Fails at 0 (retry in 300), at 300 (in 600), at 900 (in 1200), at 2100: past the window.
  std::vector<int64_t> delays;
  for (int i = 0; i < 4; ++i) {
    const Attempt a = test::MustProcess(q, "transient");
    CHECK(a.id == "a");
    if (a.disposition == Disposition::kDelayed) {
      delays.push_back(a.delay_ms);
      REQUIRE(q.Advance(a.delay_ms).ok());
    }
  }
  CHECK(delays == std::vector<int64_t>{300, 600, 1200});
  REQUIRE(q.view().Quarantined().size() == 1);
  CHECK(q.view().Quarantined()[0].reason == Reason::kExhausted);
  CHECK(q.view().Quarantined()[0].attempts == 4);
  // A non-retriable failure is handed to tolerance at once, whatever the timeout.
  p.retry_timeout_ms = kMaxTimeMs;  // Connect's -1: forever
  Queue r = test::QueueWith(p, {"a"});
  CHECK(test::MustProcess(r, "permanent").disposition == Disposition::kQuarantined);
  Queue forever = test::QueueWith(p, {"c"});
  CHECK(test::MustProcess(forever, "transient").disposition == Disposition::kDelayed);
}

TEST_CASE("kafka-connect: its settings are refused where Connect has no such thing, and travel in links") {
  Policy p = Connect();
  p.backoff.jitter = Jitter::kFull;
  CHECK(Policy::Check(p).message() ==
        "backoff.jitter must be \"none\" with system \"kafka-connect\" (Connect draws its own jitter, below capMs = "
        "errors.retry.delay.max.ms, once the doubled delay passes it), got \"full\"");
  p = Connect();
  p.ordering = Ordering::kKey;
  CHECK(Policy::Check(p).message().find("ordering must be \"none\" or \"stall\" with system \"kafka-connect\"") == 0);
  Policy lab;
  lab.tolerance_all = true;
  CHECK(Policy::Check(lab).message().find("kafka-connect") != std::string::npos);

  Scenario s;
  s.policy = Connect();
  s.policy.tolerance_all = true;
  s.policy.dlq_topic = true;
  s.policy.context_headers = true;
  s.policy.retry_timeout_ms = 600'000;
  s.policy.backoff.cap_ms = 30'000;
  const std::string link = FormatScenario(s);
  CHECK(link.find(";rcTDHR600000") != std::string::npos);
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

TEST_CASE("kafka-connect: the connector JSON the core writes reads back to its policy") {
  Prng prng(3435);
  for (int i = 0; i < 200; ++i) {
    config::PolicyFacts n;
    n.system = "kafka-connect";
    n.max_attempts = 3;
    n.lease_ms = 30000;
    n.backoff = {"exponential", 300, static_cast<double>(1 + prng.Below(86'400'000)), "none", 500};
    n.tolerance_all = prng.Below(2) == 0;
    n.dlq_topic = prng.Below(2) == 0;
    n.context_headers = prng.Below(2) == 0;
    const uint32_t t = prng.Below(3);
    n.retry_timeout_ms = t == 0 ? 0 : t == 1 ? static_cast<double>(kMaxTimeMs) : prng.Below(3'600'000);
    Result<config::Snippet> s = config::WriteSnippet("kafka-connect", n);
    REQUIRE(s.ok());
    const config::ImportResult back = config::ReadConfig(s.value().text, nullptr);
    REQUIRE_MESSAGE(back.ok, s.value().text);
    CHECK(back.system == "kafka-connect");
    CHECK(back.format == "kafka-connect");
    auto f = Fields(back);
    CHECK(f.at("toleranceAll") == (n.tolerance_all ? "true" : "false"));
    CHECK(f.at("dlqTopic") == (n.dlq_topic ? "true" : "false"));
    CHECK(f.at("contextHeaders") == (n.context_headers ? "true" : "false"));
    CHECK(f.at("retryTimeoutMs") == config::JsNumberText(n.retry_timeout_ms));
    CHECK(f.at("backoff.kind") == "exponential");
    CHECK(f.at("backoff.baseMs") == "300");
    CHECK(f.at("backoff.capMs") == config::JsNumberText(n.backoff.cap_ms));
    CHECK(f.at("backoff.jitter") == "none");
  }
}

TEST_CASE("kafka-connect: the import reads the bare config map and a .properties file, bad values are refused") {
  // [C1]: "Use -1 for infinite retries."
  const config::ImportResult bare = config::ReadConfig(
      R"({"connector.class": "io.confluent.connect.jdbc.JdbcSinkConnector", "errors.tolerance": "all",
          "errors.retry.timeout": "-1", "errors.log.enable": "true"})",
      nullptr);
  REQUIRE(bare.ok);
  auto f = Fields(bare);
  CHECK(f.at("toleranceAll") == "true");
  CHECK(f.at("dlqTopic") == "false");
  CHECK(f.at("retryTimeoutMs") == "9007199254740991");
  CHECK(f.at("backoff.capMs") == "60000");
  const config::ImportResult props = config::ReadConfig(
      "# sink\nname=orders-sink\nerrors.tolerance=all\nerrors.deadletterqueue.topic.name=orders-dlq\n"
      "errors.deadletterqueue.context.headers.enable=true\nerrors.retry.timeout=600000\n",
      nullptr);
  REQUIRE(props.ok);
  f = Fields(props);
  CHECK(f.at("dlqTopic") == "true");
  CHECK(f.at("contextHeaders") == "true");
  CHECK(f.at("retryTimeoutMs") == "600000");
  const config::ImportResult bad = config::ReadConfig(R"({"config": {"errors.tolerance": "some"}})", nullptr);
  REQUIRE_FALSE(bad.ok);
  REQUIRE(bad.refusals.size() == 1);
  CHECK(bad.refusals[0].key == "errors.tolerance");
  const config::ImportResult low = config::ReadConfig("errors.retry.timeout=-2", nullptr);
  REQUIRE_FALSE(low.ok);
  CHECK(low.refusals[0].key == "errors.retry.timeout");
}

}  // namespace
}  // namespace dlq::kafka_connect_test
