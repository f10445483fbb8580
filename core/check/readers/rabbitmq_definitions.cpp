// RabbitMQ: a definitions export (rabbitmqctl export_definitions, the management UI's
// "Export definitions", GET /api/definitions): queues, policies, exchanges and bindings,
// resolved by rabbitmq_model.cpp. A per-vhost export (no "vhost" on its items) is read as vhost "/".
#include <string>
#include <string_view>

#include "rabbitmq_model.h"
#include "broker_readers.h"
#include "config_import.h"

namespace dlq::check {
namespace {

Location At(const SourceFile& file, int line) { return {file.path, line, 0}; }

// A string member of `item`, required or with a fallback.
Result<std::string> Text(const SourceFile& file, const Node& item, std::string_view key, std::string_view what,
                         const std::string* fallback) {
  const Node* v = item.Get(key);
  if (v == nullptr || v->IsNull()) {
    if (fallback != nullptr) return *fallback;
    return ErrorAt(At(file, item.line),
                   std::string(what) + ": expected a \"" + std::string(key) + "\" string, got none");
  }
  if (v->kind != Node::Kind::kString) {
    return ErrorAt(At(file, v->line),
                   std::string(what) + " " + std::string(key) + ": expected a string, got " + QuotedNode(*v));
  }
  return v->scalar;
}

// The list under `key` (absent: none), each item a map.
Result<const Node*> List(const SourceFile& file, const Node& root, std::string_view key) {
  const Node* list = root.Get(key);
  if (list == nullptr || list->IsNull()) return static_cast<const Node*>(nullptr);
  if (!list->IsList())
    return ErrorAt(At(file, list->line), std::string(key) + ": expected a list, got " + QuotedNode(*list));
  for (const Node& item : list->items) {
    if (!item.IsMap()) return ErrorAt(At(file, item.line), std::string(key) + ": expected each item to be an object");
  }
  return list;
}

// A map of settings (a queue's arguments, a policy's definition), the x- prefix dropped.
Result<std::vector<RmqSetting>> Settings(const SourceFile& file, const Node* map, std::string_view what,
                                         bool arguments) {
  std::vector<RmqSetting> out;
  if (map == nullptr || map->IsNull()) return out;
  if (!map->IsMap())
    return ErrorAt(At(file, map->line), std::string(what) + ": expected an object, got " + QuotedNode(*map));
  for (size_t i = 0; i < map->keys.size(); ++i) {
    std::string key = map->keys[i];
    if (arguments && key.starts_with("x-")) key = key.substr(2);
    out.push_back({key, &map->items[i], At(file, map->key_lines[i])});
  }
  return out;
}

int Major(std::string_view version) {
  int major = 0;
  for (char c : version) {
    if (c < '0' || c > '9' || major > 1000) break;
    major = major * 10 + (c - '0');
  }
  return major;
}

Status Version(const SourceFile& file, const Node& root, RmqTopology* t) {
  for (std::string_view key : {"rabbit_version", "rabbitmq_version"}) {
    const Node* v = root.Get(key);
    if (v == nullptr) continue;
    if (v->kind != Node::Kind::kString || Major(v->scalar) == 0) {
      return ErrorAt(At(file, v->line),
                     std::string(key) + ": expected a version such as \"3.13.7\" or \"4.0.5\", got " + QuotedNode(*v));
    }
    t->version = v->scalar;
    t->major = Major(v->scalar);
    const size_t dot = v->scalar.find('.');
    t->minor = dot == std::string::npos ? 0 : Major(std::string_view(v->scalar).substr(dot + 1));
    t->version_at = At(file, root.KeyLine(key));
    return Status::Ok();
  }
  return Status::Ok();
}

Status Vhosts(const SourceFile& file, const Node& root, RmqTopology* t) {
  Result<const Node*> vhosts = List(file, root, "vhosts");
  if (!vhosts.ok()) return vhosts.status();
  if (vhosts.value() == nullptr) return Status::Ok();
  for (const Node& v : vhosts.value()->items) {
    const Node* metadata = v.Get("metadata");
    const Node* type =
        metadata != nullptr && metadata->IsMap() ? metadata->Get("default_queue_type") : v.Get("default_queue_type");
    const Node* name = v.Get("name");
    if (type != nullptr && type->kind == Node::Kind::kString && name != nullptr && name->kind == Node::Kind::kString) {
      t->default_queue_types.emplace_back(name->scalar, type->scalar);
    }
  }
  return Status::Ok();
}

Status Queues(const SourceFile& file, const Node& root, RmqTopology* t) {
  static const std::string kRoot = "/";
  Result<const Node*> queues = List(file, root, "queues");
  if (!queues.ok()) return queues.status();
  if (queues.value() == nullptr) return Status::Ok();
  for (const Node& item : queues.value()->items) {
    RmqQueue q;
    Result<std::string> name = Text(file, item, "name", "queue", nullptr);
    if (!name.ok()) return name.status();
    Result<std::string> vhost = Text(file, item, "vhost", "queue " + name.value(), &kRoot);
    if (!vhost.ok()) return vhost.status();
    q.name = name.value();
    q.vhost = vhost.value();
    q.at = At(file, item.KeyLine("name"));
    Result<std::vector<RmqSetting>> args =
        Settings(file, item.Get("arguments"), "queue " + q.name + " arguments", true);
    if (!args.ok()) return args.status();
    for (RmqSetting& s : args.value()) {
      if (s.key != "queue-type") {
        q.arguments.push_back(std::move(s));
      } else if (s.value->kind == Node::Kind::kString) {
        q.type = s.value->scalar;
      } else {
        return ErrorAt(s.at, "queue " + q.name + " x-queue-type: expected \"classic\", \"quorum\" or \"stream\", got " +
                                 QuotedNode(*s.value));
      }
    }
    t->queues.push_back(std::move(q));
  }
  return Status::Ok();
}

Status Policies(const SourceFile& file, const Node& root, RmqTopology* t) {
  static const std::string kRoot = "/", kAll = "all";
  Result<const Node*> policies = List(file, root, "policies");
  if (!policies.ok()) return policies.status();
  if (policies.value() == nullptr) return Status::Ok();
  for (const Node& item : policies.value()->items) {
    RmqPolicy p;
    Result<std::string> name = Text(file, item, "name", "policy", nullptr);
    if (!name.ok()) return name.status();
    p.name = name.value();
    Result<std::string> vhost = Text(file, item, "vhost", "policy " + p.name, &kRoot);
    Result<std::string> pattern = Text(file, item, "pattern", "policy " + p.name, nullptr);
    Result<std::string> apply_to = Text(file, item, "apply-to", "policy " + p.name, &kAll);
    for (const auto* r : {&vhost, &pattern, &apply_to}) RETURN_IF_ERROR(r->status());
    p.vhost = vhost.value();
    p.pattern = pattern.value();
    p.apply_to = apply_to.value();
    p.at = At(file, item.KeyLine("name"));
    p.pattern_at = At(file, item.KeyLine("pattern"));
    if (const Node* priority = item.Get("priority")) {
      std::optional<int64_t> n = AsInteger(*priority);
      if (!n)
        return ErrorAt(At(file, priority->line),
                       "policy " + p.name + " priority: expected a whole number, got " + QuotedNode(*priority));
      p.priority = *n;
    }
    Result<std::vector<RmqSetting>> definition =
        Settings(file, item.Get("definition"), "policy " + p.name + " definition", false);
    if (!definition.ok()) return definition.status();
    p.definition = std::move(definition).value();
    t->policies.push_back(std::move(p));
  }
  return Status::Ok();
}

Status Routing(const SourceFile& file, const Node& root, RmqTopology* t) {
  static const std::string kRoot = "/", kEmpty, kQueue = "queue", kDirect = "direct";
  Result<const Node*> exchanges = List(file, root, "exchanges");
  Result<const Node*> bindings = List(file, root, "bindings");
  RETURN_IF_ERROR(exchanges.status());
  RETURN_IF_ERROR(bindings.status());
  for (const Node* list = exchanges.value(); list != nullptr; list = nullptr) {
    for (const Node& item : list->items) {
      RmqExchange e;
      Result<std::string> name = Text(file, item, "name", "exchange", nullptr);
      RETURN_IF_ERROR(name.status());
      Result<std::string> vhost = Text(file, item, "vhost", "exchange " + name.value(), &kRoot);
      Result<std::string> type = Text(file, item, "type", "exchange " + name.value(), &kDirect);
      RETURN_IF_ERROR(vhost.status());
      RETURN_IF_ERROR(type.status());
      e = {vhost.value(), name.value(), type.value(), "", At(file, item.line)};
      const Node* args = item.Get("arguments");
      const Node* alternate = args != nullptr && args->IsMap() ? args->Get("alternate-exchange") : nullptr;
      if (alternate != nullptr && alternate->kind == Node::Kind::kString) e.alternate = alternate->scalar;
      t->exchanges.push_back(std::move(e));
    }
  }
  for (const Node* list = bindings.value(); list != nullptr; list = nullptr) {
    for (const Node& item : list->items) {
      Result<std::string> source = Text(file, item, "source", "binding", nullptr);
      Result<std::string> destination = Text(file, item, "destination", "binding", nullptr);
      Result<std::string> vhost = Text(file, item, "vhost", "binding", &kRoot);
      Result<std::string> type = Text(file, item, "destination_type", "binding", &kQueue);
      Result<std::string> key = Text(file, item, "routing_key", "binding", &kEmpty);
      for (const auto* r : {&source, &destination, &vhost, &type, &key}) RETURN_IF_ERROR(r->status());
      t->bindings.push_back(
          {vhost.value(), source.value(), destination.value(), type.value(), key.value(), At(file, item.line)});
    }
  }
  return Status::Ok();
}

}  // namespace

bool DetectsRabbitmqDefinitions(std::string_view, std::string_view, const Node* root) {
  if (root == nullptr || !root->IsMap()) return false;
  const Node* queues = root->Get("queues");
  const Node* policies = root->Get("policies");
  const bool lists = (queues != nullptr && queues->IsList()) || (policies != nullptr && policies->IsList());
  return lists &&
         (root->Get("rabbit_version") != nullptr || root->Get("rabbitmq_version") != nullptr ||
          root->Get("bindings") != nullptr || root->Get("exchanges") != nullptr || root->Get("vhosts") != nullptr);
}

Status ReadRabbitmqDefinitions(const SourceFile& file, const Document* doc, Inventory* out) {
  if (doc == nullptr || !doc->root.IsMap()) return ErrorAt({file.path, 1, 0}, "expected a RabbitMQ definitions object");
  RmqTopology t;
  RETURN_IF_ERROR(Version(file, doc->root, &t));
  RETURN_IF_ERROR(Vhosts(file, doc->root, &t));
  RETURN_IF_ERROR(Queues(file, doc->root, &t));
  RETURN_IF_ERROR(Policies(file, doc->root, &t));
  RETURN_IF_ERROR(Routing(file, doc->root, &t));
  return ResolveRabbitQueues(t, out);
}

}  // namespace dlq::check
