// The config readers (core/config/): each format read into the lab's policy fields,
// a written config of many generated policies read back to the same policy, and every
// refusal naming its key, what was expected and what was given. The page's answers
// over hundreds of inputs are pinned by tests/node/import-baseline.test.mjs.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "config.h"
#include "internal/object_text.h"
#include "internal/quote.h"
#include "internal/translation.h"
#include "prng.h"
#include "test_util.h"

using namespace dlq;
using namespace dlq::config;

namespace config_test {

namespace {

ImportResult Read(const std::string& text) { return ReadConfig(text, nullptr); }

// The fields set, as text: numbers as JavaScript writes them.
std::map<std::string, std::string> Fields(const ImportResult& r) {
  std::map<std::string, std::string> out;
  for (const SetField& s : r.set) {
    switch (s.value.kind) {
      case ConfigValue::Kind::kNumber: out[s.field] = JsNumberText(s.value.number); break;
      case ConfigValue::Kind::kText: out[s.field] = s.value.text; break;
      case ConfigValue::Kind::kFlag: out[s.field] = s.value.flag ? "true" : "false"; break;
    }
  }
  return out;
}

// Every refusal names its key first and ends with what was given.
void CheckRefusals(const ImportResult& r) {
  REQUIRE_FALSE(r.ok);
  CHECK(r.set.empty());
  for (const ConfigRefusal& x : r.refusals) {
    CHECK(x.message.rfind(Isolated(x.key), 0) == 0);
    CHECK(x.message.find("expected " + x.expected) != std::string::npos);
    CHECK(x.message.size() >= x.given.size());
    CHECK(x.message.substr(x.message.size() - x.given.size() - 4) == "got " + x.given);
  }
}

}  // namespace

TEST_CASE("config: numbers are written as JavaScript writes them") {
  CHECK(JsNumberText(3) == "3");
  CHECK(JsNumberText(-0.0) == "0");
  CHECK(JsNumberText(0.5) == "0.5");
  CHECK(JsNumberText(0.3333) == "0.3333");
  CHECK(JsNumberText(1e21) == "1e+21");
  CHECK(JsNumberText(123456789012345680000.0) == "123456789012345680000");
  CHECK(JsNumberText(2e-7) == "2e-7");
  CHECK(JsNumberText(0.000001) == "0.000001");
  CHECK(JsNumberText(1.5e300) == "1.5e+300");
  CHECK(JsNumberText(9007199254740993.0) == "9007199254740992");
  CHECK(GroupedWhole(65536) == "65,536");
  CHECK(GroupedWhole(1024) == "1,024");
  CHECK(GroupedWhole(999) == "999");
}

TEST_CASE("config: the object-text reader takes JSON and object literals, keys in JavaScript's order") {
  ObjectTextRead r = ReadObjectText(
      "{ attempts: 3, 'backoff': { type: 'fixed', delay: 0x10, }, /* c */ '2': .5, '1': +1, } // end", "config");
  REQUIRE(r.ok);
  auto entries = r.value.Entries();
  REQUIRE(entries.size() == 4);
  CHECK(entries[0]->first == "1");
  CHECK(entries[1]->first == "2");
  CHECK(entries[2]->first == "attempts");
  CHECK(entries[3]->first == "backoff");
  CHECK(r.value.Find("backoff")->Find("delay")->number == 16);
  CHECK(JsonText(r.value) == "{\"1\":1,\"2\":0.5,\"attempts\":3,\"backoff\":{\"type\":\"fixed\",\"delay\":16}}");
  ObjectTextRead s = ReadObjectText("\"\\ud83d\\ude00 \\x41\\u00e9\"", "x");
  REQUIRE(s.ok);
  CHECK(s.value.text == "😀 Aé");
}

TEST_CASE("config: the object-text reader refuses as json5 does, a duplicate key and deep nesting by name") {
  ObjectTextRead bad = ReadObjectText("{\n  attempts: 3,\n  backoff: *\n}", "jobOptions");
  CHECK_FALSE(bad.ok);
  CHECK(bad.why == "is not JSON");
  CHECK(bad.detail == "invalid character '*' at 3:12");
  CHECK(ReadObjectText("{oops", "config").detail == "invalid end of input at 1:6");
  CHECK(ReadObjectText("{\"a\":1,}x", "config").detail == "invalid character 'x' at 1:9");
  CHECK(ReadObjectText("{a:\"\n\"}", "config").detail == "invalid character '\\n' at 2:0");
  ObjectTextRead dup = ReadObjectText("{\"backoff\":{\"delay\":1,'delay':2}}", "config");
  CHECK(dup.key == "backoff.delay");
  CHECK(dup.why == "is a duplicate key");
  CHECK(dup.given == "\"delay\" a second time");
  ObjectTextRead deep = ReadObjectText(std::string(17, '[') + std::string(17, ']'), "config");
  CHECK(deep.why == "is nested too deeply");
  CHECK(deep.given == "more than 16");
  CHECK(ReadObjectText(std::string(16, '[') + std::string(16, ']'), "config").ok);
}

TEST_CASE("config: a quoted value is JSON, cut past 40 characters, isolated when it could reorder the sentence") {
  CHECK(Quoted(JsValue::String("abc")) == "\"abc\"");
  CHECK(Quoted(JsValue::String(std::string(50, 'a'))) == "\"" + std::string(40, 'a') + "…\" (50 characters)");
  CHECK(Quoted(JsValue::String("\u202Eevil")) == "\u2068\"\\u202eevil\"\u2069");
  CHECK(Quoted(JsValue::Number(1e21)) == "1e+21");
  CHECK(Isolated("שלום") == "\u2068שלום\u2069");
}

TEST_CASE("config: each format is told apart and read into its system") {
  ImportResult bull =
      Read("{\"attempts\":3,\"backoff\":{\"type\":\"exponential\",\"delay\":1000},\"removeOnFail\":false}");
  REQUIRE(bull.ok);
  CHECK(bull.format == "bullmq");
  CHECK(bull.system == "bullmq");
  CHECK(Fields(bull) == std::map<std::string, std::string>{{"maxAttempts", "3"},
                                                           {"backoff.kind", "exponential"},
                                                           {"backoff.baseMs", "1000"},
                                                           {"backoff.capMs", "86400000"},
                                                           {"backoff.jitter", "none"},
                                                           {"quarantine.retentionMs", "0"}});
  REQUIRE(bull.ignored.size() == 1);
  CHECK(bull.ignored[0].key == "removeOnFail");

  ImportResult sqs =
      Read("{\"Attributes\":{\"RedrivePolicy\":\"{\\\"maxReceiveCount\\\":\\\"7\\\"}\",\"VisibilityTimeout\":\"12\"}}");
  REQUIRE(sqs.ok);
  CHECK(sqs.system == "sqs");
  CHECK(Fields(sqs).at("maxAttempts") == "7");
  CHECK(Fields(sqs).at("leaseMs") == "12000");
  CHECK(Fields(sqs).at("quarantine.retentionMs") == "345600000");

  ImportResult kiq = Read("  sidekiq_options retry: 5, queue: \"default\" # a comment\n");
  REQUIRE(kiq.ok);
  CHECK(kiq.system == "sidekiq");
  CHECK(Fields(kiq).at("maxAttempts") == "6");
  CHECK(Fields(kiq).at("retryInJitter") == "true");

  ImportResult rabbit =
      Read("{\"vhost\":\"/\",\"definition\":{\"delivery-limit\":2,\"dead-letter-exchange\":\"dlx\"}}");
  REQUIRE(rabbit.ok);
  CHECK(rabbit.system == "rabbitmq-quorum");
  CHECK(Fields(rabbit).at("maxAttempts") == "3");
  CHECK(Fields(rabbit).at("deliveryLimit") == "explicit");
  CHECK(Fields(rabbit).at("deadLetterExchange") == "set");
}

TEST_CASE("config: refusals name the key, what was expected and what was given, nothing is set") {
  ImportResult empty = Read("   ");
  CheckRefusals(empty);
  CHECK(empty.format.empty());
  CHECK(empty.refusals[0].message.rfind("config is empty: expected BullMQ job options", 0) == 0);

  ImportResult json = Read("{oops");
  CheckRefusals(json);
  CHECK(json.refusals[0].message.find("is not JSON nor a sidekiq_options line (invalid end of input at 1:6)") !=
        std::string::npos);

  ImportResult bull = Read("{attempts: 0, backoff: {type: 'custom'}, lifo: true}");
  CheckRefusals(bull);
  REQUIRE(bull.refusals.size() == 3);
  CHECK(bull.refusals[0].key == "lifo");
  CHECK(bull.refusals[1].message == "attempts: expected a whole number from 1, got 0");
  CHECK(bull.refusals[2].message ==
        "backoff.type names a custom backoffStrategy, which is not modelled by the lab: "
        "expected \"fixed\" or \"exponential\", got \"custom\"");

  ImportResult both = Read("{\"attempts\":3,\"VisibilityTimeout\":30}");
  CheckRefusals(both);
  CHECK(both.refusals[0].given == "keys of BullMQ job options and Amazon SQS queue attributes together");

  ImportResult kiq = Read("sidekiq_options retry: 5 queue: 1");
  CheckRefusals(kiq);
  CHECK(kiq.refusals[0].message.find("has no comma between pairs at character 26") != std::string::npos);

  JsValue dlq = JsValue::String("600");
  ImportResult other = ReadConfig("{\"delivery-limit\":2}", &dlq);
  CheckRefusals(other);
  CHECK(other.refusals[0].key == "DLQ MessageRetentionPeriod");
  CHECK(other.refusals[0].given == "\"600\"");

  ImportResult big = Read(std::string(kMaxImportChars + 1, ' '));
  CheckRefusals(big);
  CHECK(big.refusals[0].message == "config: expected at most 65,536 characters, got 65,537");
}

TEST_CASE("config: a config written for many generated policies reads back to them") {
  Prng prng(2026);
  for (int i = 0; i < 300; ++i) {
    // BullMQ: attempts, a fixed or exponential delay, a jitter in thousandths.
    const uint32_t attempts = 1 + prng.Below(50);
    const uint32_t delay = 1 + prng.Below(100000);
    const uint32_t permille = prng.Below(1001);
    const bool fixed = prng.Below(2) == 0;
    std::string text = "{ attempts: " + std::to_string(attempts) + ", backoff: { type: '" +
                       (fixed ? "fixed" : "exponential") + "', delay: " + std::to_string(delay) +
                       ", jitter: " + JsNumberText(permille / 1000.0) + " }, }";
    ImportResult bull = Read(text);
    REQUIRE_MESSAGE(bull.ok, text);
    auto f = Fields(bull);
    CHECK(f.at("maxAttempts") == std::to_string(attempts));
    CHECK(f.at("backoff.kind") == (fixed ? "fixed" : "exponential"));
    CHECK(f.at("backoff.baseMs") == std::to_string(delay));
    CHECK(f.at("backoff.jitter") == (permille == 0 ? "none" : "bullmq"));
    if (permille > 0) CHECK(f.at("backoff.jitterPermille") == std::to_string(permille));

    // SQS: maxReceiveCount, the visibility timeout and the retention, as the CLI prints them.
    const uint32_t receives = 1 + prng.Below(1000);
    const uint32_t visibility = prng.Below(43201);
    const uint32_t retention = 60 + prng.Below(1209541);
    ImportResult sqs = Read(
        "{\"Attributes\":{\"RedrivePolicy\":\"{\\\"deadLetterTargetArn\\\":\\\"arn:q\\\",\\\"maxReceiveCount\\\":" +
        std::to_string(receives) + "}\",\"VisibilityTimeout\":\"" + std::to_string(visibility) +
        "\",\"MessageRetentionPeriod\":\"" + std::to_string(retention) + "\"}}");
    REQUIRE(sqs.ok);
    auto g = Fields(sqs);
    CHECK(g.at("maxAttempts") == std::to_string(receives));
    CHECK(g.at("leaseMs") == JsNumberText(visibility * 1000.0));
    CHECK(g.at("quarantine.retentionMs") == JsNumberText(retention * 1000.0));

    // Sidekiq: retry N is N + 1 runs.
    const uint32_t retries = prng.Below(100);
    ImportResult kiq = Read("sidekiq_options retry: " + std::to_string(retries));
    REQUIRE(kiq.ok);
    CHECK(Fields(kiq).at("maxAttempts") == std::to_string(retries + 1));

    // RabbitMQ: delivery-limit L is L + 1 deliveries; max-length and message-ttl as given.
    const uint32_t limit = prng.Below(200);
    const uint32_t length = 1 + prng.Below(10000);
    const uint32_t ttl = 1 + prng.Below(1000000);
    ImportResult rabbit = Read("{\"delivery-limit\":" + std::to_string(limit) +
                               ",\"dead-letter-exchange\":\"dlx\",\"max-length\":" + std::to_string(length) +
                               ",\"overflow\":\"drop-head\",\"message-ttl\":" + std::to_string(ttl) + "}");
    REQUIRE(rabbit.ok);
    auto h = Fields(rabbit);
    CHECK(h.at("maxAttempts") == std::to_string(limit + 1));
    CHECK(h.at("maxLength") == std::to_string(length));
    CHECK(h.at("messageTtlMs") == std::to_string(ttl));
  }
}

// The policy definition a RabbitMQ snippet sets on the source queue (its orders-retry set_policy's JSON).
static std::string RabbitDefinition(const std::string& snippet) {
  const std::string head = "set_policy --apply-to queues orders-retry '^orders$' '";
  size_t start = snippet.find(head);
  REQUIRE(start != std::string::npos);
  start += head.size();
  return snippet.substr(start, snippet.find('\'', start) - start);
}

TEST_CASE("config: a RabbitMQ snippet the core writes reads back to its policy") {
  Prng prng(32);
  for (int i = 0; i < 300; ++i) {
    // What the rabbitmq-quorum mode's policy definition says: the limit, the DLX, max-length, message-ttl.
    PolicyFacts n;
    n.system = "rabbitmq-quorum";
    n.max_attempts = 1 + prng.Below(200);
    n.lease_ms = 1 + prng.Below(100000);
    n.dead_letter_exchange = prng.Below(3) == 0 ? "none" : "set";
    n.max_length = prng.Below(2) == 0 ? 0 : 1 + prng.Below(10000);
    n.message_ttl_ms = prng.Below(2) == 0 ? 0 : 1 + prng.Below(1000000);
    n.retention_ms = prng.Below(2) == 0 ? 0 : 1 + prng.Below(1000000);
    // RabbitMQ 4.3's delayed retry (delayed-retry-type / -min / -max), a third of the time.
    static const char* const kTypes[] = {"all", "failed", "returned"};
    if (prng.Below(3) == 0) {
      n.delayed_retry_type = kTypes[prng.Below(3)];
      n.delayed_retry_min_ms = 1 + prng.Below(10000);
      n.delayed_retry_max_ms = n.delayed_retry_min_ms + prng.Below(100000);
    }
    n.rules.push_back({"transient", "bounded", n.max_attempts, {}, false, false});
    Result<Snippet> s = WriteSnippet("rabbitmq", n);
    REQUIRE(s.ok());
    CHECK(s.value().language == "shell");
    const std::string definition = RabbitDefinition(s.value().text);
    ImportResult back = Read(definition);
    REQUIRE_MESSAGE(back.ok, definition);
    CHECK(back.system == "rabbitmq-quorum");
    auto f = Fields(back);
    CHECK(f.at("maxAttempts") == JsNumberText(n.max_attempts));
    CHECK(f.at("deliveryLimit") == "explicit");
    CHECK(f.at("deadLetterExchange") == n.dead_letter_exchange);
    CHECK(f.at("backoff.kind") == "none");
    if (n.max_length > 0) CHECK(f.at("maxLength") == JsNumberText(n.max_length));
    else CHECK(f.count("maxLength") == 0);
    if (n.message_ttl_ms > 0) CHECK(f.at("messageTtlMs") == JsNumberText(n.message_ttl_ms));
    else CHECK(f.count("messageTtlMs") == 0);
    if (n.delayed_retry_type != "disabled") {
      CHECK(s.value().text.find("(4.3 or later)") != std::string::npos);
      CHECK(f.at("delayedRetryType") == n.delayed_retry_type);
      CHECK(f.at("delayedRetryMinMs") == JsNumberText(n.delayed_retry_min_ms));
      CHECK(f.at("delayedRetryMaxMs") == JsNumberText(n.delayed_retry_max_ms));
    } else {
      CHECK(f.count("delayedRetryType") == 0);
    }
  }
}

TEST_CASE("config: RabbitMQ 4.3's delayed-retry keys: read by name, refused by name, 4.3's default limit when absent") {
  ImportResult r = Read(
      "{\"delayed-retry-type\":\"failed\",\"delayed-retry-min\":500,\"delayed-retry-max\":8000,"
      "\"dead-letter-exchange\":\"dlx\"}");
  REQUIRE(r.ok);
  auto f = Fields(r);
  CHECK(f.at("delayedRetryType") == "failed");
  CHECK(f.at("delayedRetryMinMs") == "500");
  CHECK(f.at("delayedRetryMaxMs") == "8000");
  CHECK(f.at("deliveryLimit") == "unset-4.x");  // a 4.3 queue: delivery-limit absent is 20
  ImportResult bad = Read("{\"delayed-retry-type\":\"sometimes\",\"delayed-retry-min\":-1}");
  CHECK_FALSE(bad.ok);
  REQUIRE(bad.refusals.size() == 2);
  CHECK(bad.refusals[0].key == "delayed-retry-type");
  CHECK(bad.refusals[0].expected == "\"disabled\", \"all\", \"failed\" or \"returned\"");
  CHECK(bad.refusals[0].given == "\"sometimes\"");
  CHECK(bad.refusals[1].key == "delayed-retry-min");
  CHECK(bad.refusals[1].given == "-1");
}

// rabbitmq.com/docs/quorum-queues, "Explicit Delivery Time": "The `x-opt-delivery-time` annotation can be set on
// message properties ... only available when using the AMQP `modify` outcome": the consumer's, not a queue argument.
TEST_CASE(
    "config: RabbitMQ 4.3's x-opt-delivery-time: the snippet says the consumer sets it, the import says it reads "
    "broker") {
  PolicyFacts n;
  n.system = "rabbitmq-quorum";
  n.max_attempts = 6;
  n.lease_ms = 30000;
  n.backoff = {"exponential", 500, 8000, "full"};
  n.delayed_retry_type = "failed";
  n.delayed_retry_min_ms = 1000;
  n.delayed_retry_max_ms = 3500;
  n.delivery_time = "backoff";
  n.rules.push_back({"transient", "bounded", n.max_attempts, {}, false, false});
  Result<Snippet> s = WriteSnippet("rabbitmq", n);
  REQUIRE(s.ok());
  const std::string& text = s.value().text;
  CHECK(text.find("# deliveryTime backoff: the consumer sets the delay, not the queue (RabbitMQ 4.3).") !=
        std::string::npos);
  CHECK(text.find("x-opt-delivery-time = now + the backoff's delay") != std::string::npos);
  CHECK(text.find(": not used; the delay is RabbitMQ 4.3's delayed retry") == std::string::npos);
  // The policy definition carries no trace of it (no queue argument exists); the import says what it reads.
  const std::string definition = RabbitDefinition(text);
  CHECK(definition.find("delivery-time") == std::string::npos);
  ImportResult back = Read(definition);
  REQUIRE(back.ok);
  auto f = Fields(back);
  CHECK(f.at("delayedRetryType") == "failed");
  CHECK(f.at("deliveryTime") == "broker");
  bool said = false;
  for (const SetField& set : back.set) {
    if (set.field == "deliveryTime") said = set.from.find("set per message by the consumer") != std::string::npos;
  }
  CHECK(said);
  // deliveryTime broker (the default) writes no such lines; every 4.3 definition (a delayed retry) says it; an older
  // one sets nothing (the import baseline's answers stay).
  n.delivery_time = "broker";
  CHECK(WriteSnippet("rabbitmq", n).value().text.find("x-opt-delivery-time =") == std::string::npos);
  CHECK(Fields(Read("{\"delayed-retry-type\":\"returned\",\"delayed-retry-min\":1,\"delayed-retry-max\":2}"))
            .at("deliveryTime") == "broker");
  CHECK(Fields(Read("{\"delivery-limit\":5}")).count("deliveryTime") == 0);
}

TEST_CASE("config: the core writes every system's snippet, and refuses a key it has no writer for") {
  for (const char* key : {"sqs", "rabbitmq", "sidekiq", "bullmq", "temporal", "kafka", "pubsub", "servicebus"}) {
    Result<Snippet> s = WriteSnippet(key, PolicyFacts{});
    REQUIRE(s.ok());
    CHECK_FALSE(s.value().text.empty());
    CHECK_FALSE(s.value().language.empty());
  }
  for (const char* key : {"lab", "", "SQS"}) {
    Result<Snippet> s = WriteSnippet(key, PolicyFacts{});
    REQUIRE_FALSE(s.ok());
    CHECK(s.status().code() == Code::kInvalidArgument);
    CHECK(s.status().message() ==
          std::string("writeSnippet: key: expected one of sqs, rabbitmq, sidekiq, bullmq, temporal, kafka, pubsub, "
                      "servicebus, kafka-connect, got ") +
              Quoted(JsValue::String(key)));
  }
}

// The snippet's text as JSON (the SQS template), read by the core's own reader.
static JsValue SnippetJson(const Snippet& s) {
  ObjectTextRead read = ReadObjectText(s.text, "snippet");
  REQUIRE_MESSAGE(read.ok, s.text);
  return read.value;
}

// `v`'s member at the dotted `path` ("Resources.OrdersQueue.Properties"); it must be there.
static const JsValue& At(const JsValue& v, const std::string& path) {
  const JsValue* at = &v;
  for (size_t start = 0; start <= path.size();) {
    size_t dot = path.find('.', start);
    if (dot == std::string::npos) dot = path.size();
    at = at->Find(path.substr(start, dot - start));
    REQUIRE_MESSAGE(at != nullptr, path);
    start = dot + 1;
  }
  return *at;
}

// One rule per failure class, each the policy's own (no class departs from it: what one line of config can say).
static void PlainRules(PolicyFacts& n) {
  for (const char* name : {"transient", "permanent", "undeserializable", "unknown-schema", "precondition", "crash"}) {
    n.rules.push_back({name, "bounded", n.max_attempts, n.backoff, false, false});
  }
}

TEST_CASE("config: an SQS snippet the core writes reads back to its policy") {
  Prng prng(3201);
  for (int i = 0; i < 300; ++i) {
    // What an SQS queue's attributes say: the receive budget, the visibility timeout in whole seconds, the
    // DLQ's retention; a standard queue (the sqs mode's), so no ordering.
    PolicyFacts n;
    n.system = "sqs";
    n.max_attempts = 1 + prng.Below(1000);
    n.lease_ms = 1000.0 * (1 + prng.Below(43200));
    n.retention_ms = prng.Below(3) == 0 ? 0 : 1 + prng.Below(2000000000);
    PlainRules(n);
    Result<Snippet> s = WriteSnippet("sqs", n);
    REQUIRE(s.ok());
    CHECK(s.value().language == "json");
    JsValue json = SnippetJson(s.value());
    // The source queue's properties as get-queue-attributes names them (QueueName is the queue, not an attribute).
    JsValue attributes;
    attributes.kind = JsValue::Kind::kObject;
    for (const auto* m : At(json, "Resources.OrdersQueue.Properties").Entries()) {
      if (m->first != "QueueName") attributes.Set(m->first, m->second);
    }
    const JsValue& dlq_retention = At(json, "Resources.OrdersDLQ.Properties.MessageRetentionPeriod");
    ImportResult back = ReadConfig(JsonText(attributes), &dlq_retention);
    REQUIRE_MESSAGE(back.ok, JsonText(attributes));
    CHECK(back.format == "sqs");
    CHECK(back.system == "sqs");
    auto f = Fields(back);
    CHECK(f.at("maxAttempts") == JsNumberText(n.max_attempts));
    CHECK(f.at("leaseMs") == JsNumberText(n.lease_ms));
    // SQS counts a dead letter's retention from its first enqueue in the source: the lab's retention comes
    // back with the source queue's 4 days before it, within SQS's 14-day cap (a lab's "forever" is the cap).
    const double retention = std::stod(f.at("quarantine.retentionMs"));
    const double day14 = 1209600000, source = 345600000;
    if (n.retention_ms == 0) CHECK(retention == day14);
    else CHECK(retention == std::min(day14, source + std::max(60000.0, std::ceil(n.retention_ms / 1000) * 1000)));
  }
}

TEST_CASE("config: a Sidekiq snippet the core writes reads back to its policy") {
  Prng prng(3202);
  for (int i = 0; i < 300; ++i) {
    // What one sidekiq_options line says: the retry count, and dead: false (skipDeadSet).
    PolicyFacts n;
    n.system = "sidekiq";
    n.max_attempts = 1 + prng.Below(200);
    n.lease_ms = 1 + prng.Below(100000);
    n.skip_dead_set = prng.Below(2) == 0;
    PlainRules(n);
    Result<Snippet> s = WriteSnippet("sidekiq", n);
    REQUIRE(s.ok());
    CHECK(s.value().language == "ruby");
    const std::string& text = s.value().text;
    size_t start = text.find("sidekiq_options retry:");
    REQUIRE(start != std::string::npos);
    const std::string line = text.substr(start, text.find('\n', start) - start);
    ImportResult back = ReadConfig(line, nullptr);
    REQUIRE_MESSAGE(back.ok, line);
    CHECK(back.system == "sidekiq");
    auto f = Fields(back);
    CHECK(f.at("maxAttempts") == JsNumberText(n.max_attempts));
    CHECK(f.at("backoff.kind") == "none");
    if (n.skip_dead_set) CHECK(f.at("skipDeadSet") == "true");
    else CHECK(f.count("skipDeadSet") == 0);
  }
}

TEST_CASE("config: a Sidekiq retry_for snippet reads back to its window, retry beside it is not read (8.1.0)") {
  Prng prng(3210);
  for (int i = 0; i < 300; ++i) {
    PolicyFacts n;
    n.system = "sidekiq";
    n.max_attempts = 1 + prng.Below(200);
    n.lease_ms = 1 + prng.Below(100000);
    // Whole days, hours, minutes, seconds, and ms that are none of them (a Float of seconds).
    const double units[] = {86'400'000, 3'600'000, 60'000, 1000, 1};
    n.retry_for_ms = static_cast<double>(1 + prng.Below(5000)) * units[prng.Below(5)];
    n.skip_dead_set = prng.Below(2) == 0;
    PlainRules(n);
    Result<Snippet> s = WriteSnippet("sidekiq", n);
    REQUIRE(s.ok());
    const std::string& text = s.value().text;
    size_t start = text.find("sidekiq_options retry_for:");
    REQUIRE_MESSAGE(start != std::string::npos, text);
    const std::string line = text.substr(start, text.find('\n', start) - start);
    ImportResult back = ReadConfig(line, nullptr);
    REQUIRE_MESSAGE(back.ok, line);
    auto f = Fields(back);
    CHECK_MESSAGE(f.at("retryForMs") == JsNumberText(n.retry_for_ms), line);
    CHECK(f.count("maxAttempts") == 0);
    if (n.skip_dead_set) CHECK(f.at("skipDeadSet") == "true");
  }
  // What the import reads as retry_for, in ms; and what it refuses by name.
  struct Case {
    const char* line;
    double ms;
  };
  for (const Case& c :
       {Case{"sidekiq_options retry_for: 48.hours", 172'800'000}, Case{"sidekiq_options retry_for: 90", 90'000},
        Case{"sidekiq_options retry_for: 30.minutes", 1'800'000},
        Case{"sidekiq_options retry_for: 2.days", 172'800'000}, Case{"sidekiq_options retry_for: 1.5", 1500},
        Case{"sidekiq_options retry_for: 1.hour", 3'600'000},
        Case{"sidekiq_options retry_for: 1.5.hours, retry: 3", 5'400'000}}) {
    CAPTURE(c.line);
    ImportResult back = ReadConfig(c.line, nullptr);
    REQUIRE(back.ok);
    CHECK(Fields(back).at("retryForMs") == JsNumberText(c.ms));
    CHECK(Fields(back).count("maxAttempts") == 0);
  }
  ImportResult both = ReadConfig("sidekiq_options retry_for: 48.hours, retry: 3", nullptr);
  REQUIRE(both.ignored.size() == 1);
  CHECK(both.ignored[0].key == "retry");
  CHECK(both.ignored[0].why.find("Sidekiq 8.1.0 makes them exclusive") != std::string::npos);
  ImportResult off = ReadConfig("sidekiq_options retry: false, retry_for: 48.hours", nullptr);
  REQUIRE(off.ok);
  CHECK(Fields(off).at("maxAttempts") == "1");
  CHECK(Fields(off).count("retryForMs") == 0);
  for (const char* bad : {"sidekiq_options retry_for: 48.fortnights", "sidekiq_options retry_for: \"48h\"",
                          "sidekiq_options retry_for: 0.0001"}) {
    CAPTURE(bad);
    ImportResult r = ReadConfig(bad, nullptr);
    CHECK_FALSE(r.ok);
    REQUIRE_FALSE(r.refusals.empty());
    CHECK(r.refusals[0].message.find("retry_for: expected seconds or a duration") != std::string::npos);
  }
}

TEST_CASE(
    "config: a Sidekiq snippet writes a sidekiq_retries_exhausted block returning :discard for discardOnExhausted") {
  PolicyFacts n;
  n.system = "sidekiq";
  n.max_attempts = 4;
  n.lease_ms = 1000;
  n.discard_on_exhausted = true;
  PlainRules(n);
  Result<Snippet> s = WriteSnippet("sidekiq", n);
  REQUIRE(s.ok());
  CHECK(s.value().text.find("  sidekiq_retries_exhausted do |msg, exception|\n    :discard\n  end") !=
        std::string::npos);
  n.discard_on_exhausted = false;
  CHECK(WriteSnippet("sidekiq", n).value().text.find("sidekiq_retries_exhausted") == std::string::npos);
}

TEST_CASE("config: a BullMQ snippet the core writes reads back to its policy") {
  Prng prng(3203);
  for (int i = 0; i < 300; ++i) {
    // What BullMQ's job options say: attempts, a built-in backoff (none, fixed, exponential; jitter as a share),
    // removeOnFail as true, a count, or an age in whole seconds.
    PolicyFacts n;
    n.system = "bullmq";
    n.max_attempts = 1 + prng.Below(50);
    n.lease_ms = 1 + prng.Below(100000);
    const uint32_t kind = prng.Below(3);
    n.backoff.kind = kind == 0 ? "none" : kind == 1 ? "fixed" : "exponential";
    n.backoff.base_ms = 1 + prng.Below(100000);
    n.backoff.cap_ms = n.backoff.base_ms * (1 + prng.Below(100));
    n.backoff.jitter_permille = prng.Below(2) == 0 ? 0 : 1 + prng.Below(1000);
    n.backoff.jitter = n.backoff.jitter_permille > 0 ? "bullmq" : "none";
    const uint32_t keep = prng.Below(4);
    n.remove_on_fail = keep == 0;
    n.remove_on_fail_count = keep == 1 ? 1 + prng.Below(100) : 0;
    n.retention_ms = keep == 2 ? 1000.0 * (1 + prng.Below(1000000)) : 0;
    PlainRules(n);
    Result<Snippet> s = WriteSnippet("bullmq", n);
    REQUIRE(s.ok());
    CHECK(s.value().language == "javascript");
    const std::string& text = s.value().text;
    const std::string head = "const jobOptions = ";
    size_t start = text.find(head);
    REQUIRE(start != std::string::npos);
    start += head.size();
    const std::string options =
        text.substr(start, text.find("\n};", start) + 2 - start);  // a JavaScript object literal
    ImportResult back = ReadConfig(options, nullptr);
    REQUIRE_MESSAGE(back.ok, options);
    CHECK(back.system == "bullmq");
    auto f = Fields(back);
    CHECK(f.at("maxAttempts") == JsNumberText(n.max_attempts));
    CHECK(f.at("backoff.kind") == n.backoff.kind);
    if (n.backoff.kind != "none") {
      CHECK(f.at("backoff.baseMs") == JsNumberText(n.backoff.base_ms));
      CHECK(f.at("backoff.jitter") == n.backoff.jitter);
      if (n.backoff.jitter == "bullmq")
        CHECK(f.at("backoff.jitterPermille") == JsNumberText(n.backoff.jitter_permille));
    }
    if (n.remove_on_fail) CHECK(f.at("removeOnFail") == "true");
    if (n.remove_on_fail_count > 0) CHECK(f.at("removeOnFailCount") == JsNumberText(n.remove_on_fail_count));
    if (n.retention_ms > 0) CHECK(f.at("quarantine.retentionMs") == JsNumberText(n.retention_ms));
  }
}

TEST_CASE("config: a Pub/Sub snippet the core writes reads back to its policy (gcloud commands)") {
  Prng prng(34);
  for (int i = 0; i < 300; ++i) {
    PolicyFacts n;
    n.system = "pubsub";
    n.max_attempts = 5 + prng.Below(96);
    n.lease_ms = (10 + prng.Below(591)) * 1000.0;
    n.dead_letter_topic = prng.Below(3) == 0 ? "none" : "set";
    n.message_retention_ms = (600 + prng.Below(31 * 86400 - 600 + 1)) * 1000.0;
    n.retention_ms = prng.Below(2) == 0 ? 0 : (600 + prng.Below(604800 - 600 + 1)) * 1000.0;
    if (prng.Below(2) == 0) {
      n.backoff.kind = "exponential";
      n.backoff.base_ms = (1 + prng.Below(600)) * 1000.0;
      n.backoff.cap_ms = n.backoff.base_ms + prng.Below(601 - static_cast<uint32_t>(n.backoff.base_ms / 1000)) * 1000.0;
    }
    n.ordering = prng.Below(4) == 0 ? "key" : "none";
    n.rules.push_back({"transient", "bounded", n.max_attempts, {}, false, false});
    Result<Snippet> s = WriteSnippet("pubsub", n);
    REQUIRE(s.ok());
    ImportResult r = ReadConfig(s.value().text, nullptr);
    INFO(s.value().text);
    REQUIRE(r.ok);
    CHECK(r.format == "pubsub");
    CHECK(r.system == "pubsub");
    std::map<std::string, std::string> f;
    for (const SetField& set : r.set)
      f[set.field] = set.value.kind == ConfigValue::Kind::kNumber ? JsNumberText(set.value.number) : set.value.text;
    CHECK(f.at("deadLetterTopic") == n.dead_letter_topic);
    if (n.dead_letter_topic == "set") CHECK(f.at("maxAttempts") == JsNumberText(n.max_attempts));
    else CHECK(f.count("maxAttempts") == 0);
    CHECK(f.at("leaseMs") == JsNumberText(n.lease_ms));
    CHECK(f.at("messageRetentionMs") == JsNumberText(n.message_retention_ms));
    CHECK(f.at("backoff.kind") == n.backoff.kind);
    if (n.backoff.kind == "exponential") {
      CHECK(f.at("backoff.baseMs") == JsNumberText(n.backoff.base_ms));
      CHECK(f.at("backoff.capMs") == JsNumberText(n.backoff.cap_ms));
    }
    CHECK(f.at("ordering") == n.ordering);
    if (n.dead_letter_topic == "set") CHECK(f.at("quarantine.retentionMs") == JsNumberText(n.retention_ms));
  }
}

TEST_CASE("config: gcloud pubsub commands: 0 means 5, defaults when absent, refusals by flag name") {
  ImportResult r = ReadConfig(
      "gcloud pubsub subscriptions create s --topic=t --dead-letter-topic=d --max-delivery-attempts=0", nullptr);
  REQUIRE(r.ok);
  std::map<std::string, std::string> f;
  for (const SetField& set : r.set)
    f[set.field] = set.value.kind == ConfigValue::Kind::kNumber ? JsNumberText(set.value.number) : set.value.text;
  CHECK(f.at("maxAttempts") == "5");
  CHECK(f.at("leaseMs") == "10000");                 // gcloud's default ack deadline
  CHECK(f.at("messageRetentionMs") == "604800000");  // 7 days
  CHECK(f.at("backoff.kind") == "none");             // no retry policy: immediate redelivery
  ImportResult bad = ReadConfig(
      "gcloud pubsub subscriptions create s --topic=t --dead-letter-topic=d "
      "--max-delivery-attempts=3 --ack-deadline=700 --push-endpoint=https://x",
      nullptr);
  CHECK_FALSE(bad.ok);
  REQUIRE(bad.refusals.size() == 3);
  CHECK(bad.refusals[0].key == "--push-endpoint");
  CHECK(bad.refusals[1].key == "--max-delivery-attempts");
  CHECK(bad.refusals[1].given == "3");
  CHECK(bad.refusals[2].key == "--ack-deadline");
  CHECK(bad.refusals[2].expected == "an integer from 10 to 600");
}

TEST_CASE("config: a Service Bus snippet the core writes reads back to its policy") {
  Prng prng(3401);
  for (int i = 0; i < 300; ++i) {
    // What a queue's properties say: the delivery count, the lock in whole seconds up to 5 minutes,
    // sessions for ordering by key; the service-bus mode has no backoff.
    PolicyFacts n;
    n.system = "service-bus";
    n.max_attempts = 1 + prng.Below(1000);
    n.lease_ms = 1000.0 * (1 + prng.Below(300));
    n.ordering = prng.Below(2) == 0 ? "none" : "key";
    // defaultMessageTimeToLive (none, or whole ms up to 14 days) and dead-lettering on expiry.
    n.default_message_ttl_ms = prng.Below(3) == 0 ? 0 : static_cast<double>(1 + prng.Below(1'209'600'000));
    n.dead_letter_on_expiry = prng.Below(2) == 0;
    PlainRules(n);
    Result<Snippet> s = WriteSnippet("servicebus", n);
    REQUIRE(s.ok());
    CHECK(s.value().language == "json");
    ImportResult back = Read(s.value().text);
    REQUIRE_MESSAGE(back.ok, s.value().text);
    CHECK(back.format == "servicebus");
    CHECK(back.system == "service-bus");
    auto f = Fields(back);
    CHECK(f.at("maxAttempts") == JsNumberText(n.max_attempts));
    CHECK(f.at("leaseMs") == JsNumberText(n.lease_ms));
    CHECK(f.at("backoff.kind") == "none");
    if (n.ordering == "key") CHECK(f.at("ordering") == "key");
    else CHECK(f.count("ordering") == 0);
    if (n.default_message_ttl_ms > 0) {
      CHECK(f.at("defaultMessageTtlMs") == JsNumberText(n.default_message_ttl_ms));
      CHECK(f.at("deadLetterOnExpiry") == (n.dead_letter_on_expiry ? "true" : "false"));
    } else {
      // None: Service Bus's default, written as nothing; the flag then decides nothing (a note says so).
      CHECK(f.count("defaultMessageTtlMs") == 0);
      CHECK(f.count("deadLetterOnExpiry") == 0);
    }
  }
}

TEST_CASE("config: Service Bus properties: defaults when absent, ISO 8601 durations, refusals by name") {
  const std::string queue = R"({"type": "Microsoft.ServiceBus/namespaces/queues", "name": "ns/orders", "properties": )";
  ImportResult r = Read(queue + "{}}");
  REQUIRE(r.ok);
  CHECK(Fields(r).at("maxAttempts") == "10");  // "default value is 10"
  CHECK(Fields(r).at("leaseMs") == "60000");   // "The default value for the lock duration is 1 minute"
  r = Read(
      queue +
      R"({"maxDeliveryCount": 3, "lockDuration": "PT1M30.5S", "defaultMessageTimeToLive": "P10675199DT2H48M5.4775807S", "deadLetteringOnMessageExpiration": false, "maxSizeInMegabytes": 1024}})");
  REQUIRE(r.ok);
  CHECK(Fields(r).at("leaseMs") == "90500");
  CHECK(r.ignored.size() == 3);
  r = Read(queue + R"({"lockDuration": "PT6M"}})");
  CheckRefusals(r);
  REQUIRE(r.refusals.size() == 1);
  CHECK(r.refusals[0].key == "lockDuration");
  CHECK(r.refusals[0].given == "\"PT6M\"");
  r = Read(queue +
           R"({"maxDeliveryCount": 0, "defaultMessageTimeToLive": "PT0.0005S", "forwardTo": "other", "sessions": 1}})");
  CheckRefusals(r);
  std::vector<std::string> keys;
  for (const ConfigRefusal& x : r.refusals) keys.push_back(x.key);
  CHECK(keys == std::vector<std::string>{"forwardTo", "sessions", "maxDeliveryCount", "defaultMessageTimeToLive"});
  // A finite time-to-live is defaultMessageTtlMs ("enqueued-time-utc + time-to-live"), and
  // deadLetteringOnMessageExpiration says whether an expired message is dead-lettered or dropped.
  r = Read(queue + R"({"defaultMessageTimeToLive": "P14D", "deadLetteringOnMessageExpiration": true}})");
  REQUIRE(r.ok);
  CHECK(Fields(r).at("defaultMessageTtlMs") == "1209600000");
  CHECK(Fields(r).at("deadLetterOnExpiry") == "true");
  r = Read(queue + R"({"defaultMessageTimeToLive": "PT30S", "deadLetteringOnMessageExpiration": false}})");
  REQUIRE(r.ok);
  CHECK(Fields(r).at("defaultMessageTtlMs") == "30000");
  CHECK(Fields(r).at("deadLetterOnExpiry") == "false");
  r = Read(queue + R"({"deadLetteringOnMessageExpiration": "maybe"}})");
  CheckRefusals(r);
  REQUIRE(r.refusals.size() == 1);
  CHECK(r.refusals[0].key == "deadLetteringOnMessageExpiration");
  // A subscription resource in a template reads the same way.
  r = Read(
      R"({"resources": [{"type": "Microsoft.ServiceBus/namespaces/topics/subscriptions", "properties": {"maxDeliveryCount": 5}}]})");
  REQUIRE(r.ok);
  CHECK(Fields(r).at("maxAttempts") == "5");
  CHECK(IsoDurationMs("PT5M") == 300000.0);
  CHECK(IsoDurationMs("P1DT1H") == 90000000.0);
  CHECK_FALSE(IsoDurationMs("PT").has_value());
  CHECK_FALSE(IsoDurationMs("P1M").has_value());  // months have no fixed length: refused
  CHECK_FALSE(IsoDurationMs("PT1S1M").has_value());
  CHECK_FALSE(IsoDurationMs("5m").has_value());
}

}  // namespace config_test
