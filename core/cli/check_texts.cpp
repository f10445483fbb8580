// AddFile and CheckGathered (check_texts.h): the CLI's check, once its files are read.
#include "check_texts.h"

#include "readers/readers.h"

namespace dlq::cli {

std::string KnownFormats() {
  std::string out;
  for (const check::Reader& reader : check::Readers()) out += std::string(out.empty() ? "" : ", ") + reader.label;
  return out;
}

Status AddFile(check::SourceFile file, bool named, Gathered* gathered) {
  if (gathered->seen.count(file.path) != 0) return Status::Ok();  // a path already gathered is checked once
  check::DetectedFile detected = check::DetectFile(file.path, file.text);
  if (detected.format.empty()) {
    if (!named) return Status::Ok();  // a folder's other files are passed over
    return Status::InvalidArgument(file.path + ": not a file dlq-lab reads (it reads: " + KnownFormats() + ")");
  }
  if (detected.tree != nullptr) {
    if (gathered->kept_bytes + file.text.size() > kKeptTreeBytes) detected = {};  // Check detects and parses it again
    else gathered->kept_bytes += file.text.size();
  }
  gathered->seen.insert(file.path);
  gathered->files.push_back(std::move(file));
  gathered->detected.push_back(std::move(detected));
  return Status::Ok();
}

Result<Checked> CheckGathered(const Gathered& gathered, check::CheckConfig config, const std::string& link_base) {
  check::CheckOptions options;
  options.config = std::move(config);
  if (!link_base.empty()) options.link_base = link_base;
  Result<check::Report> report = check::Check(gathered.files, options, gathered.detected);
  if (!report.ok()) return report.status();
  Checked out{std::move(report).value(), ""};
  if (gathered.files.empty()) out.warning = "found no file it reads (it reads: " + KnownFormats() + ")";
  return out;
}

}  // namespace dlq::cli
