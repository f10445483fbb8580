// The goal checker: CheckGoal (goal.h) over a queue's views, timeline and ledger.
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

// ---- checking -------------------------------------------------------------

// What the views and the timeline say about one job a goal names.
struct JobFacts {
  // kNowhere: in no view, and no event says why (a state the queue never
  // reaches; stated rather than mistaken for "no job").
  enum class Where : uint8_t {
    kUnknown,
    kReady,
    kDelayed,
    kInFlight,
    kCompleted,
    kQuarantined,
    kDropped,
    kLost,
    kDiscarded,
    kNowhere
  };
  Where where = Where::kUnknown;  // kUnknown after both passes: the queue was never given it
  uint32_t attempts = 0;
  Reason reason = Reason::kNone;                          // kQuarantined
  FailureClass failure_class = FailureClass::kTransient;  // kQuarantined
  std::string source_queue;                               // kQuarantined
  std::string held_by;                                    // kReady
  int64_t until = 0;                                      // kDelayed: due at; kInFlight: expires at
  std::string token;                                      // kInFlight
  bool seen = false;                                      // some event names it
  uint64_t completed_seq = 0;                             // its first completion event; 0: none
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
      return name + " is quarantined as " + ReasonName(f.reason) + " (class " + ClassName(f.failure_class) + ") with " +
             Attempts(f.attempts);
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
         (c.predicate == GoalPredicate::kCounter &&
          (c.counter == GoalCounter::kAlerts || c.counter == GoalCounter::kSpread ||
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
      case Place::kReady:
        facts.where = W::kReady;
        facts.held_by = at->held_by;
        break;
      case Place::kDelayed:
        facts.where = W::kDelayed;
        facts.until = at->until;
        break;
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
  check->actual = c.counter == GoalCounter::kSpread ? DescribeRetrySpread(in.tallies.spread)
                  : c.counter == GoalCounter::kReplayBurst
                      ? DescribeReplayBurst(in.tallies.burst)
                      : std::string(GoalCounterName(c.counter)) + " = " + std::to_string(value);
  return Compare(value, c.comparison, static_cast<uint64_t>(c.value));
}

bool CheckOrder(const GoalClause& c, const ClauseInputs& in, ClauseCheck* check) {
  const auto pending = std::find_if(c.ids.begin(), c.ids.end(),
                                    [&](const std::string& id) { return in.jobs.at(id).completed_seq == 0; });
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
  check->actual =
      std::string("no ") + EventKindName(c.event_kind) + " event" + (c.ids.empty() ? "" : " for " + FormatId(c.ids[0]));
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
