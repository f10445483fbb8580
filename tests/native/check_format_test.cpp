// The checker's output formats (core/check/formats/): Reports built here by hand, each
// written in every format and compared byte for byte with its golden file under
// tests/fixtures/check/formats/ (the Node suite validates the SARIF and JUnit goldens
// against their schemas). DLQ_UPDATE_GOLDENS=1 rewrites the goldens instead of comparing.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>

#include "check.h"
#include "formats/formats.h"

using namespace dlq;
using namespace dlq::check;

namespace {

Finding MakeFinding(std::string rule, Level level, std::string queue, std::string file, int line, std::string message) {
  Finding f;
  f.rule = std::move(rule);
  f.level = level;
  f.queue = std::move(queue);
  f.at = Location{std::move(file), line, 0};
  f.message = std::move(message);
  return f;
}

QueueSummary MakeQueue(std::string name, std::string system, std::string file, int line, std::string dlq,
                       std::optional<int64_t> attempts, std::optional<int64_t> worst_case_ms) {
  return QueueSummary{std::move(name), std::move(system), Location{std::move(file), line, 0},
                      std::move(dlq),  attempts,          worst_case_ms};
}

// Two files, three queues: an error with a link, a warning, a note, a skipped error, a
// finding about a file as a whole (no queue, no line), a reader's note (READER-NOTE).
Report MixedReport() {
  Report r;
  r.queues = {MakeQueue("orders", "sqs", "infra/plan.json", 12, "orders-dlq", 5, 2'460'000),
              MakeQueue("orders-dlq", "sqs", "infra/plan.json", 40, "", std::nullopt, std::nullopt),
              MakeQueue("audit", "rabbitmq-quorum", "rabbit/definitions.json", 7, "", 20, std::nullopt)};
  Finding bounded = MakeFinding("RETRY-OUTLASTS-OUTAGE", Level::kWarning, "orders", "infra/plan.json", 14,
                                "attempt 5 at 41 min → orders-dlq; a 15 min outage is outlasted with probability 0.62");
  bounded.link = "https://dlq-lab.dev/playground.html#v2=abc";
  Finding retention =
      MakeFinding("DLQ-RETENTION", Level::kError, "orders-dlq", "infra/plan.json", 44,
                  "the DLQ keeps messages 4 days, as long as its source (standard queue: must be longer)");
  Finding note = MakeFinding("DLQ-ALARM", Level::kNote, "orders-dlq", "infra/plan.json", 40,
                             "the alarm's QueueName is known after apply");
  Finding skipped = MakeFinding("DLQ-EXISTS", Level::kError, "audit", "rabbit/definitions.json", 9,
                                "no dead-letter-exchange: attempt 20 drops the message");
  skipped.skipped = true;
  skipped.reason = "audit events are best-effort";
  skipped.link = "https://dlq-lab.dev/playground.html#v2=def";
  Finding file =
      MakeFinding("DLQ-ALARM", Level::kWarning, "", "rabbit/definitions.json", 0, "nothing alarms on any DLQ's depth");
  // A reader's remark is reported under a rule id of its own, outside the rule table.
  Finding remark =
      MakeFinding("READER-NOTE", Level::kNote, "audit", "rabbit/definitions.json", 7, "custom schedule, not read");
  r.findings = {bounded, note, retention, file, remark, skipped};
  r.errors = 1;
  r.warnings = 2;
  r.notes = 2;
  r.skipped = 1;
  return r;
}

// Names and messages that would break a careless writer: quotes, markup, newlines, the
// characters GitHub commands reserve, control characters, bytes that are not UTF-8.
Report HostileReport() {
  Report r;
  r.queues = {MakeQueue("q\"<&>'", "bullmq", "dir with space/ünï,c:ode%.json", 3, "d\\lq", 1, 0)};
  Finding f = MakeFinding("DLQ-EXISTS", Level::kError, "q\"<&>'", "dir with space/ünï,c:ode%.json", 3,
                          "line one\nline two\r\ttab \x01 bell \x7f; 100% :: done, ok \xff\xfe end");
  f.link = "https://dlq-lab.dev/playground.html#v2=a&b=<c>";
  r.findings = {f};
  r.errors = 1;
  return r;
}

void CheckGolden(const Report& report, const std::string& name, const char* format, const char* extension) {
  const Result<std::string> out = Format(report, format);
  REQUIRE(out.ok());
  const std::filesystem::path path =
      std::filesystem::path(DLQ_SOURCE_DIR) / "tests/fixtures/check/formats" / (name + extension);
  if (std::getenv("DLQ_UPDATE_GOLDENS") != nullptr) {
    std::ofstream(path, std::ios::binary) << out.value();
    return;
  }
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "missing golden " << path.string() << "; the report writes:\n" << out.value());
  std::ostringstream golden;
  golden << in.rdbuf();
  CHECK_MESSAGE(out.value() == golden.str(), path.string());
}

void CheckAllGoldens(const Report& report, const std::string& name) {
  CheckGolden(report, name, "text", ".text.txt");
  CheckGolden(report, name, "json", ".json");
  CheckGolden(report, name, "junit", ".junit.xml");
  CheckGolden(report, name, "sarif", ".sarif");
  CheckGolden(report, name, "github", ".github.txt");
}

}  // namespace

TEST_CASE("check formats: a mixed report in every format matches its goldens") {
  CheckAllGoldens(MixedReport(), "mixed");
}

TEST_CASE("check formats: an empty report in every format matches its goldens") { CheckAllGoldens(Report{}, "empty"); }

TEST_CASE("check formats: hostile names and messages are escaped in every format") {
  CheckAllGoldens(HostileReport(), "hostile");
}

TEST_CASE("check formats: an unknown format name is refused by name") {
  const Result<std::string> out = Format(Report{}, "xml");
  REQUIRE_FALSE(out.ok());
  CHECK(out.status().code() == Code::kInvalidArgument);
  CHECK(out.status().message() == "--format: expected text, json, junit, sarif or github, got \"xml\"");
}

TEST_CASE("check formats: JSON strings escape quotes, controls and bad UTF-8 in one place") {
  using formats::JsonString;
  CHECK(JsonString("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(JsonString("\n\r\t\b\f") == "\"\\n\\r\\t\\b\\f\"");
  CHECK(JsonString(std::string("\x01\x1f", 2)) == "\"\\u0001\\u001f\"");
  CHECK(JsonString(std::string("\0", 1)) == "\"\\u0000\"");
  CHECK(JsonString("→ ü 🧾") == "\"→ ü 🧾\"");
  CHECK(JsonString("\xff") == "\"\xEF\xBF\xBD\"");
  CHECK(JsonString("\xC0\xAF") == "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");                                  // overlong "/"
  CHECK(JsonString("\xED\xA0\x80") == "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");                  // a surrogate
  CHECK(JsonString("\xF4\x90\x80\x80") == "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");  // past U+10FFFF
  CHECK(JsonString("\xE2\x86") == "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");                                  // truncated
}

TEST_CASE("check formats: XML text escapes markup and drops what XML 1.0 cannot carry") {
  using formats::XmlText;
  CHECK(XmlText("<a href=\"x\">&'</a>") == "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;");
  CHECK(XmlText("a\nb\tc\rd") == "a&#10;b&#9;c&#13;d");
  CHECK(XmlText(std::string("\x00\x01\x1b", 3)) == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
  CHECK(XmlText("\xEF\xBF\xBF") == "\xEF\xBF\xBD");
}

TEST_CASE("check formats: GitHub commands escape data and properties as actions/toolkit does") {
  CHECK(formats::GithubData("100%\r\nok: a,b") == "100%25%0D%0Aok: a,b");
  CHECK(formats::GithubProperty("100%\r\nok: a,b") == "100%25%0D%0Aok%3A a%2Cb");
}

TEST_CASE("check formats: LevelName names each level") {
  CHECK(std::string(LevelName(Level::kNote)) == "note");
  CHECK(std::string(LevelName(Level::kWarning)) == "warning");
  CHECK(std::string(LevelName(Level::kError)) == "error");
}

TEST_CASE("check formats: every rule of the issue's table is described once") {
  CHECK(formats::AllRules().size() == 12);
  CHECK(std::string(formats::DescribeRule("JITTER").id) == "JITTER");
  CHECK(formats::DescribeRule("JITTER").default_level == Level::kWarning);
  CHECK(std::string(formats::DescribeRule("NOT-A-RULE").id).empty());
}

TEST_CASE("check formats: terminal text shows control characters as escapes") {
  CHECK(formats::TerminalText("a\nb\r\tc") == "a\\nb\\r\\tc");
  CHECK(formats::TerminalText("\x1b[31mred\x7f") == "\\x1b[31mred\\x7f");
  CHECK(formats::TerminalText("→ \xff") == "→ \xEF\xBF\xBD");
}

TEST_CASE("check formats: the formats describe exactly the rules Check() runs, in the same order") {
  const std::span<const char* const> ids = RuleIds();
  REQUIRE(ids.size() == formats::AllRules().size());
  for (size_t i = 0; i < ids.size(); ++i) CHECK(std::string(ids[i]) == formats::AllRules()[i].id);
  // Each has its one-line summary and a longer text (SARIF shortDescription, fullDescription).
  for (const formats::RuleText& rule : formats::AllRules()) {
    CHECK(std::string(rule.summary).size() > 10);
    CHECK(std::string(rule.full).size() > std::string(rule.summary).size());
  }
}
