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

// Actions in and out (ActionValue, ActionFromValue, RedriveFilterFromValue) are
// the generic converter's (schema_value.cpp), driven by the core's action table.

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
  if (dlq::Status st = dlq::CheckCursor(static_cast<uint64_t>(std::clamp(cursor, 0.0, 1e18)), action_count); !st.ok()) {
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
