// A value read from a pasted config, as JavaScript holds it: the readers' answers
// (their order of keys, their numbers, the values their messages echo) are those
// the import gave when it was JavaScript, so the value keeps JavaScript's model.
// Strings are UTF-8 (a lone surrogate from a \u escape is kept as WTF-8); numbers
// are doubles; an object's keys iterate in JavaScript's own order (Entries()).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlq::config {

struct JsMember;

struct JsValue {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool flag = false;
  double number = 0;
  std::string text;
  std::vector<JsValue> items;     // an array's
  std::vector<JsMember> members;  // an object's, in the order read

  // Defined below JsMember: a body here would need the vector's element complete.
  static JsValue Null();
  static JsValue Bool(bool b);
  static JsValue Number(double n);
  static JsValue String(std::string s);

  bool IsObject() const { return kind == Kind::kObject; }
  bool IsString() const { return kind == Kind::kString; }
  bool IsNumber() const { return kind == Kind::kNumber; }
  bool IsBool(bool b) const { return kind == Kind::kBool && flag == b; }
  bool IsStringEq(std::string_view s) const { return kind == Kind::kString && text == s; }
  bool IsNumberEq(double n) const { return kind == Kind::kNumber && number == n; }
  // Number.isSafeInteger.
  bool IsWhole() const;

  // An object's member named `key`, or nullptr (also for a non-object).
  const JsValue* Find(std::string_view key) const;
  bool Has(std::string_view key) const { return Find(key) != nullptr; }
  // An object's members in the order Object.entries gives them: array-index keys
  // ("0", "7") first, ascending, then the others as read.
  std::vector<const JsMember*> Entries() const;
  // Sets (or replaces, in place) member `key`.
  void Set(std::string key, JsValue value);
};

// One member of an object: its key and value (first/second, as a pair names them;
// a struct rather than a std::pair, which clang 14 with libstdc++ 12 cannot hold
// in a vector inside JsValue while JsValue is still incomplete).
struct JsMember {
  std::string first;
  JsValue second;
};

inline JsValue JsValue::Null() { return {}; }
inline JsValue JsValue::Bool(bool b) {
  JsValue v;
  v.kind = Kind::kBool;
  v.flag = b;
  return v;
}
inline JsValue JsValue::Number(double n) {
  JsValue v;
  v.kind = Kind::kNumber;
  v.number = n;
  return v;
}
inline JsValue JsValue::String(std::string s) {
  JsValue v;
  v.kind = Kind::kString;
  v.text = std::move(s);
  return v;
}

// One code point decoded from (WTF-8) `s` at byte `i`; advances `i` past it.
unsigned NextCodePoint(std::string_view s, size_t& i);
// `cp` appended as (WTF-8) UTF-8.
void AppendUtf8(std::string& out, unsigned cp);

// Number.prototype.toString: the shortest digits that read back, in JavaScript's layout.
std::string JsNumberText(double n);
// JSON.stringify(value), compact; a non-finite number is null as there.
std::string JsonText(const JsValue& value);
// JSON.stringify(string), well-formed (a lone surrogate as \udxxx).
std::string JsonString(std::string_view utf8);
// The length of `utf8` in UTF-16 code units (JavaScript's String.length).
size_t Utf16Length(std::string_view utf8);
// The first `units` UTF-16 code units of `utf8` (a pair split in the middle keeps its high half, as WTF-8).
std::string Utf16Prefix(std::string_view utf8, size_t units);
// Number.prototype.toLocaleString('en') of a whole number: 65,536.
std::string GroupedWhole(long long n);

}  // namespace dlq::config
