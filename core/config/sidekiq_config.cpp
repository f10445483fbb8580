// Sidekiq: one `sidekiq_options retry: 5, queue: "default"` line, into the sidekiq mode.
#include <cstdlib>
#include <set>
#include <string_view>
#include <tuple>
#include <vector>

#include "internal/translation.h"

namespace dlq::config {
namespace {

constexpr std::string_view kPrefix = "sidekiq_options";

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
      if (!Value(value)) {
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
    if (at_ < line_.size() && line_[at_] != '#') return Fail(why, "has text after its arguments at character " + Character());
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
    if (end == at_ || end >= line_.size() || line_[end] != ':' || (end + 1 < line_.size() && line_[end + 1] == ':')) return false;
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
  bool Value(JsValue& value) {
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
    for (auto [word, literal] : {std::pair<std::string_view, JsValue>{"true", JsValue::Bool(true)},
                                 {"false", JsValue::Bool(false)}, {"nil", JsValue::Null()}}) {
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
        if (k >= n || line_[k] == '\n' || line_[k] == '\r' || line_.substr(k, 3) == "\u2028" || line_.substr(k, 3) == "\u2029") {
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

void OtherArgument(Translation& t, const struct Argument& arg, const std::string& text) {
  const std::string& key = arg.key;
  if (key == "queue") t.Ignore(key, text + ": the lab has one queue");
  else if (key == "backtrace") t.Ignore(key, text + ": the lab keeps the last error's text");
  else if (key == "tags") t.Ignore(key, text + ": labels for the Web UI");
  else if (key == "dead") {
    if (arg.value.IsBool(true)) t.Ignore(key, "true: an exhausted job goes to the Dead set, as the lab quarantines it");
    else if (arg.value.IsBool(false)) t.ToFlag("skipDeadSet", true, "dead: false (a job that fails for good is dropped, not put in the Dead set)");
    else t.Refuse(Refusal(key, "true or false", text));
  } else if (key == "retry_for") {
    t.Refuse(NotModelled(key, text, "a time limit on retries; the lab's limit is a count"));
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
  for (const struct Argument& arg : args) {
    std::string text = Isolated(arg.text);  // echoed as the line spells it
    if (!seen.insert(arg.key).second) {
      t.Refuse(Refusal(arg.key, "each key once", arg.key + " a second time (" + text + ")", "is a duplicate key"));
      continue;
    }
    if (arg.key == "retry") {
      retry = arg.value;
      retry_text = text;
    } else {
      OtherArgument(t, arg, text);
    }
  }
  if (retry.IsBool(true)) {
    t.ToNumber("maxAttempts", 26, retry_text.empty() ? "retry absent (Sidekiq's default: 25 retries, 26 runs)" : "retry: true (25 retries, 26 runs)");
  } else if (retry.IsWhole() && retry.number >= 0) {
    std::string n = Num(retry.number);
    t.ToNumber("maxAttempts", retry.number + 1, "retry: " + n + " (" + n + " retries after the first run)");
  } else if (retry.IsBool(false)) {
    t.ToNumber("maxAttempts", 1, "retry: false (one run, no retry)");
    t.ToFlag("skipDeadSet", true, "retry: false (and no Dead entry: a failed job is dropped)");
  } else {
    t.Refuse(Refusal("retry", "true, false or a whole number from 0", retry_text));
  }
  t.NoBackoff("Sidekiq's own delay: count⁴ + 15 + rand(10)·(count + 1) s");
  // The line has no sidekiq_retry_in; should one be added (a lab backoff), 6.4.1 jitters it.
  t.ToFlag("retryInJitter", true,
           "Sidekiq 6.4.1 adds rand(10)·(count + 1) s to a custom sidekiq_retry_in delay, and falls back to its own under 1 s");
  return std::move(t).Result();
}

}  // namespace dlq::config
