#include "block_memory.h"

#include <algorithm>
#include <cstdlib>
#include <new>

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#define DLQ_HUGE_PAGES 1
#endif

namespace dlq {
namespace {

constexpr size_t kHugePage = size_t{2} << 20;

#ifdef DLQ_HUGE_PAGES
// Huge pages pay from 1 MiB up: rounding to 2 MiB then wastes at most half.
bool WantsHugePages(size_t bytes) { return bytes >= kHugePage / 2; }
#endif

}  // namespace

void FreeBlock::operator()(char* p) const {
#ifdef DLQ_HUGE_PAGES
  if (mapped != 0) {
    munmap(p, mapped);
    return;
  }
#endif
  std::free(p);
}

namespace {

#ifdef DLQ_HUGE_PAGES
// Fresh, zeroed, 2 MiB-aligned pages advised for huge pages, or null.
BlockPtr MapHuge(size_t bytes) {
  const size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  // Map one huge page more than needed, then unmap the unaligned ends.
  void* raw = mmap(nullptr, rounded + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return BlockPtr(nullptr, FreeBlock{});
  const auto start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (start + kHugePage - 1) / kHugePage * kHugePage;
  if (aligned > start) munmap(raw, aligned - start);
  const uintptr_t tail = aligned + rounded, end = start + rounded + kHugePage;
  if (end > tail) munmap(reinterpret_cast<void*>(tail), end - tail);
  madvise(reinterpret_cast<void*>(aligned), rounded, MADV_HUGEPAGE);  // advice only: a refusal leaves ordinary pages
  return BlockPtr(reinterpret_cast<char*>(aligned), FreeBlock{rounded});
}
#endif

}  // namespace

BlockPtr AllocateBlock(size_t bytes) {
#ifdef DLQ_HUGE_PAGES
  if (WantsHugePages(bytes)) {
    if (BlockPtr block = MapHuge(bytes)) return block;
  }
#endif
  void* p = std::malloc(std::max<size_t>(bytes, 1));
  if (p == nullptr) throw std::bad_alloc();
  return BlockPtr(static_cast<char*>(p), FreeBlock{});
}

BlockPtr AllocateZeroedBlock(size_t bytes) {
#ifdef DLQ_HUGE_PAGES
  if (WantsHugePages(bytes)) {
    if (BlockPtr block = MapHuge(bytes)) return block;  // fresh pages are zero
  }
#endif
  void* p = std::calloc(std::max<size_t>(bytes, 1), 1);
  if (p == nullptr) throw std::bad_alloc();
  return BlockPtr(static_cast<char*>(p), FreeBlock{});
}

char* BlockCarver::Next() {
  if (left_ == 0) {
    const size_t most = std::max<size_t>(1, kHugePage / block_bytes_);
    chunk_blocks_ = chunk_blocks_ == 0 ? 1 : std::min(2 * chunk_blocks_, most);
    chunks_.push_back(AllocateBlock(chunk_blocks_ * block_bytes_));
    next_ = chunks_.back().get();
    left_ = chunk_blocks_;
  }
  char* block = next_;
  next_ += block_bytes_;
  --left_;
  return block;
}

}  // namespace dlq
