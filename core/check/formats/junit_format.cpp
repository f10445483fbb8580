// --format junit: one <testsuite> per rule (the table order, then any other rule a
// finding names), one <testcase> per queue name in it. A testcase fails with one <failure>
// per error or warning finding, is <skipped> when its only findings are skipped ones (the
// reason as message), and carries notes (and skipped findings beside a failure) in
// <system-out>. No finding: a passing testcase. Times are 0: the report has no clock.
// Valid against the JUnit schema in tests/schemas/junit.xsd (docs/check.md "Output").
#include <algorithm>
#include <string>
#include <vector>

#include "formats/formats.h"

namespace dlq::check::formats {
namespace {

struct Case {
  std::string queue;
  std::vector<const Finding*> findings;
};

std::string Attr(const char* name, const std::string& value) {
  return std::string(" ") + name + "=\"" + XmlText(value) + "\"";
}

// The rules in table order, then any other rule the findings name (in report order).
std::vector<std::string> RuleOrder(const Report& report) {
  std::vector<std::string> rules;
  for (const RuleText& rule : AllRules()) rules.emplace_back(rule.id);
  for (const Finding& f : report.findings) {
    if (std::find(rules.begin(), rules.end(), f.rule) == rules.end()) rules.push_back(f.rule);
  }
  return rules;
}

// The queue names of the report, then any other name a finding carries ("" names a file).
std::vector<std::string> QueueOrder(const Report& report) {
  std::vector<std::string> names;
  const auto add = [&](const std::string& name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  };
  for (const QueueSummary& q : report.queues) add(q.name);
  for (const Finding& f : report.findings) add(f.queue);
  return names;
}

bool Fails(const Finding& f) { return !f.skipped && f.level != Level::kNote; }

struct CaseText {
  std::string xml;
  bool failed = false, skipped = false;
};

CaseText WriteCase(const std::string& rule, const Case& c) {
  CaseText out;
  std::string failures, skips, system_out;
  for (const Finding* f : c.findings) {
    std::string body = LocationText(f->at) + ": " + f->message + (f->link.empty() ? "" : "\nplay: " + f->link);
    if (Fails(*f)) {
      failures += "      <failure" + Attr("type", LevelName(f->level)) + Attr("message", f->message) + ">" +
                  XmlText(body) + "</failure>\n";
    } else if (f->skipped) {
      skips += "      <skipped" + Attr("message", f->reason) + "/>\n";
      system_out += std::string(LevelName(f->level)) + " (skipped: " + f->reason + "): " + body + "\n";
    } else {
      system_out += std::string(LevelName(f->level)) + ": " + body + "\n";
    }
  }
  out.failed = !failures.empty();
  out.skipped = !out.failed && !skips.empty();
  const std::string name = c.queue.empty() ? (c.findings.empty() ? "" : c.findings.front()->at.file) : c.queue;
  out.xml = "    <testcase" + Attr("name", name) + Attr("classname", "dlq-lab." + rule) + Attr("time", "0");
  const std::string body = failures + (out.skipped ? skips : "") +
                           (system_out.empty() ? "" : "      <system-out>" + XmlText(system_out) + "</system-out>\n");
  out.xml += body.empty() ? "/>\n" : ">\n" + body + "    </testcase>\n";
  return out;
}

}  // namespace

std::string Junit(const Report& report) {
  const std::vector<std::string> queues = QueueOrder(report);
  std::string suites;
  int tests = 0, failures = 0;
  for (const std::string& rule : RuleOrder(report)) {
    std::string cases;
    int suite_tests = 0, suite_failures = 0, suite_skipped = 0;
    for (const std::string& queue : queues) {
      Case c{queue, {}};
      for (const Finding& f : report.findings) {
        if (f.rule == rule && f.queue == queue) c.findings.push_back(&f);
      }
      // A finding about a file (no queue) is a testcase only where it occurs.
      if (queue.empty() && c.findings.empty()) continue;
      const CaseText text = WriteCase(rule, c);
      cases += text.xml;
      suite_failures += text.failed ? 1 : 0;
      suite_skipped += text.skipped ? 1 : 0;
      ++suite_tests;
    }
    tests += suite_tests;
    failures += suite_failures;
    suites += "  <testsuite" + Attr("name", rule) + Attr("tests", std::to_string(suite_tests)) +
              Attr("failures", std::to_string(suite_failures)) + Attr("errors", "0") +
              Attr("skipped", std::to_string(suite_skipped)) + Attr("time", "0");
    suites += cases.empty() ? "/>\n" : ">\n" + cases + "  </testsuite>\n";
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites" + Attr("name", "dlq-lab") +
         Attr("tests", std::to_string(tests)) + Attr("failures", std::to_string(failures)) + Attr("errors", "0") +
         Attr("time", "0") + ">\n" + suites + "</testsuites>\n";
}

}  // namespace dlq::check::formats
