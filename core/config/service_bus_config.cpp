// Azure Service Bus: a queue's (or topic subscription's) properties, both directions.
// The reader takes an ARM template as the snippet writes it ({"resources": [{"type":
// "Microsoft.ServiceBus/namespaces/queues", "properties": {…}}]}) or one such resource (a
// topic subscription's too), and (ReadServiceBusProperties) the properties alone:
// maxDeliveryCount, lockDuration (ISO 8601), requiresSession, defaultMessageTimeToLive,
// deadLetteringOnMessageExpiration. Into the service-bus mode (defaultMessageTtlMs, deadLetterOnExpiry). The checker's
// Terraform reader (core/check/readers/service_bus_plan.cpp) hands azurerm_servicebus_queue and _subscription to
// ReadServiceBusProperties under these names, so a setting means the same in both.
#include <array>
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

// Service Bus's defaults and limits (docs/real-systems.md, Azure Service Bus [Z2], [Z6]).
constexpr double kDefaultMaxDeliveryCount = 10;
constexpr double kDefaultLockMs = 60'000;  // "The default value for the lock duration is 1 minute"
constexpr double kMaxLockMs = 300'000;     // "The maximum value is 5 minutes"
// Service Bus's default time-to-live, TimeSpan.MaxValue (P10675199DT2H48M5.4775807S), in whole
// ms: "Default value is MaxValue", i.e. no expiry. A time-to-live this long or longer is none.
constexpr double kNoExpiryMs = 922'337'203'685'477.0;
constexpr const char* kQueueType = "Microsoft.ServiceBus/namespaces/queues";
constexpr const char* kSubscriptionType = "Microsoft.ServiceBus/namespaces/topics/subscriptions";

constexpr std::array<std::string_view, 5> kServiceBusSettings = {"maxDeliveryCount", "lockDuration", "requiresSession",
                                                                 "defaultMessageTimeToLive",
                                                                 "deadLetteringOnMessageExpiration"};
// Properties with no bearing on retries or the dead-letter queue.
constexpr std::array<std::string_view, 11> kServiceBusNoBearing = {"maxSizeInMegabytes",
                                                                   "maxMessageSizeInKilobytes",
                                                                   "enablePartitioning",
                                                                   "enableBatchedOperations",
                                                                   "requiresDuplicateDetection",
                                                                   "duplicateDetectionHistoryTimeWindow",
                                                                   "autoDeleteOnIdle",
                                                                   "status",
                                                                   "enableExpress",
                                                                   "deadLetteringOnFilterEvaluationExceptions",
                                                                   "clientAffineProperties"};
// Properties that move messages elsewhere: the lab has one queue and its quarantine.
constexpr std::array<std::string_view, 2> kForwarding = {"forwardTo", "forwardDeadLetteredMessagesTo"};

bool Digit(char c) { return c >= '0' && c <= '9'; }

void Property(Translation& t, const std::string& key, const JsValue& value) {
  if (IsOneOf(kServiceBusNoBearing, key)) {
    t.Ignore(key, "no bearing on retries or the dead-letter queue");
  } else if (IsOneOf(kForwarding, key)) {
    if (value.IsString() && JsTrim(value.text).empty()) t.Ignore(key, "empty: nothing is forwarded");
    else
      t.Refuse(
          NotModelled(key, Quoted(value), "forwarding to another entity; the lab has one queue and its quarantine"));
  } else if (!IsOneOf(kServiceBusSettings, key)) {
    t.Refuse(Refusal(key, "a Service Bus queue property (maxDeliveryCount, lockDuration, requiresSession, …)",
                     Quoted(value), "is unknown"));
  }
}

void MaxDeliveryCount(Translation& t, const JsValue* given) {
  if (given == nullptr) {
    t.ToNumber("maxAttempts", kDefaultMaxDeliveryCount, "maxDeliveryCount absent (Service Bus's default 10)");
    return;
  }
  std::optional<double> n = WholeOf(given);
  if (!n || *n < 1 || *n > 1'000'000) {
    t.Refuse(Refusal("maxDeliveryCount", "a whole number from 1 to 1000000", Quoted(*given)));
    return;
  }
  t.ToNumber("maxAttempts", *n, "maxDeliveryCount " + Num(*n) + " (abandons and expired locks both count)");
}

void LockDuration(Translation& t, const JsValue* given) {
  if (given == nullptr) {
    t.ToNumber("leaseMs", kDefaultLockMs, "lockDuration absent (Service Bus's default 1 minute)");
    return;
  }
  std::optional<double> ms = given->IsString() ? IsoDurationMs(given->text) : std::nullopt;
  if (!ms || *ms < 1 || *ms > kMaxLockMs || *ms != std::floor(*ms)) {
    t.Refuse(Refusal("lockDuration", "an ISO 8601 duration of whole milliseconds up to 5 minutes (\"PT30S\", \"PT5M\")",
                     Quoted(*given)));
    return;
  }
  t.ToNumber("leaseMs", *ms, "lockDuration " + given->text);
}

void RequiresSession(Translation& t, const JsValue* given) {
  if (given == nullptr || given->IsBool(false) || given->IsStringEq("false")) {
    if (given != nullptr) t.Ignore("requiresSession", "false: no sessions, no ordering (the lab's ordering none)");
    return;
  }
  if (given->IsBool(true) || given->IsStringEq("true")) {
    t.ToText("ordering", "key",
             "requiresSession true (one session per key: a session is held while its message is locked)");
    return;
  }
  t.Refuse(Refusal("requiresSession", "true or false", Quoted(*given)));
}

// defaultMessageTimeToLive: Service Bus's default is TimeSpan.MaxValue, i.e. no expiry (left
// at the lab's 0, as absent); a finite one in whole ms is defaultMessageTtlMs.
// deadLetteringOnMessageExpiration true is deadLetterOnExpiry (an expired message goes to the
// dead-letter queue as TTLExpiredException), false its default ("expired messages are
// dropped"); with no finite time-to-live it decides nothing and is only checked.
void TimeToLive(Translation& t, const JsValue* ttl, const JsValue* on_expiry) {
  bool expires = false;
  if (ttl != nullptr) {
    std::optional<double> ms = ttl->IsString() ? IsoDurationMs(ttl->text) : std::nullopt;
    if (!ms || *ms <= 0 || (*ms < kNoExpiryMs && *ms != std::floor(*ms))) {
      t.Refuse(Refusal("defaultMessageTimeToLive", "an ISO 8601 duration of whole milliseconds (\"P14D\", \"PT30S\")",
                       Quoted(*ttl)));
    } else if (*ms < kNoExpiryMs) {
      expires = true;
      t.ToNumber("defaultMessageTtlMs", *ms,
                 "defaultMessageTimeToLive " + ttl->text + " (from each message's enqueue)");
    } else {
      t.Ignore("defaultMessageTimeToLive", ttl->text + ": Service Bus's default, no expiry (as in the lab)");
    }
  }
  if (on_expiry == nullptr) return;
  const bool on = on_expiry->IsBool(true) || on_expiry->IsStringEq("true");
  const bool off = on_expiry->IsBool(false) || on_expiry->IsStringEq("false");
  if ((on || off) && !expires) {
    t.Ignore("deadLetteringOnMessageExpiration", Quoted(*on_expiry) + ": no message expires (no finite time-to-live)");
  } else if (on) {
    t.ToFlag("deadLetterOnExpiry", true,
             "deadLetteringOnMessageExpiration true (an expired message is dead-lettered as "
             "TTLExpiredException)");
  } else if (off) {
    t.ToFlag("deadLetterOnExpiry", false, "deadLetteringOnMessageExpiration false (an expired message is dropped)");
  } else {
    t.Refuse(Refusal("deadLetteringOnMessageExpiration", "true or false", Quoted(*on_expiry)));
  }
}

// The queue's properties in an ARM template, a resource, or alone (nullptr: not that shape).
const JsValue* PropertiesOf(const JsValue& json) {
  if (const JsValue* resources = json.Find("resources");
      resources != nullptr && resources->kind == JsValue::Kind::kArray) {
    for (const JsValue& r : resources->items) {
      const JsValue* type = r.Find("type");
      if (type != nullptr && (type->IsStringEq(kQueueType) || type->IsStringEq(kSubscriptionType))) {
        const JsValue* props = r.Find("properties");
        return props != nullptr && props->IsObject() ? props : nullptr;
      }
    }
    return nullptr;
  }
  const JsValue* type = json.Find("type");
  if (type != nullptr && (type->IsStringEq(kQueueType) || type->IsStringEq(kSubscriptionType))) {
    const JsValue* props = json.Find("properties");
    return props != nullptr && props->IsObject() ? props : nullptr;
  }
  return nullptr;
}

}  // namespace

std::optional<double> IsoDurationMs(std::string_view text) {
  // P[nD][T[nH][nM][n[.f]S]] (a TimeSpan's form; no years, months or weeks: they have no fixed length).
  if (text.size() < 3 || text[0] != 'P') return std::nullopt;
  double total = 0;
  bool in_time = false, any = false;
  size_t i = 1;
  std::string_view order = "D";
  while (i < text.size()) {
    if (text[i] == 'T') {
      if (in_time) return std::nullopt;
      in_time = true;
      order = "HMS";
      ++i;
      continue;
    }
    const size_t start = i;
    while (i < text.size() && Digit(text[i])) ++i;
    if (i == start || i - start > 15) return std::nullopt;
    double whole = 0;
    for (size_t k = start; k < i; ++k) whole = whole * 10 + (text[k] - '0');
    double fraction = 0, scale = 0.1;
    if (i < text.size() && text[i] == '.') {
      ++i;
      const size_t f = i;
      while (i < text.size() && Digit(text[i])) fraction += (text[i++] - '0') * scale, scale /= 10;
      if (i == f) return std::nullopt;
    }
    if (i >= text.size()) return std::nullopt;
    const size_t unit = order.find(text[i]);
    if (unit == std::string_view::npos) return std::nullopt;
    if (fraction != 0 && text[i] != 'S') return std::nullopt;
    const double ms = text[i] == 'D' ? 86'400'000 : text[i] == 'H' ? 3'600'000 : text[i] == 'M' ? 60'000 : 1000;
    total += (whole + fraction) * ms;
    order = order.substr(unit + 1);
    any = true;
    ++i;
  }
  if (!any || (in_time && text.back() == 'T')) return std::nullopt;
  return std::round(total * 1000) / 1000;
}

bool IsServiceBusConfig(const JsValue& json) { return PropertiesOf(json) != nullptr; }

ImportResult ReadServiceBusProperties(const JsValue& properties) {
  Translation t("servicebus", "service-bus");
  for (const auto* m : properties.Entries()) Property(t, m->first, m->second);
  MaxDeliveryCount(t, properties.Find("maxDeliveryCount"));
  LockDuration(t, properties.Find("lockDuration"));
  RequiresSession(t, properties.Find("requiresSession"));
  TimeToLive(t, properties.Find("defaultMessageTimeToLive"), properties.Find("deadLetteringOnMessageExpiration"));
  t.NoBackoff("abandon makes the message available again for immediate processing: Service Bus has no retry delay");
  return std::move(t).Result();
}

ImportResult ReadServiceBus(const JsValue& json) {
  const JsValue* properties = PropertiesOf(json);
  if (properties == nullptr) {
    return Refused(
        "servicebus",
        Refusal("resources", std::string("a resource of type \"") + kQueueType + "\" with its properties", "none"));
  }
  return ReadServiceBusProperties(*properties);
}

// ---- the snippet: the policy in force as an ARM template for a queue ----

namespace {

// The notes; `lock` is the lease as Service Bus can hold it (whole seconds, at most 5 minutes).
std::vector<std::string> ServiceBusNotes(const PolicyFacts& n, double& lock) {
  std::vector<std::string> notes;
  ClassShape shape = ShapeOf(n);
  lock = SecondsUp(n.lease_ms);
  if (lock * 1000 != n.lease_ms)
    notes.push_back("leaseMs " + Num(n.lease_ms) + ": lockDuration rounded up to " + Num(lock) + " s");
  if (lock > 300) {
    lock = 300;
    notes.push_back("leaseMs " + Num(n.lease_ms) + ": lockDuration stops at 5 minutes");
  }
  if (n.backoff.kind != "none")
    notes.push_back("backoff " + BackoffText(n.backoff) + ": no redelivery backoff at the broker");
  if (!shape.never.empty()) {
    notes.push_back(Joined(shape.never) +
                    ": the receiver calls DeadLetterMessageAsync(message, reason, description): dead-lettered at once");
  }
  for (const RuleFacts* r : shape.own) notes.push_back(RuleText(*r) + ": one MaxDeliveryCount for every failure");
  if (shape.crash_never)
    notes.push_back("classes.crash never retries in the lab; an expired lock counts a delivery in Service Bus");
  if (!shape.alerts.empty()) notes.push_back("alert on " + Joined(shape.alerts) + ": no equivalent");
  if (n.ordering == "key")
    notes.push_back(
        "ordering key: sessions (requiresSession, one session per key); their interplay with dead-lettering is "
        "unverified");
  if (n.ordering == "stall") notes.push_back("ordering stall: no equivalent");
  if (n.retention_ms > 0) {
    notes.push_back("quarantine.retentionMs " + Num(n.retention_ms) +
                    ": no equivalent; time-to-live does not apply in the dead-letter queue and nothing cleans it up");
  }
  if (n.alarm_depth > 0) {
    notes.push_back("quarantine.alarmDepth " + Num(n.alarm_depth) +
                    ": no alarm here; read the dead-letter count through the CLI or Service Bus Explorer");
  }
  if (n.default_message_ttl_ms > 0 && !n.dead_letter_on_expiry) {
    notes.push_back("deadLetterOnExpiry false: an expired message is dropped, not dead-lettered");
  }
  if (n.default_message_ttl_ms == 0 && n.dead_letter_on_expiry) {
    notes.push_back(
        "deadLetterOnExpiry true: no message expires without a defaultMessageTimeToLive, so it is not written");
  }
  notes.push_back("replay(id): receive from orders/$deadletterqueue, send a copy to orders, complete the original");
  CommonNotes(n, notes);
  return notes;
}

}  // namespace

Snippet ServiceBusSnippet(const PolicyFacts& n) {
  double lock = 0;
  std::vector<std::string> notes = ServiceBusNotes(n, lock);
  const std::string duration = "PT" + Num(lock) + "S";
  std::string translation = "maxAttempts " + Num(n.max_attempts) + " -> maxDeliveryCount " + Num(n.max_attempts) +
                            "; leaseMs " + Num(n.lease_ms) + " -> lockDuration " + duration;
  JsValue properties = JsObject({{"maxDeliveryCount", JsValue::Number(n.max_attempts)},
                                 {"lockDuration", JsValue::String(duration)},
                                 {"requiresSession", JsValue::Bool(n.ordering == "key")}});
  // The time-to-live only when the policy has one (none is Service Bus's default, TimeSpan.MaxValue).
  if (n.default_message_ttl_ms > 0) {
    const std::string ttl = "PT" + Num(n.default_message_ttl_ms / 1000) + "S";
    translation += "; defaultMessageTtlMs " + Num(n.default_message_ttl_ms) + " -> defaultMessageTimeToLive " + ttl;
    properties.Set("defaultMessageTimeToLive", JsValue::String(ttl));
  }
  if (n.default_message_ttl_ms > 0) {
    translation += std::string("; deadLetterOnExpiry ") + (n.dead_letter_on_expiry ? "true" : "false") +
                   " -> deadLetteringOnMessageExpiration";
    properties.Set("deadLetteringOnMessageExpiration", JsValue::Bool(n.dead_letter_on_expiry));
  }
  JsValue metadata = JsObject({{"policy", JsValue::String(PolicyText(n))},
                               {"translation", JsValue::String(translation)},
                               {"notes", JsStrings(notes)}});
  JsValue queue = JsObject({{"type", JsValue::String(kQueueType)},
                            {"apiVersion", JsValue::String("2021-11-01")},
                            {"name", JsValue::String("orders-ns/orders")},
                            {"properties", properties}});
  JsValue template_ = JsObject(
      {{"$schema", JsValue::String("https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#")},
       {"contentVersion", JsValue::String("1.0.0.0")},
       {"metadata", JsObject({{"dlq-lab", metadata}})},
       {"resources", JsArray({queue})}});
  return {"json", PrettyJson(template_) + "\n"};
}

}  // namespace dlq::config
