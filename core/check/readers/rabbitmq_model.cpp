#include "rabbitmq_model.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "config_import.h"
#include "internal/translation.h"
#include "rabbitmq_pattern.h"

namespace dlq::check {
namespace {

// RabbitMQ's consumer_timeout default, 30 minutes: the longest a delivery stays unacknowledged
// before the channel is closed and the message returned (the lab's lease). docs/check.md cites it.
constexpr int64_t kConsumerTimeoutMs = 30 * 60'000;
// How many exchange-to-exchange hops a dead letter is followed through.
constexpr int kMaxExchangeHops = 16;

constexpr std::array<std::string_view, 10> kRetryKeys = {
    "delivery-limit", "dead-letter-exchange", "dead-letter-routing-key", "dead-letter-strategy", "overflow",
    "message-ttl",    "max-length",           "delayed-retry-type",      "delayed-retry-min",    "delayed-retry-max"};
// RabbitMQ 4.3's delayed retry (rabbitmq.com/docs/quorum-queues#delayed-retry): read on a quorum
// queue of a file whose rabbit_version is 4.3 or later; elsewhere a note says it is ignored.
constexpr std::array<std::string_view, 3> kDelayedRetryKeys = {"delayed-retry-type", "delayed-retry-min",
                                                               "delayed-retry-max"};
bool IsDelayedRetryKey(std::string_view key) {
  return std::find(kDelayedRetryKeys.begin(), kDelayedRetryKeys.end(), key) != kDelayedRetryKeys.end();
}
bool HasDelayedRetry(const RmqTopology& t) { return t.major > 4 || (t.major == 4 && t.minor >= 3); }

// A queue's (or exchange's) id: "vhost/name", the default vhost "/" written once ("/orders").
std::string Key(std::string_view vhost, std::string_view name) {
  std::string k(vhost == "/" ? "" : vhost);
  k += '/';
  k += name;
  return k;
}

// The queue types a policy's `apply-to` reaches, as bits: classic 1, quorum 2, stream 4.
uint8_t TypeBit(std::string_view type) {
  return type == "classic" ? 1 : type == "quorum" ? 2 : type == "stream" ? 4 : 0;
}
std::optional<uint8_t> AppliesTo(std::string_view apply_to) {
  if (apply_to == "all" || apply_to == "queues") return uint8_t{7};
  if (apply_to == "classic_queues") return uint8_t{1};
  if (apply_to == "quorum_queues") return uint8_t{2};
  if (apply_to == "streams") return uint8_t{4};
  if (apply_to == "exchanges") return uint8_t{0};
  return std::nullopt;
}

struct CompiledPolicy {
  const RmqPolicy* policy;
  PolicyPattern pattern;
  uint8_t applies;
  size_t order;  // its place in the file: the first of equal priorities is taken
};

// Per vhost, its policies: those whose pattern is one exact name (^name$) by that name, the
// others by priority, highest first, so a queue is matched in time linear in the patterns that
// can match it (10,000 queues × 2,000 policies well under a second).
class PolicyIndex {
 public:
  Status Build(const std::vector<RmqPolicy>& policies) {
    for (size_t i = 0; i < policies.size(); ++i) {
      const RmqPolicy& p = policies[i];
      std::optional<uint8_t> applies = AppliesTo(p.apply_to);
      if (!applies) {
        return ErrorAt(p.at, "policy " + p.name +
                                 " apply-to: expected all, queues, exchanges, classic_queues, "
                                 "quorum_queues or streams, got " +
                                 p.apply_to);
      }
      Result<PolicyPattern> compiled = PolicyPattern::Compile(p.pattern);
      if (!compiled.ok()) return ErrorAt(p.pattern_at, "policy " + p.name + " " + compiled.status().message());
      Vhost& v = by_vhost_[p.vhost];
      if (compiled->IsExact()) {
        std::string name(compiled->ExactName());
        v.exact[name].push_back({&p, std::move(compiled).value(), *applies, i});
      } else {
        v.scanned.push_back({&p, std::move(compiled).value(), *applies, i});
      }
    }
    for (auto& [vhost, v] : by_vhost_) {
      std::stable_sort(v.scanned.begin(), v.scanned.end(), [](const CompiledPolicy& a, const CompiledPolicy& b) {
        return a.policy->priority > b.policy->priority;
      });
    }
    return Status::Ok();
  }
  // The policy in force for a queue (nullptr: none), and another match of the same priority.
  const RmqPolicy* Match(const RmqQueue& q, std::string_view type, const RmqPolicy** tie) const {
    *tie = nullptr;
    auto it = by_vhost_.find(q.vhost);
    if (it == by_vhost_.end()) return nullptr;
    const uint8_t bit = TypeBit(type);
    const CompiledPolicy* best = nullptr;
    const CompiledPolicy* same = nullptr;
    auto consider = [&](const CompiledPolicy& c) {
      if ((c.applies & bit) == 0) return;
      if (best == nullptr || c.policy->priority > best->policy->priority) {
        best = &c;
        same = nullptr;
      } else if (c.policy->priority == best->policy->priority) {
        if (c.order < best->order) {
          same = best;
          best = &c;
        } else {
          same = &c;
        }
      }
    };
    if (auto exact = it->second.exact.find(q.name); exact != it->second.exact.end()) {
      for (const CompiledPolicy& c : exact->second) consider(c);
    }
    for (const CompiledPolicy& c : it->second.scanned) {
      if (best != nullptr && c.policy->priority < best->policy->priority) break;
      if (c.pattern.Matches(q.name)) consider(c);
    }
    if (same != nullptr) *tie = same->policy;
    return best != nullptr ? best->policy : nullptr;
  }

 private:
  struct Vhost {
    std::unordered_map<std::string, std::vector<CompiledPolicy>> exact;
    std::vector<CompiledPolicy> scanned;
  };
  std::unordered_map<std::string, Vhost> by_vhost_;
};

// Exchanges and bindings by vhost/name, to follow a dead letter from its exchange. It keeps
// pointers into `t`, which must outlive it.
class Router {
 public:
  explicit Router(const RmqTopology& t) {
    for (const RmqExchange& e : t.exchanges) exchanges_[Key(e.vhost, e.name)] = &e;
    for (const RmqBinding& b : t.bindings) from_[Key(b.vhost, b.source)].push_back(&b);
    for (const RmqQueue& q : t.queues) queues_.insert(Key(q.vhost, q.name));
  }
  // The exchange's type when it exists: declared, the default "" or a built-in amq.* one.
  std::optional<std::string> Type(std::string_view vhost, std::string_view name) const {
    if (name.empty()) return std::string("direct");
    auto it = exchanges_.find(Key(vhost, name));
    if (it != exchanges_.end()) return it->second->type;
    for (auto [builtin, type] : {std::pair<std::string_view, std::string_view>{"amq.direct", "direct"},
                                 {"amq.fanout", "fanout"},
                                 {"amq.topic", "topic"},
                                 {"amq.headers", "headers"},
                                 {"amq.match", "headers"}}) {
      if (name == builtin) return std::string(type);
    }
    return std::nullopt;
  }
  // The queue ids a message with `routing_key` published to `exchange` reaches.
  std::vector<std::string> Route(std::string_view vhost, std::string_view exchange,
                                 std::string_view routing_key) const {
    std::vector<std::string> out;
    std::unordered_set<std::string> visited;
    Follow(vhost, exchange, routing_key, 0, visited, out);
    return out;
  }

 private:
  void Follow(std::string_view vhost, std::string_view exchange, std::string_view rk, int hops,
              std::unordered_set<std::string>& visited, std::vector<std::string>& out) const {
    if (hops > kMaxExchangeHops || !visited.insert(Key(vhost, exchange)).second) return;
    if (exchange.empty()) {  // the default exchange: to the queue named by the routing key
      if (queues_.contains(Key(vhost, rk))) Add(Key(vhost, rk), out);
      return;
    }
    std::optional<std::string> type = Type(vhost, exchange);
    if (!type) return;
    bool routed = false;
    auto it = from_.find(Key(vhost, exchange));
    if (it != from_.end()) {
      for (const RmqBinding* b : it->second) {
        if (!BindingMatches(*type, b->routing_key, rk)) continue;
        routed = true;
        if (b->destination_type == "exchange") {
          Follow(vhost, b->destination, rk, hops + 1, visited, out);
        } else if (queues_.contains(Key(vhost, b->destination))) {
          Add(Key(vhost, b->destination), out);
        }
      }
    }
    auto declared = exchanges_.find(Key(vhost, exchange));
    if (!routed && declared != exchanges_.end() && !declared->second->alternate.empty()) {
      Follow(vhost, declared->second->alternate, rk, hops + 1, visited, out);
    }
  }
  static void Add(std::string id, std::vector<std::string>& out) {
    if (std::find(out.begin(), out.end(), id) == out.end()) out.push_back(std::move(id));
  }
  // direct: equal keys; topic: * one word, # any words; fanout, headers and plugin types: every
  // binding (headers are not known statically, so every bound queue may be reached).
  static bool BindingMatches(std::string_view type, std::string_view binding_key, std::string_view rk) {
    if (type == "direct") return binding_key == rk;
    if (type == "topic") return TopicMatches(binding_key, rk);
    return true;
  }
  static std::vector<std::string_view> Words(std::string_view s) {
    std::vector<std::string_view> out;
    size_t start = 0;
    for (size_t dot = s.find('.'); dot != std::string_view::npos; dot = s.find('.', start)) {
      out.push_back(s.substr(start, dot - start));
      start = dot + 1;
    }
    out.push_back(s.substr(start));
    return out;
  }
  static bool TopicMatches(std::string_view pattern, std::string_view key) {
    std::vector<std::string_view> p = Words(pattern), k = Words(key);
    // ok[i][j]: p[i..] matches k[j..]; filled from the end (linear in |p| × |k|).
    std::vector<std::vector<char>> ok(p.size() + 1, std::vector<char>(k.size() + 1, 0));
    ok[p.size()][k.size()] = 1;
    for (size_t i = p.size(); i-- > 0;) {
      for (size_t j = k.size() + 1; j-- > 0;) {
        if (p[i] == "#") ok[i][j] = ok[i + 1][j] || (j < k.size() && ok[i][j + 1]);
        else ok[i][j] = j < k.size() && (p[i] == "*" || p[i] == k[j]) && ok[i + 1][j + 1];
      }
    }
    return ok[0][0] != 0;
  }

  std::unordered_map<std::string, const RmqExchange*> exchanges_;
  std::unordered_map<std::string, std::vector<const RmqBinding*>> from_;
  std::unordered_set<std::string> queues_;
};

std::string QueueType(const RmqQueue& q, const RmqTopology& t) {
  if (!q.type.empty()) return q.type;
  for (const auto& [vhost, type] : t.default_queue_types) {
    if (vhost == q.vhost) return type;
  }
  return "classic";  // RabbitMQ's default queue type
}

// The settings in force: the policy's definition, each key a queue argument sets overridden.
std::vector<RmqSetting> InForce(const RmqQueue& q, const RmqPolicy* policy) {
  std::vector<RmqSetting> out;
  for (const RmqSetting& a : q.arguments) {
    if (IsRabbitRetryKey(a.key)) out.push_back(a);
  }
  if (policy == nullptr) return out;
  for (const RmqSetting& d : policy->definition) {
    if (!IsRabbitRetryKey(d.key)) continue;
    auto has = [&](const RmqSetting& s) { return s.key == d.key; };
    if (std::none_of(out.begin(), out.end(), has)) out.push_back(d);
  }
  return out;
}

const RmqSetting* Find(const std::vector<RmqSetting>& settings, std::string_view key) {
  for (const RmqSetting& s : settings) {
    if (s.key == key) return &s;
  }
  return nullptr;
}

Result<std::string> TextSetting(const RmqSetting* s, std::string_view fallback,
                                std::initializer_list<std::string_view> allowed) {
  if (s == nullptr) return std::string(fallback);
  std::optional<std::string> text = s->value->kind == Node::Kind::kString ? AsText(*s->value) : std::nullopt;
  std::string list;
  for (std::string_view a : allowed) list += (list.empty() ? "\"" : ", \"") + std::string(a) + "\"";
  if (text && (allowed.size() == 0 || std::find(allowed.begin(), allowed.end(), *text) != allowed.end())) return *text;
  return ErrorAt(s->at, s->key + ": expected " + (allowed.size() == 0 ? std::string("a string") : "one of " + list) +
                            ", got " + QuotedNode(*s->value));
}

// The policy through the core's RabbitMQ reader (core/config/rabbitmq_quorum_config.cpp): the
// keys it models, so its mapping (delivery-limit L: L + 1 deliveries; no DLX: dropped) is the one used.
Status ReadPolicy(const RmqTopology& t, const std::vector<RmqSetting>& settings, bool quorum, std::string_view overflow,
                  QueueConfig* q) {
  config::JsValue definition;
  definition.kind = config::JsValue::Kind::kObject;
  KeyLines lines;
  const bool delayed_retry = quorum && HasDelayedRetry(t);
  for (const RmqSetting& s : settings) {
    if (IsDelayedRetryKey(s.key) && !delayed_retry) {
      q->notes.push_back(
          {s.key + " is read by RabbitMQ 4.3 quorum queues only (" +
               (quorum ? "this file's rabbit_version is " + (t.version.empty() ? std::string("not given") : t.version)
                       : std::string("this is a classic queue")) +
               "); it is ignored",
           s.at});
      continue;
    }
    const bool modelled = (s.key == "delivery-limit" && quorum) || s.key == "message-ttl" ||
                          s.key == "dead-letter-strategy" || (s.key == "max-length" && overflow == "drop-head") ||
                          IsDelayedRetryKey(s.key);
    if (s.key == "dead-letter-exchange") {
      // The default exchange "" is a dead-letter exchange too; the reader only needs "one is set".
      definition.Set(s.key, config::JsValue::String(s.value->scalar.empty() ? "(default exchange)" : s.value->scalar));
    } else if (modelled) {
      definition.Set(s.key, ToJsValue(*s.value));
    } else {
      continue;
    }
    lines.emplace_back(s.key, s.at);
  }
  for (const auto& [from, field] : {std::pair<std::string_view, std::string_view>{"delivery-limit", "maxAttempts"},
                                    {"delivery-limit", "deliveryLimit"},
                                    {"dead-letter-exchange", "deadLetterExchange"},
                                    {"message-ttl", "messageTtlMs"},
                                    {"max-length", "maxLength"},
                                    {"delayed-retry-type", "delayedRetryType"},
                                    {"delayed-retry-min", "delayedRetryMinMs"},
                                    {"delayed-retry-max", "delayedRetryMaxMs"}}) {
    if (const RmqSetting* s = Find(settings, from)) lines.emplace_back(std::string(field), s->at);
  }
  return ApplyImport(config::ReadRabbitmq(definition), lines, q->at, q);
}

// The delivery limit in force once the version's default and the queue type are known.
void Bound(const RmqTopology& t, const std::vector<RmqSetting>& settings, bool quorum, QueueConfig* q) {
  const RmqSetting* limit = Find(settings, "delivery-limit");
  if (!quorum) {
    q->policy.delivery_limit = DeliveryLimit::kClassicQueue;
    q->bounded = false;
    q->unbounded_because =
        "a classic queue keeps no delivery count: no delivery-limit applies, a returned message is "
        "redelivered without end";
    if (limit != nullptr)
      q->notes.push_back({"delivery-limit is read by quorum queues only; this classic queue ignores it", limit->at});
    return;
  }
  if (limit != nullptr) {
    if (AsInteger(*limit->value).value_or(0) < 0) {
      q->bounded = false;
      q->unbounded_because = "delivery-limit -1: no limit";
    }
    return;
  }
  if (t.major >= 4) {
    q->policy.delivery_limit = DeliveryLimit::kUnset4;
    q->policy.max_attempts = q->policy.Budget();  // 20 returns: 21 deliveries
    q->settings.emplace_back("deliveryLimit", t.version_at);
    q->settings.emplace_back("maxAttempts", t.version_at);
  } else if (t.major == 3) {
    q->bounded = false;
    q->unbounded_because = "delivery-limit absent: RabbitMQ " + t.version + " sets none (4.0 and later default to 20)";
    q->settings.emplace_back("deliveryLimit", t.version_at);
  } else {
    q->bounded = false;
    q->unbounded_because = "delivery-limit absent and no RabbitMQ version given";
    q->unknowns.push_back(
        {"delivery-limit (absent: RabbitMQ 3.x sets none, 4.0 and later 20; the file names no version)", q->at,
         "policy"});
  }
}

Status DeadLetter(const RmqTopology& t, const Router& router, const RmqQueue& rq,
                  const std::vector<RmqSetting>& settings, QueueConfig* q) {
  const RmqSetting* dlx = Find(settings, "dead-letter-exchange");
  if (dlx == nullptr) {
    q->terminal = Terminal::kDropped;
    q->drop_cause = "no dead-letter-exchange";
    return Status::Ok();
  }
  Result<std::string> name = TextSetting(dlx, "", {});
  if (!name.ok()) return name.status();
  Result<std::string> rk = TextSetting(Find(settings, "dead-letter-routing-key"), rq.name, {});
  if (!rk.ok()) return rk.status();
  q->dead_letter_exchange = name.value();
  q->dead_letter_at = dlx->at;
  q->terminal = Terminal::kDeadLetter;
  if (!t.has_routing && !name->empty()) {
    q->terminal = Terminal::kUnknown;
    q->unknowns.push_back(
        {"dead-letter-exchange \"" + name.value() + "\" (declared outside this file: where it routes is not known)",
         dlx->at, "dead_letter_to"});
    return Status::Ok();
  }
  q->dead_letter_exchange_exists = router.Type(rq.vhost, name.value()).has_value();
  // A dead letter keeps its routing key unless dead-letter-routing-key is set; the key is taken
  // to be the queue's own name, as a publish through the default exchange gives it.
  q->dead_letter_reaches = router.Route(rq.vhost, name.value(), rk.value());
  if (!q->dead_letter_reaches.empty()) q->dead_letter_to = q->dead_letter_reaches.front();
  return Status::Ok();
}

Result<QueueConfig> Resolve(const RmqTopology& t, const PolicyIndex& index, const Router& router, const RmqQueue& rq,
                            const std::string& type) {
  QueueConfig q;
  q.id = Key(rq.vhost, rq.name);
  q.name = rq.name;
  q.at = rq.at;
  const RmqPolicy* tie = nullptr;
  const RmqPolicy* policy = index.Match(rq, type, &tie);
  if (tie != nullptr) {
    q.notes.push_back({"policies " + policy->name + " and " + tie->name + " both match at priority " +
                           std::to_string(policy->priority) + "; RabbitMQ picks one, the reader took " + policy->name,
                       tie->at});
  }
  std::vector<RmqSetting> settings = InForce(rq, policy);
  Result<std::string> overflow =
      TextSetting(Find(settings, "overflow"), "drop-head", {"drop-head", "reject-publish", "reject-publish-dlx"});
  if (!overflow.ok()) return overflow.status();
  Result<std::string> strategy =
      TextSetting(Find(settings, "dead-letter-strategy"), "at-most-once", {"at-most-once", "at-least-once"});
  if (!strategy.ok()) return strategy.status();
  q.overflow = overflow.value();
  q.dead_letter_strategy = strategy.value();
  const bool quorum = type == "quorum";
  RETURN_IF_ERROR(ReadPolicy(t, settings, quorum, q.overflow, &q));
  q.policy.lease_ms = kConsumerTimeoutMs;
  Bound(t, settings, quorum, &q);
  if (const RmqSetting* ttl = Find(settings, "message-ttl")) {
    q.retention_ms = AsInteger(*ttl->value);
    q.retention_at = ttl->at;
  }
  RETURN_IF_ERROR(DeadLetter(t, router, rq, settings, &q));
  return q;
}

}  // namespace

bool IsRabbitRetryKey(std::string_view key) {
  return std::find(kRetryKeys.begin(), kRetryKeys.end(), key) != kRetryKeys.end();
}

Status ResolveRabbitQueues(const RmqTopology& topology, Inventory* out) {
  PolicyIndex index;
  RETURN_IF_ERROR(index.Build(topology.policies));
  Router router(topology);
  const size_t first = out->queues.size();
  std::unordered_map<std::string, size_t> at;  // id -> index in out->queues
  std::unordered_set<std::string> streams;
  for (const RmqQueue& rq : topology.queues) {
    std::string type = QueueType(rq, topology);
    if (type == "stream") {  // a stream dead-letters nothing: its consumers move their own offset
      streams.insert(Key(rq.vhost, rq.name));
      continue;
    }
    if (type != "classic" && type != "quorum") {
      return ErrorAt(rq.at, "queue " + rq.name +
                                " x-queue-type: expected \"classic\", \"quorum\" or \"stream\", got \"" + type + "\"");
    }
    Result<QueueConfig> q = Resolve(topology, index, router, rq, type);
    if (!q.ok()) return q.status();
    at[q->id] = out->queues.size();
    out->queues.push_back(std::move(q).value());
  }
  // A queue routes back into another when its dead letters reach a queue that dead-letters into it.
  for (size_t i = first; i < out->queues.size(); ++i) {
    QueueConfig& q = out->queues[i];
    for (const std::string& reached : q.dead_letter_reaches) {
      if (streams.contains(reached)) {
        q.notes.push_back({"dead letters reach the stream " + reached +
                               ": kept by the stream's own retention (max-age, "
                               "max-length-bytes); a stream is not judged as a queue",
                           q.dead_letter_at});
      }
      auto it = at.find(reached);
      if (it == at.end()) continue;
      const std::vector<std::string>& back = out->queues[it->second].dead_letter_reaches;
      if (std::find(back.begin(), back.end(), q.id) != back.end()) q.routes_back_to.push_back(reached);
    }
  }
  return Status::Ok();
}

}  // namespace dlq::check
