// The checker's readers: one file per format (readers/<format>.cpp), each filling an
// Inventory (model.h) from one file. The table below is the one list of formats: what
// DetectFormat recognises, what a directory search picks up, what docs/check.md lists.
//
// A reader's contract:
//  * It records what the file says, with the Location of every setting it reads, and
//    decides nothing about good or bad (rules/ do).
//  * A queue's policy is built through the policy's schema (field names as links and the
//    page spell them), with the system's documented defaults for what the file leaves out;
//    each default's source is cited in docs/check.md.
//  * A value it cannot know is an Unknown, never a guess. A setting it cannot read is a
//    parse error naming file, line, what was expected and what was given (exit 2).
//  * It references other queues by id (model.h); the join resolves them across files.
#pragma once

#include <span>
#include <string_view>

#include "check.h"
#include "document.h"
#include "model.h"
#include "status.h"

namespace dlq::check {

enum class Syntax : uint8_t { kJson, kYaml, kJsonOrYaml, kText };

struct Reader {
  const char* format;  // "terraform-plan", as DetectFormat names it
  const char* label;   // "Terraform plan JSON (terraform show -json)"
  Syntax syntax;
  // True when `path`/`text` (and, for JSON/YAML, the parsed root) is this format.
  bool (*detects)(std::string_view path, std::string_view text, const Node* root);
  // Reads the file into `out` (appends). `doc` is null for Syntax::kText.
  Status (*read)(const SourceFile& file, const Document* doc, Inventory* out);
};

// Every reader, in the order DetectFormat tries them.
std::span<const Reader> Readers();

// What one format spreads over several files, joined once every file is read and before any
// rule runs: Sidekiq's config/sidekiq.yml settings onto the job classes that leave them to the
// default (readers/sidekiq.cpp). Check() calls it once.
void JoinInventory(Inventory* inventory);

// Check and DetectFormat (check.h) over the table `readers` (they pass Readers()): a test
// plays the whole flow (detect, parse, read, join, judge) with a reader of its own.
// `detected`: DetectFile's answers for `files` (or empty: each file is detected here).
Result<Report> CheckWithReaders(std::span<const Reader> readers, std::span<const SourceFile> files,
                                const CheckOptions& options, std::span<const DetectedFile> detected = {});
std::string DetectFormatWithReaders(std::span<const Reader> readers, std::string_view path, std::string_view text);

}  // namespace dlq::check
