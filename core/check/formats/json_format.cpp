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

std::string OrNull(const std::optional<int64_t>& value) {
  return value ? std::to_string(*value) : std::string("null");
}

std::string QueueObject(const QueueSummary& q) {
  return "{" + Key("name") + JsonString(q.name) + ", " + Key("system") + JsonString(q.system) + ", " +
         Key("file") + JsonString(q.at.file) + ", " + Key("line") + std::to_string(q.at.line) + ", " +
         Key("dlq") + JsonString(q.dlq) + ", " + Key("attempts") + OrNull(q.attempts) + ", " +
         Key("worstCaseMs") + OrNull(q.worst_case_ms) + "}";
}

std::string FindingObject(const Finding& f) {
  return "{" + Key("rule") + JsonString(f.rule) + ", " + Key("level") + JsonString(LevelName(f.level)) + ", " +
         Key("queue") + JsonString(f.queue) + ", " + Key("file") + JsonString(f.at.file) + ", " + Key("line") +
         std::to_string(f.at.line) + ", " + Key("message") + JsonString(f.message) + ", " + Key("link") +
         JsonString(f.link) + ", " + Key("skipped") + (f.skipped ? "true" : "false") + ", " + Key("reason") +
         JsonString(f.reason) + "}";
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
  out.append("  " + Key("summary") + "{" + Key("queues") + std::to_string(report.queues.size()) + ", " +
             Key("errors") + std::to_string(report.errors) + ", " + Key("warnings") +
             std::to_string(report.warnings) + ", " + Key("notes") + std::to_string(report.notes) + ", " +
             Key("skipped") + std::to_string(report.skipped) + "}\n}\n");
  return out;
}

}  // namespace dlq::check::formats
