// DetectFormat and Check (check.h): each file's format through the reader table, its
// parse, its reader, then Judge over every file's inventory together.
#include "check.h"

#include <memory>
#include <optional>
#include <utility>

#include "readers/readers.h"

namespace dlq::check {

namespace {

// A JSON text starts with an object or a list (RFC 8259 allows a bare scalar, which no
// format the checker reads is); anything else is tried as YAML.
bool LooksLikeJson(std::string_view text) {
  size_t i = text.find_first_not_of(" \t\r\n");
  if (text.substr(0, 3) == "\xEF\xBB\xBF") i = text.find_first_not_of(" \t\r\n", 3);
  return i != std::string_view::npos && (text[i] == '{' || text[i] == '[');
}

// One file's format: its reader, its parsed tree (null for a text format), or why none.
struct Detected {
  const Reader* reader = nullptr;
  std::optional<Document> doc;
  Status parse_error;  // the parse that failed, when no reader took the file
};

// Parses `text` at most once per syntax, and asks each reader in table order. `keep_tree`:
// the tree is moved into the answer (never copied: a 35 MB plan's tree is about a million
// values); DetectFormat, which needs only the format, drops it.
Detected Detect(std::span<const Reader> readers, std::string_view path, std::string_view text, bool keep_tree) {
  const bool json_like = LooksLikeJson(text);
  std::optional<Result<Document>> json, yaml;
  Detected out;
  for (const Reader& reader : readers) {
    Result<Document>* parsed = nullptr;
    if (reader.syntax == Syntax::kJson || (reader.syntax == Syntax::kJsonOrYaml && json_like)) {
      if (!json_like) continue;
      if (!json) json = ParseJson(path, text);
      parsed = &*json;
    } else if (reader.syntax == Syntax::kYaml || reader.syntax == Syntax::kJsonOrYaml) {
      if (!yaml) yaml = ParseYaml(path, text);
      parsed = &*yaml;
    }
    if (parsed != nullptr && !parsed->ok()) {
      if (out.parse_error.ok()) out.parse_error = parsed->status();
      continue;
    }
    const Node* root = parsed != nullptr ? &parsed->value().root : nullptr;
    if (!reader.detects(path, text, root)) continue;
    out.reader = &reader;
    if (parsed != nullptr && keep_tree) out.doc = std::move(*parsed).value();
    return out;
  }
  return out;
}

std::string FormatList(std::span<const Reader> readers) {
  std::string out;
  for (const Reader& reader : readers) out += (out.empty() ? "" : "; ") + std::string(reader.label);
  return out.empty() ? "none is built in" : out;
}

}  // namespace

std::string DetectFormatWithReaders(std::span<const Reader> readers, std::string_view path, std::string_view text) {
  Detected detected = Detect(readers, path, text, /*keep_tree=*/false);
  return detected.reader != nullptr ? detected.reader->format : "";
}

std::string DetectFormat(std::string_view path, std::string_view text) {
  return DetectFormatWithReaders(Readers(), path, text);
}

DetectedFile DetectFile(std::string_view path, std::string_view text) {
  Detected detected = Detect(Readers(), path, text, /*keep_tree=*/true);
  DetectedFile out;
  if (detected.reader == nullptr) return out;
  out.format = detected.reader->format;
  if (detected.doc) out.tree = std::make_shared<const Document>(std::move(*detected.doc));
  return out;
}

Result<Report> CheckWithReaders(std::span<const Reader> readers, std::span<const SourceFile> files,
                                const CheckOptions& options, std::span<const DetectedFile> detected) {
  Inventory inventory;
  for (size_t i = 0; i < files.size(); ++i) {
    const SourceFile& file = files[i];
    // A file DetectFile took: its reader by format, its tree as parsed then.
    const Reader* known = nullptr;
    if (i < detected.size() && !detected[i].format.empty()) {
      for (const Reader& reader : readers) {
        if (detected[i].format == reader.format) known = &reader;
      }
    }
    if (known != nullptr) {
      RETURN_IF_ERROR(known->read(file, detected[i].tree.get(), &inventory));
      continue;
    }
    Detected found = Detect(readers, file.path, file.text, /*keep_tree=*/true);
    if (found.reader == nullptr) {
      if (!found.parse_error.ok()) return found.parse_error;
      return Status::InvalidArgument(
          file.path + ": not a format dlq-lab check reads (expected one of: " + FormatList(readers) + ")");
    }
    const Document* doc = found.doc ? &*found.doc : nullptr;
    RETURN_IF_ERROR(found.reader->read(file, doc, &inventory));
  }
  JoinInventory(&inventory);  // what a format spreads over files (Sidekiq's sidekiq.yml onto its jobs)
  return Judge(inventory, options);
}

Result<Report> Check(std::span<const SourceFile> files, const CheckOptions& options) {
  return CheckWithReaders(Readers(), files, options);
}

Result<Report> Check(std::span<const SourceFile> files, const CheckOptions& options,
                     std::span<const DetectedFile> detected) {
  return CheckWithReaders(Readers(), files, options, detected);
}

}  // namespace dlq::check
