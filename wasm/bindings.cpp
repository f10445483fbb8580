// Embind bindings: the only file that includes Emscripten headers. No policy logic
// here, only conversion. Every fallible call returns either its value or an error
// object { error: <code name>, message } that wasm/index.mjs turns into a thrown
// Error; nothing throws across the wasm boundary (the module is built without
// exception catching) and a refused call changes nothing, as in the core.
#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "dlq.h"

using emscripten::val;

namespace {

val ErrorValue(const dlq::Status& status) {
  val error = val::object();
  error.set("error", std::string(dlq::CodeName(status.code())));
  error.set("message", status.message());
  return error;
}

val JobValue(const dlq::JobView& job) {
  val out = val::object();
  out.set("id", job.id);
  out.set("payload", job.payload);
  out.set("attempts", job.attempts);
  return out;
}

val EventValue(const dlq::Event& e) {
  val out = val::object();
  out.set("seq", static_cast<double>(e.seq));
  out.set("step", static_cast<double>(e.step));
  out.set("kind", std::string(dlq::EventKindName(e.kind)));
  out.set("id", e.id);
  out.set("attempts", e.attempts);
  out.set("maxAttempts", e.max_attempts);
  if (e.kind == dlq::EventKind::kAttempt) {
    out.set("outcome", std::string(dlq::OutcomeName(e.outcome)));
    out.set("disposition", std::string(dlq::DispositionName(e.disposition)));
    out.set("error", e.error);
  }
  if (e.reason != dlq::Reason::kNone) out.set("reason", std::string(dlq::ReasonName(e.reason)));
  if (e.kind == dlq::EventKind::kEnqueued || e.kind == dlq::EventKind::kReplayed) {
    out.set("payloadBytes", static_cast<double>(e.payload_bytes));
  }
  out.set("text", dlq::RenderEvent(e));
  out.set("explanation", dlq::ExplainEvent(e));
  return out;
}

// Unpacks jobs that index.mjs packed as two NUL-joined strings (ids, payloads)
// into `out`; false if either string does not hold exactly `count` fields.
bool UnpackJobs(const std::string& ids, const std::string& payloads, size_t count, std::vector<dlq::JobRef>* out) {
  if (count == 0) return ids.empty() && payloads.empty();
  out->resize(count);
  const std::string_view id_text(ids), payload_text(payloads);
  size_t id_at = 0, payload_at = 0;
  for (size_t i = 0; i < count; ++i) {
    const size_t id_end = id_text.find('\0', id_at);
    const size_t payload_end = payload_text.find('\0', payload_at);
    const bool last = i + 1 == count;
    // Every field but the last ends at a NUL; the last one must hold none.
    if (last != (id_end == std::string_view::npos) || last != (payload_end == std::string_view::npos)) return false;
    (*out)[i] = {id_text.substr(id_at, id_end - id_at), payload_text.substr(payload_at, payload_end - payload_at)};
    id_at = id_end + 1;
    payload_at = payload_end + 1;
  }
  return true;
}

dlq::Result<dlq::Scenario> ScenarioFromValue(val in);

// Owns one queue. JS creates it empty, then initialises it from a policy or a
// scenario; until then (or if that failed) it holds nothing.
class QueueHandle {
 public:
  val init(double max_attempts) {
    if (dlq::Status s = dlq::Policy::CheckMaxAttempts(max_attempts); !s.ok()) return ErrorValue(s);
    dlq::Result<dlq::Queue> made = dlq::Queue::Create({static_cast<int64_t>(max_attempts)});
    if (!made.ok()) return ErrorValue(made.status());
    queue_.emplace(std::move(made).value());
    return val::null();
  }

  val initFromScenario(const std::string& text) {
    dlq::Result<dlq::Scenario> scenario = dlq::ParseScenario(text);
    if (!scenario.ok()) return ErrorValue(scenario.status());
    dlq::Result<dlq::Queue> made = dlq::RunScenario(scenario.value());
    if (!made.ok()) return ErrorValue(made.status());
    queue_.emplace(std::move(made).value());
    return val::null();
  }

  val initFromScenarioObject(val object) {
    dlq::Result<dlq::Scenario> scenario = ScenarioFromValue(object);
    if (!scenario.ok()) return ErrorValue(scenario.status());
    dlq::Result<dlq::Queue> made = dlq::RunScenario(scenario.value());
    if (!made.ok()) return ErrorValue(made.status());
    queue_.emplace(std::move(made).value());
    return val::null();
  }

  val enqueue(const std::string& id, const std::string& payload) {
    dlq::Status s = queue_->Enqueue(id, payload);
    return s.ok() ? val::null() : ErrorValue(s);
  }

  // ids and payloads packed as NUL-joined strings (see index.mjs); false when
  // they do not split into `count` fields (a string held NUL itself).
  val enqueuePacked(const std::string& ids, const std::string& payloads, double count) {
    std::vector<dlq::JobRef> jobs;
    if (!UnpackJobs(ids, payloads, static_cast<size_t>(count), &jobs)) return val(false);
    dlq::Status s = queue_->EnqueueMany(jobs);
    return s.ok() ? val::null() : ErrorValue(s);
  }

  // Jobs as a JS array of { id, payload }, for batches whose strings contain NUL.
  val enqueueArray(val jobs) {
    const auto n = jobs["length"].as<size_t>();
    std::vector<dlq::JobSpec> specs(n);  // owns the strings the refs view
    std::vector<dlq::JobRef> refs(n);
    for (size_t i = 0; i < n; ++i) {
      val job = jobs[i];
      specs[i] = {job["id"].as<std::string>(), job["payload"].as<std::string>()};
      refs[i] = {specs[i].id, specs[i].payload};
    }
    dlq::Status s = queue_->EnqueueMany(refs);
    return s.ok() ? val::null() : ErrorValue(s);
  }

  val process(const std::string& outcome, const std::string& error_text) {
    dlq::Result<dlq::Attempt> r = queue_->Process(outcome, error_text);
    if (!r.ok()) return ErrorValue(r.status());
    const dlq::Attempt& a = r.value();
    if (!a.processed) return val::null();
    val out = val::object();
    out.set("id", a.id);
    out.set("attempt", a.attempt);
    out.set("outcome", std::string(dlq::OutcomeName(a.outcome)));
    out.set("disposition", std::string(dlq::DispositionName(a.disposition)));
    if (a.reason != dlq::Reason::kNone) out.set("reason", std::string(dlq::ReasonName(a.reason)));
    return out;
  }

  val processMany(const std::string& outcomes, const std::string& error_text) {
    dlq::Result<uint64_t> r = queue_->ProcessMany(outcomes, error_text);
    if (!r.ok()) return ErrorValue(r.status());
    return val(static_cast<double>(r.value()));
  }

  bool replay(const std::string& id) { return queue_->Replay(id); }

  // Slices: from and count are non-negative numbers (count may be Infinity).
  val ready(double from, double count) const {
    return Jobs(queue_->Ready(Index(from, queue_->ready_size()), Index(count, queue_->ready_size())));
  }
  val completed(double from, double count) const {
    return Jobs(queue_->Completed(Index(from, queue_->completed_size()), Index(count, queue_->completed_size())));
  }

  val quarantined(double from, double count) const {
    val out = val::array();
    const size_t n = queue_->quarantine_size();
    for (const dlq::QuarantineEntry& e : queue_->Quarantined(Index(from, n), Index(count, n))) {
      val entry = val::object();
      entry.set("id", e.id);
      entry.set("payload", e.payload);
      entry.set("attempts", e.attempts);
      entry.set("reason", std::string(dlq::ReasonName(e.reason)));
      entry.set("lastError", e.last_error);
      entry.set("step", static_cast<double>(e.step));
      out.call<void>("push", entry);
    }
    return out;
  }

  val stats() const {
    val out = val::object();
    out.set("step", static_cast<double>(queue_->step()));
    out.set("ready", static_cast<double>(queue_->ready_size()));
    out.set("completed", static_cast<double>(queue_->completed_size()));
    out.set("quarantined", static_cast<double>(queue_->quarantine_size()));
    out.set("events", static_cast<double>(queue_->event_count()));
    out.set("maxAttempts", static_cast<double>(queue_->policy().max_attempts));
    return out;
  }

  val timeline(double from, double count) const {
    const size_t n = queue_->event_count();
    val out = val::array();
    for (const dlq::Event& e : queue_->Timeline(Index(from, n), Index(count, n))) {
      out.call<void>("push", EventValue(e));
    }
    return out;
  }

  std::string timelineText() const { return queue_->TimelineText(); }

 private:
  // A non-negative number (or Infinity) from JS as an index, clamped to `limit`
  // before narrowing so no double beyond size_t is ever converted.
  static size_t Index(double value, size_t limit) {
    return static_cast<size_t>(std::min(value, static_cast<double>(limit)));
  }

  static val Jobs(const std::vector<dlq::JobView>& jobs) {
    val out = val::array();
    for (const dlq::JobView& j : jobs) out.call<void>("push", JobValue(j));
    return out;
  }

  std::optional<dlq::Queue> queue_;
};

val ScenarioValue(const dlq::Scenario& s) {
  val out = val::object();
  out.set("maxAttempts", static_cast<double>(s.policy.max_attempts));
  val jobs = val::array();
  for (const dlq::JobSpec& j : s.jobs) {
    val job = val::object();
    job.set("id", j.id);
    job.set("payload", j.payload);
    jobs.call<void>("push", job);
  }
  out.set("jobs", jobs);
  val actions = val::array();
  for (const dlq::Action& a : s.actions) {
    val action = val::object();
    switch (a.type) {
      case dlq::ActionType::kProcess:
        action.set("type", std::string("process"));
        action.set("outcome", std::string(dlq::OutcomeName(a.outcome)));
        action.set("error", a.error);
        break;
      case dlq::ActionType::kReplay:
        action.set("type", std::string("replay"));
        action.set("id", a.id);
        break;
      case dlq::ActionType::kEnqueue:
        action.set("type", std::string("enqueue"));
        action.set("id", a.id);
        action.set("payload", a.payload);
        break;
    }
    actions.call<void>("push", action);
  }
  out.set("actions", actions);
  out.set("cursor", static_cast<double>(s.cursor));
  return out;
}

val ParseScenarioText(const std::string& text) {
  dlq::Result<dlq::Scenario> r = dlq::ParseScenario(text);
  if (!r.ok()) return ErrorValue(r.status());
  return ScenarioValue(r.value());
}

// A scenario object whose field types index.mjs has already checked (outcome
// strings excepted: the core parses those).
dlq::Result<dlq::Scenario> ScenarioFromValue(val in) {
  dlq::Scenario s;
  const auto max_attempts = in["maxAttempts"].as<double>();
  if (dlq::Status st = dlq::Policy::CheckMaxAttempts(max_attempts); !st.ok()) return st;
  s.policy.max_attempts = static_cast<int64_t>(max_attempts);
  val jobs = in["jobs"];
  const auto job_count = jobs["length"].as<size_t>();
  for (size_t i = 0; i < job_count; ++i) {
    s.jobs.push_back({jobs[i]["id"].as<std::string>(), jobs[i]["payload"].as<std::string>()});
  }
  val actions = in["actions"];
  const auto action_count = actions["length"].as<size_t>();
  for (size_t i = 0; i < action_count; ++i) {
    val a = actions[i];
    const auto type = a["type"].as<std::string>();
    if (type == "process") {
      dlq::Result<dlq::Outcome> outcome = dlq::ParseOutcome(a["outcome"].as<std::string>());
      if (!outcome.ok()) {
        return dlq::Status::InvalidArgument("actions[" + std::to_string(i) + "]." + outcome.status().message());
      }
      s.actions.push_back(dlq::Action::Process(outcome.value(), a["error"].as<std::string>()));
    } else if (type == "replay") {
      s.actions.push_back(dlq::Action::Replay(a["id"].as<std::string>()));
    } else {
      s.actions.push_back(dlq::Action::Enqueue(a["id"].as<std::string>(), a["payload"].as<std::string>()));
    }
  }
  // index.mjs passes a non-negative safe integer; range-check before narrowing to size_t.
  const auto cursor = static_cast<uint64_t>(in["cursor"].as<double>());
  if (dlq::Status st = dlq::CheckCursor(cursor, action_count); !st.ok()) return st;
  s.cursor = static_cast<size_t>(cursor);
  return s;
}

// The link text of a scenario object, or the error the core would give loading it.
val FormatScenarioValue(val in) {
  dlq::Result<dlq::Scenario> s = ScenarioFromValue(in);
  if (!s.ok()) return ErrorValue(s.status());
  dlq::Result<std::string> text = dlq::ShareScenario(s.value());
  return text.ok() ? val(text.value()) : ErrorValue(text.status());
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

// index.mjs passes non-negative safe integers, so the conversions are exact.
val RandomOutcomes(double seed, double count, double success_pct, double transient_pct) {
  dlq::Result<std::string> r =
      dlq::RandomOutcomes(static_cast<uint64_t>(seed), static_cast<uint64_t>(count),
                          static_cast<uint64_t>(success_pct), static_cast<uint64_t>(transient_pct));
  return r.ok() ? val(r.value()) : ErrorValue(r.status());
}

// Bytes currently allocated on the wasm heap (for leak checks).
double HeapInUse() { return static_cast<double>(mallinfo().uordblks); }

// Size of the wasm linear memory (it only ever grows).
double MemoryBytes() { return static_cast<double>(emscripten_get_heap_size()); }

}  // namespace

EMSCRIPTEN_BINDINGS(dlq_core) {
  emscripten::class_<QueueHandle>("QueueHandle")
      .constructor<>()
      .function("init", &QueueHandle::init)
      .function("initFromScenario", &QueueHandle::initFromScenario)
      .function("initFromScenarioObject", &QueueHandle::initFromScenarioObject)
      .function("enqueue", &QueueHandle::enqueue)
      .function("enqueuePacked", &QueueHandle::enqueuePacked)
      .function("enqueueArray", &QueueHandle::enqueueArray)
      .function("process", &QueueHandle::process)
      .function("processMany", &QueueHandle::processMany)
      .function("replay", &QueueHandle::replay)
      .function("ready", &QueueHandle::ready)
      .function("completed", &QueueHandle::completed)
      .function("quarantined", &QueueHandle::quarantined)
      .function("stats", &QueueHandle::stats)
      .function("timeline", &QueueHandle::timeline)
      .function("timelineText", &QueueHandle::timelineText);
  emscripten::function("parseScenario", &ParseScenarioText);
  emscripten::function("formatScenario", &FormatScenarioValue);
  emscripten::function("playableActions", &PlayableActionsValue);
  emscripten::function("randomOutcomes", &RandomOutcomes);
  emscripten::function("heapInUse", &HeapInUse);
  emscripten::function("memoryBytes", &MemoryBytes);
  emscripten::constant("scenarioFormatVersion", dlq::kScenarioFormatVersion);
  emscripten::constant("maxScenarioTextBytes", static_cast<double>(dlq::kMaxScenarioTextBytes));
  emscripten::constant("maxAttemptsLimit", static_cast<double>(dlq::Policy::kMaxAttempts));
  emscripten::constant("maxIdBytes", static_cast<double>(dlq::kMaxIdBytes));
  emscripten::constant("maxPayloadBytes", static_cast<double>(dlq::kMaxPayloadBytes));
  emscripten::constant("maxErrorTextBytes", static_cast<double>(dlq::kMaxErrorTextBytes));
}
