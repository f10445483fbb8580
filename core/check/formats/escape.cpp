// The one place the formats escape text (formats.h).
#include <cstdint>
#include <string>
#include <string_view>

#include "formats/formats.h"

namespace dlq::check::formats {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The length of the well-formed UTF-8 sequence at text[i] (Unicode 15, table 3-7), or 0.
size_t Utf8Length(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
  const uint8_t b0 = byte(i);
  if (b0 < 0x80) return 1;
  size_t n = 0;
  uint8_t lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) n = 2;
  else if (b0 == 0xE0) {
    n = 3;
    lo = 0xA0;
  } else if ((b0 >= 0xE1 && b0 <= 0xEC) || b0 == 0xEE || b0 == 0xEF) n = 3;
  else if (b0 == 0xED) {
    n = 3;
    hi = 0x9F;
  }  // no surrogates
  else if (b0 == 0xF0) {
    n = 4;
    lo = 0x90;
  } else if (b0 >= 0xF1 && b0 <= 0xF3) n = 4;
  else if (b0 == 0xF4) {
    n = 4;
    hi = 0x8F;
  }  // nothing past U+10FFFF
  else
    return 0;
  if (i + n > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return n;
}

// Calls emit(sequence) for each UTF-8 character of `text`, U+FFFD for each bad byte.
template <typename Emit>
void ForEachCharacter(std::string_view text, Emit emit) {
  size_t i = 0;
  while (i < text.size()) {
    const size_t n = Utf8Length(text, i);
    if (n == 0) {
      emit(kReplacement);
      ++i;
    } else {
      emit(text.substr(i, n));
      i += n;
    }
  }
}

void AppendHex4(std::string* out, unsigned value) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->append("\\u00");
  out->push_back(kHex[(value >> 4) & 0xF]);
  out->push_back(kHex[value & 0xF]);
}

}  // namespace

std::string ValidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  ForEachCharacter(text, [&](std::string_view c) { out.append(c); });
  return out;
}

std::string TerminalText(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  ForEachCharacter(text, [&](std::string_view c) {
    const auto b = static_cast<unsigned char>(c[0]);
    if (b == '\n') out.append("\\n");
    else if (b == '\r') out.append("\\r");
    else if (b == '\t') out.append("\\t");
    else if (b < 0x20 || b == 0x7f) out.append({'\\', 'x', kHex[b >> 4], kHex[b & 0xF]});
    else out.append(c);
  });
  return out;
}

std::string JsonString(std::string_view text) {
  std::string out = "\"";
  out.reserve(text.size() + 2);
  ForEachCharacter(text, [&](std::string_view c) {
    const auto b = static_cast<unsigned char>(c[0]);
    switch (b) {
      case '"': out.append("\\\""); break;
      case '\\': out.append("\\\\"); break;
      case '\n': out.append("\\n"); break;
      case '\r': out.append("\\r"); break;
      case '\t': out.append("\\t"); break;
      case '\b': out.append("\\b"); break;
      case '\f': out.append("\\f"); break;
      default:
        if (b < 0x20) AppendHex4(&out, b);
        else out.append(c);
    }
  });
  out.push_back('"');
  return out;
}

std::string XmlText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  ForEachCharacter(text, [&](std::string_view c) {
    const auto b = static_cast<unsigned char>(c[0]);
    switch (b) {
      case '&': out.append("&amp;"); break;
      case '<': out.append("&lt;"); break;
      case '>': out.append("&gt;"); break;
      case '"': out.append("&quot;"); break;
      case '\'': out.append("&apos;"); break;
      case '\n': out.append("&#10;"); break;  // kept through attribute normalisation
      case '\r': out.append("&#13;"); break;
      case '\t': out.append("&#9;"); break;
      default:
        // XML 1.0 (section 2.2) has no way to carry other control characters, nor U+FFFE/U+FFFF.
        if (b < 0x20 || c == "\xEF\xBF\xBE" || c == "\xEF\xBF\xBF") out.append(kReplacement);
        else out.append(c);
    }
  });
  return out;
}

std::string GithubData(std::string_view text) {
  std::string out;
  for (const char c : ValidUtf8(text)) {
    if (c == '%') out.append("%25");
    else if (c == '\r') out.append("%0D");
    else if (c == '\n') out.append("%0A");
    else out.push_back(c);
  }
  return out;
}

std::string GithubProperty(std::string_view text) {
  std::string out;
  for (const char c : GithubData(text)) {
    if (c == ':') out.append("%3A");
    else if (c == ',') out.append("%2C");
    else out.push_back(c);
  }
  return out;
}

std::string Count(int n, std::string_view singular, std::string_view plural) {
  return std::to_string(n) + " " + std::string(n == 1 ? singular : plural);
}

std::string SummaryLine(const Report& report) {
  return "checked " + Count(static_cast<int>(report.queues.size()), "queue", "queues") + ": " +
         Count(report.errors, "error", "errors") + ", " + Count(report.warnings, "warning", "warnings") + ", " +
         Count(report.notes, "note", "notes") + ", " + std::to_string(report.skipped) + " skipped";
}

}  // namespace dlq::check::formats
