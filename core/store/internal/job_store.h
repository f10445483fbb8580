// Internal to the core: callers use queue.h.
// JobStore: every job a queue was ever given, by index, with the id index and the
// interned error texts. Storage only: no policy, no places' order (the queue
// keeps those), no budget (the queue charges what it adds).
//
// Laid out for a million jobs: a job's strings live out of line in an append-only
// arena (views into it stay valid for the store's life), the records sit in fixed
// blocks (no per-job allocation, stable addresses, neighbours adjacent), and the
// id index is an open-addressing table of job numbers, not a node per id.
#pragma once

#include <cstdint>
#include <deque>
#include <list>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "block_memory.h"
#include "place.h"
#include "policy.h"
#include "size_limits.h"

namespace dlq {

// The fields an attempt reads and writes come first, then the strings' place, in
// 104 bytes: a million jobs are 104 MB of records, so every field costs.
struct StoredJob {
  uint32_t attempts = 0;
  Place place = Place::kReady;
  Reason reason = Reason::kNone;                          // kQuarantined
  FailureClass failure_class = FailureClass::kTransient;  // kQuarantined: the final failure's class
  bool alert = false;                                     // kQuarantined: its class raised an alert on arrival
  bool released = false;  // an operator released its key (releaseKey): it no longer holds it
  uint16_t key_size = 0;
  uint32_t lease = 0;       // kLeased: its lease number
  uint32_t last_delay = 0;  // the previous retry delay (decorrelated jitter); at most kMaxSidekiqDelayMs
  uint32_t last_error = 0;  // kQuarantined: an error-text index (0 = none)
  uint32_t payload_size = 0;
  uint16_t id_size = 0;
  uint16_t stalls = 0;           // bullmq: its stalls (lease expiries) so far; replays keep them, as BullMQ does
  int64_t first_attempt_at = 0;  // the time of its first attempt since it was enqueued or replayed
  int64_t ready_pos = 0;         // kReady: its position (the durable order of the ready queue)
  const char* text = nullptr;    // id, payload and key, one after another, in the store's arena
  int64_t due_at = 0;            // kDelayed
  uint64_t timer = 0;            // kDelayed: its timer's sequence number
  int64_t arrived_at = 0;        // kQuarantined: the time of the failure that quarantined it
  uint64_t quarantine_step = 0;  // kQuarantined
  uint64_t arrival = 0;          // kQuarantined: its arrival number (the durable order of the quarantine)
  std::list<uint32_t>::iterator quarantine_pos;  // kQuarantined: its entry in the queue's list

  std::string_view id() const { return {text, id_size}; }
  std::string_view payload() const { return {text + id_size, payload_size}; }
  std::string_view key() const { return {text + id_size + payload_size, key_size}; }  // "" for none
};
static_assert(std::is_trivially_destructible_v<StoredJob>, "blocks are freed without running destructors");
static_assert(kMaxKeyBytes <= UINT16_MAX && kMaxIdBytes <= UINT16_MAX && kMaxPayloadBytes <= UINT32_MAX);
static_assert(kMaxDelayMs <= kMaxSidekiqDelayMs && kMaxSidekiqDelayMs <= UINT32_MAX, "a delay fits last_delay");

class JobStore {
 public:
  JobStore() = default;
  JobStore(JobStore&&) = default;
  JobStore& operator=(JobStore&&) = default;

  // Appends a job (copying its strings) and returns its index, or returns -1 and
  // changes nothing when `id` is taken.
  int64_t Add(std::string_view id, std::string_view payload, std::string_view key) {
    return Add(id, payload, key, HashId(id));
  }
  // The same with `hash` = HashId(id), computed ahead (see PrefetchId).
  int64_t Add(std::string_view id, std::string_view payload, std::string_view key, uint64_t hash);
  static uint64_t HashId(std::string_view id);
  // Starts loading what Add(id, …, hash) will read, so a batch's cache misses overlap.
  void PrefetchId(uint64_t hash) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[hash & (slots_.size() - 1)]);
  }
  void PrefetchJob(uint32_t index) const { __builtin_prefetch(&(*this)[index], 1); }
  // Gives job `index` a new payload (an operator's patch): its strings are copied
  // afresh into the arena (the old copy stays there unused until the store goes);
  // its id, and so its place in the id index, is unchanged.
  void SetPayload(uint32_t index, std::string_view payload);
  // Removes the last job added (undoing a refused batch), and its strings.
  void RemoveLast();
  // The index of job `id`, or -1.
  int64_t Find(std::string_view id) const;
  bool Contains(std::string_view id) const { return Find(id) >= 0; }
  // Room for `more` jobs in the id index (one rehash for a batch, not several).
  void Reserve(size_t more);

  StoredJob& operator[](uint32_t index) { return blocks_[index >> kBlockShift][index & kBlockMask]; }
  const StoredJob& operator[](uint32_t index) const { return blocks_[index >> kBlockShift][index & kBlockMask]; }
  size_t size() const { return size_; }

  // 0 for "", else 1 + the text's place; `*added` says whether it is new.
  uint32_t InternError(std::string_view text, bool* added);
  std::string_view ErrorText(uint32_t index) const;
  size_t error_count() const { return error_texts_.size(); }

 private:
  static constexpr uint32_t kBlockShift = 8;  // 256 jobs per block: small queues stay small
  static constexpr uint32_t kBlockMask = (1u << kBlockShift) - 1;
  // Arena blocks start small (a lesson's queue, a restored checkpoint) and double
  // to 2 MiB (huge pages, see block_memory.h).
  static constexpr size_t kFirstTextBlockBytes = 1024, kMaxTextBlockBytes = size_t{2} << 20;

  // Room for `size` bytes in the arena; never moves once given.
  char* AllocateText(size_t size);
  // A fresh arena copy of a job's id, payload and key, side by side (StoredJob::text).
  char* CopyText(std::string_view id, std::string_view payload, std::string_view key);
  // Gives back the arena from `start` (a pointer AllocateText returned last) on.
  void RewindText(const char* start);
  // The slot holding `id`, or the empty slot where it would go.
  size_t Slot(std::string_view id, uint64_t hash) const;
  void Grow(size_t capacity);

  struct TextBlock {
    BlockPtr data;
    size_t size = 0, used = 0;
  };
  std::vector<TextBlock> text_;
  std::vector<StoredJob*> blocks_;  // carved from job_memory_
  BlockCarver job_memory_{sizeof(StoredJob) << kBlockShift};
  size_t size_ = 0;
  // Open addressing with linear probing, at most half full: (hash's top 32 bits << 32) |
  // (job index + 1); 0 = empty. The tag spares a look at the job for most mismatches.
  ZeroedArray<uint64_t> slots_;
  std::deque<std::string> error_texts_;                         // distinct non-empty error texts
  std::unordered_map<std::string_view, uint32_t> error_index_;  // views into error_texts_
};

}  // namespace dlq
