// The CLI's file access (the project's only file I/O): reading one file whole, and finding
// the files a directory holds. std::filesystem through its error_code overloads only: no
// exception leaves this file (the WebAssembly build cannot catch one).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "status.h"

namespace dlq::cli {

// The largest file read (a file past it is refused by name, never read into memory).
inline constexpr uintmax_t kMaxFileBytes = 64ull << 20;  // 64 MiB

// The whole file. NotFound when it does not exist, kTooLarge past kMaxFileBytes; the message
// names the path.
Result<std::string> ReadWholeFile(const std::string& path);

// True when `path` names a directory (following a symlink given by name).
bool IsDirectory(const std::string& path);

// Every regular file under `dir`, recursively, as paths joined to `dir` as given ("./a"
// written "a"), sorted bytewise. Skips .git and node_modules, never descends a directory
// symlink (so a symlink loop ends), skips what it may not read.
Result<std::vector<std::string>> FilesUnder(const std::string& dir);

// Writes `text` to `path` (replacing it). The message names the path and the reason.
Status WriteWholeFile(const std::string& path, const std::string& text);

}  // namespace dlq::cli
