#include "prng.h"

namespace dlq {
namespace {

uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

Prng::Prng(uint64_t seed) {
  for (uint64_t& word : s_) word = SplitMix64(seed);
}

Prng::Prng(uint64_t seed, PrngStream stream) : Prng(seed ^ (static_cast<uint64_t>(stream) * 0xD1B54A32D192ED03ULL)) {}

Result<Prng> Prng::FromState(const State& state) {
  if (state[0] == 0 && state[1] == 0 && state[2] == 0 && state[3] == 0) {
    return Status::InvalidArgument("a PRNG state must not be all zero (xoshiro would only ever return 0)");
  }
  Prng prng;
  for (int i = 0; i < 4; ++i) prng.s_[i] = state[static_cast<size_t>(i)];
  return prng;
}

uint64_t Prng::Next() {
  const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = Rotl(s_[3], 45);
  return result;
}

uint32_t Prng::Below(uint32_t bound) {
  // Rejection sampling on the top 32 bits: accept only below the largest multiple of bound.
  const uint32_t limit = UINT32_MAX - UINT32_MAX % bound;
  while (true) {
    const auto x = static_cast<uint32_t>(Next() >> 32);
    if (x < limit) return x % bound;
  }
}

Result<std::string> RandomOutcomes(uint64_t seed, uint64_t count, uint64_t success_pct, uint64_t transient_pct) {
  if (count > kMaxRandomOutcomes) {
    return Status::OutOfRange("count must be at most " + std::to_string(kMaxRandomOutcomes) + ", got " +
                              std::to_string(count));
  }
  if (success_pct > 100 || transient_pct > 100 || success_pct + transient_pct > 100) {
    return Status::OutOfRange("successPercent + transientPercent must be at most 100, got " +
                              std::to_string(success_pct) + " + " + std::to_string(transient_pct));
  }
  Prng prng(seed);
  std::string out(static_cast<size_t>(count), 's');
  for (char& c : out) {
    const uint32_t roll = prng.Below(100);
    c = roll < success_pct ? 's' : roll < success_pct + transient_pct ? 't' : 'p';
  }
  return out;
}

}  // namespace dlq
