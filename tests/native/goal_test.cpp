// Goals (goal.h): the declarative language lesson exercises state their goal in.
// Parsing every predicate, free whitespace, quoting and the canonical text's
// round trip; parse errors by their exact text; the size limits; and checking
// every predicate met and unmet (every comparison, 'not', unknown jobs) against
// real queues, without changing them.
#include "goal.h"
#include "par.h"
#include "scenario.h"
#include "test_util.h"
#include "text.h"

using namespace dlq;
using namespace dlq::test;

namespace goal_test {

namespace {

Goal MustParse(std::string_view text) {
  Result<Goal> g = ParseGoal(text);
  REQUIRE_MESSAGE(g.ok(), g.status().ToString());
  return std::move(g).value();
}

// "<code>: <message>" of a refused goal ("OK" if it was accepted).
std::string Refusal(std::string_view text) { return ParseGoal(text).status().ToString(); }

// The check of a one-clause goal.
ClauseCheck CheckOne(const Queue& q, std::string_view clause) {
  const GoalCheck check = CheckGoal(MustParse(clause), q);
  REQUIRE(check.clauses.size() == 1);
  CHECK(check.met == check.clauses[0].met);
  return check.clauses[0];
}

bool Met(const Queue& q, std::string_view clause) { return CheckOne(q, clause).met; }

// The unmet clauses of a goal with what is true instead ("" when it is met), so
// a failing CHECK(Unmet(...) == "") shows which clause and why.
std::string Unmet(const Queue& q, std::string_view goal) {
  const GoalCheck check = CheckGoal(MustParse(goal), q);
  std::string out;
  bool all = true;
  for (const ClauseCheck& c : check.clauses) {
    if (!c.met) out += c.text + " (" + c.actual + "); ";
    all = all && c.met;
  }
  CHECK(check.met == all);
  return out;
}
std::string Actual(const Queue& q, std::string_view clause) { return CheckOne(q, clause).actual; }

Queue Make(const Policy& p) {
  Result<Queue> made = Queue::Create(p);
  REQUIRE(made.ok());
  return std::move(made).value();
}

// a ready with 1 attempt, b completed, c quarantined as permanent: three steps.
Queue ThreePlaces() {
  Queue q = MakeQueue(3);
  REQUIRE(q.EnqueueMany({{"a", "A"}, {"b", "B"}, {"c", "C"}}).ok());
  MustProcess(q, "transient", "db timeout");   // a -> ready tail
  MustProcess(q, "success");                   // b
  MustProcess(q, "permanent", "bad payload");  // c -> quarantine
  return q;
}

// The first event of `kind` for `id`, as RenderEvent() writes it.
std::string Line(const Queue& q, EventKind kind, std::string_view id) {
  for (const Event& e : q.view().Timeline()) {
    if (e.kind == kind && e.id == id) return RenderEvent(e);
  }
  FAIL("no such event");
  return "";
}

// Everything observable a check must leave as it was.
std::string State(const Queue& q) {
  Result<std::string> text = q.view().SnapshotText();
  REQUIRE(text.ok());
  return text.value() + "|" + std::to_string(q.view().journal_size()) + "|" + std::to_string(q.view().event_count());
}

}  // namespace

TEST_SUITE("goals: parsing") {
  TEST_CASE("every predicate parses to its canonical text") {
    const std::pair<const char*, const char*> cases[] = {
        {"quarantined b", "quarantined b"},
        {"quarantined b as exhausted", "quarantined b as exhausted"},
        {"quarantined b as permanent", "quarantined b as permanent"},
        {"quarantined b class unknown-schema", "quarantined b class unknown-schema"},
        {"quarantined b class crash", "quarantined b class crash"},
        {"completed b", "completed b"},
        {"ready b", "ready b"},
        {"delayed b", "delayed b"},
        {"in-flight b", "in-flight b"},
        {"lost b", "lost b"},
        {"attempts b >= 2", "attempts b >= 2"},
        {"steps <= 3", "steps <= 3"},
        {"completed = 2", "completed = 2"},
        {"quarantined != 0", "quarantined != 0"},
        {"ready > 1", "ready > 1"},
        {"delayed < 1", "delayed < 1"},
        {"in-flight = 0", "in-flight = 0"},
        {"lost = 0", "lost = 0"},
        {"now >= 1000", "now >= 1000"},
        {"reorders = 0", "reorders = 0"},
        {"alerts >= 1", "alerts >= 1"},
        {"order a, b", "order a, b"},
        {"order a, b, c", "order a, b, c"},
        {"event completed", "event completed"},
        {"event alarm-raised", "event alarm-raised"},
        {"event quarantined b", "event quarantined b"},
        {"alarm", "alarm"},
        {"not alarm", "not alarm"},
        {"not quarantined b as exhausted", "not quarantined b as exhausted"},
    };
    for (const auto& entry : cases) {
      // Named references, not structured bindings: clang 14 cannot capture those in INFO/CAPTURE.
      const auto& text = std::get<0>(entry);
      const auto& canonical = std::get<1>(entry);
      CAPTURE(text);
      CHECK(FormatGoal(MustParse(text)) == canonical);
    }
  }

  TEST_CASE("the parsed clause holds exactly what was read") {
    const Goal g = MustParse(
        "not quarantined b class precondition; attempts \"x y\" != 7; order a, b, c; event lost b; "
        "in-flight >= 2; alarm");
    REQUIRE(g.clauses.size() == 6);
    CHECK(g.clauses[0].negated);
    CHECK(g.clauses[0].predicate == GoalPredicate::kQuarantined);
    CHECK(g.clauses[0].ids == Strings{"b"});
    CHECK(g.clauses[0].reason == Reason::kNone);
    CHECK(g.clauses[0].failure_class == FailureClass::kPrecondition);
    CHECK(g.clauses[1].predicate == GoalPredicate::kAttempts);
    CHECK(g.clauses[1].ids == Strings{"x y"});
    CHECK(g.clauses[1].comparison == Comparison::kNotEqual);
    CHECK(g.clauses[1].value == 7);
    CHECK(g.clauses[2].predicate == GoalPredicate::kOrder);
    CHECK(g.clauses[2].ids == Strings{"a", "b", "c"});
    CHECK(g.clauses[3].predicate == GoalPredicate::kEvent);
    CHECK(g.clauses[3].event_kind == EventKind::kLost);
    CHECK(g.clauses[3].ids == Strings{"b"});
    CHECK(g.clauses[4].predicate == GoalPredicate::kCounter);
    CHECK(g.clauses[4].counter == GoalCounter::kInFlight);
    CHECK(g.clauses[4].comparison == Comparison::kGreaterEqual);
    CHECK(g.clauses[4].value == 2);
    CHECK_FALSE(g.clauses[5].negated);
    CHECK(g.clauses[5].predicate == GoalPredicate::kAlarm);
    CHECK(g.clauses[5].ids.empty());
  }

  TEST_CASE("every comparison, and a place name before one is its counter") {
    const std::pair<const char*, Comparison> ops[] = {{"<", Comparison::kLess},          {"<=", Comparison::kLessEqual},
                                                      {"=", Comparison::kEqual},         {"!=", Comparison::kNotEqual},
                                                      {">=", Comparison::kGreaterEqual}, {">", Comparison::kGreater}};
    for (const auto& entry : ops) {
      // Named references, not structured bindings: clang 14 cannot capture those in INFO/CAPTURE.
      const auto& op = std::get<0>(entry);
      const auto& comparison = std::get<1>(entry);
      CAPTURE(op);
      const Goal g = MustParse(std::string("completed ") + op + " 4; attempts b" + op + "4");
      CHECK(g.clauses[0].predicate == GoalPredicate::kCounter);
      CHECK(g.clauses[0].counter == GoalCounter::kCompleted);
      CHECK(g.clauses[0].comparison == comparison);
      CHECK(g.clauses[1].predicate == GoalPredicate::kAttempts);
      CHECK(g.clauses[1].comparison == comparison);
      CHECK(g.clauses[1].value == 4);
    }
    CHECK(MustParse("completed b").clauses[0].predicate == GoalPredicate::kCompleted);
  }

  TEST_CASE("whitespace around tokens is free, ',' and ',' and comparisons need none") {
    CHECK(FormatGoal(MustParse("  steps<=3;attempts b>=2 ;\n\torder a,b ,c\r\n; not   ready  b ")) ==
          "steps <= 3; attempts b >= 2; order a, b, c; not ready b");
  }

  TEST_CASE("keywords are positional: any word in an id's place is an id") {
    CHECK(MustParse("ready not").clauses[0].ids == Strings{"not"});
    CHECK(MustParse("completed steps").clauses[0].ids == Strings{"steps"});
    const Goal g = MustParse("not quarantined as as exhausted");
    CHECK(g.clauses[0].ids == Strings{"as"});
    CHECK(g.clauses[0].reason == Reason::kExhausted);
    CHECK(FormatGoal(g) == "not quarantined as as exhausted");
    CHECK(MustParse("event completed class").clauses[0].ids == Strings{"class"});
  }

  TEST_CASE("quoting: any id the queue accepts is written, bare when it can be, and reads back") {
    const std::string ids[] = {"b",
                               "acct-7/job-1",
                               "ünïcode-🙂",
                               "a b",
                               "a;b",
                               "a,b",
                               "say \"hi\"",
                               "back\\slash",
                               "line\nbreak",
                               "tab\there",
                               "<",
                               "a=b",
                               "x!",
                               "\x01"
                               "ctl",
                               "bad\xff"
                               "utf8",
                               "nul\0byte",
                               "not",
                               "as",
                               "class",
                               "\"quoted\""};
    for (std::string id : ids) {
      if (id == "nul") id = std::string("nul\0byte", 8);
      CAPTURE(id);
      GoalClause c;
      c.predicate = GoalPredicate::kReady;
      c.ids = {id};
      const Goal g{{c}};
      const std::string text = FormatGoal(g);
      CHECK(MustParse(text) == g);
      CHECK(IsValidUtf8(text));
    }
    CHECK(FormatGoal(MustParse("ready b")) == "ready b");
    CHECK(FormatGoal(MustParse("ready \"b\"")) == "ready b");  // quotes only where needed
    CHECK(FormatGoal(MustParse("ready \"a b\"")) == "ready \"a b\"");
    CHECK(FormatGoal(MustParse("ready \"a;b\"")) == "ready \"a;b\"");
    CHECK(FormatGoal(MustParse("order \"a,b\", c")) == "order \"a,b\", c");
    CHECK(FormatGoal(MustParse("ready \"say \\\"hi\\\"\"")) == "ready \"say \\\"hi\\\"\"");
    CHECK(MustParse("ready \"line\\nbreak\\t\\r\\\\\\x41\\x7a\"").clauses[0].ids == Strings{"line\nbreak\t\r\\Az"});
    CHECK(FormatGoal(MustParse("ready \"\\x01\"")) == "ready \"\\x01\"");
    CHECK(FormatGoal(MustParse("ready \"<=\"")) == "ready \"<=\"");
    // A ';' inside quotes does not end the clause.
    const Goal g = MustParse("ready \"x;y\"; steps = 1");
    REQUIRE(g.clauses.size() == 2);
    CHECK(g.clauses[0].ids == Strings{"x;y"});
  }

  TEST_CASE("canonical round trip: Format(Parse(x)) parses back to the same goal and the same text") {
    const char* goals[] = {
        "quarantined b as exhausted; steps <= 3",
        "  not  completed  \"acct 7\" ;order a,b,\"c d\";event kept-once;alarm",
        "attempts b<2;attempts b<=2;attempts b=2;attempts b!=2;attempts b>=2;attempts b>2",
        "now>=9007199254740991; reorders = 0007",
        "quarantined \"\\xff\" class crash; lost \"x\\ny\"; delayed d; in-flight f; event alert",
    };
    for (const char* text : goals) {
      CAPTURE(text);
      const Goal g = MustParse(text);
      const std::string canonical = FormatGoal(g);
      const Goal again = MustParse(canonical);
      CHECK(again == g);
      CHECK(FormatGoal(again) == canonical);
    }
  }
}

TEST_SUITE("goals: parse errors") {
  TEST_CASE("every refusal names goal, the clause, what was expected after what, and what was given") {
    const std::string predicate =
        "a predicate (quarantined, completed, ready, delayed, in-flight, lost, attempts, order, event, alarm) or a "
        "counter (steps, completed, quarantined, ready, delayed, in-flight, lost, now, reorders, alerts, charges, "
        "duplicates, partial, refused, spread, refused-replays, replay-burst)";
    const std::string comparison = "a comparison (<, <=, =, !=, >=, >)";
    const std::pair<std::string, std::string> cases[] = {
        {"ready b; attempts b >> 3",
         "goal: clause 2 \"attempts b >> 3\": expected " + comparison + " after \"attempts b\", got \">>\""},
        {"", "goal: expected at least one clause, such as \"completed b\", got an empty text"},
        {" \n ", "goal: expected at least one clause, such as \"completed b\", got only whitespace"},
        {"ready b;", "goal: clause 2 is empty: expected a clause after the last ';', got nothing"},
        {";ready b", "goal: clause 1 is empty: expected a clause before the first ';', got nothing"},
        {"ready b; ;alarm", "goal: clause 2 is empty: expected a clause between two ';', got nothing"},
        {"redy b", "goal: clause 1 \"redy b\": expected " + predicate + ", got \"redy\""},
        {"not not ready b",
         "goal: clause 1 \"not not ready b\": expected " + predicate + " after \"not\", got \"not\""},
        {"\"ready\" b", "goal: clause 1 \"\\\"ready\\\" b\": expected " + predicate + ", got \"\\\"ready\\\"\""},
        {"ready", "goal: clause 1 \"ready\": expected a job id or " + comparison +
                      " after \"ready\", got the end of the clause"},
        {"ready b c", "goal: clause 1 \"ready b c\": expected the end of the clause after \"ready b\", got \"c\""},
        {"ready a, b", "goal: clause 1 \"ready a, b\": expected the end of the clause after \"ready a\", got \",\""},
        {"completed >> 1",
         "goal: clause 1 \"completed >> 1\": expected " + comparison + " after \"completed\", got \">>\""},
        {"quarantined b as x",
         "goal: clause 1 \"quarantined b as x\": expected a quarantine reason (permanent, "
         "exhausted, stalled, max-length, expired) after \"quarantined b as\", got \"x\""},
        {"quarantined b class y",
         "goal: clause 1 \"quarantined b class y\": expected a failure class (transient, permanent, undeserializable, "
         "unknown-schema, precondition, crash) after \"quarantined b class\", got \"y\""},
        {"quarantined b foo",
         "goal: clause 1 \"quarantined b foo\": expected \"as\", \"class\", \"from\" or the end of the "
         "clause after \"quarantined b\", got \"foo\""},
        {"attempts >= 3", "goal: clause 1 \"attempts >= 3\": expected a job id after \"attempts\", got \">=\""},
        {"steps x", "goal: clause 1 \"steps x\": expected " + comparison + " after \"steps\", got \"x\""},
        {"steps <",
         "goal: clause 1 \"steps <\": expected a whole number from 0 to 9007199254740991 after "
         "\"steps <\", got the end of the clause"},
        {"steps < -1",
         "goal: clause 1 \"steps < -1\": expected a whole number from 0 to 9007199254740991 after "
         "\"steps <\", got \"-1\""},
        {"now < 9007199254740992",
         "goal: clause 1 \"now < 9007199254740992\": expected a whole number from 0 to "
         "9007199254740991 after \"now <\", got \"9007199254740992\""},
        {"order a",
         "goal: clause 1 \"order a\": expected ',' and a second job id after \"order a\", got the end of "
         "the clause"},
        {"order a b", "goal: clause 1 \"order a b\": expected ',' and a second job id after \"order a\", got \"b\""},
        {"order a,", "goal: clause 1 \"order a,\": expected a job id after \"order a,\", got the end of the clause"},
        {"order a, b c",
         "goal: clause 1 \"order a, b c\": expected ',' or the end of the clause after \"order a, b\", "
         "got \"c\""},
        {"order a, b, a",
         "goal: clause 1 \"order a, b, a\": expected a job id not already in the order after "
         "\"order a, b,\", got \"a\" again"},
        {"event done",
         "goal: clause 1 \"event done\": expected an event kind (enqueued, attempt, requeued, completed, "
         "quarantined, replayed, leased, expired, delayed, due, alert, reorder, key-released, "
         "evidence-expired, alarm-raised, alarm-cleared, lost, kept-once, discarded, patched) after \"event\", got "
         "\"done\""},
        {"event completed b c",
         "goal: clause 1 \"event completed b c\": expected the end of the clause after \"event completed b\", got "
         "\"c\""},
        {"alarm now", "goal: clause 1 \"alarm now\": expected the end of the clause after \"alarm\", got \"now\""},
        {"ready \"b",
         "goal: clause 1 \"ready \\\"b\": expected a closing '\"' after \"ready \\\"b\", got the end of "
         "the goal"},
        {"ready \"a\\q\"",
         "goal: clause 1 \"ready \\\"a\\\\q\\\"\": expected an escape (\\\" \\\\ \\n \\r \\t or "
         "\\xHH) after \"ready \\\"a\", got \"\\\\q\""},
        {"ready \"\"",
         "goal: clause 1 \"ready \\\"\\\"\": expected a non-empty job id after \"ready\", got an empty "
         "quoted id"},
        {"Ready b", "goal: clause 1 \"Ready b\": expected " + predicate + ", got \"Ready\""},  // case-sensitive
    };
    for (const auto& entry : cases) {
      // Named references, not structured bindings: clang 14 cannot capture those in INFO/CAPTURE.
      const auto& text = std::get<0>(entry);
      const auto& message = std::get<1>(entry);
      CAPTURE(text);
      const Result<Goal> g = ParseGoal(text);
      REQUIRE_FALSE(g.ok());
      CHECK(g.status().code() == Code::kInvalidArgument);
      CHECK(g.status().message() == message);
    }
  }

  TEST_CASE("a long clause is cut in the message, and the text just before the error is kept") {
    std::string clause = "order j00";
    for (int i = 1; i < 30; ++i) clause += (i < 10 ? ", j0" : ", j") + std::to_string(i);
    clause += " x";
    const std::string message = ParseGoal(clause).status().message();
    CHECK(message == "goal: clause 1 " + QuoteShort(clause, 120) +
                         ": expected ',' or the end of the clause after \"… j17, j18, j19, j20, j21, j22, j23, j24, "
                         "j25, j26, j27, j28, j29\", got \"x\"");
    CHECK(message.find("… (" + std::to_string(clause.size()) + " bytes): expected") != std::string::npos);
    CHECK(IsValidUtf8(message));
  }
}

TEST_SUITE("goals: limits") {
  TEST_CASE("text length: 4096 bytes parse, 4097 are refused before anything is read") {
    std::string text = "steps >= 0";
    text.resize(kMaxGoalBytes, ' ');
    CHECK(ParseGoal(text).ok());
    text += ' ';
    CHECK(Refusal(text) == "too-large: goal must be at most 4096 bytes, got 4097 bytes");
    CHECK(Refusal(std::string(5000, 'x')) == "too-large: goal must be at most 4096 bytes, got 5000 bytes");
  }

  TEST_CASE("a goal whose canonical text would pass 4096 bytes is refused, so every accepted goal reads back") {
    // An order list: "a,b" is written "a, b", a byte more per id.
    std::string order = "order ";
    const std::string letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    for (size_t i = 0; i < 1363; ++i) order += (i ? "," : "") + std::string{letters[i % 52], letters[i / 52]};
    REQUIRE(order.size() <= kMaxGoalBytes);
    const std::string refusal = Refusal(order);
    CHECK(refusal.rfind(
              "too-large: goal (in its canonical form, as FormatGoal() writes it) must be at most 4096 bytes, got ",
              0) == 0);
    // Just under the line it parses and reads back.
    std::string shorter = "order ";
    for (int i = 0; i < 650; ++i) shorter += (i ? "," : "") + std::string("j") + std::to_string(i);
    const Goal goal = MustParse(shorter);
    CHECK(FormatGoal(goal).size() <= kMaxGoalBytes);
    CHECK(FormatGoal(MustParse(FormatGoal(goal))) == FormatGoal(goal));
  }

  TEST_CASE("clauses: 32 parse, 33 are refused, whatever they hold") {
    std::string text = "alarm";
    for (int i = 1; i < 32; ++i) text += "; alarm";
    CHECK(MustParse(text).clauses.size() == 32);
    CHECK(Refusal(text + "; alarm") == "too-large: goal must be at most 32 clauses, got 33 clauses");
    CHECK(Refusal(std::string(40, ';')) == "too-large: goal must be at most 32 clauses, got 41 clauses");
  }

  TEST_CASE("an id of 1024 bytes is read, one of 1025 is refused, numbers up to 2^53 - 1") {
    const std::string id(kMaxIdBytes, 'j');
    CHECK(MustParse("ready " + id).clauses[0].ids == Strings{id});
    CHECK(ParseGoal("ready \"" + id + "j\"").status().message() ==
          "goal: clause 1 " + QuoteShort("ready \"" + id + "j\"", 120) +
              ": expected a job id of at most 1024 bytes after \"ready\", got one of 1025 bytes");
    CHECK(MustParse("now <= 9007199254740991").clauses[0].value == kMaxGoalNumber);
  }
}

TEST_SUITE("goals: checking") {
  TEST_CASE("where a job is: every place, met and unmet, with what is true now") {
    const Queue q = ThreePlaces();
    CHECK(Met(q, "ready a"));
    CHECK(Actual(q, "ready a") == "a is ready with 1 attempt");
    CHECK_FALSE(Met(q, "ready b"));
    CHECK(Actual(q, "ready b") == "b is completed with 1 attempt");
    CHECK(Met(q, "completed b"));
    CHECK_FALSE(Met(q, "completed a"));
    CHECK(Met(q, "quarantined c"));
    CHECK(Actual(q, "quarantined c") == "c is quarantined as permanent (class permanent) with 1 attempt");
    CHECK(Met(q, "quarantined c as permanent"));
    CHECK_FALSE(Met(q, "quarantined c as exhausted"));
    CHECK(Met(q, "quarantined c class permanent"));
    CHECK_FALSE(Met(q, "quarantined c class transient"));
    CHECK_FALSE(Met(q, "quarantined a"));
    CHECK_FALSE(Met(q, "quarantined a as exhausted"));
    for (const char* place : {"delayed", "in-flight", "lost"}) {
      CAPTURE(place);
      CHECK_FALSE(Met(q, std::string(place) + " a"));
      CHECK(Met(q, std::string("not ") + place + " a"));
    }
  }

  TEST_CASE("delayed and in flight") {
    Policy p;
    p.max_attempts = 3;
    p.backoff = {BackoffKind::kFixed, 100, 100, Jitter::kNone};
    p.lease_ms = 1000;
    Queue q = Make(p);
    REQUIRE(q.EnqueueMany({{"a", ""}, {"b", ""}}).ok());
    REQUIRE(q.Lease().value().leased);  // a, lease-1 until 1000
    MustProcess(q, "transient");        // b: delayed until 100
    CHECK(Met(q, "in-flight a"));
    CHECK(Actual(q, "in-flight a") == "a is in flight (lease-1, expires at 1000 ms) with 1 attempt");
    CHECK(Met(q, "delayed b"));
    CHECK(Actual(q, "delayed b") == "b is delayed until 100 ms with 1 attempt");
    CHECK_FALSE(Met(q, "ready b"));
    CHECK(Unmet(q, "in-flight = 1; delayed = 1; ready = 0; now = 0") == "");
    REQUIRE(q.Advance(int64_t{100}).ok());  // b is due
    CHECK(Met(q, "ready b"));
    CHECK(Unmet(q, "now = 100; event due b; delayed = 0") == "");
    REQUIRE(q.Advance(int64_t{900}).ok());  // a's lease expires: a crash, delayed again
    CHECK(Unmet(q, "delayed a; event expired a; in-flight = 0; now = 1000") == "");
  }

  TEST_CASE("a ready job held by an earlier job of its key says whom it waits for") {
    Policy p;
    p.ordering = Ordering::kKey;
    Queue q = Make(p);
    REQUIRE(q.Enqueue("a", "", "acct-7").ok());
    REQUIRE(q.Enqueue("b", "", "acct-7").ok());
    MustProcess(q, "transient");
    CHECK(Actual(q, "ready b") == "b is ready (held by a) with 0 attempts");
    CHECK(Met(q, "ready b"));
  }

  TEST_CASE("attempts with every comparison, each met and unmet") {
    const Queue q = ThreePlaces();  // a has 1 attempt
    const std::pair<const char*, bool> cases[] = {
        {"attempts a < 2", true},  {"attempts a < 1", false},  {"attempts a <= 1", true}, {"attempts a <= 0", false},
        {"attempts a = 1", true},  {"attempts a = 2", false},  {"attempts a != 0", true}, {"attempts a != 1", false},
        {"attempts a >= 1", true}, {"attempts a >= 2", false}, {"attempts a > 0", true},  {"attempts a > 1", false},
    };
    for (const auto& entry : cases) {
      // Named references, not structured bindings: clang 14 cannot capture those in INFO/CAPTURE.
      const auto& clause = std::get<0>(entry);
      const auto& met = std::get<1>(entry);
      CAPTURE(clause);
      CHECK(Met(q, clause) == met);
      CHECK(Met(q, std::string("not ") + clause) == !met);
      CHECK(Actual(q, clause) == "a is ready with 1 attempt");
    }
  }

  TEST_CASE("every counter, met and unmet") {
    const Queue q = ThreePlaces();
    const std::pair<const char*, const char*> counters[] = {
        {"steps", "3"},     {"completed", "1"}, {"quarantined", "1"}, {"ready", "1"},    {"delayed", "0"},
        {"in-flight", "0"}, {"lost", "0"},      {"now", "0"},         {"reorders", "0"}, {"alerts", "0"},
    };
    for (const auto& entry : counters) {
      // Named references, not structured bindings: clang 14 cannot capture those in INFO/CAPTURE.
      const auto& name = std::get<0>(entry);
      const auto& value = std::get<1>(entry);
      CAPTURE(name);
      const std::string is = std::string(name) + " = " + value;
      CHECK(Met(q, is));
      CHECK(Actual(q, is) == is);
      CHECK_FALSE(Met(q, std::string(name) + " != " + value));
      CHECK_FALSE(Met(q, std::string(name) + " > " + value));
      CHECK(Met(q, std::string("not ") + name + " > " + value));
    }
  }

  TEST_CASE("alerts, reorders and now count what happened") {
    Queue q = MakeQueue(3);
    REQUIRE(q.Enqueue("a", "", "k").ok());
    REQUIRE(q.Enqueue("b", "", "k").ok());
    REQUIRE(q.Enqueue("v9", "").ok());
    MustProcess(q, "transient");       // a -> tail
    MustProcess(q, "success");         // b overtakes a: a reorder
    MustProcess(q, "unknown-schema");  // v9: quarantined with an alert
    REQUIRE(q.Advance(int64_t{250}).ok());
    CHECK(Unmet(q, "reorders = 1; alerts = 1; now = 250; steps = 3") == "");
    CHECK(Unmet(q, "event reorder b; event alert v9; quarantined v9 class unknown-schema") == "");
    CHECK(Actual(q, "alerts >= 2") == "alerts = 1");
  }

  // Jitter's measure: the retries scheduled at one instant, and how far apart they come back.
  Queue Lockstep(Jitter jitter) {
    Policy p;
    p.backoff.kind = BackoffKind::kFixed;
    p.backoff.base_ms = 1000;
    p.backoff.jitter = jitter;
    p.seed = 7;
    Queue q = Make(p);
    REQUIRE(q.EnqueueMany({{"a", ""}, {"b", ""}, {"c", ""}}).ok());
    for (int i = 0; i < 3; ++i) MustProcess(q, "transient");  // all three fail at 0 ms
    return q;
  }

  TEST_CASE("spread: three retries scheduled at one instant come back together without jitter") {
    const Queue q = Lockstep(Jitter::kNone);
    CHECK(Met(q, "spread = 0"));
    CHECK(Actual(q, "spread >= 1") == "spread = 0: 3 retries scheduled at 0 ms, all due at 1000 ms");
    const RetrySpread s = RetrySpreadOf(q);
    CHECK(s.count == 3);
    CHECK(s.spread_ms == 0);
  }

  TEST_CASE("spread: full jitter draws them apart, the earliest to the latest due time") {
    const Queue q = Lockstep(Jitter::kFull);
    int64_t lo = INT64_MAX, hi = 0;
    for (const DelayedView& d : q.view().Delayed()) lo = std::min(lo, d.due_at), hi = std::max(hi, d.due_at);
    REQUIRE(hi > lo);
    CHECK(Met(q, "spread = " + std::to_string(hi - lo)));
    CHECK(Actual(q, "spread > 0") == "spread = " + std::to_string(hi - lo) +
                                         ": 3 retries scheduled at 0 ms, due from " + std::to_string(lo) + " to " +
                                         std::to_string(hi) + " ms");
  }

  TEST_CASE("spread: the largest crowd at one instant counts, of equal crowds the earliest") {
    const auto delayed = [](int64_t time, int64_t until) {
      Event e;
      e.kind = EventKind::kDelayed;
      e.time = time;
      e.until = until;
      return e;
    };
    RetrySpread current, best;
    // Three at 0 ms, all due at 100; then a pair at 10 ms, far apart: the crowd of three counts.
    for (const Event& e : {delayed(0, 100), delayed(0, 100), delayed(0, 100), delayed(10, 20), delayed(10, 900)}) {
      AddToRetrySpread(e, &current, &best);
    }
    CHECK(best.count == 3);
    CHECK(best.at == 0);
    CHECK(best.spread_ms == 0);
    CHECK(DescribeRetrySpread(best) == "spread = 0: 3 retries scheduled at 0 ms, all due at 100 ms");
    // Two pairs: the earlier one counts, whichever is wider.
    current = best = {};
    for (const Event& e : {delayed(5, 100), delayed(5, 250), delayed(9, 100), delayed(9, 900)}) {
      AddToRetrySpread(e, &current, &best);
    }
    CHECK(best.at == 5);
    CHECK(best.spread_ms == 150);
    CHECK(DescribeRetrySpread(best) == "spread = 150: 2 retries scheduled at 5 ms, due from 100 to 250 ms");
    // A lone retry is no crowd.
    current = best = {};
    AddToRetrySpread(delayed(0, 7), &current, &best);
    CHECK(best.count == 0);
  }

  TEST_CASE("spread: retries at different instants are not compared") {
    Policy p;
    p.backoff.kind = BackoffKind::kFixed;
    p.backoff.base_ms = 1000;
    Queue q = Make(p);
    REQUIRE(q.EnqueueMany({{"a", ""}, {"b", ""}}).ok());
    MustProcess(q, "transient");  // a at 0 ms
    REQUIRE(q.Advance(int64_t{10}).ok());
    MustProcess(q, "transient");  // b at 10 ms
    CHECK(Actual(q, "spread = 0") == "spread = 0: no two retries were scheduled at one instant");
    CHECK(RetrySpreadOf(q).count == 0);
    CHECK(Met(MakeQueue(3), "spread = 0"));  // no retry at all
  }

  TEST_CASE("spread: a malformed clause is refused by name, and checking it changes nothing") {
    CHECK(Refusal("spread >> 100") ==
          "invalid-argument: goal: clause 1 \"spread >> 100\": expected a comparison (<, <=, =, !=, >=, >) after "
          "\"spread\", got \">>\"");
    CHECK(Refusal("spread > -1").find("invalid-argument: goal: clause 1 \"spread > -1\"") == 0);
    const Queue q = Lockstep(Jitter::kFull);
    const std::string before = State(q);
    (void)CheckGoal(MustParse("spread > 100; not spread = 0"), q);
    CHECK(State(q) == before);
  }

  TEST_CASE("order: all completed, in this relative order, by their completion events") {
    Queue q = MakeQueue(3);
    REQUIRE(q.EnqueueMany({{"a", ""}, {"b", ""}, {"c", ""}, {"d", ""}}).ok());
    MustProcess(q, "transient");  // a -> tail: b, c, d, a
    MustProcess(q, "success");    // b
    MustProcess(q, "success");    // c
    CHECK(Met(q, "order b, c"));
    CHECK(Actual(q, "order b, c") == "completed in the order b, c");
    CHECK_FALSE(Met(q, "order c, b"));
    CHECK(Actual(q, "order c, b") == "completed in the order b, c");
    CHECK(Met(q, "not order c, b"));
    CHECK_FALSE(Met(q, "order b, c, a"));
    CHECK(Actual(q, "order b, c, a") == "a is ready with 1 attempt");
    MustProcess(q, "success");  // d
    MustProcess(q, "success");  // a
    CHECK(Unmet(q, "order b, c, d, a; order b, a; order c, a") == "");
    CHECK_FALSE(Met(q, "order a, d"));
  }

  TEST_CASE("event: of a kind, for a job if given, what it shows is the first such line") {
    const Queue q = ThreePlaces();
    CHECK(Met(q, "event completed b"));
    CHECK(Actual(q, "event completed b") == Line(q, EventKind::kCompleted, "b"));
    CHECK(Met(q, "event completed"));
    CHECK_FALSE(Met(q, "event completed a"));
    CHECK(Actual(q, "event completed a") == "no completed event for a");
    CHECK(Unmet(q, "event requeued a; event quarantined c; event enqueued") == "");
    CHECK_FALSE(Met(q, "event alarm-raised"));
    CHECK(Actual(q, "event alarm-raised") == "no alarm-raised event");
    CHECK(Met(q, "not event replayed"));
  }

  TEST_CASE("alarm: raised now, not ever") {
    Policy p;
    p.alarm_depth = 1;
    Queue q = Make(p);
    REQUIRE(q.EnqueueMany({{"a", ""}, {"b", ""}}).ok());
    CHECK_FALSE(Met(q, "alarm"));
    CHECK(Actual(q, "alarm") == "no alarm: 0 entries in quarantine, alarm depth 1");
    MustProcess(q, "permanent");
    CHECK(Met(q, "alarm"));
    CHECK(Actual(q, "alarm") == "alarm raised: 1 entry in quarantine, alarm depth 1");
    REQUIRE(q.Replay("a"));
    CHECK_FALSE(Met(q, "alarm"));
    CHECK(Unmet(q, "not alarm; event alarm-raised; event alarm-cleared") == "");
    const Queue plain = MakeQueue(3);
    CHECK(Actual(plain, "alarm") == "no alarm: the policy sets no alarm depth");
  }

  TEST_CASE("lost: a job a crash left in no place") {
    Policy p;
    p.max_attempts = 1;
    p.unsafe_quarantine_order = true;
    Queue q = Make(p);
    REQUIRE(q.EnqueueMany({{"a", ""}, {"b", ""}}).ok());
    const std::string base = q.Snapshot().value();
    MustProcess(q, "success");
    MustProcess(q, "permanent");  // b: removed from ready, then put in quarantine
    const std::vector<JournalEntry> journal = q.view().Journal().value();
    std::vector<std::string> records;
    for (const JournalEntry& e : journal) records.push_back(e.record);
    const std::vector<std::string_view> views(records.begin(), records.end());
    Result<Recovery> rec = Queue::Recover(std::string_view(base), views, {3, false});  // the crash after write 3
    REQUIRE_MESSAGE(rec.ok(), rec.status().ToString());
    REQUIRE(rec->lost == Strings{"b"});
    const Queue& r = rec->queue;
    CHECK(Unmet(r, "lost b; lost = 1; event lost b; completed a") == "");
    // Its count is the one its lost event carries: the last one a durable write kept.
    CHECK(Actual(r, "lost b") == "b is lost (a crash left it in no place) with 0 attempts");
    CHECK(Line(r, EventKind::kLost, "b").find("lost \"b\" attempts 0") != std::string::npos);
    CHECK_FALSE(Met(r, "quarantined b"));
    CHECK(Met(r, "attempts b = 0"));
    CHECK_FALSE(Met(r, "lost a"));
  }

  TEST_CASE("a quarantine entry dropped at its retention is in no place, and says so") {
    Policy p;
    p.retention_ms = 100;
    Queue q = Make(p);
    REQUIRE(q.Enqueue("a", "").ok());
    MustProcess(q, "permanent");
    REQUIRE(q.Advance(int64_t{100}).ok());
    CHECK_FALSE(Met(q, "quarantined a"));
    CHECK(Actual(q, "quarantined a") == "a was dropped from quarantine at its retention, with 1 attempt");
    CHECK(Unmet(q, "not quarantined a; event evidence-expired a; quarantined = 0") == "");
  }

  TEST_CASE("a job the queue was never given: unmet, with 'not' too") {
    const Queue q = ThreePlaces();
    for (const char* clause :
         {"ready zz", "not ready zz", "quarantined zz as permanent", "attempts zz = 0", "not attempts zz > 5",
          "order a, zz", "not order zz, a", "event completed zz", "not event completed zz", "lost zz"}) {
      CAPTURE(clause);
      const ClauseCheck c = CheckOne(q, clause);
      CHECK_FALSE(c.met);
      CHECK(c.actual == "no job zz");
    }
  }

  TEST_CASE("ids that need quotes are found like any other") {
    Queue q = MakeQueue(3);
    REQUIRE(q.Enqueue("acct 7; job,1", "").ok());
    REQUIRE(q.Enqueue("x=1", "").ok());
    MustProcess(q, "success");
    CHECK(Unmet(q, "completed \"acct 7; job,1\"; ready \"x=1\"") == "");
    CHECK(Actual(q, "ready \"x=1\"") == "\"x=1\" is ready with 0 attempts");
  }

  TEST_CASE("jobs far down a big queue are found (views are read in slices)") {
    Queue q = MakeQueue(3);
    std::vector<JobSpec> specs;
    for (int i = 0; i < 1000; ++i) specs.push_back({"j" + std::to_string(i), "", ""});
    std::vector<JobRef> refs;
    for (const JobSpec& s : specs) refs.push_back({s.id, s.payload});
    REQUIRE(q.EnqueueMany(refs).ok());
    for (int i = 0; i < 600; ++i) MustProcess(q, "success");
    CHECK(Unmet(q, "completed j0; completed j599; ready j600; ready j999; order j0, j300, j599; completed = 600") ==
          "");
  }

  TEST_CASE("the goal is met when every clause is, clauses keep their order and canonical text") {
    const Queue q = ThreePlaces();
    const GoalCheck all = CheckGoal(MustParse("completed b;quarantined c as permanent;steps<=3"), q);
    CHECK(all.met);
    REQUIRE(all.clauses.size() == 3);
    CHECK(all.clauses[0].text == "completed b");
    CHECK(all.clauses[1].text == "quarantined c as permanent");
    CHECK(all.clauses[2].text == "steps <= 3");
    const GoalCheck one_unmet = CheckGoal(MustParse("completed b; steps < 3; ready a"), q);
    CHECK_FALSE(one_unmet.met);
    CHECK(one_unmet.clauses[0].met);
    CHECK_FALSE(one_unmet.clauses[1].met);
    CHECK(one_unmet.clauses[1].actual == "steps = 3");
    CHECK(one_unmet.clauses[2].met);
  }

  TEST_CASE("checking never changes the queue") {
    Policy p;
    p.alarm_depth = 1;
    p.lease_ms = 50;
    Queue q = Make(p);
    REQUIRE(q.EnqueueMany({{"a", "A"}, {"b", "B"}, {"c", "C"}}).ok());
    MustProcess(q, "permanent");
    REQUIRE(q.Lease().value().leased);
    const std::string before = State(q);
    const Goal g = MustParse(
        "quarantined a; in-flight b; ready c; attempts b = 1; steps = 2; alerts = 0; order a, b; event leased b; "
        "alarm; "
        "lost zz; now = 0");
    const GoalCheck first = CheckGoal(g, q);
    for (int i = 0; i < 3; ++i) {
      const GoalCheck again = CheckGoal(g, q);
      REQUIRE(again.clauses.size() == first.clauses.size());
      for (size_t k = 0; k < again.clauses.size(); ++k) {
        CHECK(again.clauses[k].met == first.clauses[k].met);
        CHECK(again.clauses[k].actual == first.clauses[k].actual);
      }
    }
    CHECK(State(q) == before);
    // And the queue goes on exactly as one that was never checked.
    REQUIRE(q.Advance(int64_t{50}).ok());
    CHECK(Unmet(q, "event expired b; delayed = 0; ready = 2") == "");
  }
}

TEST_SUITE("par: how few actions a solution needs") {
  Scenario MustScenario(std::string_view text) {
    Result<Scenario> s = ParseScenario(text);
    REQUIRE_MESSAGE(s.ok(), s.status().ToString());
    return std::move(s).value();
  }

  std::optional<GoalPar> MustPar(std::string_view goal, std::string_view solution) {
    Result<std::optional<GoalPar>> par = SolutionPar(MustParse(goal), MustScenario(solution));
    REQUIRE_MESSAGE(par.ok(), par.status().ToString());
    return par.value();
  }

  TEST_CASE("the first action after which the goal holds, played from the set-up whatever the cursor") {
    // Lesson 1's tail exercise: c, b, a needs all six actions.
    const auto tail = MustPar("order c, b, a; completed = 3", "v1;m3;ja:,b:,c:;at,t,s,t,s,s;c0");
    REQUIRE(tail.has_value());
    CHECK(tail->actions == 6);
    CHECK(tail->steps == 6);
    // A script longer than it needs: the goal holds after the second action.
    const auto early = MustPar("completed a", "v1;m3;ja:;at,s");
    REQUIRE(early.has_value());
    CHECK(early->actions == 2);
    // Holding at the set-up: par 0.
    CHECK(MustPar("ready a", "v1;m3;ja:;as")->actions == 0);
    // Clock actions count as actions; steps count attempts only.
    const auto clock = MustPar("quarantined a class crash; now = 6000",
                               "v2;m3;bx1000.4000n;l1000;s1;ja:;al,w1000,n,l,w1000,n,l,w1000;c0");
    REQUIRE(clock.has_value());
    CHECK(clock->actions == 8);
    CHECK(clock->steps == 3);
  }

  TEST_CASE("moves: the solver's own actions, never the ones the world takes itself") {
    // Without a world every action is a move.
    const auto tail = MustPar("order c, b, a; completed = 3", "v1;m3;ja:,b:,c:;at,t,s,t,s,s;c0");
    CHECK(tail->moves == 6);
    // Lesson 2's outage Show me: a set-up change, then Run. Its 29 actions are the world's, no move.
    const std::string outage =
        "v2;m3;bx1000.4000n;s1;y4.100.0.3000;ja:order%20a,b:order%20b,c:order%20c,d:order%20d;"
        "al,l,l,l,w100,k1t:dependency%20down%20(outage%20until%203000%20ms),k2t:dependency%20down%20(outage%20until%"
        "203000%20ms),"
        "k3t:dependency%20down%20(outage%20until%203000%20ms),k4t:dependency%20down%20(outage%20until%203000%20ms),n,l,"
        "l,l,l,w100,"
        "k5t:dependency%20down%20(outage%20until%203000%20ms),k6t:dependency%20down%20(outage%20until%203000%20ms),"
        "k7t:dependency%20down%20(outage%20until%203000%20ms),k8t:dependency%20down%20(outage%20until%203000%20ms),n,l,"
        "l,l,l,w100,"
        "k9s,k10s,k11s,k12s;c0";
    const auto par = MustPar("completed = 4; quarantined = 0", outage);
    REQUIRE(par.has_value());
    CHECK(par->actions == 29);
    CHECK(par->moves == 0);
    Scenario played = MustScenario(outage);
    played.cursor = played.actions.size();
    Result<size_t> world_only = LearnerMoves(played);
    REQUIRE(world_only.ok());
    CHECK(world_only.value() == 0);
    // A hand at the wheel: advancing the clock by 50 ms where the world would lease is the solver's move;
    // what the world then does again is not.
    Scenario by_hand = MustScenario("v2;m3;s1;y2.100.0.0;ja:order%20a;aw50,l,w100,k1s");
    by_hand.cursor = by_hand.actions.size();
    Result<size_t> one = LearnerMoves(by_hand);
    REQUIRE(one.ok());
    CHECK(one.value() == 1);
    by_hand.cursor = 0;
    CHECK(LearnerMoves(by_hand).value() == 0);
  }

  TEST_CASE("a solution that never meets the goal has no par, a broken one is refused by name") {
    CHECK_FALSE(MustPar("quarantined a", "v1;m3;ja:;as").has_value());
    CHECK_FALSE(MustPar("completed nobody", "v1;m3;ja:;as").has_value());
    // The third action processes with nothing ready: refused as RunScenario would, naming it.
    Result<std::optional<GoalPar>> broken = SolutionPar(MustParse("completed b"), MustScenario("v1;m3;ja:;as,s,s;c0"));
    REQUIRE_FALSE(broken.ok());
    CHECK(broken.status().message().find("scenario action 2") != std::string::npos);
  }
}

}  // namespace goal_test
