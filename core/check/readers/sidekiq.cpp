// Sidekiq: config/sidekiq.yml (the process's max_retries, dead_max_jobs, dead_timeout_in_seconds)
// and the job classes under app/ (a Ruby file, read as text: Ruby is not evaluated). Each class
// with `include Sidekiq::Job` (or ::Worker) or a `sidekiq_options …` line is a queue named by its
// class; its options line goes through the core's reader (core/config/sidekiq_config.cpp).
// Sidekiq's defaults, cited in docs/check.md: 25 retries, a Dead set of 10,000 jobs kept 180 days.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "config_import.h"
#include "internal/translation.h"
#include "broker_readers.h"
#include "text.h"

namespace dlq::check {
namespace {

constexpr int64_t kDefaultDeadTimeoutS = 180LL * 24 * 60 * 60;  // lib/sidekiq/config.rb: 6 months
constexpr int64_t kMaxRetries = Policy::kMaxAttempts - 1;
// The most classes and modules read from one Ruby file (a hostile file of `class` lines is
// refused by its count, not held in memory).
constexpr size_t kMaxClasses = 100'000;
// The deepest nesting of classes and modules read (a qualified name holds every level).
constexpr size_t kMaxNesting = 64;

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}
bool IsWord(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }
size_t Indent(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  return i;
}
// `line` starts with the keyword `word` followed by a space (or ends there).
bool StartsWord(std::string_view line, std::string_view word) {
  return line.starts_with(word) && (line.size() == word.size() || !IsWord(line[word.size()]));
}
// The constant path after `class ` / `module `: "Billing::ChargeJob".
std::string ConstantAfter(std::string_view rest) {
  rest = Trim(rest);
  size_t end = 0;
  while (end < rest.size() && (IsWord(rest[end]) || rest[end] == ':')) ++end;
  return std::string(rest.substr(0, end));
}

// ---- config/sidekiq.yml ----

Status YmlInteger(const Node& value, const Location& at, std::string_view key, int64_t min, int64_t max,
                  std::optional<int64_t>* out, std::vector<Unknown>* unknowns) {
  if (value.kind == Node::Kind::kString && value.scalar.find("<%") != std::string::npos) {
    unknowns->push_back({std::string(key) + " (set through ERB: " + value.scalar + ")", at, "policy"});
    return Status::Ok();
  }
  std::optional<int64_t> n = AsInteger(value);
  if (!n || *n < min || *n > max) {
    return ErrorAt(at, ":" + std::string(key) + ": expected a whole number from " + std::to_string(min) + " to " +
                           std::to_string(max) + ", got " + QuotedNode(value));
  }
  *out = n;
  return Status::Ok();
}

bool DetectsYml(std::string_view path, std::string_view, const Node* root) {
  if (path.ends_with("sidekiq.yml") || path.ends_with("sidekiq.yaml"))
    return root == nullptr || root->IsMap() || root->IsNull();
  if (root == nullptr || !root->IsMap()) return false;
  for (std::string_view key : {":concurrency", ":max_retries", ":dead_max_jobs", ":dead_timeout_in_seconds"}) {
    if (root->Get(key) != nullptr) return true;
  }
  return false;
}

Status ReadYml(const SourceFile& file, const Document* doc, Inventory* out) {
  SidekiqSettings s;
  s.at = {file.path, 0, 0};
  if (doc == nullptr || doc->root.IsNull()) {
    out->sidekiq_settings.push_back(std::move(s));
    return Status::Ok();
  }
  const Node& root = doc->root;
  if (!root.IsMap())
    return ErrorAt({file.path, root.line, 0}, "expected a map of Sidekiq settings (:concurrency:, :queues:, …)");
  for (size_t i = 0; i < root.keys.size(); ++i) {
    std::string_view key = root.keys[i];
    if (key.starts_with(':')) key.remove_prefix(1);  // Sidekiq reads :max_retries: and max_retries: alike
    const Location at{file.path, root.key_lines[i], 0};
    const Node& value = root.items[i];
    if (key == "max_retries") {
      RETURN_IF_ERROR(YmlInteger(value, at, key, 0, kMaxRetries, &s.max_retries, &s.unknowns));
      s.max_retries_at = at;
    } else if (key == "dead_max_jobs") {
      RETURN_IF_ERROR(
          YmlInteger(value, at, key, kDeadMaxJobsField.min, kDeadMaxJobsField.max, &s.dead_max_jobs, &s.unknowns));
      s.dead_max_jobs_at = at;
    } else if (key == "dead_timeout_in_seconds") {
      RETURN_IF_ERROR(YmlInteger(value, at, key, 0, kMaxTimeMs / 1000, &s.dead_timeout_s, &s.unknowns));
      s.dead_timeout_at = at;
    }
  }
  out->sidekiq_settings.push_back(std::move(s));
  return Status::Ok();
}

// ---- job classes ----

// The pairs of a sidekiq_options call, split at its top-level commas (quotes and brackets kept
// whole): "retry: 5", "lock: :until_executed", …; `why` says what is malformed.
std::vector<std::string> Pairs(std::string_view call, std::string* why) {
  std::string_view args = Trim(call.substr(std::string_view("sidekiq_options").size()));
  if (args.starts_with('(')) {
    if (!args.ends_with(')')) {
      *why = "opens a parenthesis it does not close";
      return {};
    }
    args = args.substr(1, args.size() - 2);
  }
  std::vector<std::string> out;
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i <= args.size(); ++i) {
    const char c = i < args.size() ? args[i] : ',';
    if (quote != 0) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (c == ',' && depth == 0) {
      std::string_view pair = Trim(args.substr(start, i - start));
      if (!pair.empty()) out.emplace_back(pair);
      start = i + 1;
    }
  }
  if (quote != 0 || depth != 0) *why = "leaves a string or a bracket open";
  return out;
}

// A pair's key without its Ruby spelling: "retry" from `retry:`, `:retry =>`, `"retry" =>`.
std::string PairKey(std::string_view pair) {
  size_t i = pair.starts_with(':') || pair.starts_with('"') || pair.starts_with('\'') ? 1 : 0;
  size_t end = i;
  while (end < pair.size() && IsWord(pair[end])) ++end;
  return std::string(pair.substr(i, end - i));
}
std::string PairValue(std::string_view pair) {
  size_t colon = pair.find("=>");
  if (colon != std::string_view::npos) return std::string(Trim(pair.substr(colon + 2)));
  colon = pair.find(':', pair.starts_with(':') ? 1 : 0);
  return colon == std::string_view::npos ? "" : std::string(Trim(pair.substr(colon + 1)));
}

struct RubyClass {
  std::string name;
  size_t indent = 0;
  int line = 0, end_line = 0;
  bool job = false;
  int options_line = 0;
  std::string options;  // the sidekiq_options call, continuation lines joined
  std::vector<ReaderNote> notes;
  std::vector<Unknown> unknowns;  // a sidekiq_retry_in block: the schedule is code
  // A sidekiq_retries_exhausted block (Sidekiq 7.2+): where it starts, the indent of its `end`
  // while it is open (npos: closed or none), and the line where it returns :discard (0: none).
  int exhausted_line = 0;
  size_t exhausted_indent = std::string::npos;
  int discard_line = 0;
};

Status JobFromClass(const SourceFile& file, const RubyClass& c, const std::vector<SkipComment>& skips, Inventory* out) {
  QueueConfig q;
  q.id = c.name;
  q.name = c.name;
  q.at = {file.path, c.line, 0};
  q.notes = c.notes;
  q.unknowns = c.unknowns;
  const Location options_at{file.path, c.options_line != 0 ? c.options_line : c.line, 0};
  // The pairs the core's reader reads go to it (retry_for too: a Ruby duration, as the Import
  // reads it); the others (a plugin's lock:, pool:, …) change nothing the rules judge and are noted.
  std::string why, retry, retry_for, line = "sidekiq_options";
  for (const std::string& pair : c.options.empty() ? std::vector<std::string>{} : Pairs(c.options, &why)) {
    const std::string key = PairKey(pair), value = PairValue(pair);
    if (key == "retry" || key == "dead" || key == "queue" || key == "backtrace" || key == "tags" ||
        key == "retry_for") {
      line += (line.size() > 15 ? ", " : " ") + pair;
      if (key == "retry") retry = value;
      if (key == "retry_for") retry_for = value;
    } else
      q.notes.push_back({"sidekiq_options " + key + ": not read (no bearing on retries or the Dead set)", options_at});
  }
  if (!why.empty()) return ErrorAt(options_at, "sidekiq_options: expected key: value pairs, got a call that " + why);
  if (!retry_for.empty() && !config::RetryForMs(config::JsValue::String(retry_for)).has_value()) {
    return ErrorAt(options_at,
                   "retry_for: expected seconds or a duration (48.hours, 30.minutes, 2.days), got " + retry_for);
  }
  if (line.size() == 15) line += " retry: true";  // no options the reader reads: Sidekiq's defaults
  if (line.size() > config::kMaxSidekiqChars)
    return ErrorAt(options_at, "sidekiq_options: expected at most 1024 characters");
  KeyLines lines;
  for (std::string_view key : {"sidekiq_options", "retry", "dead", "queue", "retry_for", "maxAttempts", "skipDeadSet",
                               "retryInJitter", "retryForMs"}) {
    lines.emplace_back(std::string(key), options_at);
  }
  RETURN_IF_ERROR(ApplyImport(config::ReadSidekiq(line), lines, options_at, &q));
  const bool retry_false = retry == "false";
  q.default_retries = retry.empty() || retry == "true";
  if (q.policy.retry_for_ms > 0) {  // the window replaces the count (Sidekiq 8.1.0): no max_retries applies
    q.retry_for_ms = q.policy.retry_for_ms;
    q.retry_for_at = options_at;
    q.default_retries = false;
  }
  if (c.discard_line != 0 && !q.policy.skip_dead_set) {
    q.policy.discard_on_exhausted = true;
    q.settings.emplace_back("discardOnExhausted", Location{file.path, c.discard_line, 0});
  }
  if (q.policy.skip_dead_set) {
    q.terminal = Terminal::kDropped;
    q.drop_cause = retry_false ? "retry: false" : "dead: false";
  } else if (q.policy.discard_on_exhausted) {
    q.terminal = Terminal::kDropped;
    q.drop_cause = "sidekiq_retries_exhausted returns :discard";
  } else {
    q.terminal = Terminal::kKeptHere;
  }
  q.policy.retention_ms = kDefaultDeadTimeoutS * 1000;
  for (const SkipComment& s : skips) {
    if (s.line >= c.line && s.line <= c.end_line) q.skips.push_back(s);
  }
  out->queues.push_back(std::move(q));
  return Status::Ok();
}

// A line of Ruby without its comment (a # outside a string).
std::string_view Code(std::string_view line) {
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote != 0) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#') {
      return Trim(line.substr(0, i));
    }
  }
  return Trim(line);
}

// Continuation lines of a call: the line ends with a comma or a backslash, or a parenthesis is open.
bool Continues(std::string_view joined) {
  int open = 0;
  for (char ch : joined) open += ch == '(' ? 1 : ch == ')' ? -1 : 0;
  return open > 0 || joined.ends_with(',') || joined.ends_with('\\');
}

// The symbol :discard as a token of a line of code, outside strings (not :discarded, not ":discard").
bool HasDiscard(std::string_view code) {
  constexpr std::string_view kSymbol = ":discard";
  char quote = 0;
  for (size_t i = 0; i < code.size(); ++i) {
    const char c = code[i];
    if (quote != 0) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (code.substr(i, kSymbol.size()) == kSymbol && (i == 0 || code[i - 1] != ':') &&
               (i + kSymbol.size() == code.size() || !IsWord(code[i + kSymbol.size()]))) {
      return true;
    }
  }
  return false;
}

// One line of Ruby: a class or module opens, an `end` closes, a job's marks are noted.
Status ClassLine(const SourceFile& file, std::string_view raw, int number, std::vector<RubyClass>& open,
                 std::vector<RubyClass>& done) {
  std::string_view line = Trim(raw);
  const size_t indent = Indent(raw);
  // A name inside modules and classes is qualified by them (Billing::ChargeJob); modules are kept
  // on the stack under "module:" so they are not taken for jobs.
  const bool is_module = StartsWord(line, "module");
  if (is_module || (StartsWord(line, "class") && !line.starts_with("class <<"))) {
    std::string prefix;
    if (!open.empty()) {
      std::string_view outer = open.back().name;
      if (outer.starts_with("module:")) outer.remove_prefix(7);
      prefix = std::string(outer) + "::";
    }
    const std::string_view keyword = is_module ? "module" : "class";
    const std::string constant = ConstantAfter(line.substr(keyword.size()));
    if (constant.empty() ||
        constant.find_first_not_of(':') == std::string::npos) {  // `class& X`: no name to file a job under
      return ErrorAt({file.path, number, 0}, std::string(keyword) +
                                                 ": expected a constant name (Billing::ChargeJob), got " +
                                                 QuoteShort(Trim(line.substr(keyword.size())), 40));
    }
    std::string name = prefix + constant;
    open.push_back(
        {is_module ? "module:" + name : name, indent, number, 0, false, 0, "", {}, {}, 0, std::string::npos, 0});
  } else if (line == "end" && !open.empty() && open.back().indent == indent) {
    RubyClass c = std::move(open.back());
    open.pop_back();
    c.end_line = number;
    if (!c.name.starts_with("module:")) done.push_back(std::move(c));
  } else if (!open.empty()) {
    RubyClass& c = open.back();
    if (line.starts_with("include Sidekiq::Job") || line.starts_with("include Sidekiq::Worker")) c.job = true;
    // sidekiq_retries_exhausted: a :discard it returns (on its own line, or a one-line block)
    // drops the exhausted job instead of the Dead set (job_retry.rb: discarded = ... || rv == :discard).
    const bool opens = StartsWord(line, "sidekiq_retries_exhausted");
    if (opens) c.exhausted_line = number;
    if ((opens || c.exhausted_indent != std::string::npos) && c.discard_line == 0 && HasDiscard(Code(line))) {
      c.discard_line = number;
    }
    if (opens && !Code(line).ends_with("}") && !Code(line).ends_with(" end")) c.exhausted_indent = indent;
    else if (!opens && c.exhausted_indent != std::string::npos && line == "end" && indent == c.exhausted_indent) {
      c.exhausted_indent = std::string::npos;
    }
    if (StartsWord(line, "sidekiq_retry_in")) {
      // The block's delays (and any :kill or :discard it returns) replace Sidekiq's schedule: the
      // rules that need the schedule say it is not known instead of playing the default one.
      c.notes.push_back(
          {"sidekiq_retry_in: custom schedule, not read (Ruby is not evaluated)", {file.path, number, 0}});
      c.unknowns.push_back({"sidekiq_retry_in (custom schedule, not read)", {file.path, number, 0}, "policy"});
    }
    if (StartsWord(line, "sidekiq_options")) {
      c.job = true;
      c.options_line = number;
      c.options = std::string(Code(line));
    }
  }
  return Status::Ok();
}

bool DetectsRuby(std::string_view path, std::string_view text, const Node*) {
  return path.ends_with(".rb") && (text.find("sidekiq_options") != std::string_view::npos ||
                                   text.find("Sidekiq::Job") != std::string_view::npos ||
                                   text.find("Sidekiq::Worker") != std::string_view::npos);
}

Status ReadRuby(const SourceFile& file, const Document*, Inventory* out) {
  std::vector<RubyClass> open, done;
  std::string_view text = file.text;
  int number = 0;
  RubyClass* continuing = nullptr;
  for (size_t start = 0; start <= text.size();) {
    size_t nl = text.find('\n', start);
    std::string_view raw = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    start = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    ++number;
    // Names and options are quoted into reports (UTF-8 in every format): a file that is not text is refused.
    if (!IsValidUtf8(raw))
      return ErrorAt({file.path, number, 0}, "expected UTF-8 text, got a byte sequence that is not UTF-8");
    if (continuing != nullptr) {  // a sidekiq_options call over several lines
      continuing->options += " " + std::string(Code(raw));
      if (continuing->options.size() > config::kMaxSidekiqChars) {
        return ErrorAt({file.path, continuing->options_line, 0}, "sidekiq_options: expected at most 1024 characters");
      }
      if (!Continues(continuing->options)) continuing = nullptr;
      continue;
    }
    RETURN_IF_ERROR(ClassLine(file, raw, number, open, done));
    if (open.size() + done.size() > kMaxClasses) {
      return ErrorAt({file.path, number, 0}, "expected at most 100,000 classes and modules in one file");
    }
    if (open.size() > kMaxNesting)
      return ErrorAt({file.path, number, 0}, "expected classes and modules nested at most 64 deep");
    if (!open.empty() && open.back().options_line == number && Continues(open.back().options))
      continuing = &open.back();
  }
  while (!open.empty()) {  // a class the file does not close (or closes at another indent): to the end
    RubyClass c = std::move(open.back());
    open.pop_back();
    c.end_line = number;
    if (!c.name.starts_with("module:")) done.push_back(std::move(c));
  }
  std::sort(done.begin(), done.end(), [](const RubyClass& a, const RubyClass& b) { return a.line < b.line; });
  const std::vector<SkipComment> skips = FindSkipComments(file.text);
  for (const RubyClass& c : done) {
    if (c.job) RETURN_IF_ERROR(JobFromClass(file, c, skips, out));
  }
  return Status::Ok();
}

}  // namespace

void JoinSidekiqSettings(Inventory* inventory) {
  if (inventory->sidekiq_settings.empty()) return;
  const SidekiqSettings& s = inventory->sidekiq_settings.back();  // one process config: the last read
  for (QueueConfig& q : inventory->queues) {
    if (q.system != "sidekiq") continue;
    if (s.max_retries && q.default_retries) {
      q.policy.max_attempts = *s.max_retries + 1;
      q.settings.emplace_back("maxAttempts", s.max_retries_at);
    }
    if (s.dead_max_jobs) {
      q.policy.dead_max_jobs = *s.dead_max_jobs;
      q.settings.emplace_back("deadMaxJobs", s.dead_max_jobs_at);
    }
    if (s.dead_timeout_s) {
      q.policy.retention_ms = *s.dead_timeout_s * 1000;
      q.settings.emplace_back("quarantine.retentionMs", s.dead_timeout_at);
    }
    for (const Unknown& u : s.unknowns) q.unknowns.push_back(u);
  }
}

bool DetectsSidekiqYml(std::string_view path, std::string_view text, const Node* root) {
  return DetectsYml(path, text, root);
}
Status ReadSidekiqYml(const SourceFile& file, const Document* doc, Inventory* out) { return ReadYml(file, doc, out); }
bool DetectsSidekiqRuby(std::string_view path, std::string_view text, const Node* root) {
  return DetectsRuby(path, text, root);
}
Status ReadSidekiqRuby(const SourceFile& file, const Document* doc, Inventory* out) { return ReadRuby(file, doc, out); }

}  // namespace dlq::check
