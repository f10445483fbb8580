// dlq-lab's command line: the checker's front door, and the only code of the project that
// reads and writes files (everything it reads goes to the core as text; docs/architecture.md).
// Built natively as build/native/dlq-lab and, the same code, as WebAssembly for Node
// (wasm/bin/dlq-lab.mjs, `npx dlq-lab`): both print the same bytes and exit with the same code.
//
//   dlq-lab check [PATH...] [--format F] [--config FILE] [--fail-on warning|error]
//                 [--link-base URL] [--output FILE]
//   dlq-lab --help | --version
#pragma once

#include <span>
#include <string>
#include <vector>

#include "check.h"
#include "status.h"

namespace dlq::cli {

inline constexpr const char* kVersion = check::kToolVersion;  // package.json's version (check.h)

// Exit codes (check.h ExitCode): 0 pass, 1 a failing finding, 2 usage/parse/config error, 3 internal.
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInternal = 3;

struct Args {
  enum class Command : uint8_t { kCheck, kHelp, kVersion };
  Command command = Command::kCheck;
  std::vector<std::string> paths;  // "." when none is given
  std::string format = "text";
  std::string config;  // "" : .dlq-lab.yml in the working directory, when there is one
  check::Level fail_on = check::Level::kError;
  std::string link_base;  // "" : CheckOptions' default
  std::string output;     // "" : standard output
};

// The arguments after the program's name. An error names the argument and says what was
// expected and what was given.
Result<Args> ParseArgs(std::span<const std::string> args);

std::string UsageText();

// Runs the command: what goes to standard output and standard error, and the exit code.
struct Outcome {
  int exit_code = 0;
  std::string out, err;
};
Outcome Run(std::span<const std::string> args);

}  // namespace dlq::cli
