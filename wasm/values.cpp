// Conversions every handle shares (values.h declares them): the error value,
// jobs, events, a policy out and in, and the readers of plain values built by
// index.mjs, type-checked before any as<T>(). The boundary rules at the top of
// lab_binding.cpp hold for every one of them.
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "dlq.h"
#include "schema_value.h"
#include "text.h"
#include "values.h"

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
  const bool delaying =
      e.kind == EventKind::kDelayed ||
      ((e.kind == EventKind::kAttempt || e.kind == EventKind::kExpired) && e.disposition == dlq::Disposition::kDelayed);
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
  // An SQS move task's replay: the moved message's new MessageId.
  if (!e.message_id.empty()) out.set("messageId", e.message_id);
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
  if (!v.instanceof (val::global("Uint8Array"))) return NotA(name, "a Uint8Array");
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
        return dlq::Status::InvalidArgument(owner + "backoff must be a backoff object or \"" + dlq::kPolicyBackoffName +
                                            "\" (the policy's), got " + dlq::QuoteShort(text));
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

}  // namespace dlq_wasm
