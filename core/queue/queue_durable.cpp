// Queue's durable side: its image (durable.h), the journal it writes, snapshots
// and restoring them. Recovery after a crash is in recovery.cpp.
#include <algorithm>

#include "crc32.h"
#include "durable_text.h"
#include "queue_core.h"
#include "text.h"

namespace dlq {

using durable::Entry;
using durable::Image;
using durable::Write;
using durable::WriteOp;

durable::JobRow QueueCore::RowOf(uint32_t index) const {
  const StoredJob& j = jobs_[index];
  return {j.attempts, j.first_attempt_at, j.last_delay,      j.reason,   j.failure_class, j.alert,
          j.last_error, j.quarantine_step, j.arrived_at,     j.stalls,   records_.EnqueuedAt(index), records_.XDeathOf(index),
          records_.TtlFrom(index)};
}

durable::Meta QueueCore::MetaNow() const {
  durable::Meta m;
  m.now = now_;
  m.step = step_;
  m.actions = actions_;
  m.timer_seq = timer_seq_;
  m.ready_head = ready_head_;
  m.ready_tail = ready_tail_;
  m.arrivals = arrivals_;
  m.alarm_raised = alarm_raised_;
  m.expired = expired_;
  m.jitter = jitter_.state();
  return m;
}

// ---- the journal ----------------------------------------------------------------

void QueueCore::Emit(Write&& w, uint32_t job) {
  if (!policy_.journal) return;
  w.seq = journal_.next_seq();
  w.prev = journal_.prev_check();
  w.meta = MetaNow();
  for (size_t k = journal_.marks.errors; k < jobs_.error_count(); ++k) {
    w.errors.emplace_back(jobs_.ErrorText(static_cast<uint32_t>(k + 1)));
  }
  for (size_t k = journal_.marks.events; k < events_.size(); ++k) w.events.push_back(events_[k]);
  for (size_t k = journal_.marks.reorders; k < reorder_job_.size(); ++k) {
    w.reorders.push_back({reorder_job_[k], reorder_overtook_[k]});
  }
  journal_.marks = {events_.size(), jobs_.error_count(), reorder_job_.size()};
  uint32_t check = 0;
  std::string text = durable::EncodeWrite(w, &check);
  charge_.Add(cost::JournalRecord(text.size()));  // room checked by the caller (cost::kJournalMove)
  journal_.Push({w.op, job, check, std::move(text)});
}

void QueueCore::EmitCreate() {
  if (!policy_.journal) return;
  Write w;
  w.op = WriteOp::kCreate;
  w.policy = policy_;
  Emit(std::move(w), UINT32_MAX);
}

void QueueCore::EmitClock() {
  if (!policy_.journal) return;
  Write w;
  w.op = WriteOp::kClock;
  Emit(std::move(w), UINT32_MAX);
}

void QueueCore::EmitMove(uint32_t index, const Source& from) {
  EmitMoveWrites(index, from);
  // A lazy trim (bullmq, sidekiq) the move's arrival in quarantine asked for runs once
  // the move is written, so its removals follow the arrival, even of the new entry itself.
  if (trim_due_) {
    trim_due_ = false;
    TrimLazily();
  }
}

void QueueCore::EmitMoveWrites(uint32_t index, const Source& from) {
  if (!policy_.journal) return;
  const StoredJob& job = jobs_[index];
  Write put;
  put.entry.job = index;
  put.entry.row = RowOf(index);
  if (from.op == WriteOp::kEndLease) {
    put.entry.ends_lease = from.lease;
    put.entry.ends_as = from.how;
  }
  switch (job.place) {
    case Place::kReady:
      put.op = WriteOp::kPutReady;
      put.position = job.ready_pos;
      break;
    case Place::kDelayed:
      put.op = WriteOp::kPutDelayed;
      put.position = static_cast<int64_t>(job.timer);
      put.entry.due_at = job.due_at;
      put.entry.timer = job.timer;
      break;
    case Place::kLeased:
      put.op = WriteOp::kPutLease;
      put.lease_number = job.lease;
      put.lease = leases_[job.lease];
      break;
    case Place::kCompleted:
      put.op = WriteOp::kPutCompleted;
      break;
    case Place::kQuarantined:
      put.op = WriteOp::kPutQuarantine;
      put.position = static_cast<int64_t>(job.arrival);
      put.entry.timer = RetentionSeq(index);
      break;
    case Place::kDiscarded: {
      // No destination: one write removes the job from its source and says it was discarded.
      Write remove;
      remove.op = from.op;
      remove.position = from.position;
      remove.lease_number = from.lease;
      remove.ended_as = from.how;
      remove.discarded = true;
      remove.entry.row = put.entry.row;
      Emit(std::move(remove), index);
      return;
    }
    case Place::kDropped:
    case Place::kLost:
      return;  // not reached: no move ends there
  }
  Write remove;
  remove.op = from.op;
  remove.position = from.position;
  remove.lease_number = from.lease;
  remove.ended_as = from.how;
  if (job.place == Place::kQuarantined && policy_.unsafe_quarantine_order) {
    Emit(std::move(remove), index);  // the teaching switch: the source goes first
    Emit(std::move(put), index);
  } else {
    Emit(std::move(put), index);  // the destination is durable before the source lets go
    Emit(std::move(remove), index);
  }
}

Result<std::vector<JournalEntry>> QueueCore::Journal() const {
  if (!policy_.journal) {
    return Status::FailedPrecondition("this queue keeps no journal (its policy has journal: false)");
  }
  std::vector<JournalEntry> out;
  out.reserve(journal_.size());
  for (size_t k = 0; k < journal_.size(); ++k) {
    const WriteJournal::Stored& w = journal_.writes()[k];
    out.push_back({k + 1, durable::WriteOpName(w.op), w.job == UINT32_MAX ? std::string() : std::string(jobs_[w.job].id()), w.text});
  }
  return out;
}

// ---- snapshots ------------------------------------------------------------------

Image QueueCore::ToImage() const {
  Image image;
  image.policy = policy_;
  image.meta = MetaNow();
  for (size_t k = 1; k <= jobs_.error_count(); ++k) image.errors.emplace_back(jobs_.ErrorText(static_cast<uint32_t>(k)));
  image.jobs.reserve(jobs_.size());
  for (size_t k = 0; k < jobs_.size(); ++k) {
    const StoredJob& j = jobs_[static_cast<uint32_t>(k)];
    const durable::Fate fate = j.place == Place::kDropped     ? durable::Fate::kDropped
                               : j.place == Place::kLost      ? durable::Fate::kLost
                               : j.place == Place::kDiscarded ? durable::Fate::kDiscarded
                                                              : durable::Fate::kLive;
    image.jobs.push_back({std::string(j.id()), std::string(j.payload()), std::string(j.key()), fate, j.released, fate == durable::Fate::kLive ? durable::JobRow{} : RowOf(static_cast<uint32_t>(k))});
  }
  const auto entry = [&](uint32_t index) {
    Entry e;
    e.job = index;
    e.row = RowOf(index);
    return e;
  };
  for (size_t k = 0; k < ready_.size(); ++k) image.ready.emplace(jobs_[ready_[k]].ready_pos, entry(ready_[k]));
  for (const Timer& t : delayed_) {
    Entry e = entry(t.ref);
    e.due_at = t.time;
    e.timer = t.seq;
    image.delayed.emplace(t.seq, e);
  }
  for (uint32_t n = 1; n <= leases_.size(); ++n) {
    durable::Lease l;
    l.record = leases_[n];
    l.entry = entry(l.record.job);
    image.leases.push_back(l);
  }
  for (const uint32_t index : completed_) image.completed.push_back(entry(index));
  for (const uint32_t index : quarantine_) {
    Entry e = entry(index);
    e.timer = RetentionSeq(index);
    image.quarantine.emplace(jobs_[index].arrival, e);
  }
  for (size_t k = 0; k < reorder_job_.size(); ++k) image.reorders.push_back({reorder_job_[k], reorder_overtook_[k]});
  image.events.reserve(events_.size());
  for (size_t k = 0; k < events_.size(); ++k) image.events.push_back(events_[k]);
  return image;
}

Result<std::string> QueueCore::SnapshotText() const { return durable::EncodeSnapshot(ToImage(), kMaxSnapshotBytes); }

Result<std::string> QueueCore::Snapshot() {
  Result<std::string> text = SnapshotText();
  if (!text.ok()) return text;
  charge_.Return(journal_.Bytes());
  journal_.StartAfter(Crc32(text.value()));
  return text;
}

Result<QueueCore> QueueCore::Clone() const {
  const size_t journal_bytes = journal_.Bytes();
  if (Status s = HeapBudget::CheckRoom(charge_.bytes() + journal_bytes, "clone"); !s.ok()) return s;
  Result<QueueCore> copy = FromImage(ToImage());
  if (!copy.ok()) return copy;
  copy->journal_ = journal_;
  copy->charge_.Add(journal_bytes);
  return copy;
}

Result<QueueCore> QueueCore::Restore(std::string_view snapshot) {
  if (Status s = CheckSize("snapshot", kMaxSnapshotBytes, snapshot.size()); !s.ok()) return s;
  Result<Image> image = durable::DecodeSnapshot(snapshot);
  if (!image.ok()) return image.status();
  Result<QueueCore> queue = FromImage(std::move(image.value()));
  if (!queue.ok()) return queue;
  queue->journal_.StartAfter(Crc32(snapshot));
  return queue;
}

Result<QueueCore> QueueCore::FromImage(Image&& image) {
  const auto invalid = [](const std::string& why) {
    return Status::Error(Code::kInvalidSnapshot, "snapshot is inconsistent: " + why);
  };
  if (Status s = Policy::Check(image.policy); !s.ok()) return invalid("its policy is refused: " + s.message());
  Result<Prng> jitter = Prng::FromState(image.meta.jitter);
  if (!jitter.ok()) return invalid(jitter.status().message());
  const durable::Meta& m = image.meta;
  if (m.now > kMaxTimeMs) return invalid("the clock is past the end of virtual time");
  if (m.ready_head > 0 || m.ready_tail < 0 || m.ready_head < -kMaxTimeMs || m.ready_tail > kMaxTimeMs) {
    return invalid("the ready queue's bounds must hold position 0 and stay within 2^53");
  }
  // What the queue will keep, checked before anything is built: the events at
  // most (their log's real size is charged once it is built).
  size_t bytes = image.leases.size() * cost::kLease + (image.delayed.size() + image.quarantine.size()) * cost::kTimer;
  for (const std::string& e : image.errors) bytes += cost::ErrorText(e.size());
  for (const durable::ImageJob& j : image.jobs) bytes += cost::Job(j.id, j.payload, j.key);
  for (const durable::Reorder& r : image.reorders) bytes += cost::Reorder(r.overtook.size());
  bytes += SystemRecords::TimesBytes(image.policy, image.jobs.size());
  // x-death records: at most one per job (charged below as they are).
  const size_t x_death_most = SystemRecords::MostXDeathBytes(image.policy, image.jobs.size());
  if (Status s = HeapBudget::CheckRoom(bytes + x_death_most + image.events.size() * cost::kEventAtMost, "restore");
      !s.ok()) {
    return s;
  }

  QueueCore q(image.policy);
  q.jitter_ = jitter.value();
  const size_t n = image.jobs.size();
  for (const std::string& e : image.errors) {
    bool added = false;
    q.jobs_.InternError(e, &added);
    if (!added) return invalid("error text " + QuoteShort(e) + " appears twice");
  }
  const size_t errors = image.errors.size();
  q.records_.ResizeForRestore(n);
  for (size_t k = 0; k < n; ++k) {
    const durable::ImageJob& j = image.jobs[k];
    if (j.id.empty() || j.id.size() > kMaxIdBytes || j.payload.size() > kMaxPayloadBytes || j.key.size() > kMaxKeyBytes) {
      return invalid("job " + std::to_string(k) + " has an empty or over-long id, payload or key");
    }
    const int64_t added = q.jobs_.Add(j.id, j.payload, j.key);
    if (added < 0) return invalid("job id " + QuoteShort(j.id) + " appears twice");
    const auto index = static_cast<uint32_t>(added);
    q.jobs_[index].released = j.released;
    q.jobs_[index].place = j.fate == durable::Fate::kDropped     ? Place::kDropped
                           : j.fate == durable::Fate::kDiscarded ? Place::kDiscarded
                                                                 : Place::kLost;  // until a place claims it
    if (j.fate == durable::Fate::kLost) ++q.lost_;
    if (j.fate == durable::Fate::kDiscarded) q.discarded_.push_back(index);
  }
  std::vector<uint8_t> places(n, 0);
  // Sets job `index`'s fields from a row its entry (or, dropped or lost, its job line) wrote.
  // `waiting`: ready or delayed, where a job always has an attempt left (one at
  // its budget would have been quarantined).
  const auto apply_row = [&](uint32_t index, const durable::JobRow& r, bool waiting = false) -> Status {
    const std::string who = "job " + QuoteShort(image.jobs[index].id);
    const int64_t budget = image.policy.Budget();
    // Under bullmq a retry without a reset (ReplayKeepingAttempts) keeps attemptsMade,
    // so a job may be waiting at its budget, or past it by one run per such retry.
    if (image.policy.system == System::kBullMq ? r.attempts > kMaxKeptAttempts
                                               : r.attempts > budget || (waiting && r.attempts >= budget)) {
      return invalid(who + " has more attempts than its budget allows where it is");
    }
    if (r.last_error > errors) return invalid(who + " names a missing error text");
    if (r.first_attempt_at > m.now || r.arrived_at > m.now || r.enqueued_at > m.now || r.ttl_from > m.now) {
      return invalid(who + " has a time after now");
    }
    // A mode's own fields only in its mode (so a lab queue's rows stay as they were).
    const System system = image.policy.system;
    if ((r.stalls != 0 && system != System::kBullMq) || (r.enqueued_at != 0 && system != System::kSqs) ||
        (!r.x_death.empty() && system != System::kRabbitMqQuorum) || (r.ttl_from != 0 && image.policy.message_ttl_ms == 0)) {
      return invalid(who + " carries another system's fields");
    }
    if (r.stalls > UINT16_MAX || r.x_death.time[0] > m.now || r.x_death.time[1] > m.now ||
        r.x_death.time[2] > m.now || r.x_death.time[3] > m.now) {
      return invalid(who + " has a stall count or an x-death time out of range");
    }
    StoredJob& job = q.jobs_[index];
    job.attempts = r.attempts;
    job.first_attempt_at = r.first_attempt_at;
    job.last_delay = static_cast<uint32_t>(r.last_delay);  // checked: at most kMaxSidekiqDelayMs
    job.reason = r.reason;
    job.failure_class = r.failure_class;
    job.alert = r.alert;
    job.last_error = r.last_error;
    job.quarantine_step = r.quarantine_step;
    job.arrived_at = r.arrived_at;
    job.stalls = static_cast<uint16_t>(r.stalls);
    q.records_.Restore(index, r.enqueued_at, r.ttl_from, r.x_death);
    return Status::Ok();
  };
  for (size_t k = 0; k < n; ++k) {
    if (image.jobs[k].fate == durable::Fate::kLive) continue;
    if (Status s = apply_row(static_cast<uint32_t>(k), image.jobs[k].row); !s.ok()) return s;
  }
  // Claims job `e.job` for `place` with the entry's fields; refuses a job in two places.
  const auto claim = [&](const Entry& e, Place place, const char* where) -> Status {
    if (e.job >= n) return invalid(std::string(where) + " names job " + std::to_string(e.job) + " of " + std::to_string(n));
    if (image.jobs[e.job].fate != durable::Fate::kLive || places[e.job]++ != 0) {
      return invalid("job " + QuoteShort(image.jobs[e.job].id) + " is in more than one place, or dropped or lost and in one");
    }
    q.jobs_[e.job].place = place;
    return apply_row(e.job, e.row, place == Place::kReady || place == Place::kDelayed);
  };
  const auto timer_ok = [&](uint64_t seq, int64_t time) { return seq >= 1 && seq <= m.timer_seq && time >= m.now; };
  for (const auto& [pos, e] : image.ready) {
    if (Status s = claim(e, Place::kReady, "a ready entry"); !s.ok()) return s;
    if (pos < m.ready_head || pos >= m.ready_tail) return invalid("a ready position lies outside the ready queue's bounds");
    q.jobs_[e.job].ready_pos = pos;
    q.ready_.push_back(e.job);
  }
  for (const auto& [seq, e] : image.delayed) {
    if (Status s = claim(e, Place::kDelayed, "a delayed entry"); !s.ok()) return s;
    if (!timer_ok(seq, e.due_at)) return invalid("a delayed entry's timer is not pending");
    q.jobs_[e.job].due_at = e.due_at;
    q.jobs_[e.job].timer = seq;
    q.delayed_.insert({e.due_at, seq, e.job});
  }
  for (size_t k = 0; k < image.leases.size(); ++k) {
    const LeaseRecord& r = image.leases[k].record;
    if (r.job >= n) return invalid("lease " + std::to_string(k + 1) + " names a missing job");
    if (r.leased_at > m.now || r.expires_at < r.leased_at) return invalid("lease " + std::to_string(k + 1) + " has impossible times");
    if (r.state == LeaseState::kActive) {
      Entry e = image.leases[k].entry;
      e.job = r.job;
      if (Status s = claim(e, Place::kLeased, "a lease"); !s.ok()) return s;
      if (!timer_ok(r.timer, r.expires_at)) return invalid("an active lease's expiry is not pending");
      q.jobs_[r.job].lease = static_cast<uint32_t>(k + 1);
    }
    q.leases_.Restore(r);
  }
  for (const Entry& e : image.completed) {
    if (Status s = claim(e, Place::kCompleted, "a completed entry"); !s.ok()) return s;
    q.completed_.push_back(e.job);
  }
  for (const auto& [arrival, e] : image.quarantine) {
    if (Status s = claim(e, Place::kQuarantined, "a quarantine entry"); !s.ok()) return s;
    if (arrival < 1 || arrival > m.arrivals) return invalid("a quarantine arrival lies outside the arrivals so far");
    if (e.row.quarantine_step > m.step) return invalid("a quarantine entry arrived after the current step");
    StoredJob& job = q.jobs_[e.job];
    job.arrival = arrival;
    job.quarantine_pos = q.quarantine_.insert(q.quarantine_.end(), e.job);
    if (q.RetentionTimers()) {
      const int64_t ends = q.RetentionEnd(e.row.arrived_at, e.row.enqueued_at);
      if (!timer_ok(e.timer, ends)) return invalid("a quarantine entry's retention timer is not pending");
      job.timer = e.timer;
      q.retention_.insert({ends, e.timer, e.job});
    } else if (e.timer != 0) {
      return invalid("a quarantine entry has a retention timer but the policy keeps entries forever");
    }
  }
  for (size_t k = 0; k < n; ++k) {
    if (image.jobs[k].fate == durable::Fate::kLive && places[k] == 0) {
      return invalid("job " + QuoteShort(image.jobs[k].id) + " is in no place");
    }
    const StoredJob& job = q.jobs_[static_cast<uint32_t>(k)];
    if (!job.key().empty() && job.place != Place::kCompleted) q.pending_by_key_[job.key()].push_back(static_cast<uint32_t>(k));
  }
  for (const durable::Reorder& r : image.reorders) {
    if (r.job >= n) return invalid("a reorder names a missing job");
    for (const uint32_t j : r.overtook) {
      if (j >= n) return invalid("a reorder names a missing job");
    }
    q.reorder_job_.push_back(r.job);
    q.reorder_overtook_.push_back(r.overtook);
  }
  for (size_t k = 0; k < image.events.size(); ++k) {
    const EventRecord& e = image.events[k];
    const bool reorder_ok = (e.kind != EventKind::kReorder || (e.ref >= 1 && e.ref <= q.reorder_job_.size())) &&
                            (e.kind != EventKind::kKeptOnce || e.ref <= static_cast<uint32_t>(Place::kQuarantined));
    if (e.job >= n || e.error > errors || e.lease > image.leases.size() || !reorder_ok || e.time > m.now) {
      return invalid("event " + std::to_string(k + 1) + " names a missing job, error text, lease or reorder");
    }
    if (e.kind == EventKind::kPatched) q.patches_.push_back({e.job, k, static_cast<uint64_t>(e.until)});
    q.events_.Append(e);
  }
  q.step_ = m.step;
  q.actions_ = m.actions;
  q.now_ = m.now;
  q.timer_seq_ = m.timer_seq;
  q.ready_head_ = m.ready_head;
  q.ready_tail_ = m.ready_tail;
  q.arrivals_ = m.arrivals;
  q.alarm_raised_ = m.alarm_raised;
  q.expired_ = static_cast<size_t>(m.expired);
  q.journal_.marks = {q.events_.size(), q.jobs_.error_count(), q.reorder_job_.size()};
  q.charge_.Add(bytes + q.records_.RestoredBytes());
  q.ChargeEvents();
  return q;
}

}  // namespace dlq
