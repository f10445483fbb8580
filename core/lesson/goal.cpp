#include "goal.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "ledger.h"
#include "size_limits.h"
#include "text.h"

namespace dlq {
namespace {

// ---- names ----------------------------------------------------------------

constexpr GoalPredicate kPlaces[] = {GoalPredicate::kQuarantined, GoalPredicate::kCompleted, GoalPredicate::kReady,
                                     GoalPredicate::kDelayed,     GoalPredicate::kInFlight,  GoalPredicate::kLost};

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

// "a, b or c" style lists for messages, built from the core's own name tables.
std::string CommaList(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out.append(i == 0 ? "" : ", ").append(names[i]);
  return out;
}

std::string PredicateList() {
  std::vector<std::string> predicates;
  for (const GoalPredicate p : {GoalPredicate::kQuarantined, GoalPredicate::kCompleted, GoalPredicate::kReady,
                                GoalPredicate::kDelayed, GoalPredicate::kInFlight, GoalPredicate::kLost,
                                GoalPredicate::kAttempts, GoalPredicate::kOrder, GoalPredicate::kEvent,
                                GoalPredicate::kAlarm}) {
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

// ---- tokens ---------------------------------------------------------------

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

enum class Tok : uint8_t {
  kWord,    // a bare word: a keyword, a name, a number or an id; `value` holds it
  kQuoted,  // "…": an id; `value` holds it unescaped
  kSign,    // a run of < > = !: a comparison, or not; `value` holds it
  kComma,
  kEnd,     // the end of the clause
  kBad,     // a lexing error at `begin`: `expected`, `given`
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
    std::string m = "goal: clause " + std::to_string(number_) + " " + QuoteShort(clause_, 120) + ": expected " + expected;
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

// ---- checking -------------------------------------------------------------

// What the views and the timeline say about one job a goal names.
struct JobFacts {
  // kNowhere: in no view, and no event says why (a state the queue never
  // reaches; stated rather than mistaken for "no job").
  enum class Where : uint8_t { kUnknown, kReady, kDelayed, kInFlight, kCompleted, kQuarantined, kDropped, kLost, kDiscarded, kNowhere };
  Where where = Where::kUnknown;  // kUnknown after both passes: the queue was never given it
  uint32_t attempts = 0;
  Reason reason = Reason::kNone;                          // kQuarantined
  FailureClass failure_class = FailureClass::kTransient;  // kQuarantined
  std::string source_queue;                               // kQuarantined
  std::string held_by;                                    // kReady
  int64_t until = 0;                                      // kDelayed: due at; kInFlight: expires at
  std::string token;                                      // kInFlight
  bool seen = false;          // some event names it
  uint64_t completed_seq = 0;  // its first completion event; 0: none
  // From a lost or evidence-expired event: its count then (it is in no view).
  std::optional<Where> gone;
  uint32_t gone_attempts = 0;
};

std::string Attempts(uint32_t n) { return std::to_string(n) + (n == 1 ? " attempt" : " attempts"); }

// "b is ready with 2 attempts", "no job b", …
std::string Describe(std::string_view id, const JobFacts& f) {
  const std::string name = FormatId(id);
  using W = JobFacts::Where;
  switch (f.where) {
    case W::kUnknown: return "no job " + name;
    case W::kReady:
      return name + " is ready" + (f.held_by.empty() ? "" : " (held by " + FormatId(f.held_by) + ")") + " with " +
             Attempts(f.attempts);
    case W::kDelayed: return name + " is delayed until " + std::to_string(f.until) + " ms with " + Attempts(f.attempts);
    case W::kInFlight:
      return name + " is in flight (" + f.token + ", expires at " + std::to_string(f.until) + " ms) with " +
             Attempts(f.attempts);
    case W::kCompleted: return name + " is completed with " + Attempts(f.attempts);
    case W::kQuarantined:
      return name + " is quarantined as " + ReasonName(f.reason) + " (class " + ClassName(f.failure_class) +
             ") with " + Attempts(f.attempts);
    case W::kDropped: return name + " was dropped from quarantine at its retention, with " + Attempts(f.attempts);
    case W::kLost: return name + " is lost (a crash left it in no place) with " + Attempts(f.attempts);
    case W::kDiscarded:
      return name + " was discarded (dead-lettered with no dead-letter exchange) with " + Attempts(f.attempts);
    case W::kNowhere: return name + " is in no place";
  }
  return "";
}

JobFacts::Where PlaceOf(GoalPredicate p) {
  using W = JobFacts::Where;
  switch (p) {
    case GoalPredicate::kQuarantined: return W::kQuarantined;
    case GoalPredicate::kCompleted: return W::kCompleted;
    case GoalPredicate::kReady: return W::kReady;
    case GoalPredicate::kDelayed: return W::kDelayed;
    case GoalPredicate::kInFlight: return W::kInFlight;
    case GoalPredicate::kLost: return W::kLost;
    default: return W::kUnknown;
  }
}

// The timeline is read in slices of this many events: a big one is never copied whole.
constexpr size_t kSlice = 256;

// The counters read off more than stats().
struct Tallies {
  uint64_t alerts = 0;
  EffectLedger ledger;
  uint64_t refused = 0;
  RetrySpread spread;
  uint64_t refused_replays = 0;
  ReplayBurst burst;
};

uint64_t CounterValue(GoalCounter counter, const QueueStats& s, const Tallies& t) {
  switch (counter) {
    case GoalCounter::kSteps: return s.step;
    case GoalCounter::kCompleted: return s.completed;
    case GoalCounter::kQuarantined: return s.quarantined;
    case GoalCounter::kReady: return s.ready;
    case GoalCounter::kDelayed: return s.delayed;
    case GoalCounter::kInFlight: return s.leased;
    case GoalCounter::kLost: return s.lost;
    case GoalCounter::kNow: return static_cast<uint64_t>(s.now);  // never negative
    case GoalCounter::kReorders: return s.reorders;
    case GoalCounter::kAlerts: return t.alerts;
    case GoalCounter::kCharges: return t.ledger.applied;
    case GoalCounter::kDuplicates: return t.ledger.duplicates;
    case GoalCounter::kPartial: return t.ledger.partial;
    case GoalCounter::kRefused: return t.refused;
    case GoalCounter::kSpread: return static_cast<uint64_t>(t.spread.spread_ms);  // due times never go back
    case GoalCounter::kRefusedReplays: return t.refused_replays;
    case GoalCounter::kReplayBurst: return t.burst.count;
  }
  return 0;
}

}  // namespace

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
      const char* where = k == 0 ? "before the first ';'" : k + 1 == spans.size() ? "after the last ';'"
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

namespace {
// ids[i], or "" for a hand-built clause without it (formatted as "").
std::string_view IdAt(const GoalClause& c, size_t i) { return i < c.ids.size() ? std::string_view(c.ids[i]) : ""; }
}  // namespace

std::string FormatClause(const GoalClause& c) {
  std::string out = c.negated ? "not " : "";
  const auto compared = [&] {
    return std::string(" ") + ComparisonName(c.comparison) + " " + std::to_string(c.value);
  };
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
    case GoalPredicate::kAttempts:
      out.append("attempts ").append(FormatId(IdAt(c, 0))).append(compared());
      break;
    case GoalPredicate::kCounter:
      out.append(GoalCounterName(c.counter)).append(compared());
      break;
    case GoalPredicate::kOrder:
      out.append("order");
      for (size_t i = 0; i < c.ids.size(); ++i) out.append(i == 0 ? " " : ", ").append(FormatId(c.ids[i]));
      break;
    case GoalPredicate::kEvent:
      out.append("event ").append(EventKindName(c.event_kind));
      if (!c.ids.empty()) out.append(" ").append(FormatId(c.ids[0]));
      break;
    case GoalPredicate::kAlarm:
      out.append("alarm");
      break;
  }
  return out;
}

std::string FormatGoal(const Goal& goal) {
  std::string out;
  for (size_t i = 0; i < goal.clauses.size(); ++i) out.append(i == 0 ? "" : "; ").append(FormatClause(goal.clauses[i]));
  return out;
}

void AddToRetrySpread(const Event& delayed, RetrySpread* current, RetrySpread* best) {
  if (current->count == 0 || delayed.time != current->at) {
    *current = RetrySpread{0, 1, delayed.time, delayed.until, delayed.until};
  } else {
    ++current->count;
    current->earliest_due = std::min(current->earliest_due, delayed.until);
    current->latest_due = std::max(current->latest_due, delayed.until);
    current->spread_ms = current->latest_due - current->earliest_due;
  }
  // The largest crowd counts; of equal crowds the earliest (the same instant keeps growing).
  if (current->count >= 2 && (current->count > best->count || current->at == best->at)) *best = *current;
}

RetrySpread RetrySpreadOf(const Queue& queue) {
  RetrySpread current, best;
  const size_t count = queue.view().event_count();
  for (size_t from = 0; from < count; from += kSlice) {
    for (const Event& e : queue.view().Timeline(from, kSlice)) {
      if (e.kind == EventKind::kDelayed) AddToRetrySpread(e, &current, &best);
    }
  }
  return best;
}

void AddToReplayBurst(const Event& replayed, std::vector<int64_t>* window, size_t* first, ReplayBurst* best) {
  window->push_back(replayed.time);
  while (window->at(*first) + 1000 <= replayed.time) ++*first;  // out of [t, t + 1000)
  const size_t count = window->size() - *first;
  if (count > best->count) *best = ReplayBurst{count, window->at(*first)};
}

std::string DescribeReplayBurst(const ReplayBurst& b) {
  if (b.count == 0) return "replay-burst = 0: no replay";
  return "replay-burst = " + std::to_string(b.count) + ": " + std::to_string(b.count) +
         (b.count == 1 ? " replay" : " replays") + " in the second from " + std::to_string(b.at) + " ms";
}

std::string DescribeRetrySpread(const RetrySpread& s) {
  if (s.count < 2) return "spread = 0: no two retries were scheduled at one instant";
  const std::string head = "spread = " + std::to_string(s.spread_ms) + ": " + std::to_string(s.count) +
                           " retries scheduled at " + std::to_string(s.at) + " ms, ";
  if (s.spread_ms == 0) return head + "all due at " + std::to_string(s.earliest_due) + " ms";
  return head + "due from " + std::to_string(s.earliest_due) + " to " + std::to_string(s.latest_due) + " ms";
}

namespace {

using NamedJobs = std::map<std::string, JobFacts, std::less<>>;

// Whether a clause reads the timeline (events, order, alerts, spread, replay burst).
bool ReadsTimeline(const GoalClause& c) {
  return c.predicate == GoalPredicate::kEvent || c.predicate == GoalPredicate::kOrder ||
         (c.predicate == GoalPredicate::kCounter && (c.counter == GoalCounter::kAlerts ||
                                                     c.counter == GoalCounter::kSpread ||
                                                     c.counter == GoalCounter::kReplayBurst));
}

bool ReadsLedger(const GoalClause& c) {
  return c.predicate == GoalPredicate::kCounter &&
         (c.counter == GoalCounter::kCharges || c.counter == GoalCounter::kDuplicates ||
          c.counter == GoalCounter::kPartial);
}

// Each named job where it is now: one lookup by id, not a pass over the views. A job
// in no view stays kUnknown: lost, dropped at its retention, or never given, which the
// timeline pass tells apart.
void LocateNamedJobs(const Queue& queue, NamedJobs* jobs) {
  using W = JobFacts::Where;
  for (auto& [id, facts] : *jobs) {
    const std::optional<JobLocation> at = queue.view().Locate(id);
    if (!at.has_value()) continue;
    switch (at->place) {
      case Place::kReady: facts.where = W::kReady; facts.held_by = at->held_by; break;
      case Place::kDelayed: facts.where = W::kDelayed; facts.until = at->until; break;
      case Place::kLeased:
        facts.where = W::kInFlight;
        facts.until = at->until;
        facts.token = at->token;
        break;
      case Place::kCompleted: facts.where = W::kCompleted; break;
      case Place::kQuarantined:
        facts.where = W::kQuarantined;
        facts.reason = at->reason;
        facts.failure_class = at->failure_class;
        facts.source_queue = at->source_queue;
        break;
      case Place::kDropped:
      case Place::kLost:
      case Place::kDiscarded: continue;  // in no view: the timeline says which, and its count then
    }
    facts.attempts = at->attempts;
  }
}

// What one pass over the timeline gathers for the clauses.
struct TimelineFacts {
  Tallies tallies;
  std::vector<std::optional<Event>> first_match;  // each event clause's first matching event
};

void NoteNamedJob(const Event& e, NamedJobs* jobs) {
  using W = JobFacts::Where;
  const auto it = jobs->find(e.id);
  if (it == jobs->end()) return;
  JobFacts& f = it->second;
  f.seen = true;
  if (e.kind == EventKind::kCompleted && f.completed_seq == 0) f.completed_seq = e.seq;
  if (e.kind == EventKind::kLost || e.kind == EventKind::kEvidenceExpired || e.kind == EventKind::kDiscarded) {
    f.gone = e.kind == EventKind::kLost ? W::kLost : e.kind == EventKind::kDiscarded ? W::kDiscarded : W::kDropped;
    f.gone_attempts = e.attempts;
  }
}

// One pass over the timeline: alert events, each event clause's first match, and per
// named job whether any event names it, its first completion, and whether it was lost
// or dropped (which then settles where a job in no view is).
TimelineFacts ReadTimeline(const Goal& goal, const Queue& queue, NamedJobs* jobs) {
  TimelineFacts out;
  out.first_match.resize(goal.clauses.size());
  RetrySpread spread_now;
  std::vector<int64_t> burst_window;
  size_t burst_first = 0;
  const size_t count = queue.view().event_count();
  for (size_t from = 0; from < count; from += kSlice) {
    for (Event& e : queue.view().Timeline(from, kSlice)) {
      if (e.kind == EventKind::kAlert) ++out.tallies.alerts;
      if (e.kind == EventKind::kDelayed) AddToRetrySpread(e, &spread_now, &out.tallies.spread);
      if (e.kind == EventKind::kReplayed) AddToReplayBurst(e, &burst_window, &burst_first, &out.tallies.burst);
      NoteNamedJob(e, jobs);
      for (size_t k = 0; k < goal.clauses.size(); ++k) {
        const GoalClause& c = goal.clauses[k];
        if (c.predicate != GoalPredicate::kEvent || out.first_match[k] || c.event_kind != e.kind) continue;
        if (!c.ids.empty() && c.ids[0] != e.id) continue;
        out.first_match[k] = e;
      }
    }
  }
  using W = JobFacts::Where;
  for (auto& [id, f] : *jobs) {
    if (f.where == W::kUnknown && f.gone) {
      f.where = *f.gone;
      f.attempts = f.gone_attempts;
    } else if (f.where == W::kUnknown && f.seen) {
      f.where = W::kNowhere;
    }
  }
  return out;
}

// What a clause is judged against: the named jobs, the counters, the first matches.
struct ClauseInputs {
  const NamedJobs& jobs;
  const QueueStats& stats;
  const Tallies& tallies;
  const Queue& queue;
};

bool CheckPlace(const GoalClause& c, const ClauseInputs& in, ClauseCheck* check) {
  const JobFacts& f = in.jobs.at(c.ids[0]);
  const bool holds = f.where == PlaceOf(c.predicate) && (c.reason == Reason::kNone || c.reason == f.reason) &&
                     (!c.failure_class || *c.failure_class == f.failure_class) &&
                     (c.source_queue.empty() || c.source_queue == f.source_queue);
  check->actual = Describe(c.ids[0], f);
  // A "from" clause says which queue the entry names.
  if (!c.source_queue.empty() && f.where == JobFacts::Where::kQuarantined) {
    check->actual += ", from " + FormatId(f.source_queue);
  }
  return holds;
}

bool CheckCounter(const GoalClause& c, const ClauseInputs& in, ClauseCheck* check) {
  const uint64_t value = CounterValue(c.counter, in.stats, in.tallies);
  check->actual = c.counter == GoalCounter::kSpread        ? DescribeRetrySpread(in.tallies.spread)
                  : c.counter == GoalCounter::kReplayBurst ? DescribeReplayBurst(in.tallies.burst)
                                                           : std::string(GoalCounterName(c.counter)) + " = " + std::to_string(value);
  return Compare(value, c.comparison, static_cast<uint64_t>(c.value));
}

bool CheckOrder(const GoalClause& c, const ClauseInputs& in, ClauseCheck* check) {
  const auto pending = std::find_if(c.ids.begin(), c.ids.end(), [&](const std::string& id) {
    return in.jobs.at(id).completed_seq == 0;
  });
  if (pending != c.ids.end()) {
    check->actual = Describe(*pending, in.jobs.at(*pending));
    return false;
  }
  std::vector<std::pair<uint64_t, std::string>> by_completion;
  for (const std::string& id : c.ids) by_completion.emplace_back(in.jobs.at(id).completed_seq, id);
  const bool holds = std::is_sorted(by_completion.begin(), by_completion.end());
  std::sort(by_completion.begin(), by_completion.end());
  check->actual = "completed in the order ";
  for (size_t i = 0; i < by_completion.size(); ++i) {
    check->actual.append(i == 0 ? "" : ", ").append(FormatId(by_completion[i].second));
  }
  return holds;
}

bool CheckEvent(const GoalClause& c, const std::optional<Event>& first_match, ClauseCheck* check) {
  if (first_match.has_value()) {
    check->actual = RenderEvent(*first_match);
    return true;
  }
  check->actual = std::string("no ") + EventKindName(c.event_kind) + " event" +
                  (c.ids.empty() ? "" : " for " + FormatId(c.ids[0]));
  return false;
}

bool CheckAlarm(const Queue& queue, ClauseCheck* check) {
  const AlarmView a = queue.view().alarm();
  const std::string depth = std::to_string(a.depth) + (a.depth == 1 ? " entry" : " entries") +
                            " in quarantine, alarm depth " + std::to_string(a.threshold);
  if (a.threshold == 0) check->actual = "no alarm: the policy sets no alarm depth";
  else check->actual = (a.raised ? "alarm raised: " : "no alarm: ") + depth;
  return a.raised;
}

// One clause judged. A clause naming a job the queue was never given is unmet, 'not' or
// not; so is one missing the ids its predicate needs (only a hand-built clause).
ClauseCheck CheckClause(const GoalClause& c, const std::optional<Event>& first_match, const ClauseInputs& in) {
  ClauseCheck check;
  check.text = FormatClause(c);
  const auto unknown = std::find_if(c.ids.begin(), c.ids.end(), [&](const std::string& id) {
    return in.jobs.at(id).where == JobFacts::Where::kUnknown;
  });
  const size_t needed = c.predicate == GoalPredicate::kOrder ? 2
                        : c.predicate == GoalPredicate::kCounter || c.predicate == GoalPredicate::kEvent ||
                                c.predicate == GoalPredicate::kAlarm
                            ? 0
                            : 1;
  if (unknown != c.ids.end() || c.ids.size() < needed) {
    check.met = false;
    check.actual = "no job " + FormatId(unknown != c.ids.end() ? std::string_view(*unknown) : std::string_view());
    return check;
  }
  bool holds = false;
  switch (c.predicate) {
    case GoalPredicate::kQuarantined:
    case GoalPredicate::kCompleted:
    case GoalPredicate::kReady:
    case GoalPredicate::kDelayed:
    case GoalPredicate::kInFlight:
    case GoalPredicate::kLost: holds = CheckPlace(c, in, &check); break;
    case GoalPredicate::kAttempts: {
      const JobFacts& f = in.jobs.at(c.ids[0]);
      holds = Compare(f.attempts, c.comparison, static_cast<uint64_t>(c.value));
      check.actual = Describe(c.ids[0], f);
      break;
    }
    case GoalPredicate::kCounter: holds = CheckCounter(c, in, &check); break;
    case GoalPredicate::kOrder: holds = CheckOrder(c, in, &check); break;
    case GoalPredicate::kEvent: holds = CheckEvent(c, first_match, &check); break;
    case GoalPredicate::kAlarm: holds = CheckAlarm(in.queue, &check); break;
  }
  check.met = holds != c.negated;
  return check;
}

}  // namespace

GoalCheck CheckGoal(const Goal& goal, const Queue& queue, const GoalContext& context) {
  // What the clauses need: the jobs they name, and whether the timeline must be read.
  NamedJobs jobs;
  bool need_timeline = false;
  for (const GoalClause& c : goal.clauses) {
    for (const std::string& id : c.ids) jobs.try_emplace(id);
    need_timeline = need_timeline || ReadsTimeline(c);
  }
  LocateNamedJobs(queue, &jobs);
  for (const auto& [id, facts] : jobs) need_timeline = need_timeline || facts.where == JobFacts::Where::kUnknown;

  TimelineFacts timeline;
  timeline.first_match.resize(goal.clauses.size());
  if (need_timeline) timeline = ReadTimeline(goal, queue, &jobs);
  Tallies& tallies = timeline.tallies;
  tallies.refused = context.refused;
  tallies.refused_replays = context.refused_replays;
  if (std::any_of(goal.clauses.begin(), goal.clauses.end(), ReadsLedger)) {
    tallies.ledger = LedgerOf(queue);  // its own pass over the timeline
  }

  const QueueStats stats = queue.stats();
  const ClauseInputs inputs{jobs, stats, tallies, queue};
  GoalCheck out;
  out.met = true;
  for (size_t k = 0; k < goal.clauses.size(); ++k) {
    out.clauses.push_back(CheckClause(goal.clauses[k], timeline.first_match[k], inputs));
    out.met = out.met && out.clauses.back().met;
  }
  return out;
}

}  // namespace dlq
