// The goal language's names and its canonical text (FormatGoal); the parser is
// goal_parse.cpp, the checker goal_check.cpp.
#include "goal.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "goal_words.h"
#include "ledger.h"
#include "size_limits.h"
#include "text.h"

namespace dlq {

namespace goal_words {

// The keyword of a predicate; kCounter has none of its own (its counter's name).
const char* PredicateName(GoalPredicate p) {
  switch (p) {
    case GoalPredicate::kQuarantined: return "quarantined";
    case GoalPredicate::kCompleted: return "completed";
    case GoalPredicate::kReady: return "ready";
    case GoalPredicate::kDelayed: return "delayed";
    case GoalPredicate::kInFlight: return "in-flight";
    case GoalPredicate::kLost: return "lost";
    case GoalPredicate::kAttempts: return "attempts";
    case GoalPredicate::kCounter: return "";
    case GoalPredicate::kOrder: return "order";
    case GoalPredicate::kEvent: return "event";
    case GoalPredicate::kAlarm: return "alarm";
  }
  return "?";
}

bool IsSpace(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool IsSign(unsigned char c) { return c == '<' || c == '>' || c == '=' || c == '!'; }
// Bytes that end a bare word (and so cannot be in a bare id).
bool EndsWord(unsigned char c) { return IsSpace(c) || IsSign(c) || c == ';' || c == ',' || c == '"'; }

// The grammar's ID in bare form: what FormatId() may write unquoted. Stricter
// than what the lexer reads as a word (no control bytes, valid UTF-8) so the
// canonical text is always printable UTF-8.
bool CanBeBare(std::string_view id) {
  if (id.empty() || !IsValidUtf8(id)) return false;
  for (const char ch : id) {
    const auto c = static_cast<unsigned char>(ch);
    if (EndsWord(c) || c < 0x20 || c == 0x7F) return false;
  }
  return true;
}

std::string FormatId(std::string_view id) { return CanBeBare(id) ? std::string(id) : Quote(id); }

}  // namespace goal_words

using namespace goal_words;  // NOLINT: the shared words (goal_words.h)

const char* GoalCounterName(GoalCounter counter) {
  switch (counter) {
    case GoalCounter::kSteps: return "steps";
    case GoalCounter::kCompleted: return "completed";
    case GoalCounter::kQuarantined: return "quarantined";
    case GoalCounter::kReady: return "ready";
    case GoalCounter::kDelayed: return "delayed";
    case GoalCounter::kInFlight: return "in-flight";
    case GoalCounter::kLost: return "lost";
    case GoalCounter::kNow: return "now";
    case GoalCounter::kReorders: return "reorders";
    case GoalCounter::kAlerts: return "alerts";
    case GoalCounter::kCharges: return "charges";
    case GoalCounter::kDuplicates: return "duplicates";
    case GoalCounter::kPartial: return "partial";
    case GoalCounter::kRefused: return "refused";
    case GoalCounter::kSpread: return "spread";
    case GoalCounter::kRefusedReplays: return "refused-replays";
    case GoalCounter::kReplayBurst: return "replay-burst";
  }
  return "?";
}

const char* ComparisonName(Comparison comparison) {
  switch (comparison) {
    case Comparison::kLess: return "<";
    case Comparison::kLessEqual: return "<=";
    case Comparison::kEqual: return "=";
    case Comparison::kNotEqual: return "!=";
    case Comparison::kGreaterEqual: return ">=";
    case Comparison::kGreater: return ">";
  }
  return "?";
}

bool Compare(uint64_t actual, Comparison comparison, uint64_t value) {
  switch (comparison) {
    case Comparison::kLess: return actual < value;
    case Comparison::kLessEqual: return actual <= value;
    case Comparison::kEqual: return actual == value;
    case Comparison::kNotEqual: return actual != value;
    case Comparison::kGreaterEqual: return actual >= value;
    case Comparison::kGreater: return actual > value;
  }
  return false;
}

namespace {
// ids[i], or "" for a hand-built clause without it (formatted as "").
std::string_view IdAt(const GoalClause& c, size_t i) { return i < c.ids.size() ? std::string_view(c.ids[i]) : ""; }
}  // namespace

std::string FormatClause(const GoalClause& c) {
  std::string out = c.negated ? "not " : "";
  const auto compared = [&] { return std::string(" ") + ComparisonName(c.comparison) + " " + std::to_string(c.value); };
  switch (c.predicate) {
    case GoalPredicate::kQuarantined:
    case GoalPredicate::kCompleted:
    case GoalPredicate::kReady:
    case GoalPredicate::kDelayed:
    case GoalPredicate::kInFlight:
    case GoalPredicate::kLost:
      out.append(PredicateName(c.predicate)).append(" ").append(FormatId(IdAt(c, 0)));
      if (c.reason != Reason::kNone) out.append(" as ").append(ReasonName(c.reason));
      if (c.failure_class) out.append(" class ").append(ClassName(*c.failure_class));
      if (!c.source_queue.empty()) out.append(" from ").append(FormatId(c.source_queue));
      break;
    case GoalPredicate::kAttempts: out.append("attempts ").append(FormatId(IdAt(c, 0))).append(compared()); break;
    case GoalPredicate::kCounter: out.append(GoalCounterName(c.counter)).append(compared()); break;
    case GoalPredicate::kOrder:
      out.append("order");
      for (size_t i = 0; i < c.ids.size(); ++i) out.append(i == 0 ? " " : ", ").append(FormatId(c.ids[i]));
      break;
    case GoalPredicate::kEvent:
      out.append("event ").append(EventKindName(c.event_kind));
      if (!c.ids.empty()) out.append(" ").append(FormatId(c.ids[0]));
      break;
    case GoalPredicate::kAlarm: out.append("alarm"); break;
  }
  return out;
}

std::string FormatGoal(const Goal& goal) {
  std::string out;
  for (size_t i = 0; i < goal.clauses.size(); ++i) out.append(i == 0 ? "" : "; ").append(FormatClause(goal.clauses[i]));
  return out;
}

}  // namespace dlq
