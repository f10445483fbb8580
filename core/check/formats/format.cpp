// Format(): the report in the format a user names (check.h), and the rule descriptions the
// formats that describe rules share (formats.h).
#include <array>
#include <string>
#include <string_view>

#include "check.h"
#include "formats/formats.h"

namespace dlq::check {

Result<std::string> Format(const Report& report, std::string_view format) {
  if (format == "text") return formats::Text(report);
  if (format == "json") return formats::Json(report);
  if (format == "junit") return formats::Junit(report);
  if (format == "sarif") return formats::Sarif(report);
  if (format == "github") return formats::Github(report);
  return Status::InvalidArgument("--format: expected text, json, junit, sarif or github, got \"" +
                                 formats::ValidUtf8(format) + "\"");
}

namespace formats {
namespace {

// The rule table (docs/check.md "Rules"), "holds when" as one line each.
constexpr std::array<RuleText, 11> kRules{{
    {"DLQ-EXISTS", Level::kError, "A terminal failure lands where it is kept (a DLQ, a Dead set, a failed set), not dropped."},
    {"DLQ-DEAD-END", Level::kError, "The DLQ does not route back into its source."},
    {"DLQ-RETENTION", Level::kError, "The DLQ keeps a message longer than its source does."},
    {"DLQ-TYPE-MATCH", Level::kError, "A FIFO source has a FIFO DLQ, a standard one a standard DLQ."},
    {"RMQ-DLX-BOUND", Level::kError, "The dead-letter exchange exists and reaches at least one queue."},
    {"RMQ-AT-LEAST-ONCE", Level::kError, "dead-letter-strategy at-least-once comes with overflow reject-publish."},
    {"RETRY-BOUNDED", Level::kError, "Every message reaches success or its DLQ within a finite number of attempts (and goals.maxTimeToDlq)."},
    {"RETRY-OUTLASTS-OUTAGE", Level::kWarning, "The retries outlast an outage of goals.outage with probability at least goals.outageProbability."},
    {"BACKOFF-CAP", Level::kWarning, "No single delay exceeds goals.maxDelay."},
    {"JITTER", Level::kWarning, "Retries that failed together do not come back together."},
    {"DLQ-ALARM", Level::kWarning, "Something alarms on the DLQ's depth."},
}};

}  // namespace

std::span<const RuleText> AllRules() { return kRules; }

const RuleText& DescribeRule(std::string_view id) {
  for (const RuleText& rule : kRules) {
    if (id == rule.id) return rule;
  }
  // A rule this table does not know (added to rules/ and not here): described by its id.
  static const RuleText kUnknown{"", Level::kError, ""};
  return kUnknown;
}

}  // namespace formats
}  // namespace dlq::check
