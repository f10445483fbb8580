// libFuzzer harness: the goal language's parser and formatter (core/lesson/goal.h).
//
// The input bytes are a goal text. For every input:
//  * ParseGoal either refuses it with a proper Status (non-OK, a known code, a
//    non-empty one-line UTF-8 message) that names `goal`: TooLarge when the text is
//    over kMaxGoalBytes ("goal must be at most 4096 bytes, …"), or, within that,
//    over kMaxGoalClauses clauses ("… clauses, got N clauses", N > 32 and no more
//    than the ';' in the text allow), or when the goal parses but its canonical
//    text would pass kMaxGoalBytes ("goal (in its canonical form, …) must be at most
//    4096 bytes, got N bytes", N > 4096); otherwise InvalidArgument, "goal: …", saying
//    what was expected and what was given ("expected …, got …"), the clause it names
//    one the text has (1 to the number of ';' + 1), and "at least one clause"
//    exactly for a text of whitespace only; or
//  * accepts it, and then the goal has 1 to kMaxGoalClauses clauses, each as
//    goal.h's GoalClause says: the ids its predicate takes (one for a place and
//    attempts, none or one for event, two or more, all different, for order, none
//    otherwise), each of 1 to kMaxIdBytes bytes; 'as' or 'class' only on
//    quarantined, never both; a value from 0 to kMaxGoalNumber; every field the
//    predicate does not use at its default, every enum in range. FormatGoal is its
//    clauses' FormatClause joined by "; ", printable UTF-8, and parses back to an
//    equal goal with the same canonical text (ParseGoal(FormatGoal(g)) == g). That
//    text with its whitespace spread (each separating space a run of space, tab,
//    newline, CR, FF, VT; whitespace before ';' and ',', at both ends) and with it
//    compacted (no space around ';', ',' and the comparison signs) parses to the
//    same goal too: "whitespace between tokens is free".
//  * CheckGoal on an empty queue and on a queue with a ready, b completed and c
//    quarantined gives one check per clause, its text the canonical clause, met
//    when every clause is; leaves the queue as it was and answers the same twice.
//    A clause naming a job the queue was never given is unmet, 'not' or not. On the
//    empty queue every clause's answer is known (every counter 0, no event, no
//    alarm), and on the other each place and attempts clause about a, b or c is.
//  * Where the core has a heap budget, checking charges nothing to it.
// Seeds: tests/fuzz/goal-seeds.txt (one goal per line; scripts/dlq.mjs writes each
// to a file of the corpus), with a dictionary of the language's words (goal.dict).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"

using namespace dlq;
using dlq::fuzz::CheckRefusal;
using dlq::fuzz::HeapUsed;
using dlq::fuzz::Show;

namespace {

constexpr std::string_view kWhitespace = " \t\n\r\f\v";  // the grammar's whitespace
bool IsSpace(char c) { return kWhitespace.find(c) != std::string_view::npos; }
bool IsSign(char c) { return c == '<' || c == '>' || c == '=' || c == '!'; }

size_t Count(std::string_view s, char c) { return static_cast<size_t>(std::count(s.begin(), s.end(), c)); }

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// The input, with what happened to it, for failure details.
std::string Said(std::string_view input, const std::string& what) { return Show(input) + ": " + what; }

// ---- refusals -------------------------------------------------------------

void CheckGoalRefusal(const Status& s, std::string_view input) {
  CheckRefusal(s, "ParseGoal", input);
  const std::string& m = s.message();
  const std::string where = Said(input, s.ToString());
  const size_t semicolons = Count(input, ';');
  FUZZ_CHECK(s.code() == Code::kTooLarge || s.code() == Code::kInvalidArgument, where);
  if (input.size() > kMaxGoalBytes) {  // checked first
    FUZZ_CHECK(s.code() == Code::kTooLarge, where);
    FUZZ_CHECK(m == "goal must be at most " + std::to_string(kMaxGoalBytes) + " bytes, got " +
                        std::to_string(input.size()) + " bytes",
               where);
    return;
  }
  const std::string canonical = "goal (in its canonical form, as FormatGoal() writes it) must be at most " +
                                std::to_string(kMaxGoalBytes) + " bytes, got ";
  if (s.code() == Code::kTooLarge && StartsWith(m, canonical)) {
    // A goal that parses but whose canonical text would not fit: N over the limit.
    const std::string rest = m.substr(canonical.size());
    size_t n = 0, i = 0;
    while (i < rest.size() && i < 8 && rest[i] >= '0' && rest[i] <= '9')
      n = n * 10 + static_cast<size_t>(rest[i++] - '0');
    FUZZ_CHECK(i > 0 && rest.substr(i) == " bytes", where);
    FUZZ_CHECK(n > kMaxGoalBytes, where);
    return;
  }
  if (s.code() == Code::kTooLarge) {
    // Within the byte limit, otherwise only the clause count: more clauses than the ';' allow is wrong.
    const std::string prefix = "goal must be at most " + std::to_string(kMaxGoalClauses) + " clauses, got ";
    FUZZ_CHECK(StartsWith(m, prefix), where);
    const std::string rest = m.substr(prefix.size());
    size_t n = 0, i = 0;
    while (i < rest.size() && i < 8 && rest[i] >= '0' && rest[i] <= '9')
      n = n * 10 + static_cast<size_t>(rest[i++] - '0');
    FUZZ_CHECK(i > 0 && rest.substr(i) == " clauses", where);
    FUZZ_CHECK(n > kMaxGoalClauses && n <= semicolons + 1, where);
    return;
  }
  // InvalidArgument: names goal, what was expected and what was given.
  FUZZ_CHECK(StartsWith(m, "goal: "), where);
  FUZZ_CHECK(m.find("expected ") != std::string::npos && m.find(", got ") != std::string::npos, where);
  const bool only_whitespace = std::all_of(input.begin(), input.end(), IsSpace);
  FUZZ_CHECK(only_whitespace == StartsWith(m, "goal: expected at least one clause"), where);
  if (StartsWith(m, "goal: clause ")) {
    size_t n = 0, i = std::string_view("goal: clause ").size();
    const size_t digits = i;
    while (i < m.size() && i < digits + 3 && m[i] >= '0' && m[i] <= '9') n = n * 10 + static_cast<size_t>(m[i++] - '0');
    FUZZ_CHECK(i > digits && i < m.size() && m[i] == ' ', where);
    FUZZ_CHECK(n >= 1 && n <= kMaxGoalClauses && n <= semicolons + 1, where);
  } else {
    FUZZ_CHECK(only_whitespace, where);
  }
}

// ---- accepted goals -------------------------------------------------------

bool IsPlace(GoalPredicate p) {
  return p == GoalPredicate::kQuarantined || p == GoalPredicate::kCompleted || p == GoalPredicate::kReady ||
         p == GoalPredicate::kDelayed || p == GoalPredicate::kInFlight || p == GoalPredicate::kLost;
}

bool Compared(GoalPredicate p) { return p == GoalPredicate::kAttempts || p == GoalPredicate::kCounter; }

// One clause as GoalClause documents it: what its predicate reads, defaults elsewhere.
void CheckClause(const GoalClause& c, std::string_view input, size_t k) {
  const std::string where = Show(input) + " clause " + std::to_string(k + 1) + " " + Show(FormatClause(c));
  const GoalClause defaults;
  FUZZ_CHECK(static_cast<int>(c.predicate) <= static_cast<int>(GoalPredicate::kAlarm), where);
  switch (c.predicate) {
    case GoalPredicate::kAttempts: FUZZ_CHECK(c.ids.size() == 1, where); break;
    case GoalPredicate::kOrder: {
      FUZZ_CHECK(c.ids.size() >= 2, where);
      for (size_t i = 0; i < c.ids.size(); ++i) {
        for (size_t j = i + 1; j < c.ids.size(); ++j) FUZZ_CHECK(c.ids[i] != c.ids[j], where);
      }
      break;
    }
    case GoalPredicate::kEvent: FUZZ_CHECK(c.ids.size() <= 1, where); break;
    case GoalPredicate::kCounter:
    case GoalPredicate::kAlarm: FUZZ_CHECK(c.ids.empty(), where); break;
    default: FUZZ_CHECK(IsPlace(c.predicate) && c.ids.size() == 1, where); break;
  }
  for (const std::string& id : c.ids) FUZZ_CHECK(!id.empty() && id.size() <= kMaxIdBytes, where);
  // 'as' REASON | 'class' CLASS, on quarantined only.
  FUZZ_CHECK(c.reason == Reason::kNone || c.reason == Reason::kPermanent || c.reason == Reason::kExhausted, where);
  FUZZ_CHECK(!c.failure_class || static_cast<int>(*c.failure_class) < kFailureClassCount, where);
  FUZZ_CHECK(c.reason == Reason::kNone || !c.failure_class, where);
  if (c.predicate != GoalPredicate::kQuarantined) FUZZ_CHECK(c.reason == defaults.reason && !c.failure_class, where);
  FUZZ_CHECK(static_cast<int>(c.counter) < kGoalCounterCount, where);
  if (c.predicate != GoalPredicate::kCounter) FUZZ_CHECK(c.counter == defaults.counter, where);
  FUZZ_CHECK(static_cast<int>(c.comparison) < kComparisonCount, where);
  FUZZ_CHECK(c.value >= 0 && c.value <= kMaxGoalNumber, where);
  if (!Compared(c.predicate)) FUZZ_CHECK(c.comparison == defaults.comparison && c.value == defaults.value, where);
  FUZZ_CHECK(static_cast<int>(c.event_kind) < kEventKindCount, where);
  if (c.predicate != GoalPredicate::kEvent) FUZZ_CHECK(c.event_kind == defaults.event_kind, where);
}

// Printable UTF-8: valid, and no control byte (Quote() escapes them in ids).
bool Printable(std::string_view s) {
  if (!IsValidUtf8(s)) return false;
  return std::none_of(s.begin(), s.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return c < 0x20 || c == 0x7F;
  });
}

// FNV-1a of the input: the whitespace variants are chosen by it, so a run is reproducible.
uint64_t Hash(std::string_view s) {
  uint64_t h = 14695981039346656037ull;
  for (const char c : s) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

// Canonical text variants. Outside quoted ids the canonical text has a space only
// between tokens (a bare id holds none), and inside them Quote() escapes '"' and '\'.
enum class Spacing : uint8_t { kSpread, kCompact };

std::string Respace(std::string_view canonical, Spacing spacing, uint64_t seed) {
  uint64_t state = seed | 1;
  const auto space = [&] {  // 1 to 3 whitespace bytes
    std::string run;
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;  // xorshift64
    const int n = 1 + static_cast<int>(state % 3);
    for (int i = 0; i < n; ++i) run += kWhitespace[(state >> (8 + 4 * i)) % kWhitespace.size()];
    return run;
  };
  std::string out;
  if (spacing == Spacing::kSpread) out += space();
  bool quoted = false;
  for (size_t i = 0; i < canonical.size(); ++i) {
    const char c = canonical[i];
    if (quoted) {
      out += c;
      if (c == '\\' && i + 1 < canonical.size()) out += canonical[++i];
      else if (c == '"') quoted = false;
      continue;
    }
    if (c == '"') quoted = true;
    if (c == ' ') {
      if (spacing == Spacing::kSpread) {
        out += space();
      } else {
        // Dropped next to ';', ',' or a comparison sign: "steps<=3;order a,b".
        const char before = i > 0 ? canonical[i - 1] : '\0';
        const char after = i + 1 < canonical.size() ? canonical[i + 1] : '\0';
        const bool needed =
            !(before == ';' || before == ',' || IsSign(before) || after == ';' || after == ',' || IsSign(after));
        if (needed) out += ' ';
      }
      continue;
    }
    if (spacing == Spacing::kSpread && (c == ';' || c == ',')) out += space();
    out += c;
  }
  if (spacing == Spacing::kSpread) out += space();
  return out;
}

// The canonical text: printable, the clauses' own, one per goal, read back as the same goal.
void CheckCanonical(const Goal& g, std::string_view input) {
  const std::string text = FormatGoal(g);
  std::string joined;
  for (size_t k = 0; k < g.clauses.size(); ++k) joined.append(k == 0 ? "" : "; ").append(FormatClause(g.clauses[k]));
  FUZZ_CHECK(text == joined, Show(input) + " formats to " + Show(text) + ", its clauses to " + Show(joined));
  FUZZ_CHECK(Printable(text), Show(input) + " formats to " + Show(text));
  const std::string formats = Show(input) + " formats to " + Show(text);
  Result<Goal> back = ParseGoal(text);
  FUZZ_CHECK(back.ok(), formats + ", which fails: " + back.status().ToString());
  FUZZ_CHECK(back.value() == g, formats + ", which reads as another goal: " + Show(FormatGoal(back.value())));
  FUZZ_CHECK(FormatGoal(back.value()) == text, formats + ", which formats to " + Show(FormatGoal(back.value())));

  // Whitespace between tokens is free; ';', ',' and the signs need none around them.
  for (const Spacing spacing : {Spacing::kSpread, Spacing::kCompact}) {
    const std::string variant = Respace(text, spacing, Hash(input));
    if (variant.size() > kMaxGoalBytes) continue;
    const std::string said = formats + (spacing == Spacing::kSpread ? "; spread, " : "; compacted, ") + Show(variant);
    Result<Goal> same = ParseGoal(variant);
    FUZZ_CHECK(same.ok(), said + " fails: " + same.status().ToString());
    FUZZ_CHECK(same.value() == g, said + " reads as " + Show(FormatGoal(same.value())));
  }
}

// ---- checking against queues ------------------------------------------------

Queue MakeQueue() {
  Policy policy;
  policy.max_attempts = 3;
  Result<Queue> made = Queue::Create(policy);
  FUZZ_CHECK(made.ok(), made.status().ToString());
  return std::move(made).value();
}

// a ready with 1 attempt, b completed, c quarantined as permanent (class permanent), 1 attempt each.
Queue ThreePlaces() {
  Queue q = MakeQueue();
  FUZZ_CHECK(q.EnqueueMany({{"a", "A"}, {"b", "B"}, {"c", "C"}}).ok());
  for (const char* outcome : {"transient", "success", "permanent"}) {
    Result<Attempt> r = q.Process(outcome, "e");
    FUZZ_CHECK(r.ok() && r->processed, outcome);
  }
  FUZZ_CHECK(q.stats().ready == 1 && q.stats().completed == 1 && q.stats().quarantined == 1);
  return q;
}

// Everything a check must leave as it was.
std::string State(const Queue& q) {
  Result<std::string> text = q.view().SnapshotText();
  FUZZ_CHECK(text.ok(), text.status().ToString());
  return text.value() + "|" + std::to_string(q.view().journal_size()) + "|" + std::to_string(q.view().event_count());
}

struct Known {
  std::string_view id;
  GoalPredicate place;
  Reason reason;
  FailureClass failure_class;
};
constexpr Known kThreePlaces[] = {
    {"a", GoalPredicate::kReady, Reason::kNone, FailureClass::kTransient},
    {"b", GoalPredicate::kCompleted, Reason::kNone, FailureClass::kTransient},
    {"c", GoalPredicate::kQuarantined, Reason::kPermanent, FailureClass::kPermanent},
};

const Known* Find(std::string_view id) {
  for (const Known& k : kThreePlaces) {
    if (k.id == id) return &k;
  }
  return nullptr;
}

// CheckGoal on `q`: one check per clause, its canonical text, met when all are, pure,
// the same answer twice, and a job `q` was never given unmet. `expect(c)` is what a
// clause must answer on this queue, where the harness knows it (-1 where it does not).
template <typename Expect>
void CheckOn(const Goal& g, const Queue& q, const std::string& state, std::string_view name, std::string_view input,
             Expect expect) {
  const GoalCheck check = CheckGoal(g, q);
  const std::string where = Show(input) + " on the " + std::string(name) + " queue";
  FUZZ_CHECK(check.clauses.size() == g.clauses.size(), where);
  bool all = true;
  for (size_t k = 0; k < g.clauses.size(); ++k) {
    const GoalClause& c = g.clauses[k];
    const ClauseCheck& got = check.clauses[k];
    const std::string clause =
        where + ", clause " + Show(got.text) + " (" + (got.met ? "met" : "unmet") + ", " + Show(got.actual) + ")";
    FUZZ_CHECK(got.text == FormatClause(c), clause);
    FUZZ_CHECK(!got.actual.empty() && IsValidUtf8(got.actual), clause);
    const bool unknown = std::any_of(c.ids.begin(), c.ids.end(),
                                     [&](const std::string& id) { return name == "empty" || Find(id) == nullptr; });
    if (unknown) FUZZ_CHECK(!got.met, clause + ": it names a job the queue was never given");
    if (const int want = unknown ? -1 : expect(c); want >= 0) FUZZ_CHECK(got.met == (want == 1), clause);
    all = all && got.met;
  }
  FUZZ_CHECK(check.met == all, where);
  FUZZ_CHECK(State(q) == state, where + ": CheckGoal changed the queue");
  const GoalCheck again = CheckGoal(g, q);
  bool same = again.met == check.met && again.clauses.size() == check.clauses.size();
  for (size_t k = 0; same && k < check.clauses.size(); ++k) {
    same = again.clauses[k].text == check.clauses[k].text && again.clauses[k].met == check.clauses[k].met &&
           again.clauses[k].actual == check.clauses[k].actual;
  }
  FUZZ_CHECK(same, where + ": a second CheckGoal answered differently");
}

// A clause's answer on an empty queue: every counter 0, no event, no alarm (ids are unknown).
int OnEmpty(const GoalClause& c) {
  bool holds = false;
  switch (c.predicate) {
    case GoalPredicate::kCounter: holds = Compare(0, c.comparison, static_cast<uint64_t>(c.value)); break;
    case GoalPredicate::kEvent:
    case GoalPredicate::kAlarm: holds = false; break;
    default: return -1;  // names a job: unmet, checked as unknown
  }
  return holds != c.negated ? 1 : 0;
}

// A place or attempts clause about a, b or c on the three-place queue.
int OnThreePlaces(const GoalClause& c) {
  bool holds = false;
  if (IsPlace(c.predicate)) {
    const Known& k = *Find(c.ids[0]);
    holds = c.predicate == k.place && (c.reason == Reason::kNone || c.reason == k.reason) &&
            (!c.failure_class || *c.failure_class == k.failure_class);
  } else if (c.predicate == GoalPredicate::kAttempts) {
    holds = Compare(1, c.comparison, static_cast<uint64_t>(c.value));
  } else {
    return -1;
  }
  return holds != c.negated ? 1 : 0;
}

// The two queues goals are checked on, built once for the run, and their states.
struct Queues {
  Queue empty = MakeQueue();
  std::string empty_state = State(empty);
  Queue three = ThreePlaces();
  std::string three_state = State(three);
};

const Queues& TheQueues() {
  static const Queues queues;
  return queues;
}

void CheckAccepted(const Goal& g, std::string_view input) {
  FUZZ_CHECK(input.size() <= kMaxGoalBytes, Show(input));
  FUZZ_CHECK(!g.clauses.empty() && g.clauses.size() <= kMaxGoalClauses && g.clauses.size() <= Count(input, ';') + 1,
             Show(input) + ": " + std::to_string(g.clauses.size()) + " clauses");
  for (size_t k = 0; k < g.clauses.size(); ++k) CheckClause(g.clauses[k], input, k);
  CheckCanonical(g, input);
  const Queues& q = TheQueues();
  CheckOn(g, q.empty, q.empty_state, "empty", input, OnEmpty);
  CheckOn(g, q.three, q.three_state, "three-place", input, OnThreePlaces);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  TheQueues();  // built before the heap budget is read: they stay for the whole run
  const size_t heap_before = HeapUsed();
  Result<Goal> parsed = ParseGoal(input);
  if (parsed.ok()) {
    CheckAccepted(parsed.value(), input);
  } else {
    CheckGoalRefusal(parsed.status(), input);
  }
  // Parsing and checking keep nothing: no charge is left on the heap budget.
  FUZZ_CHECK(HeapUsed() == heap_before, Show(input) + ": heap budget use " + std::to_string(HeapUsed()) + " after, " +
                                            std::to_string(heap_before) + " before");
  return 0;
}
