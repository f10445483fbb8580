// --format sarif: SARIF 2.1.0 for code scanning (GitHub's upload-sarif). One run; its
// tool.driver names dlq-lab, its version and docs/check.md, and lists the rules the findings name (id,
// shortDescription, fullDescription, helpUri into docs/check.md, defaultConfiguration.level); each finding is a result
// with ruleId, ruleIndex, level, message and a physical location (the file as a relative URI reference, startLine when
// known). A skipped finding is a result with an external suppression whose justification is the skip's reason.
// Validated with `sarif-multitool validate` in npm test.
#include <algorithm>
#include <string>
#include <vector>

#include "formats/formats.h"

namespace dlq::check::formats {
namespace {

// The checker's documentation as the site publishes it (scripts/site.mjs copies docs/check.md to
// dist/docs/check.md); each rule is a "### <ID>" heading there, whose anchor is the id in lower
// case (tests/node/check-corpus.test.mjs checks every rule has one).
constexpr const char* kRulesDoc = "https://dlq-lab.dev/docs/check.md";
// READER-NOTE is not a rule (check.h kReaderNoteRule) but its findings need a description too.
constexpr const char* kReaderNoteSummary = "A reader's remark about a queue (not a rule).";
constexpr const char* kReaderNoteText =
    "A reader's remark about a queue: a setting it does not read, a value taken from a parameter's default, a "
    "schedule given in code. Not a rule: never failing, never skipped.";

// A path as a URI reference (RFC 3986): unreserved characters and "/" as they are, every
// other byte percent-encoded; an absolute path becomes a file:// URI.
std::string PathUri(const std::string& path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = !path.empty() && path[0] == '/' ? "file://" : "";
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                       c == '.' || c == '_' || c == '~' || c == '/';
    if (plain) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xF]);
    }
  }
  return out;
}

std::string Anchor(const std::string& id) {
  std::string out;
  for (const char c : id) out.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
  return out;
}

std::vector<std::string> RulesUsed(const Report& report) {
  std::vector<std::string> ids;
  for (const RuleText& rule : AllRules()) {
    const bool used = std::any_of(report.findings.begin(), report.findings.end(),
                                  [&](const Finding& f) { return f.rule == rule.id; });
    if (used) ids.emplace_back(rule.id);
  }
  for (const Finding& f : report.findings) {
    if (std::find(ids.begin(), ids.end(), f.rule) == ids.end()) ids.push_back(f.rule);
  }
  return ids;
}

// A rule of the table with its summary and default level; any other id a finding names (a
// reader's note, READER-NOTE) by its id, at the level of its first finding.
std::string RuleObject(const Report& report, const std::string& id) {
  RuleText rule = DescribeRule(id);
  if (*rule.id == '\0') {
    for (const Finding& f : report.findings) {
      if (f.rule == id) {
        rule.default_level = f.level;
        break;
      }
    }
  }
  const bool reader_note = *rule.id == '\0' && id == kReaderNoteRule;
  const std::string summary = *rule.summary != '\0' ? rule.summary : reader_note ? kReaderNoteSummary : id;
  std::string full = rule.full;
  if (full.empty() && reader_note) full = kReaderNoteText;
  if (full.empty()) full = summary;
  return "{\"id\": " + JsonString(id) + ", \"shortDescription\": {\"text\": " + JsonString(summary) +
         "}, \"fullDescription\": {\"text\": " + JsonString(full) +
         "}, \"helpUri\": " + JsonString(std::string(kRulesDoc) + "#" + Anchor(id)) +
         ", \"defaultConfiguration\": {\"level\": " + JsonString(LevelName(rule.default_level)) + "}}";
}

std::string ResultObject(const Finding& f, size_t rule_index) {
  std::string text = (f.queue.empty() ? "" : f.queue + ": ") + f.message;
  if (!f.link.empty()) text += " Play it: " + f.link;
  std::string location =
      "{\"physicalLocation\": {\"artifactLocation\": {\"uri\": " + JsonString(PathUri(f.at.file)) + "}";
  if (f.at.line > 0) location += ", \"region\": {\"startLine\": " + std::to_string(f.at.line) + "}";
  location += "}}";
  std::string out = "{\"ruleId\": " + JsonString(f.rule) + ", \"ruleIndex\": " + std::to_string(rule_index) +
                    ", \"level\": " + JsonString(LevelName(f.level)) + ", \"message\": {\"text\": " + JsonString(text) +
                    "}, \"locations\": [" + location + "]";
  if (f.skipped) {
    out += ", \"suppressions\": [{\"kind\": \"external\", \"justification\": " + JsonString(f.reason) + "}]";
  }
  return out + "}";
}

template <typename T, typename Write>
std::string Lines(const std::vector<T>& items, Write write, const char* indent) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += indent + write(items[i]) + (i + 1 < items.size() ? ",\n" : "\n");
  return out;
}

}  // namespace

std::string Sarif(const Report& report) {
  const std::vector<std::string> rules = RulesUsed(report);
  std::vector<std::string> results;
  for (const Finding& f : report.findings) {
    const auto index = static_cast<size_t>(std::find(rules.begin(), rules.end(), f.rule) - rules.begin());
    results.push_back(ResultObject(f, index));
  }
  const auto same = [](const std::string& s) { return s; };
  std::string out =
      "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"version\": \"2.1.0\",\n"
      "  \"runs\": [\n    {\n      \"tool\": {\"driver\": {\"name\": \"dlq-lab\", \"version\": " +
      JsonString(kToolVersion) + ", \"informationUri\": " + JsonString(kRulesDoc) + ", \"rules\": [";
  if (rules.empty()) {
    out += "]}},\n";
  } else {
    out += "\n";
    out += Lines(
        rules, [&](const std::string& id) { return RuleObject(report, id); }, "        ");
    out += "      ]}},\n";
  }
  out += "      \"results\": [";
  if (results.empty()) {
    out += "]\n";
  } else {
    out += "\n";
    out += Lines(results, same, "        ");
    out += "      ]\n";
  }
  out += "    }\n  ]\n}\n";
  return out;
}

}  // namespace dlq::check::formats
