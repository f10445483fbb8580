// Embind bindings of the module itself: its functions and constants (the lab's:
// limits, names, lab.schema, goals, contention, the heap budget). The conversions
// every handle shares are in values.cpp, queue_values.cpp and scenario_values.cpp
// (values.h declares them); one file per handle beside it (queue_binding.cpp,
// session_binding.cpp, storm_binding.cpp, schedule_binding.cpp); only these files
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
#include "contention.h"
#include "goal.h"
#include "par.h"
#include "storm.h"
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

// { key: limit } for every row of the core's size-limit table, and a goal's (goal.h).
val SizeLimits() {
  val out = val::object();
  for (const dlq::SizeLimit& limit : dlq::kSizeLimits) out.set(limit.key, static_cast<double>(limit.value));
  out.set("goalBytes", static_cast<double>(dlq::kMaxGoalBytes));
  out.set("goalClauses", static_cast<double>(dlq::kMaxGoalClauses));
  return out;
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

// { meanCalls, meanCompletionMs } of the contention experiment (contention.h) for
// index.mjs's plain copy of the options ({ clients, strategy, baseMs?, capMs?,
// seed?, runs? }: absent fields undefined), or the core's error naming the option.
val RunContentionValue(val in) {
  dlq::ContentionOptions o;
  // By the table, in its order: clients, strategy, baseMs, capMs, seed, runs.
  if (dlq::Status s = ReadFields(in, dlq::ContentionFields(), "", "", &o); !s.ok()) return ErrorValue(s);
  dlq::Result<dlq::ContentionResult> r = dlq::RunContention(o);
  if (!r.ok()) return ErrorValue(r.status());
  val out = val::object();
  out.set("meanCalls", r->mean_calls);
  out.set("meanCompletionMs", r->mean_completion_ms);
  return out;
}

// The core's message for a runContention() option of the wrong type (`described`
// by index.mjs); an error value for a name that is not an option.
val ContentionTypeMessage(const std::string& name, const std::string& described) {
  if (name == "strategy") {
    return val(std::string("strategy must be one of \"none\", \"exponential\", \"equal\", \"full\", "
                           "\"decorrelated\", got ")
                   .append(described));
  }
  for (const dlq::IntegerField* field : dlq::kContentionIntegerFields) {
    if (name == field->name) return val(field->Message(described));
  }
  return ErrorValue(dlq::Status::NotFound("no runContention option is named " + dlq::QuoteShort(name)));
}

// lab.schema: every configurable field of the objects createQueue and scenarios
// take, by object: { policy, backoff, classRule, world, storm, contention, schedule },
// and the scripted action types (actions: ActionSchemaValue)
// (field.h rows: name, kind, label, description, default, range or choices).
// A class rule's defaults are the transient class's (ClassTable has the rest).
val SchemaTable() {
  val out = val::object();
  out.set("policy", SchemaValue(dlq::PolicyFields(), dlq::Policy{}, dlq::IsScenarioField));
  out.set("backoff", SchemaValue(dlq::BackoffFields(), dlq::Backoff{}));
  out.set("classRule", SchemaValue(dlq::ClassRuleFields(), dlq::ClassRule{}));
  out.set("world", SchemaValue(dlq::WorldFields(), dlq::World{}));
  out.set("storm", SchemaValue(dlq::StormFields(), dlq::StormOptions{}));
  out.set("contention", SchemaValue(dlq::ContentionFields(), dlq::ContentionOptions{}));
  out.set("schedule", SchemaValue(dlq::ScheduleFields(), dlq::ScheduleOptions{}));
  out.set("actions", ActionSchemaValue());
  return out;
}

// { name: { min, max } } for every row of the core's integer-field table.
// Every integer field JS checks numbers against: the policy's and the world's.
std::vector<const dlq::IntegerField*> AllIntegerFields() {
  std::vector<const dlq::IntegerField*> all(std::begin(dlq::kIntegerFields), std::end(dlq::kIntegerFields));
  all.insert(all.end(), std::begin(dlq::kWorldIntegerFields), std::end(dlq::kWorldIntegerFields));
  all.push_back(&dlq::kCrashAfterField);
  all.push_back(&dlq::kRedrivePerSecondField);
  return all;
}

val IntegerFields() {
  val out = val::object();
  for (const dlq::IntegerField* field : AllIntegerFields()) {
    val range = val::object();
    range.set("min", static_cast<double>(field->min));
    range.set("max", static_cast<double>(field->max));
    out.set(field->name, range);
  }
  return out;
}

// The core's message for a value of the wrong type in integer field `name`,
// the value described by index.mjs; an error value for a name not in the table.
// A per-class field is named with its class ("classes.precondition.maxAttempts"
// for the table's "classes.<class>.maxAttempts").
val IntegerTypeMessage(const std::string& name, const std::string& described) {
  for (const dlq::IntegerField* field : AllIntegerFields()) {
    if (name == field->name) return val(field->Message(described));
    for (int i = 0; i < dlq::kFailureClassCount; ++i) {
      const std::string resolved = ClassFieldName(*field, static_cast<dlq::FailureClass>(i));
      if (resolved != field->name && name == resolved) {
        return val(dlq::IntegerField{resolved.c_str(), field->min, field->max}.Message(described));
      }
    }
  }
  // A class's own backoff: "classes.<class>.backoff.baseMs" has the policy's range.
  for (int i = 0; i < dlq::kFailureClassCount; ++i) {
    const std::string head = std::string("classes.") + dlq::ClassName(static_cast<dlq::FailureClass>(i)) + ".";
    if (name.rfind(head, 0) != 0) continue;
    for (const dlq::IntegerField* field : AllIntegerFields()) {
      if (name.compare(head.size(), std::string::npos, field->name) == 0 &&
          std::string_view(field->name).rfind("backoff.", 0) == 0) {
        return val(dlq::IntegerField{name.c_str(), field->min, field->max}.Message(described));
      }
    }
  }
  return ErrorValue(dlq::Status::NotFound("no integer field is named " + dlq::QuoteShort(name)));
}

// The core's outcome names, in its order ("success" first).
val OutcomeNames() {
  val out = val::array();
  for (int i = 0; i < dlq::kOutcomeCount; ++i) {
    out.call<void>("push", std::string(dlq::OutcomeName(static_cast<dlq::Outcome>(i))));
  }
  return out;
}

// The core's failure class names, in its order ("transient" first, "crash" last).
// Why an entry sits in quarantine, as entries and redrive's `reason` name it.
val ReasonNames() {
  val out = val::array();
  for (const dlq::Reason r : {dlq::Reason::kPermanent, dlq::Reason::kExhausted}) {
    out.call<void>("push", std::string(dlq::ReasonName(r)));
  }
  return out;
}

val ClassNames() {
  val out = val::array();
  for (int i = 0; i < dlq::kFailureClassCount; ++i) {
    out.call<void>("push", std::string(dlq::ClassName(static_cast<dlq::FailureClass>(i))));
  }
  return out;
}

// The core's TooLarge error for a size index.mjs measured before copying.
// `at_least`: `given` is a lower bound (a string refused by its length, unmeasured).
val SizeError(const std::string& name, double limit, double given, const std::string& unit, bool at_least) {
  const auto l = static_cast<size_t>(limit), g = static_cast<size_t>(given);
  return ErrorValue(at_least ? dlq::TooLargeAtLeast(name, l, g, unit) : dlq::TooLarge(name, l, g, unit));
}

// null if `bytes` more fit in the heap budget, else the ResourceExhausted error.
val CheckRoom(double bytes, const std::string& what) {
  dlq::Status s = dlq::HeapBudget::CheckRoom(static_cast<size_t>(std::min(bytes, 1e18)), what);
  return s.ok() ? val::null() : ErrorValue(s);
}

val HeapBudgetValue() {
  val out = val::object();
  out.set("limitBytes", static_cast<double>(dlq::HeapBudget::limit()));
  out.set("usedBytes", static_cast<double>(dlq::HeapBudget::used()));
  return out;
}

// index.mjs passes an integer within [0, emscripten_get_heap_max()].
void SetHeapBudget(double bytes) { dlq::HeapBudget::set_limit(static_cast<size_t>(bytes)); }

double HeapMax() { return static_cast<double>(emscripten_get_heap_max()); }

// Bytes currently allocated on the wasm heap (for leak checks).
double HeapInUse() { return static_cast<double>(mallinfo().uordblks); }

// Size of the wasm linear memory (it only ever grows).
double MemoryBytes() { return static_cast<double>(emscripten_get_heap_size()); }

// lab.contentionCost(options): { runs, calls } of the experiment's grid
// (contention.h EstimateContentionGridCost) for index.mjs's plain copy of
// { seed?, runs? }, each read and refused as runContention() reads it.
val ContentionCostValue(val in) {
  dlq::ContentionOptions o;
  for (const dlq::Field<dlq::ContentionOptions>& row : dlq::ContentionFields()) {
    const std::string_view name(row.spec.name);
    if (name != "seed" && name != "runs") continue;  // the grid sets the rest
    if (dlq::Status s = ReadField(in[row.spec.name], row, "", "", &o); !s.ok()) return ErrorValue(s);
  }
  dlq::Result<dlq::ContentionCost> cost = dlq::EstimateContentionGridCost(o);
  if (!cost.ok()) return ErrorValue(cost.status());
  val out = val::object();
  out.set("runs", static_cast<double>(cost->runs));
  out.set("calls", static_cast<double>(cost->calls));
  return out;
}

// The client counts of the experiment's grid (contention.h kContentionGridClients).
val ContentionGridClients() {
  val out = val::array();
  for (int64_t clients : dlq::kContentionGridClients) out.call<void>("push", static_cast<double>(clients));
  return out;
}

}  // namespace dlq_wasm

using namespace dlq_wasm;

EMSCRIPTEN_BINDINGS(dlq_core) {
  // Half of the memory the module may grow to; the rest is headroom for boundary
  // copies and allocator slack (see the rules at the top).
  dlq::HeapBudget::set_limit(emscripten_get_heap_max() / 2);
  emscripten::function("parseScenario", &ParseScenarioText);
  emscripten::function("formatScenario", &FormatScenarioValue);
  emscripten::function("playableActions", &PlayableActionsValue);
  emscripten::function("scenarioFeatures", &ScenarioFeaturesValue);
  emscripten::function("parseGoal", &ParseGoalText);
  emscripten::function("goalPar", &GoalParValue);
  emscripten::function("learnerMoves", &LearnerMovesValue);
  emscripten::function("runContention", &RunContentionValue);
  emscripten::function("contentionTypeMessage", &ContentionTypeMessage);
  emscripten::function("randomOutcomes", &RandomOutcomes);
  emscripten::function("sizeLimits", &SizeLimits);
  emscripten::function("sizeError", &SizeError);
  emscripten::function("integerFields", &IntegerFields);
  emscripten::function("schema", &SchemaTable);
  emscripten::function("integerTypeMessage", &IntegerTypeMessage);
  emscripten::function("outcomeNames", &OutcomeNames);
  emscripten::function("classNames", &ClassNames);
  emscripten::function("reasonNames", &ReasonNames);
  emscripten::function("checkRoom", &CheckRoom);
  emscripten::function("heapBudget", &HeapBudgetValue);
  emscripten::function("setHeapBudget", &SetHeapBudget);
  emscripten::function("heapMax", &HeapMax);
  emscripten::function("heapInUse", &HeapInUse);
  emscripten::function("memoryBytes", &MemoryBytes);
  emscripten::function("contentionCost", &ContentionCostValue);
  emscripten::function("contentionGridClients", &ContentionGridClients);
  emscripten::constant("scenarioFormatVersion", dlq::kScenarioFormatVersion);
  emscripten::constant("maxScenarioTextBytes", static_cast<double>(dlq::kMaxScenarioTextBytes));
  emscripten::constant("maxAttemptsLimit", static_cast<double>(dlq::Policy::kMaxAttempts));
  emscripten::constant("maxScriptLetters", static_cast<double>(dlq::kMaxScriptLetters));
  emscripten::constant("retryQueueName", std::string(dlq::kRetryQueueName));
}
