#include "job_store.h"

#include <algorithm>
#include <cstring>
#include <memory>

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
    case Place::kDiscarded: return "discarded";
  }
  return "?";
}

namespace {

constexpr uint64_t TagOf(uint64_t hash) { return hash >> 32 << 32; }

}  // namespace

// Eight bytes at a time, each word mixed in with a multiply, then a 64-bit
// finaliser so the low bits (the table position) and the high bits (the tag)
// both depend on every byte: a few nanoseconds for a typical id, where a
// byte-at-a-time hash took a multiply per byte. Only the index sees it: no
// order anyone can observe depends on it.
uint64_t JobStore::HashId(std::string_view id) {
  const char* p = id.data();
  const size_t n = id.size();
  const auto load64 = [](const char* at) {
    uint64_t w;
    std::memcpy(&w, at, 8);
    return w;
  };
  const auto load32 = [](const char* at) {
    uint32_t w;
    std::memcpy(&w, at, 4);
    return uint64_t{w};
  };
  uint64_t h = 0x9e3779b97f4a7c15ull ^ (n * 0xff51afd7ed558ccdull);
  // The last word overlaps the one before when n is not a multiple of 8: no
  // byte-by-byte tail.
  uint64_t last = 0;
  if (n >= 8) {
    for (size_t i = 0; i + 8 < n; i += 8) {
      h = (h ^ load64(p + i)) * 0xbf58476d1ce4e5b9ull;
      h ^= h >> 29;
    }
    last = load64(p + n - 8);
  } else if (n >= 4) {
    last = load32(p) | load32(p + n - 4) << 32;
  } else if (n > 0) {
    last = uint64_t{static_cast<unsigned char>(p[0])} | uint64_t{static_cast<unsigned char>(p[n / 2])} << 8 |
           uint64_t{static_cast<unsigned char>(p[n - 1])} << 16;
  }
  h = (h ^ last) * 0x94d049bb133111ebull;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

char* JobStore::AllocateText(size_t size) {
  if (text_.empty() || text_.back().size - text_.back().used < size) {
    TextBlock block;
    const size_t next = text_.empty() ? kFirstTextBlockBytes : std::min(2 * text_.back().size, kMaxTextBlockBytes);
    block.size = std::max(size, next);
    block.data = AllocateBlock(block.size);  // uninitialised: written before read
    text_.push_back(std::move(block));
  }
  TextBlock& last = text_.back();
  char* at = last.data.get() + last.used;
  last.used += size;
  return at;
}

void JobStore::RewindText(const char* start) {
  while (!text_.empty()) {
    TextBlock& last = text_.back();
    if (start >= last.data.get() && start <= last.data.get() + last.used) {
      last.used = static_cast<size_t>(start - last.data.get());
      return;
    }
    text_.pop_back();
  }
}

size_t JobStore::Slot(std::string_view id, uint64_t hash) const {
  const size_t mask = slots_.size() - 1;
  const uint64_t tag = TagOf(hash);
  for (size_t at = hash & mask;; at = (at + 1) & mask) {
    const uint64_t slot = slots_[at];
    if (slot == 0) return at;
    if ((slot & ~uint64_t{0xffffffff}) == tag && (*this)[static_cast<uint32_t>(slot) - 1].id() == id) return at;
  }
}

void JobStore::Grow(size_t capacity) {
  ZeroedArray<uint64_t> old(capacity);
  old.swap(slots_);
  const size_t mask = capacity - 1;
  for (const uint64_t slot : old) {
    if (slot == 0) continue;
    size_t at = HashId((*this)[static_cast<uint32_t>(slot) - 1].id()) & mask;
    while (slots_[at] != 0) at = (at + 1) & mask;
    slots_[at] = slot;
  }
}

void JobStore::Reserve(size_t more) {
  size_t capacity = slots_.empty() ? 16 : slots_.size();
  while (capacity < 2 * (size_ + more)) capacity *= 2;
  if (capacity != slots_.size()) Grow(capacity);
}

int64_t JobStore::Add(std::string_view id, std::string_view payload, std::string_view key, uint64_t hash) {
  if (2 * (size_ + 1) > slots_.size()) Reserve(1);
  const size_t slot = Slot(id, hash);
  if (slots_[slot] != 0) return -1;
  const auto index = static_cast<uint32_t>(size_);
  if ((index & kBlockMask) == 0 && blocks_.size() == (index >> kBlockShift)) {
    auto* block = reinterpret_cast<StoredJob*>(job_memory_.Next());
    std::uninitialized_value_construct_n(block, size_t{1} << kBlockShift);
    blocks_.push_back(block);
  }
  ++size_;
  StoredJob& job = (*this)[index];  // default-valued: new, or reset by RemoveLast
  job.text = CopyText(id, payload, key);
  job.id_size = static_cast<uint16_t>(id.size());  // at most kMaxIdBytes
  job.payload_size = static_cast<uint32_t>(payload.size());
  job.key_size = static_cast<uint16_t>(key.size());
  slots_[slot] = TagOf(hash) | (uint64_t{index} + 1);
  return index;
}

char* JobStore::CopyText(std::string_view id, std::string_view payload, std::string_view key) {
  char* text = AllocateText(id.size() + payload.size() + key.size());
  // std::copy, not memcpy: an empty view's data() may be null.
  std::copy(id.begin(), id.end(), text);
  std::copy(payload.begin(), payload.end(), text + id.size());
  std::copy(key.begin(), key.end(), text + id.size() + payload.size());
  return text;
}

void JobStore::SetPayload(uint32_t index, std::string_view payload) {
  StoredJob& job = (*this)[index];
  job.text = CopyText(job.id(), payload, job.key());
  job.payload_size = static_cast<uint32_t>(payload.size());  // at most kMaxPayloadBytes
}

void JobStore::RemoveLast() {
  const auto index = static_cast<uint32_t>(size_ - 1);
  StoredJob& job = (*this)[index];
  // Delete from the table by shifting later members of its run back (no tombstones).
  const size_t mask = slots_.size() - 1;
  size_t hole = Slot(job.id(), HashId(job.id()));
  for (size_t at = (hole + 1) & mask; slots_[at] != 0; at = (at + 1) & mask) {
    const size_t home = HashId((*this)[static_cast<uint32_t>(slots_[at]) - 1].id()) & mask;
    // Move it into the hole unless its home lies cyclically in (hole, at].
    const bool stays = hole <= at ? (hole < home && home <= at) : (hole < home || home <= at);
    if (stays) continue;
    slots_[hole] = slots_[at];
    hole = at;
  }
  slots_[hole] = 0;
  RewindText(job.id().data());
  job = StoredJob{};
  --size_;
}

int64_t JobStore::Find(std::string_view id) const {
  if (slots_.empty()) return -1;
  const uint64_t slot = slots_[Slot(id, HashId(id))];
  return slot == 0 ? -1 : static_cast<int64_t>(static_cast<uint32_t>(slot) - 1);
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
