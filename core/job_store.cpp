#include "job_store.h"

namespace dlq {

const char* PlaceName(Place place) {
  switch (place) {
    case Place::kReady: return "ready";
    case Place::kDelayed: return "delayed";
    case Place::kLeased: return "leased";
    case Place::kCompleted: return "completed";
    case Place::kQuarantined: return "quarantine";
    case Place::kDropped: return "dropped";
    case Place::kLost: return "lost";
  }
  return "?";
}

uint32_t JobStore::Add(std::string_view id, std::string_view payload, std::string_view key) {
  const auto index = static_cast<uint32_t>(jobs_.size());
  StoredJob& job = jobs_.emplace_back();
  job.id.assign(id);
  job.payload.assign(payload);
  job.key.assign(key);
  index_.emplace(job.id, index);
  return index;
}

void JobStore::RemoveLast() {
  index_.erase(jobs_.back().id);
  jobs_.pop_back();
}

int64_t JobStore::Find(std::string_view id) const {
  const auto it = index_.find(id);
  return it == index_.end() ? -1 : static_cast<int64_t>(it->second);
}

uint32_t JobStore::InternError(std::string_view text, bool* added) {
  *added = false;
  if (text.empty()) return 0;
  if (auto it = error_index_.find(text); it != error_index_.end()) return it->second;
  error_texts_.emplace_back(text);
  const auto index = static_cast<uint32_t>(error_texts_.size());  // 1-based: 0 is ""
  error_index_.emplace(error_texts_.back(), index);
  *added = true;
  return index;
}

std::string_view JobStore::ErrorText(uint32_t index) const {
  return index == 0 ? std::string_view() : std::string_view(error_texts_[index - 1]);
}

}  // namespace dlq
