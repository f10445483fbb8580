// The CLI's file access (files.h).
#include "files.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace dlq::cli {
namespace fs = std::filesystem;

Result<std::string> ReadWholeFile(const std::string& path) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) return Status::NotFound(path + ": no such file or directory");
  if (!fs::is_regular_file(status)) return Status::InvalidArgument(path + ": not a regular file");
  const uintmax_t size = fs::file_size(path, ec);
  if (ec) return Status::InvalidArgument(path + ": cannot read its size: " + ec.message());
  if (size > kMaxFileBytes) {
    return Status::Error(Code::kTooLarge, path + ": " + std::to_string(size) + " bytes, past the " +
                                              std::to_string(kMaxFileBytes >> 20) + " MiB a file may have");
  }
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return Status::InvalidArgument(path + ": cannot open: " + std::strerror(errno));
  std::string text;
  char buffer[1 << 16];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) {
    text.append(buffer, n);
    if (text.size() > kMaxFileBytes) break;  // it grew while we read it
  }
  const bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed) return Status::InvalidArgument(path + ": cannot read");
  if (text.size() > kMaxFileBytes) {
    return Status::Error(Code::kTooLarge,
                         path + ": past the " + std::to_string(kMaxFileBytes >> 20) + " MiB a file may have");
  }
  return text;
}

bool IsDirectory(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

Result<std::vector<std::string>> FilesUnder(const std::string& dir) {
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  if (ec) return Status::InvalidArgument(dir + ": cannot list: " + ec.message());
  std::vector<std::string> files;
  for (const fs::recursive_directory_iterator end; it != end; it.increment(ec)) {
    if (ec) return Status::InvalidArgument(dir + ": cannot list: " + ec.message());
    const fs::directory_entry& entry = *it;
    const std::string name = entry.path().filename().string();
    std::error_code kind_ec;
    if (entry.is_symlink(kind_ec)) {
      // A symlink to a file is read; one to a directory is not descended (no loops).
      if (fs::is_regular_file(entry.path(), kind_ec)) files.push_back(entry.path().lexically_normal().generic_string());
      continue;
    }
    if (entry.is_directory(kind_ec)) {
      if (name == ".git" || name == "node_modules") it.disable_recursion_pending();
      continue;
    }
    if (entry.is_regular_file(kind_ec)) files.push_back(entry.path().lexically_normal().generic_string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

Status WriteWholeFile(const std::string& path, const std::string& text) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return Status::InvalidArgument("--output " + path + ": cannot write: " + std::strerror(errno));
  const size_t written = std::fwrite(text.data(), 1, text.size(), file);
  const bool failed = written != text.size() || std::fclose(file) != 0;
  if (failed) return Status::InvalidArgument("--output " + path + ": cannot write all of it");
  return Status::Ok();
}

}  // namespace dlq::cli
