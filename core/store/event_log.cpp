#include "event_log.h"

#include <cstring>

#include "leases.h"
#include "system.h"

namespace dlq {

EventRecord& EventLog::Append(const EventRecord& record) {
  if (has_open_) Close();
  has_open_ = true;
  return open() = record;
}

namespace {

uint8_t* PutVarint(uint8_t* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<uint8_t>(v);
  return p;
}

const uint8_t* GetVarint(const uint8_t* p, uint64_t* v) {
  uint64_t value = 0;
  for (unsigned shift = 0;; shift += 7) {
    const uint8_t byte = *p++;
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (byte < 0x80) break;
  }
  *v = value;
  return p;
}

// Job numbers as a signed difference from the record before, small either way.
uint64_t ZigZag(int64_t d) { return (static_cast<uint64_t>(d) << 1) ^ static_cast<uint64_t>(d >> 63); }
int64_t UnZigZag(uint64_t z) { return static_cast<int64_t>(z >> 1) ^ -static_cast<int64_t>(z & 1); }

}  // namespace

uint8_t* EventLog::NextBlockRecordAt() {
  end_ = Aligned(end_);
  const size_t block = end_ / kBlockBytes;
  if (block == blocks_.size()) blocks_.push_back(reinterpret_cast<uint8_t*>(memory_.Next()));  // written before read
  last_at_ = end_;
  return blocks_[block] + end_ % kBlockBytes;
}

void EventLog::CloseAs(const uint8_t* bytes, size_t size) {
  uint8_t* const start = NextRecordAt();
  std::memcpy(start, bytes, size);
  end_ += size;
  ++packed_size_;
  open_slot_ ^= 1;
  has_open_ = false;
}

void EventLog::AppendSeries(const EventRecord& first, size_t count) {
  if (count == 0) return;
  Append(first);
  uint8_t bytes[kMaxRecordBytes];
  size_t size = 0;  // the series' packed bytes, once a member after the first has been encoded
  for (size_t k = 1; k < count; ++k) {
    // Close record k - 1. The first differs from its predecessor in any way; each
    // later one differs from the one before only by job + 1.
    const bool checkpoint = packed_size_ % kCheckpoint == 0;
    if (size != 0 && !checkpoint) {
      CloseAs(bytes, size);
    } else {
      Close();
      // Its bytes serve the rest when it packed; a record that cannot pack (a
      // lease, say) is kept whole every time, so nothing is copied then.
      if (k >= 2 && !checkpoint && (Bytes(last_at_)[1] & kWhole) == 0) {
        size = static_cast<size_t>(end_ - last_at_);
        std::memcpy(bytes, Bytes(last_at_), size);
      }
    }
    has_open_ = true;
    open() = last();
    ++open().job;
  }
}

void EventLog::Close() {
  const EventRecord& r = open();
  const EventRecord& b = last();
  const size_t index = packed_size_;
  uint8_t* const start = NextRecordAt();
  if (index % kCheckpoint == 0) {
    checkpoints_.push_back(end_);
    side_bytes_ += sizeof(size_t);
  }
  uint8_t* p = start + 2;
  uint8_t head = static_cast<uint8_t>(r.kind), flags = 0;
  const bool packs = index % kCheckpoint != 0 && r.time == b.time && r.max_attempts == b.max_attempts &&
                     (r.step == b.step || r.step == b.step + 1) && (r.action == b.action || r.action == b.action + 1) &&
                     (r.until == 0 || r.until == r.time) && r.lease == 0 && r.ref == 0 &&
                     // The packed codes byte holds a disposition and a reason of two bits each;
                     // a later one (discarded, a RabbitMQ-only reason) is kept whole.
                     static_cast<unsigned>(r.disposition) < 4 && static_cast<unsigned>(r.reason) < 4;
  if (packs) {
    if (r.step != b.step) head |= kStepOn;
    if (r.action != b.action) head |= kActionOn;
    if (r.until != 0) head |= kUntilNow;
    if (r.job != b.job) {
      flags |= kJob;
      p = PutVarint(p, ZigZag(static_cast<int64_t>(r.job) - static_cast<int64_t>(b.job)));
    }
    if (r.attempts != b.attempts) {
      flags |= kAttempts;
      p = PutVarint(p, r.attempts);
    }
    if (r.error != 0) {
      flags |= kError;
      p = PutVarint(p, r.error);
    }
    const auto codes =
        static_cast<uint8_t>(static_cast<unsigned>(r.outcome) | static_cast<unsigned>(r.disposition) << 3 |
                             static_cast<unsigned>(r.reason) << 5);
    if (codes != 0) {
      flags |= kCodes;
      *p++ = codes;
    }
    if (r.failure_class != FailureClass::kTransient) {
      flags |= kClass;
      *p++ = static_cast<uint8_t>(r.failure_class);
    }
  } else {
    flags = kWhole;
    p = PutVarint(p, whole_.size());
    whole_.push_back(r);
    side_bytes_ += sizeof(EventRecord);
  }
  start[0] = head;
  start[1] = flags;
  end_ += static_cast<size_t>(p - start);
  ++packed_size_;
  open_slot_ ^= 1;  // the open record is the last now
  has_open_ = false;
}

EventRecord EventLog::Unpack(size_t* pos, const EventRecord& before, size_t* whole) const {
  *pos = Aligned(*pos);
  const uint8_t* const start = Bytes(*pos);
  const uint8_t head = start[0], flags = start[1];
  const uint8_t* p = start + 2;
  uint64_t v = 0;
  if (flags & kWhole) {
    p = GetVarint(p, &v);
    *pos += static_cast<size_t>(p - start);
    if (whole != nullptr) *whole = static_cast<size_t>(v) + 1;
    return whole_[static_cast<size_t>(v)];
  }
  EventRecord r = before;
  r.kind = static_cast<EventKind>(head & 31);
  if (head & kStepOn) ++r.step;
  if (head & kActionOn) ++r.action;
  r.until = (head & kUntilNow) ? r.time : 0;
  if (flags & kJob) {
    p = GetVarint(p, &v);
    r.job = static_cast<uint32_t>(static_cast<int64_t>(before.job) + UnZigZag(v));
  }
  if (flags & kAttempts) {
    p = GetVarint(p, &v);
    r.attempts = static_cast<uint32_t>(v);
  }
  r.error = 0;
  if (flags & kError) {
    p = GetVarint(p, &v);
    r.error = static_cast<uint32_t>(v);
  }
  const uint8_t codes = (flags & kCodes) ? *p++ : 0;
  r.outcome = static_cast<Outcome>(codes & 7);
  r.disposition = static_cast<Disposition>(codes >> 3 & 3);
  r.reason = static_cast<Reason>(codes >> 5 & 3);
  r.failure_class = (flags & kClass) ? static_cast<FailureClass>(*p++) : FailureClass::kTransient;
  r.lease = 0;
  r.ref = 0;
  *pos += static_cast<size_t>(p - start);
  return r;
}

EventRecord EventLog::operator[](size_t index) const {
  if (has_open_ && index == packed_size_) return open();
  if (index + 1 == packed_size_) return last();
  return Decode(index);
}

EventRecord EventLog::Decode(size_t index) const {
  size_t from = index - index % kCheckpoint;  // a whole record
  size_t pos = checkpoints_[index / kCheckpoint];
  EventRecord r{};
  if (cached_index_ <= index && cached_index_ >= from) {
    from = cached_index_ + 1;
    pos = cached_next_;
    r = cached_;
  }
  for (size_t k = from; k <= index; ++k) r = Unpack(&pos, r);
  cached_index_ = index;
  cached_next_ = pos;
  cached_ = r;
  return r;
}

void EventLog::Truncate(size_t size) {
  if (size >= this->size()) return;
  has_open_ = false;
  cached_index_ = SIZE_MAX;
  if (size == 0) {
    checkpoints_.clear();
    whole_.clear();
    end_ = 0;
    packed_size_ = 0;
    pair_[open_slot_ ^ 1] = EventRecord{};
    CountSideBytes();
    return;
  }
  // Decode up to the last record kept: where the stream ends, and how many whole records it holds.
  const size_t last = size - 1;
  size_t pos = checkpoints_[last / kCheckpoint];
  size_t whole = 0;
  EventRecord r{};
  for (size_t k = last - last % kCheckpoint; k <= last; ++k) r = Unpack(&pos, r, &whole);
  whole_.resize(whole);
  packed_size_ = size;
  end_ = pos;
  checkpoints_.resize((size + kCheckpoint - 1) / kCheckpoint);
  CountSideBytes();
  pair_[open_slot_ ^ 1] = r;
}

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
  if (raw.kind == EventKind::kPatched)
    e.payload_bytes = raw.ref, e.old_payload_bytes = static_cast<uint64_t>(raw.until);
  const bool delaying =
      (raw.kind == EventKind::kAttempt || raw.kind == EventKind::kExpired) && raw.disposition == Disposition::kDelayed;
  // kReplayed: the count it keeps.
  if (raw.kind == EventKind::kLeased || raw.kind == EventKind::kDelayed || delaying ||
      raw.kind == EventKind::kReplayed) {
    e.until = raw.until;
  }
  const bool requeuing = ((raw.kind == EventKind::kAttempt || raw.kind == EventKind::kExpired) &&
                          raw.disposition == Disposition::kRequeued) ||
                         raw.kind == EventKind::kRequeued;
  if (requeuing) e.at_head = raw.ref != 0;
  if (requeuing) e.in_place = raw.ref == 2;
  if (raw.kind == EventKind::kQuarantined) e.routed_back = raw.ref != 0;
  if (raw.kind == EventKind::kReplayed) {  // bit 0: routed back; the bits above: a move task's move count
    e.routed_back = (raw.ref & 1) != 0;
    if (raw.ref >> 1 != 0) e.message_id = MessageIdOf(job.id(), raw.ref >> 1);
  }
  if (raw.kind == EventKind::kEvidenceExpired) e.trimmed = raw.ref != 0;
  if (raw.kind == EventKind::kDelayed || delaying) e.delay_ms = raw.until - raw.time;
  if (raw.kind == EventKind::kDelayed || raw.kind == EventKind::kDue || delaying) {
    e.delay_at = raw.ref == 2 ? DelayAt::kRetryQueue : raw.ref != 0 ? DelayAt::kConsumerSleep : DelayAt::kBroker;
    e.sleep_cut = raw.ref == 3;
  }
  if (raw.kind == EventKind::kDiscarded || raw.disposition == Disposition::kDiscarded) {
    e.drop_cause = static_cast<DropCause>(raw.ref);
  }
  if (raw.kind == EventKind::kReorder || raw.kind == EventKind::kKeyReleased) e.key.assign(job.key());
  if (raw.kind == EventKind::kReorder) {
    for (const uint32_t earlier : reorders[raw.ref - 1]) e.overtook.emplace_back(jobs[earlier].id());
  }
  if (raw.kind == EventKind::kAlarmRaised || raw.kind == EventKind::kAlarmCleared) e.depth = raw.ref;
  if (raw.kind == EventKind::kKeptOnce) e.place = PlaceName(static_cast<Place>(raw.ref));
  return e;
}

}  // namespace dlq
