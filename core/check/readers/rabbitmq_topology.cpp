// RabbitMQ through Kubernetes: the messaging-topology-operator's resources (apiVersion
// rabbitmq.com/v1beta1): Queue, Policy, Exchange and Binding, several YAML documents in one
// file (`---`). Each document is parsed on its own (ParseYaml) with its lines counted from the
// file's start; other kinds (a Deployment beside them) are passed over. The resources name no
// RabbitMQ version, so a quorum queue without a delivery-limit is an Unknown; a dead-letter
// exchange is resolved only when the file declares Exchanges or Bindings.
#include <string>
#include <string_view>
#include <vector>

#include "broker_readers.h"
#include "config_import.h"
#include "rabbitmq_model.h"

namespace dlq::check {
namespace {

constexpr std::string_view kApiVersion = "rabbitmq.com/v1beta1";
// The most documents read from one file: a hostile stream of `---` lines is refused by its count
// before each empty document costs a tree.
constexpr size_t kMaxDocuments = 10'000;

struct Chunk {
  std::string_view text;
  int first_line;  // the file's line of the chunk's first line, 1-based
};

// The documents of a YAML stream: split at lines that are `---` (or start `--- `) and `...`.
std::vector<Chunk> Documents(std::string_view text) {
  std::vector<Chunk> out;
  size_t start = 0, line_start = 0;
  int line = 1, chunk_line = 1;
  while (line_start <= text.size()) {
    size_t nl = text.find('\n', line_start);
    std::string_view l =
        text.substr(line_start, nl == std::string_view::npos ? std::string_view::npos : nl - line_start);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    const bool marker = l == "---" || l.starts_with("--- ") || l == "...";
    if (marker) {
      out.push_back({text.substr(start, line_start - start), chunk_line});
      start = nl == std::string_view::npos ? text.size() : nl + 1;
      chunk_line = line + 1;
    }
    if (nl == std::string_view::npos) break;
    line_start = nl + 1;
    ++line;
  }
  out.push_back({text.substr(start), chunk_line});
  return out;
}

void Shift(Node& n, int by) {
  n.line += by;
  for (int& l : n.key_lines) l += by;
  for (Node& item : n.items) Shift(item, by);
}

// A parse error of a chunk, its line counted from the file's start.
Status Shifted(const Status& error, const std::string& file, int by) {
  const std::string& m = error.message();
  const std::string prefix = file + ":";
  if (!m.starts_with(prefix)) return error;
  size_t i = prefix.size();
  int line = 0;
  while (i < m.size() && m[i] >= '0' && m[i] <= '9' && line < 100'000'000) line = line * 10 + (m[i++] - '0');
  return Status::InvalidArgument(prefix + std::to_string(line + by) + m.substr(i));
}

std::string Str(const Node* map, std::string_view key, std::string fallback) {
  const Node* v = map != nullptr ? map->Get(key) : nullptr;
  return v != nullptr && v->kind == Node::Kind::kString ? v->scalar : fallback;
}

// A required string of a spec (the operator requires spec.name, and a Policy's spec.pattern).
Result<std::string> Required(const SourceFile& file, const Node& spec, std::string_view key, std::string_view kind) {
  const Node* v = spec.Get(key);
  if (v == nullptr || v->kind != Node::Kind::kString) {
    return ErrorAt({file.path, v != nullptr ? v->line : spec.line, 0},
                   std::string(kind) + " spec." + std::string(key) + ": expected a string, got " +
                       (v != nullptr ? QuotedNode(*v) : std::string("none")));
  }
  return v->scalar;
}

std::vector<RmqSetting> SettingsOf(const SourceFile& file, const Node* map, bool arguments) {
  std::vector<RmqSetting> out;
  if (map == nullptr || !map->IsMap()) return out;
  for (size_t i = 0; i < map->keys.size(); ++i) {
    std::string key = map->keys[i];
    if (arguments && key.starts_with("x-")) key = key.substr(2);
    out.push_back({key, &map->items[i], {file.path, map->key_lines[i], 0}});
  }
  return out;
}

Status Resource(const SourceFile& file, const Node& root, RmqTopology* t) {
  const std::string kind = Str(&root, "kind", "");
  const Node* spec = root.Get("spec");
  if (spec == nullptr || !spec->IsMap()) return ErrorAt({file.path, root.line, 0}, kind + ": expected a spec object");
  const std::string vhost = Str(spec, "vhost", "/");
  const Location at{file.path, spec->KeyLine("name"), 0};  // the resource's name in RabbitMQ
  if (kind == "Queue") {
    Result<std::string> name = Required(file, *spec, "name", kind);
    RETURN_IF_ERROR(name.status());
    RmqQueue q{vhost, name.value(), Str(spec, "type", ""), at, SettingsOf(file, spec->Get("arguments"), true)};
    for (const RmqSetting& s : q.arguments) {
      if (s.key == "queue-type" && s.value->kind == Node::Kind::kString) q.type = s.value->scalar;
    }
    t->queues.push_back(std::move(q));
  } else if (kind == "Policy") {
    Result<std::string> name = Required(file, *spec, "name", kind);
    Result<std::string> pattern = Required(file, *spec, "pattern", kind);
    RETURN_IF_ERROR(name.status());
    RETURN_IF_ERROR(pattern.status());
    RmqPolicy p;
    p.vhost = vhost;
    p.name = name.value();
    p.pattern = pattern.value();
    p.apply_to = Str(spec, "applyTo", "all");
    p.at = at;
    p.pattern_at = {file.path, spec->KeyLine("pattern"), 0};
    if (const Node* priority = spec->Get("priority")) {
      std::optional<int64_t> n = AsInteger(*priority);
      if (!n)
        return ErrorAt({file.path, priority->line, 0},
                       "Policy spec.priority: expected a whole number, got " + QuotedNode(*priority));
      p.priority = *n;
    }
    p.definition = SettingsOf(file, spec->Get("definition"), false);
    t->policies.push_back(std::move(p));
  } else if (kind == "Exchange") {
    Result<std::string> name = Required(file, *spec, "name", kind);
    RETURN_IF_ERROR(name.status());
    const Node* args = spec->Get("arguments");
    t->exchanges.push_back({vhost, name.value(), Str(spec, "type", "direct"), Str(args, "alternate-exchange", ""), at});
    t->has_routing = true;
  } else if (kind == "Binding") {
    t->bindings.push_back({vhost, Str(spec, "source", ""), Str(spec, "destination", ""),
                           Str(spec, "destinationType", "queue"), Str(spec, "routingKey", ""), at});
    t->has_routing = true;
  }
  return Status::Ok();
}

}  // namespace

bool DetectsRabbitmqTopology(std::string_view, std::string_view text, const Node*) {
  return text.find(kApiVersion) != std::string_view::npos &&
         (text.find("kind: Queue") != std::string_view::npos || text.find("kind: Policy") != std::string_view::npos);
}

Status ReadRabbitmqTopology(const SourceFile& file, const Document*, Inventory* out) {
  RmqTopology t;
  t.has_routing = false;
  std::vector<Document> docs;  // kept: the topology points into them
  const std::vector<Chunk> chunks = Documents(file.text);
  if (chunks.size() > kMaxDocuments) {
    return ErrorAt({file.path, chunks[kMaxDocuments].first_line, 0},
                   "expected at most 10,000 YAML documents in one file, got " + std::to_string(chunks.size()));
  }
  for (const Chunk& chunk : chunks) {
    Result<Document> doc = ParseYaml(file.path, chunk.text);
    if (!doc.ok()) return Shifted(doc.status(), file.path, chunk.first_line - 1);
    docs.push_back(std::move(doc).value());
    Shift(docs.back().root, chunk.first_line - 1);
  }
  for (const Document& doc : docs) {
    if (!doc.root.IsMap() || Str(&doc.root, "apiVersion", "") != kApiVersion) continue;
    RETURN_IF_ERROR(Resource(file, doc.root, &t));
  }
  const size_t first = out->queues.size();
  RETURN_IF_ERROR(ResolveRabbitQueues(t, out));
  // Inline skips: a comment inside a Queue resource's document skips for that queue.
  const std::vector<SkipComment> skips = FindSkipComments(file.text);
  for (size_t i = first; i < out->queues.size(); ++i) {
    QueueConfig& q = out->queues[i];
    for (size_t c = 0; c < chunks.size(); ++c) {
      const int begin = chunks[c].first_line, end = c + 1 < chunks.size() ? chunks[c + 1].first_line : 1 << 30;
      if (q.at.line < begin || q.at.line >= end) continue;
      for (const SkipComment& s : skips) {
        if (s.line >= begin && s.line < end) q.skips.push_back(s);
      }
    }
  }
  return Status::Ok();
}

}  // namespace dlq::check
