// JobStore: every job a queue was ever given, by index, with the id index and the
// interned error texts. Storage only: no policy, no places' order (the queue
// keeps those), no budget (the queue charges what it adds).
#pragma once

#include <cstdint>
#include <deque>
#include <list>
#include <string>
#include <string_view>
#include <unordered_map>

#include "policy.h"

namespace dlq {

// Where a job is now. Exactly one place at a time.
// kDropped: its quarantine entry reached its retention; kLost: a crash between
// two writes of a move left it in no place (recovery found it nowhere).
enum class Place : uint8_t { kReady, kDelayed, kLeased, kCompleted, kQuarantined, kDropped, kLost };

// "ready" | "delayed" | "leased" | "completed" | "quarantine" | "dropped" | "lost".
const char* PlaceName(Place place);

struct StoredJob {
  std::string id;
  std::string payload;
  std::string key;        // its ordering key; "" for none
  bool released = false;  // an operator released its key (releaseKey): it no longer holds it
  uint32_t attempts = 0;
  Place place = Place::kReady;
  Reason reason = Reason::kNone;  // kQuarantined
  FailureClass failure_class = FailureClass::kTransient;  // kQuarantined: the final failure's class
  bool alert = false;             // kQuarantined: its class raised an alert on arrival
  int64_t arrived_at = 0;         // kQuarantined: the time of the failure that quarantined it
  int64_t first_attempt_at = 0;   // the time of its first attempt since it was enqueued or replayed
  uint32_t last_error = 0;        // kQuarantined: an error-text index (0 = none)
  uint64_t quarantine_step = 0;   // kQuarantined
  std::list<uint32_t>::iterator quarantine_pos;  // kQuarantined: its entry in the queue's list
  int64_t last_delay = 0;  // the previous retry delay (decorrelated jitter)
  int64_t due_at = 0;      // kDelayed
  uint64_t timer = 0;      // kDelayed: its timer's sequence number
  uint32_t lease = 0;      // kLeased: its lease number
  int64_t ready_pos = 0;   // kReady: its position (the durable order of the ready queue)
  uint64_t arrival = 0;    // kQuarantined: its arrival number (the durable order of the quarantine)
};

class JobStore {
 public:
  // Appends a job; returns its index. Precondition: !Contains(id).
  uint32_t Add(std::string_view id, std::string_view payload, std::string_view key);
  // Removes the last job added (undoing a refused batch).
  void RemoveLast();
  // The index of job `id`, or -1.
  int64_t Find(std::string_view id) const;
  bool Contains(std::string_view id) const { return index_.count(id) != 0; }
  void Reserve(size_t more) { index_.reserve(index_.size() + more); }

  StoredJob& operator[](uint32_t index) { return jobs_[index]; }
  const StoredJob& operator[](uint32_t index) const { return jobs_[index]; }
  size_t size() const { return jobs_.size(); }

  // 0 for "", else 1 + the text's place; `*added` says whether it is new.
  uint32_t InternError(std::string_view text, bool* added);
  std::string_view ErrorText(uint32_t index) const;
  size_t error_count() const { return error_texts_.size(); }

 private:
  std::deque<StoredJob> jobs_;  // a deque keeps addresses (and the index's views) stable
  std::unordered_map<std::string_view, uint32_t> index_;        // views into jobs_
  std::deque<std::string> error_texts_;                         // distinct non-empty error texts
  std::unordered_map<std::string_view, uint32_t> error_index_;  // views into error_texts_
};

}  // namespace dlq
