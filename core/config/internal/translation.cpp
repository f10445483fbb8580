#include "internal/translation.h"

namespace dlq::config {

ConfigRefusal Refusal(std::string key, std::string expected, std::string given, std::string_view why) {
  std::string name = Isolated(key);
  std::string message = why.empty() ? name + ": expected " + expected + ", got " + given
                                    : name + " " + std::string(why) + ": expected " + expected + ", got " + given;
  return {std::move(key), std::move(expected), std::move(given), std::move(message)};
}

ConfigRefusal NotModelled(std::string key, std::string given, std::string_view detail, std::string expected) {
  std::string why = "is not modelled by the lab";
  if (!detail.empty()) why += " (" + std::string(detail) + ")";
  return Refusal(std::move(key), std::move(expected), std::move(given), why);
}

ImportResult Refused(std::string format, ConfigRefusal refusal) {
  ImportResult r;
  r.format = std::move(format);
  r.refusals.push_back(std::move(refusal));
  return r;
}

std::string_view JsTrim(std::string_view s) {
  auto space_at = [&](size_t i, size_t* next) {
    size_t at = i;
    unsigned cp = NextCodePoint(s, at);
    if (next != nullptr) *next = at;
    return cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || cp == '\v' || cp == '\f' || cp == 0xA0 ||
           cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
           cp == 0x205F || cp == 0x3000 || cp == 0xFEFF;
  };
  size_t begin = 0;
  size_t next = 0;
  while (begin < s.size() && space_at(begin, &next)) begin = next;
  size_t end = s.size();
  while (end > begin) {
    size_t start = end - 1;
    while (start > begin && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
    if (!space_at(start, nullptr)) break;
    end = start;
  }
  return s.substr(begin, end - begin);
}

std::optional<double> WholeOf(const JsValue* v) {
  if (v == nullptr) return std::nullopt;
  if (v->IsNumber()) return v->IsWhole() ? std::optional<double>(v->number) : std::nullopt;
  if (!v->IsString()) return std::nullopt;
  std::string_view t = JsTrim(v->text);
  size_t digits_at = !t.empty() && t[0] == '-' ? 1 : 0;
  size_t digits = t.size() - digits_at;
  if (digits < 1 || digits > 15) return std::nullopt;
  double n = 0;
  for (size_t i = digits_at; i < t.size(); ++i) {
    if (t[i] < '0' || t[i] > '9') return std::nullopt;
    n = n * 10 + (t[i] - '0');
  }
  return digits_at == 1 ? -n : n;
}

bool Translation::Sets(std::string_view field) const {
  for (const SetField& s : result_.set) {
    if (s.field == field) return true;
  }
  return false;
}

ImportResult Translation::Result() && {
  if (!result_.refusals.empty()) {
    ImportResult refused;
    refused.format = format_;
    refused.refusals = std::move(result_.refusals);
    return refused;
  }
  result_.ok = true;
  result_.format = format_;
  result_.system = system_;
  return std::move(result_);
}

}  // namespace dlq::config
