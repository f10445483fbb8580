// Embind bindings: the only file that includes Emscripten headers. No policy logic
// here, only conversion. wasm/index.mjs is the only caller.
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
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "dlq.h"
#include "text.h"

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
  using dlq::EventKind;
  val out = val::object();
  out.set("seq", static_cast<double>(e.seq));
  out.set("step", static_cast<double>(e.step));
  out.set("action", static_cast<double>(e.action));
  out.set("time", static_cast<double>(e.time));
  out.set("kind", std::string(dlq::EventKindName(e.kind)));
  out.set("id", e.id);
  out.set("attempts", e.attempts);
  out.set("maxAttempts", e.max_attempts);
  if (e.kind == EventKind::kAttempt) out.set("outcome", std::string(dlq::OutcomeName(e.outcome)));
  if (e.kind == EventKind::kAttempt || e.kind == EventKind::kExpired) {
    out.set("disposition", std::string(dlq::DispositionName(e.disposition)));
    out.set("error", e.error);
  }
  if (e.reason != dlq::Reason::kNone) out.set("reason", std::string(dlq::ReasonName(e.reason)));
  if (e.kind == EventKind::kEnqueued || e.kind == EventKind::kReplayed) {
    out.set("payloadBytes", static_cast<double>(e.payload_bytes));
  }
  if (!e.token.empty()) out.set("token", e.token);
  // The fields event.h documents for each kind: until for a lease's expiry and
  // a due time, delayMs with a due time.
  const bool delaying = e.kind == EventKind::kDelayed ||
                        ((e.kind == EventKind::kAttempt || e.kind == EventKind::kExpired) &&
                         e.disposition == dlq::Disposition::kDelayed);
  if (e.kind == EventKind::kLeased || delaying) out.set("until", static_cast<double>(e.until));
  if (delaying) out.set("delayMs", static_cast<double>(e.delay_ms));
  out.set("text", dlq::RenderEvent(e));
  out.set("explanation", dlq::ExplainEvent(e));
  return out;
}

// What process() and settle() return: { id, attempt, outcome, disposition,
// reason?, delayMs?, dueAt? }.
val AttemptValue(const dlq::Attempt& a) {
  val out = val::object();
  out.set("id", a.id);
  out.set("attempt", a.attempt);
  out.set("outcome", std::string(dlq::OutcomeName(a.outcome)));
  out.set("disposition", std::string(dlq::DispositionName(a.disposition)));
  if (a.reason != dlq::Reason::kNone) out.set("reason", std::string(dlq::ReasonName(a.reason)));
  if (a.disposition == dlq::Disposition::kDelayed) {
    out.set("delayMs", static_cast<double>(a.delay_ms));
    out.set("dueAt", static_cast<double>(a.due_at));
  }
  return out;
}

// The whole policy as the options object createQueue() takes.
val BackoffValue(const dlq::Backoff& b) {
  val out = val::object();
  out.set("kind", std::string(dlq::BackoffKindName(b.kind)));
  out.set("baseMs", static_cast<double>(b.base_ms));
  out.set("capMs", static_cast<double>(b.cap_ms));
  out.set("jitter", std::string(dlq::JitterName(b.jitter)));
  return out;
}

// Sets the policy's fields on `out` (a policy object, or a scenario object).
void SetPolicyFields(val& out, const dlq::Policy& p) {
  out.set("maxAttempts", static_cast<double>(p.max_attempts));
  out.set("backoff", BackoffValue(p.backoff));
  out.set("leaseMs", static_cast<double>(p.lease_ms));
  out.set("seed", static_cast<double>(p.seed));
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

// ---- reading plain values built by index.mjs, type-checked before as<T>() ----

dlq::Status NotA(const std::string& name, const char* expected) {
  return dlq::Status::InvalidArgument(name + " must be " + expected);
}

dlq::Status ReadString(const val& v, const std::string& name, std::string* out) {
  if (!v.isString()) return NotA(name, "a string");
  *out = v.as<std::string>();
  return dlq::Status::Ok();
}

dlq::Status ReadNumber(const val& v, const std::string& name, double* out) {
  if (!v.isNumber()) return NotA(name, "a number");
  *out = v.as<double>();
  return dlq::Status::Ok();
}

// An array's length, at most `limit` items.
dlq::Status ReadLength(const val& v, const std::string& name, size_t limit, size_t* out) {
  if (!v.isArray()) return NotA(name, "an array");
  double length = 0;
  if (dlq::Status s = ReadNumber(v["length"], name + ".length", &length); !s.ok()) return s;
  if (dlq::Status s = dlq::CheckSize(name, limit, static_cast<size_t>(std::min(length, 1e18)), "items"); !s.ok()) {
    return s;
  }
  *out = static_cast<size_t>(length);
  return dlq::Status::Ok();
}

bool IsObject(const val& v) { return !v.isNull() && v.typeOf().as<std::string>() == "object"; }

// An integer field of the policy: undefined keeps *out (the core's default)
// unless `required`; a number is checked against the core's field (its message,
// unprefixed) before it is narrowed. index.mjs has refused other types already.
dlq::Status ReadInteger(const val& v, const dlq::IntegerField& field, const std::string& prefix, bool required,
                        int64_t* out) {
  if (v.isUndefined() && !required) return dlq::Status::Ok();
  double number = 0;
  if (dlq::Status s = ReadNumber(v, prefix + field.name, &number); !s.ok()) return s;
  if (dlq::Status s = field.Check(number); !s.ok()) return s;
  *out = static_cast<int64_t>(number);
  return dlq::Status::Ok();
}

// A policy object built by index.mjs: { maxAttempts, backoff?: { kind?, baseMs?,
// capMs?, jitter? }, leaseMs?, seed? }. Absent fields keep the core's defaults
// (dlq::Policy{}); ranges, names and the pair rules are the core's.
dlq::Result<dlq::Policy> PolicyFromValue(const val& in, const std::string& prefix) {
  if (!IsObject(in)) return NotA(prefix.empty() ? "options" : prefix.substr(0, prefix.size() - 1), "an object");
  dlq::Policy p;
  if (dlq::Status s = ReadInteger(in["maxAttempts"], dlq::kMaxAttemptsField, prefix, true, &p.max_attempts); !s.ok()) {
    return s;
  }
  val backoff = in["backoff"];
  if (!backoff.isUndefined()) {
    if (!IsObject(backoff)) return NotA(prefix + "backoff", "an object");
    val kind = backoff["kind"];
    if (!kind.isUndefined()) {
      std::string text;
      if (dlq::Status s = ReadString(kind, prefix + "backoff.kind", &text); !s.ok()) return s;
      dlq::Result<dlq::BackoffKind> parsed = dlq::ParseBackoffKind(text);
      if (!parsed.ok()) return parsed.status();
      p.backoff.kind = parsed.value();
    }
    if (dlq::Status s = ReadInteger(backoff["baseMs"], dlq::kBaseMsField, prefix, false, &p.backoff.base_ms); !s.ok()) {
      return s;
    }
    if (dlq::Status s = ReadInteger(backoff["capMs"], dlq::kCapMsField, prefix, false, &p.backoff.cap_ms); !s.ok()) {
      return s;
    }
    val jitter = backoff["jitter"];
    if (!jitter.isUndefined()) {
      std::string text;
      if (dlq::Status s = ReadString(jitter, prefix + "backoff.jitter", &text); !s.ok()) return s;
      dlq::Result<dlq::Jitter> parsed = dlq::ParseJitter(text);
      if (!parsed.ok()) return parsed.status();
      p.backoff.jitter = parsed.value();
    }
  }
  if (dlq::Status s = ReadInteger(in["leaseMs"], dlq::kLeaseMsField, prefix, false, &p.lease_ms); !s.ok()) return s;
  if (dlq::Status s = ReadInteger(in["seed"], dlq::kSeedField, prefix, false, &p.seed); !s.ok()) return s;
  if (dlq::Status s = dlq::Policy::Check(p); !s.ok()) return s;
  return p;
}

dlq::Result<dlq::Scenario> ScenarioFromValue(val in);

// Owns one queue. JS creates it empty, then initialises it from a policy or a
// scenario; until then (or if that failed) it holds nothing.
class QueueHandle {
 public:
  // A policy object built by index.mjs (PolicyFromValue).
  val init(val policy) {
    dlq::Result<dlq::Policy> p = PolicyFromValue(policy, "");
    if (!p.ok()) return ErrorValue(p.status());
    dlq::Result<dlq::Queue> made = dlq::Queue::Create(p.value());
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
    size_t n = 0;
    if (dlq::Status s = ReadLength(jobs, "jobs", dlq::kMaxBatchJobs, &n); !s.ok()) return ErrorValue(s);
    std::vector<dlq::JobSpec> specs(n);  // owns the strings the refs view
    std::vector<dlq::JobRef> refs(n);
    for (size_t i = 0; i < n; ++i) {
      val job = jobs[i];
      const std::string name = "jobs[" + std::to_string(i) + "]";
      if (!IsObject(job)) return ErrorValue(NotA(name, "an object"));
      if (dlq::Status s = ReadString(job["id"], name + ".id", &specs[i].id); !s.ok()) return ErrorValue(s);
      if (dlq::Status s = ReadString(job["payload"], name + ".payload", &specs[i].payload); !s.ok()) {
        return ErrorValue(s);
      }
      refs[i] = {specs[i].id, specs[i].payload};
    }
    dlq::Status s = queue_->EnqueueMany(refs);
    return s.ok() ? val::null() : ErrorValue(s);
  }

  val process(const std::string& outcome, const std::string& error_text) {
    dlq::Result<dlq::Attempt> r = queue_->Process(outcome, error_text);
    if (!r.ok()) return ErrorValue(r.status());
    return r.value().processed ? AttemptValue(r.value()) : val::null();
  }

  val processMany(const std::string& outcomes, const std::string& error_text) {
    dlq::Result<uint64_t> r = queue_->ProcessMany(outcomes, error_text);
    if (!r.ok()) return ErrorValue(r.status());
    return val(static_cast<double>(r.value()));
  }

  bool replay(const std::string& id) { return queue_->Replay(id); }

  // { id, payload, attempt, token, leasedAt, expiresAt }, or null when nothing is ready.
  val lease() {
    dlq::Result<dlq::LeaseGrant> r = queue_->Lease();
    if (!r.ok()) return ErrorValue(r.status());
    const dlq::LeaseGrant& g = r.value();
    if (!g.leased) return val::null();
    val out = val::object();
    out.set("id", g.id);
    out.set("payload", g.payload);
    out.set("attempt", g.attempt);
    out.set("token", g.token);
    out.set("leasedAt", static_cast<double>(g.leased_at));
    out.set("expiresAt", static_cast<double>(g.expires_at));
    return out;
  }

  val settle(const std::string& token, const std::string& outcome, const std::string& error_text) {
    dlq::Result<dlq::Attempt> r = queue_->Settle(token, outcome, error_text);
    if (!r.ok()) return ErrorValue(r.status());
    return AttemptValue(r.value());
  }

  // Any number: the core refuses all but an integer in its "ms" field's range.
  val advance(double ms) {
    dlq::Status s = queue_->Advance(ms);
    return s.ok() ? val::null() : ErrorValue(s);
  }

  // The new time, or null when no timer is pending.
  val advanceToNext() {
    const std::optional<int64_t> time = queue_->AdvanceToNext();
    return time ? val(static_cast<double>(*time)) : val::null();
  }

  double now() const { return static_cast<double>(queue_->now()); }

  val worstCase() const {
    const dlq::WorstCase worst = queue_->worst_case();
    val out = val::object();
    out.set("attempts", worst.attempts);
    out.set("timeMs", static_cast<double>(worst.time_ms));
    return out;
  }

  val policy() const {
    val out = val::object();
    SetPolicyFields(out, queue_->policy());
    return out;
  }

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

  val delayed(double from, double count) const {
    val out = val::array();
    const size_t n = queue_->delayed_size();
    for (const dlq::DelayedView& d : queue_->Delayed(Index(from, n), Index(count, n))) {
      val entry = val::object();
      entry.set("id", d.id);
      entry.set("payload", d.payload);
      entry.set("attempts", d.attempts);
      entry.set("dueAt", static_cast<double>(d.due_at));
      out.call<void>("push", entry);
    }
    return out;
  }

  val leased(double from, double count) const {
    val out = val::array();
    const size_t n = queue_->leased_size();
    for (const dlq::LeaseView& l : queue_->Leased(Index(from, n), Index(count, n))) {
      val entry = val::object();
      entry.set("id", l.id);
      entry.set("payload", l.payload);
      entry.set("attempts", l.attempts);
      entry.set("token", l.token);
      entry.set("expiresAt", static_cast<double>(l.expires_at));
      out.call<void>("push", entry);
    }
    return out;
  }

  val stats() const {
    const dlq::QueueStats s = queue_->stats();
    val out = val::object();
    out.set("step", static_cast<double>(s.step));
    out.set("ready", static_cast<double>(s.ready));
    out.set("completed", static_cast<double>(s.completed));
    out.set("quarantined", static_cast<double>(s.quarantined));
    out.set("events", static_cast<double>(s.events));
    out.set("maxAttempts", static_cast<double>(queue_->policy().max_attempts));
    out.set("now", static_cast<double>(s.now));
    out.set("actions", static_cast<double>(s.actions));
    out.set("delayed", static_cast<double>(s.delayed));
    out.set("leased", static_cast<double>(s.leased));
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


val ActionValue(const dlq::Action& a) {
  val out = val::object();
  std::visit(dlq::Overloaded{
                 [&](const dlq::action::Process& p) {
                   out.set("type", std::string("process"));
                   out.set("outcome", std::string(dlq::OutcomeName(p.outcome)));
                   out.set("error", p.error);
                 },
                 [&](const dlq::action::Replay& r) {
                   out.set("type", std::string("replay"));
                   out.set("id", r.id);
                 },
                 [&](const dlq::action::Enqueue& e) {
                   out.set("type", std::string("enqueue"));
                   out.set("id", e.id);
                   out.set("payload", e.payload);
                 },
                 [&](const dlq::action::Lease&) { out.set("type", std::string("lease")); },
                 [&](const dlq::action::Settle& st) {
                   out.set("type", std::string("settle"));
                   out.set("token", dlq::LeaseTable::Token(st.lease));
                   out.set("outcome", std::string(dlq::OutcomeName(st.outcome)));
                   out.set("error", st.error);
                 },
                 [&](const dlq::action::Advance& ad) {
                   out.set("type", std::string("advance"));
                   out.set("ms", static_cast<double>(ad.ms));
                 },
                 [&](const dlq::action::AdvanceToNext&) { out.set("type", std::string("advanceToNext")); },
             },
             a);
  return out;
}

val ScenarioValue(const dlq::Scenario& s) {
  val out = val::object();
  SetPolicyFields(out, s.policy);
  val jobs = val::array();
  for (const dlq::JobSpec& j : s.jobs) {
    val job = val::object();
    job.set("id", j.id);
    job.set("payload", j.payload);
    jobs.call<void>("push", job);
  }
  out.set("jobs", jobs);
  val actions = val::array();
  for (const dlq::Action& a : s.actions) actions.call<void>("push", ActionValue(a));
  out.set("actions", actions);
  out.set("cursor", static_cast<double>(s.cursor));
  return out;
}

val ParseScenarioText(const std::string& text) {
  dlq::Result<dlq::Scenario> r = dlq::ParseScenario(text);
  if (!r.ok()) return ErrorValue(r.status());
  return ScenarioValue(r.value());
}

// An outcome string parsed by the core, its message prefixed with the action's name.
dlq::Status ReadOutcome(const val& v, const std::string& name, dlq::Outcome* out) {
  std::string text;
  if (dlq::Status st = ReadString(v, name + ".outcome", &text); !st.ok()) return st;
  dlq::Result<dlq::Outcome> outcome = dlq::ParseOutcome(text);
  if (!outcome.ok()) return dlq::Status::InvalidArgument(name + "." + outcome.status().message());
  *out = outcome.value();
  return dlq::Status::Ok();
}

// One action object built by index.mjs; `name` is "scenario.actions[i]". Every
// type is named here; an unknown one is refused.
dlq::Result<dlq::Action> ActionFromValue(const val& a, const std::string& name) {
  if (!IsObject(a)) return NotA(name, "an object");
  std::string type;
  if (dlq::Status st = ReadString(a["type"], name + ".type", &type); !st.ok()) return st;
  if (type == "process") {
    dlq::action::Process p;
    if (dlq::Status st = ReadOutcome(a["outcome"], name, &p.outcome); !st.ok()) return st;
    if (dlq::Status st = ReadString(a["error"], name + ".error", &p.error); !st.ok()) return st;
    return dlq::Action(std::move(p));
  }
  if (type == "replay") {
    dlq::action::Replay r;
    if (dlq::Status st = ReadString(a["id"], name + ".id", &r.id); !st.ok()) return st;
    return dlq::Action(std::move(r));
  }
  if (type == "enqueue") {
    dlq::action::Enqueue e;
    if (dlq::Status st = ReadString(a["id"], name + ".id", &e.id); !st.ok()) return st;
    if (dlq::Status st = ReadString(a["payload"], name + ".payload", &e.payload); !st.ok()) return st;
    return dlq::Action(std::move(e));
  }
  if (type == "lease") return dlq::Action(dlq::action::Lease{});
  if (type == "settle") {
    dlq::action::Settle st;
    std::string token;
    if (dlq::Status s = ReadString(a["token"], name + ".token", &token); !s.ok()) return s;
    st.lease = dlq::LeaseTable::ParseToken(token);
    if (st.lease == 0) {
      return dlq::Status::InvalidArgument(name + ".token must be a lease token \"lease-<n>\" with n from 1 to " +
                                          std::to_string(UINT32_MAX) + ", got " + dlq::QuoteShort(token));
    }
    if (dlq::Status s = ReadOutcome(a["outcome"], name, &st.outcome); !s.ok()) return s;
    if (dlq::Status s = ReadString(a["error"], name + ".error", &st.error); !s.ok()) return s;
    return dlq::Action(std::move(st));
  }
  if (type == "advance") {
    double ms = 0;
    if (dlq::Status st = ReadNumber(a["ms"], name + ".ms", &ms); !st.ok()) return st;
    if (dlq::Status st = dlq::kAdvanceMsField.Check(ms); !st.ok()) {
      return dlq::Status::Error(st.code(), name + "." + st.message());
    }
    return dlq::Action(dlq::action::Advance{static_cast<int64_t>(ms)});
  }
  if (type == "advanceToNext") return dlq::Action(dlq::action::AdvanceToNext{});
  return dlq::Status::InvalidArgument(name + ".type " + dlq::QuoteShort(type) + " is not an action type");
}

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
  if (dlq::Status st = dlq::CheckCursor(static_cast<uint64_t>(std::clamp(cursor, 0.0, 1e18)), action_count);
      !st.ok()) {
    return st;
  }
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

// { key: limit } for every row of the core's size-limit table.
val SizeLimits() {
  val out = val::object();
  for (const dlq::SizeLimit& limit : dlq::kSizeLimits) out.set(limit.key, static_cast<double>(limit.value));
  return out;
}

// { name: { min, max } } for every row of the core's integer-field table.
val IntegerFields() {
  val out = val::object();
  for (const dlq::IntegerField* field : dlq::kIntegerFields) {
    val range = val::object();
    range.set("min", static_cast<double>(field->min));
    range.set("max", static_cast<double>(field->max));
    out.set(field->name, range);
  }
  return out;
}

// The core's message for a value of the wrong type in integer field `name`,
// the value described by index.mjs; an error value for a name not in the table.
val IntegerTypeMessage(const std::string& name, const std::string& described) {
  for (const dlq::IntegerField* field : dlq::kIntegerFields) {
    if (name == field->name) return val(field->Message(described));
  }
  return ErrorValue(dlq::Status::NotFound("no integer field is named " + dlq::QuoteShort(name)));
}

// The core's TooLarge error for a size index.mjs measured before copying.
val SizeError(const std::string& name, double limit, double given, const std::string& unit) {
  return ErrorValue(dlq::TooLarge(name, static_cast<size_t>(limit), static_cast<size_t>(given), unit));
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

}  // namespace

EMSCRIPTEN_BINDINGS(dlq_core) {
  // Half of the memory the module may grow to; the rest is headroom for boundary
  // copies and allocator slack (see the rules at the top).
  dlq::HeapBudget::set_limit(emscripten_get_heap_max() / 2);
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
      .function("lease", &QueueHandle::lease)
      .function("settle", &QueueHandle::settle)
      .function("advance", &QueueHandle::advance)
      .function("advanceToNext", &QueueHandle::advanceToNext)
      .function("now", &QueueHandle::now)
      .function("worstCase", &QueueHandle::worstCase)
      .function("policy", &QueueHandle::policy)
      .function("delayed", &QueueHandle::delayed)
      .function("leased", &QueueHandle::leased)
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
  emscripten::function("sizeLimits", &SizeLimits);
  emscripten::function("sizeError", &SizeError);
  emscripten::function("integerFields", &IntegerFields);
  emscripten::function("integerTypeMessage", &IntegerTypeMessage);
  emscripten::function("checkRoom", &CheckRoom);
  emscripten::function("heapBudget", &HeapBudgetValue);
  emscripten::function("setHeapBudget", &SetHeapBudget);
  emscripten::function("heapMax", &HeapMax);
  emscripten::function("heapInUse", &HeapInUse);
  emscripten::function("memoryBytes", &MemoryBytes);
  emscripten::constant("scenarioFormatVersion", dlq::kScenarioFormatVersion);
  emscripten::constant("maxScenarioTextBytes", static_cast<double>(dlq::kMaxScenarioTextBytes));
  emscripten::constant("maxAttemptsLimit", static_cast<double>(dlq::Policy::kMaxAttempts));
}
