#include "leased_place.h"

#include <string>

#include "text.h"

namespace dlq {

Result<uint32_t> LeasedPlace::Active(std::string_view token, const JobStore& jobs) const {
  const uint32_t lease = LeaseTable::ParseToken(token);
  if (lease == 0 || lease > table_.size()) {
    return Status::Error(Code::kStaleLease, "token " + QuoteShort(token) + " names no lease this queue granted");
  }
  const LeaseRecord& record = table_[lease];
  const std::string job_id = QuoteShort(jobs[record.job].id());
  if (record.state == LeaseState::kSettled) {
    return Status::Error(Code::kStaleLease,
                         "lease " + LeaseTable::Token(lease) + " for job " + job_id + " was already settled");
  }
  if (record.state == LeaseState::kExpired) {
    return Status::Error(Code::kStaleLease, "lease " + LeaseTable::Token(lease) + " for job " + job_id +
                                                " expired at " + std::to_string(record.expires_at) +
                                                " ms; its attempt was counted");
  }
  return lease;
}

}  // namespace dlq
