#include "internal/js_value.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace dlq::config {
namespace {

// The index of `key` as an array index (a canonical decimal below 2^32 - 1), or -1.
long long ArrayIndex(std::string_view key) {
  if (key.empty() || key.size() > 10 || (key.size() > 1 && key[0] == '0')) return -1;
  long long n = 0;
  for (char c : key) {
    if (c < '0' || c > '9') return -1;
    n = n * 10 + (c - '0');
  }
  return n < 4294967295LL ? n : -1;
}

}  // namespace

unsigned NextCodePoint(std::string_view s, size_t& i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  int extra = c < 0x80 ? 0 : c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
  unsigned cp = extra == 0 ? c : extra == 1 ? (c & 0x1Fu) : extra == 2 ? (c & 0x0Fu) : (c & 0x07u);
  ++i;
  for (int k = 0; k < extra && i < s.size(); ++k, ++i) cp = (cp << 6) | (static_cast<unsigned char>(s[i]) & 0x3Fu);
  return cp;
}

void AppendUtf8(std::string& out, unsigned cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

namespace {

void AppendHex4(std::string& out, unsigned unit) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\u%04x", unit);
  out += buf;
}

}  // namespace

bool JsValue::IsWhole() const {
  return kind == Kind::kNumber && std::isfinite(number) && std::trunc(number) == number &&
         std::fabs(number) <= 9007199254740991.0;
}

const JsValue* JsValue::Find(std::string_view key) const {
  if (kind != Kind::kObject) return nullptr;
  for (const auto& m : members) {
    if (m.first == key) return &m.second;
  }
  return nullptr;
}

std::vector<const JsMember*> JsValue::Entries() const {
  std::vector<const JsMember*> indexed;
  std::vector<const JsMember*> named;
  for (const auto& m : members) (ArrayIndex(m.first) >= 0 ? indexed : named).push_back(&m);
  std::stable_sort(indexed.begin(), indexed.end(),
                   [](const auto* a, const auto* b) { return ArrayIndex(a->first) < ArrayIndex(b->first); });
  indexed.insert(indexed.end(), named.begin(), named.end());
  return indexed;
}

void JsValue::Set(std::string key, JsValue value) {
  for (auto& m : members) {
    if (m.first == key) {
      m.second = std::move(value);
      return;
    }
  }
  members.push_back(JsMember{std::move(key), std::move(value)});
}

std::string JsNumberText(double n) {
  if (std::isnan(n)) return "NaN";
  if (std::isinf(n)) return n > 0 ? "Infinity" : "-Infinity";
  if (n == 0) return "0";
  std::string sign = n < 0 ? "-" : "";
  double a = std::fabs(n);
  // The shortest digits that read back (ECMAScript's Number::toString, step 5).
  char buf[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*e", precision - 1, a);
    if (std::strtod(buf, nullptr) == a) break;
  }
  std::string s(buf);
  size_t e = s.find('e');
  std::string digits;
  for (size_t i = 0; i < e; ++i) {
    if (s[i] != '.') digits += s[i];
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  int k = static_cast<int>(digits.size());
  int point = std::atoi(s.c_str() + e + 1) + 1;  // n in the spec: the decimal point's place
  if (k <= point && point <= 21) return sign + digits + std::string(static_cast<size_t>(point - k), '0');
  if (0 < point && point <= 21)
    return sign + digits.substr(0, static_cast<size_t>(point)) + "." + digits.substr(static_cast<size_t>(point));
  if (-6 < point && point <= 0) return sign + "0." + std::string(static_cast<size_t>(-point), '0') + digits;
  std::string out = sign;
  out += digits[0];
  if (k > 1) {
    out += '.';
    out.append(digits, 1, std::string::npos);
  }
  out += point - 1 >= 0 ? "e+" : "e-";
  out += std::to_string(std::abs(point - 1));
  return out;
}

std::string JsonString(std::string_view utf8) {
  std::string out = "\"";
  size_t i = 0;
  while (i < utf8.size()) {
    size_t start = i;
    unsigned cp = NextCodePoint(utf8, i);
    switch (cp) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\b': out += "\\b"; continue;
      case '\f': out += "\\f"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      default: break;
    }
    if (cp < 0x20 || (cp >= 0xD800 && cp <= 0xDFFF)) AppendHex4(out, cp);
    else out.append(utf8.substr(start, i - start));
  }
  return out + "\"";
}

std::string JsonText(const JsValue& v) {
  switch (v.kind) {
    case JsValue::Kind::kNull: return "null";
    case JsValue::Kind::kBool: return v.flag ? "true" : "false";
    case JsValue::Kind::kNumber: return std::isfinite(v.number) ? JsNumberText(v.number) : "null";
    case JsValue::Kind::kString: return JsonString(v.text);
    case JsValue::Kind::kArray: {
      std::string out = "[";
      for (size_t i = 0; i < v.items.size(); ++i) {
        if (i > 0) out += ',';
        out += JsonText(v.items[i]);
      }
      return out + "]";
    }
    case JsValue::Kind::kObject: {
      std::string out = "{";
      bool first = true;
      for (const auto* m : v.Entries()) {
        if (!first) out += ',';
        out += JsonString(m->first);
        out += ':';
        out += JsonText(m->second);
        first = false;
      }
      return out + "}";
    }
  }
  return "null";
}

size_t Utf16Length(std::string_view utf8) {
  size_t units = 0;
  for (size_t i = 0; i < utf8.size();) units += NextCodePoint(utf8, i) >= 0x10000 ? 2 : 1;
  return units;
}

std::string Utf16Prefix(std::string_view utf8, size_t units) {
  std::string out;
  size_t taken = 0;
  for (size_t i = 0; i < utf8.size() && taken < units;) {
    size_t start = i;
    unsigned cp = NextCodePoint(utf8, i);
    if (cp >= 0x10000 && taken + 2 > units) {  // only the high surrogate fits
      AppendUtf8(out, 0xD800 + ((cp - 0x10000) >> 10));
      break;
    }
    taken += cp >= 0x10000 ? 2 : 1;
    out.append(utf8.substr(start, i - start));
  }
  return out;
}

std::string GroupedWhole(long long n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (n < 0 ? "-" : "") + out;
}

}  // namespace dlq::config
