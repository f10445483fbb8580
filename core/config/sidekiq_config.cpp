// Sidekiq: one `sidekiq_options retry: 5, queue: "default"` line, into the sidekiq mode.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <vector>

#include "internal/snippet_text.h"
#include "internal/translation.h"

namespace dlq::config {
namespace {

constexpr std::string_view kPrefix = "sidekiq_options";
// The top of retryForMs' range (core/policy/policy.h, kRetryForMsField, 2^53 - 1; the config layer does not link the
// policy's).
constexpr double kMaxRetryForMs = 9007199254740991.0;

bool IsWord(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }
bool IsWordStart(char c) { return IsWord(c) && !(c >= '0' && c <= '9'); }

struct Argument {
  std::string key;
  JsValue value;
  std::string text;  // the value as the line spells it
};

// The arguments of one `sidekiq_options …` line, or why not: Ruby keyword arguments
// (`retry: 5`), hash rockets (`:retry => 5`, `"retry" => 5`); values are integers, true,
// false, nil, strings and symbols; a `#` outside a string starts a comment. One pass,
// each token read where it stands: linear.
class ArgumentReader {
 public:
  explicit ArgumentReader(std::string_view line) : line_(line) {}

  bool Read(std::vector<Argument>& args, std::string& why) {
    at_ = kPrefix.size();
    Space();
    const bool paren = Is('(');
    if (paren) ++at_;
    else if (at_ == kPrefix.size() && at_ < line_.size()) return Fail(why, "has no space after sidekiq_options");
    auto close = [&] { return at_ >= line_.size() || line_[at_] == '#' || (paren && line_[at_] == ')'); };
    for (Space(); !close(); Space()) {
      std::string key;
      if (!Keyword(key) && !Rocket(key)) return Fail(why, "has no key: value pair at character " + Character());
      Space();
      size_t start = at_;
      JsValue value;
      if (!Value(value, key == "retry_for")) {
        return Fail(why, "has no value (a number, true, false, nil, a string or a symbol) at character " + Character());
      }
      args.push_back({key, std::move(value), std::string(line_.substr(start, at_ - start))});
      Space();
      if (Is(',')) ++at_;
      else if (!close()) return Fail(why, "has no comma between pairs at character " + Character());
    }
    if (paren) {
      if (!Is(')')) return Fail(why, "opens a parenthesis it does not close");
      ++at_;
      Space();
    }
    if (at_ < line_.size() && line_[at_] != '#')
      return Fail(why, "has text after its arguments at character " + Character());
    if (args.empty()) return Fail(why, "has no arguments");
    return true;
  }

 private:
  static bool Fail(std::string& why, std::string text) {
    why = std::move(text);
    return false;
  }
  bool Is(char c) const { return at_ < line_.size() && line_[at_] == c; }
  // The place of `at_`, counted in UTF-16 units from 1 as the page counts.
  std::string Character() const { return std::to_string(Utf16Length(line_.substr(0, at_)) + 1); }
  void Space() {
    while (at_ < line_.size() && (line_[at_] == ' ' || line_[at_] == '\t')) ++at_;
  }
  size_t Name(size_t i) const {  // the end of [A-Za-z_]\w* from i, or i
    if (i >= line_.size() || !IsWordStart(line_[i])) return i;
    while (i < line_.size() && IsWord(line_[i])) ++i;
    return i;
  }
  // ([A-Za-z_]\w*):(?!:)
  bool Keyword(std::string& key) {
    size_t end = Name(at_);
    if (end == at_ || end >= line_.size() || line_[end] != ':' || (end + 1 < line_.size() && line_[end + 1] == ':'))
      return false;
    key = std::string(line_.substr(at_, end - at_));
    at_ = end + 1;
    return true;
  }
  // (?::name|"name"|'name')[ \t]*=>
  bool Rocket(std::string& key) {
    size_t i = at_;
    if (i >= line_.size()) return false;
    char open = line_[i];
    if (open != ':' && open != '"' && open != '\'') return false;
    size_t end = Name(i + 1);
    if (end == i + 1) return false;
    size_t after = end;
    if (open != ':') {
      if (end >= line_.size() || line_[end] != open) return false;
      after = end + 1;
    }
    while (after < line_.size() && (line_[after] == ' ' || line_[after] == '\t')) ++after;
    if (line_.substr(after, 2) != "=>") return false;
    key = std::string(line_.substr(i + 1, end - i - 1));
    at_ = after + 2;
    return true;
  }
  // -?\d+(?![\w.]) | (true|false|nil)(?!\w) | "…" | '…' | :name(?!\w)
  // | for retry_for only: \d+(\.\d+)?(\.[a-z]+)?(?![\w.]) (a Float or a duration, 48.hours: kept
  // as its text, a string; any other key's value is read as it always was)
  bool Value(JsValue& value, bool duration) {
    size_t i = at_;
    const size_t n = line_.size();
    size_t digits = i < n && line_[i] == '-' ? i + 1 : i;
    size_t end = digits;
    while (end < n && line_[end] >= '0' && line_[end] <= '9') ++end;
    if (end > digits && !(end < n && (IsWord(line_[end]) || line_[end] == '.'))) {
      value = JsValue::Number(std::strtod(std::string(line_.substr(i, end - i)).c_str(), nullptr));
      at_ = end;
      return true;
    }
    if (duration && end > digits && digits == i && end < n && line_[end] == '.') {
      size_t more = end + 1;
      while (more < n && line_[more] >= '0' && line_[more] <= '9') ++more;
      if (more > end + 1 && more < n && line_[more] == '.') ++more;  // 1.5.hours
      size_t unit = more;
      while (unit < n && line_[unit] >= 'a' && line_[unit] <= 'z') ++unit;
      if (unit > end + 1 && !(unit < n && (IsWord(line_[unit]) || line_[unit] == '.')) && line_[unit - 1] != '.') {
        value = JsValue::String(std::string(line_.substr(i, unit - i)));
        at_ = unit;
        return true;
      }
    }
    for (auto [word, literal] : {std::pair<std::string_view, JsValue>{"true", JsValue::Bool(true)},
                                 {"false", JsValue::Bool(false)},
                                 {"nil", JsValue::Null()}}) {
      if (line_.substr(i, word.size()) == word && !(i + word.size() < n && IsWord(line_[i + word.size()]))) {
        value = literal;
        at_ = i + word.size();
        return true;
      }
    }
    if (i < n && (line_[i] == '"' || line_[i] == '\'')) {
      const char quote = line_[i];
      size_t j = i + 1;
      while (j < n && line_[j] != quote) {
        if (line_[j] != '\\') {
          ++j;
          continue;
        }
        // \\. : '.' is any character but a line terminator
        size_t k = j + 1;
        if (k >= n || line_[k] == '\n' || line_[k] == '\r' || line_.substr(k, 3) == "\u2028" ||
            line_.substr(k, 3) == "\u2029") {
          return false;
        }
        NextCodePoint(line_, k);
        j = k;
      }
      if (j >= n) return false;
      value = JsValue::String(std::string(line_.substr(i + 1, j - i - 1)));
      at_ = j + 1;
      return true;
    }
    if (i < n && line_[i] == ':') {
      size_t end_name = Name(i + 1);
      if (end_name == i + 1) return false;
      value = JsValue::String(std::string(line_.substr(i + 1, end_name - i - 1)));
      at_ = end_name;
      return true;
    }
    return false;
  }

  std::string_view line_;
  size_t at_ = 0;
};

}  // namespace

// retry_for as sidekiq_options spells it, in ms: seconds (an Integer or a Float) or an
// ActiveSupport duration, N.seconds/minutes/hours/days/weeks (and the singulars).
std::optional<int64_t> RetryForMs(const JsValue& value) {
  if (value.IsWhole() && value.number >= 0 && value.number * 1000 <= kMaxRetryForMs) {
    return static_cast<int64_t>(value.number) * 1000;
  }
  if (value.kind != JsValue::Kind::kString) return std::nullopt;
  // digits [. digits] [. unit], read exactly: the digits as one integer and the count after the point.
  std::string_view text = value.text;
  int64_t digits = 0, scale = 1;
  bool point = false;
  size_t i = 0, count = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      if (++count > 15) return std::nullopt;  // beyond the range anyway, and exact in 64 bits
      digits = digits * 10 + (c - '0');
      if (point) scale *= 10;
    } else if (c == '.' && !point && i > 0 && i + 1 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '9') {
      point = true;
    } else {
      break;
    }
  }
  if (count == 0) return std::nullopt;
  std::string_view unit = text.substr(i);
  if (!unit.empty()) {
    if (!unit.starts_with('.')) return std::nullopt;  // 48hours
    unit.remove_prefix(1);
  }
  int64_t factor = 0;
  for (auto [name, ms] : {std::pair<std::string_view, int64_t>{"", 1000},
                          {"second", 1000},
                          {"seconds", 1000},
                          {"minute", 60'000},
                          {"minutes", 60'000},
                          {"hour", 3'600'000},
                          {"hours", 3'600'000},
                          {"day", 86'400'000},
                          {"days", 86'400'000},
                          {"week", 604'800'000},
                          {"weeks", 604'800'000}}) {
    if (unit == name && !(name.empty() && !text.substr(i).empty())) factor = ms;
  }
  if (factor == 0 || digits > static_cast<int64_t>(kMaxRetryForMs) / factor) return std::nullopt;
  const int64_t scaled = digits * factor;
  if (scaled % scale != 0 || static_cast<double>(scaled / scale) > kMaxRetryForMs)
    return std::nullopt;  // a fraction of a ms
  return scaled / scale;
}

namespace {

void OtherArgument(Translation& t, const struct Argument& arg, const std::string& text) {
  const std::string& key = arg.key;
  if (key == "queue") t.Ignore(key, text + ": the lab has one queue");
  else if (key == "backtrace") t.Ignore(key, text + ": the lab keeps the last error's text");
  else if (key == "tags") t.Ignore(key, text + ": labels for the Web UI");
  else if (key == "dead") {
    if (arg.value.IsBool(true)) t.Ignore(key, "true: an exhausted job goes to the Dead set, as the lab quarantines it");
    else if (arg.value.IsBool(false))
      t.ToFlag("skipDeadSet", true, "dead: false (a job that fails for good is dropped, not put in the Dead set)");
    else t.Refuse(Refusal(key, "true or false", text));
  } else if (key == "retry_queue") {
    t.Refuse(NotModelled(key, text, "the lab has one queue"));
  } else {
    t.Refuse(Refusal(key, "one of retry, dead, queue, backtrace, tags, retry_for, retry_queue", text, "is unknown"));
  }
}

}  // namespace

ImportResult ReadSidekiq(std::string_view line) {
  std::vector<struct Argument> args;
  std::string why;
  if (!ArgumentReader(line).Read(args, why)) {
    return Refused("sidekiq", Refusal("sidekiq_options",
                                      "one line of key: value pairs, e.g. sidekiq_options retry: 5, queue: \"default\"",
                                      Quoted(JsValue::String(std::string(line))), why));
  }
  Translation t("sidekiq", "sidekiq");
  JsValue retry = JsValue::Bool(true);
  std::string retry_text;  // empty: retry absent
  std::set<std::string> seen;
  std::optional<int64_t> retry_for;
  std::string retry_for_text;
  for (const struct Argument& arg : args) {
    std::string text = Isolated(arg.text);  // echoed as the line spells it
    if (!seen.insert(arg.key).second) {
      t.Refuse(Refusal(arg.key, "each key once", arg.key + " a second time (" + text + ")", "is a duplicate key"));
      continue;
    }
    if (arg.key == "retry") {
      retry = arg.value;
      retry_text = text;
    } else if (arg.key == "retry_for") {
      retry_for = RetryForMs(arg.value);
      retry_for_text = text;
      if (!retry_for) {
        t.Refuse(Refusal("retry_for",
                         "seconds or a duration (48.hours, 30.minutes, 2.days) up to " +
                             GroupedWhole(static_cast<long long>(kMaxRetryForMs / 1000)) + " s",
                         text));
      }
    } else {
      OtherArgument(t, arg, text);
    }
  }
  if (retry_for && !retry.IsBool(false)) {
    // Sidekiq 8.1.0: "retry_for and retry are mutually exclusive" (job_retry.rb): the count is not read.
    t.ToNumber("retryForMs", static_cast<double>(*retry_for),
               "retry_for: " + retry_for_text + " (no retry once the first failure is that long ago; Sidekiq 7.1.3+)");
    if (!retry_text.empty())
      t.Ignore("retry", retry_text + ": not read beside retry_for (Sidekiq 8.1.0 makes them exclusive)");
  } else if (retry.IsBool(true)) {
    t.ToNumber("maxAttempts", 26,
               retry_text.empty() ? "retry absent (Sidekiq's default: 25 retries, 26 runs)"
                                  : "retry: true (25 retries, 26 runs)");
  } else if (retry.IsWhole() && retry.number >= 0) {
    std::string n = Num(retry.number);
    t.ToNumber("maxAttempts", retry.number + 1, "retry: " + n + " (" + n + " retries after the first run)");
  } else if (retry.IsBool(false)) {
    t.ToNumber("maxAttempts", 1, "retry: false (one run, no retry)");
    t.ToFlag("skipDeadSet", true, "retry: false (and no Dead entry: a failed job is dropped)");
    if (retry_for) t.Ignore("retry_for", retry_for_text + ": retry: false runs a job once, whatever the window");
  } else {
    t.Refuse(Refusal("retry", "true, false or a whole number from 0", retry_text));
  }
  t.NoBackoff("Sidekiq's own delay: count⁴ + 15 + rand(10)·(count + 1) s");
  // The line has no sidekiq_retry_in; should one be added (a lab backoff), 6.4.1 jitters it.
  t.ToFlag("retryInJitter", true,
           "Sidekiq 6.4.1 adds rand(10)·(count + 1) s to a custom sidekiq_retry_in delay, and falls back to its own "
           "under 1 s");
  return std::move(t).Result();
}

// ---- the snippet: the policy in force as a Sidekiq worker (web/src/shared/snippets.mjs before issue 32) ----

namespace {

constexpr std::string_view kSidekiqMin =
    "6.4.1";  // Debian 12's ruby-sidekiq, the version the broker suite runs this on
constexpr std::string_view kSidekiqKill = "6.5.2";  // the first version where sidekiq_retry_in may return :kill

struct SidekiqShape {
  ClassShape classes;
  std::vector<const RuleFacts*> own;  // classes.own but crash: the ones a worker raises its own error type for
  bool own_crash = false;             // classes.own holds crash
  bool own_schedule, jittered, every_error;
};

// Ruby for the lab's delay after the attempt numbered count + 1 (Sidekiq wants whole seconds, at least 1).
// With retryInJitter the lab plays 6.4.1's own rule on it, so the seconds are truncated as to_i does and
// a delay under 1 s is 0, which 6.4.1 answers with its own schedule, as the lab's mode does.
std::string RubyDelay(const BackoffFacts& b, bool retry_in_jitter) {
  if (retry_in_jitter) {
    if (b.kind == "none") return "0";
    if (b.kind == "fixed") return Num(std::floor(b.base_ms / 1000));
    return "[" + Num(b.base_ms) + " * 2**count, " + Num(b.cap_ms) + "].min / 1000";
  }
  if (b.kind == "none") return "1";
  if (b.kind == "fixed") return Num(std::max(1.0, SecondsUp(b.base_ms)));
  return "[([" + Num(b.base_ms) + " * 2**count, " + Num(b.cap_ms) + "].min / 1000.0).ceil, 1].max";
}

std::vector<std::string> SidekiqNotes(const PolicyFacts& n, const SidekiqShape& m) {
  std::vector<std::string> notes;
  if (n.backoff.kind == "none" && !m.own_schedule) {
    notes.push_back("backoff none: Sidekiq waits at least 1 s (a block returning 0 falls back to its own schedule)");
  }
  if (n.backoff.kind != "none" && (std::fmod(n.backoff.base_ms, 1000) != 0 || std::fmod(n.backoff.cap_ms, 1000) != 0)) {
    notes.push_back("backoff " + BackoffText(n.backoff) + ": Sidekiq delays are whole seconds, " +
                    (m.jittered ? "truncated (to_i; under 1 s its own schedule)" : "rounded up"));
  }
  if (m.jittered) {
    notes.push_back(
        "retryInJitter: the lab adds 6.4.1's jitter, rand(10) * (count + 1) seconds, to the delay below, as Sidekiq "
        "does");
    if (n.backoff.jitter != "none")
      notes.push_back("jitter " + n.backoff.jitter + ": no equivalent in the block below");
  } else {
    notes.push_back(n.backoff.jitter == "none"
                        ? "Sidekiq always adds its own jitter, rand(10 * (count + 1)) seconds; the lab adds none here"
                        : "jitter " + n.backoff.jitter +
                              ": no equivalent; Sidekiq adds its own, rand(10 * (count + 1)) seconds");
  }
  if (!m.classes.alerts.empty())
    notes.push_back("alert on " + Joined(m.classes.alerts) + ": no per-failure alert in Sidekiq");
  notes.push_back("leaseMs " + Num(n.lease_ms) + ": no per-job lease in Sidekiq's retry settings");
  if (m.classes.crash_never) notes.push_back("classes.crash: no equivalent");
  if (n.ordering != "none") notes.push_back("ordering " + n.ordering + ": Sidekiq documents no ordering guarantee");
  if (n.alarm_depth > 0) {
    notes.push_back("quarantine.alarmDepth " + Num(n.alarm_depth) +
                    ": Sidekiq shows the Dead set size (Web UI, Stats#dead_size) but raises no alarm");
  }
  notes.push_back(
      "replay(id) resets attempts; retrying a dead job in Sidekiq lowers retry_count by one, so it gets one more run");
  CommonNotes(n, notes);
  return notes;
}

// The server's Dead set settings: retention and dead_max_jobs (the sidekiq mode's), or what the lab has not.
void DeadSetLines(const PolicyFacts& n, std::vector<std::string>& lines) {
  const bool mode = n.system == "sidekiq";
  if (n.retention_ms > 0) {
    lines.push_back("  Sidekiq.options[:dead_timeout_in_seconds] = " + Num(SecondsUp(n.retention_ms)) +
                    " # quarantine.retentionMs " + Num(n.retention_ms));
  } else if (mode) {
    lines.push_back(
        "  # quarantine.retentionMs 0 under the sidekiq mode: Sidekiq's default dead_timeout_in_seconds, 180 days");
  }
  if (mode) {
    lines.push_back(n.dead_max_jobs != 10000
                        ? "  Sidekiq.options[:dead_max_jobs] = " + Num(n.dead_max_jobs) +
                              " # deadMaxJobs: 6.4.1 keeps the newest " + Num(n.dead_max_jobs) + " - 1 at each kill"
                        : "  # deadMaxJobs 10000 (dead_max_jobs, the default): each kill trims the Dead set, as the "
                          "lab's sidekiq mode does");
  } else if (n.retention_ms > 0) {
    lines.push_back(
        "  # the Dead set also drops its oldest entries past dead_max_jobs (10,000 by default); the lab has no such "
        "cap");
  } else {
    Append(lines, {"  # quarantine.retentionMs 0 (forever): no equivalent; the Dead set drops entries after "
                   "dead_timeout_in_seconds",
                   "  # (180 days by default) and past dead_max_jobs (10,000)"});
  }
}

// retry_for's value as Ruby spells it: whole days, hours, minutes or seconds, else seconds as a Float.
std::string RubyDuration(double ms) {
  for (auto [unit, size] : {std::pair<const char*, double>{"days", 86'400'000},
                            {"hours", 3'600'000},
                            {"minutes", 60'000},
                            {"seconds", 1000}}) {
    if (std::fmod(ms, size) == 0) return Num(ms / size) + "." + unit;
  }
  const double whole = std::floor(ms / 1000);
  std::string fraction = Num(std::fmod(ms, 1000) + 1000).substr(1);  // 1005 -> "005"
  while (fraction.ends_with('0')) fraction.pop_back();
  return Num(whole) + "." + fraction;
}

// The worker's class head: its retry budget, and what the lab's never-retried classes become.
void WorkerHead(const PolicyFacts& n, const SidekiqShape& m, std::vector<std::string>& lines) {
  const std::string retry = Num(n.max_attempts - 1);
  Append(lines, {"class OrdersJob", "  include Sidekiq::Worker",
                 "  # maxAttempts " + Num(n.max_attempts) + " -> retry: " + retry +
                     " (the first run is not a retry; retry_count is 0 at the first failure)"});
  const bool window = n.system == "sidekiq" && n.retry_for_ms > 0;
  if (window) {
    Append(
        lines,
        {"  # retryForMs " + Num(n.retry_for_ms) + " -> retry_for (Sidekiq 7.1.3+): no retry once the first failure",
         "  # (failed_at) is that long ago; Sidekiq 8.1.0 reads it instead of retry, so maxAttempts is not written"});
  }
  const std::string budget = window ? "retry_for: " + RubyDuration(n.retry_for_ms) : "retry: " + retry;
  if (n.system == "sidekiq" && n.skip_dead_set) {
    Append(lines, {"  # skipDeadSet: dead: false, so a job that fails for good is dropped, not put in the Dead set",
                   "  sidekiq_options " + budget + ", dead: false"});
  } else {
    lines.push_back("  sidekiq_options " + budget);
  }
  if (n.system == "sidekiq" && n.discard_on_exhausted) {
    Append(lines, {"  # discardOnExhausted: the block returns :discard (Sidekiq 7.2+), so a job whose retries end",
                   "  # is dropped, not put in the Dead set (and nothing can retry it)",
                   "  sidekiq_retries_exhausted do |msg, exception|", "    :discard", "  end"});
  }
  if (m.every_error) {
    Append(lines, {"  # retryEveryError: as " + std::string(kSidekiqMin) + " does (no :kill before " +
                       std::string(kSidekiqKill) + "), the lab retries every failure",
                   "  # but a crash up to this retry count, whatever its class; the class is still the worker's"});
  } else if (!m.classes.never.empty()) {
    Append(lines, {"  # " + Joined(m.classes.never) + ": quarantined at once in the lab. For them sidekiq_retry_in",
                   "  # may return :kill (straight to Dead) on Sidekiq >= " + std::string(kSidekiqKill) + " only; " +
                       std::string(kSidekiqMin) + " retries them like any failure"});
  }
}

// The sidekiq_retry_in block: the lab's backoff, per class where a class has its own.
void RetryInBlock(const PolicyFacts& n, const SidekiqShape& m, std::vector<std::string>& lines) {
  Append(lines,
         {"", "  # The lab's backoff below; without a sidekiq_retry_in block Sidekiq waits count**4 + 15 s instead.",
          "  # count is retry_count: attempt count + 1 has just failed. 6.4.1 adds its jitter to the result.",
          "  sidekiq_retry_in do |count, exception|"});
  // Under the sidekiq mode a 0 from the block falls back to Sidekiq's own schedule, which is what backoff none plays.
  const std::string delay = m.own_schedule ? "0" : RubyDelay(n.backoff, m.jittered);
  if (m.own.empty()) {
    lines.push_back("    " + delay + " # backoff " + BackoffText(n.backoff));
    return;
  }
  lines.push_back("    case exception");
  for (const RuleFacts* r : m.own) {
    lines.push_back("    when " + ErrorType(r->name));
    lines.push_back(m.every_error
                        ? "      # " + RuleText(*r) + ": retryEveryError: only its delay applies (no :kill on " +
                              std::string(kSidekiqMin) + ")"
                        : "      # " + RuleText(*r) + ": its own budget needs Sidekiq >= " + std::string(kSidekiqKill) +
                              ": count + 1 >= " + Num(r->max_attempts) + " ? :kill : delay");
    lines.push_back("      " + RubyDelay(r->backoff, m.jittered));
  }
  Append(lines, {"    else", "      " + delay + " # backoff " + BackoffText(n.backoff), "    end"});
}

}  // namespace

// Sidekiq 6.4.1 (Debian 12) is the oldest this is written for: Sidekiq.options is its configuration (config[...] is 7),
// and sidekiq_retry_in returning :kill needs 6.5.2, so the permanent path is a comment naming that version.
Snippet SidekiqSnippet(const PolicyFacts& n) {
  SidekiqShape m{ShapeOf(n), {}, false, false, false, false};
  for (const RuleFacts* r : m.classes.own) {
    if (r->name == "crash") m.own_crash = true;
    else m.own.push_back(r);
  }
  // Under the sidekiq mode, backoff none is Sidekiq's own schedule (the lab plays count**4 + 15 + rand(10) * (count +
  // 1) s).
  m.own_schedule = n.system == "sidekiq" && n.backoff.kind == "none";
  m.jittered = n.system == "sidekiq" && n.retry_in_jitter;
  m.every_error = n.system == "sidekiq" && n.retry_every_error;
  std::vector<std::string> lines = {
      "# dlq-lab policy -> Sidekiq job options: " + PolicyText(n),
      "# Needs Sidekiq " + std::string(kSidekiqMin) +
          " or later (Debian 12's ruby-sidekiq); 6.x configuration (Sidekiq 7 writes config[...])."};
  Append(lines, HashComments(SidekiqNotes(n, m)));
  Append(lines, {"require 'sidekiq'",
                 "require_relative 'order_handler' # your work: OrderHandler.call(order_id) raises to fail the attempt",
                 "", "REDIS_URL = 'redis://localhost:6379/0' # the connection: where your Redis is", "",
                 "Sidekiq.configure_client { |config| config.redis = { url: REDIS_URL } }",
                 "Sidekiq.configure_server do |config|", "  config.redis = { url: REDIS_URL }"});
  DeadSetLines(n, lines);
  Append(lines, {"end", ""});
  for (const RuleFacts* r : m.own) lines.push_back("class " + ErrorType(r->name) + " < StandardError; end");
  if (!m.own.empty()) lines.push_back("");
  WorkerHead(n, m, lines);
  if (m.own_schedule && m.own.empty()) {
    Append(lines, {"", "  # backoff none under the sidekiq mode: no sidekiq_retry_in block, so Sidekiq waits its own",
                   "  # count**4 + 15 + rand(10) * (count + 1) seconds, as the lab's mode plays it."});
  } else {
    RetryInBlock(n, m, lines);
    lines.push_back("  end");
  }
  Append(lines, {"", "  def perform(order_id)", "    OrderHandler.call(order_id)", "  end", "end"});
  if (m.own_crash) lines.push_back("# " + RuleText(RuleOf(n, "crash")) + ": no equivalent");
  return {"ruby", LinesText(lines)};
}

}  // namespace dlq::config
