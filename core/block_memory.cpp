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

// Huge pages pay from 1 MiB up: rounding to 2 MiB then wastes at most half.
bool WantsHugePages(size_t bytes) {
#ifdef DLQ_HUGE_PAGES
  return bytes >= kHugePage / 2;
#else
  (void)bytes;
  return false;
#endif
}

}  // namespace

void FreeBlock::operator()(void* p) const { std::free(p); }

BlockPtr AllocateBlock(size_t bytes) {
  void* p = nullptr;
#ifdef DLQ_HUGE_PAGES
  if (WantsHugePages(bytes)) {
    const size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    p = std::aligned_alloc(kHugePage, rounded);
    if (p != nullptr) madvise(p, rounded, MADV_HUGEPAGE);  // advice only: a refusal leaves ordinary pages
  }
#endif
  if (p == nullptr) p = std::malloc(std::max<size_t>(bytes, 1));
  if (p == nullptr) throw std::bad_alloc();
  return BlockPtr(static_cast<char*>(p));
}

BlockPtr AllocateZeroedBlock(size_t bytes) {
  if (WantsHugePages(bytes)) {
    BlockPtr block = AllocateBlock(bytes);
    std::memset(block.get(), 0, bytes);
    return block;
  }
  void* p = std::calloc(std::max<size_t>(bytes, 1), 1);  // fresh pages from the system are zero already
  if (p == nullptr) throw std::bad_alloc();
  return BlockPtr(static_cast<char*>(p));
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
