#include "event_log.h"

#include "leases.h"

namespace dlq {

EventRecord& EventLog::Append(const EventRecord& record) {
  if (has_open_) Close();
  has_open_ = true;
  return open() = record;
}

EventRecord& EventLog::AppendZeroed() {
  if (has_open_) Close();
  has_open_ = true;
  return open() = EventRecord{};
}

void EventLog::Close() {
  const EventRecord& r = open();
  const EventRecord& b = last();
  const size_t index = packed_size_;
  if ((index >> kBlockShift) == blocks_.size()) blocks_.push_back(std::unique_ptr<Packed[]>(new Packed[kBlockMask + 1]));  // written before read
  Packed& p = At(index);
  p.job = r.job;
  p.attempts = r.attempts;
  p.error = r.error;
  p.kind = r.kind;
  p.outcome_disposition_reason = static_cast<uint8_t>(static_cast<unsigned>(r.outcome) |
                                                      static_cast<unsigned>(r.disposition) << 3 |
                                                      static_cast<unsigned>(r.reason) << 5);
  p.class_flags = static_cast<uint8_t>(r.failure_class);
  p.unused = 0;
  const bool packs = index % kCheckpoint != 0 && r.time == b.time && r.max_attempts == b.max_attempts &&
                     (r.step == b.step || r.step == b.step + 1) && (r.action == b.action || r.action == b.action + 1) &&
                     (r.until == 0 || r.until == r.time) && r.lease == 0 && r.ref == 0;
  if (packs) {
    if (r.step != b.step) p.class_flags |= kStepOn;
    if (r.action != b.action) p.class_flags |= kActionOn;
    if (r.until != 0) p.class_flags |= kUntilNow;
  } else {
    p.class_flags |= kWhole;
    p.error = static_cast<uint32_t>(whole_.size());
    whole_.push_back(r);
  }
  ++packed_size_;
  open_slot_ ^= 1;  // the open record is the last now
  has_open_ = false;
}

EventRecord EventLog::Unpack(const Packed& p, const EventRecord& before) const {
  if (p.class_flags & kWhole) return whole_[p.error];
  EventRecord r = before;
  r.job = p.job;
  r.attempts = p.attempts;
  r.error = p.error;
  r.kind = p.kind;
  r.outcome = static_cast<Outcome>(p.outcome_disposition_reason & 7);
  r.disposition = static_cast<Disposition>(p.outcome_disposition_reason >> 3 & 3);
  r.reason = static_cast<Reason>(p.outcome_disposition_reason >> 5 & 3);
  r.failure_class = static_cast<FailureClass>(p.class_flags & 7);
  if (p.class_flags & kStepOn) ++r.step;
  if (p.class_flags & kActionOn) ++r.action;
  r.until = (p.class_flags & kUntilNow) ? r.time : 0;
  r.lease = 0;
  r.ref = 0;
  return r;
}

EventRecord EventLog::operator[](size_t index) const {
  if (has_open_ && index == packed_size_) return open();
  if (index + 1 == packed_size_) return last();
  return Decode(index);
}

EventRecord EventLog::Decode(size_t index) const {
  size_t from = index - index % kCheckpoint;  // a whole record
  EventRecord r{};
  if (cached_index_ <= index && cached_index_ >= from) {
    from = cached_index_ + 1;
    r = cached_;
  }
  for (size_t k = from; k <= index; ++k) r = Unpack(At(k), r);
  cached_index_ = index;
  cached_ = r;
  return r;
}

void EventLog::Truncate(size_t size) {
  if (size >= this->size()) return;
  has_open_ = false;
  // The whole records kept: those before `size`.
  size_t whole = 0;
  for (size_t k = size; k-- > 0;) {
    if (At(k).class_flags & kWhole) {
      whole = At(k).error + 1;
      break;
    }
  }
  whole_.resize(whole);
  packed_size_ = size;
  blocks_.resize((size + kBlockMask) >> kBlockShift);
  cached_index_ = SIZE_MAX;
  pair_[open_slot_ ^ 1] = size == 0 ? EventRecord{} : Decode(size - 1);
}

size_t EventLog::bytes() const { return packed_size_ * sizeof(Packed) + whole_.size() * sizeof(EventRecord); }

Event EventLog::Expand(size_t index, const JobStore& jobs, const std::vector<std::vector<uint32_t>>& reorders) const {
  const EventRecord raw = (*this)[index];
  const StoredJob& job = jobs[raw.job];
  Event e;
  e.seq = index + 1;
  e.step = raw.step;
  e.action = raw.action;
  e.time = raw.time;
  e.kind = raw.kind;
  e.id = job.id();
  e.attempts = raw.attempts;
  e.max_attempts = raw.max_attempts;
  e.outcome = raw.outcome;
  e.failure_class = raw.failure_class;
  e.disposition = raw.disposition;
  e.reason = raw.reason;
  e.error = jobs.ErrorText(raw.error);
  if (raw.lease != 0) e.token = LeaseTable::Token(raw.lease);
  if (raw.kind == EventKind::kEnqueued || raw.kind == EventKind::kReplayed) e.payload_bytes = job.payload().size();
  const bool delaying = (raw.kind == EventKind::kAttempt || raw.kind == EventKind::kExpired) &&
                        raw.disposition == Disposition::kDelayed;
  if (raw.kind == EventKind::kLeased || raw.kind == EventKind::kDelayed || delaying) e.until = raw.until;
  if (raw.kind == EventKind::kDelayed || delaying) e.delay_ms = raw.until - raw.time;
  if (raw.kind == EventKind::kReorder || raw.kind == EventKind::kKeyReleased) e.key.assign(job.key());
  if (raw.kind == EventKind::kReorder) {
    for (const uint32_t earlier : reorders[raw.ref - 1]) e.overtook.emplace_back(jobs[earlier].id());
  }
  if (raw.kind == EventKind::kAlarmRaised || raw.kind == EventKind::kAlarmCleared) e.depth = raw.ref;
  if (raw.kind == EventKind::kKeptOnce) e.place = PlaceName(static_cast<Place>(raw.ref));
  return e;
}

}  // namespace dlq
