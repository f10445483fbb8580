// Internal to the core: not part of the API dlq.h gives (layers of the core use it).
// CRC-32 (IEEE 802.3, the zlib polynomial): the check every snapshot and every
// journal record carries, so a truncated, torn or altered text is detected.
// Not a defence against a forger: anyone can recompute it.
#pragma once

#include <cstdint>
#include <string_view>

namespace dlq {

// crc32("123456789") == 0xCBF43926. `seed` continues an earlier result.
uint32_t Crc32(std::string_view bytes, uint32_t seed = 0);

}  // namespace dlq
