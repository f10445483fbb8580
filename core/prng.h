// A small deterministic pseudo-random generator (xoshiro256**, seeded through
// splitmix64). The core never uses std::random_device or std::*_distribution:
// their output differs between standard libraries, and the same seed must give
// the same numbers natively and in WebAssembly.
#pragma once

#include <cstdint>
#include <string>

#include "size_limits.h"
#include "status.h"

namespace dlq {

// One stream per purpose, so that a draw added for one purpose never shifts the
// numbers of another (and recorded timelines stay as they are).
enum class PrngStream : uint64_t { kJitter = 1 };

class Prng {
 public:
  explicit Prng(uint64_t seed);
  // The stream `stream` of a queue seeded with `seed`.
  Prng(uint64_t seed, PrngStream stream);
  uint64_t Next();
  // Uniform in [0, bound), without modulo bias. Precondition: bound > 0.
  uint32_t Below(uint32_t bound);

 private:
  uint64_t s_[4];
};

constexpr uint64_t kMaxRandomOutcomes = kMaxOutcomeLetters;  // what one ProcessMany takes

// A worker script for benchmarks and demos: `count` outcome letters ('s', 't',
// 'p', as Queue::ProcessMany takes them) drawn with the given percentages; the
// rest of 100 is permanent. OutOfRange if count > kMaxRandomOutcomes or the
// percentages add up to more than 100.
Result<std::string> RandomOutcomes(uint64_t seed, uint64_t count, uint64_t success_pct, uint64_t transient_pct);

}  // namespace dlq
