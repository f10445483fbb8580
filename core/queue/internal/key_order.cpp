#include "key_order.h"

#include <algorithm>

namespace dlq {

void KeyOrder::UndoAdd(std::string_view key) {
  auto it = pending_.find(key);
  it->second.pop_back();
  if (it->second.empty()) pending_.erase(it);
}

int64_t KeyOrder::HolderOf(const JobStore& jobs, uint32_t index) const {
  const StoredJob& job = jobs[index];
  if (job.key().empty() || job.released) return -1;
  const auto pending = pending_.find(job.key());
  if (pending == pending_.end()) return -1;  // every job of its key completed
  for (const uint32_t earlier : pending->second) {
    if (earlier == index) return -1;
    if (!jobs[earlier].released) return earlier;
  }
  return -1;
}

int64_t KeyOrder::FirstFree(const ReadyPlace& ready, const JobStore& jobs) const {
  for (size_t pos = 0; pos < ready.size(); ++pos) {
    if (HolderOf(jobs, ready[pos]) < 0) return static_cast<int64_t>(pos);
  }
  return -1;
}

bool KeyOrder::Complete(std::string_view key, uint32_t job) {
  // Everything before it in its key's pending list was enqueued earlier and is
  // not completed: a completion past any of them breaks the key's order.
  auto it = pending_.find(key);
  std::deque<uint32_t>& pending = it->second;
  const auto at = std::find(pending.begin(), pending.end(), job);
  const bool overtook = at != pending.begin();
  if (overtook) {
    overtook_.emplace_back(pending.begin(), at);
    reorder_job_.push_back(job);
  }
  pending.erase(at);
  if (pending.empty()) pending_.erase(it);
  return overtook;
}

}  // namespace dlq
