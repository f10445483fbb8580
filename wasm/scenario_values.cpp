// Scenarios, their scripted actions and worlds, in and out as plain JS values
// (values.h declares them), and the module functions that take a scenario object.
// Conversion only: names, ranges and the rules are the core's.
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "dlq.h"
#include "player.h"
#include "schema_value.h"
#include "text.h"
#include "values.h"

namespace dlq_wasm {

val ActionValue(const dlq::Action& a) {
  val out = val::object();
  std::visit(dlq::Overloaded{
                 [&](const dlq::action::Process& p) {
                   out.set("type", std::string("process"));
                   out.set("outcome", std::string(dlq::OutcomeName(p.outcome)));
                   out.set("error", p.error);
                 },
                 [&](const dlq::action::Replay& r) {
                   out.set("type", std::string("replay"));
                   out.set("id", r.id);
                   if (r.keep_attempts) out.set("resetAttempts", false);
                 },
                 [&](const dlq::action::Enqueue& e) {
                   out.set("type", std::string("enqueue"));
                   out.set("id", e.id);
                   out.set("payload", e.payload);
                   if (!e.key.empty()) out.set("key", e.key);  // absent for none, as the action takes it
                 },
                 [&](const dlq::action::Lease&) { out.set("type", std::string("lease")); },
                 [&](const dlq::action::Settle& st) {
                   out.set("type", std::string("settle"));
                   out.set("token", dlq::LeaseTable::Token(st.lease));
                   out.set("outcome", std::string(dlq::OutcomeName(st.outcome)));
                   out.set("error", st.error);
                 },
                 [&](const dlq::action::Advance& ad) {
                   out.set("type", std::string("advance"));
                   out.set("ms", static_cast<double>(ad.ms));
                 },
                 [&](const dlq::action::AdvanceToNext&) { out.set("type", std::string("advanceToNext")); },
                 [&](const dlq::action::ReleaseKey& r) {
                   out.set("type", std::string("releaseKey"));
                   out.set("key", r.key);
                 },
                 [&](const dlq::action::Redrive& r) {
                   out.set("type", std::string("redrive"));
                   out.set("max", static_cast<double>(r.max));
                   if (r.only.failure_class) out.set("class", std::string(dlq::ClassName(*r.only.failure_class)));
                   if (r.only.reason != dlq::Reason::kNone) out.set("reason", std::string(dlq::ReasonName(r.only.reason)));
                 },
                 [&](const dlq::action::Crash& c) {
                   out.set("type", std::string("crash"));
                   out.set("after", static_cast<double>(c.after));
                   out.set("torn", c.torn);
                 },
                 [&](const dlq::action::Patch& pa) {
                   out.set("type", std::string("patch"));
                   out.set("id", pa.id);
                   out.set("payload", pa.payload);
                 },
             },
             a);
  return out;
}

// { workers, workMs, outage: { startMs, endMs } | null, behaviours: [{ id, kind, … }] }.
val WorldValue(const dlq::World& w) {
  val out = val::object();
  // An empty outage (start equal to end) is none: null.
  WriteFields(w, dlq::WorldFields(), out, [&](const dlq::FieldSpec& spec) {
    return w.outage_start != w.outage_end || std::string_view(spec.name).rfind("outage.", 0) != 0;
  });
  if (w.outage_start == w.outage_end) out.set("outage", val::null());
  val list = val::array();
  for (const dlq::JobBehaviour& jb : w.behaviours) {
    const dlq::Behaviour& b = jb.behaviour;
    val item = val::object();
    item.set("id", jb.id);
    item.set("kind", std::string(dlq::BehaviourKindName(b.kind)));
    switch (b.kind) {
      case dlq::BehaviourKind::kPoison: item.set("failure", std::string(dlq::OutcomeName(b.failure))); break;
      case dlq::BehaviourKind::kFlaky:
      case dlq::BehaviourKind::kCrashes: item.set("count", static_cast<double>(b.count)); break;
      case dlq::BehaviourKind::kPrecondition: item.set("until", static_cast<double>(b.until)); break;
      case dlq::BehaviourKind::kScript: item.set("script", b.script); break;
      case dlq::BehaviourKind::kHealthy:
      case dlq::BehaviourKind::kMalformed: break;
    }
    item.set("needsDependency", b.needs_dependency);
    list.call<void>("push", item);
  }
  out.set("behaviours", list);
  return out;
}

// One world behaviour object built by index.mjs ({ id, kind, failure?, count?,
// until?, script?, needsDependency? }), named `at` ("world.behaviours[0]").
// Types and names here; ranges are CheckWorld's.
dlq::Status ReadBehaviour(const val& item, const std::string& at, dlq::JobBehaviour* out) {
  if (!IsObject(item)) return NotA(at, "an object");
  dlq::Behaviour& b = out->behaviour;
  if (dlq::Status s = ReadString(item["id"], at + ".id", &out->id); !s.ok()) return s;
  std::string kind;
  if (dlq::Status s = ReadString(item["kind"], at + ".kind", &kind); !s.ok()) return s;
  dlq::Result<dlq::BehaviourKind> parsed = dlq::ParseBehaviourKind(kind);
  if (!parsed.ok()) return dlq::Status::Error(parsed.status().code(), at + "." + parsed.status().message().substr(10));
  b.kind = parsed.value();
  val failure = item["failure"];
  if (!failure.isUndefined()) {
    std::string text;
    if (dlq::Status s = ReadString(failure, at + ".failure", &text); !s.ok()) return s;
    dlq::Result<dlq::Outcome> outcome = dlq::ParseOutcome(text);
    if (!outcome.ok()) return dlq::Status::InvalidArgument(at + ".failure: " + outcome.status().message());
    b.failure = outcome.value();
  }
  for (const auto& [field, target] : {std::pair{"count", &b.count}, std::pair{"until", &b.until}}) {
    val v = item[field];
    if (v.isUndefined()) continue;
    double number = 0;
    if (dlq::Status s = ReadNumber(v, at + "." + field, &number); !s.ok()) return s;
    if (number != std::trunc(number) || number < -1e18 || number > 1e18) {
      return dlq::Status::OutOfRange(at + "." + field + " must be an integer, got " + dlq::DescribeNumber(number));
    }
    *target = static_cast<int64_t>(number);
  }
  val script = item["script"];
  if (!script.isUndefined()) {
    if (dlq::Status s = ReadString(script, at + ".script", &b.script); !s.ok()) return s;
  }
  return ReadBoolean(item["needsDependency"], at + ".needsDependency", &b.needs_dependency);
}

// A world object built by index.mjs ({ workers?, workMs?, outage?, behaviours? });
// `prefix` ("" or "scenario.") goes in front of every name. Ranges and names are the core's.
dlq::Result<dlq::World> WorldFromValue(val in, const std::string& prefix) {
  const std::string name = prefix + "world";
  if (!IsObject(in)) return NotA(name, "an object");
  dlq::World w;
  // The scalars by the table; `outage` may be null (none).
  if (dlq::Status s = ReadFields(in, dlq::WorldFields(), "world.", prefix, &w, "outage"); !s.ok()) return s;
  val list = in["behaviours"];
  if (!list.isUndefined()) {
    size_t count = 0;
    if (dlq::Status s = ReadLength(list, name + ".behaviours", dlq::kMaxScenarioItems, &count); !s.ok()) return s;
    w.behaviours.resize(count);
    for (size_t i = 0; i < count; ++i) {
      const std::string at = name + ".behaviours[" + std::to_string(i) + "]";
      if (dlq::Status s = ReadBehaviour(list[i], at, &w.behaviours[i]); !s.ok()) return s;
    }
  }
  // Range messages name the core's field ("world.workers"), as policy fields do in scenario objects.
  if (dlq::Status s = dlq::CheckWorld(w); !s.ok()) return s;
  return w;
}

val ScenarioValue(const dlq::Scenario& s) {
  val out = val::object();
  SetPolicyFields(out, s.policy);
  val jobs = val::array();
  for (const dlq::JobSpec& j : s.jobs) {
    val job = val::object();
    job.set("id", j.id);
    job.set("payload", j.payload);
    if (!j.key.empty()) job.set("key", j.key);  // as a scenario object takes it: absent for none
    jobs.call<void>("push", job);
  }
  out.set("jobs", jobs);
  val actions = val::array();
  for (const dlq::Action& a : s.actions) actions.call<void>("push", ActionValue(a));
  out.set("actions", actions);
  out.set("cursor", static_cast<double>(s.cursor));
  if (!(s.world == dlq::World{})) out.set("world", WorldValue(s.world));  // absent: nobody plays it
  return out;
}

val ParseScenarioText(const std::string& text) {
  dlq::Result<dlq::Scenario> r = dlq::ParseScenario(text);
  if (!r.ok()) return ErrorValue(r.status());
  return ScenarioValue(r.value());
}

// An outcome string parsed by the core, its message prefixed with the action's name.
dlq::Status ReadOutcome(const val& v, const std::string& name, dlq::Outcome* out) {
  std::string text;
  if (dlq::Status st = ReadString(v, name + ".outcome", &text); !st.ok()) return st;
  dlq::Result<dlq::Outcome> outcome = dlq::ParseOutcome(text);
  if (!outcome.ok()) return dlq::Status::InvalidArgument(name + "." + outcome.status().message());
  *out = outcome.value();
  return dlq::Status::Ok();
}

// One action object built by index.mjs; `name` is "scenario.actions[i]". Every
// type is named here; an unknown one is refused.
dlq::Result<dlq::RedriveFilter> RedriveFilterFromValue(const val& in, const std::string& name) {
  dlq::RedriveFilter only;
  if (val c = in["class"]; !c.isUndefined()) {
    std::string text;
    if (dlq::Status st = ReadString(c, name + ".class", &text); !st.ok()) return st;
    dlq::Result<dlq::FailureClass> parsed = dlq::ParseClass(text);
    if (!parsed.ok()) return dlq::Status::Error(parsed.status().code(), name + ".class: " + parsed.status().message());
    only.failure_class = parsed.value();
  }
  if (val r = in["reason"]; !r.isUndefined()) {
    std::string text;
    if (dlq::Status st = ReadString(r, name + ".reason", &text); !st.ok()) return st;
    if (text == dlq::ReasonName(dlq::Reason::kPermanent)) only.reason = dlq::Reason::kPermanent;
    else if (text == dlq::ReasonName(dlq::Reason::kExhausted)) only.reason = dlq::Reason::kExhausted;
    else return dlq::Status::InvalidArgument(name + ".reason must be \"permanent\" or \"exhausted\", got " + dlq::QuoteShort(text));
  }
  return only;
}

namespace {

// The readers of one action type each: `a` is the action object, `name` its name in refusals.
dlq::Result<dlq::Action> ReadProcessAction(const val& a, const std::string& name) {
  dlq::action::Process p;
  if (dlq::Status st = ReadOutcome(a["outcome"], name, &p.outcome); !st.ok()) return st;
  if (dlq::Status st = ReadString(a["error"], name + ".error", &p.error); !st.ok()) return st;
  return dlq::Action(std::move(p));
}

dlq::Result<dlq::Action> ReadReplayAction(const val& a, const std::string& name) {
  dlq::action::Replay r;
  if (dlq::Status st = ReadString(a["id"], name + ".id", &r.id); !st.ok()) return st;
  if (val reset = a["resetAttempts"]; !reset.isUndefined()) {  // false: bullmq's retry without a reset
    bool resets = true;
    if (dlq::Status st = ReadBoolean(reset, name + ".resetAttempts", &resets); !st.ok()) return st;
    r.keep_attempts = !resets;
  }
  return dlq::Action(std::move(r));
}

dlq::Result<dlq::Action> ReadEnqueueAction(const val& a, const std::string& name) {
  dlq::action::Enqueue e;
  if (dlq::Status st = ReadString(a["id"], name + ".id", &e.id); !st.ok()) return st;
  if (dlq::Status st = ReadString(a["payload"], name + ".payload", &e.payload); !st.ok()) return st;
  val key = a["key"];
  if (!key.isUndefined()) {
    if (dlq::Status st = ReadString(key, name + ".key", &e.key); !st.ok()) return st;
  }
  return dlq::Action(std::move(e));
}

dlq::Result<dlq::Action> ReadSettleAction(const val& a, const std::string& name) {
  dlq::action::Settle st;
  std::string token;
  if (dlq::Status s = ReadString(a["token"], name + ".token", &token); !s.ok()) return s;
  st.lease = dlq::LeaseTable::ParseToken(token);
  if (st.lease == 0) {
    return dlq::Status::InvalidArgument(name + ".token must be a lease token \"lease-<n>\" with n from 1 to " +
                                        std::to_string(UINT32_MAX) + ", got " + dlq::QuoteShort(token));
  }
  if (dlq::Status s = ReadOutcome(a["outcome"], name, &st.outcome); !s.ok()) return s;
  if (dlq::Status s = ReadString(a["error"], name + ".error", &st.error); !s.ok()) return s;
  return dlq::Action(std::move(st));
}

dlq::Result<dlq::Action> ReadAdvanceAction(const val& a, const std::string& name) {
  double ms = 0;
  if (dlq::Status st = ReadNumber(a["ms"], name + ".ms", &ms); !st.ok()) return st;
  if (dlq::Status st = dlq::kAdvanceMsField.Check(ms); !st.ok()) {
    return dlq::Status::Error(st.code(), name + "." + st.message());
  }
  return dlq::Action(dlq::action::Advance{static_cast<int64_t>(ms)});
}

dlq::Result<dlq::Action> ReadPatchAction(const val& a, const std::string& name) {
  dlq::action::Patch pa;
  if (dlq::Status st = ReadString(a["id"], name + ".id", &pa.id); !st.ok()) return st;
  if (dlq::Status st = ReadString(a["payload"], name + ".payload", &pa.payload); !st.ok()) return st;
  return dlq::Action(std::move(pa));
}

dlq::Result<dlq::Action> ReadReleaseKeyAction(const val& a, const std::string& name) {
  dlq::action::ReleaseKey r;
  if (dlq::Status st = ReadString(a["key"], name + ".key", &r.key); !st.ok()) return st;
  return dlq::Action(std::move(r));
}

dlq::Result<dlq::Action> ReadRedriveAction(const val& a, const std::string& name) {
  double max = 0;
  if (dlq::Status st = ReadNumber(a["max"], name + ".max", &max); !st.ok()) return st;
  if (dlq::Status st = dlq::kRedriveMaxField.Check(max); !st.ok()) {
    return dlq::Status::Error(st.code(), name + "." + st.message());
  }
  dlq::action::Redrive redrive{static_cast<int64_t>(max)};
  // Optional: only entries of one failure class, and/or of one reason.
  dlq::Result<dlq::RedriveFilter> only = RedriveFilterFromValue(a, name);
  if (!only.ok()) return only.status();
  redrive.only = only.value();
  return dlq::Action(std::move(redrive));
}

dlq::Result<dlq::Action> ReadCrashAction(const val& a, const std::string& name) {
  double after = 0;
  if (dlq::Status st = ReadNumber(a["after"], name + ".after", &after); !st.ok()) return st;
  if (dlq::Status st = dlq::kCrashAfterField.Check(after); !st.ok()) {
    return dlq::Status::Error(st.code(), name + "." + st.message());
  }
  bool torn = false;
  if (val t = a["torn"]; !t.isUndefined()) {
    if (dlq::Status st = ReadBoolean(t, name + ".torn", &torn); !st.ok()) return st;
  }
  return dlq::Action(dlq::action::Crash{static_cast<int64_t>(after), torn});
}

dlq::Result<dlq::Action> ReadLeaseAction(const val&, const std::string&) { return dlq::Action(dlq::action::Lease{}); }
dlq::Result<dlq::Action> ReadAdvanceToNextAction(const val&, const std::string&) { return dlq::Action(dlq::action::AdvanceToNext{}); }

// Every action type by the name an action object gives it (scenario.h Action).
using ActionReader = dlq::Result<dlq::Action> (*)(const val& a, const std::string& name);
constexpr std::pair<std::string_view, ActionReader> kActionReaders[] = {
    {"process", &ReadProcessAction},
    {"replay", &ReadReplayAction},
    {"enqueue", &ReadEnqueueAction},
    {"lease", &ReadLeaseAction},
    {"settle", &ReadSettleAction},
    {"advance", &ReadAdvanceAction},
    {"advanceToNext", &ReadAdvanceToNextAction},
    {"patch", &ReadPatchAction},
    {"releaseKey", &ReadReleaseKeyAction},
    {"redrive", &ReadRedriveAction},
    {"crash", &ReadCrashAction},
};

}  // namespace

dlq::Result<dlq::Action> ActionFromValue(const val& a, const std::string& name) {
  if (!IsObject(a)) return NotA(name, "an object");
  std::string type;
  if (dlq::Status st = ReadString(a["type"], name + ".type", &type); !st.ok()) return st;
  for (const auto& [action_type, read] : kActionReaders) {
    if (type == action_type) return read(a, name);
  }
  return dlq::Status::InvalidArgument(name + ".type " + dlq::QuoteShort(type) + " is not an action type");
}

// A scenario object built by index.mjs (its fields checked there, and again here
// before any as<T>(); policy numbers, names and outcome strings are checked by the core).
dlq::Result<dlq::Scenario> ScenarioFromValue(val in) {
  dlq::Scenario s;
  dlq::Result<dlq::Policy> policy = PolicyFromValue(in, "scenario.");
  if (!policy.ok()) return policy.status();
  s.policy = policy.value();

  val jobs = in["jobs"];
  size_t job_count = 0;
  if (dlq::Status st = ReadLength(jobs, "scenario.jobs", dlq::kMaxScenarioItems, &job_count); !st.ok()) return st;
  s.jobs.resize(job_count);
  for (size_t i = 0; i < job_count; ++i) {
    val job = jobs[i];
    const std::string name = "scenario.jobs[" + std::to_string(i) + "]";
    if (!IsObject(job)) return NotA(name, "an object");
    if (dlq::Status st = ReadString(job["id"], name + ".id", &s.jobs[i].id); !st.ok()) return st;
    if (dlq::Status st = ReadString(job["payload"], name + ".payload", &s.jobs[i].payload); !st.ok()) return st;
    val key = job["key"];
    if (!key.isUndefined()) {
      if (dlq::Status st = ReadString(key, name + ".key", &s.jobs[i].key); !st.ok()) return st;
    }
  }

  val actions = in["actions"];
  size_t action_count = 0;
  if (dlq::Status st = ReadLength(actions, "scenario.actions", dlq::kMaxScenarioItems, &action_count); !st.ok()) {
    return st;
  }
  s.actions.reserve(action_count);
  for (size_t i = 0; i < action_count; ++i) {
    dlq::Result<dlq::Action> action = ActionFromValue(actions[i], "scenario.actions[" + std::to_string(i) + "]");
    if (!action.ok()) return action.status();
    s.actions.push_back(std::move(action).value());
  }

  double cursor = 0;
  if (dlq::Status st = ReadNumber(in["cursor"], "scenario.cursor", &cursor); !st.ok()) return st;
  // Clamped before narrowing: no double beyond uint64 is ever converted.
  if (dlq::Status st = dlq::CheckCursor(static_cast<uint64_t>(std::clamp(cursor, 0.0, 1e18)), action_count);
      !st.ok()) {
    return st;
  }
  s.cursor = static_cast<size_t>(cursor);
  val world = in["world"];
  if (!world.isUndefined()) {
    dlq::Result<dlq::World> w = WorldFromValue(world, "scenario.");
    if (!w.ok()) return w.status();
    s.world = std::move(w).value();
  }
  return s;
}

// The link text of a scenario object, or the error the core would give loading it.
val FormatScenarioValue(val in) {
  dlq::Result<dlq::Scenario> s = ScenarioFromValue(in);
  if (!s.ok()) return ErrorValue(s.status());
  dlq::Result<std::string> text = dlq::ShareScenario(s.value());
  return text.ok() ? val(text.value()) : ErrorValue(text.status());
}

// { version, lessonOne } for a scenario object: the link version it is written
// in (1 when lesson 1's format can carry it, FitsV1), and whether it is lesson 1's.
val ScenarioFeaturesValue(val in) {
  dlq::Result<dlq::Scenario> s = ScenarioFromValue(in);
  if (!s.ok()) return ErrorValue(s.status());
  const int version = dlq::LinkVersionOf(s.value());
  val out = val::object();
  out.set("version", version);
  out.set("lessonOne", version == 1);
  return out;
}

// { playable, stopped: null | { code, message } } for a scenario object.
val PlayableActionsValue(val in) {
  dlq::Result<dlq::Scenario> s = ScenarioFromValue(in);
  if (!s.ok()) return ErrorValue(s.status());
  const dlq::ScenarioReach reach = dlq::PlayableActions(s.value());
  val out = val::object();
  out.set("playable", static_cast<double>(reach.playable));
  if (reach.stopped.ok()) {
    out.set("stopped", val::null());
  } else {
    val stopped = val::object();
    stopped.set("code", std::string(dlq::CodeName(reach.stopped.code())));
    stopped.set("message", reach.stopped.message());
    out.set("stopped", stopped);
  }
  return out;
}

}  // namespace dlq_wasm
