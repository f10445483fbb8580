// RabbitMQ: a policy definition as JSON ({"delivery-limit":20,"dead-letter-exchange":"dlx"}),
// or a policy as `rabbitmqctl list_policies --formatter json` gives it ({…,"definition":{…}}),
// into the rabbitmq-quorum mode. No dead-letter-exchange: deadLetterExchange none (a dead
// letter is dropped); max-length with overflow drop-head, the default: maxLength;
// message-ttl: messageTtlMs.
#include <array>
#include <string_view>

#include "internal/translation.h"

namespace dlq::config {
namespace {

constexpr std::array<std::string_view, 26> kKeys = {
    "delivery-limit", "dead-letter-exchange", "dead-letter-routing-key", "dead-letter-strategy", "overflow",
    "max-length", "max-length-bytes", "message-ttl", "expires", "queue-mode", "queue-version", "max-age",
    "queue-leader-locator", "queue-master-locator", "initial-cluster-size", "target-group-size", "ha-mode",
    "ha-params", "ha-sync-mode", "ha-promote-on-shutdown", "ha-promote-on-failure", "federation-upstream",
    "federation-upstream-set", "stream-max-segment-size-bytes", "alternate-exchange", "single-active-consumer"};
// Policy keys with no bearing on retries or dead-lettering: read, and listed as changing nothing.
constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kNoBearing = {{
    {"queue-mode", "where a classic queue keeps its messages (memory or disk); storage only"},
    {"queue-version", "a classic queue's storage format"},
    {"queue-leader-locator", "which node a new queue's leader starts on"},
    {"queue-master-locator", "which node a new queue's leader starts on"},
    {"initial-cluster-size", "how many nodes hold a quorum queue's replicas"},
    {"target-group-size", "how many nodes hold a quorum queue's replicas"},
    {"stream-max-segment-size-bytes", "a stream's segment files"},
}};
// The other fields of a policy as list_policies / definitions export print it.
constexpr std::array<std::string_view, 6> kPolicyFields = {"vhost", "name", "pattern", "apply-to", "priority", "definition"};

template <size_t N>
bool In(const std::array<std::string_view, N>& set, std::string_view key) {
  for (std::string_view k : set) {
    if (k == key) return true;
  }
  return false;
}

std::string_view NoBearing(std::string_view key) {
  for (const auto& [name, why] : kNoBearing) {
    if (name == key) return why;
  }
  return {};
}

void Overflow(Translation& t, const JsValue& definition, const JsValue& value) {
  // With max-length only drop-head (RabbitMQ's default) is the lab's maxLength; the others refuse a publish.
  if (definition.Has("max-length")) {
    if (!value.IsStringEq("drop-head")) {
      t.Refuse(NotModelled("overflow", Quoted(value), "with max-length the lab drops the oldest ready message, as drop-head does",
                           "\"drop-head\" (or it absent)"));
    }
  } else if (definition.Has("max-length-bytes")) {
    t.Ignore("overflow", "acts only with a length limit (refused below)");
  } else {
    t.Ignore("overflow", Quoted(value) + ": acts only with a length limit, and none is set");
  }
}

void DefinitionKey(Translation& t, const JsValue& definition, const std::string& key, const JsValue& value) {
  if (key == "delivery-limit") return;
  if (key == "dead-letter-exchange") {
    if (value.IsString() && !value.text.empty()) {
      t.ToText("deadLetterExchange", "set", "dead-letter-exchange " + Quoted(value) + ": its dead letters are the lab's quarantine");
    } else {
      t.Refuse(Refusal(key, "an exchange name", Quoted(value)));
    }
  } else if (key == "dead-letter-routing-key") {
    t.Ignore(key, Quoted(value) + ": the lab has one quarantine");
  } else if (key == "dead-letter-strategy") {
    if (value.IsStringEq("at-most-once") || value.IsStringEq("at-least-once")) {
      t.Ignore(key, Quoted(value) + ": the lab's quarantine always receives the message");
    } else {
      t.Refuse(Refusal(key, "\"at-most-once\" or \"at-least-once\"", Quoted(value)));
    }
  } else if (key == "overflow") {
    Overflow(t, definition, value);
  } else if (key == "message-ttl") {
    // 0 expires a message unless a consumer takes it at once, while the lab's messageTtlMs 0 is no TTL.
    if (!value.IsWhole() || value.number < 1) {
      t.Refuse(Refusal(key, "a whole number of ms from 1 (message-ttl 0 expires what no consumer takes at once)", Quoted(value)));
    } else {
      t.ToNumber("messageTtlMs", value.number, "message-ttl " + Num(value.number) +
                 ": a message at the head that long after its publish is dead-lettered (reason expired)");
    }
  } else if (key == "max-length") {
    // 0 keeps no message ready on RabbitMQ, while the lab's maxLength 0 is no limit; the core checks the top.
    if (!value.IsWhole() || value.number < 1) {
      t.Refuse(Refusal(key, "a whole number from 1 (max-length 0 keeps no message ready)", Quoted(value)));
    } else {
      const JsValue* overflow = definition.Find("overflow");
      JsValue shown = overflow == nullptr || overflow->kind == JsValue::Kind::kNull ? JsValue::String("drop-head") : *overflow;
      t.ToNumber("maxLength", value.number, "max-length " + Num(value.number) + " with overflow " + Quoted(shown) +
                 (overflow != nullptr ? "" : " (the default)") +
                 ": a publish past it dead-letters the oldest ready message (reason maxlen)");
    }
  } else if (key == "queue-mode") {
    if (value.IsStringEq("lazy") || value.IsStringEq("default")) {
      t.Ignore(key, Quoted(value) + ": " + std::string(NoBearing(key)) + "; no bearing on retries");
    } else {
      t.Refuse(Refusal(key, "\"lazy\" or \"default\"", Quoted(value)));
    }
  } else if (!NoBearing(key).empty()) {
    t.Ignore(key, Quoted(value) + ": " + std::string(NoBearing(key)) + "; no bearing on retries");
  } else if (In(kKeys, key)) {
    t.Refuse(NotModelled(key, Quoted(value), ""));
  } else {
    t.Refuse(Refusal(key, "a RabbitMQ policy key (delivery-limit, dead-letter-exchange, …)", Quoted(value), "is unknown"));
  }
}

void DeliveryLimit(Translation& t, const JsValue* limit) {
  // No limit is the version's default: none on 3.x (deliveryLimit unset-3.x), 20 from 4.0 (unset-4.x, set in Advanced).
  if (limit == nullptr || limit->IsNumberEq(-1)) {
    t.ToText("deliveryLimit", "unset-3.x",
             limit == nullptr ? "delivery-limit absent: RabbitMQ 3.x sets no limit (4.0 and later default to 20: choose "
                                "unset-4.x in Advanced)"
                              : "delivery-limit -1: no limit");
  } else if (!limit->IsWhole() || limit->number < 0) {
    t.Refuse(Refusal("delivery-limit", "a whole number from 0", Quoted(*limit)));
  } else {
    std::string n = Num(limit->number);
    t.ToNumber("maxAttempts", limit->number + 1, "delivery-limit " + n + " (it counts returns: " + n + " + 1 deliveries)");
    t.ToText("deliveryLimit", "explicit", "delivery-limit " + n);
  }
}

}  // namespace

bool IsRabbitmqKey(std::string_view key) { return In(kKeys, key); }

ImportResult ReadRabbitmq(const JsValue& input) {
  Translation t("rabbitmq", "rabbitmq-quorum");
  const JsValue* definition = &input;
  if (const JsValue* inner = input.Find("definition")) {  // a whole policy
    definition = inner;
    for (const auto* m : input.Entries()) {
      const std::string& key = m->first;
      if (key == "definition") continue;
      if (!In(kPolicyFields, key)) {
        t.Refuse(Refusal(key, "vhost, name, pattern, apply-to, priority or definition", Quoted(m->second), "is unknown"));
      } else if (key == "apply-to" && !(m->second.IsStringEq("queues") || m->second.IsStringEq("all") ||
                                        m->second.IsStringEq("quorum_queues"))) {
        t.Refuse(Refusal(key, "\"queues\", \"quorum_queues\" or \"all\" (the mode is a quorum queue's)", Quoted(m->second)));
      } else {
        t.Ignore(key, "which queues the policy applies to; the lab has one");
      }
    }
    if (!definition->IsObject()) {
      return Refused("rabbitmq", Refusal("definition", "a JSON object of policy keys", Quoted(*definition)));
    }
  }
  for (const auto* m : definition->Entries()) DefinitionKey(t, *definition, m->first, m->second);
  DeliveryLimit(t, definition->Find("delivery-limit"));
  if (!definition->Has("dead-letter-exchange")) {
    t.ToText("deadLetterExchange", "none",
             "dead-letter-exchange absent: at the limit, or on a reject, RabbitMQ drops the message (no entry is kept)");
  }
  t.NoBackoff("RabbitMQ has no backoff: a returned message is redelivered at once, near the head");
  return std::move(t).Result();
}

}  // namespace dlq::config
