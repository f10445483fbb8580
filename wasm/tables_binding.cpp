// Embind bindings every module of the page shares (wasm/CMakeLists.txt links this file
// into dlq_core and dlq_sim): the core's limits, names and integer fields, the size and
// type messages the JS checks word through the core, and the heap budget. One copy of
// the C++, so both modules answer alike (wasm/runtime.mjs asks whichever is loaded).
// The boundary rules are at the top of lab_binding.cpp.
#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dlq.h"
#include "text.h"
#include "schema_value.h"
#include "values.h"
#include "goal.h"

using emscripten::val;

namespace dlq_wasm {

// { key: limit } for every row of the core's size-limit table, and a goal's (goal.h).
val SizeLimits() {
  val out = val::object();
  for (const dlq::SizeLimit& limit : dlq::kSizeLimits) out.set(limit.key, static_cast<double>(limit.value));
  out.set("goalBytes", static_cast<double>(dlq::kMaxGoalBytes));
  out.set("goalClauses", static_cast<double>(dlq::kMaxGoalClauses));
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

}  // namespace dlq_wasm

using namespace dlq_wasm;

EMSCRIPTEN_BINDINGS(dlq_tables) {
  // Half of the memory the module may grow to; the rest is headroom for boundary
  // copies and allocator slack (see the rules at the top of lab_binding.cpp).
  dlq::HeapBudget::set_limit(emscripten_get_heap_max() / 2);
  emscripten::function("sizeLimits", &SizeLimits);
  emscripten::function("sizeError", &SizeError);
  emscripten::function("integerFields", &IntegerFields);
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
}
