// Embind binding of the storms (core/sim/storm.h): one storm, or a set of runs
// on one grid (StormSet), stepped in slices by a Web Worker. Conversion only.
#include <emscripten/bind.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "dlq.h"
#include "text.h"
#include "values.h"

namespace dlq_wasm {
namespace {

// ---- storms (core/sim/storm.h) ----

// arrival?: { kind, perSecond? (rate), clients? (closed) }.
dlq::Status ReadArrival(const val& in, dlq::StormOptions* options) {
  dlq::StormOptions& o = *options;
  val arrival = in["arrival"];
  if (!arrival.isUndefined()) {
    if (!IsObject(arrival)) return NotA("arrival", "an object");
    std::string kind;
    if (dlq::Status s = ReadString(arrival["kind"], "arrival.kind", &kind); !s.ok()) return s;
    dlq::Result<dlq::ArrivalKind> parsed = dlq::ParseArrivalKind(kind);
    if (!parsed.ok()) return parsed.status();
    o.arrival.kind = parsed.value();
    if (o.arrival.kind == dlq::ArrivalKind::kRate) {
      if (dlq::Status s = ReadInteger(arrival["perSecond"], dlq::kStormPerSecondField, "", true, &o.arrival.per_second);
          !s.ok()) {
        return s;
      }
    }
    if (o.arrival.kind == dlq::ArrivalKind::kClosed) {
      if (dlq::Status s = ReadInteger(arrival["clients"], dlq::kStormClientsField, "", true, &o.arrival.clients); !s.ok()) {
        return s;
      }
    }
  }
  return dlq::Status::Ok();
}

// budget?: null, the command line's text ("grpc:10:0.1"), or { kind, maxTokens?, … }.
dlq::Status ReadBudget(const val& in, dlq::StormOptions* options) {
  dlq::StormOptions& o = *options;
  val budget = in["budget"];
  if (budget.isString()) {
    dlq::Result<dlq::BudgetOptions> parsed = dlq::ParseBudget(budget.as<std::string>(), "budget");
    if (!parsed.ok()) return parsed.status();
    o.budget = parsed.value();
  } else if (!budget.isUndefined() && !budget.isNull()) {
    if (!IsObject(budget)) return NotA("budget", "an object, a budget's text such as \"grpc:10:0.1\", or null");
    dlq::BudgetOptions b;
    std::string kind;
    if (dlq::Status s = ReadString(budget["kind"], "budget.kind", &kind); !s.ok()) return s;
    dlq::Result<dlq::BudgetKind> parsed = dlq::ParseBudgetKind(kind);
    if (!parsed.ok()) return parsed.status();
    b.kind = parsed.value();
    const std::pair<const char*, std::pair<const dlq::IntegerField*, int64_t*>> fields[] = {
        {"maxTokens", {&dlq::kBudgetMaxTokensField, &b.max_tokens}},
        {"tokenRatioPerMille", {&dlq::kBudgetTokenRatioField, &b.token_ratio_per_mille}},
        {"percent", {&dlq::kBudgetPercentField, &b.percent}},
        {"minPerSecond", {&dlq::kBudgetMinPerSecondField, &b.min_per_second}},
        {"windowMs", {&dlq::kBudgetWindowMsField, &b.window_ms}}};
    for (const auto& [key, field] : fields) {
      if (dlq::Status s = ReadInteger(budget[key], *field.first, "", false, field.second); !s.ok()) return s;
    }
    o.budget = b;
  }
  return dlq::Status::Ok();
}

// refusedRetry?: "quarantine" or "fail".
dlq::Status ReadRefusedRetry(const val& in, dlq::StormOptions* options) {
  dlq::StormOptions& o = *options;
  val refused = in["refusedRetry"];
  if (!refused.isUndefined()) {
    std::string text;
    if (dlq::Status s = ReadString(refused, "refusedRetry", &text); !s.ok()) return s;
    if (text == "quarantine" || text == "fail") {
      o.refused_retry = text == "fail" ? dlq::RefusedRetry::kFail : dlq::RefusedRetry::kQuarantine;
    } else {
      return dlq::Status::InvalidArgument("refusedRetry must be one of \"quarantine\", \"fail\", got " +
                                          dlq::QuoteShort(text));
    }
  }
  return dlq::Status::Ok();
}

// server?: null | { capacityPerSecond, timeoutMs, dropStartMs?, dropMs?, dropPerSecond? }.
dlq::Status ReadServer(const val& in, dlq::StormOptions* options) {
  dlq::StormOptions& o = *options;
  val server = in["server"];
  if (!server.isUndefined() && !server.isNull()) {
    if (!IsObject(server)) return NotA("server", "an object or null");
    dlq::StormServer srv;
    if (dlq::Status s = ReadInteger(server["capacityPerSecond"], dlq::kStormServerRateField, "", true, &srv.per_second); !s.ok()) {
      return s;
    }
    if (dlq::Status s = ReadInteger(server["timeoutMs"], dlq::kStormServerTimeoutField, "", true, &srv.timeout_ms); !s.ok()) {
      return s;
    }
    if (dlq::Status s = ReadInteger(server["dropStartMs"], dlq::kStormServerDropStartField, "", false, &srv.drop_start_ms);
        !s.ok()) {
      return s;
    }
    if (dlq::Status s = ReadInteger(server["dropMs"], dlq::kStormServerDropField, "", false, &srv.drop_ms); !s.ok()) return s;
    if (dlq::Status s = ReadInteger(server["dropPerSecond"], dlq::kStormServerDropRateField, "", false, &srv.drop_per_second);
        !s.ok()) {
      return s;
    }
    o.server = srv;
  }
  return dlq::Status::Ok();
}

// outage?: null | { startMs, durationMs }; capacity?: null | { perWindow, windowMs }.
dlq::Status ReadOutageAndCapacity(const val& in, dlq::StormOptions* options) {
  dlq::StormOptions& o = *options;
  val outage = in["outage"];
  if (!outage.isUndefined() && !outage.isNull()) {
    if (!IsObject(outage)) return NotA("outage", "an object or null");
    dlq::StormOutage out;
    if (dlq::Status s = ReadInteger(outage["startMs"], dlq::kStormOutageStartField, "", true, &out.start_ms); !s.ok()) return s;
    if (dlq::Status s = ReadInteger(outage["durationMs"], dlq::kStormOutageDurationField, "", true, &out.duration_ms);
        !s.ok()) {
      return s;
    }
    o.outage = out;
  }
  val capacity = in["capacity"];
  if (!capacity.isUndefined() && !capacity.isNull()) {
    if (!IsObject(capacity)) return NotA("capacity", "an object or null");
    dlq::StormCapacity cap;
    if (dlq::Status s = ReadInteger(capacity["perWindow"], dlq::kStormPerWindowField, "", true, &cap.per_window); !s.ok()) {
      return s;
    }
    if (dlq::Status s = ReadInteger(capacity["windowMs"], dlq::kStormWindowMsField, "", true, &cap.window_ms); !s.ok()) {
      return s;
    }
    o.capacity = cap;
  }
  return dlq::Status::Ok();
}

// A storm options object built by index.mjs: { jobs, arrival?: { kind, perSecond? },
// outage?: null | { startMs, durationMs }, capacity?: null | { perWindow, windowMs },
// workers?, workMs?, leaseMs?, maxAttempts, backoff?, seed?, bucketMs? }. Absent
// fields keep the core's defaults (dlq::StormOptions{}); names, ranges and pairs
// are the core's (CheckStormOptions).
dlq::Result<dlq::StormOptions> StormOptionsFromValue(const val& in) {
  if (!IsObject(in)) return NotA("options", "an object");
  dlq::StormOptions o;
  if (dlq::Status s = ReadInteger(in["jobs"], dlq::kStormJobsField, "", true, &o.jobs); !s.ok()) return s;
  if (dlq::Status s = ReadArrival(in, &o); !s.ok()) return s;
  if (dlq::Status s = ReadInteger(in["failurePerMillion"], dlq::kStormFailureField, "", false, &o.failure_per_million);
      !s.ok()) {
    return s;
  }
  if (dlq::Status s = ReadBudget(in, &o); !s.ok()) return s;
  if (dlq::Status s = ReadRefusedRetry(in, &o); !s.ok()) return s;
  if (dlq::Status s = ReadServer(in, &o); !s.ok()) return s;
  if (dlq::Status s = ReadOutageAndCapacity(in, &o); !s.ok()) return s;
  if (dlq::Status s = ReadInteger(in["workers"], dlq::kStormWorkersField, "", false, &o.workers); !s.ok()) return s;
  if (dlq::Status s = ReadInteger(in["workMs"], dlq::kStormWorkMsField, "", false, &o.work_ms); !s.ok()) return s;
  if (dlq::Status s = ReadInteger(in["leaseMs"], dlq::kLeaseMsField, "", false, &o.lease_ms); !s.ok()) return s;
  if (dlq::Status s = ReadInteger(in["maxAttempts"], dlq::kMaxAttemptsField, "", true, &o.max_attempts); !s.ok()) return s;
  val backoff = in["backoff"];
  if (!backoff.isUndefined()) {
    if (dlq::Status s = ReadBackoff(backoff, "", "", &o.backoff); !s.ok()) return s;
  }
  if (dlq::Status s = ReadInteger(in["seed"], dlq::kSeedField, "", false, &o.seed); !s.ok()) return s;
  if (dlq::Status s = ReadInteger(in["bucketMs"], dlq::kStormBucketMsField, "", false, &o.bucket_ms); !s.ok()) return s;
  if (dlq::Status s = dlq::CheckStormOptions(o); !s.ok()) return s;
  return o;
}

// Owns one storm. JS creates it empty and initialises it from options; a refusal
// leaves it holding nothing (and index.mjs deletes it).
val SummaryValue(const dlq::StormResult& r);

// index.mjs passes a non-negative integer or Infinity (no limit).
uint64_t MaxEvents(double max_events) {
  return max_events >= 1.8e19 ? UINT64_MAX : static_cast<uint64_t>(max_events);
}

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
