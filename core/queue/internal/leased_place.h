// Internal to the core: callers use queue.h.
//
// LeasedPlace: the jobs a worker holds. Every lease ever granted, by number
// (LeaseTable: tokens are never reused), and the active ones in expiry order.
// Answers which active lease a token names, refusing a stale one by name.
// Bookkeeping only: what a settle or an expiry does to the job is QueueCore's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "job_store.h"
#include "leases.h"
#include "status.h"

namespace dlq {

class LeasedPlace {
 public:
  // Active leases: none, how many, the earliest expiry (nullptr for none), all in expiry order.
  bool empty() const { return table_.active().empty(); }
  size_t size() const { return table_.active().size(); }
  const Timer* NextExpiry() const { return empty() ? nullptr : &*table_.active().begin(); }
  const TimerSet& active() const { return table_.active(); }

  // Every lease granted: how many, and lease `n`'s record (1 <= n <= granted()).
  size_t granted() const { return table_.size(); }
  const LeaseRecord& operator[](uint32_t n) const { return table_[n]; }

  // Grants the next lease number to `job`, expiring at `expires_at` under timer `seq`.
  uint32_t Grant(uint32_t job, int64_t now, int64_t expires_at, uint64_t seq) {
    return table_.Grant(job, now, expires_at, seq);
  }
  // Ends active lease `n` as settled or expired.
  void End(uint32_t n, LeaseState how) { table_.End(n, how); }
  // The active lease `token` names; else StaleLease saying why (it names no lease
  // granted here, or its lease was settled or expired, naming the job).
  Result<uint32_t> Active(std::string_view token, const JobStore& jobs) const;

  // Loading an image: the next lease as recorded (active or not).
  void Restore(const LeaseRecord& record) { table_.Restore(record); }

 private:
  LeaseTable table_;
};

}  // namespace dlq
