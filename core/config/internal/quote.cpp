#include "internal/quote.h"

#include <cstdio>

namespace dlq::config {
namespace {

constexpr size_t kMax = 40;

bool IsBidiControl(unsigned cp) {
  return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

bool Reorders(unsigned cp) {
  return IsBidiControl(cp) || (cp >= 0x0590 && cp <= 0x08FF) || (cp >= 0xFB1D && cp <= 0xFDFF) ||
         (cp >= 0xFE70 && cp <= 0xFEFF) || (cp >= 0x10800 && cp <= 0x10FFF) || (cp >= 0x1E800 && cp <= 0x1EFFF);
}

}  // namespace

std::string Isolated(std::string_view text) {
  bool reorders = false;
  for (size_t i = 0; i < text.size() && !reorders;) reorders = Reorders(NextCodePoint(text, i));
  if (!reorders) return std::string(text);
  std::string out = "\u2068";
  for (size_t i = 0; i < text.size();) {
    size_t start = i;
    unsigned cp = NextCodePoint(text, i);
    if (IsBidiControl(cp)) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", cp);
      out += buf;
    } else {
      out.append(text.substr(start, i - start));
    }
  }
  return out + "\u2069";
}

std::string Quoted(const JsValue& value) {
  if (value.IsString()) {
    size_t length = Utf16Length(value.text);
    if (length <= kMax) return Isolated(JsonString(value.text));
    std::string start = JsonString(Utf16Prefix(value.text, kMax));
    start.pop_back();
    return Isolated(start + "…\"") + " (" + std::to_string(length) + " characters)";
  }
  std::string text = JsonText(value);
  size_t length = Utf16Length(text);
  if (length <= kMax) return Isolated(text);
  return Isolated(Utf16Prefix(text, kMax) + "…") + " (" + std::to_string(length) + " characters)";
}

}  // namespace dlq::config
