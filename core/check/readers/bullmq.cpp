// BullMQ: a job-options JSON, alone ({ "attempts": 5, "backoff": { … } }) or as a queue's
// `defaultJobOptions` beside the Worker's settings ({ "defaultJobOptions": { … },
// "maxStalledCount": 2, "lockDuration": 60000 }, or those under "worker"), through the core's
// BullMQ reader (core/config/bullmq_config.cpp). The queue is named by a "name" member, else by
// the file's name. Defaults (cited in docs/check.md): attempts 1, no backoff, failed jobs kept,
// maxStalledCount 1, lockDuration 30 s.
#include <string>
#include <string_view>

#include "broker_readers.h"
#include "config_import.h"
#include "internal/translation.h"

namespace dlq::check {
namespace {

// What the core's reader reads; the other job and Worker options change nothing the rules judge.
bool Modelled(std::string_view key) {
  return key == "attempts" || key == "backoff" || key == "removeOnFail" || key == "maxStalledCount";
}

// The options in force as the core's reader takes them, with the line of each key.
struct Gathered {
  config::JsValue options;
  KeyLines lines;
};

Status Gather(const SourceFile& file, const Node& map, Gathered* g, QueueConfig* q) {
  for (size_t i = 0; i < map.keys.size(); ++i) {
    const std::string& key = map.keys[i];
    const Node& value = map.items[i];
    const Location at{file.path, map.key_lines[i], 0};
    if (key == "lockDuration") {  // the Worker's lock: the lab's lease
      std::optional<int64_t> ms = AsInteger(value);
      if (!ms || kLeaseMsField.Check(*ms).ok() == false) {
        return ErrorAt(at, "lockDuration: expected a whole number of ms from 1 to 86400000, got " + QuotedNode(value));
      }
      q->policy.lease_ms = *ms;
      q->settings.emplace_back("leaseMs", at);
      continue;
    }
    const Node* type = key == "backoff" && value.IsMap() ? value.Get("type") : nullptr;
    if (type != nullptr && type->kind == Node::Kind::kString && type->scalar != "fixed" &&
        type->scalar != "exponential") {
      q->unknowns.push_back(
          {"backoff.type \"" + type->scalar + "\" (a backoffStrategy in the Worker's code, not read)", at, "policy"});
      continue;
    }
    if (Modelled(key) || !config::IsBullmqKey(key)) {
      g->options.Set(key, ToJsValue(value));  // an unknown key is refused by the reader, by name
      g->lines.emplace_back(key, at);
    } else {
      q->notes.push_back({key + ": not read (no bearing on retries or the failed set)", at});
    }
  }
  return Status::Ok();
}

}  // namespace

bool DetectsBullmq(std::string_view path, std::string_view, const Node* root) {
  if (root == nullptr || !root->IsMap()) return false;
  const Node* defaults = root->Get("defaultJobOptions");
  if (defaults != nullptr && defaults->IsMap()) return true;
  if (root->Get("queues") != nullptr || root->Get("Resources") != nullptr || root->Get("resource_changes") != nullptr)
    return false;
  const bool options =
      root->Get("attempts") != nullptr || root->Get("backoff") != nullptr || root->Get("removeOnFail") != nullptr;
  return options && (path.find("bull") != std::string_view::npos || root->Get("attempts") != nullptr);
}

Status ReadBullmq(const SourceFile& file, const Document* doc, Inventory* out) {
  if (doc == nullptr || !doc->root.IsMap())
    return ErrorAt({file.path, 1, 0}, "expected an object of BullMQ job options");
  const Node& root = doc->root;
  QueueConfig q;
  q.at = {file.path, root.line, 0};
  q.name = FileStem(file.path);
  if (const Node* name = root.Get("name"); name != nullptr && name->kind == Node::Kind::kString) q.name = name->scalar;
  q.id = q.name;
  Gathered g;
  g.options.kind = config::JsValue::Kind::kObject;
  const Node* defaults = root.Get("defaultJobOptions");
  if (defaults != nullptr && !defaults->IsMap()) {
    return ErrorAt({file.path, defaults->line, 0},
                   "defaultJobOptions: expected an object, got " + QuotedNode(*defaults));
  }
  if (defaults != nullptr) {
    q.at.line = root.KeyLine("defaultJobOptions");
    RETURN_IF_ERROR(Gather(file, *defaults, &g, &q));
    // Beside it: the Worker's settings, at the top or under "worker" / "settings"; the rest is the Queue's own.
    for (const char* key : {"maxStalledCount", "lockDuration"}) {
      if (const Node* v = root.Get(key)) {
        Node one;
        one.kind = Node::Kind::kMap;
        one.keys = {key};
        one.key_lines = {root.KeyLine(key)};
        one.items = {*v};
        RETURN_IF_ERROR(Gather(file, one, &g, &q));
      }
    }
    for (const char* key : {"worker", "settings"}) {
      const Node* w = root.Get(key);
      if (w != nullptr && w->IsMap()) RETURN_IF_ERROR(Gather(file, *w, &g, &q));
    }
  } else {
    RETURN_IF_ERROR(Gather(file, root, &g, &q));
  }
  for (const auto& [from, field] : {std::pair<const char*, const char*>{"attempts", "maxAttempts"},
                                    {"backoff", "backoff.kind"},
                                    {"backoff", "backoff.baseMs"},
                                    {"backoff", "backoff.capMs"},
                                    {"backoff", "backoff.jitter"},
                                    {"backoff", "backoff.jitterPermille"},
                                    {"removeOnFail", "removeOnFail"},
                                    {"removeOnFail", "removeOnFailCount"},
                                    {"removeOnFail", "quarantine.retentionMs"}}) {
    for (size_t i = 0, n = g.lines.size(); i < n; ++i) {
      if (g.lines[i].first == from) g.lines.emplace_back(field, g.lines[i].second);
    }
  }
  const Location fallback = q.at;
  RETURN_IF_ERROR(ApplyImport(config::ReadBullmq(g.options), g.lines, fallback, &q));
  if (q.policy.remove_on_fail) {
    q.terminal = Terminal::kDropped;
    q.drop_cause = "removeOnFail: true";
  } else {
    q.terminal = Terminal::kKeptHere;  // BullMQ's failed set
  }
  out->queues.push_back(std::move(q));
  return Status::Ok();
}

}  // namespace dlq::check
