// Embind bindings of the simulations module (dlq_sim, wasm/sim.mjs): the contention
// experiment and the simulations' field tables (sim.schema); the storms are in
// storm_binding.cpp, the shared tables in tables_binding.cpp. Only the storm lab's
// worker loads this module, so the lesson pages and the playground never fetch it.
// The boundary rules are at the top of lab_binding.cpp. Conversion only.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>

#include "dlq.h"
#include "contention.h"
#include "storm.h"
#include "text.h"
#include "schema_value.h"
#include "values.h"

using emscripten::val;

namespace dlq_wasm {
namespace {

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

// sim.schema: the fields of the objects the simulations take, by object: { backoff,
// storm, contention } (field.h rows, as lab.schema's); a storm's backoff is a queue's.
val SimSchemaTable() {
  val out = val::object();
  out.set("backoff", SchemaValue(dlq::BackoffFields(), dlq::Backoff{}));
  out.set("storm", SchemaValue(dlq::StormFields(), dlq::StormOptions{}));
  out.set("contention", SchemaValue(dlq::ContentionFields(), dlq::ContentionOptions{}));
  return out;
}

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

}  // namespace
}  // namespace dlq_wasm

using namespace dlq_wasm;

EMSCRIPTEN_BINDINGS(dlq_sim) {
  emscripten::function("schema", &SimSchemaTable);
  emscripten::function("runContention", &RunContentionValue);
  emscripten::function("contentionTypeMessage", &ContentionTypeMessage);
  emscripten::function("contentionCost", &ContentionCostValue);
  emscripten::function("contentionGridClients", &ContentionGridClients);
}
