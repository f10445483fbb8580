// Judge (check.h): the join, every rule, the skips, the queues' summaries, the findings' order.
#include <algorithm>
#include <tuple>

#include "check.h"
#include "join.h"
#include "rules/rule.h"

namespace dlq::check {

namespace {

// `text` matches `pattern`, whose * stands for any run of characters and ? for one.
bool GlobMatches(std::string_view pattern, std::string_view text) {
  size_t p = 0, t = 0, star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p, ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++, resume = t;
    } else if (star != std::string_view::npos) {
      p = star + 1, t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool IsRuleId(std::string_view id) {
  for (const char* known : RuleIds()) {
    if (id == known) return true;
  }
  return false;
}

std::string RuleIdList() {
  std::string out;
  for (const char* id : RuleIds()) out += (out.empty() ? "" : ", ") + std::string(id);
  return out;
}

Status CheckSkip(const Location& at, std::string_view rule, std::string_view reason) {
  if (!IsRuleId(rule)) {
    return Status::InvalidArgument(LocationText(at) + ": skip: expected a rule id (" + RuleIdList() + "), got \"" +
                                   std::string(rule) + "\"");
  }
  if (reason.empty()) {
    return Status::InvalidArgument(LocationText(at) + ": skip of " + std::string(rule) + ": a reason is required");
  }
  return Status::Ok();
}

Status CheckSkips(const Inventory& inventory, const CheckConfig& config) {
  for (const Skip& skip : config.skips) RETURN_IF_ERROR(CheckSkip(skip.at, skip.rule, skip.reason));
  for (const QueueConfig& q : inventory.queues) {
    for (const SkipComment& c : q.skips) {
      RETURN_IF_ERROR(CheckSkip(Location{q.at.file, c.line, 0}, c.rule, c.reason));
    }
  }
  return Status::Ok();
}

// Marks `f` skipped when a configuration skip or an inline skip of `queue` names its rule.
void ApplySkips(const CheckConfig& config, const QueueConfig& queue, Finding* f) {
  for (const SkipComment& c : queue.skips) {
    if (c.rule == f->rule) {
      f->skipped = true, f->reason = c.reason;
      return;
    }
  }
  for (const Skip& skip : config.skips) {
    if (skip.rule == f->rule && GlobMatches(skip.queue, queue.name)) {
      f->skipped = true, f->reason = skip.reason;
      return;
    }
  }
}

// What a reader could not read, as a note of its own (kReaderNoteRule; never skipped, never failing).
Finding ReaderFinding(const QueueConfig& queue, const ReaderNote& note) {
  Finding f;
  f.rule = kReaderNoteRule;
  f.level = Level::kNote;
  f.queue = queue.name;
  f.at = note.at;
  f.message = note.text;
  return f;
}

QueueSummary Summarise(const JoinedQueue& j) {
  const QueueConfig& q = *j.queue;
  QueueSummary s;
  s.name = q.name, s.system = q.system, s.at = q.at;
  if (q.terminal == Terminal::kDeadLetter) s.dlq = j.dlq_name;
  bool unknown = !UnknownsAbout(q, "policy").empty();
  if (q.bounded && !j.worst.unbounded && !unknown) {
    s.attempts = j.worst.attempts;
    s.worst_case_ms = j.worst.time_ms;
  }
  return s;
}

}  // namespace

Result<Report> Judge(const Inventory& inventory, const CheckOptions& options) {
  RETURN_IF_ERROR(CheckSkips(inventory, options.config));
  Result<Joined> joined = Join(inventory);
  if (!joined.ok()) return joined.status();
  ScheduleCache schedules;
  RuleContext ctx{joined.value(), options, &schedules};
  Report report;
  for (const JoinedQueue& j : joined->queues) {
    report.queues.push_back(Summarise(j));
    for (const ReaderNote& note : j.queue->notes) report.findings.push_back(ReaderFinding(*j.queue, note));
    for (const Rule& rule : Rules()) {
      size_t first = report.findings.size();
      rule.judge(rule, ctx, j, &report.findings);
      for (size_t i = first; i < report.findings.size(); ++i) ApplySkips(options.config, *j.queue, &report.findings[i]);
    }
  }
  std::stable_sort(report.findings.begin(), report.findings.end(), [](const Finding& a, const Finding& b) {
    return std::tie(a.at.file, a.at.line, a.rule, a.queue) < std::tie(b.at.file, b.at.line, b.rule, b.queue);
  });
  for (const Finding& f : report.findings) {
    if (f.skipped) {
      ++report.skipped;
    } else if (f.level == Level::kError) {
      ++report.errors;
    } else if (f.level == Level::kWarning) {
      ++report.warnings;
    } else {
      ++report.notes;
    }
  }
  return report;
}

int ExitCode(const Report& report, Level fail_on) {
  for (const Finding& f : report.findings) {
    if (!f.skipped && f.level >= fail_on) return 1;
  }
  return 0;
}

const char* LevelName(Level level) {
  switch (level) {
    case Level::kNote: return "note";
    case Level::kWarning: return "warning";
    case Level::kError: break;
  }
  return "error";
}

}  // namespace dlq::check
