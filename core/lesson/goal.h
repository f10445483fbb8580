// Goals: a small declarative language in which a lesson states what an exercise
// asks for ("quarantined b as exhausted; steps <= 3"), checked against a queue
// after every change. docs/goals.md is the reference, with examples.
//
// Grammar (whitespace between tokens is free; ';' ',' and the comparison
// signs need none around them):
//   goal      := clause ( ';' clause )*
//   clause    := [ 'not' ] predicate
//   predicate := 'quarantined' ID [ 'as' REASON | 'class' CLASS | 'from' QUEUE ]
//              | 'completed' ID | 'ready' ID | 'delayed' ID | 'in-flight' ID | 'lost' ID
//              | 'attempts' ID OP INT
//              | COUNTER OP INT
//              | 'order' ID ',' ID ( ',' ID )*
//              | 'event' KIND [ ID ]
//              | 'alarm'
//   COUNTER   := steps | completed | quarantined | ready | delayed | in-flight | lost
//              | now | reorders | alerts | charges | duplicates | partial | refused
//              | spread
//              | refused-replays | replay-burst
//   OP        := '<' | '<=' | '=' | '!=' | '>=' | '>'
//   INT       := decimal digits, 0 to kMaxGoalNumber (2^53 - 1: exact in JavaScript)
//   REASON    := ReasonName() (permanent | exhausted | stalled | max-length | expired); CLASS := ClassName();
//   KIND      := EventKindName(); QUEUE := a source queue's name, written as an ID
//                (the entry's QuarantineEntry::source_queue, e.g. orders)
//   ID        := a bare word: 1 to kMaxIdBytes bytes, none of them whitespace,
//                ';' ',' '"' '<' '>' '=' or '!'; or "…" with Quote()'s escapes
//                (\" \\ \n \r \t \xHH), for any id the queue accepts. FormatGoal()
//                writes an id bare only when it is also valid UTF-8 without control
//                bytes, so the canonical text is printable UTF-8.
// Keywords are positional, so any word in an ID's place is an id ("ready not" is
// job "not"). Six names are both a place and a counter: followed by a comparison
// they are the counter ("completed >= 2"), else the place ("completed b"). That is
// why the comparison signs cannot appear in a bare id: "completed =" could mean
// either.
//
// Contract:
//  * ParseGoal() refuses, changing nothing: TooLarge past kMaxGoalBytes bytes or
//    kMaxGoalClauses clauses (checked first); TooLarge when the goal's canonical
//    text (below) would pass kMaxGoalBytes, e.g. a long order list, whose ", "
//    takes a byte more per id, or many escaped bytes (checked last, so a goal that
//    parses can always be written and read again); otherwise InvalidArgument naming
//    `goal`, the clause (1-based) and its text, what was expected after what, and
//    what was given:
//      goal: clause 2 "attempts b >> 3": expected a comparison (<, <=, =, !=, >=, >)
//      after "attempts b", got ">>"
//    Parsing knows no queue: an id no queue has is well-formed.
//  * FormatGoal() gives the canonical text: keywords and tokens separated by one
//    space, ", " in an order, "; " between clauses, an id bare when it can be and
//    quoted by Quote() otherwise. ParseGoal(FormatGoal(g)) == g for every goal
//    ParseGoal() gives, so the canonical text is a stable key for a goal.
//  * CheckGoal() is pure and deterministic: it reads the queue through its const
//    public API only (Locate, stats, the timeline). A clause that names a job the
//    queue was never given is unmet, with or without 'not' ("no job b"): a typo in
//    a lesson's goal must never read as met. Its cost is one lookup per job the
//    goal names, and one pass over the timeline when a clause needs it (event,
//    order, alerts, or a job in no place: lost, dropped or never given).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "event.h"
#include "policy.h"
#include "queue.h"
#include "status.h"

namespace dlq {

constexpr size_t kMaxGoalBytes = 4096;          // a goal's text
constexpr size_t kMaxGoalClauses = 32;          // clauses in one goal
constexpr int64_t kMaxGoalNumber = kMaxTimeMs;  // 2^53 - 1: INT is exact as a JavaScript number

enum class GoalPredicate : uint8_t {
  kQuarantined,
  kCompleted,
  kReady,
  kDelayed,
  kInFlight,
  kLost,      // where ids[0] is now
  kAttempts,  // ids[0]'s attempt count, compared
  kCounter,   // a counter, compared
  kOrder,     // ids all completed, in this relative order
  kEvent,     // the timeline has an event of event_kind (for ids[0], if given)
  kAlarm,     // the quarantine's depth alarm is raised now
};

// The counters a goal can compare, each from Queue::stats() except alerts (the
// timeline's alert events) and in-flight (stats().leased).
// charges, duplicates and partial are the side-effect ledger's (ledger.h: applied
// charges, applied charges beyond the first per job, dead jobs that were
// charged); refused counts the calls the playground's session refused
// (GoalContext; 0 for a bare queue). spread is jitter's measure (RetrySpreadOf):
// take the largest crowd of retries scheduled at one instant (delayed events at
// one time, two at least; of equal crowds the earliest), the gap in ms between
// the earliest and the latest due time among them; 0 when no two retries were
// scheduled at one instant. Jobs that failed together come back together
// without jitter (0), and spread out with it. refused-replays counts the
// replays the session answered false (no such job in quarantine: nothing changed).
// replay-burst is a redrive's pace (ReplayBurstOf): the most replayed events in
// any window [t, t + 1000 ms) of the timeline; a rate-limited redrive at N per
// second keeps it at N, a redrive of everything at once makes it the whole batch.
enum class GoalCounter : uint8_t {
  kSteps,
  kCompleted,
  kQuarantined,
  kReady,
  kDelayed,
  kInFlight,
  kLost,
  kNow,
  kReorders,
  kAlerts,
  kCharges,
  kDuplicates,
  kPartial,
  kRefused,
  kSpread,
  kRefusedReplays,
  kReplayBurst,
};
constexpr int kGoalCounterCount = 17;
// "steps" | "completed" | "quarantined" | "ready" | "delayed" | "in-flight" | "lost" |
// "now" | "reorders" | "alerts" | "charges" | "duplicates" | "partial" | "refused" | "spread" |
// "refused-replays" | "replay-burst".
const char* GoalCounterName(GoalCounter counter);

// The spread counter's rule: the largest crowd of retries scheduled at one
// instant (kDelayed events with one time; of equal crowds the earliest), and how
// far apart their due times lie. `count` 0: no instant had two.
struct RetrySpread {
  int64_t spread_ms = 0;  // latest due - earliest due
  size_t count = 0;       // the retries scheduled at that instant
  int64_t at = 0;         // the instant
  int64_t earliest_due = 0, latest_due = 0;
};
// Adds one delayed event to `current`, the instant being read (a timeline read in
// time order, so an instant's events are contiguous), and keeps `best` the largest crowd.
void AddToRetrySpread(const Event& delayed, RetrySpread* current, RetrySpread* best);
// The whole timeline's spread: one pass.
RetrySpread RetrySpreadOf(const Queue& queue);
// "spread = 180: 6 retries scheduled at 50 ms, due from 120 to 300 ms", or
// "spread = 0: no two retries were scheduled at one instant".
std::string DescribeRetrySpread(const RetrySpread& spread);

// The replay-burst counter's rule: the most replays (kReplayed events) in one
// window [at, at + 1000 ms), of equal counts the earliest window.
struct ReplayBurst {
  size_t count = 0;
  int64_t at = 0;  // the window's first replay
};
// Adds one replayed event to `window` (the times of the replays in the window
// being read, a timeline read in time order) and keeps `best` the fullest window.
void AddToReplayBurst(const Event& replayed, std::vector<int64_t>* window, size_t* first, ReplayBurst* best);
// "replay-burst = 3: 3 replays in the second from 2000 ms", or "replay-burst = 0: no replay".
std::string DescribeReplayBurst(const ReplayBurst& burst);

enum class Comparison : uint8_t { kLess, kLessEqual, kEqual, kNotEqual, kGreaterEqual, kGreater };
constexpr int kComparisonCount = 6;
const char* ComparisonName(Comparison comparison);  // "<" | "<=" | "=" | "!=" | ">=" | ">"
bool Compare(uint64_t actual, Comparison comparison, uint64_t value);

// One clause. Fields a predicate does not use keep their defaults (ParseGoal()
// sets only the ones it read), so == compares clauses exactly.
struct GoalClause {
  bool negated = false;
  GoalPredicate predicate = GoalPredicate::kAlarm;
  // The job ids it names: one for a place, kAttempts and kEvent with an id; two
  // or more, all different, for kOrder.
  std::vector<std::string> ids;
  Reason reason = Reason::kNone;                // kQuarantined "as": kNone for any reason
  std::optional<FailureClass> failure_class;    // kQuarantined "class"
  std::string source_queue;                     // kQuarantined "from": "" for any queue
  GoalCounter counter = GoalCounter::kSteps;    // kCounter
  Comparison comparison = Comparison::kEqual;   // kAttempts, kCounter
  int64_t value = 0;                            // kAttempts, kCounter: 0..kMaxGoalNumber
  EventKind event_kind = EventKind::kEnqueued;  // kEvent

  bool operator==(const GoalClause&) const = default;
};

struct Goal {
  std::vector<GoalClause> clauses;  // 1..kMaxGoalClauses
  bool operator==(const Goal&) const = default;
};

Result<Goal> ParseGoal(std::string_view text);

// The canonical text of a goal, and of one clause.
std::string FormatGoal(const Goal& goal);
std::string FormatClause(const GoalClause& clause);

struct ClauseCheck {
  std::string text;  // the canonical clause
  bool met = false;
  // What is true now, in a few words: "b is ready with 2 attempts", "steps = 4",
  // "no job b". The same with or without 'not'.
  std::string actual;
};

struct GoalCheck {
  bool met = false;                  // every clause is met
  std::vector<ClauseCheck> clauses;  // one per clause, in order
};

// What a goal may read beyond the queue: the session's counts of refused calls.
struct GoalContext {
  uint64_t refused = 0;
  uint64_t refused_replays = 0;  // replays the session answered false (Session::refused_replays)
};

GoalCheck CheckGoal(const Goal& goal, const Queue& queue, const GoalContext& context = {});

}  // namespace dlq
