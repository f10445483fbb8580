// The snippet writers' one entry (config.h, WriteSnippet): the policy in force read from
// its JSON object, and the writer of each system (in its system's <system>_config.cpp, next
// to that system's reader, or its own <system>_snippet.cpp for a format with no reader).
#include <array>
#include <string_view>

#include "config.h"
#include "internal/js_value.h"
#include "internal/quote.h"

namespace dlq::config {

// The writers, in their systems' files.
Snippet RabbitMqSnippet(const PolicyFacts& n);
Snippet SqsSnippet(const PolicyFacts& n);
Snippet SidekiqSnippet(const PolicyFacts& n);
Snippet BullmqSnippet(const PolicyFacts& n);
Snippet TemporalSnippet(const PolicyFacts& n);
Snippet KafkaSnippet(const PolicyFacts& n);
Snippet PubSubSnippet(const PolicyFacts& n);
Snippet ServiceBusSnippet(const PolicyFacts& n);
Snippet KafkaConnectSnippet(const PolicyFacts& n);

namespace {

double NumberAt(const JsValue& v, std::string_view key, double fallback = 0) {
  const JsValue* x = v.Find(key);
  return x != nullptr && x->IsNumber() ? x->number : fallback;
}
std::string TextAt(const JsValue& v, std::string_view key, std::string fallback) {
  const JsValue* x = v.Find(key);
  return x != nullptr && x->IsString() ? x->text : fallback;
}
bool FlagAt(const JsValue& v, std::string_view key) {
  const JsValue* x = v.Find(key);
  return x != nullptr && x->IsBool(true);
}

BackoffFacts BackoffOf(const JsValue* v) {
  BackoffFacts b;
  if (v == nullptr) return b;
  b.kind = TextAt(*v, "kind", "none");
  b.base_ms = NumberAt(*v, "baseMs");
  b.cap_ms = NumberAt(*v, "capMs");
  b.jitter = TextAt(*v, "jitter", "none");
  b.jitter_permille = NumberAt(*v, "jitterPermille");
  return b;
}

}  // namespace

PolicyFacts PolicyFactsOf(const JsValue& in_force) {
  PolicyFacts n;
  n.system = TextAt(in_force, "system", "lab");
  n.max_attempts = NumberAt(in_force, "maxAttempts", 1);
  n.lease_ms = NumberAt(in_force, "leaseMs");
  n.backoff = BackoffOf(in_force.Find("backoff"));
  n.ordering = TextAt(in_force, "ordering", "none");
  n.delay_at = TextAt(in_force, "delayAt", "broker");
  n.unsafe_quarantine_order = FlagAt(in_force, "unsafeQuarantineOrder");
  if (const JsValue* q = in_force.Find("quarantine")) {
    n.retention_ms = NumberAt(*q, "retentionMs");
    n.alarm_depth = NumberAt(*q, "alarmDepth");
  }
  n.delivery_limit = TextAt(in_force, "deliveryLimit", "explicit");
  n.dead_letter_exchange = TextAt(in_force, "deadLetterExchange", "set");
  n.max_length = NumberAt(in_force, "maxLength");
  n.message_ttl_ms = NumberAt(in_force, "messageTtlMs");
  n.dlq_max_length = NumberAt(in_force, "dlqMaxLength");
  n.delayed_retry_type = TextAt(in_force, "delayedRetryType", "disabled");
  n.delayed_retry_min_ms = NumberAt(in_force, "delayedRetryMinMs");
  n.delayed_retry_max_ms = NumberAt(in_force, "delayedRetryMaxMs");
  if (n.system == "pubsub") {
    n.dead_letter_topic = TextAt(in_force, "deadLetterTopic", "set");
    n.message_retention_ms = NumberAt(in_force, "messageRetentionMs");
  }
  if (n.system == "service-bus") {
    n.default_message_ttl_ms = NumberAt(in_force, "defaultMessageTtlMs");
    n.dead_letter_on_expiry = FlagAt(in_force, "deadLetterOnExpiry");
  }
  n.requeue_with = TextAt(in_force, "requeueWith", "reject");
  n.delivery_time = TextAt(in_force, "deliveryTime", "broker");
  n.retry_in_jitter = FlagAt(in_force, "retryInJitter");
  n.retry_every_error = FlagAt(in_force, "retryEveryError");
  n.skip_dead_set = FlagAt(in_force, "skipDeadSet");
  n.dead_max_jobs = NumberAt(in_force, "deadMaxJobs", 10000);
  n.retry_for_ms = NumberAt(in_force, "retryForMs");
  n.discard_on_exhausted = FlagAt(in_force, "discardOnExhausted");
  n.remove_on_fail = FlagAt(in_force, "removeOnFail");
  n.remove_on_fail_count = NumberAt(in_force, "removeOnFailCount");
  n.max_stalled_count = NumberAt(in_force, "maxStalledCount", 1);
  n.retry_topics = FlagAt(in_force, "retryTopics");
  n.no_recoverer = FlagAt(in_force, "noRecoverer");
  n.multiplier_permille = NumberAt(in_force, "multiplierPermille", 2000);
  n.tolerance_all = FlagAt(in_force, "toleranceAll");
  n.dlq_topic = FlagAt(in_force, "dlqTopic");
  n.context_headers = FlagAt(in_force, "contextHeaders");
  n.retry_timeout_ms = NumberAt(in_force, "retryTimeoutMs");
  if (const JsValue* rules = in_force.Find("rules"); rules != nullptr && rules->IsObject()) {
    for (const auto* member : rules->Entries()) {
      const JsValue& r = member->second;
      n.rules.push_back({member->first, TextAt(r, "retry", "bounded"), NumberAt(r, "maxAttempts"),
                         BackoffOf(r.Find("backoff")), FlagAt(r, "alert"), FlagAt(r, "ownBackoff")});
    }
  }
  return n;
}

namespace {

struct Writer {
  std::string_view key;
  Snippet (*write)(const PolicyFacts&);
};
// Every system's writer, in the lessons' order (web/src/shared/snippets.mjs, SNIPPETS).
constexpr std::array<Writer, 9> kWriters = {{{"sqs", SqsSnippet},
                                             {"rabbitmq", RabbitMqSnippet},
                                             {"sidekiq", SidekiqSnippet},
                                             {"bullmq", BullmqSnippet},
                                             {"temporal", TemporalSnippet},
                                             {"kafka", KafkaSnippet},
                                             {"pubsub", PubSubSnippet},
                                             {"servicebus", ServiceBusSnippet},
                                             {"kafka-connect", KafkaConnectSnippet}}};

}  // namespace

Result<Snippet> WriteSnippet(std::string_view key, const PolicyFacts& facts) {
  std::string keys;
  for (const Writer& w : kWriters) {
    if (w.key == key) return w.write(facts);
    keys += (keys.empty() ? "" : ", ") + std::string(w.key);
  }
  return Status::InvalidArgument("writeSnippet: key: expected one of " + keys + ", got " +
                                 Quoted(JsValue::String(std::string(key))));
}

}  // namespace dlq::config
