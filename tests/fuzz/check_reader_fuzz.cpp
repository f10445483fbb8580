// libFuzzer harness: one of the checker's readers (core/check/readers/), compiled once and
// linked once per reader with check_reader_name.cpp, whose kReaderFormat names its format
// ("terraform-plan") and kReaderPath the file name the input is checked as ("plan.json":
// some readers detect by name). Each input is
// one file through the whole flow with that reader alone (detect, parse, read, join, judge)
// and every output format; check_report.h says what must hold.
// Seeds: DLQ_CHECK_FUZZ_SEEDS=<dir> DLQ_CHECK_FUZZ_FROM=<dir>[:<dir>…] ./check_<format>_fuzz copies
// every file under the FROM folders that the core's DetectFormat calls this reader's format into
// <dir> and exits (scripts/dlq.mjs does this with tests/fixtures/check and
// tests/fuzz/check-seeds/<format>), so which file is which format is decided once, in C++.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "check.h"
#include "check_report.h"
#include "readers/readers.h"

using namespace dlq;

namespace dlq::fuzz {
// The harness's reader (check_reader_name.cpp, compiled per harness).
extern const char kReaderFormat[];
extern const char kReaderPath[];
}  // namespace dlq::fuzz

namespace {

const check::Reader& TheReader() {
  static const check::Reader* reader = [] {
    for (const check::Reader& r : check::Readers()) {
      if (std::string_view(r.format) == fuzz::kReaderFormat) return &r;
    }
    fuzz::Fail(__FILE__, __LINE__, "no reader of the harness's format", fuzz::kReaderFormat);
  }();
  return *reader;
}

void WriteSeeds(const std::filesystem::path& to, std::string_view from_list) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  size_t start = 0;
  while (start <= from_list.size()) {
    const size_t end = std::min(from_list.find(':', start), from_list.size());
    const fs::path from(std::string(from_list.substr(start, end - start)));
    if (!from.empty() && fs::is_directory(from)) {
      for (const fs::directory_entry& entry : fs::recursive_directory_iterator(from)) {
        if (entry.is_regular_file()) files.push_back(entry.path());
      }
    }
    start = end + 1;
  }
  std::sort(files.begin(), files.end());
  int n = 0;
  for (const fs::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (check::DetectFormat(file.generic_string(), text) != fuzz::kReaderFormat) continue;
    std::ofstream(to / ("seed-" + std::to_string(++n) + "-" + file.filename().string()), std::ios::binary) << text;
  }
  std::fprintf(stderr, "%d seeds for %s in %s\n", n, fuzz::kReaderFormat, to.c_str());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* to = std::getenv("DLQ_CHECK_FUZZ_SEEDS")) {
    const char* from = std::getenv("DLQ_CHECK_FUZZ_FROM");
    WriteSeeds(to, from ? from : "");
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const check::SourceFile file{fuzz::kReaderPath, std::string(input)};
  const std::span<const check::Reader> readers(&TheReader(), 1);
  Result<check::Report> report = check::CheckWithReaders(readers, std::span(&file, 1), check::CheckOptions{});
  if (!report.ok()) {
    fuzz::CheckCheckRefusal(report.status(), file.path, input);
    return 0;
  }
  fuzz::CheckReport(report.value(), file.path, input);
  return 0;
}
