// Embind binding of the session (core/session/session.h): one handle per playground.
// Every user action is one call that acts and returns the view the page draws,
// so a step crosses into wasm once. Conversion only; the rules are the core's.
#include <emscripten/bind.h>

#include <algorithm>
#include <optional>
#include <string>

#include "dlq.h"
#include "values.h"

namespace dlq_wasm {
namespace {

// What the page asks of a view: what the core's view takes (session.h ViewAsk:
// how many timeline events it holds, how much of each place it draws), the
// generation whose policy it has, and whether it wants the link. A missing or
// bad number falls back to the default: these shape the answer only, they
// change nothing.
struct PageAsk {
  dlq::ViewAsk view;
  double generation = -1;
  bool link = false;
};

size_t Count(const val& v, size_t fallback) {
  if (!v.isNumber()) return fallback;
  const double d = v.as<double>();
  return d >= 0 ? QueueIndex(d, SIZE_MAX >> 12) : fallback;
}

PageAsk ReadAsk(const val& in) {
  PageAsk ask;
  if (in.isNull() || in.isUndefined() || in.typeOf().as<std::string>() != "object") return ask;
  dlq::ViewAsk& view = ask.view;
  view.from = Count(in["from"], 0);
  view.list_cap = Count(in["listCap"], view.list_cap);
  view.ready_head = Count(in["readyHead"], view.ready_head);
  view.ready_tail = Count(in["readyTail"], view.ready_tail);
  if (val g = in["generation"]; g.isNumber()) ask.generation = g.as<double>();
  if (val l = in["link"]; l.isTrue()) ask.link = true;
  return ask;
}

// Link text (the core parses it) or a scenario object built by index.mjs.
dlq::Result<dlq::Scenario> ScenarioIn(const val& in) {
  if (in.isString()) return dlq::ParseScenario(in.as<std::string>());
  return ScenarioFromValue(in);
}

// The share link: { text }, or { error, message } when a reader would refuse it.
val LinkValue(const dlq::Session& s) {
  val out = val::object();
  dlq::Result<std::string> link = s.Link();
  if (link.ok()) {
    out.set("text", link.value());
  } else {
    out.set("error", std::string(dlq::CodeName(link.status().code())));
    out.set("message", link.status().message());
  }
  return out;
}

// { event, action, explanation, crash }: what the last applied action did.
val LastValue(const dlq::SessionView& v) {
  val last = val::object();
  last.set("event", v.last_event != nullptr ? EventValue(*v.last_event) : val::null());
  last.set("action", v.last_action != nullptr ? ActionValue(*v.last_action) : val::null());
  last.set("explanation", v.explanation);
  last.set("crash", v.last_crash != nullptr ? CrashReportValue(*v.last_crash) : val::null());
  return last;
}

// { count, reason, replayed } or null.
val DroppedValue(const std::optional<dlq::DroppedActions>& dropped) {
  if (!dropped.has_value()) return val::null();
  val d = val::object();
  d.set("count", static_cast<double>(dropped->count));
  d.set("reason", OrNull(dropped->reason));
  d.set("replayed", dropped->replayed);
  return d;
}

// Ready as the page draws it: jobs with `removable`, and a gap row ({ id: '', gap }) between head and tail.
val ShownReadyValue(const std::vector<dlq::ShownJob>& ready) {
  val shown = val::array();
  for (const dlq::ShownJob& row : ready) {
    if (row.gap > 0) {
      val gap = val::object();
      gap.set("id", std::string());
      gap.set("gap", static_cast<double>(row.gap));
      shown.call<void>("push", gap);
      continue;
    }
    val job = JobValue(row.job, true);
    job.set("removable", row.removable);
    shown.call<void>("push", job);
  }
  return shown;
}

// The places and the queue's reads, each a slice of at most `cap` items (Ready is the view's).
void SetPlaces(val& out, const dlq::Queue& q, size_t list_cap) {
  const double cap = static_cast<double>(list_cap);
  out.set("leased", LeasedValue(q, 0, cap));
  out.set("delayed", DelayedValue(q, 0, cap));
  // Where delayed jobs wait, when not in the broker (policy.h, DelayAt): "worker" or the retry queue.
  if (q.policy().delay_at == dlq::DelayAt::kConsumerSleep) out.set("delayedIn", std::string("worker"));
  if (q.policy().delay_at == dlq::DelayAt::kRetryQueue) out.set("delayedIn", std::string(dlq::kRetryQueueName));
  out.set("completed", CompletedValue(q, 0, cap));
  out.set("quarantined", QuarantinedValue(q, 0, cap));
  if (q.policy().DiscardsDeadLetters()) out.set("discarded", DiscardedValue(q, 0, cap));
  // Only where the core accepts replay(id, { resetAttempts: false }) (bullmq).
  if (q.view().CanReplayKeepingAttempts()) out.set("retryWithoutReset", true);
  out.set("reorders", ReordersValue(q, 0, cap));
  out.set("alarm", AlarmValue(q));
  out.set("worstCase", WorstCaseValue(q));
  out.set("ledger", LedgerValue(q));
}

// Everything a render needs, in one answer: the core's view (v) as plain values.
val ViewValue(const dlq::Session& s, const dlq::SessionView& v, const PageAsk& ask) {
  const dlq::Queue& q = s.queue();
  val out = val::object();
  out.set("cursor", static_cast<double>(v.cursor));
  out.set("length", static_cast<double>(v.length));
  out.set("generation", static_cast<double>(v.generation));
  out.set("advanced", v.advanced);
  out.set("leases", v.leases);
  out.set("authoredThrough", static_cast<double>(v.authored_through));
  out.set("canUndo", v.can_undo);
  out.set("stats", StatsValue(q));
  // The timeline: what changed since the page's copy, and the rest.
  const std::vector<dlq::Event>& events = s.events();
  val fresh = val::array();
  for (size_t i = v.events_from; i < v.event_count; ++i) fresh.call<void>("push", EventValue(events[i]));
  out.set("eventsFrom", static_cast<double>(v.events_from));
  out.set("events", fresh);
  out.set("eventCount", static_cast<double>(v.event_count));
  out.set("eventsAtCursor", static_cast<double>(v.events_at_cursor));
  out.set("last", LastValue(v));
  out.set("dropped", DroppedValue(v.dropped));
  out.set("ready", ShownReadyValue(v.ready));
  SetPlaces(out, q, ask.view.list_cap);
  out.set("refused", static_cast<double>(v.refused));
  out.set("refusedReplays", static_cast<double>(v.refused_replays));
  if (ask.generation != static_cast<double>(v.generation)) {
    out.set("policy", PolicyValue(q));
    out.set("world", s.scenario().world == dlq::World{} ? val::null() : WorldValue(s.scenario().world));
  }
  if (ask.link) out.set("link", LinkValue(s));
  return out;
}

// The scenario's policy with `changes` (a partial policy object index.mjs
// copied: its own keys only) put over it field group by field group, as a
// scenario object spread over it would be; the core reads and checks it whole.
// A class table object ({ <class>: rule }, as scenario() gives it) as the rows
// ReadClasses reads ([{ name, ...rule }]), as index.mjs makes them of one.
val ClassRows(const val& table) {
  const val object = val::global("Object");
  const val keys = object.call<val>("keys", table);
  val rows = val::array();
  const auto length = keys["length"].as<unsigned>();
  for (unsigned i = 0; i < length; ++i) {
    val row = val::object();
    row.set("name", keys[i]);
    rows.call<void>("push", object.call<val>("assign", row, table[keys[i]]));
  }
  return rows;
}

dlq::Result<dlq::Policy> EditedPolicy(const dlq::Policy& current, const val& changes) {
  if (!IsObject(changes)) return NotA("policy", "an object");
  val merged = val::object();
  SetPolicyFields(merged, current);
  merged.set("classes", ClassRows(merged["classes"]));
  const val keys = val::global("Object").call<val>("keys", changes);
  const auto length = keys["length"].as<unsigned>();
  for (unsigned i = 0; i < length; ++i) merged.set(keys[i], changes[keys[i]]);
  return PolicyFromValue(merged, "");
}

class SessionHandle {
 public:
  // Link text or a scenario object; the core checks it.
  val init(val scenario) {
    dlq::Result<dlq::Scenario> s = ScenarioIn(scenario);
    if (!s.ok()) return ErrorValue(s.status());
    dlq::Result<dlq::Session> made = dlq::Session::Create(s.value());
    if (!made.ok()) return ErrorValue(made.status());
    session_.emplace(std::move(made.value()));
    return val::undefined();
  }

  // load(scenario, clamp): a new authored scenario; the view, or the refusal.
  val load(val scenario, bool clamp, val ask) {
    dlq::Result<dlq::Scenario> s = ScenarioIn(scenario);
    if (!s.ok()) return ErrorValue(s.status());
    if (dlq::Status st = session_->Load(s.value(), clamp); !st.ok()) return ErrorValue(st);
    return View(ask);
  }

  // A set-up change (policy, world, jobs) of the scenario at the cursor; with
  // replayWorld the world plays the script past the cursor again.
  val change(val scenario, bool replay_world, val ask) {
    dlq::Result<dlq::Scenario> s = ScenarioFromValue(scenario);
    if (!s.ok()) return ErrorValue(s.status());
    if (dlq::Status st = session_->Change(s.value(), replay_world); !st.ok()) return ErrorValue(st);
    return View(ask);
  }

  // { accepted, view }: accepted false when the queue found nothing to do.
  val act(val action, val ask) {
    dlq::Result<dlq::Action> a = ActionFromValue(action, "action");
    if (!a.ok()) return ErrorValue(a.status());
    return Accepted(session_->Act(a.value()), ask);
  }

  // redriveAtRate(perSecond, only): { accepted, view } (session.h: RedriveAtRate);
  // accepted false when no entry matches `only`. perSecond and the filter are checked first.
  val redriveAtRate(val per_second, val only, val ask) {
    double rate = 0;
    if (dlq::Status st = ReadNumber(per_second, "perSecond", &rate); !st.ok()) return ErrorValue(st);
    if (dlq::Status st = dlq::kRedrivePerSecondField.Check(rate); !st.ok()) return ErrorValue(st);
    dlq::Result<dlq::RedriveFilter> filter = RedriveFilterFromValue(only, "only");
    if (!filter.ok()) return ErrorValue(filter.status());
    return Accepted(session_->RedriveAtRate(static_cast<int64_t>(rate), filter.value()), ask);
  }

  // worstCase(outcomes, leases): the bounded path of the policy in force over the
  // failures this playground can meet (session.h: FailureScopeFor), its terms
  // as queue.worstCase() gives them. `outcomes`: the outcome names its reader can
  // report (index.mjs checked them as strings); `leases`: its attempts hold leases.
  val worstCase(val outcomes, bool leases) {
    std::vector<dlq::Outcome> offered;
    const auto length = outcomes["length"].as<unsigned>();
    for (unsigned i = 0; i < length; ++i) {
      dlq::Result<dlq::Outcome> o = dlq::ParseOutcome(outcomes[i].as<std::string>());
      if (!o.ok()) {
        return ErrorValue(
            dlq::Status::Error(o.status().code(), "outcomes[" + std::to_string(i) + "]: " + o.status().message()));
      }
      offered.push_back(o.value());
    }
    const dlq::FailureScope scope = session_->FailureScopeFor(offered, leases);
    return WorstCaseValue(dlq::WorstCasePath(session_->queue().policy(), scope));
  }

  // actReport(outcome, error): a worker's report as text; the core parses the
  // outcome, counts a refusal (refused in the view) and changes nothing else.
  val actReport(const std::string& outcome, const std::string& error, val ask) {
    return Accepted(session_->ActReport(outcome, error), ask);
  }

  // The world's next action at the cursor, applied: { accepted, action, view };
  // accepted false (action null) when nothing will happen again.
  val actWorld(val ask) {
    const std::optional<dlq::Action> next = session_->NextWorldAction();
    if (!next.has_value()) {
      val out = Accepted(false, ask);
      out.set("action", val::null());
      return out;
    }
    val out = Accepted(session_->Act(*next), ask);
    if (!out["error"].isUndefined()) return out;
    out.set("action", ActionValue(*next));
    return out;
  }

  // addJob(id, payload, key): a set-up job at cursor 0, else an enqueue action; the view.
  val addJob(const std::string& id, const std::string& payload, const std::string& key, val ask) {
    if (dlq::Status st = session_->AddJob({id, payload, key}); !st.ok()) return ErrorValue(st);
    return View(ask);
  }

  // addJobWithBehaviour(id, payload, key, behaviour): the job and the world's
  // behaviour for it as one change (session.h AddJob); the view. `behaviour` is a
  // behaviour object index.mjs copied ({ kind, failure?, count?, … }, its id this job's).
  val addJobWithBehaviour(const std::string& id, const std::string& payload, const std::string& key, val behaviour,
                          val ask) {
    dlq::JobBehaviour b;
    if (dlq::Status st = ReadBehaviour(behaviour, "options.behaviour", &b); !st.ok()) return ErrorValue(st);
    if (dlq::Status st = session_->AddJob({id, payload, key}, b.behaviour); !st.ok()) return ErrorValue(st);
    return View(ask);
  }

  // setPolicy(changes, replayWorld): the scenario's policy with `changes` over it (one crossing); the view.
  val setPolicy(val changes, bool replay_world, val ask) {
    dlq::Result<dlq::Policy> p = EditedPolicy(session_->scenario().policy, changes);
    if (!p.ok()) return ErrorValue(p.status());
    if (dlq::Status st = session_->SetPolicy(p.value(), replay_world); !st.ok()) return ErrorValue(st);
    return View(ask);
  }

  // setWorld(world): the scenario's world replaced (null: none), played again past the cursor; the view.
  val setWorld(val world, val ask) {
    dlq::World w;
    if (!world.isNull()) {
      dlq::Result<dlq::World> read = WorldFromValue(world, "");
      if (!read.ok()) return ErrorValue(read.status());
      w = std::move(read).value();
    }
    if (dlq::Status st = session_->SetWorld(w); !st.ok()) return ErrorValue(st);
    return View(ask);
  }

  // removeJob(id): the job, its enqueue action or set-up entry, and its behaviour (session.h RemoveJob); the view.
  val removeJob(const std::string& id, val ask) {
    if (dlq::Status st = session_->RemoveJob(id); !st.ok()) return ErrorValue(st);
    return View(ask);
  }

  // The share link alone: { text } or { error, message } (no view is built for it).
  val link() const { return LinkValue(*session_); }

  // { accepted, view }: accepted false when the cursor was there already.
  val seek(double cursor, val ask) {
    if (!(cursor >= 0)) cursor = 0;
    return Accepted(session_->Seek(QueueIndex(cursor, session_->length())), ask);
  }

  val undo(val ask) { return Accepted(session_->Undo(), ask); }

  val view(val ask) { return View(ask); }

  // The world's next action at the cursor, as an action object, or null. Changes nothing.
  val nextWorldAction() const {
    const std::optional<dlq::Action> next = session_->NextWorldAction();
    val out = val::object();  // wrapped: an action's own "error" field must not read as a refusal
    out.set("action", next ? ActionValue(*next) : val::null());
    return out;
  }

  // { after, rank } (session.h: WriteThatMatters), null when no write matters, or the refusal.
  val writeThatMatters() const {
    dlq::Result<std::optional<dlq::Session::CrashPoint>> point = session_->WriteThatMatters();
    if (!point.ok()) return ErrorValue(point.status());
    const std::optional<dlq::Session::CrashPoint>& found = point.value();
    if (!found.has_value()) return val::null();
    val out = val::object();
    out.set("after", static_cast<double>(found->after));
    out.set("rank", found->rank);
    return out;
  }

  val scenario() const { return ScenarioValue(session_->scenario()); }
  val policy() const { return PolicyValue(session_->queue()); }
  val rules() const { return RulesValue(session_->queue()); }
  val journal() const { return JournalValue(session_->queue()); }
  val locate(const std::string& id) const { return LocateValue(session_->queue(), id); }
  val checkGoal(const std::string& text) const {
    return CheckGoalValue(session_->queue(), text, {session_->refused(), session_->refused_replays()});
  }
  val snapshotText() const {
    dlq::Result<std::string> text = session_->queue().view().SnapshotText();
    return text.ok() ? val(text.value()) : ErrorValue(text.status());
  }
  // The session's timeline as text, one RenderEvent line per event up to the cursor.
  std::string timelineText() const {
    std::string out;
    const size_t n = session_->EventsAt(session_->cursor());
    for (size_t i = 0; i < n; ++i) out.append(dlq::RenderEvent(session_->events()[i])).append("\n");
    return out;
  }
  // Where a click on timeline event `seq` moves the cursor.
  double cursorForEvent(double seq) const {
    return static_cast<double>(session_->CursorForEvent(QueueIndex(seq >= 0 ? seq : 0, SIZE_MAX >> 12)));
  }

 private:
  val Accepted(const dlq::Result<bool>& r, const val& ask) {
    if (!r.ok()) return ErrorValue(r.status());
    return Accepted(r.value(), ask);
  }
  val Accepted(bool accepted, const val& ask) {
    val out = val::object();
    out.set("accepted", accepted);
    out.set("view", View(ask));
    return out;
  }

  // The view: what changed since the last answer is taken once, then the core's view is read (const).
  val View(const val& in) {
    const PageAsk ask = ReadAsk(in);
    const dlq::SessionChanges changes = session_->TakeChanges();
    return ViewValue(*session_, session_->View(ask.view, changes), ask);
  }

  std::optional<dlq::Session> session_;
};

// The scenario with the world's run as its script past the cursor (core/session/session.h: PlayWorld).
val PlayWorldValue(val in) {
  dlq::Result<dlq::Scenario> s = ScenarioFromValue(in);
  if (!s.ok()) return ErrorValue(s.status());
  dlq::Result<dlq::Scenario> played = dlq::PlayWorld(s.value());
  return played.ok() ? ScenarioValue(played.value()) : ErrorValue(played.status());
}

}  // namespace
}  // namespace dlq_wasm

EMSCRIPTEN_BINDINGS(dlq_session) {
  emscripten::function("playWorld", &dlq_wasm::PlayWorldValue);
  using dlq_wasm::SessionHandle;
  emscripten::class_<SessionHandle>("SessionHandle")
      .constructor<>()
      .function("init", &SessionHandle::init)
      .function("load", &SessionHandle::load)
      .function("change", &SessionHandle::change)
      .function("act", &SessionHandle::act)
      .function("actReport", &SessionHandle::actReport)
      .function("redriveAtRate", &SessionHandle::redriveAtRate)
      .function("worstCase", &SessionHandle::worstCase)
      .function("addJob", &SessionHandle::addJob)
      .function("addJobWithBehaviour", &SessionHandle::addJobWithBehaviour)
      .function("setPolicy", &SessionHandle::setPolicy)
      .function("removeJob", &SessionHandle::removeJob)
      .function("setWorld", &SessionHandle::setWorld)
      .function("link", &SessionHandle::link)
      .function("actWorld", &SessionHandle::actWorld)
      .function("seek", &SessionHandle::seek)
      .function("undo", &SessionHandle::undo)
      .function("view", &SessionHandle::view)
      .function("nextWorldAction", &SessionHandle::nextWorldAction)
      .function("scenario", &SessionHandle::scenario)
      .function("writeThatMatters", &SessionHandle::writeThatMatters)
      .function("policy", &SessionHandle::policy)
      .function("rules", &SessionHandle::rules)
      .function("journal", &SessionHandle::journal)
      .function("locate", &SessionHandle::locate)
      .function("checkGoal", &SessionHandle::checkGoal)
      .function("snapshotText", &SessionHandle::snapshotText)
      .function("timelineText", &SessionHandle::timelineText)
      .function("cursorForEvent", &SessionHandle::cursorForEvent);
}
