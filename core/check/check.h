// dlq-lab check: the core's knowledge of each system (its budget, schedule, jitter,
// worst case and terminal place) applied to a team's own queue configuration, for their CI.
// docs/check.md documents the rules, the formats, the goals and the output.
//
// The flow, every step in the core (one code natively, in the Node front door and in the page):
//   files (path + text) --readers/--> Inventory (model.h) --join--> rules/ --> Report --formats/--> text
// The front doors only find files and print: the CLI (build/native/dlq-lab, and the same
// code through WebAssembly for `npx dlq-lab`) and the page's Check panel.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "document.h"
#include "model.h"
#include "status.h"

namespace dlq::check {

// dlq-lab's version, package.json's (tests/node/check-cli.test.mjs holds them equal): what
// `dlq-lab --version` prints, and the SARIF report's tool.driver.version.
inline constexpr const char* kToolVersion = "0.1.0";

enum class Level : uint8_t { kNote, kWarning, kError };
const char* LevelName(Level level);  // "note", "warning", "error"

// The goals a team states (.dlq-lab.yml `goals:`); a goal stated makes its rule an error.
struct Goals {
  int64_t outage_ms = 5 * 60'000;  // RETRY-OUTLASTS-OUTAGE
  double outage_probability = 0.99;
  std::optional<int64_t> max_time_to_dlq_ms;             // RETRY-BOUNDED
  int64_t max_delay_ms = 60 * 60'000;                    // BACKOFF-CAP
  bool outage_stated = false, max_delay_stated = false;  // (max_time_to_dlq is stated when set)
};

// A skip: from the configuration file (`skip:`) or an inline comment. A reason is required.
struct Skip {
  std::string rule;
  std::string queue;  // a queue name, or a glob pattern (* and ?); "" for an inline skip
  std::string reason;
  Location at;
};

struct CheckConfig {
  Goals goals;
  std::vector<Skip> skips;
};
// `.dlq-lab.yml` (YAML or JSON). Durations: "15m", "24h", "90s", "500ms", or a number of ms.
// A skip without a reason, an unknown key, a bad duration: an error naming file and line.
Result<CheckConfig> ReadCheckConfig(std::string_view file, std::string_view text);

struct Finding {
  std::string rule;  // "DLQ-EXISTS"
  Level level = Level::kError;
  std::string queue;    // the queue's name ("" for a finding about a file)
  Location at;          // the setting it is about
  std::string message;  // with the computed path: "attempt 5 at 41 min → orders-dlq"
  std::string link;     // a v2 scenario URL that plays the case, or ""
  bool skipped = false;
  std::string reason;  // the skip's reason
};

struct QueueSummary {
  std::string name, system;
  Location at;
  std::string dlq;                       // the DLQ's name, "" for none
  std::optional<int64_t> attempts;       // deliveries before the terminal place; nullopt: unbounded
  std::optional<int64_t> worst_case_ms;  // the lab's worst case; nullopt: unbounded or unknown
};

struct Report {
  std::vector<QueueSummary> queues;
  std::vector<Finding> findings;  // sorted by file, line, rule
  int errors = 0, warnings = 0, notes = 0, skipped = 0;
};

struct SourceFile {
  std::string path;  // as the user named it; printed in findings
  std::string text;
};

struct CheckOptions {
  CheckConfig config;
  std::string link_base = "https://dlq-lab.dev/playground.html";
};

// The format a file is in, judged from its name and content ("terraform-plan",
// "cloudformation", "rabbitmq-definitions", "rabbitmq-topology", "sidekiq-yml",
// "sidekiq-ruby", "bullmq-options"), or "" for a file the checker does not read.
std::string DetectFormat(std::string_view path, std::string_view text);

// Reads every file, joins, applies every rule. A file that does not parse, or that is in
// no known format when named explicitly, is an error (exit 2) naming the file and line.
Result<Report> Check(std::span<const SourceFile> files, const CheckOptions& options);

// DetectFormat's answer with the tree its parse built: the CLI detects every file it is
// given, and Check reads these trees instead of parsing each file again (a 35 MB plan
// takes about as long to parse as to check).
struct DetectedFile {
  std::string format;                    // as DetectFormat: "" for a file the checker does not read
  std::shared_ptr<const Document> tree;  // null for a text format (or none)
};
DetectedFile DetectFile(std::string_view path, std::string_view text);
// Check, with detected[i] DetectFile's answer for files[i] (the same report, one parse fewer).
Result<Report> Check(std::span<const SourceFile> files, const CheckOptions& options,
                     std::span<const DetectedFile> detected);

// The rules over an inventory already read and gathered (Check's second half): join the
// files (join.h), run every rule, apply the skips, summarise each queue, sort the findings.
// A skip (config or inline) without a reason or naming no rule: an error naming file and line.
Result<Report> Judge(const Inventory& inventory, const CheckOptions& options);

// Every rule's id, in the table order (rules/rules.cpp): the ids a skip may name.
std::span<const char* const> RuleIds();
// The `rule` of a note a reader attached to a queue (ReaderNote: "custom schedule, not read"):
// not a rule, so never skipped and never failing; Judge reports each as a note.
inline constexpr const char* kReaderNoteRule = "READER-NOTE";

// Exit codes: 0 no failing finding, 1 a failing one (an error, or a warning with
// fail_on kWarning; skipped findings never fail), 2 usage/parse/config error, 3 internal.
int ExitCode(const Report& report, Level fail_on);

// "text", "json", "junit", "sarif", "github"; InvalidArgument for any other name.
Result<std::string> Format(const Report& report, std::string_view format);

}  // namespace dlq::check
