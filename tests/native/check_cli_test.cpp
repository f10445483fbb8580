// dlq-lab's command line (core/cli/): its arguments, and its file access on a real
// directory tree made here (nested files, .git and node_modules, a symlink loop, a file
// past the size limit). The end-to-end runs over the fixture corpus are in the Node suite
// (tests/node/check-cli.test.mjs), natively and through WebAssembly.
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cli.h"
#include "files.h"

using namespace dlq;
using namespace dlq::cli;
namespace fs = std::filesystem;

namespace {

Result<Args> Parse(std::vector<std::string> args) { return ParseArgs(args); }

std::string ParseError(std::vector<std::string> args) {
  Result<Args> parsed = ParseArgs(args);
  return parsed.ok() ? std::string("(parsed)") : parsed.status().message();
}

// A fresh directory under the system's temporary directory, removed at the end of the scope.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "dlq-cli-test-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  void Write(const std::string& relative, const std::string& text) const {
    fs::create_directories((path / relative).parent_path());
    std::ofstream(path / relative, std::ios::binary) << text;
  }
};

}  // namespace

TEST_CASE("dlq-lab args: check with every option, in both spellings") {
  const Result<Args> a = Parse({"check", "infra", "--format", "sarif", "--config=ci.yml", "--fail-on", "warning",
                                "--link-base=https://example.test/p.html", "--output", "out.sarif", "rabbit.json"});
  REQUIRE(a.ok());
  CHECK(a->command == Args::Command::kCheck);
  CHECK(a->paths == std::vector<std::string>{"infra", "rabbit.json"});
  CHECK(a->format == "sarif");
  CHECK(a->config == "ci.yml");
  CHECK(a->fail_on == check::Level::kWarning);
  CHECK(a->link_base == "https://example.test/p.html");
  CHECK(a->output == "out.sarif");
}

TEST_CASE("dlq-lab args: defaults, --help, --version and paths after --") {
  const Result<Args> a = Parse({"check"});
  REQUIRE(a.ok());
  CHECK(a->paths == std::vector<std::string>{"."});
  CHECK(a->format == "text");
  CHECK(a->fail_on == check::Level::kError);
  CHECK(Parse({"--help"})->command == Args::Command::kHelp);
  CHECK(Parse({"check", "--help"})->command == Args::Command::kHelp);
  CHECK(Parse({"--version"})->command == Args::Command::kVersion);
  CHECK(Parse({"check", "--", "--format"})->paths == std::vector<std::string>{"--format"});
}

TEST_CASE("dlq-lab args: a usage error names the argument, what was expected and what was given") {
  CHECK(ParseError({}) == "expected a command (check), --help or --version, got nothing");
  CHECK(ParseError({"lint"}) == "expected a command (check), --help or --version, got \"lint\"");
  CHECK(ParseError({"check", "--format", "xml"}) ==
        "--format: expected text, json, junit, sarif or github, got \"xml\"");
  CHECK(ParseError({"check", "--format"}) == "--format: expected a value, got nothing");
  CHECK(ParseError({"check", "--config="}) == "--config: expected a value, got an empty one");
  CHECK(ParseError({"check", "--fail-on", "note"}) == "--fail-on: expected warning or error, got \"note\"");
  CHECK(ParseError({"check", "--verbose"}) == "unknown option \"--verbose\" (dlq-lab --help lists them)");
  CHECK(ParseError({"check", "--format", "x\x1b[2J"}) ==
        "--format: expected text, json, junit, sarif or github, got \"x\\x1b[2J\"");
  CHECK(ParseError({"check", ""}) == "expected a path, got an empty argument");
}

TEST_CASE("dlq-lab files: a directory's files, sorted, without .git, node_modules or a symlink loop") {
  TempDir dir;
  dir.Write("b/definitions.json", "{}");
  dir.Write("a.yml", "x: 1");
  dir.Write("b/c/sidekiq.yml", ":max_retries: 3");
  dir.Write(".git/config.json", "{}");
  dir.Write("node_modules/bullmq/options.json", "{}");
  fs::create_directory_symlink(dir.path, dir.path / "b" / "loop");        // a loop back to the top
  fs::create_symlink(dir.path / "a.yml", dir.path / "b" / "a-link.yml");  // a symlink to a file is read
  fs::create_symlink(dir.path / "missing.yml", dir.path / "dangling.yml");
  const Result<std::vector<std::string>> files = FilesUnder(dir.path.string());
  REQUIRE(files.ok());
  const std::string root = dir.path.generic_string();
  CHECK(files.value() == std::vector<std::string>{root + "/a.yml", root + "/b/a-link.yml", root + "/b/c/sidekiq.yml",
                                                  root + "/b/definitions.json"});
}

TEST_CASE("dlq-lab files: a directory given as ./ lists its files without ./") {
  TempDir dir;
  dir.Write("x/y.json", "{}");
  const fs::path before = fs::current_path();
  fs::current_path(dir.path);
  const Result<std::vector<std::string>> files = FilesUnder(".");
  fs::current_path(before);
  REQUIRE(files.ok());
  CHECK(files.value() == std::vector<std::string>{"x/y.json"});
}

TEST_CASE("dlq-lab files: reading refuses a missing file, a directory and a file past the limit, by name") {
  TempDir dir;
  dir.Write("small.json", "{\"a\": 1}");
  const std::string small = (dir.path / "small.json").string();
  REQUIRE(ReadWholeFile(small).ok());
  CHECK(ReadWholeFile(small).value() == "{\"a\": 1}");
  const Result<std::string> missing = ReadWholeFile((dir.path / "nope.json").string());
  CHECK(missing.status().code() == Code::kNotFound);
  CHECK(missing.status().message() == (dir.path / "nope.json").string() + ": no such file or directory");
  CHECK(ReadWholeFile(dir.path.string()).status().message() == dir.path.string() + ": not a regular file");
  const fs::path big = dir.path / "big.json";
  std::ofstream(big).put('{');
  fs::resize_file(big, kMaxFileBytes + 1);  // sparse: nothing is written
  const Result<std::string> too_large = ReadWholeFile(big.string());
  CHECK(too_large.status().code() == Code::kTooLarge);
  CHECK(too_large.status().message() == big.string() + ": 67108865 bytes, past the 64 MiB a file may have");
}

TEST_CASE("dlq-lab files: writing the report names the path when it cannot") {
  TempDir dir;
  const std::string out = (dir.path / "report.sarif").string();
  REQUIRE(WriteWholeFile(out, "{}\n").ok());
  CHECK(ReadWholeFile(out).value() == "{}\n");
  const Status refused = WriteWholeFile((dir.path / "no-such-dir" / "r.json").string(), "x");
  CHECK_FALSE(refused.ok());
  CHECK(refused.message().rfind("--output " + (dir.path / "no-such-dir" / "r.json").string() + ": cannot write: ", 0) ==
        0);
}

TEST_CASE("dlq-lab run: --version, --help and usage errors, with their exit codes") {
  const cli::Outcome v = cli::Run(std::vector<std::string>{"--version"});
  CHECK(v.exit_code == 0);
  CHECK(v.out == std::string("dlq-lab ") + kVersion + "\n");
  CHECK(cli::Run(std::vector<std::string>{"--help"}).out == UsageText());
  const cli::Outcome b = cli::Run(std::vector<std::string>{"check", "--format", "xml"});
  CHECK(b.exit_code == 2);
  CHECK(b.out.empty());
  CHECK(b.err.rfind("dlq-lab: --format: expected text, json, junit, sarif or github, got \"xml\"\n", 0) == 0);
}

TEST_CASE("dlq-lab run: a missing file, a file it does not read and a bad --config are exit 2 by name") {
  TempDir dir;
  dir.Write("notes.txt", "hello");
  dir.Write("ci.yml", "goals:\n  outage: soon\n");
  const std::string notes = (dir.path / "notes.txt").string();
  const std::string config = (dir.path / "ci.yml").string();
  const std::string missing = (dir.path / "missing.json").string();
  const cli::Outcome m = cli::Run(std::vector<std::string>{"check", missing});
  CHECK(m.exit_code == 2);
  CHECK(m.err == "dlq-lab: " + missing + ": no such file or directory\n");
  const cli::Outcome n = cli::Run(std::vector<std::string>{"check", notes});
  CHECK(n.exit_code == 2);
  CHECK(n.err.rfind("dlq-lab: " + notes + ": not a file dlq-lab reads (it reads: ", 0) == 0);
  const cli::Outcome c = cli::Run(std::vector<std::string>{"check", dir.path.string(), "--config", config});
  CHECK(c.exit_code == 2);
  CHECK_MESSAGE(c.err.rfind("dlq-lab: " + config + ":2: ", 0) == 0, c.err);
}

TEST_CASE("dlq-lab run: a directory with nothing it reads is an empty report, exit 0, said on stderr") {
  TempDir dir;
  dir.Write("README.md", "# infra\n");
  const cli::Outcome r = cli::Run(std::vector<std::string>{"check", dir.path.string(), "--format", "json"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("\"summary\": {\"queues\": 0, \"errors\": 0, \"warnings\": 0, \"notes\": 0, \"skipped\": 0}") !=
        std::string::npos);
  CHECK(r.err.rfind("dlq-lab: found no file it reads", 0) == 0);
}

TEST_CASE("dlq-lab run: .dlq-lab.yml in the working directory is read when --config is not given") {
  TempDir dir;
  dir.Write(".dlq-lab.yml", "goals:\n  maxDelay: later\n");
  const fs::path before = fs::current_path();
  fs::current_path(dir.path);
  const cli::Outcome read = cli::Run(std::vector<std::string>{"check"});
  fs::remove(dir.path / ".dlq-lab.yml");
  const cli::Outcome none = cli::Run(std::vector<std::string>{"check", "--format", "json"});
  fs::current_path(before);
  CHECK(read.exit_code == 2);
  CHECK_MESSAGE(read.err.rfind("dlq-lab: .dlq-lab.yml:2: ", 0) == 0, read.err);
  CHECK(none.exit_code == 0);
}
