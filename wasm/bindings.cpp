// Embind bindings: the conversions every handle shares (values.h declares them),
// the module's functions and constants. One file per handle beside it
// (queue_binding.cpp, session_binding.cpp, storm_binding.cpp); only these files
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

val ErrorValue(const dlq::Status& status) {
  val error = val::object();
  error.set("error", std::string(dlq::CodeName(status.code())));
  error.set("message", status.message());
  return error;
}

// A string the core leaves empty for "none" (a key, a holder), as JS spells none: null.
val OrNull(const std::string& text) { return text.empty() ? val::null() : val(text); }

// { id, payload, attempts, key, heldBy? }: heldBy (ready() only) is the id the job
// waits for under key ordering, or null.
val JobValue(const dlq::JobView& job, bool held_by) {
  val out = val::object();
  out.set("id", job.id);
  out.set("payload", job.payload);
  out.set("attempts", job.attempts);
  out.set("key", OrNull(job.key));
  if (held_by) out.set("heldBy", OrNull(job.held_by));
  return out;
}

// An array of strings, in order.
val StringsValue(const std::vector<std::string>& strings) {
  val out = val::array();
  for (const std::string& s : strings) out.call<void>("push", s);
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
  // The failure's class, where event.h sets it: a failing attempt, an expiry (crash), an alert.
  if ((e.kind == EventKind::kAttempt && e.outcome != dlq::Outcome::kSuccess) || e.kind == EventKind::kExpired ||
      e.kind == EventKind::kAlert) {
    out.set("class", std::string(dlq::ClassName(e.failure_class)));
  }
  if (e.kind == EventKind::kAttempt || e.kind == EventKind::kExpired) {
    out.set("disposition", std::string(dlq::DispositionName(e.disposition)));
    out.set("error", e.error);
  }
  if (e.reason != dlq::Reason::kNone) out.set("reason", std::string(dlq::ReasonName(e.reason)));
  if (e.kind == EventKind::kEnqueued || e.kind == EventKind::kReplayed || e.kind == EventKind::kPatched) {
    out.set("payloadBytes", static_cast<double>(e.payload_bytes));
  }
  if (e.kind == EventKind::kPatched) out.set("oldPayloadBytes", static_cast<double>(e.old_payload_bytes));
  if (!e.token.empty()) out.set("token", e.token);
  // The fields event.h documents for each kind: until for a lease's expiry and
  // a due time, delayMs with a due time.
  const bool delaying = e.kind == EventKind::kDelayed ||
                        ((e.kind == EventKind::kAttempt || e.kind == EventKind::kExpired) &&
                         e.disposition == dlq::Disposition::kDelayed);
  if (e.kind == EventKind::kLeased || delaying) out.set("until", static_cast<double>(e.until));
  if (delaying) out.set("delayMs", static_cast<double>(e.delay_ms));
  // Where the delay lives, when not in the broker (policy.h, DelayAt): a sleeping
  // worker (sleepCut: until its lease's expiry) or the retry queue.
  if ((delaying || e.kind == EventKind::kDue) && e.delay_at != dlq::DelayAt::kBroker) {
    out.set("delayAt", std::string(dlq::DelayAtName(e.delay_at)));
    out.set("waitsIn", std::string(e.delay_at == dlq::DelayAt::kRetryQueue ? dlq::kRetryQueueName : "worker"));
    if (e.sleep_cut) out.set("sleepCut", true);
  }
  // Ordering and the quarantine's operation: the key of a reorder and of a
  // release, whom a reorder overtook, the depth an alarm saw.
  if (e.kind == EventKind::kReorder || e.kind == EventKind::kKeyReleased) out.set("key", e.key);
  if (e.kind == EventKind::kReorder) out.set("overtook", StringsValue(e.overtook));
  if (e.kind == EventKind::kAlarmRaised || e.kind == EventKind::kAlarmCleared) {
    out.set("depth", static_cast<double>(e.depth));
  }
  // Recovery after a crash: where a job found in two places was kept.
  if (e.kind == EventKind::kKeptOnce) out.set("place", e.place);
  out.set("text", dlq::RenderEvent(e));
  out.set("explanation", dlq::ExplainEvent(e));
  return out;
}


val CrashReportValue(const dlq::CrashReport& crash) {
  val c = val::object();
  c.set("applied", static_cast<double>(crash.applied));
  c.set("journal", static_cast<double>(crash.journal));
  c.set("tornDiscarded", crash.torn_discarded);
  c.set("lost", StringsValue(crash.lost));
  c.set("duplicated", StringsValue(crash.duplicated));
  return c;
}

// A backoff object: { kind, baseMs, capMs, jitter }, and jitterPermille with jitter
// "bullmq" only (the one jitter with a parameter), so every other backoff reads as before.
val BackoffValue(const dlq::Backoff& b) {
  val out = val::object();
  WriteFields(b, dlq::BackoffFields(), out, [&](const dlq::FieldSpec& spec) {
    return b.jitter == dlq::Jitter::kBullMq || std::string_view(spec.name) != "jitterPermille";
  });
  return out;
}

// One class rule: { retry, maxAttempts, backoff, alert }. As configured (`backoff`
// may be "policy", maxAttempts 0 = the policy's), or resolved by Policy::RuleFor
// (its own_backoff is then irrelevant: backoff is the one in force).
val ClassRuleValue(const dlq::ClassRule& rule, bool resolved) {
  val out = val::object();
  WriteFields(rule, dlq::ClassRuleFields(), out);
  if (resolved || rule.own_backoff) {
    out.set("backoff", BackoffValue(rule.backoff));
  } else {
    out.set("backoff", std::string(dlq::kPolicyBackoffName));
  }
  return out;
}

// { <class name>: rule } for every failure class, in the core's order: the table as
// configured, or every rule as Policy::RuleFor resolves it.
val ClassTableValue(const dlq::Policy& p, bool resolved) {
  val out = val::object();
  for (int i = 0; i < dlq::kFailureClassCount; ++i) {
    const auto c = static_cast<dlq::FailureClass>(i);
    out.set(dlq::ClassName(c), ClassRuleValue(resolved ? p.RuleFor(c) : p.classes[c], resolved));
  }
  return out;
}

// Sets the policy's fields a scenario carries on `out` (a policy object, or a
// scenario object): every row but createQueue's own `journal`, then the backoff
// and the class table.
void SetPolicyFields(val& out, const dlq::Policy& p) {
  WriteFields(p, dlq::PolicyFields(), out, dlq::IsScenarioField);
  out.set("backoff", BackoffValue(p.backoff));
  out.set("classes", ClassTableValue(p, false));
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

// A Uint8Array from index.mjs (text it encoded to UTF-8), copied into *out with one
// TypedArray.prototype.set. Embind's own std::string conversion copies an array
// byte by byte in JS: about 0.2 s for the 25 MB of a million-job batch.
dlq::Status ReadBytes(const val& v, const std::string& name, std::string* out) {
  if (!v.instanceof(val::global("Uint8Array"))) return NotA(name, "a Uint8Array");
  const size_t n = v["length"].as<size_t>();
  out->resize(n);  // a memset, cheap beside the copy
  // The view is made after the resize, and nothing allocates (grows memory) before set() reads it.
  val(emscripten::typed_memory_view(n, reinterpret_cast<unsigned char*>(out->data()))).call<void>("set", v);
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

// A boolean, if present: undefined keeps *out.
dlq::Status ReadBoolean(const val& v, const std::string& name, bool* out) {
  if (v.isUndefined()) return dlq::Status::Ok();
  if (!v.isTrue() && !v.isFalse()) return NotA(name, "a boolean");
  *out = v.isTrue();
  return dlq::Status::Ok();
}

bool IsObject(const val& v) { return !v.isNull() && v.typeOf().as<std::string>() == "object"; }

// The name of integer field `field` for class `c`: its "<class>" replaced by the
// class's name ("classes.<class>.maxAttempts" -> "classes.precondition.maxAttempts").
std::string ClassFieldName(const dlq::IntegerField& field, dlq::FailureClass c) {
  std::string name(field.name);
  const size_t at = name.find("<class>");
  if (at != std::string::npos) name.replace(at, 7, dlq::ClassName(c));
  return name;
}

// An integer field of the policy: undefined keeps *out (the core's default)
// unless `required`; a number is checked against the core's field before it is
// narrowed. `name` is the field's full name in range messages (the core's own
// name, or one it builds the same way, e.g. "classes.precondition.backoff.baseMs",
// as Policy::Check names it); `prefix` ("" or "scenario.") goes in front of it in
// type messages. index.mjs has refused other types already.
dlq::Status ReadInteger(const val& v, const dlq::IntegerField& field, const std::string& name,
                        const std::string& prefix, bool required, int64_t* out) {
  if (v.isUndefined() && !required) return dlq::Status::Ok();
  double number = 0;
  if (dlq::Status s = ReadNumber(v, prefix + name, &number); !s.ok()) return s;
  if (dlq::Status s = dlq::IntegerField{name.c_str(), field.min, field.max}.Check(number); !s.ok()) return s;
  *out = static_cast<int64_t>(number);
  return dlq::Status::Ok();
}

dlq::Status ReadInteger(const val& v, const dlq::IntegerField& field, const std::string& prefix, bool required,
                        int64_t* out) {
  return ReadInteger(v, field, field.name, prefix, required, out);
}

// A backoff object built by index.mjs ({ kind?, baseMs?, capMs?, jitter? }) over
// *out: absent fields keep what *out holds. `owner` is "" for the policy's own,
// "classes.<name>." for a class's, so every name is the one Policy::Check uses.
dlq::Status ReadBackoff(const val& backoff, const std::string& owner, const std::string& prefix, dlq::Backoff* out) {
  if (!IsObject(backoff)) return NotA(prefix + owner + "backoff", "an object");
  return ReadFields(backoff, dlq::BackoffFields(), owner + "backoff.", prefix, out);
}

// The class overrides index.mjs built: an array of rows { name, retry?,
// maxAttempts?, backoff?: "policy" | { kind?, baseMs?, capMs?, jitter? }, alert? },
// each merged over its row of *table field by field (a row's backoff over the
// row's own). Names, ranges and messages are the core's (ParseClass,
// kClassMaxAttemptsField); Policy::Check checks the pairs afterwards.
dlq::Status ReadClasses(const val& rows, const std::string& prefix, dlq::ClassTable* table) {
  size_t n = 0;
  // index.mjs sends at most one row per class, plus the first unknown name.
  if (dlq::Status s = ReadLength(rows, prefix + "classes", dlq::kFailureClassCount + 1, &n); !s.ok()) return s;
  for (size_t i = 0; i < n; ++i) {
    val row = rows[i];
    if (!IsObject(row)) return NotA(prefix + "classes[" + std::to_string(i) + "]", "an object");
    std::string name;
    if (dlq::Status s = ReadString(row["name"], prefix + "classes[" + std::to_string(i) + "].name", &name); !s.ok()) {
      return s;
    }
    dlq::Result<dlq::FailureClass> parsed = dlq::ParseClass(name);
    if (!parsed.ok()) return dlq::Status::Error(parsed.status().code(), "classes: " + parsed.status().message());
    const dlq::FailureClass c = parsed.value();
    dlq::ClassRule& rule = (*table)[c];
    const std::string owner = std::string("classes.") + dlq::ClassName(c) + ".";

    if (dlq::Status s = ReadFields(row, dlq::ClassRuleFields(), owner, prefix, &rule); !s.ok()) return s;
    val backoff = row["backoff"];
    if (backoff.isString()) {
      const std::string text = backoff.as<std::string>();
      if (text != dlq::kPolicyBackoffName) {
        return dlq::Status::InvalidArgument(owner + "backoff must be a backoff object or \"" +
                                            dlq::kPolicyBackoffName + "\" (the policy's), got " +
                                            dlq::QuoteShort(text));
      }
      rule.own_backoff = false;
    } else if (!backoff.isUndefined()) {
      if (dlq::Status s = ReadBackoff(backoff, owner, prefix, &rule.backoff); !s.ok()) return s;
      rule.own_backoff = true;
    }
  }
  return dlq::Status::Ok();
}

// A policy object built by index.mjs: { maxAttempts, backoff?: { kind?, baseMs?,
// capMs?, jitter? }, leaseMs?, seed?, classes?: [rows] (ReadClasses), ordering?,
// quarantine?: { retentionMs?, alarmDepth? }, unsafeQuarantineOrder?, journal? }. Absent
// fields keep the core's defaults (dlq::Policy{}); ranges, names and the pair
// rules are the core's.
dlq::Result<dlq::Policy> PolicyFromValue(const val& in, const std::string& prefix) {
  if (!IsObject(in)) return NotA(prefix.empty() ? "options" : prefix.substr(0, prefix.size() - 1), "an object");
  dlq::Policy p;
  // Scalars and the quarantine group by the table; `journal` only createQueue
  // sends (index.mjs leaves it out of scenario objects: no link carries it).
  if (dlq::Status s = ReadFields(in, dlq::PolicyFields(), "", prefix, &p); !s.ok()) return s;
  val backoff = in["backoff"];
  if (!backoff.isUndefined()) {
    if (dlq::Status s = ReadBackoff(backoff, "", prefix, &p.backoff); !s.ok()) return s;
  }
  val classes = in["classes"];
  if (!classes.isUndefined()) {
    if (dlq::Status s = ReadClasses(classes, prefix, &p.classes); !s.ok()) return s;
  }
  if (dlq::Status s = dlq::Policy::Check(p); !s.ok()) return s;
  return p;
}

dlq::Result<dlq::Scenario> ScenarioFromValue(val in);
dlq::Result<dlq::World> WorldFromValue(val in, const std::string& prefix);
val ActionValue(const dlq::Action& a);



// Owns one queue. JS creates it empty, then initialises it from a policy, a
// scenario, a snapshot or a recovery; until then (or if that failed) it holds nothing.
// A non-negative number (or Infinity) from JS as an index, clamped to `limit`
// before narrowing so no double beyond size_t is ever converted.
size_t QueueIndex(double value, size_t limit) {
  return static_cast<size_t>(std::min(value, static_cast<double>(limit)));
}

val JobsValue(const std::vector<dlq::JobView>& jobs, bool held_by) {
  val out = val::array();
  for (const dlq::JobView& j : jobs) out.call<void>("push", JobValue(j, held_by));
  return out;
}

// ---- a queue's reads, shared by the queue and session handles ----

// { raised, depth, threshold }.
val AlarmValue(const dlq::Queue& q) {
  const dlq::AlarmView a = q.view().alarm();
  val out = val::object();
  out.set("raised", a.raised);
  out.set("depth", static_cast<double>(a.depth));
  out.set("threshold", static_cast<double>(a.threshold));
  return out;
}

// [{ key, id, overtook: [ids] }], in the order they happened; a slice like the views.
val ReordersValue(const dlq::Queue& q, double from, double count) {
  const size_t n = q.stats().reorders;
  val out = val::array();
  for (const dlq::ReorderView& r : q.view().Reorders(QueueIndex(from, n), QueueIndex(count, n))) {
    val entry = val::object();
    entry.set("key", r.key);
    entry.set("id", r.id);
    entry.set("overtook", StringsValue(r.overtook));
    out.call<void>("push", entry);
  }
  return out;
}

val WorstCaseValue(const dlq::Queue& q) { return WorstCaseValue(WorstCasePath(q.policy())); }

val WorstCaseValue(const dlq::WorstCase& worst) {
  val out = val::object();
  out.set("attempts", worst.attempts);
  out.set("timeMs", static_cast<double>(worst.time_ms));
  out.set("leaseMs", static_cast<double>(worst.lease_ms));
  out.set("stalls", worst.stalls);
  out.set("attemptsClass", std::string(dlq::ClassName(worst.attempts_class)));
  val delays = val::array();
  for (const dlq::WorstDelay& d : worst.delays) {
    val term = val::object();
    term.set("firstAttempt", d.first_attempt);
    term.set("lastAttempt", d.last_attempt);
    term.set("delayMs", static_cast<double>(d.delay_ms));
    term.set("class", std::string(dlq::ClassName(d.failure_class)));
    term.set("ownBackoff", d.own_backoff);
    delays.call<void>("push", term);
  }
  out.set("delays", delays);
  out.set("unbounded", worst.unbounded);
  return out;
}

// The whole policy, `journal` included (scenario objects leave it out: no link carries it).
val PolicyValue(const dlq::Queue& q) {
  val out = val::object();
  SetPolicyFields(out, q.policy());
  out.set("journal", q.policy().journal);
  return out;
}

// [{ write, op, id, record }] since the last snapshot (or creation); id null for
// the writes of no job (create, clock).
val JournalValue(const dlq::Queue& q) {
  dlq::Result<std::vector<dlq::JournalEntry>> r = q.view().Journal();
  if (!r.ok()) return ErrorValue(r.status());
  val out = val::array();
  for (const dlq::JournalEntry& e : r.value()) {
    val entry = val::object();
    entry.set("write", static_cast<double>(e.write));
    entry.set("op", e.op);
    entry.set("id", OrNull(e.id));
    entry.set("record", e.record);
    out.call<void>("push", entry);
  }
  return out;
}

// { <class name>: { retry, maxAttempts, backoff, alert } }: every class's rule in
// force, as Policy::RuleFor resolves it (maxAttempts capped, backoff filled in).
val RulesValue(const dlq::Queue& q) { return ClassTableValue(q.policy(), true); }

// Where job `id` is now ({ place, attempts, and its place's fields }), or null
// for an id this queue was never given. One lookup, no pass over a view.
val LocateValue(const dlq::Queue& q, const std::string& id) {
  const std::optional<dlq::JobLocation> at = q.view().Locate(id);
  if (!at.has_value()) return val::null();
  val out = val::object();
  out.set("place", std::string(dlq::PlaceName(at->place)));
  out.set("attempts", at->attempts);
  switch (at->place) {
    case dlq::Place::kReady: out.set("heldBy", OrNull(at->held_by)); break;
    case dlq::Place::kDelayed: out.set("dueAt", static_cast<double>(at->until)); break;
    case dlq::Place::kLeased:
      out.set("token", at->token);
      out.set("expiresAt", static_cast<double>(at->until));
      break;
    case dlq::Place::kQuarantined:
      out.set("reason", std::string(dlq::ReasonName(at->reason)));
      out.set("class", std::string(dlq::ClassName(at->failure_class)));
      out.set("sourceQueue", at->source_queue);
      break;
    default: break;
  }
  return out;
}

// Slices: from and count are non-negative numbers (count may be Infinity).
val ReadyValue(const dlq::Queue& q, double from, double count) {
  return JobsValue(q.view().Ready(QueueIndex(from, q.stats().ready), QueueIndex(count, q.stats().ready)), true);
}

val CompletedValue(const dlq::Queue& q, double from, double count) {
  return JobsValue(q.view().Completed(QueueIndex(from, q.stats().completed), QueueIndex(count, q.stats().completed)),
              false);
}

// The entry as its system itself records it, in the system's own field names
// (docs/real-systems.md): what an operator of that system would see in its DLQ.
val SystemRecordValue(const dlq::Policy& policy, const dlq::QuarantineEntry& e) {
  val record = val::object();
  switch (policy.system) {
    case dlq::System::kRabbitMqQuorum: {
      // x-death: one entry per {queue, reason}, newest first; x-first-death-* never change.
      val deaths = val::array();
      const dlq::XDeath& x = e.x_death;
      dlq::Reason order[dlq::XDeath::kSlots];
      x.Order(order);
      for (const dlq::Reason reason : order) {
        const int slot = dlq::XDeathSlot(reason);
        if (slot < 0 || x.count[slot] == 0) continue;
        val death = val::object();
        death.set("queue", std::string(dlq::kSourceQueueName));
        death.set("reason", std::string(dlq::SystemReasonName(policy.system, reason)));
        death.set("count", x.count[slot]);
        death.set("time", static_cast<double>(x.time[slot]));
        deaths.call<void>("push", death);
      }
      record.set("x-death", deaths);
      record.set("x-first-death-queue", std::string(dlq::kSourceQueueName));
      record.set("x-first-death-reason", std::string(dlq::SystemReasonName(policy.system, x.first)));
      break;
    }
    case dlq::System::kSqs:
      // No reason and no error: the body, its attributes and the receive count, and the source.
      record.set("body", e.payload);
      record.set("ApproximateReceiveCount", e.attempts);
      record.set("SentTimestamp", static_cast<double>(e.enqueued_at));
      record.set("sourceQueue", std::string(dlq::kSourceQueueName));
      break;
    case dlq::System::kBullMq:
      record.set("attemptsMade", e.attempts);
      record.set("stalledCounter", e.stalls);
      record.set("failedReason", e.last_error);
      record.set("finishedOn", static_cast<double>(e.arrived_at));
      break;
    case dlq::System::kSidekiq:
      record.set("retry_count", e.attempts - 1);
      record.set("error_message", e.last_error);
      break;
    case dlq::System::kLab: break;
  }
  return record;
}

val DiscardedValue(const dlq::Queue& q, double from, double count) {
  val out = val::array();
  const size_t n = q.stats().discarded;
  for (const dlq::DiscardedView& d : q.view().Discarded(QueueIndex(from, n), QueueIndex(count, n))) {
    val entry = val::object();
    entry.set("id", d.id);
    entry.set("payload", d.payload);
    entry.set("attempts", d.attempts);
    entry.set("reason", std::string(dlq::ReasonName(d.reason)));
    entry.set("systemReason", std::string(dlq::SystemReasonName(q.policy().system, d.reason)));
    entry.set("at", static_cast<double>(d.at));
    out.call<void>("push", entry);
  }
  return out;
}

val QuarantinedValue(const dlq::Queue& q, double from, double count) {
  val out = val::array();
  const size_t n = q.stats().quarantined;
  for (const dlq::QuarantineEntry& e : q.view().Quarantined(QueueIndex(from, n), QueueIndex(count, n))) {
    val entry = val::object();
    entry.set("id", e.id);
    entry.set("payload", e.payload);
    entry.set("attempts", e.attempts);
    entry.set("reason", std::string(dlq::ReasonName(e.reason)));
    // Only under a system's semantics: a lab queue's entries are as they always were.
    if (q.policy().system != dlq::System::kLab) {
      entry.set("systemReason", std::string(dlq::SystemReasonName(q.policy().system, e.reason)));
    }
    entry.set("lastError", e.last_error);
    entry.set("step", static_cast<double>(e.step));
    entry.set("class", std::string(dlq::ClassName(e.failure_class)));
    entry.set("alert", e.alert);
    entry.set("arrivedAt", static_cast<double>(e.arrived_at));
    entry.set("firstAttemptAt", static_cast<double>(e.first_attempt_at));
    entry.set("key", OrNull(e.key));
    entry.set("sourceQueue", e.source_queue);
    if (q.policy().system != dlq::System::kLab) entry.set("systemRecord", SystemRecordValue(q.policy(), e));
    if (e.retention_until >= 0) {
      entry.set("retentionFrom", static_cast<double>(e.retention_from));
      entry.set("retentionUntil", static_cast<double>(e.retention_until));
    }
    out.call<void>("push", entry);
  }
  return out;
}

val DelayedValue(const dlq::Queue& q, double from, double count) {
  val out = val::array();
  const size_t n = q.stats().delayed;
  for (const dlq::DelayedView& d : q.view().Delayed(QueueIndex(from, n), QueueIndex(count, n))) {
    val entry = val::object();
    entry.set("id", d.id);
    entry.set("payload", d.payload);
    entry.set("attempts", d.attempts);
    entry.set("dueAt", static_cast<double>(d.due_at));
    // Where it waits when not in the broker (policy.h, DelayAt): its sleeping worker, or the retry queue.
    if (q.policy().delay_at == dlq::DelayAt::kConsumerSleep) entry.set("waitsIn", std::string("worker"));
    if (q.policy().delay_at == dlq::DelayAt::kRetryQueue) entry.set("waitsIn", std::string(dlq::kRetryQueueName));
    out.call<void>("push", entry);
  }
  return out;
}

val LeasedValue(const dlq::Queue& q, double from, double count) {
  val out = val::array();
  const size_t n = q.stats().leased;
  for (const dlq::LeaseView& l : q.view().Leased(QueueIndex(from, n), QueueIndex(count, n))) {
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

val LedgerValue(const dlq::Queue& q) {
  const dlq::EffectLedger ledger = dlq::LedgerOf(q);
  val charges = val::array();
  for (const dlq::ChargeRecord& r : ledger.charges) {
    val c = val::object();
    c.set("id", r.id);
    c.set("attempt", r.attempt);
    c.set("at", static_cast<double>(r.at));
    c.set("applied", r.applied);
    c.set("crashed", r.crashed);
    c.set("outcome", std::string(dlq::OutcomeName(r.outcome)));
    charges.call<void>("push", c);
  }
  const auto ids = [](const std::vector<std::string>& list) {
    val out = val::array();
    for (const std::string& id : list) out.call<void>("push", id);
    return out;
  };
  val out = val::object();
  out.set("on", q.policy().effect_charge);
  out.set("keyed", q.policy().effect_idempotency_key);
  out.set("charges", charges);
  out.set("applied", static_cast<double>(ledger.applied));
  out.set("deduplicated", static_cast<double>(ledger.deduplicated));
  out.set("duplicates", static_cast<double>(ledger.duplicates));
  out.set("partial", static_cast<double>(ledger.partial));
  out.set("partialIds", ids(ledger.partial_ids));
  out.set("duplicateIds", ids(ledger.duplicate_ids));
  return out;
}

val StatsValue(const dlq::Queue& q) {
  const dlq::QueueStats s = q.stats();
  val out = val::object();
  out.set("step", static_cast<double>(s.step));
  out.set("ready", static_cast<double>(s.ready));
  out.set("completed", static_cast<double>(s.completed));
  out.set("quarantined", static_cast<double>(s.quarantined));
  out.set("events", static_cast<double>(s.events));
  out.set("maxAttempts", static_cast<double>(q.policy().max_attempts));
  out.set("now", static_cast<double>(s.now));
  out.set("actions", static_cast<double>(s.actions));
  out.set("delayed", static_cast<double>(s.delayed));
  out.set("leased", static_cast<double>(s.leased));
  out.set("reorders", static_cast<double>(s.reorders));
  out.set("expired", static_cast<double>(s.expired));
  out.set("lost", static_cast<double>(s.lost));
  // Only for a policy that can discard (no dead-letter exchange): other stats are as they always were.
  if (q.policy().DiscardsDeadLetters()) out.set("discarded", static_cast<double>(s.discarded));
  return out;
}

val TimelineValue(const dlq::Queue& q, double from, double count) {
  const size_t n = q.view().event_count();
  val out = val::array();
  for (const dlq::Event& e : q.view().Timeline(QueueIndex(from, n), QueueIndex(count, n))) {
    out.call<void>("push", EventValue(e));
  }
  return out;
}

// { met, clauses: [{ text, met, actual }] } for the goal text (goal.h), or the
// parse error. Checking never changes the queue.
val CheckGoalValue(const dlq::Queue& q, const std::string& text, const dlq::GoalContext& context) {
  dlq::Result<dlq::Goal> goal = dlq::ParseGoal(text);
  if (!goal.ok()) return ErrorValue(goal.status());
  const dlq::GoalCheck check = dlq::CheckGoal(goal.value(), q, context);
  val clauses = val::array();
  for (const dlq::ClauseCheck& c : check.clauses) {
    val clause = val::object();
    clause.set("text", c.text);
    clause.set("met", c.met);
    clause.set("actual", c.actual);
    clauses.call<void>("push", clause);
  }
  val out = val::object();
  out.set("met", check.met);
  out.set("clauses", clauses);
  return out;
}




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
                   if (r.keep_attempts) out.set("resetAttempts", false);
                 },
                 [&](const dlq::action::Enqueue& e) {
                   out.set("type", std::string("enqueue"));
                   out.set("id", e.id);
                   out.set("payload", e.payload);
                   if (!e.key.empty()) out.set("key", e.key);  // absent for none, as the action takes it
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
                 [&](const dlq::action::ReleaseKey& r) {
                   out.set("type", std::string("releaseKey"));
                   out.set("key", r.key);
                 },
                 [&](const dlq::action::Redrive& r) {
                   out.set("type", std::string("redrive"));
                   out.set("max", static_cast<double>(r.max));
                   if (r.only.failure_class) out.set("class", std::string(dlq::ClassName(*r.only.failure_class)));
                   if (r.only.reason != dlq::Reason::kNone) out.set("reason", std::string(dlq::ReasonName(r.only.reason)));
                 },
                 [&](const dlq::action::Crash& c) {
                   out.set("type", std::string("crash"));
                   out.set("after", static_cast<double>(c.after));
                   out.set("torn", c.torn);
                 },
                 [&](const dlq::action::Patch& pa) {
                   out.set("type", std::string("patch"));
                   out.set("id", pa.id);
                   out.set("payload", pa.payload);
                 },
             },
             a);
  return out;
}

// { workers, workMs, outage: { startMs, endMs } | null, behaviours: [{ id, kind, … }] }.
val WorldValue(const dlq::World& w) {
  val out = val::object();
  // An empty outage (start equal to end) is none: null.
  WriteFields(w, dlq::WorldFields(), out, [&](const dlq::FieldSpec& spec) {
    return w.outage_start != w.outage_end || std::string_view(spec.name).rfind("outage.", 0) != 0;
  });
  if (w.outage_start == w.outage_end) out.set("outage", val::null());
  val list = val::array();
  for (const dlq::JobBehaviour& jb : w.behaviours) {
    const dlq::Behaviour& b = jb.behaviour;
    val item = val::object();
    item.set("id", jb.id);
    item.set("kind", std::string(dlq::BehaviourKindName(b.kind)));
    switch (b.kind) {
      case dlq::BehaviourKind::kPoison: item.set("failure", std::string(dlq::OutcomeName(b.failure))); break;
      case dlq::BehaviourKind::kFlaky:
      case dlq::BehaviourKind::kCrashes: item.set("count", static_cast<double>(b.count)); break;
      case dlq::BehaviourKind::kPrecondition: item.set("until", static_cast<double>(b.until)); break;
      case dlq::BehaviourKind::kScript: item.set("script", b.script); break;
      case dlq::BehaviourKind::kHealthy:
      case dlq::BehaviourKind::kMalformed: break;
    }
    item.set("needsDependency", b.needs_dependency);
    list.call<void>("push", item);
  }
  out.set("behaviours", list);
  return out;
}

// A world object built by index.mjs ({ workers?, workMs?, outage?, behaviours? });
// `prefix` ("" or "scenario.") goes in front of every name. Ranges and names are the core's.
dlq::Result<dlq::World> WorldFromValue(val in, const std::string& prefix) {
  const std::string name = prefix + "world";
  if (!IsObject(in)) return NotA(name, "an object");
  dlq::World w;
  // The scalars by the table; `outage` may be null (none).
  if (dlq::Status s = ReadFields(in, dlq::WorldFields(), "world.", prefix, &w, "outage"); !s.ok()) return s;
  val list = in["behaviours"];
  if (!list.isUndefined()) {
    size_t count = 0;
    if (dlq::Status s = ReadLength(list, name + ".behaviours", dlq::kMaxScenarioItems, &count); !s.ok()) return s;
    w.behaviours.resize(count);
    for (size_t i = 0; i < count; ++i) {
      val item = list[i];
      const std::string at = name + ".behaviours[" + std::to_string(i) + "]";
      if (!IsObject(item)) return NotA(at, "an object");
      dlq::JobBehaviour& jb = w.behaviours[i];
      dlq::Behaviour& b = jb.behaviour;
      if (dlq::Status s = ReadString(item["id"], at + ".id", &jb.id); !s.ok()) return s;
      std::string kind;
      if (dlq::Status s = ReadString(item["kind"], at + ".kind", &kind); !s.ok()) return s;
      dlq::Result<dlq::BehaviourKind> parsed = dlq::ParseBehaviourKind(kind);
      if (!parsed.ok()) return dlq::Status::Error(parsed.status().code(), at + "." + parsed.status().message().substr(10));
      b.kind = parsed.value();
      val failure = item["failure"];
      if (!failure.isUndefined()) {
        std::string text;
        if (dlq::Status s = ReadString(failure, at + ".failure", &text); !s.ok()) return s;
        dlq::Result<dlq::Outcome> outcome = dlq::ParseOutcome(text);
        if (!outcome.ok()) return dlq::Status::InvalidArgument(at + ".failure: " + outcome.status().message());
        b.failure = outcome.value();
      }
      for (const auto& [field, target] : {std::pair{"count", &b.count}, std::pair{"until", &b.until}}) {
        val v = item[field];
        if (v.isUndefined()) continue;
        double number = 0;
        if (dlq::Status s = ReadNumber(v, at + "." + field, &number); !s.ok()) return s;
        if (number != std::trunc(number) || number < -1e18 || number > 1e18) {
          return dlq::Status::OutOfRange(at + "." + field + " must be an integer, got " + dlq::DescribeNumber(number));
        }
        *target = static_cast<int64_t>(number);
      }
      val script = item["script"];
      if (!script.isUndefined()) {
        if (dlq::Status s = ReadString(script, at + ".script", &b.script); !s.ok()) return s;
      }
      if (dlq::Status s = ReadBoolean(item["needsDependency"], at + ".needsDependency", &b.needs_dependency); !s.ok()) {
        return s;
      }
    }
  }
  // Range messages name the core's field ("world.workers"), as policy fields do in scenario objects.
  if (dlq::Status s = dlq::CheckWorld(w); !s.ok()) return s;
  return w;
}

val ScenarioValue(const dlq::Scenario& s) {
  val out = val::object();
  SetPolicyFields(out, s.policy);
  val jobs = val::array();
  for (const dlq::JobSpec& j : s.jobs) {
    val job = val::object();
    job.set("id", j.id);
    job.set("payload", j.payload);
    if (!j.key.empty()) job.set("key", j.key);  // as a scenario object takes it: absent for none
    jobs.call<void>("push", job);
  }
  out.set("jobs", jobs);
  val actions = val::array();
  for (const dlq::Action& a : s.actions) actions.call<void>("push", ActionValue(a));
  out.set("actions", actions);
  out.set("cursor", static_cast<double>(s.cursor));
  if (!(s.world == dlq::World{})) out.set("world", WorldValue(s.world));  // absent: nobody plays it
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
dlq::Result<dlq::RedriveFilter> RedriveFilterFromValue(const val& in, const std::string& name) {
  dlq::RedriveFilter only;
  if (val c = in["class"]; !c.isUndefined()) {
    std::string text;
    if (dlq::Status st = ReadString(c, name + ".class", &text); !st.ok()) return st;
    dlq::Result<dlq::FailureClass> parsed = dlq::ParseClass(text);
    if (!parsed.ok()) return dlq::Status::Error(parsed.status().code(), name + ".class: " + parsed.status().message());
    only.failure_class = parsed.value();
  }
  if (val r = in["reason"]; !r.isUndefined()) {
    std::string text;
    if (dlq::Status st = ReadString(r, name + ".reason", &text); !st.ok()) return st;
    if (text == dlq::ReasonName(dlq::Reason::kPermanent)) only.reason = dlq::Reason::kPermanent;
    else if (text == dlq::ReasonName(dlq::Reason::kExhausted)) only.reason = dlq::Reason::kExhausted;
    else return dlq::Status::InvalidArgument(name + ".reason must be \"permanent\" or \"exhausted\", got " + dlq::QuoteShort(text));
  }
  return only;
}

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
    if (val reset = a["resetAttempts"]; !reset.isUndefined()) {  // false: bullmq's retry without a reset
      bool resets = true;
      if (dlq::Status st = ReadBoolean(reset, name + ".resetAttempts", &resets); !st.ok()) return st;
      r.keep_attempts = !resets;
    }
    return dlq::Action(std::move(r));
  }
  if (type == "enqueue") {
    dlq::action::Enqueue e;
    if (dlq::Status st = ReadString(a["id"], name + ".id", &e.id); !st.ok()) return st;
    if (dlq::Status st = ReadString(a["payload"], name + ".payload", &e.payload); !st.ok()) return st;
    val key = a["key"];
    if (!key.isUndefined()) {
      if (dlq::Status st = ReadString(key, name + ".key", &e.key); !st.ok()) return st;
    }
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
  if (type == "patch") {
    dlq::action::Patch pa;
    if (dlq::Status st = ReadString(a["id"], name + ".id", &pa.id); !st.ok()) return st;
    if (dlq::Status st = ReadString(a["payload"], name + ".payload", &pa.payload); !st.ok()) return st;
    return dlq::Action(std::move(pa));
  }
  if (type == "releaseKey") {
    dlq::action::ReleaseKey r;
    if (dlq::Status st = ReadString(a["key"], name + ".key", &r.key); !st.ok()) return st;
    return dlq::Action(std::move(r));
  }
  if (type == "redrive") {
    double max = 0;
    if (dlq::Status st = ReadNumber(a["max"], name + ".max", &max); !st.ok()) return st;
    if (dlq::Status st = dlq::kRedriveMaxField.Check(max); !st.ok()) {
      return dlq::Status::Error(st.code(), name + "." + st.message());
    }
    dlq::action::Redrive redrive{static_cast<int64_t>(max)};
    // Optional: only entries of one failure class, and/or of one reason.
    dlq::Result<dlq::RedriveFilter> only = RedriveFilterFromValue(a, name);
    if (!only.ok()) return only.status();
    redrive.only = only.value();
    return dlq::Action(std::move(redrive));
  }
  if (type == "crash") {
    double after = 0;
    if (dlq::Status st = ReadNumber(a["after"], name + ".after", &after); !st.ok()) return st;
    if (dlq::Status st = dlq::kCrashAfterField.Check(after); !st.ok()) {
      return dlq::Status::Error(st.code(), name + "." + st.message());
    }
    bool torn = false;
    if (val t = a["torn"]; !t.isUndefined()) {
      if (dlq::Status st = ReadBoolean(t, name + ".torn", &torn); !st.ok()) return st;
    }
    return dlq::Action(dlq::action::Crash{static_cast<int64_t>(after), torn});
  }
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
    val key = job["key"];
    if (!key.isUndefined()) {
      if (dlq::Status st = ReadString(key, name + ".key", &s.jobs[i].key); !st.ok()) return st;
    }
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
  val world = in["world"];
  if (!world.isUndefined()) {
    dlq::Result<dlq::World> w = WorldFromValue(world, "scenario.");
    if (!w.ok()) return w.status();
    s.world = std::move(w).value();
  }
  return s;
}

// The link text of a scenario object, or the error the core would give loading it.
val FormatScenarioValue(val in) {
  dlq::Result<dlq::Scenario> s = ScenarioFromValue(in);
  if (!s.ok()) return ErrorValue(s.status());
  dlq::Result<std::string> text = dlq::ShareScenario(s.value());
  return text.ok() ? val(text.value()) : ErrorValue(text.status());
}

// { version, lessonOne } for a scenario object: the link version it is written
// in (1 when lesson 1's format can carry it, FitsV1), and whether it is lesson 1's.
val ScenarioFeaturesValue(val in) {
  dlq::Result<dlq::Scenario> s = ScenarioFromValue(in);
  if (!s.ok()) return ErrorValue(s.status());
  const int version = dlq::LinkVersionOf(s.value());
  val out = val::object();
  out.set("version", version);
  out.set("lessonOne", version == 1);
  return out;
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
// take, by object: { policy, backoff, classRule, world, storm, contention, schedule }
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
