// A RabbitMQ policy's `pattern`: a regular expression searched (not anchored unless it says
// ^ or $) in a queue's name, as RabbitMQ's re:run does. Compiled once into a small
// Thompson automaton, so matching is linear in the name whatever the pattern (no
// backtracking, no exception: std::regex may throw, which the WebAssembly build cannot catch).
//
// The syntax read: literals, `.`, `\` escapes (\. \d \w \s \D \W \S), classes [a-z_] and
// [^…], groups (…) and (?:…), `|`, the quantifiers * + ? {n} {n,} {n,m} (and their lazy
// forms, which match the same names), ^ and $. Anything else (look-around, back-references)
// is refused by name, as is a pattern longer than kMaxPatternBytes.
#pragma once

#include <bitset>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "status.h"

namespace dlq::check {

inline constexpr size_t kMaxPatternBytes = 1024;

class PolicyPattern {
 public:
  // The pattern compiled, or InvalidArgument saying what was expected where.
  static Result<PolicyPattern> Compile(std::string_view pattern);
  bool Matches(std::string_view name) const;
  // The one name it matches when it is ^literal$ (an index can find it by that name), else "".
  std::string_view ExactName() const { return IsExact() ? std::string_view(literal_) : std::string_view(); }
  bool IsExact() const { return literal_only_ && anchored_start_ && anchored_end_; }

 private:
  enum class Op : uint8_t { kSet, kSplit, kJmp, kMatch, kBol, kEol };
  struct Inst {
    Op op;
    int x = 0, y = 0;  // kSet: the set's index; kSplit: both targets; kJmp: x
  };
  friend class PatternCompiler;
  std::vector<Inst> program_;
  std::vector<std::bitset<256>> sets_;
  std::string literal_;  // when the pattern is a literal: its text (fast path)
  bool literal_only_ = false, anchored_start_ = false, anchored_end_ = false;
};

}  // namespace dlq::check
