// dlq-lab's entry point, natively and under Node (cli.h). Prints what Run() says and exits
// with its code. Natively an exception from the standard library (out of memory) is an
// internal error, exit 3; the WebAssembly build cannot catch one, and its launcher
// (wasm/bin/dlq-lab.mjs) turns an abort into the same exit 3.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cli.h"

namespace {

void Print(std::FILE* stream, const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stream);
  std::fflush(stream);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::vector<std::string> args(argv + 1, argv + argc);
    const dlq::cli::Outcome outcome = dlq::cli::Run(args);
    Print(stdout, outcome.out);
    Print(stderr, outcome.err);
    return outcome.exit_code;
  } catch (const std::exception& e) {
    Print(stderr, std::string("dlq-lab: internal error: ") + e.what() + "\n");
    return dlq::cli::kExitInternal;
  }
}
