// The link alphabet and the one-pass reader every link format version is read
// with (link_v1.cpp, link_v2.cpp). Internal to the core: callers use scenario.h.
//
// Shared by the frozen v1 reader, so a change here changes what released v1
// links read as: tests/fixtures/links/ holds them, and a new version that needs
// another lexical rule gets its own helper instead.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "policy.h"
#include "status.h"

namespace dlq::link {

// True for the bytes a string may carry raw: A–Z a–z 0–9 - _ . ~ ! $ ' ( ) * + = @ / ?
// (ASCII only, whatever the C locale says). Everything else is written %HH, so
// ';', ',', ':' and '%' never appear raw inside a string.
bool IsSafe(unsigned char c);

// Appends `s` percent-encoded, upper-case hex.
void AppendEncoded(std::string& out, std::string_view s);

// The letter process and settle actions spell an outcome with: 's', 't', 'p'
// (every version), 'u', 'v', 'q' (v2 on; FitsV1 keeps them out of v1 links).
char OutcomeLetter(Outcome outcome);
// The outcome of 's', 't' or 'p' (lesson 1, every version), or with `capstone`
// (v2 on) also 'u' undeserializable, 'v' unknown-schema, 'q' precondition;
// false for any other character.
bool ParseOutcomeLetter(char letter, Outcome* out, bool capstone);

// A one-pass reader over a link's text; every error names the 1-based character
// position (counting UTF-8 characters, not bytes).
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  bool done() const { return pos_ >= text_.size(); }
  char peek() const { return done() ? '\0' : text_[pos_]; }
  // Consumes `c` if it is next.
  bool Accept(char c);

  // InvalidArgument: "scenario link is malformed at character <n>: expected
  // <expected>, got <the next character, quoted, or the end of the link>".
  Status Error(const std::string& expected) const;

  // 1-based position of the current character, or of the one at `byte`.
  std::string Position() const { return Position(pos_); }
  std::string Position(size_t byte) const;

  // Digits into *out; at most `max_digits` of them after any leading zeros
  // (which are read leniently, as the format document says). OutOfRange past
  // `max_digits`, InvalidArgument when no digit is next; `what` names the number.
  Status Number(const std::string& what, size_t max_digits, uint64_t* out);

  // A percent-encoded string, up to (not including) ';', ',', ':' or the end.
  // InvalidArgument for a character outside the alphabet, a '%' without two hex
  // digits (either case), or bytes that do not decode to UTF-8; `what` names it.
  Status String(const std::string& what, std::string* out);

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace dlq::link
