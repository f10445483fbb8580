// Internal to the core: callers use queue.h.
//
// QuarantinePlace: the quarantine (the dead-letter queue) in arrival order, with
// what its policy says about keeping entries: retention timers (an entry's
// evidence expires), a lazy mode's trim (by age, then keeping the newest by
// count), the depth alarm, and the counters of arrivals and of entries dropped.
// A job keeps its list position (StoredJob::quarantine_pos) for O(1) removal.
// Bookkeeping and queries only: the events, journal writes and charges of a move
// or a drop are QueueCore's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>

#include "job_store.h"
#include "policy.h"
#include "system.h"
#include "timers.h"

namespace dlq {

class QuarantinePlace {
 public:
  explicit QuarantinePlace(const Policy& policy);

  using Position = std::list<uint32_t>::iterator;
  bool empty() const { return entries_.empty(); }
  size_t size() const { return entries_.size(); }
  // The oldest entry. Precondition: !empty().
  uint32_t front() const { return entries_.front(); }
  // In arrival order.
  std::list<uint32_t>::const_iterator begin() const { return entries_.begin(); }
  std::list<uint32_t>::const_iterator end() const { return entries_.end(); }

  // Job `job` arrives at the tail: its arrival number (the durable order) via
  // `*arrival` and its position.
  Position Arrive(uint32_t job, uint64_t* arrival) {
    *arrival = ++arrivals_;
    return entries_.insert(entries_.end(), job);
  }
  // The entry at `pos` leaves (a replay, a drop).
  void Remove(Position pos) { entries_.erase(pos); }
  // The entry at `pos` leaves for good (retention, a trim): counted as expired.
  void Drop(Position pos) {
    entries_.erase(pos);
    ++expired_;
  }

  // ---- Retention ----------------------------------------------------------------
  // True when entries get retention timers (a retention, and no lazy mode).
  bool RetentionTimers() const { return retention_timers_; }
  // When an entry that arrived at `arrived_at` reaches its retention: from its
  // arrival, or under sqs from its first enqueue (never before its arrival).
  int64_t RetentionEnd(int64_t arrived_at, int64_t enqueued_at) const;
  // An entry's retention as a view shows it: where it counts from (its arrival;
  // under sqs its first enqueue) and when a timer or a lazy trim drops it. With
  // neither (kept until trimmed by count, or forever) both are left as they were.
  void RetentionWindow(int64_t arrived_at, int64_t enqueued_at, int64_t* from, int64_t* until) const;
  // The age at which a lazy mode's trim drops an entry (sidekiq's 0 is its 180 days); 0: none.
  int64_t LazyRetentionAge() const { return lazy_age_; }
  void StartRetention(int64_t ends, uint64_t seq, uint32_t job) { retention_.insert({ends, seq, job}); }
  void StopRetention(int64_t ends, uint64_t seq, uint32_t job) { retention_.erase({ends, seq, job}); }
  size_t retention_timers() const { return retention_.size(); }
  // The earliest retention end, or nullptr; TakeNextRetention removes it (precondition: one is pending).
  const Timer* NextRetention() const { return retention_.empty() ? nullptr : &*retention_.begin(); }
  Timer TakeNextRetention() {
    const Timer timer = *retention_.begin();
    retention_.erase(retention_.begin());
    return timer;
  }

  // ---- Lazy trims (bullmq, sidekiq, a rabbitmq DLQ with x-max-length) -------------
  // True when an arrival trims the quarantine.
  bool Trims() const { return trims_; }
  // The trim's two rules, oldest entry first: it is at least LazyRetentionAge()
  // old (score <= now - age, as both trim by score); more entries than the newest
  // kept (Policy::QuarantineKeepNewest).
  bool FrontAgedOut(int64_t now, const JobStore& jobs) const {
    return lazy_age_ > 0 && !entries_.empty() && now - jobs[entries_.front()].arrived_at >= lazy_age_;
  }
  bool OverKeep() const { return keep_newest_ >= 0 && entries_.size() > static_cast<uint64_t>(keep_newest_); }

  // ---- The depth alarm ------------------------------------------------------------
  bool alarm_raised() const { return alarm_raised_; }
  // Raises or clears the alarm for the depth now; true when its state changed.
  bool UpdateAlarm();

  uint64_t arrivals() const { return arrivals_; }
  size_t expired() const { return expired_; }

  // Loading an image: entries in arrival order, then the counters it kept.
  Position Restore(uint32_t job) { return entries_.insert(entries_.end(), job); }
  void RestoreCounters(uint64_t arrivals, size_t expired, bool alarm_raised) {
    arrivals_ = arrivals;
    expired_ = expired;
    alarm_raised_ = alarm_raised;
  }

 private:
  std::list<uint32_t> entries_;  // arrival order
  TimerSet retention_;           // entries' retention ends; ref: a job
  uint64_t arrivals_ = 0;        // arrivals so far
  size_t expired_ = 0;           // entries dropped (retention, trims)
  bool alarm_raised_ = false;
  // The policy's settings for this place, read once.
  const SystemRules* system_;
  int64_t retention_ms_;
  int64_t lazy_age_;
  int64_t keep_newest_;
  int64_t alarm_depth_;
  bool retention_timers_;
  bool trims_;
};

}  // namespace dlq
