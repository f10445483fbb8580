// LeaseTable: every lease a queue granted, by number (its token is "lease-<n>",
// never reused), and the active ones in expiry order. Bookkeeping only: what a
// settle or an expiry does to the job is the queue's (rules.h decides).
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>

#include "timers.h"

namespace dlq {

enum class LeaseState : uint8_t { kActive, kSettled, kExpired };

struct LeaseRecord {
  uint32_t job;
  int64_t leased_at;
  int64_t expires_at;
  uint64_t timer;  // its expiry timer's sequence number
  LeaseState state;
};

class LeaseTable {
 public:
  // "lease-<n>" for n >= 1.
  static std::string Token(uint32_t lease) { return "lease-" + std::to_string(lease); }
  // n for a well-formed "lease-<n>" (no sign, no leading zero, n < 2^32), else 0.
  static uint32_t ParseToken(std::string_view token);

  // Grants lease number size() + 1 to `job`, expiring at `expires_at`.
  uint32_t Grant(uint32_t job, int64_t now, int64_t expires_at, uint64_t timer);
  // The record of lease `n`; precondition 1 <= n <= size().
  const LeaseRecord& operator[](uint32_t n) const { return records_[n - 1]; }
  size_t size() const { return records_.size(); }

  // Appends a lease as a snapshot recorded it (active or not), as number size() + 1.
  void Restore(const LeaseRecord& record);
  // Ends active lease `n` as settled or expired (precondition: active).
  void End(uint32_t n, LeaseState how);

  // Active leases, earliest expiry first (Timer.ref is the lease number).
  const TimerSet& active() const { return active_; }

 private:
  std::deque<LeaseRecord> records_;
  TimerSet active_;
};

}  // namespace dlq
