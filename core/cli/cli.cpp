// dlq-lab's commands (cli.h): find and read the files, hand their text to the core's
// checker, write the report where asked. Every error becomes "dlq-lab: <message>" on
// standard error and exit 2; the message names the file (and line, from the parsers).
#include <string>
#include <vector>

#include "check_texts.h"
#include "cli.h"
#include "files.h"
#include "formats/formats.h"
#include "readers/readers.h"

namespace dlq::cli {
namespace {

constexpr const char* kDefaultConfig = ".dlq-lab.yml";

// A file named on the command line: read whatever its format; one dlq-lab does not read is an error.
Status AddNamedFile(const std::string& path, Gathered* gathered) {
  Result<std::string> text = ReadWholeFile(path);
  if (!text.ok()) return text.status();
  return AddFile({path, std::move(text).value()}, /*named=*/true, gathered);
}

// The files under a directory that dlq-lab reads; the others are passed over.
Status AddDirectory(const std::string& dir, Gathered* gathered) {
  Result<std::vector<std::string>> paths = FilesUnder(dir);
  if (!paths.ok()) return paths.status();
  for (const std::string& path : paths.value()) {
    Result<std::string> text = ReadWholeFile(path);
    if (!text.ok()) {
      // Too large to read: an error only when its name alone says it is a file dlq-lab reads.
      if (text.status().code() == Code::kTooLarge && check::DetectFormat(path, "").empty()) continue;
      return text.status();
    }
    RETURN_IF_ERROR(AddFile({path, std::move(text).value()}, /*named=*/false, gathered));
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
  Gathered gathered;
  for (const std::string& path : args.paths) {
    const Status added = IsDirectory(path) ? AddDirectory(path, &gathered) : AddNamedFile(path, &gathered);
    if (!added.ok()) return Fail(added);
  }
  Result<Checked> checked = CheckGathered(gathered, std::move(config).value(), args.link_base);
  if (!checked.ok()) return Fail(checked.status());
  const check::Report& report = checked->report;
  Result<std::string> text = check::Format(report, args.format);
  if (!text.ok()) return Fail(text.status());
  Outcome outcome{check::ExitCode(report, args.fail_on), "", ""};
  if (!checked->warning.empty()) outcome.err = "dlq-lab: " + checked->warning + "\n";
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
    outcome.err +=
        "usage: dlq-lab check [PATH...] [--format F] [--config FILE] [--fail-on warning|error] "
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
