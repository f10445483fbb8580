// libFuzzer harness: the checker's JSON parser (ParseJson, core/check/internal/json_parser.cpp).
// Every input is refused with a located, well-formed error or gives a tree that keeps
// document.h's contract (check_tree.h); nothing crashes, leaks or hangs. The same bytes
// parse the same way twice. Seeds: tests/fuzz/check-seeds/json/ (small real-shaped files).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "check_tree.h"

using namespace dlq;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  Result<check::Document> doc = check::ParseJson("fuzz.json", input);
  if (!doc.ok()) {
    fuzz::CheckParseRefusal(doc.status(), "fuzz.json", input);
    const Result<check::Document> again = check::ParseJson("fuzz.json", input);
    FUZZ_CHECK(!again.ok() && again.status().message() == doc.status().message(), fuzz::Show(input));
    return 0;
  }
  fuzz::CheckTree(doc.value(), "fuzz.json", input);
  FUZZ_CHECK(doc->more_roots.empty(), fuzz::Show(input));
  return 0;
}
