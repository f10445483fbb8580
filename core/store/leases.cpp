#include "leases.h"

namespace dlq {

uint32_t LeaseTable::ParseToken(std::string_view token) {
  constexpr std::string_view kPrefix = "lease-";
  if (token.size() <= kPrefix.size() || token.size() > kPrefix.size() + 10 ||
      token.substr(0, kPrefix.size()) != kPrefix) {
    return 0;
  }
  const std::string_view digits = token.substr(kPrefix.size());
  if (digits[0] == '0') return 0;
  uint64_t n = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return 0;
    n = n * 10 + static_cast<uint64_t>(c - '0');
  }
  return n > UINT32_MAX ? 0 : static_cast<uint32_t>(n);
}

uint32_t LeaseTable::Grant(uint32_t job, int64_t now, int64_t expires_at, uint64_t timer) {
  records_.push_back({job, now, expires_at, timer, LeaseState::kActive});
  const auto n = static_cast<uint32_t>(records_.size());
  active_.insert({expires_at, timer, n});
  return n;
}

void LeaseTable::Restore(const LeaseRecord& record) {
  records_.push_back(record);
  if (record.state == LeaseState::kActive)
    active_.insert({record.expires_at, record.timer, static_cast<uint32_t>(records_.size())});
}

void LeaseTable::End(uint32_t n, LeaseState how) {
  LeaseRecord& record = records_[n - 1];
  active_.erase({record.expires_at, record.timer, n});
  record.state = how;
}

}  // namespace dlq
