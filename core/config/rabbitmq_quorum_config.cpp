// RabbitMQ: a policy definition as JSON ({"delivery-limit":20,"dead-letter-exchange":"dlx"}),
// or a policy as `rabbitmqctl list_policies --formatter json` gives it ({…,"definition":{…}}),
// into the rabbitmq-quorum mode. No dead-letter-exchange: deadLetterExchange none (a dead
// letter is dropped); max-length with overflow drop-head, the default: maxLength;
// message-ttl: messageTtlMs; RabbitMQ 4.3's delayed-retry-type / -min / -max (ms):
// delayedRetryType / delayedRetryMinMs / delayedRetryMaxMs. 4.3's x-opt-delivery-time is the
// consumer's (a message annotation, not a queue argument): a 4.3 definition (a delayed retry)
// reads as deliveryTime broker, said in the import's list, never left as it was.
#include <array>
#include <string_view>

#include "internal/js_value.h"
#include "internal/snippet_text.h"
#include "internal/translation.h"

namespace dlq::config {
namespace {

constexpr std::array<std::string_view, 29> kKeys = {"delayed-retry-type",
                                                    "delayed-retry-min",
                                                    "delayed-retry-max",
                                                    "delivery-limit",
                                                    "dead-letter-exchange",
                                                    "dead-letter-routing-key",
                                                    "dead-letter-strategy",
                                                    "overflow",
                                                    "max-length",
                                                    "max-length-bytes",
                                                    "message-ttl",
                                                    "expires",
                                                    "queue-mode",
                                                    "queue-version",
                                                    "max-age",
                                                    "queue-leader-locator",
                                                    "queue-master-locator",
                                                    "initial-cluster-size",
                                                    "target-group-size",
                                                    "ha-mode",
                                                    "ha-params",
                                                    "ha-sync-mode",
                                                    "ha-promote-on-shutdown",
                                                    "ha-promote-on-failure",
                                                    "federation-upstream",
                                                    "federation-upstream-set",
                                                    "stream-max-segment-size-bytes",
                                                    "alternate-exchange",
                                                    "single-active-consumer"};
// Policy keys with no bearing on retries or dead-lettering: read, and listed as changing nothing.
constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kRabbitmqNoBearing = {{
    {"queue-mode", "where a classic queue keeps its messages (memory or disk); storage only"},
    {"queue-version", "a classic queue's storage format"},
    {"queue-leader-locator", "which node a new queue's leader starts on"},
    {"queue-master-locator", "which node a new queue's leader starts on"},
    {"initial-cluster-size", "how many nodes hold a quorum queue's replicas"},
    {"target-group-size", "how many nodes hold a quorum queue's replicas"},
    {"stream-max-segment-size-bytes", "a stream's segment files"},
}};
// The other fields of a policy as list_policies / definitions export print it.
constexpr std::array<std::string_view, 6> kPolicyFields = {"vhost",    "name",     "pattern",
                                                           "apply-to", "priority", "definition"};

std::string_view NoBearing(std::string_view key) {
  for (const auto& [name, why] : kRabbitmqNoBearing) {
    if (name == key) return why;
  }
  return {};
}

void Overflow(Translation& t, const JsValue& definition, const JsValue& value) {
  // With max-length only drop-head (RabbitMQ's default) is the lab's maxLength; the others refuse a publish.
  if (definition.Has("max-length")) {
    if (!value.IsStringEq("drop-head")) {
      t.Refuse(NotModelled("overflow", Quoted(value),
                           "with max-length the lab drops the oldest ready message, as drop-head does",
                           "\"drop-head\" (or it absent)"));
    }
  } else if (definition.Has("max-length-bytes")) {
    t.Ignore("overflow", "acts only with a length limit (refused below)");
  } else {
    t.Ignore("overflow", Quoted(value) + ": acts only with a length limit, and none is set");
  }
}

// True when the definition uses RabbitMQ 4.3's delayed retry (a type other than disabled).
bool HasDelayedRetry(const JsValue& definition) {
  const JsValue* type = definition.Find("delayed-retry-type");
  return type != nullptr && !type->IsStringEq("disabled");
}

// RabbitMQ 4.3's delayed retry: the type, and its min and max in ms.
void DelayedRetryKey(Translation& t, const std::string& key, const JsValue& value) {
  if (key == "delayed-retry-type") {
    if (value.IsStringEq("disabled") || value.IsStringEq("all") || value.IsStringEq("failed") ||
        value.IsStringEq("returned")) {
      t.ToText("delayedRetryType", value.text,
               "delayed-retry-type " + Quoted(value) +
                   " (RabbitMQ 4.3): a return it applies to waits min(min x delivery count, max)");
    } else {
      t.Refuse(Refusal(key, "\"disabled\", \"all\", \"failed\" or \"returned\"", Quoted(value)));
    }
    return;
  }
  const bool is_min = key == "delayed-retry-min";
  if (!value.IsWhole() || value.number < 0) {
    t.Refuse(Refusal(key, "a whole number of ms from 0", Quoted(value)));
  } else {
    t.ToNumber(is_min ? "delayedRetryMinMs" : "delayedRetryMaxMs", value.number,
               key + " " + Num(value.number) + (is_min ? ": the delay per delivery count" : ": no delay is longer"));
  }
}

void DefinitionKey(Translation& t, const JsValue& definition, const std::string& key, const JsValue& value) {
  if (key == "delivery-limit") return;
  if (key.rfind("delayed-retry-", 0) == 0 && IsOneOf(kKeys, key)) return DelayedRetryKey(t, key, value);
  if (key == "dead-letter-exchange") {
    if (value.IsString() && !value.text.empty()) {
      t.ToText("deadLetterExchange", "set",
               "dead-letter-exchange " + Quoted(value) + ": its dead letters are the lab's quarantine");
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
      t.Refuse(Refusal(key, "a whole number of ms from 1 (message-ttl 0 expires what no consumer takes at once)",
                       Quoted(value)));
    } else {
      t.ToNumber("messageTtlMs", value.number,
                 "message-ttl " + Num(value.number) +
                     ": a message at the head that long after its publish is dead-lettered (reason expired)");
    }
  } else if (key == "max-length") {
    // 0 keeps no message ready on RabbitMQ, while the lab's maxLength 0 is no limit; the core checks the top.
    if (!value.IsWhole() || value.number < 1) {
      t.Refuse(Refusal(key, "a whole number from 1 (max-length 0 keeps no message ready)", Quoted(value)));
    } else {
      const JsValue* overflow = definition.Find("overflow");
      JsValue shown =
          overflow == nullptr || overflow->kind == JsValue::Kind::kNull ? JsValue::String("drop-head") : *overflow;
      t.ToNumber("maxLength", value.number,
                 "max-length " + Num(value.number) + " with overflow " + Quoted(shown) +
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
  } else if (IsOneOf(kKeys, key)) {
    t.Refuse(NotModelled(key, Quoted(value), ""));
  } else {
    t.Refuse(
        Refusal(key, "a RabbitMQ policy key (delivery-limit, dead-letter-exchange, …)", Quoted(value), "is unknown"));
  }
}

void DeliveryLimit(Translation& t, const JsValue* limit, bool four_three) {
  // No limit is the version's default: none on 3.x (deliveryLimit unset-3.x), 20 from 4.0 (unset-4.x, set in Advanced);
  // a definition with a delayed retry is 4.3's, so its default is 20.
  if (limit == nullptr && four_three) {
    t.ToText("deliveryLimit", "unset-4.x",
             "delivery-limit absent with a delayed retry (RabbitMQ 4.3): the default limit 20, so 21 deliveries");
  } else if (limit == nullptr || limit->IsNumberEq(-1)) {
    t.ToText("deliveryLimit", "unset-3.x",
             limit == nullptr
                 ? "delivery-limit absent: RabbitMQ 3.x sets no limit (4.0 and later default to 20: choose "
                   "unset-4.x in Advanced)"
                 : "delivery-limit -1: no limit");
  } else if (!limit->IsWhole() || limit->number < 0) {
    t.Refuse(Refusal("delivery-limit", "a whole number from 0", Quoted(*limit)));
  } else {
    std::string n = Num(limit->number);
    t.ToNumber("maxAttempts", limit->number + 1,
               "delivery-limit " + n + " (it counts returns: " + n + " + 1 deliveries)");
    t.ToText("deliveryLimit", "explicit", "delivery-limit " + n);
  }
}

}  // namespace

bool IsRabbitmqKey(std::string_view key) { return IsOneOf(kKeys, key); }

ImportResult ReadRabbitmq(const JsValue& input) {
  Translation t("rabbitmq", "rabbitmq-quorum");
  const JsValue* definition = &input;
  if (const JsValue* inner = input.Find("definition")) {  // a whole policy
    definition = inner;
    for (const auto* m : input.Entries()) {
      const std::string& key = m->first;
      if (key == "definition") continue;
      if (!IsOneOf(kPolicyFields, key)) {
        t.Refuse(
            Refusal(key, "vhost, name, pattern, apply-to, priority or definition", Quoted(m->second), "is unknown"));
      } else if (key == "apply-to" && !(m->second.IsStringEq("queues") || m->second.IsStringEq("all") ||
                                        m->second.IsStringEq("quorum_queues"))) {
        t.Refuse(
            Refusal(key, "\"queues\", \"quorum_queues\" or \"all\" (the mode is a quorum queue's)", Quoted(m->second)));
      } else {
        t.Ignore(key, "which queues the policy applies to; the lab has one");
      }
    }
    if (!definition->IsObject()) {
      return Refused("rabbitmq", Refusal("definition", "a JSON object of policy keys", Quoted(*definition)));
    }
  }
  for (const auto* m : definition->Entries()) DefinitionKey(t, *definition, m->first, m->second);
  DeliveryLimit(t, definition->Find("delivery-limit"), HasDelayedRetry(*definition));
  if (!definition->Has("dead-letter-exchange")) {
    t.ToText(
        "deadLetterExchange", "none",
        "dead-letter-exchange absent: at the limit, or on a reject, RabbitMQ drops the message (no entry is kept)");
  }
  if (HasDelayedRetry(*definition)) {
    t.ToText(
        "deliveryTime", "broker",
        "x-opt-delivery-time is set per message by the consumer (the AMQP 1.0 modified outcome), not by a policy key: "
        "the definition's delayed retry applies (if your consumer sets it, choose deliveryTime backoff in Advanced)");
  }
  t.NoBackoff(HasDelayedRetry(*definition)
                  ? "RabbitMQ's delay is its delayed retry (4.3), not a backoff"
                  : "RabbitMQ has no backoff: a returned message is redelivered at once, near the head");
  return std::move(t).Result();
}

// ---- the snippet: the policy in force as a rabbitmqctl policy (web/src/shared/snippets.mjs before issue 32) ----

namespace {

// The one statement of the mapping (observed on 3.10.8: x-delivery-limit 2 gave 3 deliveries); the page's facts
// say it too (DELIVERY_LIMIT_RULE in snippets.mjs).
constexpr std::string_view kDeliveryLimitRule =
    "delivery-limit L allows L returns, so L + 1 deliveries: maxAttempts N is delivery-limit N - 1";

struct RabbitShape {
  bool quorum_mode, no_dlx, classic, unset;
  double limit, max_length, message_ttl_ms;
  bool delayed;        // RabbitMQ 4.3's delayed retry (delayedRetryType not disabled)
  bool delivery_time;  // 4.3's x-opt-delivery-time set by the consumer from the backoff (deliveryTime backoff)
};

std::vector<std::string> RabbitNotes(const PolicyFacts& n, const RabbitShape& m) {
  std::vector<std::string> notes;
  ClassShape shape = ShapeOf(n);
  if (n.backoff.kind != "none" && m.delivery_time) {
    notes.push_back("backoff " + BackoffText(n.backoff) +
                    ": the consumer's clock; it sets x-opt-delivery-time = now + the delay on "
                    "each failed attempt it returns (RabbitMQ 4.3)");
  } else if (n.backoff.kind != "none" && m.delayed) {
    notes.push_back("backoff " + BackoffText(n.backoff) + ": not used; the delay is RabbitMQ 4.3's delayed retry");
  } else if (n.backoff.kind != "none") {
    notes.push_back(
        "backoff " + BackoffText(n.backoff) +
        ": RabbitMQ has no redelivery delay of its own (a TTL + dead-letter \"retry queue\" is the usual workaround)");
  }
  if (!shape.never.empty()) {
    notes.push_back(m.no_dlx ? Joined(shape.never) +
                                   ": the consumer does basic.reject with requeue=false, and with no "
                                   "dead-letter exchange the message is dropped at once"
                             : Joined(shape.never) +
                                   ": quarantined at once in the lab; the consumer does basic.reject with "
                                   "requeue=false (dead-lettered at once, reason \"rejected\" in x-death)");
  }
  for (const RuleFacts* r : shape.own) notes.push_back(RuleText(*r) + ": one delivery-limit for every failure");
  if (!shape.alerts.empty()) notes.push_back("alert on " + Joined(shape.alerts) + ": no per-failure alert in RabbitMQ");
  notes.push_back("leaseMs " + Num(n.lease_ms) +
                  ": no per-message lease; the broker-wide consumer timeout does not add to the delivery count");
  if (shape.crash_never) notes.push_back("classes.crash never retries in the lab; RabbitMQ requeues a lost delivery");
  notes.push_back(
      m.classic ? "a classic queue keeps no delivery count: a returned message goes back in its place at the head (as "
                  "the lab's "
                  "deliveryLimit classic-queue plays it), and the count the lab shows is its own"
      : m.quorum_mode
          ? "a returned message goes back near the head of the queue when a delivery-limit is set (as the lab's "
            "rabbitmq-quorum mode plays it)"
          : "a returned message goes back near the head of the queue when a delivery-limit is set (the lab: the tail)");
  if (n.ordering != "none") notes.push_back("ordering " + n.ordering + ": no per-key hold in RabbitMQ");
  if (n.alarm_depth > 0)
    notes.push_back("quarantine.alarmDepth " + Num(n.alarm_depth) + ": no built-in depth alarm configured here");
  notes.push_back(m.no_dlx ? "replay(id): nothing to replay, a dropped message is gone"
                           : "replay(id): no native replay; republish the message from orders.dlq yourself");
  CommonNotes(n, notes);
  return notes;
}

// The source queue's policy definition. maxLength (the mode's): max-length with overflow drop-head, so a publish
// past it dead-letters the oldest ready message; at-least-once dead-lettering needs overflow reject-publish, which
// would refuse the publish instead, so with a length limit the strategy is left at-most-once. A classic queue takes
// no delivery-limit and no at-least-once dead-lettering (both are quorum queues' own).
JsValue MainDefinition(const PolicyFacts& n, const RabbitShape& m) {
  JsValue main;
  main.kind = JsValue::Kind::kObject;
  if (!m.unset) main.Set("delivery-limit", JsValue::Number(m.limit));
  if (!m.no_dlx) {
    main.Set("dead-letter-exchange", JsValue::String("orders.dlx"));
    if (!(m.max_length > 0 || m.classic)) {
      main.Set("dead-letter-strategy", JsValue::String("at-least-once"));
      main.Set("overflow", JsValue::String("reject-publish"));
    }
  }
  if (m.max_length > 0) {
    main.Set("max-length", JsValue::Number(m.max_length));
    main.Set("overflow", JsValue::String("drop-head"));
  }
  // messageTtlMs (the mode's): the source's message-ttl; a quorum queue expires a message at the head.
  if (m.message_ttl_ms > 0) main.Set("message-ttl", JsValue::Number(m.message_ttl_ms));
  if (m.delayed) {  // RabbitMQ 4.3's delayed retry (the lab's delayedRetry*)
    main.Set("delayed-retry-type", JsValue::String(n.delayed_retry_type));
    main.Set("delayed-retry-min", JsValue::Number(n.delayed_retry_min_ms));
    main.Set("delayed-retry-max", JsValue::Number(n.delayed_retry_max_ms));
  }
  return main;
}

std::string LimitComment(const PolicyFacts& n, const RabbitShape& m) {
  if (m.classic) {
    return "# deliveryLimit classic-queue: a classic queue keeps no delivery count, so no delivery-limit applies: a "
           "returned "
           "message is redelivered without end, in its place; only a reject dead-letters.";
  }
  if (m.unset && n.delivery_limit == "unset-3.x") {
    return "# deliveryLimit unset-3.x: no delivery-limit. RabbitMQ 3.x then redelivers a returned message without end; "
           "nothing is dead-lettered for returns.";
  }
  if (m.unset)
    return "# deliveryLimit unset-4.x: no delivery-limit. RabbitMQ 4.0 and later default it to 20, so 21 deliveries.";
  return "# " + std::string(kDeliveryLimitRule) + ": maxAttempts " + Num(n.max_attempts) + " -> delivery-limit " +
         Num(m.limit) + ".";
}

}  // namespace

Snippet RabbitMqSnippet(const PolicyFacts& n) {
  RabbitShape m{};
  m.quorum_mode = n.system == "rabbitmq-quorum";
  m.limit = n.max_attempts - 1;
  m.no_dlx = m.quorum_mode && n.dead_letter_exchange == "none";      // no DLX: a dead letter is dropped
  m.classic = m.quorum_mode && n.delivery_limit == "classic-queue";  // the source keeps no delivery count
  m.unset = m.quorum_mode && n.delivery_limit != "explicit";         // left to the version's default
  m.max_length = m.quorum_mode ? n.max_length : 0;
  m.message_ttl_ms = m.quorum_mode ? n.message_ttl_ms : 0;
  m.delayed = m.quorum_mode && n.delayed_retry_type != "disabled";
  m.delivery_time = m.quorum_mode && n.delivery_time == "backoff";
  std::vector<std::string> lines = {"#!/usr/bin/env bash",
                                    std::string("# dlq-lab policy -> RabbitMQ ") + (m.classic ? "classic" : "quorum") +
                                        " queue \"orders\" (" + (m.delayed || m.delivery_time ? "4.3" : "3.10") +
                                        " or later): " + PolicyText(n)};
  for (std::string& note : HashComments(RabbitNotes(n, m))) lines.push_back(std::move(note));
  lines.push_back("set -euo pipefail");
  lines.push_back("NODE=rabbit@localhost # the connection: the RabbitMQ node rabbitmqctl talks to (rabbitmqctl -n)");
  lines.push_back("");
  lines.push_back(
      m.classic ? "# Declare \"orders\" as a classic queue (x-queue-type=classic, or none: a policy cannot change a "
                  "queue type),"
                : "# Declare \"orders\" as a quorum queue (x-queue-type=quorum: a policy cannot change a queue type),");
  lines.push_back(m.no_dlx ? "# and no dead-letter exchange (deadLetterExchange none): at the limit, or on a reject, "
                             "RabbitMQ drops the message."
                           : "# a fanout exchange \"orders.dlx\" and a queue \"orders.dlq\" bound to it.");
  lines.push_back(LimitComment(n, m));
  if (m.max_length > 0) {
    lines.push_back("# maxLength " + Num(m.max_length) + " -> max-length " + Num(m.max_length) +
                    ", overflow drop-head: a publish past it " + (m.no_dlx ? "drops" : "dead-letters (reason maxlen)") +
                    " the oldest ready message; dead-lettering is then at-most-once.");
  }
  if (m.message_ttl_ms > 0) {
    lines.push_back("# messageTtlMs " + Num(m.message_ttl_ms) + " -> message-ttl " + Num(m.message_ttl_ms) +
                    ": a message still waiting at the head that long after its publish " +
                    (m.no_dlx ? "is dropped" : "is dead-lettered (reason expired)") +
                    "; a delivered one does not expire.");
  }
  if (m.delayed) {
    lines.push_back("# delayedRetryType " + n.delayed_retry_type +
                    " -> delayed-retry-type (RabbitMQ 4.3): a return it applies to waits min(" +
                    Num(n.delayed_retry_min_ms) + " x delivery count, " + Num(n.delayed_retry_max_ms) +
                    ") ms; x-opt-delivery-time overrides it per message.");
  }
  if (m.delivery_time) {
    Append(
        lines,
        {"# deliveryTime backoff: the consumer sets the delay, not the queue (RabbitMQ 4.3). It returns each failed "
         "attempt",
         "# with the AMQP 1.0 modified outcome (delivery-failed=true, counted in delivery-count) carrying the message",
         "# annotation x-opt-delivery-time = now + the backoff's delay (ms since epoch), which takes precedence over "
         "any",
         std::string("# delayed retry") +
             (m.delayed ? " (a delay of 0 is not in the future: the linear delay applies); a lost connection"
                        : "; a lost connection, with no outcome,") +
             " waits the broker's rule.",
         "# (Consumer code, not a queue argument: no policy key says it, so the import cannot read it back.)"});
  }
  if (m.quorum_mode && n.requeue_with == "nack") {
    Append(lines,
           {"# requeueWith nack: the consumer fails an attempt with basic.nack (requeue=true), which RabbitMQ 4.3 does "
            "not",
            "# count in delivery-count (only x-acquired-count): delivery-limit never ends its retries; a permanent "
            "failure",
            "# still uses requeue=false. (Consumer code: no policy key says it, so the import cannot read it back.)"});
  } else {
    lines.push_back(
        m.classic
            ? "# Fail an attempt with basic.reject (requeue=true); a permanent failure with requeue=false."
            : "# Fail an attempt with basic.reject (requeue=true): since 4.3 a nack with requeue is not counted.");
  }
  lines.push_back("rabbitmqctl -n \"$NODE\" set_policy --apply-to queues orders-retry '^orders$' '" +
                  JsonText(MainDefinition(n, m)) + "'");
  // The dead-letter queue's own policy: quarantine.retentionMs as message-ttl, dlqMaxLength as max-length
  // (overflow drop-head, RabbitMQ's default: each dead letter past it drops the oldest).
  double dlq_max_length = m.quorum_mode ? n.dlq_max_length : 0;
  JsValue dlq;
  dlq.kind = JsValue::Kind::kObject;
  if (n.retention_ms > 0) dlq.Set("message-ttl", JsValue::Number(n.retention_ms));
  if (dlq_max_length > 0) dlq.Set("max-length", JsValue::Number(dlq_max_length));
  if (m.no_dlx) {
    lines.push_back("# no dead-letter queue: nothing is kept to replay");
  } else if (!dlq.members.empty()) {
    if (n.retention_ms > 0)
      lines.push_back("# quarantine.retentionMs " + Num(n.retention_ms) + " -> message-ttl on the dead-letter queue");
    if (dlq_max_length > 0) {
      lines.push_back("# dlqMaxLength " + Num(dlq_max_length) +
                      " -> max-length on the dead-letter queue (overflow drop-head: the oldest goes)");
    }
    lines.push_back("rabbitmqctl -n \"$NODE\" set_policy --apply-to queues orders-dlq '^orders\\.dlq$' '" +
                    JsonText(dlq) + "'");
  } else {
    lines.push_back("# quarantine.retentionMs 0: orders.dlq is an ordinary queue and keeps its messages");
  }
  return {"shell", Joined(lines, "\n") + "\n"};
}

}  // namespace dlq::config
