// Embind bindings of the lab's module itself (dlq_core): its functions and constants
// (lab.schema, scenarios, goals); the limits, names and heap budget every module
// shares are in tables_binding.cpp, the simulations in their own module
// (sim_binding.cpp, storm_binding.cpp: dlq_sim). The conversions
// every handle shares are in values.cpp, queue_values.cpp and scenario_values.cpp
// (values.h declares them); one file per handle beside it (queue_binding.cpp,
// session_binding.cpp, schedule_binding.cpp); only these files
// include Emscripten headers. No policy logic here, only conversion.
// wasm/index.mjs is the only caller.
//
// Boundary rules (every binding follows them; see also the top of index.mjs):
//  * Nothing throws across wasm frames. Every fallible call returns its value or
//    an error object { error: <code name>, message } that index.mjs throws as a
//    typed Error; a refused call changes nothing, as in the core.
//  * A val is type-checked in C++ (isString, isNumber, isArray, …) before any
//    as<T>(), so Embind never throws a BindingError from inside a C++ frame.
//    index.mjs passes plain objects and arrays it built itself from values it
//    read once, so no user getter or Proxy runs while C++ reads them.
//  * Sizes are checked in JS before a string is copied in (the limits and the
//    messages come from the core: sizeLimits(), sizeError()); the core checks
//    them again. What a queue keeps is charged to the heap budget, set here to
//    half of the 2 GB memory, so memory runs out as a clean ResourceExhausted.
//  * The module is built with -sABORTING_MALLOC=1: an allocation that fails
//    anyway aborts (a WebAssembly.RuntimeError) instead of returning 0, and
//    index.mjs then refuses every later call with code "aborted".
#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "dlq.h"
#include "goal.h"
#include "par.h"
#include "player.h"
#include "text.h"
#include "schema_value.h"
#include "values.h"

using emscripten::val;

namespace dlq_wasm {

// index.mjs passes non-negative safe integers, so the conversions are exact.
val RandomOutcomes(double seed, double count, double success_pct, double transient_pct) {
  dlq::Result<std::string> r =
      dlq::RandomOutcomes(static_cast<uint64_t>(seed), static_cast<uint64_t>(count), static_cast<uint64_t>(success_pct),
                          static_cast<uint64_t>(transient_pct));
  return r.ok() ? val(r.value()) : ErrorValue(r.status());
}

// { actions, steps, moves } where the solution first meets the goal (par.h), null
// when it never does, or the goal's or the scenario's refusal.
val GoalParValue(const std::string& text, val scenario) {
  dlq::Result<dlq::Goal> goal = dlq::ParseGoal(text);
  if (!goal.ok()) return ErrorValue(goal.status());
  dlq::Result<dlq::Scenario> s = ScenarioFromValue(scenario);
  if (!s.ok()) return ErrorValue(s.status());
  dlq::Result<std::optional<dlq::GoalPar>> par = dlq::SolutionPar(goal.value(), s.value());
  if (!par.ok()) return ErrorValue(par.status());
  if (!par.value().has_value()) return val::null();
  val out = val::object();
  out.set("actions", static_cast<double>(par.value()->actions));
  out.set("steps", static_cast<double>(par.value()->steps));
  out.set("moves", static_cast<double>(par.value()->moves));
  return out;
}

// The solver's moves before the scenario's cursor (par.h LearnerMoves), or its refusal.
val LearnerMovesValue(val scenario) {
  dlq::Result<dlq::Scenario> s = ScenarioFromValue(scenario);
  if (!s.ok()) return ErrorValue(s.status());
  dlq::Result<size_t> moves = dlq::LearnerMoves(s.value());
  if (!moves.ok()) return ErrorValue(moves.status());
  return val(static_cast<double>(moves.value()));
}

// The canonical text of a goal (goal.h), or the parse error.
val ParseGoalText(const std::string& text) {
  dlq::Result<dlq::Goal> goal = dlq::ParseGoal(text);
  return goal.ok() ? val(dlq::FormatGoal(goal.value())) : ErrorValue(goal.status());
}

// lab.schema: every configurable field of the objects createQueue and scenarios
// take, by object: { policy, backoff, classRule, world, schedule } (the storm's and
// the contention experiment's are sim.schema's: sim_binding.cpp),
// and the scripted action types (actions: ActionSchemaValue)
// (field.h rows: name, kind, label, description, default, range or choices).
// A class rule's defaults are the transient class's (ClassTable has the rest).
val SchemaTable() {
  val out = val::object();
  out.set("policy", SchemaValue(dlq::PolicyFields(), dlq::Policy{}, dlq::IsScenarioField));
  out.set("backoff", SchemaValue(dlq::BackoffFields(), dlq::Backoff{}));
  out.set("classRule", SchemaValue(dlq::ClassRuleFields(), dlq::ClassRule{}));
  out.set("world", SchemaValue(dlq::WorldFields(), dlq::World{}));
  out.set("schedule", SchemaValue(dlq::ScheduleFields(), dlq::ScheduleOptions{}));
  out.set("actions", ActionSchemaValue());
  return out;
}

}  // namespace dlq_wasm

using namespace dlq_wasm;

EMSCRIPTEN_BINDINGS(dlq_core) {
  emscripten::function("parseScenario", &ParseScenarioText);
  emscripten::function("formatScenario", &FormatScenarioValue);
  emscripten::function("playableActions", &PlayableActionsValue);
  emscripten::function("scenarioFeatures", &ScenarioFeaturesValue);
  emscripten::function("parseGoal", &ParseGoalText);
  emscripten::function("goalPar", &GoalParValue);
  emscripten::function("learnerMoves", &LearnerMovesValue);
  emscripten::function("randomOutcomes", &RandomOutcomes);
  emscripten::function("schema", &SchemaTable);
  emscripten::constant("scenarioFormatVersion", dlq::kScenarioFormatVersion);
  emscripten::constant("maxScenarioTextBytes", static_cast<double>(dlq::kMaxScenarioTextBytes));
  emscripten::constant("maxAttemptsLimit", static_cast<double>(dlq::Policy::kMaxAttempts));
  emscripten::constant("maxScriptLetters", static_cast<double>(dlq::kMaxScriptLetters));
  emscripten::constant("retryQueueName", std::string(dlq::kRetryQueueName));
}
