// Kafka Connect: a sink connector's errors.* settings, both directions. The reader takes the
// connector JSON the REST API takes ({"name": …, "config": {…}}), the bare config map (PUT
// /connectors/<name>/config), or a .properties file (errors.tolerance=all, one key a line),
// into the kafka-connect mode: errors.tolerance, errors.deadletterqueue.topic.name,
// errors.deadletterqueue.context.headers.enable, errors.retry.timeout (-1: forever) and
// errors.retry.delay.max.ms (the backoff's capMs; Connect's backoff is otherwise fixed: 300 ms
// doubled). The checker's connector reader (core/check/readers/kafka_connect.cpp) goes through
// ReadKafkaConnect, so a setting means the same in both. Sources: docs/real-systems.md [C1]-[C4].
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config.h"
#include "internal/js_value.h"
#include "internal/pretty_json.h"
#include "internal/snippet_text.h"
#include "internal/translation.h"

namespace dlq::config {
namespace {

constexpr std::string_view kErrorsPrefix = "errors.";
constexpr const char* kTolerance = "errors.tolerance";
constexpr const char* kDlqTopic = "errors.deadletterqueue.topic.name";
constexpr const char* kContextHeaders = "errors.deadletterqueue.context.headers.enable";
constexpr const char* kRetryTimeout = "errors.retry.timeout";
constexpr const char* kRetryDelayMax = "errors.retry.delay.max.ms";
constexpr double kDefaultRetryDelayMaxMs = 60'000;  // ERRORS_RETRY_MAX_DELAY_DEFAULT
// The lab's "forever": errors.retry.timeout -1 (kRetryTimeoutMsField's top, 2^53 - 1, the end of
// the lab's virtual time). This layer knows field names and values only, so the policy's
// numbers are restated here: capMs's top (kMaxDelayMs, one day), RETRIES_DELAY_MIN_MS, the topic.
constexpr double kForeverMs = 9'007'199'254'740'991.0;
constexpr double kMaxCapMs = 86'400'000;
constexpr double kRetryDelayMinMs = 300;
constexpr const char* kTopic = "orders";

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// A Connect config value: JSON gives strings ("600000", "true"); a number or a boolean is taken too.
std::optional<std::string> TextOf(const JsValue& v) {
  if (v.IsString()) return std::string(JsTrim(v.text));
  if (v.IsNumber()) return JsNumberText(v.number);
  if (v.IsBool(true)) return std::string("true");
  if (v.IsBool(false)) return std::string("false");
  return std::nullopt;
}

std::optional<double> WholeText(const std::string& s) {
  if (s.empty() || s.size() > 20) return std::nullopt;
  size_t i = s[0] == '-' ? 1 : 0;
  if (i == s.size()) return std::nullopt;
  double n = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    n = n * 10 + (s[i] - '0');
  }
  return s[0] == '-' ? -n : n;
}

// The config map of a connector JSON, or the object itself when it is the bare map.
const JsValue* ConfigMapOf(const JsValue& json) {
  const JsValue* config = json.Find("config");
  if (config != nullptr && config->IsObject()) return config;
  return &json;
}

void Setting(Translation& t, const std::string& key, const JsValue& value) {
  if (key == kTolerance || key == kDlqTopic || key == kContextHeaders || key == kRetryTimeout || key == kRetryDelayMax)
    return;
  if (StartsWith(key, "dlq-lab.")) {
    t.Ignore(key, "the lab's own note");
  } else if (key == "errors.log.enable" || key == "errors.log.include.messages") {
    t.Ignore(key, "logging only: the lab keeps no log");
  } else if (key == "errors.deadletterqueue.topic.replication.factor") {
    t.Ignore(key, "the DLQ topic's replication: no bearing on which records reach it");
  } else if (StartsWith(key, kErrorsPrefix)) {
    t.Refuse(NotModelled(key, Quoted(value), "an errors.* setting Kafka Connect does not document"));
  } else {
    t.Ignore(key, "no bearing on error handling");
  }
}

}  // namespace

bool IsKafkaConnectConfig(const JsValue& json) {
  if (!json.IsObject()) return false;
  const JsValue* map = ConfigMapOf(json);
  for (const auto* m : map->Entries()) {
    if (StartsWith(m->first, kErrorsPrefix) || m->first == "connector.class") return true;
  }
  return false;
}

std::optional<JsValue> KafkaConnectProperties(std::string_view text) {
  JsValue map;
  map.kind = JsValue::Kind::kObject;
  bool errors = false;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = JsTrim(text.substr(start, end - start));
    start = end + 1;
    if (line.empty() || line[0] == '#' || line[0] == '!') continue;
    const size_t eq = line.find('=');
    if (eq == std::string_view::npos || eq == 0) return std::nullopt;  // not key=value: not a .properties file
    const std::string key(JsTrim(line.substr(0, eq)));
    for (char c : key) {
      const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                      c == '_' || c == '-';
      if (!ok) return std::nullopt;
    }
    errors = errors || StartsWith(key, kErrorsPrefix);
    map.members.push_back({key, JsValue::String(std::string(JsTrim(line.substr(eq + 1))))});
  }
  if (!errors) return std::nullopt;
  return map;
}

ImportResult ReadKafkaConnect(const JsValue& json) {
  Translation t("kafka-connect", "kafka-connect");
  for (const auto* m : json.Entries()) {
    if (m->first == "name") t.Ignore("name", "the connector's name: the lab has one");
    else if (m->first != "config" || !m->second.IsObject()) Setting(t, m->first, m->second);
  }
  const JsValue* map = ConfigMapOf(json);
  if (map != &json) {
    for (const auto* m : map->Entries()) Setting(t, m->first, m->second);
  }
  const JsValue* tolerance = map->Find(kTolerance);
  const std::optional<std::string> tol = tolerance != nullptr ? TextOf(*tolerance) : std::string("none");
  if (!tol || (*tol != "none" && *tol != "all")) {
    t.Refuse(Refusal(kTolerance, "\"none\" or \"all\"", Quoted(*tolerance)));
  } else {
    t.ToFlag("toleranceAll", *tol == "all",
             tolerance != nullptr ? std::string(kTolerance) + "=" + *tol
                                  : std::string(kTolerance) + " absent (Connect's default none)");
  }
  const JsValue* topic = map->Find(kDlqTopic);
  const std::optional<std::string> name = topic != nullptr ? TextOf(*topic) : std::string();
  if (!name) {
    t.Refuse(Refusal(kDlqTopic, "a topic name (a string)", Quoted(*topic)));
  } else {
    t.ToFlag("dlqTopic", !name->empty(),
             name->empty() ? std::string(kDlqTopic) + " blank (no DLQ)" : std::string(kDlqTopic) + "=" + *name);
  }
  const JsValue* headers = map->Find(kContextHeaders);
  const std::optional<std::string> enable = headers != nullptr ? TextOf(*headers) : std::string("false");
  if (!enable || (*enable != "true" && *enable != "false")) {
    t.Refuse(Refusal(kContextHeaders, "true or false", Quoted(*headers)));
  } else {
    t.ToFlag("contextHeaders", *enable == "true", std::string(kContextHeaders) + "=" + *enable);
  }
  const JsValue* timeout = map->Find(kRetryTimeout);
  const std::optional<std::string> tt = timeout != nullptr ? TextOf(*timeout) : std::string("0");
  const std::optional<double> ms = tt ? WholeText(*tt) : std::nullopt;
  if (!ms || *ms < -1 || *ms >= kForeverMs) {
    t.Refuse(Refusal(kRetryTimeout, "a whole number of ms from -1 (forever) to " + JsNumberText(kForeverMs - 1),
                     Quoted(*timeout)));
  } else {
    t.ToNumber("retryTimeoutMs", *ms == -1 ? kForeverMs : *ms,
               timeout != nullptr ? std::string(kRetryTimeout) + "=" + *tt + (*ms == -1 ? " (forever)" : "")
                                  : std::string(kRetryTimeout) + " absent (Connect's default 0: no retry)");
  }
  const JsValue* delay = map->Find(kRetryDelayMax);
  const std::optional<std::string> dt = delay != nullptr ? TextOf(*delay) : JsNumberText(kDefaultRetryDelayMaxMs);
  const std::optional<double> max = dt ? WholeText(*dt) : std::nullopt;
  if (!max || *max < 1 || *max > kMaxCapMs) {
    t.Refuse(Refusal(kRetryDelayMax, "a whole number of ms from 1 to " + JsNumberText(kMaxCapMs), Quoted(*delay)));
  } else {
    const std::string from = "Connect's retry backoff: 300 ms doubled per retry, a draw below the max past it";
    t.ToText("backoff.kind", "exponential", from);
    t.ToNumber("backoff.baseMs", kRetryDelayMinMs, "RETRIES_DELAY_MIN_MS, 300 ms (fixed)");
    t.ToNumber("backoff.capMs", *max,
               delay != nullptr ? std::string(kRetryDelayMax) + "=" + *dt
                                : std::string(kRetryDelayMax) + " absent (Connect's default 60000)");
    t.ToText("backoff.jitter", "none", "Connect draws its own jitter past the max (no lab jitter)");
  }
  return std::move(t).Result();
}

// ---- the snippet: the policy in force as a sink connector's JSON ----

Snippet KafkaConnectSnippet(const PolicyFacts& n) {
  std::vector<std::string> notes;
  if (n.system != "kafka-connect") {
    notes.push_back("system " + n.system + ": these are Kafka Connect's own settings; maxAttempts " +
                    JsNumberText(n.max_attempts) + " has no counterpart (Connect retries for a time, not a count)");
  }
  notes.push_back(
      "only RetriableException retries; converters' and transformations' other exceptions go to errors.tolerance at "
      "once");
  if (!n.tolerance_all) notes.push_back("errors.tolerance none: the first record failing for good fails the task");
  if (n.tolerance_all && !n.dlq_topic) notes.push_back("no DLQ topic: a tolerated record is skipped, logged at most");
  const ClassShape shape = ShapeOf(n);
  for (const RuleFacts* r : shape.own)
    notes.push_back(RuleText(*r) +
                    ": no per-class budget; every RetriableException gets the same errors.retry.timeout");
  if (!shape.alerts.empty()) notes.push_back("alert on " + Joined(shape.alerts) + ": no equivalent");
  if (n.ordering != "stall") {
    notes.push_back("ordering " + n.ordering +
                    ": no equivalent; a sink task retries in its own thread, so its partitions wait (ordering stall)");
  }
  CommonNotes(n, notes);
  const bool forever = n.retry_timeout_ms >= kForeverMs;
  JsValue config =
      JsObject({{"topics", JsValue::String(kTopic)}, {kTolerance, JsValue::String(n.tolerance_all ? "all" : "none")}});
  if (n.dlq_topic) config.members.push_back({kDlqTopic, JsValue::String(std::string(kTopic) + "-dlq")});
  config.members.push_back({kContextHeaders, JsValue::String(n.context_headers ? "true" : "false")});
  config.members.push_back({kRetryTimeout, JsValue::String(forever ? "-1" : JsNumberText(n.retry_timeout_ms))});
  const double cap = n.system == "kafka-connect" && n.backoff.cap_ms > 0 ? n.backoff.cap_ms : kDefaultRetryDelayMaxMs;
  config.members.push_back({kRetryDelayMax, JsValue::String(JsNumberText(cap))});
  config.members.push_back({"dlq-lab.policy", JsValue::String(PolicyText(n))});
  config.members.push_back({"dlq-lab.notes", JsValue::String(Joined(notes, "; "))});
  JsValue connector = JsObject({{"name", JsValue::String(std::string(kTopic) + "-sink")}, {"config", config}});
  return {"json", PrettyJson(connector) + "\n"};
}

}  // namespace dlq::config
