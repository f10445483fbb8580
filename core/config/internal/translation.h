// What each system's reader builds: one import's settings, ignored keys and refusals,
// and the refusal sentence every reader uses. Shared by the <system>_config.cpp files.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "config.h"
#include "internal/js_value.h"
#include "internal/quote.h"

namespace dlq::config {

// "<key> [why]: expected <expected>, got <given>" (the key isolated: it can be the reader's own).
ConfigRefusal Refusal(std::string key, std::string expected, std::string given, std::string_view why = "");
// `key` is a setting the lab has no counterpart for; `given`: the value as the format spells it.
ConfigRefusal NotModelled(std::string key, std::string given, std::string_view detail,
                          std::string expected = "it absent");
// A refusal of the whole text, under `format` ("" for none).
ImportResult Refused(std::string format, ConfigRefusal refusal);

// A whole number as SQS prints it ("30") or as a number; nullopt otherwise.
std::optional<double> WholeOf(const JsValue* value);
// String.prototype.trim.
std::string_view JsTrim(std::string_view s);
// A number as a template literal writes it.
inline std::string Num(double n) { return JsNumberText(n); }
// `key` is one of `set` (a reader's table of the keys it knows).
template <size_t N>
bool IsOneOf(const std::array<std::string_view, N>& set, std::string_view key) {
  for (std::string_view k : set) {
    if (k == key) return true;
  }
  return false;
}

class Translation {
 public:
  Translation(std::string format, std::string system) : format_(std::move(format)), system_(std::move(system)) {}

  // Sets `field` ("backoff.kind") to `value`, naming the broker setting it came from.
  void To(std::string field, ConfigValue value, std::string from) {
    result_.set.push_back({std::move(field), std::move(value), std::move(from)});
  }
  void ToNumber(std::string field, double n, std::string from) {
    To(std::move(field), ConfigValue::Number(n), std::move(from));
  }
  void ToText(std::string field, std::string s, std::string from) {
    To(std::move(field), ConfigValue::Text(std::move(s)), std::move(from));
  }
  void ToFlag(std::string field, bool b, std::string from) {
    To(std::move(field), ConfigValue::Flag(b), std::move(from));
  }
  void Ignore(std::string key, std::string why) { result_.ignored.push_back({std::move(key), std::move(why)}); }
  void Refuse(ConfigRefusal r) { result_.refusals.push_back(std::move(r)); }
  bool HasRefusals() const { return !result_.refusals.empty(); }
  bool Sets(std::string_view field) const;
  // The lab's backoff for a broker that has none: requeue at once.
  void NoBackoff(const std::string& from) {
    ToText("backoff.kind", "none", from);
    ToText("backoff.jitter", "none", from);
  }
  ImportResult Result() &&;

 private:
  std::string format_;
  std::string system_;
  ImportResult result_;
};

// The systems' readers (one file each), for ReadConfig.
ImportResult ReadBullmq(const JsValue& options);
bool IsBullmqKey(std::string_view key);  // a job option or a Worker option
ImportResult ReadSqs(const JsValue& attributes, const JsValue* dlq_retention);
bool IsSqsKey(std::string_view key);
ImportResult ReadSidekiq(std::string_view line);
// gcloud pubsub commands (the pubsub snippet): true when the text is one.
bool IsGcloudPubsub(std::string_view trimmed);
ImportResult ReadPubsub(std::string_view text);
// retry_for's value in ms (seconds, a Float, or N.seconds/minutes/hours/days/weeks), or nullopt.
std::optional<int64_t> RetryForMs(const JsValue& value);
ImportResult ReadRabbitmq(const JsValue& input);
// Spring Kafka Java: a @RetryableTopic listener or a DefaultErrorHandler bean (kafka_config.cpp).
bool IsSpringKafkaText(std::string_view text);
ImportResult ReadSpringKafka(std::string_view text);
bool IsRabbitmqKey(std::string_view key);
// Kafka Connect (kafka_connect_config.cpp): a connector JSON ({"name", "config"}) or its bare config
// map, told by an errors.* or connector.class key; a .properties text with an errors.* key as a map.
bool IsKafkaConnectConfig(const JsValue& json);
std::optional<JsValue> KafkaConnectProperties(std::string_view text);
ImportResult ReadKafkaConnect(const JsValue& json);
// Azure Service Bus (service_bus_config.cpp): an ARM template, a queue or subscription resource,
// or (ReadServiceBusProperties) the properties alone, ARM's camelCase names.
bool IsServiceBusConfig(const JsValue& json);
ImportResult ReadServiceBus(const JsValue& json);
ImportResult ReadServiceBusProperties(const JsValue& properties);
// An ISO 8601 duration as a TimeSpan is written, P[nD][T[nH][nM][n[.f]S]], in ms; nullopt otherwise.
std::optional<double> IsoDurationMs(std::string_view text);

}  // namespace dlq::config
