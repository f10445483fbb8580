// A small deterministic pseudo-random generator (xoshiro256**, seeded through
// splitmix64). The core never uses std::random_device or std::*_distribution:
// their output differs between standard libraries, and the same seed must give
// the same numbers natively and in WebAssembly.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "size_limits.h"
#include "status.h"

namespace dlq {

// One stream per purpose, so that a draw added for one purpose never shifts the
// numbers of another (and recorded timelines stay as they are).
// Stream 2 is also the contention experiment's master stream (contention.h); a storm and a
// contention run never share a simulation, so their draws cannot shift each other.
enum class PrngStream : uint64_t { kJitter = 1, kStormFailure = 2, kSchedule = 3 };

class Prng {
 public:
  explicit Prng(uint64_t seed);
  // The stream `stream` of a queue seeded with `seed`.
  Prng(uint64_t seed, PrngStream stream);
  uint64_t Next();
  // Uniform in [0, bound), without modulo bias. Precondition: bound > 0.
  uint32_t Below(uint32_t bound);

  // The generator's whole state, for snapshots; FromState(state()) continues the
  // same sequence. FromState refuses the all-zero state (xoshiro's one fixed point).
  using State = std::array<uint64_t, 4>;
  State state() const { return {s_[0], s_[1], s_[2], s_[3]}; }
  static Result<Prng> FromState(const State& state);

 private:
  Prng() = default;
  uint64_t s_[4];
};

constexpr uint64_t kMaxRandomOutcomes = kMaxOutcomeLetters;  // what one ProcessMany takes

// A worker script for benchmarks and demos: `count` outcome letters ('s', 't',
// 'p', as Queue::ProcessMany takes them) drawn with the given percentages; the
// rest of 100 is permanent. OutOfRange if count > kMaxRandomOutcomes or the
// percentages add up to more than 100.
Result<std::string> RandomOutcomes(uint64_t seed, uint64_t count, uint64_t success_pct, uint64_t transient_pct);

}  // namespace dlq
