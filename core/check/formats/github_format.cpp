// --format github: GitHub Actions workflow commands, one annotation per finding:
// `::error file=F,line=L,title=RULE::queue: message` (::warning, ::notice for a note or a
// skipped finding), escaped as actions/toolkit escapes them (formats.h), then the summary
// as a plain log line. An annotation does not fail a job; the exit code does.
#include <string>

#include "formats/formats.h"

namespace dlq::check::formats {
namespace {

const char* Command(const Finding& f) {
  if (f.skipped) return "notice";
  switch (f.level) {
    case Level::kError: return "error";
    case Level::kWarning: return "warning";
    case Level::kNote: return "notice";
  }
  return "error";
}

}  // namespace

std::string Github(const Report& report) {
  std::string out;
  for (const Finding& f : report.findings) {
    std::string properties = "file=" + GithubProperty(f.at.file);
    if (f.at.line > 0) properties += ",line=" + std::to_string(f.at.line);
    properties += ",title=" + GithubProperty(f.rule + (f.skipped ? " (skipped)" : ""));
    std::string message = (f.queue.empty() ? "" : f.queue + ": ") + f.message;
    if (f.skipped) message += "\nSkipped: " + f.reason;
    if (!f.link.empty()) message += "\nPlay it: " + f.link;
    out += "::" + std::string(Command(f)) + " " + properties + "::" + GithubData(message) + "\n";
  }
  out += "dlq-lab: " + SummaryLine(report) + "\n";
  return ValidUtf8(out);
}

}  // namespace dlq::check::formats
