// The goal language's parser: ParseGoal (goal.h), its lexer and its clause parser.
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
namespace {

using namespace goal_words;  // NOLINT: the shared words (goal_words.h)

// ---- names ----------------------------------------------------------------

constexpr GoalPredicate kPlaces[] = {GoalPredicate::kQuarantined, GoalPredicate::kCompleted, GoalPredicate::kReady,
                                     GoalPredicate::kDelayed,     GoalPredicate::kInFlight,  GoalPredicate::kLost};

// "a, b or c" style lists for messages, built from the core's own name tables.
std::string CommaList(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out.append(i == 0 ? "" : ", ").append(names[i]);
  return out;
}

std::string PredicateList() {
  std::vector<std::string> predicates;
  for (const GoalPredicate p :
       {GoalPredicate::kQuarantined, GoalPredicate::kCompleted, GoalPredicate::kReady, GoalPredicate::kDelayed,
        GoalPredicate::kInFlight, GoalPredicate::kLost, GoalPredicate::kAttempts, GoalPredicate::kOrder,
        GoalPredicate::kEvent, GoalPredicate::kAlarm}) {
    predicates.emplace_back(PredicateName(p));
  }
  std::vector<std::string> counters;
  for (int i = 0; i < kGoalCounterCount; ++i) counters.emplace_back(GoalCounterName(static_cast<GoalCounter>(i)));
  return "a predicate (" + CommaList(predicates) + ") or a counter (" + CommaList(counters) + ")";
}

std::string ComparisonList() {
  std::vector<std::string> ops;
  for (int i = 0; i < kComparisonCount; ++i) ops.emplace_back(ComparisonName(static_cast<Comparison>(i)));
  return "a comparison (" + CommaList(ops) + ")";
}

// Every reason an entry can have, the modes' own included (stalled, max-length, expired).
constexpr Reason kGoalReasons[] = {Reason::kPermanent, Reason::kExhausted, Reason::kStalled, Reason::kMaxLength,
                                   Reason::kExpired};

std::string ReasonList() {
  std::vector<std::string> names;
  for (const Reason reason : kGoalReasons) names.emplace_back(ReasonName(reason));
  return "a quarantine reason (" + CommaList(names) + ")";
}

std::string ClassList() {
  std::vector<std::string> names;
  for (int i = 0; i < kFailureClassCount; ++i) names.emplace_back(ClassName(static_cast<FailureClass>(i)));
  return "a failure class (" + CommaList(names) + ")";
}

std::string KindList() {
  std::vector<std::string> names;
  for (int i = 0; i < kEventKindCount; ++i) names.emplace_back(EventKindName(static_cast<EventKind>(i)));
  return "an event kind (" + CommaList(names) + ")";
}

std::string NumberExpected() { return "a whole number from 0 to " + std::to_string(kMaxGoalNumber); }

enum class Tok : uint8_t {
  kWord,    // a bare word: a keyword, a name, a number or an id; `value` holds it
  kQuoted,  // "…": an id; `value` holds it unescaped
  kSign,    // a run of < > = !: a comparison, or not; `value` holds it
  kComma,
  kEnd,  // the end of the clause
  kBad,  // a lexing error at `begin`: `expected`, `given`
};

struct Token {
  Tok kind = Tok::kEnd;
  size_t begin = 0, end = 0;  // within the clause text
  std::string value;
  std::string expected, given;  // kBad
};

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The clause's tokens, ending in kEnd or, at the first lexing error, kBad.
std::vector<Token> Lex(std::string_view s) {
  std::vector<Token> out;
  size_t i = 0;
  while (true) {
    while (i < s.size() && IsSpace(static_cast<unsigned char>(s[i]))) ++i;
    Token t;
    t.begin = i;
    if (i == s.size()) {
      t.end = i;
      out.push_back(std::move(t));
      return out;
    }
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == ',') {
      t.kind = Tok::kComma;
      t.end = ++i;
    } else if (IsSign(c)) {
      t.kind = Tok::kSign;
      while (i < s.size() && IsSign(static_cast<unsigned char>(s[i]))) ++i;
      t.end = i;
      t.value.assign(s.substr(t.begin, t.end - t.begin));
    } else if (c == '"') {
      t.kind = Tok::kQuoted;
      ++i;
      bool closed = false;
      while (i < s.size()) {
        const char d = s[i];
        if (d == '"') {
          closed = true;
          ++i;
          break;
        }
        if (d != '\\') {
          t.value += d;
          ++i;
          continue;
        }
        // One of Quote()'s escapes, so that every id Quote() writes reads back.
        const char e = i + 1 < s.size() ? s[i + 1] : '\0';
        size_t length = 2;
        if (e == '"' || e == '\\') {
          t.value += e;
        } else if (e == 'n') {
          t.value += '\n';
        } else if (e == 'r') {
          t.value += '\r';
        } else if (e == 't') {
          t.value += '\t';
        } else if (e == 'x' && i + 3 < s.size() && HexDigit(s[i + 2]) >= 0 && HexDigit(s[i + 3]) >= 0) {
          t.value += static_cast<char>(HexDigit(s[i + 2]) * 16 + HexDigit(s[i + 3]));
          length = 4;
        } else {
          t.kind = Tok::kBad;
          t.begin = i;
          t.expected = "an escape (\\\" \\\\ \\n \\r \\t or \\xHH)";
          t.given = QuoteShort(s.substr(i, e == 'x' ? 4 : 2));
          out.push_back(std::move(t));
          return out;
        }
        i += length;
      }
      if (!closed) {
        t.kind = Tok::kBad;
        t.begin = s.size();
        t.expected = "a closing '\"'";
        t.given = "the end of the goal";  // an open quote runs past every ';'
        out.push_back(std::move(t));
        return out;
      }
      t.end = i;
    } else {
      t.kind = Tok::kWord;
      while (i < s.size() && !EndsWord(static_cast<unsigned char>(s[i]))) ++i;
      t.end = i;
      t.value.assign(s.substr(t.begin, t.end - t.begin));
    }
    out.push_back(std::move(t));
  }
}

// ---- the parser -----------------------------------------------------------

// `s` quoted, cut from the front to its last `max_bytes` bytes (on a character
// boundary) with "…" in front: what comes just before an error matters most.
std::string QuoteTail(std::string_view s, size_t max_bytes = 64) {
  if (s.size() <= max_bytes) return Quote(s);
  size_t cut = s.size() - max_bytes;
  while (cut < s.size() && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) ++cut;
  return "\"…" + Quote(s.substr(cut)).substr(1);
}

std::string_view TrimRight(std::string_view s) {
  while (!s.empty() && IsSpace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  return TrimRight(s);
}

class ClauseParser {
 public:
  ClauseParser(std::string_view clause, size_t number) : clause_(clause), number_(number), tokens_(Lex(clause)) {}

  Result<GoalClause> Parse() {
    GoalClause c;
    const Token* t = &Next();
    if (t->kind == Tok::kWord && t->value == "not") {
      c.negated = true;
      t = &Next();
    }
    if (t->kind != Tok::kWord) return Fail(PredicateList(), *t);
    const std::string& word = t->value;
    if (word == PredicateName(GoalPredicate::kAlarm)) {
      c.predicate = GoalPredicate::kAlarm;
    } else if (word == PredicateName(GoalPredicate::kAttempts)) {
      c.predicate = GoalPredicate::kAttempts;
      RETURN_IF_ERROR(ReadId(&c.ids, "a job id"));
      RETURN_IF_ERROR(ReadComparison(&c));
    } else if (word == PredicateName(GoalPredicate::kOrder)) {
      c.predicate = GoalPredicate::kOrder;
      RETURN_IF_ERROR(ReadOrder(&c.ids));
    } else if (word == PredicateName(GoalPredicate::kEvent)) {
      c.predicate = GoalPredicate::kEvent;
      RETURN_IF_ERROR(ReadKind(&c.event_kind));
      if (Peek().kind == Tok::kWord || Peek().kind == Tok::kQuoted) {
        RETURN_IF_ERROR(ReadId(&c.ids, "a job id"));
      }
    } else if (const std::optional<GoalPredicate> place = PlaceNamed(word); place && Peek().kind != Tok::kSign) {
      // A place followed by anything but a comparison: the job's place.
      c.predicate = *place;
      RETURN_IF_ERROR(ReadId(&c.ids, "a job id or " + ComparisonList()));
      if (c.predicate == GoalPredicate::kQuarantined) {
        RETURN_IF_ERROR(ReadQuarantineDetail(&c));
      }
    } else if (const std::optional<GoalCounter> counter = CounterNamed(word)) {
      c.predicate = GoalPredicate::kCounter;
      c.counter = *counter;
      RETURN_IF_ERROR(ReadComparison(&c));
    } else {
      return Fail(PredicateList(), *t);
    }
    const Token& last = Next();
    if (last.kind == Tok::kEnd) return c;
    if (c.predicate == GoalPredicate::kOrder) return Fail("',' or the end of the clause", last);
    return Fail("the end of the clause", last);
  }

 private:
  const Token& Next() {
    const Token& t = tokens_[pos_];
    if (t.kind != Tok::kEnd && t.kind != Tok::kBad) ++pos_;  // both are last: stay on them
    return t;
  }
  const Token& Peek() const { return tokens_[pos_]; }

  // goal: clause N "<text>": expected E after "<prefix>", got G. A lexing error
  // states its own expectation and what it found.
  Status Fail(const std::string& expected, const Token& t) const {
    const bool bad = t.kind == Tok::kBad;
    std::string given;
    if (bad) {
      given = t.given;
    } else if (t.kind == Tok::kEnd) {
      given = "the end of the clause";
    } else {
      given = QuoteShort(clause_.substr(t.begin, t.end - t.begin));
    }
    return FailWith(bad ? t.expected : expected, t.begin, given);
  }

  Status FailWith(const std::string& expected, size_t at, const std::string& given) const {
    std::string m =
        "goal: clause " + std::to_string(number_) + " " + QuoteShort(clause_, 120) + ": expected " + expected;
    const std::string_view prefix = TrimRight(clause_.substr(0, at));
    if (!prefix.empty()) m += " after " + QuoteTail(prefix);
    return Status::InvalidArgument(m + ", got " + given);
  }

  static std::optional<GoalPredicate> PlaceNamed(std::string_view word) {
    for (const GoalPredicate p : kPlaces) {
      if (word == PredicateName(p)) return p;
    }
    return std::nullopt;
  }

  static std::optional<GoalCounter> CounterNamed(std::string_view word) {
    for (int i = 0; i < kGoalCounterCount; ++i) {
      if (word == GoalCounterName(static_cast<GoalCounter>(i))) return static_cast<GoalCounter>(i);
    }
    return std::nullopt;
  }

  // A bare word or a quoted string, 1 to kMaxIdBytes bytes, appended to `ids`.
  Status ReadId(std::vector<std::string>* ids, const std::string& expected) {
    const Token& t = Next();
    if (t.kind != Tok::kWord && t.kind != Tok::kQuoted) return Fail(expected, t);
    if (t.value.empty()) return FailWith("a non-empty job id", t.begin, "an empty quoted id");
    if (t.value.size() > kMaxIdBytes) {
      return FailWith("a job id of at most " + std::to_string(kMaxIdBytes) + " bytes", t.begin,
                      "one of " + std::to_string(t.value.size()) + " bytes");
    }
    ids->push_back(t.value);
    return Status::Ok();
  }

  Status ReadComparison(GoalClause* c) {
    const Token& op = Next();
    bool found = false;
    if (op.kind == Tok::kSign) {
      for (int i = 0; i < kComparisonCount && !found; ++i) {
        if (op.value == ComparisonName(static_cast<Comparison>(i))) {
          c->comparison = static_cast<Comparison>(i);
          found = true;
        }
      }
    }
    if (!found) return Fail(ComparisonList(), op);
    const Token& n = Next();
    bool number = n.kind == Tok::kWord && !n.value.empty() && n.value.size() <= 16;
    int64_t value = 0;
    for (size_t i = 0; number && i < n.value.size(); ++i) {
      if (n.value[i] < '0' || n.value[i] > '9') number = false;
      else value = value * 10 + (n.value[i] - '0');
    }
    if (!number || value > kMaxGoalNumber) return Fail(NumberExpected(), n);
    c->value = value;
    return Status::Ok();
  }

  Status ReadOrder(std::vector<std::string>* ids) {
    RETURN_IF_ERROR(ReadId(ids, "a job id"));
    while (true) {
      const Token& comma = Peek();
      if (comma.kind != Tok::kComma) {
        if (ids->size() >= 2) return Status::Ok();
        return Fail("',' and a second job id", Next());
      }
      Next();
      const Token& id = Peek();
      RETURN_IF_ERROR(ReadId(ids, "a job id"));
      if (std::find(ids->begin(), ids->end() - 1, ids->back()) != ids->end() - 1) {
        return FailWith("a job id not already in the order", id.begin,
                        QuoteShort(clause_.substr(id.begin, id.end - id.begin)) + " again");
      }
    }
  }

  Status ReadKind(EventKind* kind) {
    const Token& t = Next();
    if (t.kind == Tok::kWord) {
      for (int i = 0; i < kEventKindCount; ++i) {
        if (t.value == EventKindName(static_cast<EventKind>(i))) {
          *kind = static_cast<EventKind>(i);
          return Status::Ok();
        }
      }
    }
    return Fail(KindList(), t);
  }

  // After "quarantined ID": nothing, "as REASON", "class CLASS" or "from QUEUE".
  Status ReadQuarantineDetail(GoalClause* c) {
    const Token& t = Peek();
    if (t.kind == Tok::kEnd) return Status::Ok();
    if (t.kind == Tok::kWord && t.value == "as") {
      Next();
      const Token& r = Next();
      for (const Reason reason : kGoalReasons) {
        if (r.kind == Tok::kWord && r.value == ReasonName(reason)) {
          c->reason = reason;
          return Status::Ok();
        }
      }
      return Fail(ReasonList(), r);
    }
    if (t.kind == Tok::kWord && t.value == "class") {
      Next();
      const Token& k = Next();
      if (k.kind == Tok::kWord) {
        for (int i = 0; i < kFailureClassCount; ++i) {
          if (k.value == ClassName(static_cast<FailureClass>(i))) {
            c->failure_class = static_cast<FailureClass>(i);
            return Status::Ok();
          }
        }
      }
      return Fail(ClassList(), k);
    }
    if (t.kind == Tok::kWord && t.value == "from") {
      Next();
      std::vector<std::string> queue;
      RETURN_IF_ERROR(ReadId(&queue, "a source queue's name"));
      c->source_queue = std::move(queue.front());
      return Status::Ok();
    }
    return Fail("\"as\", \"class\", \"from\" or the end of the clause", Next());
  }

  std::string_view clause_;
  size_t number_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
};

struct Span {
  size_t begin, end;
};

// The clauses' spans: split at every ';' outside a quoted id. An open quote runs
// to the end of the text (the lexer then refuses it).
std::vector<Span> SplitClauses(std::string_view text) {
  std::vector<Span> out;
  size_t start = 0;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '\\') ++i;
      else if (c == '"') quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ';') {
      out.push_back({start, i});
      start = i + 1;
    }
  }
  out.push_back({start, text.size()});
  return out;
}

}  // namespace

Result<Goal> ParseGoal(std::string_view text) {
  RETURN_IF_ERROR(CheckSize("goal", kMaxGoalBytes, text.size()));
  const std::vector<Span> spans = SplitClauses(text);
  RETURN_IF_ERROR(CheckSize("goal", kMaxGoalClauses, spans.size(), "clauses"));
  if (spans.size() == 1 && Trim(text).empty()) {
    return Status::InvalidArgument("goal: expected at least one clause, such as \"completed b\", got " +
                                   std::string(text.empty() ? "an empty text" : "only whitespace"));
  }
  Goal goal;
  for (size_t k = 0; k < spans.size(); ++k) {
    const std::string_view clause = Trim(text.substr(spans[k].begin, spans[k].end - spans[k].begin));
    const std::string number = std::to_string(k + 1);
    if (clause.empty()) {
      const char* where = k == 0                  ? "before the first ';'"
                          : k + 1 == spans.size() ? "after the last ';'"
                                                  : "between two ';'";
      return Status::InvalidArgument("goal: clause " + number + " is empty: expected a clause " + where +
                                     ", got nothing");
    }
    Result<GoalClause> parsed = ClauseParser(clause, k + 1).Parse();
    if (!parsed.ok()) return parsed.status();
    goal.clauses.push_back(std::move(parsed).value());
  }
  // The canonical text is what links and lessons store, so it must parse again:
  // ", " in orders and escaped bytes in quoted ids can make it longer than the input.
  const size_t canonical = FormatGoal(goal).size();
  if (canonical > kMaxGoalBytes) {
    return TooLarge("goal (in its canonical form, as FormatGoal() writes it)", kMaxGoalBytes, canonical);
  }
  return goal;
}

}  // namespace dlq
