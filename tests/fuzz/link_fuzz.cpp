// libFuzzer harness: the scenario link parser and formatter (core/scenario/scenario.h).
//
// The input bytes are a link text. For every input:
//  * ParseScenario either refuses it with a proper Status (non-OK, a known code,
//    a non-empty one-line UTF-8 message; TooLarge exactly when the text is over
//    kMaxScenarioTextBytes), or
//  * accepts it, and then the scenario is sane (Policy::Check accepts its policy,
//    cursor within the script, every string UTF-8, every world behaviour naming a
//    set-up job or an enqueued one, the world canonical), FormatScenario writes only the
//    link alphabet, in the lowest version that expresses it (v1 exactly when no
//    feature of v2 is used: NeedsV2 lists them all, the world's included), never
//    longer than the input, and that
//    text parses back to an equal scenario whose FormatScenario is the same text
//    (one canonical text per scenario), in v1 and v2 alike;
//  * RunScenario, ShareScenario and PlayableActions agree with each other and do
//    not crash; an accepted run (and the run of what PlayableActions says plays
//    of a refused one) gives a queue whose counts follow from the script (one
//    queue action per set-up job and per action, a step per process, lease and
//    replay, for a redrive a step per entry it moved, every job in one place or
//    dropped at its retention, the clock moved only by advances, an alert exactly
//    after each quarantine arrival whose class raises one, a reorder only right
//    after a completion, key releases only from releaseKey, the depth alarm raised
//    and cleared in turn at the policy's depth), with a consistent timeline that
//    renders and explains, and the reparsed scenario replays to the same timeline;
//  * where the core has a heap budget, every queue built gives its charge back.
// Seeds: tests/fixtures/links/*.link (scripts/dlq.mjs copies them into the corpus).
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

bool IsLinkCharacter(char c) {
  const auto u = static_cast<unsigned char>(c);
  if ((u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9')) return true;
  return std::string_view(";,:%-_.~!$'()*+=@/?").find(c) != std::string_view::npos;
}

// std::visit over an overload set, as the core's visitors are: a new action kind
// fails to compile here until the harness knows what to expect of it.
template <typename... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <typename... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

// A key the reader accepts: UTF-8 within kMaxKeyBytes ("" is none).
bool SaneKey(const std::string& key) { return IsValidUtf8(key) && key.size() <= kMaxKeyBytes; }

// Every string UTF-8, every number in the range the reader checks.
void CheckValues(const Scenario& s, std::string_view input) {
  for (const JobSpec& job : s.jobs) {
    FUZZ_CHECK(IsValidUtf8(job.id) && IsValidUtf8(job.payload) && SaneKey(job.key), Show(input));
  }
  for (const Action& a : s.actions) {
    const bool sane = std::visit(
        Overloaded{
            [](const action::Process& p) { return IsValidUtf8(p.error); },
            [](const action::Replay& r) { return IsValidUtf8(r.id); },
            [](const action::Enqueue& e) { return IsValidUtf8(e.id) && IsValidUtf8(e.payload) && SaneKey(e.key); },
            [](const action::Lease&) { return true; },
            [](const action::Settle& k) { return k.lease >= 1 && IsValidUtf8(k.error); },
            [](const action::Advance& w) { return kAdvanceMsField.Check(w.ms).ok(); },
            [](const action::AdvanceToNext&) { return true; },
            [](const action::ReleaseKey& x) { return !x.key.empty() && SaneKey(x.key); },
            [](const action::Redrive& d) { return kRedriveMaxField.Check(d.max).ok(); },
            [](const action::Crash& x) { return kCrashAfterField.Check(x.after).ok(); },
            [](const action::Patch& f) { return IsValidUtf8(f.id) && IsValidUtf8(f.payload); },
        },
        a);
    FUZZ_CHECK(sane, Show(input));
  }
}

// The world as a parsed link holds it: each behaviour for a job the scenario
// has (a set-up job or one an enqueue action adds), none of them the default
// (the writer leaves those out), and an empty outage as none.
void CheckWorldOf(const Scenario& s, std::string_view input) {
  for (const JobBehaviour& jb : s.world.behaviours) {
    const bool setup = std::any_of(s.jobs.begin(), s.jobs.end(), [&](const JobSpec& j) { return j.id == jb.id; });
    const bool enqueued = std::any_of(s.actions.begin(), s.actions.end(), [&](const Action& a) {
      const auto* e = std::get_if<action::Enqueue>(&a);
      return e != nullptr && e->id == jb.id;
    });
    FUZZ_CHECK(setup || enqueued, Show(input) + " has a behaviour for " + Show(jb.id) + ", which is no job of it");
    FUZZ_CHECK(!(jb.behaviour == Behaviour{}), Show(input));
  }
  FUZZ_CHECK(s.world.outage_start < s.world.outage_end || (s.world.outage_start == 0 && s.world.outage_end == 0),
             Show(input));
}

// True when link format v1 cannot carry `s`: every feature v2 adds, listed here
// on its own (not by asking the core's FitsV1), so a feature the writer forgets
// is a finding. A field added to World fails to compile here (the binding
// names them all), and so does an action kind (the visitor has no catch-all).
bool NeedsV2(const Scenario& s) {
  if (!s.policy.IsLessonOne()) return true;  // the whole policy but maxAttempts (and journal, no rule)
  if (std::any_of(s.jobs.begin(), s.jobs.end(), [](const JobSpec& j) { return !j.key.empty(); })) return true;
  const auto& [behaviours, outage_start, outage_end, workers, work_ms] = s.world;
  const World plain;
  if (workers != plain.workers || work_ms != plain.work_ms || outage_start != outage_end) return true;
  if (std::any_of(behaviours.begin(), behaviours.end(),
                  [](const JobBehaviour& jb) { return !(jb.behaviour == Behaviour{}); })) {
    return true;
  }
  return std::any_of(s.actions.begin(), s.actions.end(), [](const Action& a) {
    return std::visit(Overloaded{
                          [](const action::Process& p) {
                            return p.outcome != Outcome::kSuccess && p.outcome != Outcome::kTransient &&
                                   p.outcome != Outcome::kPermanent;
                          },
                          [](const action::Replay& r) { return r.keep_attempts; },  // y: bullmq's retry, v2 only
                          [](const action::Enqueue& e) { return !e.key.empty(); },
                          [](const action::Lease&) { return true; },
                          [](const action::Settle&) { return true; },
                          [](const action::Advance&) { return true; },
                          [](const action::AdvanceToNext&) { return true; },
                          [](const action::ReleaseKey&) { return true; },
                          [](const action::Redrive&) { return true; },
                          [](const action::Crash&) { return true; },
                          [](const action::Patch&) { return true; },
                      },
                      a);
  });
}

// What the first `cursor` actions of an accepted run add up to.
struct ScriptCounts {
  size_t enqueued = 0;      // jobs enqueued mid-run
  uint64_t steps = 0;       // attempts started (process, lease) and replays; a redrive's are counted from the timeline
  size_t events = 0;        // exact when no timer can fire (no advance of either kind),
                            // with the events counted from the timeline (see CheckRunQueue)
  size_t replays = 0;       // replay(id) actions: one replayed event each
  size_t releases = 0;      // releaseKey actions: one key-released event or more each
  size_t redrives = 0;      // redrive actions: one replayed event or more each
  int64_t redrive_max = 0;  // their maxes added up
  int64_t advanced = 0;     // the sum of advance(ms)
  bool timers_may_fire = false;
  bool jumped = false;   // an advanceToNext moved the clock by its own amount
  bool crashed = false;  // a crash replaced the queue by the one recovered from its journal
};

ScriptCounts CountScript(const Scenario& s) {
  ScriptCounts c;
  c.events = s.jobs.size();  // one enqueued event per set-up job
  for (size_t i = 0; i < s.cursor; ++i) {
    std::visit(Overloaded{
                   [&](const action::Process&) {
                     ++c.steps;
                     c.events += 2;
                   },  // attempt + where it went
                   [&](const action::Replay&) {
                     ++c.steps;
                     ++c.events;
                     ++c.replays;
                   },
                   [&](const action::Enqueue&) {
                     ++c.enqueued;
                     ++c.events;
                   },
                   [&](const action::Lease&) {
                     ++c.steps;
                     ++c.events;
                   },
                   [&](const action::Settle&) { c.events += 2; },  // attempt + where it went
                   [&](const action::Advance& a) {
                     c.advanced += a.ms;
                     c.timers_may_fire = true;
                   },
                   [&](const action::AdvanceToNext&) { c.jumped = c.timers_may_fire = true; },
                   [&](const action::ReleaseKey&) { ++c.releases; },
                   [&](const action::Redrive& d) {
                     ++c.redrives;
                     c.redrive_max += d.max;
                   },
                   [&](const action::Crash&) { c.crashed = true; },
                   [&](const action::Patch&) { ++c.events; },  // its patched event
               },
               s.actions[i]);
  }
  return c;
}

void CheckTimeline(const Scenario& s, const Queue& q, std::string_view input);

// The queue that RunScenario built: bounded by the script, its events consistent,
// rendered as one UTF-8 line each, and explained.
void CheckRunQueue(const Scenario& s, const Queue& q, std::string_view input) {
  FUZZ_CHECK(q.policy() == s.policy, Show(input));
  const ScriptCounts c = CountScript(s);
  if (c.crashed) {
    // The queue is the one a crash recovered, then what the script did after:
    // what happened past the crash point is gone, so the script's counts bound
    // it rather than give it. Every job is in one place, dropped, lost, or was
    // enqueued past the crash point (and is in none, unknown to the queue).
    FUZZ_CHECK(q.stats().ready + q.stats().delayed + q.stats().leased + q.stats().completed + q.stats().quarantined +
                       q.stats().expired + q.stats().lost + q.stats().discarded <=
                   s.jobs.size() + c.enqueued,
               Show(input));
    CheckTimeline(s, q, input);
    return;
  }
  // Every accepted call is one queue action: the set-up's enqueues, then the script's.
  FUZZ_CHECK(q.stats().actions == s.jobs.size() + s.cursor, Show(input));
  // What the script alone does not say: how many entries each redrive moved, how
  // many holders each releaseKey released, the reorders, drops and alarm changes.
  size_t replayed = 0, released = 0, reorders = 0, dropped = 0, alarms = 0, discarded = 0;
  size_t overflowed = 0;  // dead-lettered by the source's maxLength or messageTtlMs: no attempt decided it
  bool alarm_raised = false;
  for (size_t i = 0; i < q.view().event_count(); ++i) {
    const Event e = q.view().EventAt(i);
    const std::string where = Show(input) + " event " + std::to_string(i + 1);
    switch (e.kind) {
      case EventKind::kReplayed: ++replayed; break;
      case EventKind::kQuarantined:
        if (e.reason == Reason::kMaxLength || e.reason == Reason::kExpired) {
          ++overflowed;
          FUZZ_CHECK(e.reason == Reason::kMaxLength ? s.policy.max_length > 0 : s.policy.MessageTtlMs() > 0, where);
        }
        break;
      case EventKind::kKeyReleased:
        ++released;
        FUZZ_CHECK(!e.key.empty(), where);
        break;
      case EventKind::kReorder:
        ++reorders;
        FUZZ_CHECK(i >= 1 && q.view().EventAt(i - 1).kind == EventKind::kCompleted &&
                       q.view().EventAt(i - 1).id == e.id && !e.key.empty() && !e.overtook.empty(),
                   where);
        break;
      case EventKind::kDiscarded:
        ++discarded;
        if (e.reason == Reason::kMaxLength || e.reason == Reason::kExpired) {  // no attempt, no dead-letter exchange
          ++overflowed;
          // An expiry's drop is the system's (service-bus: deadLetterOnExpiry off), an overflow's the DLX's.
          FUZZ_CHECK((e.reason == Reason::kMaxLength
                          ? s.policy.max_length > 0 && s.policy.DiscardsDeadLetters()
                          : s.policy.MessageTtlMs() > 0 && s.policy.ExpiryDrop() != DropCause::kKept),
                     where);
          break;
        }
        // Only with no dead-letter exchange, right after the decision that dead-lettered it.
        FUZZ_CHECK(s.policy.DiscardsDeadLetters() && i >= 1 && q.view().EventAt(i - 1).id == e.id &&
                       q.view().EventAt(i - 1).disposition == Disposition::kDiscarded,
                   where);
        break;
      case EventKind::kEvidenceExpired:
        ++dropped;
        // A retention, or a count the quarantine keeps (removeOnFailCount, deadMaxJobs, dlqMaxLength).
        FUZZ_CHECK(s.policy.retention_ms > 0 || s.policy.QuarantineKeepNewest() >= 0, where);
        break;
      case EventKind::kAlarmRaised:
      case EventKind::kAlarmCleared: {
        ++alarms;
        const bool raised = e.kind == EventKind::kAlarmRaised;
        // Raised and cleared in turn, the depth moving one entry at a time.
        FUZZ_CHECK(s.policy.alarm_depth > 0 && raised != alarm_raised, where);
        FUZZ_CHECK(e.depth == static_cast<uint64_t>(s.policy.alarm_depth) - (raised ? 0 : 1), where);
        alarm_raised = raised;
        break;
      }
      default: break;
    }
  }
  FUZZ_CHECK(q.view().alarm().raised == alarm_raised, Show(input));
  FUZZ_CHECK(q.stats().reorders == reorders && q.stats().expired == dropped, Show(input));
  FUZZ_CHECK(q.stats().discarded == discarded, Show(input));
  FUZZ_CHECK(replayed >= c.replays + c.redrives, Show(input));  // each accepted redrive moved one or more
  const size_t redriven = replayed - c.replays;
  // Dead letters routed to the source (an anti-pattern switch) are replayed without a redrive.
  FUZZ_CHECK(s.policy.dlq_to_source || static_cast<int64_t>(redriven) <= c.redrive_max, Show(input));
  FUZZ_CHECK(released >= c.releases && (c.releases > 0 || released == 0), Show(input));
  FUZZ_CHECK(q.stats().step == c.steps + redriven, Show(input));
  FUZZ_CHECK(q.stats().ready + q.stats().delayed + q.stats().leased + q.stats().completed + q.stats().quarantined +
                     dropped + discarded ==
                 s.jobs.size() + c.enqueued,
             Show(input));
  if (c.jumped) {
    FUZZ_CHECK(q.stats().now >= c.advanced, Show(input));
  } else {
    FUZZ_CHECK(q.stats().now == c.advanced, Show(input));
  }
  // Alerts: exactly one right after each quarantine arrival whose class's rule
  // raises one (the decided attempt or expiry, then quarantined, then alert).
  size_t alerts = 0;
  for (size_t i = 0; i < q.view().event_count(); ++i) {
    const Event e = q.view().EventAt(i);
    const bool decided = e.kind == EventKind::kAttempt || e.kind == EventKind::kExpired;
    if (decided && e.disposition == Disposition::kQuarantined && s.policy.classes[e.failure_class].alert) {
      FUZZ_CHECK(i + 2 < q.view().event_count(), Show(input) + " event " + std::to_string(i + 1));
      const Event arrived = q.view().EventAt(i + 1);
      const Event alert = q.view().EventAt(i + 2);
      FUZZ_CHECK(arrived.kind == EventKind::kQuarantined && alert.kind == EventKind::kAlert && alert.id == e.id &&
                     alert.failure_class == e.failure_class,
                 Show(input) + " event " + std::to_string(i + 1));
    }
    if (e.kind == EventKind::kAlert) {
      ++alerts;
      FUZZ_CHECK(
          i >= 2 && q.view().EventAt(i - 1).kind == EventKind::kQuarantined && s.policy.classes[e.failure_class].alert,
          Show(input) + " event " + std::to_string(i + 1));
    }
  }
  const size_t counted = c.events + alerts + redriven + released + reorders + alarms + overflowed;
  if (c.timers_may_fire) {
    FUZZ_CHECK(q.view().event_count() >= counted, Show(input));
  } else {
    // Retention ends only as time passes; a count the quarantine keeps (Sidekiq's Dead set, BullMQ's
    // removeOnFail N, a RabbitMQ DLQ's x-max-length) also trims it at each arrival.
    const bool trims = s.policy.QuarantineKeepNewest() >= 0;
    FUZZ_CHECK(trims || dropped == 0, Show(input));
    FUZZ_CHECK(q.view().event_count() == counted + (trims ? dropped : 0), Show(input));
  }
  CheckTimeline(s, q, input);
}

// Any played queue's timeline: numbered, in order of step and time, each event
// rendered on one UTF-8 line and explained, as TimelineText gives them.
void CheckTimeline(const Scenario& s, const Queue& q, std::string_view input) {
  std::string text;
  uint64_t kept_retries = 0;
  for (size_t k = 0; k < s.cursor && k < s.actions.size(); ++k) {
    if (const auto* r = std::get_if<action::Replay>(&s.actions[k]); r != nullptr && r->keep_attempts) ++kept_retries;
  }
  for (size_t i = 0; i < q.view().event_count(); ++i) {
    const Event e = q.view().EventAt(i);
    FUZZ_CHECK(e.seq == i + 1, Show(input));
    FUZZ_CHECK(e.step <= q.stats().step && (i == 0 || e.step >= q.view().EventAt(i - 1).step), Show(input));
    FUZZ_CHECK(e.time <= q.stats().now && (i == 0 || e.time >= q.view().EventAt(i - 1).time), Show(input));
    // The budget in force (a RabbitMQ limit left unset is the version's, not maxAttempts);
    // deciding before counting (an anti-pattern switch) gives exactly one attempt more.
    // Under bullmq each retry without a reset (a y action) may run a job once past it.
    const uint64_t most =
        static_cast<uint64_t>(s.policy.Budget()) + (s.policy.decide_before_count ? 1 : 0) + kept_retries;
    FUZZ_CHECK(e.attempts <= most, Show(input));
    const std::string line = RenderEvent(e);
    FUZZ_CHECK(IsValidUtf8(line) && line.find('\n') == std::string::npos, Show(input) + " event " + Show(line));
    const std::string why = ExplainEvent(e);
    FUZZ_CHECK(!why.empty() && IsValidUtf8(why), Show(input) + " event " + Show(line));
    text.append(line).append("\n");
  }
  FUZZ_CHECK(q.view().TimelineText() == text, Show(input));
}

// The checks for one input (see the top of this file).
void CheckLink(std::string_view input) {
  const size_t size = input.size();
  Result<Scenario> parsed = ParseScenario(input);
  if (!parsed.ok()) {
    CheckRefusal(parsed.status(), "ParseScenario", input);
    FUZZ_CHECK((parsed.status().code() == Code::kTooLarge) == (size > kMaxScenarioTextBytes),
               parsed.status().ToString());
    return;
  }
  FUZZ_CHECK(size <= kMaxScenarioTextBytes, Show(input));
  const Scenario& s = parsed.value();
  FUZZ_CHECK(Policy::Check(s.policy).ok(), Show(input));
  FUZZ_CHECK(s.cursor <= s.actions.size(), Show(input));
  CheckValues(s, input);
  CheckWorldOf(s, input);
  FUZZ_CHECK(CheckScenario(s).ok(), Show(input));

  // Round trip: one canonical text, which reads back to the same scenario.
  const std::string formatted = FormatScenario(s);
  // Canonical means shortest: no leading zeros, escapes only where needed, defaults left out.
  FUZZ_CHECK(formatted.size() <= size, Show(input) + " formats to " + Show(formatted));
  FUZZ_CHECK(formatted.rfind(NeedsV2(s) ? "v2;" : "v1;", 0) == 0, Show(input) + " formats to " + Show(formatted));
  for (const char c : formatted) FUZZ_CHECK(IsLinkCharacter(c), Show(input) + " formats to " + Show(formatted));
  Result<Scenario> back = ParseScenario(formatted);
  if (!back.ok()) {
    FUZZ_CHECK(back.ok(),
               Show(input) + " formats to " + Show(formatted) + ", which fails: " + back.status().ToString());
  }
  FUZZ_CHECK(s == back.value(), Show(input) + " formats to " + Show(formatted) + ", which differs");
  FUZZ_CHECK(FormatScenario(back.value()) == formatted, Show(input) + " formats to " + Show(formatted));

  // Replay: RunScenario, ShareScenario and PlayableActions agree.
  Result<Queue> run = RunScenario(s);
  Result<std::string> shared = ShareScenario(s);
  const ScenarioReach reach = PlayableActions(s);
  FUZZ_CHECK(reach.playable <= s.actions.size(), Show(input));
  if (reach.stopped.ok()) {
    FUZZ_CHECK(reach.playable == s.actions.size(), Show(input));
  } else {  // an action was refused, or the set-up was (then playable is 0)
    CheckRefusal(reach.stopped, "PlayableActions", input);
    FUZZ_CHECK(reach.playable < s.actions.size() || reach.playable == 0, Show(input) + " " + reach.stopped.ToString());
  }
  if (run.ok()) {
    CheckRunQueue(s, run.value(), input);
    // Replay is deterministic, and the reparsed scenario replays the same.
    Result<Queue> again = RunScenario(back.value());
    FUZZ_CHECK(again.ok() && again->view().TimelineText() == run->view().TimelineText(),
               Show(input) + " replays differently");
    FUZZ_CHECK(reach.playable >= s.cursor, Show(input) + " " + reach.stopped.ToString());
    FUZZ_CHECK(shared.ok(), Show(input) + " runs, but ShareScenario says " + shared.status().ToString());
    FUZZ_CHECK(shared.value() == formatted, Show(input));
  } else {
    CheckRefusal(run.status(), "RunScenario", input);
    // Either the set-up failed (playable 0, same error) or an action before the cursor.
    FUZZ_CHECK(reach.playable < s.cursor || (reach.playable == 0 && !reach.stopped.ok()),
               Show(input) + " " + run.status().ToString() + " / " + reach.stopped.ToString());
    FUZZ_CHECK(reach.stopped.code() == run.status().code() && reach.stopped.message() == run.status().message(),
               Show(input) + " run: " + run.status().ToString() + " reach: " + reach.stopped.ToString());
    FUZZ_CHECK(!shared.ok(), Show(input) + " fails to run, but ShareScenario accepts it");
    FUZZ_CHECK(shared.status().code() == run.status().code() && shared.status().message() == run.status().message(),
               Show(input) + " run: " + run.status().ToString() + " share: " + shared.status().ToString());
  }
  // What still plays of the script is a run of its own: the same checks hold there.
  if (reach.playable > 0 && reach.playable != s.cursor) {
    Scenario playable = s;
    playable.cursor = reach.playable;
    Result<Queue> prefix = RunScenario(playable);
    FUZZ_CHECK(prefix.ok(), Show(input) + " plays " + std::to_string(reach.playable) +
                                " actions, but runs: " + prefix.status().ToString());
    CheckRunQueue(playable, prefix.value(), input);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t heap_before = HeapUsed();
  CheckLink(input);
  // Every queue RunScenario, ShareScenario and PlayableActions built is gone, and so is its charge.
  FUZZ_CHECK(HeapUsed() == heap_before, Show(input) + ": heap budget use " + std::to_string(HeapUsed()) + " after, " +
                                            std::to_string(heap_before) + " before");
  return 0;
}
