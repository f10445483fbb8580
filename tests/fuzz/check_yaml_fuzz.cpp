// libFuzzer harness: the checker's YAML parser (ParseYaml, core/check/internal/yaml_parser.cpp,
// on libfyaml). Every input is refused with a located, well-formed error or gives a tree that
// keeps document.h's contract (check_tree.h), aliases expanded within kMaxAliasNodes; nothing
// crashes, leaks or hangs, in the library or around it. Seeds: tests/fuzz/check-seeds/yaml/.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "check_tree.h"

using namespace dlq;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  Result<check::Document> doc = check::ParseYaml("fuzz.yaml", input);
  if (!doc.ok()) {
    fuzz::CheckParseRefusal(doc.status(), "fuzz.yaml", input);
    return 0;
  }
  fuzz::CheckTree(doc.value(), "fuzz.yaml", input);
  // Skip comments are read from any text without failing.
  for (const check::SkipComment& skip : check::FindSkipComments(input)) {
    FUZZ_CHECK(skip.line >= 1 && skip.line <= fuzz::Lines(input), fuzz::Show(input));
  }
  return 0;
}
