// --format json: one object in the shape (docs/check.md "Output"), keys in that
// order, one queue or finding per line. Integers print as integers; `attempts` and
// `worstCaseMs` are null when unbounded or unknown; every other field is always present
// with its type (an empty string when there is nothing to say).
#include <cstdint>
#include <optional>
#include <string>

#include "formats/formats.h"

namespace dlq::check::formats {
namespace {

std::string Key(const char* name) { return JsonString(name) + ": "; }

std::string OrNull(const std::optional<int64_t>& value) { return value ? std::to_string(*value) : std::string("null"); }

// "key": value pairs joined by ", " inside braces.
class Object {
 public:
  Object& Add(const char* key, const std::string& json_value) {
    text_ += text_.size() > 1 ? ", " : "";
    text_ += Key(key);
    text_ += json_value;
    return *this;
  }
  std::string Close() { return text_ + "}"; }

 private:
  std::string text_ = "{";
};

std::string QueueObject(const QueueSummary& q) {
  return Object()
      .Add("name", JsonString(q.name))
      .Add("system", JsonString(q.system))
      .Add("file", JsonString(q.at.file))
      .Add("line", std::to_string(q.at.line))
      .Add("dlq", JsonString(q.dlq))
      .Add("attempts", OrNull(q.attempts))
      .Add("worstCaseMs", OrNull(q.worst_case_ms))
      .Close();
}

std::string FindingObject(const Finding& f) {
  return Object()
      .Add("rule", JsonString(f.rule))
      .Add("level", JsonString(LevelName(f.level)))
      .Add("queue", JsonString(f.queue))
      .Add("file", JsonString(f.at.file))
      .Add("line", std::to_string(f.at.line))
      .Add("message", JsonString(f.message))
      .Add("link", JsonString(f.link))
      .Add("skipped", f.skipped ? "true" : "false")
      .Add("reason", JsonString(f.reason))
      .Close();
}

template <typename T, typename Write>
void AppendArray(const char* name, const std::vector<T>& items, Write write, std::string* out) {
  out->append("  " + Key(name));
  if (items.empty()) {
    out->append("[],\n");
    return;
  }
  out->append("[\n");
  for (size_t i = 0; i < items.size(); ++i) {
    out->append("    " + write(items[i]) + (i + 1 < items.size() ? ",\n" : "\n"));
  }
  out->append("  ],\n");
}

}  // namespace

std::string Json(const Report& report) {
  std::string out = "{\n  " + Key("version") + "1,\n";
  AppendArray("queues", report.queues, QueueObject, &out);
  AppendArray("findings", report.findings, FindingObject, &out);
  out += "  " + Key("summary");
  out += Object()
             .Add("queues", std::to_string(report.queues.size()))
             .Add("errors", std::to_string(report.errors))
             .Add("warnings", std::to_string(report.warnings))
             .Add("notes", std::to_string(report.notes))
             .Add("skipped", std::to_string(report.skipped))
             .Close();
  out += "\n}\n";
  return out;
}

}  // namespace dlq::check::formats
