// The report's output formats (check.h Format()): one file each, and the escaping they
// share (escape.cpp: every string that reaches JSON, XML or a GitHub workflow command goes
// through one function here, so a hostile queue name or message cannot break the output).
//
// Every format is a pure function of the Report: same report, same bytes, natively and in
// WebAssembly (no clock, no locale, no hash order).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "check.h"

namespace dlq::check::formats {

std::string Text(const Report& report);
std::string Json(const Report& report);
std::string Junit(const Report& report);
std::string Sarif(const Report& report);
std::string Github(const Report& report);

// A JSON string literal with its quotes (RFC 8259: ", \ and control characters escaped;
// bytes that are not UTF-8 become U+FFFD, so the output is always valid JSON).
std::string JsonString(std::string_view text);
// XML 1.0 character data or attribute value: & < > " ' escaped; characters XML 1.0 cannot
// carry (control characters other than tab, LF, CR) and bytes that are not UTF-8 become U+FFFD.
std::string XmlText(std::string_view text);
// A GitHub workflow command's message (escapeData: % CR LF) and property value
// (escapeProperty: also : and ,), as actions/toolkit's command.ts escapes them.
std::string GithubData(std::string_view text);
std::string GithubProperty(std::string_view text);
// One line of terminal text: valid UTF-8 with control characters shown as escapes
// ("\n", "\t", "\x1b"), so a value cannot break a line or drive the terminal.
std::string TerminalText(std::string_view text);
// Valid UTF-8: each byte sequence that is not UTF-8 replaced with U+FFFD.
std::string ValidUtf8(std::string_view text);

// What a rule checks, in one line (the "holds when" column), its default level, and a
// longer text (what it computes, when it fails, what a note means: docs/check.md "### <ID>"
// says the same with its sources), for the formats that describe rules (SARIF's
// tool.driver.rules shortDescription / fullDescription, JUnit's suites).
struct RuleText {
  const char* id;
  Level default_level;
  const char* summary;
  const char* full;
};
// The rules in the table order; an id not in the table is described by its id.
const RuleText& DescribeRule(std::string_view id);
// Every rule, in table order.
std::span<const RuleText> AllRules();

// "1 error", "2 warnings": a count with its noun, for the text and github summaries.
std::string Count(int n, std::string_view singular, std::string_view plural);
// "checked 3 queues: 1 error, 0 warnings, 0 notes, 1 skipped".
std::string SummaryLine(const Report& report);

}  // namespace dlq::check::formats
