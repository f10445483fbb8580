// Embind binding of one queue (core/queue/queue.h): lab.createQueue(),
// restoreQueue(), recover() and runScenario() in index.mjs. Conversion only.
#include <emscripten/bind.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dlq.h"
#include "text.h"
#include "values.h"

namespace dlq_wasm {
namespace {

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

// Sets the keys of jobs unpacked by UnpackJobs from a third NUL-joined string (an
// empty field: no key); false if it does not hold exactly out->size() fields.
bool UnpackKeys(const std::string& keys, std::vector<dlq::JobRef>* out) {
  const std::string_view text(keys);
  size_t at = 0;
  for (size_t i = 0; i < out->size(); ++i) {
    const size_t end = text.find('\0', at);
    if ((i + 1 == out->size()) != (end == std::string_view::npos)) return false;
    (*out)[i].key = text.substr(at, end - at);
    at = end + 1;
  }
  return true;
}

// Splits the journal records index.mjs packed as one NUL-joined string into
// `out` (views into `text`); false if it does not hold exactly `count` fields.
bool UnpackRecords(std::string_view text, size_t count, std::vector<std::string_view>* out) {
  if (count == 0) return text.empty();
  out->reserve(count);
  size_t at = 0;
  for (size_t i = 0; i < count; ++i) {
    const size_t end = text.find('\0', at);
    // Every field but the last ends at a NUL; the last one must hold none.
    if ((i + 1 == count) != (end == std::string_view::npos)) return false;
    out->push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return true;
}

// Recover()'s options from what index.mjs passes: crash_after undefined (the
// whole journal) or a safe integer (the core checks its range).
dlq::Status ReadRecoverOptions(const val& crash_after, bool torn, dlq::RecoverOptions* out) {
  out->torn = torn;
  if (crash_after.isUndefined()) return dlq::Status::Ok();
  double k = 0;
  if (dlq::Status s = ReadNumber(crash_after, "crashAfter", &k); !s.ok()) return s;
  out->crash_after = static_cast<int64_t>(std::clamp(k, -1e18, 1e18));  // clamped before narrowing
  return dlq::Status::Ok();
}

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
    dlq::JournalOrigin origin;
    dlq::Result<dlq::Queue> made = dlq::RunScenario(scenario.value(), &origin);
    if (!made.ok()) return ErrorValue(made.status());
    queue_.emplace(std::move(made).value());
    origin_ = std::move(origin);
    return val::null();
  }

  val initFromScenarioObject(val object) {
    dlq::Result<dlq::Scenario> scenario = ScenarioFromValue(object);
    if (!scenario.ok()) return ErrorValue(scenario.status());
    dlq::JournalOrigin origin;
    dlq::Result<dlq::Queue> made = dlq::RunScenario(scenario.value(), &origin);
    if (!made.ok()) return ErrorValue(made.status());
    queue_.emplace(std::move(made).value());
    origin_ = std::move(origin);
    return val::null();
  }

  // A queue from a snapshot text (Queue::Restore).
  val initFromSnapshot(const std::string& text) {
    dlq::Result<dlq::Queue> made = dlq::Queue::Restore(text);
    if (!made.ok()) return ErrorValue(made.status());
    queue_.emplace(std::move(made).value());
    origin_ = text;  // its journal follows this snapshot
    return val::null();
  }

  // The queue Queue::Recover() rebuilds from the snapshot (`snapshot` when
  // `from_snapshot`, else from creation) and the journal's records, packed by
  // index.mjs as one NUL-joined string of `count` fields; false when they do
  // not split into `count` fields (a record held NUL itself). Returns
  // { lost, duplicated, applied, tornDiscarded }, or the core's error.
  val initFromRecoveryPacked(bool from_snapshot, const std::string& snapshot, const std::string& records, double count,
                             val crash_after, bool torn) {
    std::vector<std::string_view> journal;
    if (!UnpackRecords(records, static_cast<size_t>(count), &journal)) return val(false);
    return Recover(from_snapshot, snapshot, journal, crash_after, torn);
  }

  // Like initFromRecoveryPacked, the records as a JS array of strings (for records that contain NUL).
  val initFromRecoveryArray(bool from_snapshot, const std::string& snapshot, val records, val crash_after, bool torn) {
    size_t n = 0;
    if (dlq::Status s = ReadLength(records, "journal", dlq::kMaxJournalRecords, &n); !s.ok()) return ErrorValue(s);
    std::vector<std::string> owned(n);  // the records the views point into
    for (size_t i = 0; i < n; ++i) {
      if (dlq::Status s = ReadString(records[i], "journal[" + std::to_string(i) + "]", &owned[i]); !s.ok()) {
        return ErrorValue(s);
      }
    }
    return Recover(from_snapshot, snapshot, std::vector<std::string_view>(owned.begin(), owned.end()), crash_after,
                   torn);
  }

  // `key` "" for none (index.mjs refuses an empty key before it gets here).
  val enqueue(const std::string& id, const std::string& payload, const std::string& key) {
    dlq::Status s = queue_->Enqueue(id, payload, key);
    return s.ok() ? val::null() : ErrorValue(s);
  }

  // ids and payloads packed as NUL-joined strings, UTF-8 in Uint8Arrays (see
  // index.mjs); false when they do not split into `count` fields (a string held
  // NUL itself).
  val enqueuePacked(val id_bytes, val payload_bytes, double count) {
    std::string ids, payloads;
    if (dlq::Status s = ReadBytes(id_bytes, "ids", &ids); !s.ok()) return ErrorValue(s);
    if (dlq::Status s = ReadBytes(payload_bytes, "payloads", &payloads); !s.ok()) return ErrorValue(s);
    std::vector<dlq::JobRef> jobs;
    if (!UnpackJobs(ids, payloads, static_cast<size_t>(count), &jobs)) return val(false);
    dlq::Status s = queue_->EnqueueMany(jobs);
    return s.ok() ? val::null() : ErrorValue(s);
  }

  // Like enqueuePacked, with the jobs' keys as a third NUL-joined string (an
  // empty field: no key), for batches where some job has one.
  val enqueuePackedKeys(val id_bytes, val payload_bytes, val key_bytes, double count) {
    std::string ids, payloads, keys;
    if (dlq::Status s = ReadBytes(id_bytes, "ids", &ids); !s.ok()) return ErrorValue(s);
    if (dlq::Status s = ReadBytes(payload_bytes, "payloads", &payloads); !s.ok()) return ErrorValue(s);
    if (dlq::Status s = ReadBytes(key_bytes, "keys", &keys); !s.ok()) return ErrorValue(s);
    std::vector<dlq::JobRef> jobs;
    if (!UnpackJobs(ids, payloads, static_cast<size_t>(count), &jobs) || !UnpackKeys(keys, &jobs)) return val(false);
    dlq::Status s = queue_->EnqueueMany(jobs);
    return s.ok() ? val::null() : ErrorValue(s);
  }

  // Jobs as a JS array of { id, payload, key? }, for batches whose strings contain NUL.
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
      val key = job["key"];
      if (!key.isUndefined()) {
        if (dlq::Status s = ReadString(key, name + ".key", &specs[i].key); !s.ok()) return ErrorValue(s);
      }
      refs[i] = {specs[i].id, specs[i].payload, specs[i].key};
    }
    dlq::Status s = queue_->EnqueueMany(refs);
    return s.ok() ? val::null() : ErrorValue(s);
  }

  val process(const std::string& outcome, const std::string& error_text) {
    dlq::Result<dlq::Attempt> r = queue_->Process(outcome, error_text);
    if (!r.ok()) return ErrorValue(r.status());
    return r.value().processed ? AttemptValue(r.value()) : val::null();
  }

  // `outcome_bytes`: the letters as a Uint8Array (index.mjs wireBytes).
  val processMany(val outcome_bytes, const std::string& error_text) {
    std::string outcomes;
    if (dlq::Status s = ReadBytes(outcome_bytes, "outcomes", &outcomes); !s.ok()) return ErrorValue(s);
    dlq::Result<uint64_t> r = queue_->ProcessMany(outcomes, error_text);
    if (!r.ok()) return ErrorValue(r.status());
    return val(static_cast<double>(r.value()));
  }

  bool replay(const std::string& id) { return queue_->Replay(id); }
  // true/false as replay, or an error value (a system other than bullmq).
  val replayKeepingAttempts(const std::string& id) {
    dlq::Result<bool> r = queue_->ReplayKeepingAttempts(id);
    if (!r.ok()) return ErrorValue(r.status());
    return val(r.value());
  }

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

  double now() const { return static_cast<double>(queue_->stats().now); }

  // true once the quarantined job `id` has the new payload, or an error.
  val patch(const std::string& id, const std::string& payload) {
    const dlq::Status s = queue_->Patch(id, payload);
    return s.ok() ? val(true) : ErrorValue(s);
  }

  // How many quarantined (or expired) holders of `key` stopped holding it.
  val releaseKey(const std::string& key) {
    dlq::Result<uint64_t> r = queue_->ReleaseKey(key);
    return r.ok() ? val(static_cast<double>(r.value())) : ErrorValue(r.status());
  }

  // { action }: the world's next action on this queue (player.h), as a scenario
  // action object, or null when nothing will happen again. Changes nothing.
  val nextWorldAction(val world) const {
    dlq::Result<dlq::World> w = WorldFromValue(world, "");
    if (!w.ok()) return ErrorValue(w.status());
    const std::optional<dlq::Action> next = dlq::NextWorldAction(*queue_, w.value());
    // Wrapped: an action's own "error" field (a worker's error text) must not read as a refusal.
    val out = val::object();
    out.set("action", next ? ActionValue(*next) : val::null());
    return out;
  }

  // Any number: the core refuses all but an integer in its "max" field's range.
  val redrive(double max) {
    dlq::Result<uint64_t> r = queue_->Redrive(max);
    return r.ok() ? val(static_cast<double>(r.value())) : ErrorValue(r.status());
  }

  // { raised, depth, threshold }.
  val alarm() const { return AlarmValue(*queue_); }

  // [{ key, id, overtook: [ids] }], in the order they happened; a slice like the views.
  val reorders(double from, double count) const { return ReordersValue(*queue_, from, count); }

  val worstCase() const { return WorstCaseValue(*queue_); }

  // The whole policy, `journal` included (scenario objects leave it out: no link carries it).
  val policy() const { return PolicyValue(*queue_); }

  // The snapshot text; it starts a new journal (Queue::Snapshot).
  val snapshot() {
    dlq::Result<std::string> text = queue_->Snapshot();
    if (!text.ok()) return ErrorValue(text.status());
    origin_ = text.value();  // the journal starts again here
    return val(text.value());
  }

  // One scenario action (an object index.mjs built), applied as a script plays
  // it (ApplyAction): refused when it would find nothing to do, named "apply: ".
  // Returns null, or for a crash { applied, journal, tornDiscarded, lost, duplicated }.
  val apply(val action) {
    dlq::Result<dlq::Action> parsed = ActionFromValue(action, "action");
    if (!parsed.ok()) return ErrorValue(parsed.status());
    dlq::CrashReport crash;
    if (dlq::Status s = dlq::ApplyAction(*queue_, origin_, parsed.value(), std::string("apply: "), &crash); !s.ok()) {
      return ErrorValue(s);
    }
    if (!std::holds_alternative<dlq::action::Crash>(parsed.value())) return val::null();
    return CrashReportValue(crash);
  }

  // The same text, the journal untouched (Queue::SnapshotText).
  val snapshotText() const {
    dlq::Result<std::string> text = queue_->view().SnapshotText();
    return text.ok() ? val(text.value()) : ErrorValue(text.status());
  }

  // [{ write, op, id, record }] since the last snapshot (or creation); id null for
  // the writes of no job (create, clock).
  val journal() const { return JournalValue(*queue_); }

  // { <class name>: { retry, maxAttempts, backoff, alert } }: every class's rule in
  // force, as Policy::RuleFor resolves it (maxAttempts capped, backoff filled in).
  val rules() const { return RulesValue(*queue_); }

  // Where job `id` is now ({ place, attempts, and its place's fields }), or null
  // for an id this queue was never given. One lookup, no pass over a view.
  val locate(const std::string& id) const { return LocateValue(*queue_, id); }

  // Slices: from and count are non-negative numbers (count may be Infinity).
  val ready(double from, double count) const { return ReadyValue(*queue_, from, count); }
  val completed(double from, double count) const { return CompletedValue(*queue_, from, count); }

  val quarantined(double from, double count) const { return QuarantinedValue(*queue_, from, count); }
  val discarded(double from, double count) const { return DiscardedValue(*queue_, from, count); }

  val delayed(double from, double count) const { return DelayedValue(*queue_, from, count); }

  val leased(double from, double count) const { return LeasedValue(*queue_, from, count); }

  val stats() const { return StatsValue(*queue_); }

  val timeline(double from, double count) const { return TimelineValue(*queue_, from, count); }

  std::string timelineText() const { return queue_->view().TimelineText(); }

  // { met, clauses: [{ text, met, actual }] } for the goal text (goal.h), or the
  // parse error. Checking never changes the queue.
  val checkGoal(const std::string& text) const { return CheckGoalValue(*queue_, text); }

 private:
  val Recover(bool from_snapshot, const std::string& snapshot, const std::vector<std::string_view>& journal,
              const val& crash_after, bool torn) {
    dlq::RecoverOptions options;
    if (dlq::Status s = ReadRecoverOptions(crash_after, torn, &options); !s.ok()) return ErrorValue(s);
    dlq::Result<dlq::Recovery> r =
        dlq::Queue::Recover(from_snapshot ? std::optional<std::string_view>(snapshot) : std::nullopt, journal, options);
    if (!r.ok()) return ErrorValue(r.status());
    dlq::Recovery& recovery = r.value();
    queue_.emplace(std::move(recovery.queue));
    origin_.reset();
    if (dlq::Result<std::string> text = queue_->view().SnapshotText(); text.ok()) origin_ = text.value();
    val out = val::object();
    out.set("lost", StringsValue(recovery.lost));
    out.set("duplicated", StringsValue(recovery.duplicated));
    out.set("applied", static_cast<double>(recovery.applied));
    out.set("tornDiscarded", recovery.torn_discarded);
    return out;
  }

  // A non-negative number (or Infinity) from JS as an index, clamped to `limit`
  // before narrowing so no double beyond size_t is ever converted.
  static size_t Index(double value, size_t limit) {
    return static_cast<size_t>(std::min(value, static_cast<double>(limit)));
  }

  static val Jobs(const std::vector<dlq::JobView>& jobs, bool held_by) {
    val out = val::array();
    for (const dlq::JobView& j : jobs) out.call<void>("push", JobValue(j, held_by));
    return out;
  }

  std::optional<dlq::Queue> queue_;
  // The state the queue's journal follows (none: its creation), for a crash action.
  dlq::JournalOrigin origin_;
};

}  // namespace
}  // namespace dlq_wasm

EMSCRIPTEN_BINDINGS(dlq_queue) {
  using dlq_wasm::QueueHandle;
  emscripten::class_<QueueHandle>("QueueHandle")
      .constructor<>()
      .function("init", &QueueHandle::init)
      .function("initFromScenario", &QueueHandle::initFromScenario)
      .function("apply", &QueueHandle::apply)
      .function("nextWorldAction", &QueueHandle::nextWorldAction)
      .function("initFromScenarioObject", &QueueHandle::initFromScenarioObject)
      .function("initFromSnapshot", &QueueHandle::initFromSnapshot)
      .function("initFromRecoveryPacked", &QueueHandle::initFromRecoveryPacked)
      .function("initFromRecoveryArray", &QueueHandle::initFromRecoveryArray)
      .function("enqueue", &QueueHandle::enqueue)
      .function("enqueuePacked", &QueueHandle::enqueuePacked)
      .function("enqueuePackedKeys", &QueueHandle::enqueuePackedKeys)
      .function("enqueueArray", &QueueHandle::enqueueArray)
      .function("process", &QueueHandle::process)
      .function("processMany", &QueueHandle::processMany)
      .function("replay", &QueueHandle::replay)
      .function("replayKeepingAttempts", &QueueHandle::replayKeepingAttempts)
      .function("locate", &QueueHandle::locate)
      .function("lease", &QueueHandle::lease)
      .function("settle", &QueueHandle::settle)
      .function("advance", &QueueHandle::advance)
      .function("advanceToNext", &QueueHandle::advanceToNext)
      .function("releaseKey", &QueueHandle::releaseKey)
      .function("patch", &QueueHandle::patch)
      .function("redrive", &QueueHandle::redrive)
      .function("alarm", &QueueHandle::alarm)
      .function("reorders", &QueueHandle::reorders)
      .function("now", &QueueHandle::now)
      .function("worstCase", &QueueHandle::worstCase)
      .function("policy", &QueueHandle::policy)
      .function("rules", &QueueHandle::rules)
      .function("snapshot", &QueueHandle::snapshot)
      .function("snapshotText", &QueueHandle::snapshotText)
      .function("journal", &QueueHandle::journal)
      .function("delayed", &QueueHandle::delayed)
      .function("leased", &QueueHandle::leased)
      .function("ready", &QueueHandle::ready)
      .function("completed", &QueueHandle::completed)
      .function("quarantined", &QueueHandle::quarantined)
      .function("discarded", &QueueHandle::discarded)
      .function("stats", &QueueHandle::stats)
      .function("timeline", &QueueHandle::timeline)
      .function("timelineText", &QueueHandle::timelineText)
      .function("checkGoal", &QueueHandle::checkGoal);
}
