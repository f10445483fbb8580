// Shared by the libFuzzer harnesses: a broken invariant prints what broke, where,
// and the input's first bytes, then traps, so libFuzzer saves the input as a crash.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "dlq.h"
#include "text.h"

// The heap budget (what live queues keep) is checked where the core has one.
#if __has_include("heap_budget.h")
#include "heap_budget.h"
#define DLQ_FUZZ_HEAP_BUDGET 1
#endif

namespace dlq::fuzz {

[[noreturn]] inline void Fail(const char* file, int line, const char* what, const std::string& detail) {
  std::fprintf(stderr, "\n%s:%d: broken invariant: %s\n", file, line, what);
  if (!detail.empty()) std::fprintf(stderr, "  %s\n", detail.c_str());
  std::fflush(stderr);
  __builtin_trap();
}

// CHECK(condition) or CHECK(condition, detail string).
#define FUZZ_CHECK(condition, ...)                                                                 \
  do {                                                                                             \
    if (!(condition)) ::dlq::fuzz::Fail(__FILE__, __LINE__, #condition, std::string(__VA_ARGS__)); \
  } while (false)

// The input, quoted and cut, for failure details.
inline std::string Show(std::string_view bytes) { return QuoteShort(bytes, 200); }

// A code of the enum other than OK (CodeName says "unknown" for anything else).
inline bool KnownCode(Code code) { return code != Code::kOk && std::string_view(CodeName(code)) != "unknown"; }

// A refusal: non-OK, a known code, a non-empty message that is valid UTF-8 (the JS
// API hands it to JavaScript as a string) and on one line.
inline void CheckRefusal(const Status& s, const char* call, std::string_view input = {}) {
  const auto where = [&] { return std::string(call) + " on " + Show(input) + ": " + s.ToString(); };
  FUZZ_CHECK(!s.ok(), where());
  FUZZ_CHECK(KnownCode(s.code()), where());
  FUZZ_CHECK(!s.message().empty(), where());
  FUZZ_CHECK(IsValidUtf8(s.message()), where());
  FUZZ_CHECK(s.message().find('\n') == std::string::npos, where());
}

// Bytes the live queues have charged to the heap budget (0 where there is none).
inline size_t HeapUsed() {
#ifdef DLQ_FUZZ_HEAP_BUDGET
  return HeapBudget::used();
#else
  return 0;
#endif
}

}  // namespace dlq::fuzz
