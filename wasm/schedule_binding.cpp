// Embind binding of the retry schedule (core/systems/schedule.h): a policy object
// and the options in, the core's table out, or its refusal as an error value.
// Conversion only.
#include <emscripten/bind.h>

#include <string>

#include "dlq.h"
#include "schema_value.h"
#include "text.h"
#include "values.h"

namespace dlq_wasm {
namespace {

val SpreadValue(const dlq::Spread& s) {
  val out = val::object();
  out.set("min", static_cast<double>(s.min));
  out.set("median", static_cast<double>(s.median));
  out.set("p99", static_cast<double>(s.p99));
  out.set("max", static_cast<double>(s.max));
  return out;
}

// { attempt, start, delay }: delay null after the last attempt (no retry follows).
val RowValue(const dlq::ScheduleRow& row) {
  val out = val::object();
  out.set("attempt", row.attempt);
  out.set("start", SpreadValue(row.start));
  out.set("delay", row.retried ? SpreadValue(row.delay) : val::null());
  return out;
}

// lab.retrySchedule(policy, options) for index.mjs's plain copies: the policy
// object as createQueue() reads it, the options by their table ({ samples?,
// outageMs?, workMs?, leases? }). { attempts, rows, last, attemptMs, total, samples, exact,
// outage: { ms, outlasting, probability } }, or the core's error naming the field.
val RetryScheduleValue(val policy_in, val options_in) {
  dlq::Result<dlq::Policy> policy = PolicyFromValue(policy_in, "policy.");
  if (!policy.ok()) return ErrorValue(policy.status());
  if (!IsObject(options_in)) return ErrorValue(NotA("options", "an object"));
  dlq::ScheduleOptions o;
  if (dlq::Status s = ReadFields(options_in, dlq::ScheduleFields(), "", "options.", &o); !s.ok()) {
    return ErrorValue(s);
  }
  dlq::Result<dlq::ScheduleTable> t = dlq::RetrySchedule(policy.value(), o);
  if (!t.ok()) return ErrorValue(t.status());
  val out = val::object();
  out.set("attempts", t->attempts);
  val rows = val::array();
  for (const dlq::ScheduleRow& row : t->rows) rows.call<void>("push", RowValue(row));
  out.set("rows", rows);
  out.set("last", RowValue(t->last));
  out.set("attemptMs", static_cast<double>(t->attempt_ms));
  out.set("total", SpreadValue(t->total));
  out.set("samples", static_cast<double>(t->samples));
  out.set("exact", t->exact);
  val outage = val::object();
  outage.set("ms", static_cast<double>(t->outage_ms));
  outage.set("outlasting", static_cast<double>(t->outlasting));
  outage.set("probability", static_cast<double>(t->outlasting) / static_cast<double>(t->samples));
  out.set("outage", outage);
  return out;
}

// The core's message for a retrySchedule() option of the wrong type; an error
// value for a name that is not an option.
val ScheduleTypeMessage(const std::string& name, const std::string& described) {
  for (const dlq::IntegerField* field : dlq::kScheduleIntegerFields) {
    if (name == field->name) return val(field->Message(described));
  }
  for (const dlq::Field<dlq::ScheduleOptions>& row : dlq::ScheduleFields()) {
    if (row.spec.kind == dlq::FieldKind::kBoolean && name == row.spec.name) {
      return val(std::string(row.spec.name) + " must be a boolean, got " + described);
    }
  }
  return ErrorValue(dlq::Status::NotFound("no retrySchedule option is named " + dlq::QuoteShort(name)));
}

val ScheduleLimits() {
  val out = val::object();
  out.set("rows", static_cast<double>(dlq::kScheduleRows));
  out.set("draws", static_cast<double>(dlq::kScheduleDraws));
  return out;
}

}  // namespace
}  // namespace dlq_wasm

EMSCRIPTEN_BINDINGS(dlq_schedule) {
  emscripten::function("retrySchedule", &dlq_wasm::RetryScheduleValue);
  emscripten::function("scheduleTypeMessage", &dlq_wasm::ScheduleTypeMessage);
  emscripten::function("scheduleLimits", &dlq_wasm::ScheduleLimits);
}
