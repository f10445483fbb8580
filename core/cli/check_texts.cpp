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
  if (check::DetectFormat(file.path, file.text).empty()) {
    if (!named) return Status::Ok();  // a folder's other files are passed over
    return Status::InvalidArgument(file.path + ": not a file dlq-lab reads (it reads: " + KnownFormats() + ")");
  }
  if (gathered->seen.insert(file.path).second) gathered->files.push_back(std::move(file));
  return Status::Ok();
}

Result<Checked> CheckGathered(const Gathered& gathered, check::CheckConfig config, const std::string& link_base) {
  check::CheckOptions options;
  options.config = std::move(config);
  if (!link_base.empty()) options.link_base = link_base;
  Result<check::Report> report = check::Check(gathered.files, options);
  if (!report.ok()) return report.status();
  Checked out{std::move(report).value(), ""};
  if (gathered.files.empty()) out.warning = "found no file it reads (it reads: " + KnownFormats() + ")";
  return out;
}

}  // namespace dlq::cli
