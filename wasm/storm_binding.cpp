// Embind binding of the storms (core/sim/storm.h): one storm, or a set of runs
// on one grid (StormSet), stepped in slices by a Web Worker. Conversion only.
#include <emscripten/bind.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "dlq.h"
#include "schema_value.h"
#include "text.h"
#include "values.h"

namespace dlq_wasm {
namespace {

// ---- storms (core/sim/storm.h) ----

// A storm options object's groups: each may be absent, and the nullable ones null
// (none); any other value that is not an object is refused by the group's name.
struct StormGroup {
  const char* name;
  bool nullable;
  const char* expected;
};
constexpr StormGroup kStormGroups[] = {
    {"arrival", false, "an object"},
    {"outage", true, "an object or null"},
    {"capacity", true, "an object or null"},
    {"budget", true, "an object, a budget's text such as \"grpc:10:0.1\", or null"},
    {"server", true, "an object or null"},
};

// A shallow copy of `in` that the one converter (schema_value.h) reads by the
// storm's rows: a null group is dropped (none), a budget given as text is parsed
// into *out here and dropped, and a row that only one kind of its group reads
// (FieldSpec::only_with: perSecond for a rate, clients for a closed loop) is
// dropped under another kind and required under its own.
dlq::Result<val> StormRowsInput(const val& in, dlq::StormOptions* out) {
  val copy = val::global("Object").call<val>("assign", val::object(), in);
  for (const StormGroup& group : kStormGroups) {
    val v = in[group.name];
    if (v.isUndefined()) continue;
    if (v.isNull() && group.nullable) {
      copy.delete_(group.name);
      continue;
    }
    if (std::string_view(group.name) == "budget" && v.isString()) {
      dlq::Result<dlq::BudgetOptions> parsed = dlq::ParseBudget(v.as<std::string>(), "budget");
      if (!parsed.ok()) return parsed.status();
      out->budget = parsed.value();
      copy.delete_(group.name);
      continue;
    }
    if (!IsObject(v)) return NotA(group.name, group.expected);
  }
  for (const dlq::Field<dlq::StormOptions>& row : dlq::StormFields()) {
    if (row.spec.only_with == nullptr) continue;
    const std::string_view path(row.spec.name);
    const std::string group(path.substr(0, path.find('.')));
    const std::string field(path.substr(path.find('.') + 1));
    const val given = in[group];
    if (!IsObject(given)) continue;  // absent (anything else that is no object was refused above)
    val kept = copy[group];
    if (kept.strictlyEquals(given)) {  // copied once, before its first field is dropped
      kept = val::global("Object").call<val>("assign", val::object(), given);
      copy.set(group, kept);
    }
    const std::string kind = given["kind"].isString() ? given["kind"].as<std::string>() : "";
    if (kind != row.spec.only_with) {
      kept.delete_(field);
    } else if (given[field].isUndefined()) {
      return NotA(std::string(row.spec.name), "a number");
    }
  }
  return copy;
}

// A storm options object built by storm.mjs: { jobs, arrival?: { kind, perSecond?,
// clients? }, outage?, capacity?, budget?, server? (each null: none), … , backoff? },
// read by the storm's rows (dlq::StormFields, lab.schema.storm) through the one
// converter. Absent fields keep the core's defaults (dlq::StormOptions{}); names,
// ranges and pairs are the core's (CheckStormOptions).
dlq::Result<dlq::StormOptions> StormOptionsFromValue(const val& in) {
  if (!IsObject(in)) return NotA("options", "an object");
  dlq::StormOptions o;
  dlq::Result<val> rows_input = StormRowsInput(in, &o);
  if (!rows_input.ok()) return rows_input.status();
  RETURN_IF_ERROR(ReadFields(rows_input.value(), dlq::StormFields(), "", "", &o));
  val backoff = in["backoff"];
  if (!backoff.isUndefined()) RETURN_IF_ERROR(ReadBackoff(backoff, "", "", &o.backoff));
  RETURN_IF_ERROR(dlq::CheckStormOptions(o));
  return o;
}

// Owns one storm. JS creates it empty and initialises it from options; a refusal
// leaves it holding nothing (and index.mjs deletes it).
val SummaryValue(const dlq::StormResult& r);

// index.mjs passes a non-negative integer or Infinity (no limit).
uint64_t MaxEvents(double max_events) { return max_events >= 1.8e19 ? UINT64_MAX : static_cast<uint64_t>(max_events); }

class StormHandle {
 public:
  val init(val options) {
    dlq::Result<dlq::StormOptions> o = StormOptionsFromValue(options);
    if (!o.ok()) return ErrorValue(o.status());
    dlq::Result<dlq::Storm> made = dlq::Storm::Create(o.value());
    if (!made.ok()) return ErrorValue(made.status());
    storm_.emplace(std::move(made).value());
    return val::null();
  }

  bool run(double max_events) { return storm_->Run(MaxEvents(max_events)); }

  double progress() const { return storm_->Progress(); }

  double attempts() const { return static_cast<double>(storm_->attempts()); }

  // The summary as StormSummary (index.d.ts); takes the result the series() views then read.
  val summary() {
    result_ = &storm_->Result();
    return SummaryValue(*result_);
  }

  // A Uint32Array view of one series of the result summary() took (numbered as
  // stormSeriesNames()), into wasm memory: index.mjs copies it at once, before
  // anything can grow the memory.
  val series(int which) const {
    const std::vector<uint32_t>& v = result_->series.Drawn(static_cast<size_t>(std::max(which, 0)));
    return val(emscripten::typed_memory_view(v.size(), v.data()));
  }

 private:
  std::optional<dlq::Storm> storm_;
  const dlq::StormResult* result_ = nullptr;
};

// The core's message for a storm option of the wrong type (`described` by
// index.mjs): a storm's own integer fields, then the policy's; an error value for
// a name in neither.
val StormTypeMessage(const std::string& name, const std::string& described) {
  for (const dlq::IntegerField* field : dlq::kStormIntegerFields) {
    if (name == field->name) return val(field->Message(described));
  }
  for (const dlq::IntegerField* field : dlq::kIntegerFields) {
    if (name == field->name) return val(field->Message(described));
  }
  return ErrorValue(dlq::Status::NotFound("no storm option is named " + dlq::QuoteShort(name)));
}

// { jobs, attempts, …, worstCase, bucketMs, length }: a result's summary (index.d.ts StormSummary).
val SummaryValue(const dlq::StormResult& r) {
  const dlq::StormSummary& s = r.summary;
  val out = val::object();
  out.set("jobs", static_cast<double>(s.jobs));
  out.set("attempts", static_cast<double>(s.attempts));
  out.set("successes", static_cast<double>(s.successes));
  out.set("failures", static_cast<double>(s.failures));
  out.set("outageFailures", static_cast<double>(s.outage_failures));
  out.set("throttled", static_cast<double>(s.throttled));
  out.set("randomFailures", static_cast<double>(s.random_failures));
  out.set("timedOut", static_cast<double>(s.timed_out));
  out.set("wastedAttempts", static_cast<double>(s.wasted_attempts));
  out.set("retriesDenied", static_cast<double>(s.retries_denied));
  out.set("goodput", s.goodput);
  out.set("amplification", s.amplification);
  out.set("peakRetryRate", s.peak_retry_rate);
  out.set("peakRateAfterRecovery", s.peak_rate_after_recovery);
  out.set("drainMs", static_cast<double>(s.drain_ms));
  out.set("completed", static_cast<double>(s.completed));
  out.set("quarantined", static_cast<double>(s.quarantined));
  out.set("quarantinedByBudget", static_cast<double>(s.quarantined_by_budget));
  out.set("failedJobs", static_cast<double>(s.failed_jobs));
  val worst = val::object();
  worst.set("attempts", s.worst_case.attempts);
  worst.set("timeMs", static_cast<double>(s.worst_case.time_ms));
  out.set("worstCase", worst);
  out.set("bucketMs", static_cast<double>(r.series.bucket_ms));
  out.set("length", static_cast<double>(r.series.length()));
  return out;
}

// Runs on one grid: createStormSet([options, …]) in index.mjs.
class StormSetHandle {
 public:
  // An array of storm options objects; a refusal carries the run's `index`.
  val init(val runs) {
    if (!runs.isArray()) return ErrorValue(NotA("runs", "an array"));
    std::vector<dlq::StormOptions> options;
    const size_t n = runs["length"].as<size_t>();
    for (size_t i = 0; i < n; ++i) {
      dlq::Result<dlq::StormOptions> o = StormOptionsFromValue(runs[i]);
      if (!o.ok()) return Refused(o.status(), i);
      options.push_back(o.value());
    }
    size_t refused = 0;
    dlq::Result<dlq::StormSet> made = dlq::StormSet::Create(std::move(options), &refused);
    if (!made.ok()) return Refused(made.status(), refused);
    set_.emplace(std::move(made.value()));
    return val::null();
  }

  // True when every run is over; an error value when a run's state has no room.
  val run(double max_events) {
    dlq::Result<bool> done = set_->Run(MaxEvents(max_events));
    return done.ok() ? val(done.value()) : ErrorValue(done.status());
  }
  double current() const { return static_cast<double>(set_->current()); }
  double progress() const { return set_->Progress(); }
  double attempts() const { return static_cast<double>(set_->Attempts()); }
  // Run i's summary (i below current()); series(i, which) then reads its series.
  val summary(double i) const { return SummaryValue(set_->result(Index(i))); }
  val series(double i, int which) const {
    const std::vector<uint32_t>& v = set_->result(Index(i)).series.Drawn(static_cast<size_t>(std::max(which, 0)));
    return val(emscripten::typed_memory_view(v.size(), v.data()));
  }

 private:
  static val Refused(const dlq::Status& s, size_t index) {
    val out = ErrorValue(s);
    out.set("index", static_cast<double>(index));
    return out;
  }
  size_t Index(double i) const { return QueueIndex(i, set_->current() == 0 ? 0 : set_->current() - 1); }
  std::optional<dlq::StormSet> set_;
};

val StormSeriesNames() {
  val out = val::array();
  for (const char* name : dlq::kStormSeriesNames) out.call<void>("push", std::string(name));
  return out;
}

// lab.stormCost(options): { attempts, horizonMs (null: no time bound) } for one
// storm's options (storm.h EstimateStormCost), read and refused as createStorm's.
val StormCostValue(val options) {
  dlq::Result<dlq::StormOptions> o = StormOptionsFromValue(options);
  if (!o.ok()) return ErrorValue(o.status());
  dlq::Result<dlq::StormCost> cost = dlq::EstimateStormCost(o.value());
  if (!cost.ok()) return ErrorValue(cost.status());
  val out = val::object();
  out.set("attempts", static_cast<double>(cost->attempts));  // at most 10^12: exact in a double
  out.set("horizonMs", cost->horizon_ms ? val(static_cast<double>(*cost->horizon_ms)) : val::null());
  return out;
}

}  // namespace
}  // namespace dlq_wasm

EMSCRIPTEN_BINDINGS(dlq_storm) {
  using dlq_wasm::StormHandle;
  using dlq_wasm::StormSetHandle;
  emscripten::class_<StormHandle>("StormHandle")
      .constructor<>()
      .function("init", &StormHandle::init)
      .function("run", &StormHandle::run)
      .function("progress", &StormHandle::progress)
      .function("attempts", &StormHandle::attempts)
      .function("summary", &StormHandle::summary)
      .function("series", &StormHandle::series);
  emscripten::class_<StormSetHandle>("StormSetHandle")
      .constructor<>()
      .function("init", &StormSetHandle::init)
      .function("run", &StormSetHandle::run)
      .function("current", &StormSetHandle::current)
      .function("progress", &StormSetHandle::progress)
      .function("attempts", &StormSetHandle::attempts)
      .function("summary", &StormSetHandle::summary)
      .function("series", &StormSetHandle::series);
  emscripten::function("stormTypeMessage", &dlq_wasm::StormTypeMessage);
  emscripten::function("stormSeriesNames", &dlq_wasm::StormSeriesNames);
  emscripten::function("stormCost", &dlq_wasm::StormCostValue);
}
