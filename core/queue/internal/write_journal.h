// Internal to the core: callers use queue.h.
//
// WriteJournal: the durable writes since the last snapshot (or since creation),
// one part of QueueCore. Each is kept as its record's text with its kind, its job
// and its check; the first follows the check of the snapshot it continues (its
// base). `marks` says how much of the timeline, the error texts and the reorders
// the records already carry, so the next write carries only what is new.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "durable.h"
#include "queue_cost.h"

namespace dlq {

class WriteJournal {
 public:
  struct Stored {
    durable::WriteOp op;
    uint32_t job;  // UINT32_MAX: none
    uint32_t check;
    std::string text;
  };
  static_assert(sizeof(Stored) <= cost::kJournalEntry, "a journal entry is charged whole");

  struct Marks {
    size_t events = 0, errors = 0, reorders = 0;
  };

  // The number and the previous check of the next write.
  uint64_t next_seq() const { return writes_.size() + 1; }
  uint32_t prev_check() const { return writes_.empty() ? base_ : writes_.back().check; }
  void Push(Stored&& write) { writes_.push_back(std::move(write)); }

  const std::vector<Stored>& writes() const { return writes_; }
  size_t size() const { return writes_.size(); }
  // What its records are charged (cost::JournalRecord each).
  size_t Bytes() const;
  // Keeps the first `n` writes (a refused batch is undone).
  void Truncate(size_t n) { writes_.resize(n); }
  // Starts over after a snapshot whose text checks as `base`.
  void StartAfter(uint32_t base) {
    writes_.clear();
    base_ = base;
  }
  uint32_t base() const { return base_; }

  Marks marks;

 private:
  std::vector<Stored> writes_;
  uint32_t base_ = 0;
};

inline size_t WriteJournal::Bytes() const {
  size_t bytes = 0;
  for (const Stored& w : writes_) bytes += cost::JournalRecord(w.text.size());
  return bytes;
}

}  // namespace dlq
