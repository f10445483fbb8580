// libFuzzer harness: the checker's configuration file (ReadCheckConfig, core/check/check_config.cpp).
// Every input is refused with a located, well-formed error naming the file, or gives a
// configuration within its documented ranges: durations above 0 and at most 365 days, an
// outage probability in (0, 1], each skip naming a known rule with a non-empty reason and
// queue. Seeds: tests/fuzz/check-seeds/config/.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "check.h"
#include "check_tree.h"

using namespace dlq;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  constexpr int64_t kYearMs = int64_t{365} * 24 * 3'600'000;
  for (const std::string_view file : {std::string_view(".dlq-lab.yml"), std::string_view("dlq-lab.json")}) {
    Result<check::CheckConfig> config = check::ReadCheckConfig(file, input);
    if (!config.ok()) {
      fuzz::CheckParseRefusal(config.status(), file, input);
      continue;
    }
    const check::Goals& g = config->goals;
    const std::string where = fuzz::Show(input);
    FUZZ_CHECK(g.outage_ms > 0 && g.outage_ms <= kYearMs, where);
    FUZZ_CHECK(g.outage_probability > 0 && g.outage_probability <= 1, where);
    FUZZ_CHECK(g.max_delay_ms > 0 && g.max_delay_ms <= kYearMs, where);
    FUZZ_CHECK(!g.max_time_to_dlq_ms || (*g.max_time_to_dlq_ms > 0 && *g.max_time_to_dlq_ms <= kYearMs), where);
    for (const check::Skip& skip : config->skips) {
      const auto ids = check::RuleIds();
      FUZZ_CHECK(std::any_of(ids.begin(), ids.end(), [&](const char* id) { return skip.rule == id; }), where);
      FUZZ_CHECK(!skip.reason.empty() && !skip.queue.empty(), where);
      FUZZ_CHECK(skip.at.file == file && skip.at.line >= 1 && skip.at.line <= fuzz::Lines(input), where);
    }
  }
  return 0;
}
