#include "link_text.h"

#include "text.h"

namespace dlq::link {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

}  // namespace

bool IsSafe(unsigned char c) {
  if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) return true;
  switch (c) {
    case '-':
    case '_':
    case '.':
    case '~':
    case '!':
    case '$':
    case '\'':
    case '(':
    case ')':
    case '*':
    case '+':
    case '=':
    case '@':
    case '/':
    case '?': return true;
    default: return false;
  }
}

void AppendEncoded(std::string& out, std::string_view s) {
  static const char kHex[] = "0123456789ABCDEF";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (IsSafe(c)) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
}

char OutcomeLetter(Outcome outcome) {
  switch (outcome) {
    case Outcome::kSuccess: return 's';
    case Outcome::kTransient: return 't';
    case Outcome::kPermanent: return 'p';
    case Outcome::kUndeserializable: return 'u';
    case Outcome::kUnknownSchema: return 'v';
    case Outcome::kPrecondition: return 'q';
  }
  return '?';
}

bool ParseOutcomeLetter(char letter, Outcome* out, bool capstone) {
  switch (letter) {
    case 's': *out = Outcome::kSuccess; return true;
    case 't': *out = Outcome::kTransient; return true;
    case 'p': *out = Outcome::kPermanent; return true;
    case 'u': *out = Outcome::kUndeserializable; return capstone;
    case 'v': *out = Outcome::kUnknownSchema; return capstone;
    case 'q': *out = Outcome::kPrecondition; return capstone;
    default: return false;
  }
}

bool Reader::Accept(char c) {
  if (peek() != c || done()) return false;
  ++pos_;
  return true;
}

Status Reader::Error(const std::string& expected) const {
  std::string got = "the end of the link";
  if (!done()) {
    const auto c = static_cast<unsigned char>(text_[pos_]);
    if (IsSafe(c) || c == ';' || c == ',' || c == ':' || c == '%') {
      got = std::string("'").append(1, text_[pos_]).append("'");
    } else {
      size_t end = pos_ + 1;  // the whole UTF-8 character, not one byte of it
      while (end < text_.size() && (static_cast<unsigned char>(text_[end]) & 0xC0) == 0x80) ++end;
      got = Quote(text_.substr(pos_, end - pos_));
    }
  }
  return Status::InvalidArgument("scenario link is malformed at character " + Position() + ": expected " + expected +
                                 ", got " + got);
}

std::string Reader::Position(size_t byte) const {
  size_t characters = 1;
  for (size_t i = 0; i < byte && i < text_.size(); ++i) {
    if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) ++characters;
  }
  return std::to_string(characters);
}

Status Reader::Number(const std::string& what, size_t max_digits, uint64_t* out) {
  const size_t start = pos_;
  while (pos_ + 1 < text_.size() && peek() == '0' && text_[pos_ + 1] >= '0' && text_[pos_ + 1] <= '9') ++pos_;
  const size_t significant = pos_;
  uint64_t value = 0;
  while (!done() && peek() >= '0' && peek() <= '9') {
    if (pos_ - significant == max_digits) {
      return Status::OutOfRange("scenario link: " + what + " at character " + Position(start) + " has more than " +
                                std::to_string(max_digits) + " digits");
    }
    value = value * 10 + static_cast<uint64_t>(peek() - '0');
    ++pos_;
  }
  if (pos_ == start) return Error(what + " (digits)");
  *out = value;
  return Status::Ok();
}

Status Reader::String(const std::string& what, std::string* out) {
  out->clear();
  while (!done()) {
    const char c = peek();
    if (c == ';' || c == ',' || c == ':') break;
    if (c == '%') {
      const int hi = pos_ + 1 < text_.size() ? HexValue(text_[pos_ + 1]) : -1;
      const int lo = pos_ + 2 < text_.size() ? HexValue(text_[pos_ + 2]) : -1;
      if (hi < 0 || lo < 0) {
        return Status::InvalidArgument("scenario link is malformed at character " + Position() + ": '%' in " + what +
                                       " must be followed by two hex digits");
      }
      *out += static_cast<char>(hi * 16 + lo);
      pos_ += 3;
    } else if (IsSafe(static_cast<unsigned char>(c))) {
      *out += c;
      ++pos_;
    } else {
      return Error(what + " characters (letters, digits, -_.~!$'()*+=@/? or %HH escapes)");
    }
  }
  if (!IsValidUtf8(*out)) {
    return Status::InvalidArgument("scenario link: " + what + " ending at character " + Position(pos_ - 1) +
                                   " is not UTF-8 once its %HH escapes are decoded");
  }
  return Status::Ok();
}

}  // namespace dlq::link
