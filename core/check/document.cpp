#include "document.h"

#include <cmath>
#include <cstdlib>

namespace dlq::check {

const Node* Node::Get(std::string_view key) const {
  if (!IsMap()) return nullptr;
  for (size_t i = 0; i < keys.size() && i < items.size(); ++i) {
    if (keys[i] == key) return &items[i];
  }
  return nullptr;
}

int Node::KeyLine(std::string_view key) const {
  if (IsMap()) {
    for (size_t i = 0; i < keys.size() && i < key_lines.size(); ++i) {
      if (keys[i] == key) return key_lines[i];
    }
  }
  return line;
}

namespace {

bool Digits(std::string_view s) { return !s.empty() && s.find_first_not_of("0123456789") == s.npos; }

// Numbers are read from numbers and from strings (CloudFormation quotes them: "300").
bool Numeric(const Node& n) { return n.kind == Node::Kind::kNumber || n.kind == Node::Kind::kString; }

// A decimal number as JSON and YAML write it: [-+]? (digits (. digits?)? | . digits) ([eE] [-+]? digits)?
bool DecimalNumber(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  const size_t e = s.find_first_of("eE");
  const std::string_view mantissa = s.substr(0, e);
  const size_t dot = mantissa.find('.');
  const std::string_view whole = mantissa.substr(0, dot);
  const std::string_view fraction = dot == mantissa.npos ? std::string_view() : mantissa.substr(dot + 1);
  if (whole.empty() && fraction.empty()) return false;
  if ((!whole.empty() && !Digits(whole)) || (!fraction.empty() && !Digits(fraction))) return false;
  if (e == s.npos) return true;
  std::string_view exponent = s.substr(e + 1);
  if (!exponent.empty() && (exponent[0] == '-' || exponent[0] == '+')) exponent.remove_prefix(1);
  return Digits(exponent);
}

}  // namespace

std::optional<int64_t> AsInteger(const Node& n) {
  if (!Numeric(n)) return std::nullopt;
  std::string_view s = n.scalar;
  const bool negative = !s.empty() && s[0] == '-';
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  if (!Digits(s)) return std::nullopt;
  // Accumulated negatively, so INT64_MIN is read too; past either end is refused.
  int64_t value = 0;
  constexpr int64_t kMin = INT64_MIN;
  for (const char c : s) {
    const int digit = c - '0';
    if (value < (kMin + digit) / 10) return std::nullopt;
    value = value * 10 - digit;
  }
  if (negative) return value;
  if (value == kMin) return std::nullopt;
  return -value;
}

std::optional<double> AsNumber(const Node& n) {
  if (!Numeric(n) || !DecimalNumber(n.scalar)) return std::nullopt;
  const std::string text(n.scalar);  // strtod needs a terminated string
  const double value = std::strtod(text.c_str(), nullptr);
  if (std::isinf(value) || std::isnan(value)) return std::nullopt;
  return value;
}

std::optional<bool> AsBool(const Node& n) {
  const std::string_view s = n.scalar;
  if (n.kind == Node::Kind::kBool || n.kind == Node::Kind::kString) {
    if (s == "true" || (n.kind == Node::Kind::kBool && (s == "True" || s == "TRUE"))) return true;
    if (s == "false" || (n.kind == Node::Kind::kBool && (s == "False" || s == "FALSE"))) return false;
  }
  return std::nullopt;
}

std::optional<std::string> AsText(const Node& n) {
  if (!n.IsScalar()) return std::nullopt;
  return n.scalar;
}

std::string LocationText(const Location& at) { return at.line > 0 ? at.file + ":" + std::to_string(at.line) : at.file; }

std::string TextOf(const Node* n) { return n != nullptr && n->IsScalar() ? n->scalar : std::string(); }

std::vector<SkipComment> FindSkipComments(std::string_view text) {
  constexpr std::string_view kMarker = "dlq-lab:skip=";
  constexpr std::string_view kSpace = " \t\r";
  std::vector<SkipComment> out;
  int line = 0;
  for (size_t start = 0; start <= text.size();) {
    ++line;
    size_t end = text.find('\n', start);
    if (end == text.npos) end = text.size();
    const std::string_view row = text.substr(start, end - start);
    start = end + 1;
    // `#`, spaces, the marker: "# dlq-lab:skip=DLQ-EXISTS audit events are best-effort".
    for (size_t hash = row.find('#'); hash != row.npos; hash = row.find('#', hash + 1)) {
      const size_t at = row.find_first_not_of(kSpace, hash + 1);
      if (at == row.npos || row.substr(at, kMarker.size()) != kMarker) continue;
      std::string_view rest = row.substr(at + kMarker.size());
      const size_t rule_end = std::min(rest.find_first_of(kSpace), rest.size());
      SkipComment skip;
      skip.rule = std::string(rest.substr(0, rule_end));
      rest.remove_prefix(rule_end);
      const size_t first = rest.find_first_not_of(kSpace);
      const size_t last = rest.find_last_not_of(kSpace);
      if (first != rest.npos) skip.reason = std::string(rest.substr(first, last - first + 1));
      skip.line = line;
      out.push_back(std::move(skip));
      break;
    }
    if (end == text.size()) break;
  }
  return out;
}

}  // namespace dlq::check
