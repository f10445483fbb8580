#include "quarantine_place.h"

#include <algorithm>

#include "registry.h"

namespace dlq {

QuarantinePlace::QuarantinePlace(const Policy& policy)
    : system_(&SystemOf(policy)),
      retention_ms_(policy.retention_ms),
      lazy_age_(SystemOf(policy).LazyRetentionAge(policy)),
      keep_newest_(policy.QuarantineKeepNewest()),
      alarm_depth_(policy.alarm_depth),
      retention_timers_(policy.retention_ms > 0 && !policy.LazyRetention()),
      trims_(policy.TrimsQuarantine()) {}

int64_t QuarantinePlace::RetentionEnd(int64_t arrived_at, int64_t enqueued_at) const {
  const int64_t from = system_->RetentionFrom(arrived_at, enqueued_at);
  return std::max(arrived_at, Later(from, retention_ms_));
}

void QuarantinePlace::RetentionWindow(int64_t arrived_at, int64_t enqueued_at, int64_t* from, int64_t* until) const {
  if (retention_timers_) {
    *from = system_->RetentionFrom(arrived_at, enqueued_at);
    *until = RetentionEnd(arrived_at, enqueued_at);
  } else if (lazy_age_ > 0) {
    *from = arrived_at;
    *until = Later(arrived_at, lazy_age_);
  }
}

bool QuarantinePlace::UpdateAlarm() {
  if (alarm_depth_ == 0) return false;
  const bool reached = entries_.size() >= static_cast<uint64_t>(alarm_depth_);
  if (reached == alarm_raised_) return false;
  alarm_raised_ = reached;
  return true;
}

}  // namespace dlq
