// Internal to the core: not part of the API dlq.h gives (layers of the core use it).
// Memory for the stores' big blocks: job records, the event stream, the string
// arena, the ready ring and the id index. A million-job queue touches hundreds
// of megabytes of fresh memory; with 4 KiB pages the kernel's page faults then
// cost more than the queue's own work.
//
// On Linux a block of 1 MiB or more is mapped whole from the system, rounded up
// to whole 2 MiB pages and advised for transparent huge pages: it faults in 512
// times less often, takes one TLB entry per 2 MiB, and comes zeroed (the kernel
// zeroes fresh pages, so nobody zeroes them twice). Smaller blocks come from
// malloc, so a lesson's queue stays small. Under WebAssembly (one linear memory),
// and where the advice is refused, every block is ordinary memory. Contents, and
// so every result, are the same either way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace dlq {

// Frees a block: munmap for one mapped whole (`mapped` bytes), else free().
struct FreeBlock {
  size_t mapped = 0;
  void operator()(char* p) const;
};
using BlockPtr = std::unique_ptr<char[], FreeBlock>;

// `bytes` of uninitialised memory (never null: throws std::bad_alloc).
BlockPtr AllocateBlock(size_t bytes);
// `bytes` of zeroed memory.
BlockPtr AllocateZeroedBlock(size_t bytes);

// Fixed-size blocks carved from chunks that double from one block up to 2 MiB,
// so a small store takes one small chunk and a big one sits on huge pages.
// Blocks live as long as the carver; moving it keeps them where they are.
class BlockCarver {
 public:
  explicit BlockCarver(size_t block_bytes) : block_bytes_(block_bytes) {}
  // The source is left empty: it carves nothing from chunks it no longer owns.
  BlockCarver(BlockCarver&& other) noexcept { *this = std::move(other); }
  BlockCarver& operator=(BlockCarver&& other) noexcept {
    block_bytes_ = other.block_bytes_;
    chunk_blocks_ = std::exchange(other.chunk_blocks_, 0);
    left_ = std::exchange(other.left_, 0);
    next_ = std::exchange(other.next_, nullptr);
    chunks_ = std::move(other.chunks_);
    other.chunks_.clear();
    return *this;
  }
  // A new block of block_bytes, uninitialised, aligned for any scalar type.
  char* Next();
  size_t block_bytes() const { return block_bytes_; }

 private:
  size_t block_bytes_ = 0;
  size_t chunk_blocks_ = 0, left_ = 0;
  char* next_ = nullptr;
  std::vector<BlockPtr> chunks_;
};

// A fixed-size, zero-filled array of a trivial type (the id index).
template <typename T>
class ZeroedArray {
  static_assert(std::is_trivially_copyable_v<T>, "zero bytes must be a valid T");

 public:
  ZeroedArray() = default;
  explicit ZeroedArray(size_t size) : data_(AllocateZeroedBlock(size * sizeof(T))), size_(size) {}

  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void swap(ZeroedArray& other) noexcept {
    data_.swap(other.data_);
    std::swap(size_, other.size_);
  }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }

 private:
  T* data() { return reinterpret_cast<T*>(data_.get()); }
  const T* data() const { return reinterpret_cast<const T*>(data_.get()); }
  BlockPtr data_;
  size_t size_ = 0;
};

}  // namespace dlq
