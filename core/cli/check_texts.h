// The check of files already read: what `dlq-lab check` does with each file's text and then
// with them all, shared by the CLI (cli.cpp, which finds and reads the files) and the page's
// Check panel (wasm/check_binding.cpp, whose files are pasted or dropped). No file I/O here, so
// the page's module carries none of the CLI's filesystem code.
//
// The order is the CLI's: the config read first (check::ReadCheckConfig), then each file as it
// is read (AddFile), then the check over them all (CheckGathered).
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "check.h"
#include "status.h"

namespace dlq::cli {

// The files to check, in the order given, each path once, with each one's format detected
// (check::DetectFile: its tree is parsed once, here, and Check reads it); detected[i] is
// files[i]'s. Trees are kept for at most kKeptTreeBytes of text: past it Check parses the
// rest one at a time, so a folder of large files never holds all their trees at once (the
// WebAssembly module has 2 GB).
inline constexpr size_t kKeptTreeBytes = size_t{64} << 20;
struct Gathered {
  std::vector<check::SourceFile> files;
  std::vector<check::DetectedFile> detected;
  std::set<std::string> seen;
  size_t kept_bytes = 0;
};

// One file read. `named`: the user named it, so one dlq-lab does not read is an error naming it;
// otherwise (found in a folder) such a file is passed over. A path already gathered is checked once.
Status AddFile(check::SourceFile file, bool named, Gathered* gathered);

struct Checked {
  check::Report report;
  std::string warning;  // "" or "found no file it reads (…)" (the CLI prints it after "dlq-lab: ")
};

// check::Check over the gathered files, with the config and link base ("" : CheckOptions' default).
Result<Checked> CheckGathered(const Gathered& gathered, check::CheckConfig config, const std::string& link_base);

// "a, b, …": the formats dlq-lab reads, as its messages list them.
std::string KnownFormats();

}  // namespace dlq::cli
