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
  return {j.attempts,
          j.first_attempt_at,
          j.last_delay,
          j.reason,
          j.failure_class,
          j.alert,
          j.last_error,
          j.quarantine_step,
          j.arrived_at,
          j.stalls,
          records_.EnqueuedAt(index),
          records_.XDeathOf(index),
          records_.TtlFrom(index),
          records_.FailedAt(index),
          records_.MovesOf(index)};
}

durable::Meta QueueCore::MetaNow() const {
  durable::Meta m;
  m.now = now_;
  m.step = step_;
  m.actions = actions_;
  m.timer_seq = timer_seq_;
  m.ready_head = ready_.head_position();
  m.ready_tail = ready_.tail_position();
  m.arrivals = quarantine_.arrivals();
  m.alarm_raised = quarantine_.alarm_raised();
  m.expired = quarantine_.expired();
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
  for (size_t k = journal_.marks.reorders; k < keys_.reorder_count(); ++k) {
    w.reorders.push_back({keys_.reorder_job(k), keys_.overtook(k)});
  }
  journal_.marks = {events_.size(), jobs_.error_count(), keys_.reorder_count()};
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
    case Place::kCompleted: put.op = WriteOp::kPutCompleted; break;
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
    case Place::kLost: return;  // not reached: no move ends there
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
    out.push_back({k + 1, durable::WriteOpName(w.op),
                   w.job == UINT32_MAX ? std::string() : std::string(jobs_[w.job].id()), w.text});
  }
  return out;
}

// ---- snapshots ------------------------------------------------------------------

Image QueueCore::ToImage() const {
  Image image;
  image.policy = policy_;
  image.meta = MetaNow();
  for (size_t k = 1; k <= jobs_.error_count(); ++k)
    image.errors.emplace_back(jobs_.ErrorText(static_cast<uint32_t>(k)));
  image.jobs.reserve(jobs_.size());
  for (size_t k = 0; k < jobs_.size(); ++k) {
    const StoredJob& j = jobs_[static_cast<uint32_t>(k)];
    const durable::Fate fate = j.place == Place::kDropped     ? durable::Fate::kDropped
                               : j.place == Place::kLost      ? durable::Fate::kLost
                               : j.place == Place::kDiscarded ? durable::Fate::kDiscarded
                                                              : durable::Fate::kLive;
    image.jobs.push_back({std::string(j.id()), std::string(j.payload()), std::string(j.key()), fate, j.released,
                          fate == durable::Fate::kLive ? durable::JobRow{} : RowOf(static_cast<uint32_t>(k))});
  }
  const auto entry = [&](uint32_t index) {
    Entry e;
    e.job = index;
    e.row = RowOf(index);
    return e;
  };
  for (size_t k = 0; k < ready_.size(); ++k) image.ready.emplace(jobs_[ready_[k]].ready_pos, entry(ready_[k]));
  for (const Timer& t : delayed_.timers()) {
    Entry e = entry(t.ref);
    e.due_at = t.time;
    e.timer = t.seq;
    image.delayed.emplace(t.seq, e);
  }
  for (uint32_t n = 1; n <= leases_.granted(); ++n) {
    durable::Lease l;
    l.record = leases_[n];
    l.entry = entry(l.record.job);
    image.leases.push_back(l);
  }
  for (const uint32_t index : finished_.completed()) image.completed.push_back(entry(index));
  for (const uint32_t index : quarantine_) {
    Entry e = entry(index);
    e.timer = RetentionSeq(index);
    image.quarantine.emplace(jobs_[index].arrival, e);
  }
  for (size_t k = 0; k < keys_.reorder_count(); ++k)
    image.reorders.push_back({keys_.reorder_job(k), keys_.overtook(k)});
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
  RETURN_IF_ERROR(HeapBudget::CheckRoom(charge_.bytes() + journal_bytes, "clone"));
  Result<QueueCore> copy = FromImage(ToImage());
  if (!copy.ok()) return copy;
  copy->journal_ = journal_;
  copy->charge_.Add(journal_bytes);
  return copy;
}

Result<QueueCore> QueueCore::Restore(std::string_view snapshot) {
  RETURN_IF_ERROR(CheckSize("snapshot", kMaxSnapshotBytes, snapshot.size()));
  Result<Image> image = durable::DecodeSnapshot(snapshot);
  if (!image.ok()) return image.status();
  Result<QueueCore> queue = FromImage(std::move(image.value()));
  if (!queue.ok()) return queue;
  queue->journal_.StartAfter(Crc32(snapshot));
  return queue;
}

}  // namespace dlq
