// dlq-lab's commands (cli.h): find and read the files, hand their text to the core's
// checker, write the report where asked. Every error becomes "dlq-lab: <message>" on
// standard error and exit 2; the message names the file (and line, from the parsers).
#include <cstddef>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cli.h"
#include "files.h"
#include "formats/formats.h"
#include "readers/readers.h"

namespace dlq::cli {
namespace {

constexpr const char* kDefaultConfig = ".dlq-lab.yml";

std::string KnownFormats() {
  std::string out;
  for (const check::Reader& reader : check::Readers()) out += std::string(out.empty() ? "" : ", ") + reader.label;
  return out;
}

// The files to check, each with its format detected (DetectFile: its tree is parsed once,
// here, and Check reads it); detected[i] is files[i]'s. Trees are kept for at most
// kKeptTreeBytes of text: past it Check parses the rest one at a time, as it would anyway,
// so a directory of large files never holds all their trees at once (the WebAssembly
// module has 2 GB).
constexpr size_t kKeptTreeBytes = size_t{64} << 20;
struct Found {
  std::vector<check::SourceFile> files;
  std::vector<check::DetectedFile> detected;
  size_t kept_bytes = 0;

  void Add(std::string path, std::string text, check::DetectedFile detection) {
    if (detection.tree != nullptr) {
      if (kept_bytes + text.size() > kKeptTreeBytes) detection = {};  // Check detects it again
      else kept_bytes += text.size();
    }
    files.push_back({std::move(path), std::move(text)});
    detected.push_back(std::move(detection));
  }
};

// A file named on the command line: read whatever its format; one dlq-lab does not read is an error.
Status AddNamedFile(const std::string& path, Found* found) {
  Result<std::string> text = ReadWholeFile(path);
  if (!text.ok()) return text.status();
  check::DetectedFile detected = check::DetectFile(path, text.value());
  if (detected.format.empty()) {
    return Status::InvalidArgument(path + ": not a file dlq-lab reads (it reads: " + KnownFormats() + ")");
  }
  found->Add(path, std::move(text).value(), std::move(detected));
  return Status::Ok();
}

// The files under a directory that dlq-lab reads; the others are passed over.
Status AddDirectory(const std::string& dir, Found* found) {
  Result<std::vector<std::string>> paths = FilesUnder(dir);
  if (!paths.ok()) return paths.status();
  for (const std::string& path : paths.value()) {
    Result<std::string> text = ReadWholeFile(path);
    if (!text.ok()) {
      // Too large to read: an error only when its name alone says it is a file dlq-lab reads.
      if (text.status().code() == Code::kTooLarge && check::DetectFormat(path, "").empty()) continue;
      return text.status();
    }
    check::DetectedFile detected = check::DetectFile(path, text.value());
    if (detected.format.empty()) continue;
    found->Add(path, std::move(text).value(), std::move(detected));
  }
  return Status::Ok();
}

Result<check::CheckConfig> LoadConfig(const Args& args) {
  std::string path = args.config;
  if (path.empty()) {
    if (ReadWholeFile(kDefaultConfig).status().code() == Code::kNotFound) return check::CheckConfig{};
    path = kDefaultConfig;
  }
  Result<std::string> text = ReadWholeFile(path);
  if (!text.ok()) return text.status();
  return check::ReadCheckConfig(path, text.value());
}

Outcome Fail(const Status& status) {
  return Outcome{kExitUsage, "", "dlq-lab: " + check::formats::TerminalText(status.message()) + "\n"};
}

Outcome RunCheck(const Args& args) {
  Result<check::CheckConfig> config = LoadConfig(args);
  if (!config.ok()) return Fail(config.status());
  Found all;
  std::set<std::string> seen;
  for (const std::string& path : args.paths) {
    Found found;
    found.kept_bytes = all.kept_bytes;
    const Status added = IsDirectory(path) ? AddDirectory(path, &found) : AddNamedFile(path, &found);
    if (!added.ok()) return Fail(added);
    // A file reached twice (named, and under a named directory) is checked once.
    for (size_t i = 0; i < found.files.size(); ++i) {
      if (!seen.insert(found.files[i].path).second) continue;
      all.files.push_back(std::move(found.files[i]));
      all.detected.push_back(std::move(found.detected[i]));
    }
    all.kept_bytes = found.kept_bytes;
  }
  const std::vector<check::SourceFile>& files = all.files;
  check::CheckOptions options;
  options.config = std::move(config).value();
  if (!args.link_base.empty()) options.link_base = args.link_base;
  Result<check::Report> report = check::Check(files, options, all.detected);
  if (!report.ok()) return Fail(report.status());
  Result<std::string> text = check::Format(report.value(), args.format);
  if (!text.ok()) return Fail(text.status());
  Outcome outcome{check::ExitCode(report.value(), args.fail_on), "", ""};
  if (files.empty()) outcome.err = "dlq-lab: found no file it reads (it reads: " + KnownFormats() + ")\n";
  if (args.output.empty()) {
    outcome.out = std::move(text).value();
  } else if (const Status written = WriteWholeFile(args.output, text.value()); !written.ok()) {
    return Fail(written);
  }
  return outcome;
}

}  // namespace

Outcome Run(std::span<const std::string> argv) {
  Result<Args> args = ParseArgs(argv);
  if (!args.ok()) {
    Outcome outcome = Fail(args.status());
    outcome.err += "usage: dlq-lab check [PATH...] [--format F] [--config FILE] [--fail-on warning|error] "
                   "[--link-base URL] [--output FILE] (dlq-lab --help)\n";
    return outcome;
  }
  switch (args->command) {
    case Args::Command::kHelp: return Outcome{0, UsageText(), ""};
    case Args::Command::kVersion: return Outcome{0, std::string("dlq-lab ") + kVersion + "\n", ""};
    case Args::Command::kCheck: return RunCheck(args.value());
  }
  return Outcome{kExitInternal, "", "dlq-lab: internal error: unknown command\n"};
}

}  // namespace dlq::cli
