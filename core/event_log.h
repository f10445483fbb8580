// EventLog: a queue's timeline as compact records (it may hold millions), and
// their expansion into full Events. Records are written once and never changed
// after the call that wrote them returns; a refused batch truncates what it wrote.
//
// Storage: a record that differs from the one before it only in the usual ways
// (the same time and budget, the step and the action the same or one on, no lease
// or reference, a due time of 0 or now) is packed into 16 bytes; any other, and
// every 64th (a checkpoint), is kept whole. Reading record i decodes forward from
// its checkpoint; reading the next one after it costs one step (a cache that makes
// concurrent reads from two threads unsafe; the core is single-threaded).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "event.h"
#include "job_store.h"

namespace dlq {

struct EventRecord {
  uint64_t step;
  uint64_t action;
  int64_t time;
  int64_t until;  // kLeased: expiry; kDelayed, and a delaying kAttempt/kExpired: due time
  uint32_t job;
  uint32_t attempts;
  uint32_t max_attempts;  // the budget in force when it was written
  uint32_t error;         // an error-text index in the JobStore
  uint32_t lease;         // the lease number, or 0
  uint32_t ref;           // kReorder: 1 + its index in the reorder list; alarms: the depth
  EventKind kind;
  FailureClass failure_class;  // decided failures and alerts
  Outcome outcome;
  Disposition disposition;
  Reason reason;
};
static_assert(sizeof(EventRecord) <= 64, "an event record stays compact");

class EventLog {
 public:
  EventLog() = default;
  EventLog(EventLog&&) = default;
  EventLog& operator=(EventLog&&) = default;

  // Appends `record`. The reference may be changed until the next Append or
  // Truncate (the record is packed then).
  EventRecord& Append(const EventRecord& record);
  // Appends an all-zero record to fill in place (the same contract as Append).
  EventRecord& AppendZeroed();
  size_t size() const { return packed_size_ + (has_open_ ? 1 : 0); }
  // Record `index` (0-based), as appended.
  EventRecord operator[](size_t index) const;
  void Truncate(size_t size);
  // Event `index` (0-based) with its strings from `jobs` and, for a reorder, the
  // jobs it overtook from `reorders` (indexes into jobs).
  Event Expand(size_t index, const JobStore& jobs, const std::vector<std::vector<uint32_t>>& reorders) const;
  // Bytes the records take, packed and whole (tests check the packing with it).
  size_t bytes() const;

 private:
  struct Packed {
    uint32_t job;
    uint32_t attempts;
    uint32_t error;  // kWhole: the record's index in whole_
    EventKind kind;
    uint8_t outcome_disposition_reason;  // outcome (3 bits), disposition (2), reason (2)
    uint8_t class_flags;                 // failure_class (3 bits), then the flags below
    uint8_t unused;
  };
  static_assert(sizeof(Packed) == 16);
  static_assert(kOutcomeCount <= 8 && kFailureClassCount <= 8, "outcome and class fit in 3 bits");
  static constexpr uint8_t kStepOn = 1 << 3, kActionOn = 1 << 4, kUntilNow = 1 << 5, kWhole = 1 << 6;
  static constexpr size_t kCheckpoint = 64;  // every 64th record is kept whole
  static constexpr uint32_t kBlockShift = 10;  // 1,024 records (16 KiB) per block
  static constexpr size_t kBlockMask = (size_t{1} << kBlockShift) - 1;

  // Packs the open record after the last (the record before it), and makes it the last.
  void Close();
  EventRecord& open() { return pair_[open_slot_]; }
  const EventRecord& open() const { return pair_[open_slot_]; }
  const EventRecord& last() const { return pair_[open_slot_ ^ 1]; }
  const Packed& At(size_t index) const { return blocks_[index >> kBlockShift][index & kBlockMask]; }
  Packed& At(size_t index) { return blocks_[index >> kBlockShift][index & kBlockMask]; }
  // Packed record `index`, decoded from its checkpoint (or the last one read).
  EventRecord Decode(size_t index) const;
  // `p` read after `before`.
  EventRecord Unpack(const Packed& p, const EventRecord& before) const;

  std::vector<std::unique_ptr<Packed[]>> blocks_;
  size_t packed_size_ = 0;
  std::deque<EventRecord> whole_;  // checkpoints and records that do not pack
  // The last packed record, unpacked, and the record still open to change
  // (has_open_); closing one flips which is which instead of copying.
  EventRecord pair_[2]{};
  unsigned open_slot_ = 0;
  bool has_open_ = false;
  // The last record read (sequential reads cost one step each).
  mutable size_t cached_index_ = SIZE_MAX;
  mutable EventRecord cached_{};
};

}  // namespace dlq
