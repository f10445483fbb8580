// Internal to the core: callers use queue.h.
// EventLog: a queue's timeline as compact records (it may hold millions), and
// their expansion into full Events. Records are written once and never changed
// after the call that wrote them returns; a refused batch truncates what it wrote.
//
// Storage: a byte stream. A record that differs from the one before it only in
// the usual ways (the same time and budget, the step and the action the same or
// one on, no lease or reference, a due time of 0 or now) is packed: two header
// bytes, then only the fields that are not implied (the job as a difference from
// the one before, the attempt count if it changed, an error, the outcome codes,
// the class). A requeue or completion after its attempt takes 2 bytes, an attempt
// about 4. Any other record, and every 64th (a checkpoint), is kept whole. Reading
// record i decodes forward from its checkpoint; reading the next one after it
// costs one step (a cache that makes concurrent reads from two threads unsafe;
// the core is single-threaded).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "block_memory.h"
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
  // Inline: the queue appends each of its events this way.
  EventRecord& AppendZeroed() {
    if (has_open_) Close();
    has_open_ = true;
    return open() = EventRecord{};
  }
  // Appends `count` records: `first`, then copies of it whose job numbers count
  // up by one (a batch's enqueue events). Each after the second differs from the
  // one before exactly as the second did, so its bytes are the second's: they are
  // copied, not encoded again. The last stays open, as after Append.
  void AppendSeries(const EventRecord& first, size_t count);
  size_t size() const { return packed_size_ + (has_open_ ? 1 : 0); }
  // Record `index` (0-based), as appended.
  EventRecord operator[](size_t index) const;
  void Truncate(size_t size);
  // Event `index` (0-based) with its strings from `jobs` and, for a reorder, the
  // jobs it overtook from `reorders` (indexes into jobs).
  Event Expand(size_t index, const JobStore& jobs, const std::vector<std::vector<uint32_t>>& reorders) const;
  // Bytes the records take: the stream, the whole records and where the
  // checkpoints start (tests check the packing with it; the heap budget charges it).
  // Inline: the queue charges the log's growth after every record it appends.
  size_t bytes() const { return end_ + side_bytes_; }
  // The most one record adds to bytes(): its stream bytes, kept whole, and a checkpoint's index.
  static constexpr size_t kMaxBytesPerRecord = (2 + 3 * 5 + 2) + sizeof(EventRecord) + sizeof(size_t);

 private:
  // Header byte 0: the kind (5 bits) and three flags; byte 1: what follows.
  static constexpr uint8_t kStepOn = 1 << 5, kActionOn = 1 << 6, kUntilNow = 1 << 7;
  static constexpr uint8_t kWhole = 1, kJob = 2, kAttempts = 4, kError = 8, kCodes = 16, kClass = 32;
  static_assert(kEventKindCount <= 32, "the kind fits in 5 bits");
  static_assert(kOutcomeCount <= 8 && kFailureClassCount <= 256, "outcome codes fit in a byte");
  static constexpr size_t kCheckpoint = 64;                 // every 64th record is kept whole
  static constexpr size_t kBlockBytes = 32 << 10;           // the stream grows in blocks of 32 KiB
  static constexpr size_t kMaxRecordBytes = 2 + 3 * 5 + 2;  // header, three 32-bit varints, two bytes
  static_assert(kMaxRecordBytes >= 2 + 10, "a whole record's index fits too");
  static_assert(kMaxBytesPerRecord == kMaxRecordBytes + sizeof(EventRecord) + sizeof(size_t));

  // Packs the open record after the last (the record before it), and makes it the last.
  void Close();
  // Closes the open record as `size` bytes already encoded (a packed record, not a checkpoint).
  void CloseAs(const uint8_t* bytes, size_t size);
  // Room for the next record: moves end_ past a block's tail and adds a block when needed.
  // Inline for the usual case (room left in a block there is), once per record appended.
  uint8_t* NextRecordAt() {
    const size_t offset = end_ % kBlockBytes, block = end_ / kBlockBytes;
    if (kBlockBytes - offset < kMaxRecordBytes || block == blocks_.size()) return NextBlockRecordAt();
    last_at_ = end_;
    return blocks_[block] + offset;
  }
  uint8_t* NextBlockRecordAt();  // NextRecordAt past a block's tail, or into a new block
  EventRecord& open() { return pair_[open_slot_]; }
  const EventRecord& open() const { return pair_[open_slot_]; }
  const EventRecord& last() const { return pair_[open_slot_ ^ 1]; }
  // Records never straddle blocks: one starts at the next block when fewer than
  // kMaxRecordBytes are left. `pos` moves there; the bytes at it are returned.
  static size_t Aligned(size_t pos) {
    const size_t left = kBlockBytes - pos % kBlockBytes;
    return left < kMaxRecordBytes ? pos + left : pos;
  }
  const uint8_t* Bytes(size_t pos) const { return blocks_[pos / kBlockBytes] + pos % kBlockBytes; }
  // Packed record `index`, decoded from its checkpoint (or the last one read).
  EventRecord Decode(size_t index) const;
  // The record at `*pos` read after `before`; `*pos` moves past it. `*whole`
  // gets 1 + its index in whole_ when it is kept whole.
  EventRecord Unpack(size_t* pos, const EventRecord& before, size_t* whole = nullptr) const;

  // Blocks of the stream, carved from memory_; a truncation keeps them for reuse.
  std::vector<uint8_t*> blocks_;
  BlockCarver memory_{kBlockBytes};
  size_t end_ = 0;                   // the stream's length: where the next record goes (before Aligned)
  size_t last_at_ = 0;               // where the last closed record starts
  std::vector<size_t> checkpoints_;  // where record k * kCheckpoint starts
  size_t packed_size_ = 0;
  std::deque<EventRecord> whole_;  // checkpoints and records that do not pack
  // whole_'s and checkpoints_' bytes, kept as they grow (bytes() is asked per record;
  // a deque's size() is a dozen instructions).
  size_t side_bytes_ = 0;
  void CountSideBytes() { side_bytes_ = whole_.size() * sizeof(EventRecord) + checkpoints_.size() * sizeof(size_t); }
  // The last packed record, unpacked, and the record still open to change
  // (has_open_); closing one flips which is which instead of copying.
  EventRecord pair_[2]{};
  unsigned open_slot_ = 0;
  bool has_open_ = false;
  // The last record read and where the one after it starts (sequential reads cost one step each).
  mutable size_t cached_index_ = SIZE_MAX;
  mutable size_t cached_next_ = 0;
  mutable EventRecord cached_{};
};

}  // namespace dlq
