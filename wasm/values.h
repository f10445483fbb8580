// Conversions between the core's types and the plain JS values index.mjs builds
// and reads, shared by the handles' binding files (values.cpp, queue_values.cpp
// and scenario_values.cpp define them). The boundary rules at the top of
// lab_binding.cpp hold for every one of them.
#pragma once

#include <emscripten/val.h>

#include <string>
#include <vector>

#include "dlq.h"

namespace dlq_wasm {

using emscripten::val;

// { error: <code name>, message }: what index.mjs throws as a typed Error.
val ErrorValue(const dlq::Status& status);
// A string the core leaves empty for "none", as JS spells none: null.
val OrNull(const std::string& text);
val StringsValue(const std::vector<std::string>& strings);
val JobValue(const dlq::JobView& job, bool held_by);
val EventValue(const dlq::Event& event);
val ActionValue(const dlq::Action& action);
// { applied, journal, tornDiscarded, lost, duplicated }.
val CrashReportValue(const dlq::CrashReport& crash);
val WorldValue(const dlq::World& world);
val ScenarioValue(const dlq::Scenario& scenario);
dlq::Result<dlq::Scenario> ScenarioFromValue(val in);
dlq::Result<dlq::Policy> PolicyFromValue(const val& in, const std::string& prefix);
dlq::Result<dlq::World> WorldFromValue(val in, const std::string& prefix);
// One behaviour object of a world ({ id, kind, … }), named `at` in refusals; ranges are CheckWorld's.
dlq::Status ReadBehaviour(const val& item, const std::string& at, dlq::JobBehaviour* out);
val TimelineValue(const dlq::Queue& q, double from, double count);
dlq::Result<dlq::Action> ActionFromValue(const val& action, const std::string& name);
// A redrive's filter from an object's `class` and `reason` (each optional), named `<name>.class`, `<name>.reason`.
dlq::Result<dlq::RedriveFilter> RedriveFilterFromValue(const val& in, const std::string& name);

// Reading plain values built by index.mjs, type-checked before any as<T>().
dlq::Status NotA(const std::string& name, const char* expected);
bool IsObject(const val& v);
dlq::Status ReadString(const val& v, const std::string& name, std::string* out);
dlq::Status ReadBytes(const val& v, const std::string& name, std::string* out);  // a Uint8Array
dlq::Status ReadNumber(const val& v, const std::string& name, double* out);
dlq::Status ReadLength(const val& v, const std::string& name, size_t limit,
                       size_t* out);  // an array's length, at most limit
dlq::Status ReadInteger(const val& v, const dlq::IntegerField& field, const std::string& prefix, bool required,
                        int64_t* out);
dlq::Status ReadBackoff(const val& backoff, const std::string& owner, const std::string& prefix, dlq::Backoff* out);
dlq::Status ReadBoolean(const val& v, const std::string& name, bool* out);  // undefined keeps *out

// A policy out: the fields a scenario carries set on `out`; the class table as
// configured, or (resolved) every rule as Policy::RuleFor resolves it.
void SetPolicyFields(val& out, const dlq::Policy& p);
val ClassTableValue(const dlq::Policy& p, bool resolved);
// Integer field `field`'s name for class `c` ("classes.<class>.maxAttempts" -> "classes.precondition.maxAttempts").
std::string ClassFieldName(const dlq::IntegerField& field, dlq::FailureClass c);

// A non-negative number (or Infinity) as an index, clamped to `limit`.
size_t QueueIndex(double value, size_t limit);

// A queue's reads, as the queue handle returns them.
val StatsValue(const dlq::Queue& q);
// The side-effect ledger (ledger.h): { on, keyed, charges: [{ id, attempt, at,
// applied, crashed, outcome }], applied, deduplicated, duplicates, partial,
// partialIds, duplicateIds }.
val LedgerValue(const dlq::Queue& q);
val AlarmValue(const dlq::Queue& q);
val ReordersValue(const dlq::Queue& q, double from, double count);
val WorstCaseValue(const dlq::Queue& q);
val WorstCaseValue(const dlq::WorstCase& worst);
val PolicyValue(const dlq::Queue& q);
val RulesValue(const dlq::Queue& q);
val JournalValue(const dlq::Queue& q);
val LocateValue(const dlq::Queue& q, const std::string& id);
val ReadyValue(const dlq::Queue& q, double from, double count);
val CompletedValue(const dlq::Queue& q, double from, double count);
val QuarantinedValue(const dlq::Queue& q, double from, double count);
// [{ id, payload, attempts, reason, systemReason, at }]: jobs discarded with no dead-letter exchange.
val DiscardedValue(const dlq::Queue& q, double from, double count);
val DelayedValue(const dlq::Queue& q, double from, double count);
val LeasedValue(const dlq::Queue& q, double from, double count);
val CheckGoalValue(const dlq::Queue& q, const std::string& text, const dlq::GoalContext& context = {});

// The module's functions on scenarios (scenario_values.cpp; lab_binding.cpp binds them):
// a link's scenario object, a scenario object's link text, its link features, how far it plays.
val ParseScenarioText(const std::string& text);
val FormatScenarioValue(val in);
val ScenarioFeaturesValue(val in);
val PlayableActionsValue(val in);

}  // namespace dlq_wasm
