// A queue's reads as plain JS values (values.h declares them), shared by the
// queue and session handles: slices of its places, its stats, alarm, journal,
// ledger, a job's place, a goal's check. Conversion only.
#include <emscripten/val.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "dlq.h"
#include "goal.h"
#include "registry.h"
#include "schema_value.h"
#include "text.h"
#include "values.h"

namespace dlq_wasm {

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

namespace {

// A system's dead-letter record (SystemRules::Record) as a plain object, field by
// field in the system's own order and names. Conversion only: what each system
// keeps is its module's (core/systems/).
val RecordValue(const dlq::DeadLetterRecord& fields);

val RecordFieldValue(const dlq::RecordField& field) {
  switch (field.kind) {
    case dlq::RecordField::Kind::kNumber:
    case dlq::RecordField::Kind::kTime: return val(field.number);
    case dlq::RecordField::Kind::kText: return val(field.text);
    case dlq::RecordField::Kind::kList: {
      val items = val::array();
      for (const dlq::DeadLetterRecord& item : field.list) items.call<void>("push", RecordValue(item));
      return items;
    }
  }
  return val::undefined();
}

val RecordValue(const dlq::DeadLetterRecord& fields) {
  val record = val::object();
  for (const dlq::RecordField& field : fields) record.set(field.name, RecordFieldValue(field));
  return record;
}

// The names of a record's time fields (RecordField::kTime), a list's items' included,
// each once: the page shows them as instants, the rest as the system has them.
void TimeFieldNames(const dlq::DeadLetterRecord& fields, std::vector<std::string>* names) {
  for (const dlq::RecordField& field : fields) {
    if (field.kind == dlq::RecordField::Kind::kTime &&
        std::find(names->begin(), names->end(), field.name) == names->end()) {
      names->push_back(field.name);
    }
    for (const dlq::DeadLetterRecord& item : field.list) TimeFieldNames(item, names);
  }
}

// The entry as its system itself records it (docs/real-systems.md): what an
// operator of that system would see in its DLQ, under the policy in force (RecordUnder).
// Sets systemRecord, its title (SystemRules::RecordTitle) and systemRecordTimes (the
// names of its time fields).
void SetSystemRecord(val& entry, const dlq::SystemRules& system, const dlq::Policy& policy,
                     const dlq::QuarantineEntry& e) {
  dlq::EntryFacts facts;
  facts.id = e.id;
  facts.payload = e.payload;
  facts.attempts = e.attempts;
  facts.stalls = e.stalls;
  facts.last_error = e.last_error;
  facts.arrived_at = e.arrived_at;
  facts.enqueued_at = e.enqueued_at;
  facts.x_death = e.x_death;
  facts.reason = e.reason;
  facts.moves = e.moves;
  facts.failure_class = e.failure_class;
  const dlq::DeadLetterRecord record = system.RecordUnder(policy, facts);
  std::vector<std::string> times;
  TimeFieldNames(record, &times);
  val names = val::array();
  for (const std::string& name : times) names.call<void>("push", name);
  entry.set("systemRecord", RecordValue(record));
  entry.set("systemRecordTitle", std::string(system.RecordTitle()));
  entry.set("systemRecordTimes", names);
}

}  // namespace

val DiscardedValue(const dlq::Queue& q, double from, double count) {
  val out = val::array();
  const size_t n = q.stats().discarded;
  for (const dlq::DiscardedView& d : q.view().Discarded(QueueIndex(from, n), QueueIndex(count, n))) {
    val entry = val::object();
    entry.set("id", d.id);
    entry.set("payload", d.payload);
    entry.set("attempts", d.attempts);
    entry.set("reason", std::string(dlq::ReasonName(d.reason)));
    entry.set("systemReason", std::string(dlq::SystemOf(q.policy()).ReasonName(d.reason)));
    entry.set("at", static_cast<double>(d.at));
    out.call<void>("push", entry);
  }
  return out;
}

val QuarantinedValue(const dlq::Queue& q, double from, double count) {
  val out = val::array();
  const size_t n = q.stats().quarantined;
  const dlq::SystemRules& system = dlq::SystemOf(q.policy());
  for (const dlq::QuarantineEntry& e : q.view().Quarantined(QueueIndex(from, n), QueueIndex(count, n))) {
    val entry = val::object();
    entry.set("id", e.id);
    entry.set("payload", e.payload);
    entry.set("attempts", e.attempts);
    entry.set("reason", std::string(dlq::ReasonName(e.reason)));
    // Only under a system's semantics: a lab queue's entries are as they always were.
    if (system.DescribesEntries()) entry.set("systemReason", std::string(system.ReasonName(e.reason)));
    entry.set("lastError", e.last_error);
    entry.set("step", static_cast<double>(e.step));
    entry.set("class", std::string(dlq::ClassName(e.failure_class)));
    entry.set("alert", e.alert);
    entry.set("arrivedAt", static_cast<double>(e.arrived_at));
    entry.set("firstAttemptAt", static_cast<double>(e.first_attempt_at));
    entry.set("key", OrNull(e.key));
    entry.set("sourceQueue", e.source_queue);
    if (system.DescribesEntries()) SetSystemRecord(entry, system, q.policy(), e);
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

}  // namespace dlq_wasm
