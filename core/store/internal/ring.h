// Internal to the core: callers use queue.h.
// Ring: a double-ended queue of small values in one power-of-two buffer. The
// ready queue's container: O(1) at both ends, O(1) indexing (a mask, not the
// block map of std::deque), O(n) erase in the middle (key ordering's rare case).
#pragma once

#include <cstddef>
#include <type_traits>

#include "block_memory.h"

namespace dlq {

template <typename T>
class Ring {
  static_assert(std::is_trivially_copyable_v<T>, "kept in raw block memory");

 public:
  Ring() = default;
  Ring(Ring&&) noexcept = default;
  Ring& operator=(Ring&&) noexcept = default;

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  // Element k from the head (0 = the head). Precondition: k < size().
  T& operator[](size_t k) { return data()[(head_ + k) & mask_]; }
  const T& operator[](size_t k) const { return data()[(head_ + k) & mask_]; }

  void push_back(T value) {
    if (size_ == capacity()) Reserve(size_ + 1);
    data()[(head_ + size_) & mask_] = value;
    ++size_;
  }
  void push_front(T value) {
    if (size_ == capacity()) Reserve(size_ + 1);
    head_ = (head_ - 1) & mask_;
    data()[head_] = value;
    ++size_;
  }
  void pop_front() {
    head_ = (head_ + 1) & mask_;
    --size_;
  }
  void pop_back() { --size_; }
  // Removes element k, keeping the order of the rest.
  void erase(size_t k) {
    for (size_t i = k; i + 1 < size_; ++i) (*this)[i] = (*this)[i + 1];
    --size_;
  }
  // Room for `n` elements without growing.
  void Reserve(size_t n) {
    if (n <= capacity()) return;
    size_t cap = capacity() == 0 ? 16 : capacity();
    while (cap < n) cap *= 2;
    BlockPtr grown = AllocateBlock(cap * sizeof(T));  // a big ring sits on huge pages (block_memory.h)
    T* to = reinterpret_cast<T*>(grown.get());
    for (size_t k = 0; k < size_; ++k) to[k] = (*this)[k];
    data_ = std::move(grown);
    head_ = 0;
    mask_ = cap - 1;
  }

 private:
  size_t capacity() const { return data_ ? mask_ + 1 : 0; }
  T* data() { return reinterpret_cast<T*>(data_.get()); }
  const T* data() const { return reinterpret_cast<const T*>(data_.get()); }
  BlockPtr data_;
  size_t head_ = 0, size_ = 0, mask_ = 0;
};

}  // namespace dlq
