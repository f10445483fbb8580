// Shared by the checker's reader harnesses (check_reader_fuzz.cpp): what Check must answer
// for any one file, whatever its bytes (docs/check.md "Hostile input").
//  * A refusal (exit 2) is a proper Status (fuzz_check.h) whose message starts "<file>:" and
//    names a line the input has ("<file>:<line>: …"); only the file-level refusals below
//    ("not a format…", an empty stream) speak of the file as a whole.
//  * A report's summary counts equal its findings; every finding names a rule from the core's
//    list (or the reader-note rule), the file checked and a line inside it, UTF-8 text; every
//    queue summary has a name and points inside the file; the findings are sorted by file, line, rule.
//  * The exit code is 0 or 1 for a report, and every output format renders it without error
//    as non-empty UTF-8 (the JSON and SARIF outputs parse as JSON).
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

#include "check.h"
#include "check_tree.h"
#include "document.h"
#include "fuzz_check.h"

namespace dlq::fuzz {

// A refusal of Check on one file `file`: located unless it is about the file as a whole.
inline void CheckCheckRefusal(const Status& s, std::string_view file, std::string_view input) {
  CheckParseRefusal(s, file, input);  // "<file>:<line>: …" with a line the input has, or "<file>: …"
  const std::string& m = s.message();
  const std::string rest = m.substr(file.size() + 1);
  if (!rest.empty() && rest[0] == ' ') {
    // The file as a whole: only when it is in no format this reader reads.
    FUZZ_CHECK(rest.rfind(" not a format dlq-lab check reads", 0) == 0, Show(input) + ": " + s.ToString());
  }
}

inline bool KnownRule(std::string_view rule) {
  if (rule == check::kReaderNoteRule) return true;
  const auto ids = check::RuleIds();
  return std::any_of(ids.begin(), ids.end(), [&](const char* id) { return rule == id; });
}

inline void CheckLocation(const check::Location& at, std::string_view file, int lines, const std::string& where) {
  FUZZ_CHECK(at.file == file, where + ": at " + at.file);
  FUZZ_CHECK(at.line >= 1 && at.line <= lines, where + ": line " + std::to_string(at.line));
}

inline void CheckReport(const check::Report& report, std::string_view file, std::string_view input) {
  const int lines = Lines(input);
  int errors = 0, warnings = 0, notes = 0, skipped = 0;
  for (const check::Finding& f : report.findings) {
    const std::string where = Show(input) + ": finding " + f.rule + " " + Show(f.message);
    FUZZ_CHECK(KnownRule(f.rule), where);
    CheckLocation(f.at, file, lines, where);
    FUZZ_CHECK(!f.message.empty() && IsValidUtf8(f.message) && IsValidUtf8(f.queue), where);
    FUZZ_CHECK(!f.skipped || !f.reason.empty(), where);
    if (f.skipped) ++skipped;
    else if (f.level == check::Level::kError) ++errors;
    else if (f.level == check::Level::kWarning) ++warnings;
    else ++notes;
  }
  FUZZ_CHECK(
      report.errors == errors && report.warnings == warnings && report.notes == notes && report.skipped == skipped,
      Show(input) + ": summary counts differ from the findings");
  for (size_t i = 1; i < report.findings.size(); ++i) {
    const check::Finding &a = report.findings[i - 1], &b = report.findings[i];
    FUZZ_CHECK(std::tie(a.at.file, a.at.line) <= std::tie(b.at.file, b.at.line),
               Show(input) + ": findings out of order");
  }
  for (const check::QueueSummary& q : report.queues) {
    const std::string where = Show(input) + ": queue " + Show(q.name);
    CheckLocation(q.at, file, lines, where);
    FUZZ_CHECK(!q.name.empty() && IsValidUtf8(q.name) && IsValidUtf8(q.dlq) && IsValidUtf8(q.system), where);
    FUZZ_CHECK(!q.attempts || *q.attempts >= 0, where);
    FUZZ_CHECK(!q.worst_case_ms || *q.worst_case_ms >= 0, where);
  }
  for (const check::Level fail_on : {check::Level::kNote, check::Level::kWarning, check::Level::kError}) {
    const int code = check::ExitCode(report, fail_on);
    FUZZ_CHECK(code == 0 || code == 1, Show(input));
  }
  for (const char* format : {"text", "json", "junit", "sarif", "github"}) {
    const std::string where = Show(input) + ": format " + format;
    Result<std::string> out = check::Format(report, format);
    FUZZ_CHECK(out.ok(), where + ": " + out.status().ToString());
    FUZZ_CHECK(!out.value().empty() && IsValidUtf8(out.value()), where);
    if (std::string_view(format) == "json" || std::string_view(format) == "sarif") {
      Result<check::Document> parsed = check::ParseJson("out.json", out.value());
      FUZZ_CHECK(parsed.ok(), where + ": " + parsed.status().ToString());
    }
  }
}

}  // namespace dlq::fuzz
