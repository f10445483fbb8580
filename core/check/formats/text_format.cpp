// --format text: for people. Findings grouped by file (in the report's order: file, line,
// rule), each on one line `file:line  LEVEL  RULE  queue  message`; a skipped finding ends
// with its reason; a finding with a link gets an indented "play:" line; a summary closes.
#include <string>

#include "formats/formats.h"

namespace dlq::check::formats {
namespace {

std::string Upper(const char* name) {
  std::string out(name);
  for (char& c : out) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  return out;
}

void AppendFinding(const Finding& f, std::string* out) {
  out->append("  " + TerminalText(LocationText(f.at)) + "  " + Upper(LevelName(f.level)) + "  " + TerminalText(f.rule) +
              "  " + (f.queue.empty() ? std::string("-") : TerminalText(f.queue)) + "  " + TerminalText(f.message));
  if (f.skipped) out->append("  [skipped: " + TerminalText(f.reason) + "]");
  out->push_back('\n');
  if (!f.link.empty()) out->append("      play: " + TerminalText(f.link) + "\n");
}

}  // namespace

std::string Text(const Report& report) {
  std::string out;
  const std::string* file = nullptr;
  for (const Finding& f : report.findings) {
    if (file == nullptr || *file != f.at.file) {
      if (file != nullptr) out.push_back('\n');
      file = &f.at.file;
      out.append(TerminalText(f.at.file) + "\n");
    }
    AppendFinding(f, &out);
  }
  if (report.findings.empty()) out.append("no findings\n");
  else out.push_back('\n');
  out.append(SummaryLine(report) + "\n");
  return out;
}

}  // namespace dlq::check::formats
