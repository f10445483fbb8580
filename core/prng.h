// A small deterministic pseudo-random generator (xoshiro256**, seeded through
// splitmix64). The core never uses std::random_device or std::*_distribution:
// their output differs between standard libraries, and the same seed must give
// the same numbers natively and in WebAssembly.
#pragma once

#include <cstdint>
#include <string>

namespace dlq {

class Prng {
 public:
  explicit Prng(uint64_t seed);
  uint64_t Next();
  // Uniform in [0, bound), without modulo bias. Precondition: bound > 0.
  uint32_t Below(uint32_t bound);

 private:
  uint64_t s_[4];
};

// A worker script for benchmarks and demos: `count` outcome letters ('s', 't',
// 'p', as Queue::ProcessMany takes them) drawn with the given percentages; the
// rest of 100 is permanent. Precondition: success_pct + transient_pct <= 100.
std::string RandomOutcomes(uint64_t seed, size_t count, uint32_t success_pct, uint32_t transient_pct);

}  // namespace dlq
