// Azure Service Bus: the policy in force as an ARM template for a queue (maxDeliveryCount,
// lockDuration, sessions). No reader for this format yet; only the writer
// (web/src/shared/snippets.mjs before issue 32).
#include <string>
#include <vector>

#include "config.h"
#include "internal/js_value.h"
#include "internal/pretty_json.h"
#include "internal/snippet_text.h"

namespace dlq::config {
namespace {

std::string N(double n) { return JsNumberText(n); }

// The notes; `lock` is the lease as Service Bus can hold it (whole seconds, at most 5 minutes).
std::vector<std::string> ServiceBusNotes(const PolicyFacts& n, double& lock) {
  std::vector<std::string> notes;
  ClassShape shape = ShapeOf(n);
  lock = SecondsUp(n.lease_ms);
  if (lock * 1000 != n.lease_ms) notes.push_back("leaseMs " + N(n.lease_ms) + ": lockDuration rounded up to " + N(lock) + " s");
  if (lock > 300) {
    lock = 300;
    notes.push_back("leaseMs " + N(n.lease_ms) + ": lockDuration stops at 5 minutes");
  }
  if (n.backoff.kind != "none") notes.push_back("backoff " + BackoffText(n.backoff) + ": no redelivery backoff at the broker");
  if (!shape.never.empty()) {
    notes.push_back(Joined(shape.never) + ": the receiver calls DeadLetterMessageAsync(message, reason, description): dead-lettered at once");
  }
  for (const RuleFacts* r : shape.own) notes.push_back(RuleText(*r) + ": one MaxDeliveryCount for every failure");
  if (shape.crash_never) notes.push_back("classes.crash never retries in the lab; an expired lock counts a delivery in Service Bus");
  if (!shape.alerts.empty()) notes.push_back("alert on " + Joined(shape.alerts) + ": no equivalent");
  if (n.ordering == "key") notes.push_back("ordering key: sessions (requiresSession, one session per key); their interplay with dead-lettering is unverified");
  if (n.ordering == "stall") notes.push_back("ordering stall: no equivalent");
  if (n.retention_ms > 0) {
    notes.push_back("quarantine.retentionMs " + N(n.retention_ms) +
                    ": no equivalent; time-to-live does not apply in the dead-letter queue and nothing cleans it up");
  }
  if (n.alarm_depth > 0) {
    notes.push_back("quarantine.alarmDepth " + N(n.alarm_depth) +
                    ": no alarm here; read the dead-letter count through the CLI or Service Bus Explorer");
  }
  notes.push_back("replay(id): receive from orders/$deadletterqueue, send a copy to orders, complete the original");
  CommonNotes(n, notes);
  return notes;
}

}  // namespace

Snippet ServiceBusSnippet(const PolicyFacts& n) {
  double lock = 0;
  std::vector<std::string> notes = ServiceBusNotes(n, lock);
  const std::string duration = "PT" + N(lock) + "S";
  JsValue metadata = JsObject({{"policy", JsValue::String(PolicyText(n))},
                               {"translation", JsValue::String("maxAttempts " + N(n.max_attempts) + " -> maxDeliveryCount " +
                                                               N(n.max_attempts) + "; leaseMs " + N(n.lease_ms) + " -> lockDuration " + duration)},
                               {"notes", JsStrings(notes)}});
  JsValue queue = JsObject({{"type", JsValue::String("Microsoft.ServiceBus/namespaces/queues")},
                            {"apiVersion", JsValue::String("2021-11-01")},
                            {"name", JsValue::String("orders-ns/orders")},
                            {"properties", JsObject({{"maxDeliveryCount", JsValue::Number(n.max_attempts)},
                                                     {"lockDuration", JsValue::String(duration)},
                                                     {"requiresSession", JsValue::Bool(n.ordering == "key")}})}});
  JsValue template_ = JsObject({{"$schema", JsValue::String("https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#")},
                                {"contentVersion", JsValue::String("1.0.0.0")},
                                {"metadata", JsObject({{"dlq-lab", metadata}})},
                                {"resources", JsArray({queue})}});
  return {"json", PrettyJson(template_) + "\n"};
}

}  // namespace dlq::config
