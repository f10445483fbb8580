// Scenario: a policy, the jobs set up before the first step, and the script of
// actions taken since, with a cursor. Replaying the first `cursor` actions into a
// fresh Queue always gives the same state and the same timeline, which is what
// step-back, time travel and shareable links are built on.
//
// The text form (docs/scenario-format.md) is what playground links carry in their
// fragment. Two versions, each with its own reader and writer (link.h); v1 is
// frozen, so every released link keeps loading:
//
//   v1;m<maxAttempts>[;j<id>:<payload>,…][;a<action>,…][;c<cursor>]
//   v2;m<maxAttempts>[;b<kind><baseMs>.<capMs><jitter>][;l<leaseMs>];s<seed>
//     [;f<row>,…][;o<k|s>][;q<retentionMs>.<alarmDepth>]
//     [;j<id>:<payload>[:<key>],…][;a<action>,…][;c<cursor>]
//
//   action  s[:<error>] | t[:<error>] | p[:<error>]   process with that outcome
//           r<id>                                      replay(id)
//           e<id>:<payload>                            enqueue a job mid-run
//   v2 only:
//           u[:<error>] | v[:<error>] | q[:<error>]    process: undeserializable,
//                                                      unknown-schema, precondition
//           l                                          lease()
//           k<n><outcome letter>[:<error>]             settle("lease-<n>", outcome, error)
//           w<ms>                                      advance(ms)
//           n                                          advanceToNext()
//           e<id>:<payload>:<key>                      enqueue a job with an ordering key
//           x<key>                                     releaseKey(key)
//           d<max>                                     redrive({ max })
//           f<id>:<payload>                            patch(id, payload): an operator's fix
//           c<after>[t]                                the process crashes after
//                                                      write <after> of the journal
//                                                      (t: the next write is torn)
//                                                      and restarts from the disk
//   kind    f fixed, x exponential, n none (b is left out for the default backoff,
//           none 1000.60000n; n is written only with a base or cap of its own)
//   jitter  n none, f full, e equal, d decorrelated
//   o       ordering: k key, s stall (left out for none)
//   q       quarantine retention (ms, 0 forever) and alarm depth (0 off), left
//           out when both are 0
//   row     <class><n never|b bounded><maxAttempts>[.<kind><baseMs>.<capMs><jitter>][!]
//           one failure class's whole rule (0 = the policy's maxAttempts; the
//           backoff is the class's own, absent = the policy's; ! = alert), for
//           class t transient, p permanent, u undeserializable, v unknown-schema,
//           q precondition, c crash; in that order, only rows that differ from
//           the default ClassTable (f is left out when none do)
//
// v2 writes the seed always, leaseMs when it is not 30000. FormatScenario writes
// the lowest version that expresses the scenario: v1 for lesson 1's policy and
// actions (outcomes s, t, p only), else v2. Strings are percent-encoded UTF-8
// (a link whose strings decode to anything else is malformed: links are text);
// everything outside A–Z a–z 0–9 and - _ . ~ ! $ ' ( ) * + = @ / ? is escaped as
// %HH. `c` is omitted when the cursor is at the end of the script. Examples, the
// lesson's a/b run, the same with exponential backoff and full jitter, and a
// precondition class allowed three attempts:
//   v1;m3;ja:,b:;at,s,s
//   v2;m3;bx100.5000f;s1;ja:,b:;at,s,n,s     (n: a waits out its delay)
//   v2;m3;s1;fqb3.f1000.1000n;ja:;aq,n,q,n,q
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "size_limits.h"
#include "policy.h"
#include "queue.h"
#include "status.h"
#include "world.h"

namespace dlq {

// The link format versions this build reads; it writes the lowest one that can
// express a scenario, so kScenarioFormatVersion is the newest it reads and writes.
constexpr int kOldestScenarioFormatVersion = 1;
constexpr int kScenarioFormatVersion = 2;

// One scripted action: a closed sum type, so every consumer (runner, link
// writers, bindings) handles every kind or fails to compile (std::visit).
namespace action {
struct Process {  // process(outcome, error): lease and settle at one instant
  Outcome outcome = Outcome::kSuccess;
  std::string error;
  bool operator==(const Process&) const = default;
};
struct Replay {  // an operator's replay(id), or with keep_attempts replay(id, { resetAttempts: false })
  std::string id;
  bool keep_attempts = false;  // bullmq only: job.retry() without resetAttemptsMade
  bool operator==(const Replay&) const = default;
};
struct Enqueue {  // a job enqueued mid-run
  std::string id;
  std::string payload;
  std::string key;  // its ordering key; "" for none
  bool operator==(const Enqueue&) const = default;
};
struct Lease {  // lease(): the ready head, its attempt counted now
  bool operator==(const Lease&) const = default;
};
struct Settle {        // settle("lease-<lease>", outcome, error)
  uint32_t lease = 0;  // the token's number, 1-based
  Outcome outcome = Outcome::kSuccess;
  std::string error;
  bool operator==(const Settle&) const = default;
};
struct Advance {  // advance(ms)
  int64_t ms = 0;
  bool operator==(const Advance&) const = default;
};
struct AdvanceToNext {  // advanceToNext()
  bool operator==(const AdvanceToNext&) const = default;
};
struct ReleaseKey {  // an operator's releaseKey(key)
  std::string key;
  bool operator==(const ReleaseKey&) const = default;
};
struct Redrive {  // an operator's redrive({ max, class, reason })
  int64_t max = 1;
  RedriveFilter only;  // of one class and/or reason; default: every entry
  bool operator==(const Redrive&) const = default;
};
struct Patch {  // an operator's patch(id, payload): a quarantined job's payload fixed before its replay
  std::string id;
  std::string payload;
  bool operator==(const Patch&) const = default;
};
// The process dies after the first `after` writes of the queue's journal (since
// its creation, or since the restart before: Queue::Journal()), with the next
// write half on disk when `torn`, and restarts from what reached the disk
// (Queue::Recover). The recovered queue is the state from then on: a job the
// crash left in no place is lost, one found twice is kept once.
struct Crash {
  int64_t after = 0;
  bool torn = false;
  bool operator==(const Crash&) const = default;
};
}  // namespace action

using Action =
    std::variant<action::Process, action::Replay, action::Enqueue, action::Lease, action::Settle, action::Advance,
                 action::AdvanceToNext, action::ReleaseKey, action::Redrive, action::Crash, action::Patch>;

// The crash action's `after`: a journal holds at most kMaxJournalRecords writes.
constexpr IntegerField kCrashAfterField{"after", 0, static_cast<int64_t>(kMaxJournalRecords)};

// An overload set for std::visit over Action. Every visitor lists each kind and
// has no catch-all, so a kind added to Action fails to compile until every
// visitor (runner, link writers, bindings) handles it.
template <typename... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <typename... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

// True for the kinds link format v1 can carry (process, replay, enqueue).
bool IsLessonOneAction(const Action& action);

struct Scenario {
  Policy policy;                // the whole policy; v1 links carry only maxAttempts
  std::vector<JobSpec> jobs;    // enqueued in order before the first step
  std::vector<Action> actions;  // the script
  size_t cursor = 0;            // how many actions are applied; <= actions.size()
  // The world that plays it on (player.h): carried by the link so that Play can
  // continue where the script ends. The script alone gives the state.
  World world;
};

// Field by field (policy, jobs' ids, payloads and keys, actions, cursor, world).
bool operator==(const Scenario& a, const Scenario& b);

// OutOfRange unless cursor <= actions (the number of actions in the script).
Status CheckCursor(uint64_t cursor, size_t actions);

// What every scenario must be before it runs, whatever it came from (a link, a
// scenario object, a session): the cursor within the script (OutOfRange,
// "scenario: the cursor must be …"), the world's fields (CheckWorld's Status),
// and every world behaviour naming a job of the scenario: a set-up job or a job
// an enqueue action of the script adds, before or after the cursor
// (InvalidArgument: `world.behaviours[0].id "a203" names no job of the
// scenario`). ParseScenario, RunScenario, ShareScenario and PlayableActions
// check it; so must anything else that takes a Scenario from outside.
Status CheckScenario(const Scenario& scenario);

// Parses the text form, v1 or v2. TooLarge beyond kMaxScenarioTextBytes (checked
// first), UnsupportedVersion for "v<n>" with n outside 1..kScenarioFormatVersion,
// InvalidArgument (naming the 1-based character position) for anything else
// malformed; a policy Policy::Check refuses keeps its code (OutOfRange or
// InvalidArgument); OutOfRange for a cursor, an advance's ms or a settle's lease
// number out of range; CheckScenario's Status for a world behaviour that names
// no job of the scenario. Every message starts "scenario link".
Result<Scenario> ParseScenario(std::string_view text);

// The canonical text form, in the lowest version that expresses `scenario` (v1
// when policy.IsLessonOne() and every action IsLessonOneAction, else v2).
// ParseScenario(FormatScenario(s)) gives s back when every string in s is UTF-8
// and every value is one ParseScenario accepts.
std::string FormatScenario(const Scenario& scenario);
// The link format version FormatScenario writes `scenario` in: 1 when lesson 1's
// format can carry it (its policy is lesson 1's and it uses none of v2's actions or a world), else 2.
int LinkVersionOf(const Scenario& scenario);

// The link text of a scenario that loads: FormatScenario(s), or the Status that
// ParseScenario or RunScenario would give for that text (TooLarge past
// kMaxScenarioTextBytes, a string that is not UTF-8, a cursor out of range, an
// action up to the cursor that the queue refuses).
Result<std::string> ShareScenario(const Scenario& scenario);

// A fresh queue with the policy, the jobs enqueued (one Enqueue each, so the set-up
// is the queue's actions 1..J and script action i is its action J + i) and the
// first `cursor` actions applied. The scenario must pass CheckScenario (its
// Status, before anything runs). Every action must be accepted; a refusal is an
// error naming the action ("scenario action <i>: "): a duplicate id, a replay of
// an id not in quarantine, a process or lease with nothing ready
// (FailedPrecondition), a settle the queue refuses (its code, e.g. StaleLease), an
// advance past the clock's range, an advanceToNext with no pending timer
// (FailedPrecondition).
Result<Queue> RunScenario(const Scenario& scenario);
// The same, and the state its journal follows (JournalOrigin, below) in *origin.
Result<Queue> RunScenario(const Scenario& scenario, std::optional<std::string>* origin);

// The queue with the policy and the set-up jobs, before any action (one
// Enqueue each, so the set-up is the queue's actions 1..J); refused with
// CheckScenario's Status for the world first, then the queue's, naming the job
// ("scenario job <i>: ").
Result<Queue> SetUpScenario(const Scenario& scenario);

// How far a script can be played, whatever its cursor: `playable` actions from
// the first are accepted in order; `stopped` is the Status of the first refused
// one (OK when all are accepted, or the set-up's error with playable == 0:
// CheckScenario's, but for the cursor, which does not matter here).
// The playground uses it to keep what still plays of a script after an edit.
struct ScenarioReach {
  size_t playable = 0;
  Status stopped;
};
ScenarioReach PlayableActions(const Scenario& scenario);

// What a crash action restarts from: the snapshot text the queue's journal
// follows, or nullopt while the journal starts at the queue's creation. A
// played queue travels with its origin (RunScenario, Session); a crash action
// sets it to the recovered state.
using JournalOrigin = std::optional<std::string>;

// What a crash action did (the lost and duplicated ids, how many writes applied).
struct CrashReport {
  uint64_t applied = 0, journal = 0;  // writes applied of the journal's
  bool torn_discarded = false;
  std::vector<std::string> lost, duplicated;
};

// Applies one action to a queue as RunScenario does (an action that would find
// nothing to do is refused, FailedPrecondition or NotFound); the Status names it
// as "scenario action <index + 1>". A crash replaces `queue` with the recovered
// one and `origin` with its state, and fills `crash` when given; it is refused
// (FailedPrecondition) when the policy keeps no journal, and with Recover's
// OutOfRange for an `after` past the journal. Refused: nothing changes.
Status ApplyAction(Queue& queue, JournalOrigin& origin, const Action& action, size_t index,
                   CrashReport* crash = nullptr);
// The same, its Status prefixed with `where` ("apply: ") instead.
Status ApplyAction(Queue& queue, JournalOrigin& origin, const Action& action, const std::string& where,
                   CrashReport* crash = nullptr);

}  // namespace dlq
