// Kafka Connect: a sink connector's JSON as the REST API takes it ({"name": …, "config": {…}})
// or its bare config map, told apart from the other JSON inputs by an errors.* or
// connector.class key (no other format has one). Its errors.* settings go through the core's
// reader (core/config/kafka_connect_config.cpp), so they mean what the Import reads. Defaults
// (cited in docs/check.md, from apache/kafka's ConnectorConfig): errors.tolerance none,
// errors.retry.timeout 0, errors.retry.delay.max.ms 60000, no DLQ topic.
//   * tolerance none: a record that fails for good fails the task (terminal: dropped, its
//     cause saying the task stops: no DLQ receives it).
//   * tolerance all with a DLQ topic: kept in that topic; with none: dropped (skipped).
//   * errors.retry.timeout -1: retried without end (unbounded).
#include <string>
#include <string_view>

#include "broker_readers.h"
#include "config_import.h"
#include "internal/translation.h"

namespace dlq::check {
namespace {

bool ConnectKeys(const Node& map) {
  if (!map.IsMap()) return false;
  for (const std::string& key : map.keys) {
    if (key.starts_with("errors.") || key == "connector.class") return true;
  }
  return false;
}

const Node* ConfigOf(const Node& root) {
  const Node* config = root.Get("config");
  return config != nullptr && config->IsMap() ? config : &root;
}

}  // namespace

bool DetectsKafkaConnect(std::string_view, std::string_view, const Node* root) {
  return root != nullptr && root->IsMap() && ConnectKeys(*ConfigOf(*root));
}

Status ReadKafkaConnect(const SourceFile& file, const Document* doc, Inventory* out) {
  if (doc == nullptr || !doc->root.IsMap())
    return ErrorAt({file.path, 1, 0}, "expected a Kafka Connect connector config object");
  const Node& root = doc->root;
  const Node& config = *ConfigOf(root);
  QueueConfig q;
  q.at = {file.path, &config == &root ? root.line : root.KeyLine("config"), 0};
  q.name = FileStem(file.path);
  for (const Node* holder : {&root, &config}) {
    if (const Node* name = holder->Get("name"); name != nullptr && name->kind == Node::Kind::kString)
      q.name = name->scalar;
  }
  q.id = q.name;
  KeyLines lines;
  config::JsValue map;
  map.kind = config::JsValue::Kind::kObject;
  for (size_t i = 0; i < config.keys.size() && i < config.items.size(); ++i) {
    const std::string& key = config.keys[i];
    map.Set(key, ToJsValue(config.items[i]));
    const Location at{file.path, config.key_lines[i], 0};
    lines.emplace_back(key, at);
    // The lab's field each errors.* key sets, at that key's line.
    if (key == "errors.tolerance") lines.emplace_back("toleranceAll", at);
    if (key == "errors.deadletterqueue.topic.name") lines.emplace_back("dlqTopic", at);
    if (key == "errors.deadletterqueue.context.headers.enable") lines.emplace_back("contextHeaders", at);
    if (key == "errors.retry.timeout") lines.emplace_back("retryTimeoutMs", at);
    if (key == "errors.retry.delay.max.ms") {
      for (const char* field : {"backoff.kind", "backoff.baseMs", "backoff.capMs", "backoff.jitter"})
        lines.emplace_back(field, at);
    }
  }
  RETURN_IF_ERROR(ApplyImport(config::ReadKafkaConnect(map), lines, q.at, &q));
  auto line_of = [&](std::string_view key) {
    for (const auto& [k, at] : lines) {
      if (k == key) return at;
    }
    return q.at;
  };
  const Node* topic = config.Get("errors.deadletterqueue.topic.name");
  if (!q.policy.tolerance_all) {
    q.terminal = Terminal::kDropped;
    q.drop_cause = "errors.tolerance none: the task fails and stops on it, and no DLQ topic receives it";
    q.dead_letter_at = line_of("errors.tolerance");
  } else if (q.policy.dlq_topic && topic != nullptr) {
    q.terminal = Terminal::kKeptHere;
    q.kept_in = "the DLQ topic " + topic->scalar;
    q.dead_letter_at = line_of("errors.deadletterqueue.topic.name");
  } else {
    q.terminal = Terminal::kDropped;
    q.drop_cause = "errors.tolerance all with no errors.deadletterqueue.topic.name: skipped";
    q.dead_letter_at = line_of("errors.tolerance");
  }
  if (q.policy.retry_timeout_ms == kMaxTimeMs) {
    q.bounded = false;
    q.unbounded_because = "errors.retry.timeout -1";
  }
  out->queues.push_back(std::move(q));
  return Status::Ok();
}

}  // namespace dlq::check
