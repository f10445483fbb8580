#include "internal/object_text.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "internal/quote.h"

namespace dlq::config {
namespace {

constexpr int kEnd = -1;  // no character: the end of the text

bool IsSpaceSeparator(int c) {
  return c == 0x20 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x202F || c == 0x205F ||
         c == 0x3000;
}
bool IsDigit(int c) { return c >= '0' && c <= '9'; }
bool IsHexDigit(int c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
// Unicode's ID_Start and ID_Continue beyond ASCII, approximated: a letter-like code point,
// not a space, punctuation block or format character (a key in a broker config is ASCII).
bool IsOtherIdChar(int c) {
  return c >= 0xAA && c != 0xAB && c != 0xBB && c != 0xD7 && c != 0xF7 && !IsSpaceSeparator(c) &&
         !(c >= 0x2000 && c <= 0x2BFF) && !(c >= 0x3000 && c <= 0x303F) && !(c >= 0xD800 && c <= 0xDFFF) &&
         !(c >= 0xFE00 && c <= 0xFE0F) && c != 0xFEFF && !(c >= 0xFF00 && c <= 0xFF0F);
}
bool IsIdStart(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '$' || c == '_' || IsOtherIdChar(c);
}
bool IsIdContinue(int c) { return IsIdStart(c) || IsDigit(c) || c == 0x200C || c == 0x200D; }

std::string FormatChar(int c) {
  switch (c) {
    case '\'': return "\\'";
    case '"': return "\\\"";
    case '\\': return "\\\\";
    case '\b': return "\\b";
    case '\f': return "\\f";
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    case '\v': return "\\v";
    case 0: return "\\0";
    case 0x2028: return "\\u2028";
    case 0x2029: return "\\u2029";
    default: break;
  }
  if (c < ' ') {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", c);
    return buf;
  }
  std::string out;
  AppendUtf8(out, static_cast<unsigned>(c));
  return out;
}

// Appends one UTF-16 unit or code point, joining a low surrogate to a high one before it.
void AppendUnit(std::string& s, unsigned cp) {
  if (cp >= 0xDC00 && cp <= 0xDFFF && s.size() >= 3 && static_cast<unsigned char>(s[s.size() - 3]) == 0xED &&
      (static_cast<unsigned char>(s[s.size() - 2]) & 0xF0) == 0xA0) {
    size_t i = s.size() - 3;
    unsigned high = NextCodePoint(s, i);
    s.resize(s.size() - 3);
    AppendUtf8(s, 0x10000 + ((high - 0xD800) << 10) + (cp - 0xDC00));
    return;
  }
  AppendUtf8(s, cp);
}

struct SyntaxError {
  std::string message;
};

enum class Lex {
  kDefault,
  kComment,
  kMultiLineComment,
  kMultiLineCommentAsterisk,
  kSingleLineComment,
  kValue,
  kIdentifierNameStartEscape,
  kIdentifierName,
  kIdentifierNameEscape,
  kSign,
  kZero,
  kDecimalInteger,
  kDecimalPointLeading,
  kDecimalPoint,
  kDecimalFraction,
  kDecimalExponent,
  kDecimalExponentSign,
  kDecimalExponentInteger,
  kHexadecimal,
  kHexadecimalInteger,
  kString,
  kStart,
  kBeforePropertyName,
  kAfterPropertyName,
  kBeforePropertyValue,
  kAfterPropertyValue,
  kBeforeArrayValue,
  kAfterArrayValue,
  kEnd
};

enum class TokenType { kError, kEof, kPunctuator, kNull, kBoolean, kNumeric, kString, kIdentifier };

struct Token {
  explicit Token(TokenType t) : type(t) {}
  TokenType type;
  int punctuator = 0;
  JsValue value;
};

// json5's parse(), state for state (node_modules/json5/lib/parse.js).
class Json5Reader {
 public:
  explicit Json5Reader(std::string_view text) : source_(text) {}

  // The value, or nullopt with error() saying why (json5's own words).
  std::optional<JsValue> Parse() {
    do {
      token_ = LexToken();
      if (!error_) ParseStep();
      if (error_) return std::nullopt;
    } while (token_.type != TokenType::kEof);
    return std::move(root_);
  }
  const std::string& error() const { return *error_; }

 private:
  int Peek() const {
    if (pos_ >= source_.size()) return kEnd;
    size_t i = pos_;
    return static_cast<int>(NextCodePoint(source_, i));
  }
  int Read() {
    int ch = Peek();
    if (ch == '\n') {
      ++line_;
      column_ = 0;
    } else if (ch != kEnd) {
      column_ += ch >= 0x10000 ? 2 : 1;
    } else {
      ++column_;
    }
    if (ch != kEnd) NextCodePoint(source_, pos_);
    return ch;
  }
  SyntaxError InvalidChar(int ch) const {
    if (ch == kEnd) return InvalidEof();
    return {"invalid character '" + FormatChar(ch) + "' at " + Where()};
  }
  SyntaxError InvalidEof() const { return {"invalid end of input at " + Where()}; }
  std::string Where() const { return std::to_string(line_) + ":" + std::to_string(column_); }

  // False (the error kept) when the text does not go on with `rest`.
  bool Literal(std::string_view rest) {
    for (char want : rest) {
      if (Peek() != want) {
        Fail(InvalidChar(Read()));
        return false;
      }
      Read();
    }
    return true;
  }
  // Fails on the next character (read, as json5 reads it before it says so).
  bool FailAtNext() {
    Fail(InvalidChar(Read()));
    return false;
  }
  // Keeps the first error (the reader stops at it) and gives the token that says so.
  Token Fail(const SyntaxError& e) {
    if (!error_) error_ = e.message;
    return Token(TokenType::kError);
  }
  Token NumberToken(double n) {
    Token t(TokenType::kNumeric);
    t.value = JsValue::Number(n);
    return t;
  }
  Token Punctuator(int ch) {
    Token t(TokenType::kPunctuator);
    t.punctuator = ch;
    return t;
  }
  double BufferNumber() const {
    if (buffer_.size() > 1 && (buffer_[1] == 'x' || buffer_[1] == 'X')) {
      double n = 0;
      for (size_t i = 2; i < buffer_.size(); ++i) {
        char h = buffer_[i];
        n = n * 16 + (IsDigit(h) ? h - '0' : (h | 0x20) - 'a' + 10);
      }
      return n;
    }
    return std::strtod(buffer_.c_str(), nullptr);
  }
  // Four hex digits' unit, or -1 (the error kept).
  long UnicodeEscape() {
    long n = 0;
    for (int count = 0; count < 4; ++count) {
      int ch = Peek();
      if (!IsHexDigit(ch)) {
        Fail(InvalidChar(Read()));
        return -1;
      }
      Read();
      n = n * 16 + (IsDigit(ch) ? ch - '0' : (ch | 0x20) - 'a' + 10);
    }
    return n;
  }
  bool Escape();  // false: the error kept
  std::optional<Token> LexStep();
  Token LexToken() {
    lex_ = Lex::kDefault;
    buffer_.clear();
    double_quote_ = false;
    sign_ = 1;
    for (;;) {
      c_ = Peek();
      if (std::optional<Token> t = LexStep()) return std::move(*t);
    }
  }
  std::optional<Token> LexNumberStep();
  std::optional<Token> LexCommentStep();
  std::optional<Token> LexIdentifierEscapeStep();
  std::optional<Token> LexPlaceStep(Lex place);
  void ParseStep();
  void Push();
  void Pop();
  void AfterValue() {
    if (stack_.empty()) parse_ = Lex::kEnd;
    else parse_ = stack_.back()->kind == JsValue::Kind::kArray ? Lex::kAfterArrayValue : Lex::kAfterPropertyValue;
  }

  std::string_view source_;
  size_t pos_ = 0;
  int line_ = 1;
  int column_ = 0;
  Lex parse_ = Lex::kStart;
  Lex lex_ = Lex::kDefault;
  std::string buffer_;
  bool double_quote_ = false;
  int sign_ = 1;
  int c_ = kEnd;
  Token token_{Token(TokenType::kEof)};
  std::string key_;
  JsValue root_;
  bool has_root_ = false;
  std::vector<JsValue*> stack_;
  std::optional<std::string> error_;
};

bool Json5Reader::Escape() {
  int ch = Peek();
  switch (ch) {
    case 'b':
      Read();
      buffer_ += '\b';
      return true;
    case 'f':
      Read();
      buffer_ += '\f';
      return true;
    case 'n':
      Read();
      buffer_ += '\n';
      return true;
    case 'r':
      Read();
      buffer_ += '\r';
      return true;
    case 't':
      Read();
      buffer_ += '\t';
      return true;
    case 'v':
      Read();
      buffer_ += '\v';
      return true;
    case '0':
      Read();
      if (IsDigit(Peek())) return FailAtNext();
      buffer_ += '\0';
      return true;
    case 'x': {
      Read();
      unsigned n = 0;
      for (int k = 0; k < 2; ++k) {
        int h = Peek();
        if (!IsHexDigit(h)) return FailAtNext();
        Read();
        n = n * 16 + static_cast<unsigned>(IsDigit(h) ? h - '0' : (h | 0x20) - 'a' + 10);
      }
      AppendUtf8(buffer_, n);
      return true;
    }
    case 'u': {
      Read();
      long u = UnicodeEscape();
      if (u < 0) return false;
      AppendUnit(buffer_, static_cast<unsigned>(u));
      return true;
    }
    case '\n':
    case 0x2028:
    case 0x2029: Read(); return true;
    case '\r':
      Read();
      if (Peek() == '\n') Read();
      return true;
    case kEnd: return FailAtNext();
    default:
      if (ch >= '1' && ch <= '9') return FailAtNext();
      AppendUtf8(buffer_, static_cast<unsigned>(Read()));
      return true;
  }
}

std::optional<Token> Json5Reader::LexNumberStep() {
  switch (lex_) {
    case Lex::kSign:
      if (c_ == '.') {
        buffer_ = ".";
        Read();
        lex_ = Lex::kDecimalPointLeading;
        return std::nullopt;
      }
      if (c_ == '0') {
        buffer_ = "0";
        Read();
        lex_ = Lex::kZero;
        return std::nullopt;
      }
      if (c_ >= '1' && c_ <= '9') {
        buffer_ = std::string(1, static_cast<char>(Read()));
        lex_ = Lex::kDecimalInteger;
        return std::nullopt;
      }
      if (c_ == 'I') {
        Read();
        if (!Literal("nfinity")) return Token(TokenType::kError);
        return NumberToken(sign_ * HUGE_VAL);
      }
      if (c_ == 'N') {
        Read();
        if (!Literal("aN")) return Token(TokenType::kError);
        return NumberToken(NAN);
      }
      return Fail(InvalidChar(Read()));
    case Lex::kZero:
      if (c_ == '.') {
        buffer_ += static_cast<char>(Read());
        lex_ = Lex::kDecimalPoint;
        return std::nullopt;
      }
      if (c_ == 'e' || c_ == 'E') {
        buffer_ += static_cast<char>(Read());
        lex_ = Lex::kDecimalExponent;
        return std::nullopt;
      }
      if (c_ == 'x' || c_ == 'X') {
        buffer_ += static_cast<char>(Read());
        lex_ = Lex::kHexadecimal;
        return std::nullopt;
      }
      return NumberToken(sign_ * 0.0);
    case Lex::kDecimalInteger:
      if (c_ == '.') {
        buffer_ += static_cast<char>(Read());
        lex_ = Lex::kDecimalPoint;
        return std::nullopt;
      }
      if (c_ == 'e' || c_ == 'E') {
        buffer_ += static_cast<char>(Read());
        lex_ = Lex::kDecimalExponent;
        return std::nullopt;
      }
      if (IsDigit(c_)) {
        buffer_ += static_cast<char>(Read());
        return std::nullopt;
      }
      return NumberToken(sign_ * BufferNumber());
    case Lex::kDecimalPointLeading:
      if (IsDigit(c_)) {
        buffer_ += static_cast<char>(Read());
        lex_ = Lex::kDecimalFraction;
        return std::nullopt;
      }
      return Fail(InvalidChar(Read()));
    case Lex::kDecimalPoint:
    case Lex::kDecimalFraction:
      if (c_ == 'e' || c_ == 'E') {
        buffer_ += static_cast<char>(Read());
        lex_ = Lex::kDecimalExponent;
        return std::nullopt;
      }
      if (IsDigit(c_)) {
        buffer_ += static_cast<char>(Read());
        lex_ = Lex::kDecimalFraction;
        return std::nullopt;
      }
      return NumberToken(sign_ * BufferNumber());
    case Lex::kDecimalExponent:
      if (c_ == '+' || c_ == '-') {
        buffer_ += static_cast<char>(Read());
        lex_ = Lex::kDecimalExponentSign;
        return std::nullopt;
      }
      [[fallthrough]];
    case Lex::kDecimalExponentSign:
      if (IsDigit(c_)) {
        buffer_ += static_cast<char>(Read());
        lex_ = Lex::kDecimalExponentInteger;
        return std::nullopt;
      }
      return Fail(InvalidChar(Read()));
    case Lex::kDecimalExponentInteger:
      if (IsDigit(c_)) {
        buffer_ += static_cast<char>(Read());
        return std::nullopt;
      }
      return NumberToken(sign_ * BufferNumber());
    case Lex::kHexadecimal:
      if (IsHexDigit(c_)) {
        buffer_ += static_cast<char>(Read());
        lex_ = Lex::kHexadecimalInteger;
        return std::nullopt;
      }
      return Fail(InvalidChar(Read()));
    case Lex::kHexadecimalInteger:
      if (IsHexDigit(c_)) {
        buffer_ += static_cast<char>(Read());
        return std::nullopt;
      }
      return NumberToken(sign_ * BufferNumber());
    default: return std::nullopt;
  }
}

// The lexer in the parser's place (`place`: the parse state when the default state hands over).
std::optional<Token> Json5Reader::LexPlaceStep(Lex place) {
  switch (place) {
    case Lex::kValue:
      switch (c_) {
        case '{':
        case '[': return Punctuator(Read());
        case 'n': {
          Read();
          if (!Literal("ull")) return Token(TokenType::kError);
          return Token(TokenType::kNull);
        }
        case 't': {
          Read();
          if (!Literal("rue")) return Token(TokenType::kError);
          Token t(TokenType::kBoolean);
          t.value = JsValue::Bool(true);
          return t;
        }
        case 'f': {
          Read();
          if (!Literal("alse")) return Token(TokenType::kError);
          Token t(TokenType::kBoolean);
          t.value = JsValue::Bool(false);
          return t;
        }
        case '-':
        case '+':
          if (Read() == '-') sign_ = -1;
          lex_ = Lex::kSign;
          return std::nullopt;
        case '.':
          buffer_ = ".";
          Read();
          lex_ = Lex::kDecimalPointLeading;
          return std::nullopt;
        case '0':
          buffer_ = "0";
          Read();
          lex_ = Lex::kZero;
          return std::nullopt;
        case 'I': {
          Read();
          if (!Literal("nfinity")) return Token(TokenType::kError);
          return NumberToken(HUGE_VAL);
        }
        case 'N': {
          Read();
          if (!Literal("aN")) return Token(TokenType::kError);
          return NumberToken(NAN);
        }
        case '"':
        case '\'':
          double_quote_ = Read() == '"';
          buffer_.clear();
          lex_ = Lex::kString;
          return std::nullopt;
        default:
          if (c_ >= '1' && c_ <= '9') {
            buffer_ = std::string(1, static_cast<char>(Read()));
            lex_ = Lex::kDecimalInteger;
            return std::nullopt;
          }
          return Fail(InvalidChar(Read()));
      }
    case Lex::kStart:
      if (c_ == '{' || c_ == '[') return Punctuator(Read());
      lex_ = Lex::kValue;
      return std::nullopt;
    case Lex::kBeforePropertyName:
      if (c_ == '$' || c_ == '_') {
        buffer_.clear();
        AppendUtf8(buffer_, static_cast<unsigned>(Read()));
        lex_ = Lex::kIdentifierName;
        return std::nullopt;
      }
      if (c_ == '\\') {
        Read();
        lex_ = Lex::kIdentifierNameStartEscape;
        return std::nullopt;
      }
      if (c_ == '}') return Punctuator(Read());
      if (c_ == '"' || c_ == '\'') {
        double_quote_ = Read() == '"';
        lex_ = Lex::kString;
        return std::nullopt;
      }
      if (IsIdStart(c_)) {
        AppendUtf8(buffer_, static_cast<unsigned>(Read()));
        lex_ = Lex::kIdentifierName;
        return std::nullopt;
      }
      return Fail(InvalidChar(Read()));
    case Lex::kAfterPropertyName:
      if (c_ == ':') return Punctuator(Read());
      return Fail(InvalidChar(Read()));
    case Lex::kBeforePropertyValue: lex_ = Lex::kValue; return std::nullopt;
    case Lex::kAfterPropertyValue:
      if (c_ == ',' || c_ == '}') return Punctuator(Read());
      return Fail(InvalidChar(Read()));
    case Lex::kBeforeArrayValue:
      if (c_ == ']') return Punctuator(Read());
      lex_ = Lex::kValue;
      return std::nullopt;
    case Lex::kAfterArrayValue:
      if (c_ == ',' || c_ == ']') return Punctuator(Read());
      return Fail(InvalidChar(Read()));
    default:  // kEnd
      return Fail(InvalidChar(Read()));
  }
}

// One step in a comment: after '/', inside /* */ (and after its '*'), or after //.
std::optional<Token> Json5Reader::LexCommentStep() {
  switch (lex_) {
    case Lex::kComment:
      if (c_ == '*') {
        Read();
        lex_ = Lex::kMultiLineComment;
        return std::nullopt;
      }
      if (c_ == '/') {
        Read();
        lex_ = Lex::kSingleLineComment;
        return std::nullopt;
      }
      return Fail(InvalidChar(Read()));
    case Lex::kMultiLineComment:
      if (c_ == '*') {
        Read();
        lex_ = Lex::kMultiLineCommentAsterisk;
        return std::nullopt;
      }
      if (c_ == kEnd) return Fail(InvalidChar(Read()));
      Read();
      return std::nullopt;
    case Lex::kMultiLineCommentAsterisk:
      if (c_ == '*') {
        Read();
        return std::nullopt;
      }
      if (c_ == '/') {
        Read();
        lex_ = Lex::kDefault;
        return std::nullopt;
      }
      if (c_ == kEnd) return Fail(InvalidChar(Read()));
      Read();
      lex_ = Lex::kMultiLineComment;
      return std::nullopt;
    default:  // kSingleLineComment
      if (c_ == '\n' || c_ == '\r' || c_ == 0x2028 || c_ == 0x2029) {
        Read();
        lex_ = Lex::kDefault;
        return std::nullopt;
      }
      if (c_ == kEnd) {
        Read();
        return Token(TokenType::kEof);
      }
      Read();
      return std::nullopt;
  }
}

// One step after a backslash in an identifier: its \uXXXX escape, for a start or a continuing character.
std::optional<Token> Json5Reader::LexIdentifierEscapeStep() {
  if (c_ != 'u') return Fail(InvalidChar(Read()));
  Read();
  long unit = UnicodeEscape();
  if (unit < 0) return Token(TokenType::kError);
  unsigned u = static_cast<unsigned>(unit);
  bool start = lex_ == Lex::kIdentifierNameStartEscape;
  int ch = static_cast<int>(u);
  bool fine = ch == '$' || ch == '_' || (start ? IsIdStart(ch) : (IsIdContinue(ch)));
  if (!fine) {
    column_ -= 5;
    return Fail(SyntaxError{"invalid identifier character at " + Where()});
  }
  AppendUnit(buffer_, u);
  lex_ = Lex::kIdentifierName;
  return std::nullopt;
}

std::optional<Token> Json5Reader::LexStep() {
  switch (lex_) {
    case Lex::kDefault:
      switch (c_) {
        case '\t':
        case '\v':
        case '\f':
        case ' ':
        case 0xA0:
        case 0xFEFF:
        case '\n':
        case '\r':
        case 0x2028:
        case 0x2029: Read(); return std::nullopt;
        case '/':
          Read();
          lex_ = Lex::kComment;
          return std::nullopt;
        case kEnd: Read(); return Token(TokenType::kEof);
        default: break;
      }
      if (IsSpaceSeparator(c_)) {
        Read();
        return std::nullopt;
      }
      return LexPlaceStep(parse_);
    case Lex::kComment:
    case Lex::kMultiLineComment:
    case Lex::kMultiLineCommentAsterisk:
    case Lex::kSingleLineComment: return LexCommentStep();
    case Lex::kIdentifierNameStartEscape:
    case Lex::kIdentifierNameEscape: return LexIdentifierEscapeStep();
    case Lex::kIdentifierName:
      if (c_ == '\\') {
        Read();
        lex_ = Lex::kIdentifierNameEscape;
        return std::nullopt;
      }
      if (c_ == '$' || c_ == '_' || IsIdContinue(c_)) {
        AppendUtf8(buffer_, static_cast<unsigned>(Read()));
        return std::nullopt;
      }
      {
        Token t(TokenType::kIdentifier);
        t.value = JsValue::String(buffer_);
        return t;
      }
    case Lex::kString:
      if (c_ == '\\') {
        Read();
        if (!Escape()) return Token(TokenType::kError);
        return std::nullopt;
      }
      if ((c_ == '"' && double_quote_) || (c_ == '\'' && !double_quote_)) {
        Read();
        Token t(TokenType::kString);
        t.value = JsValue::String(buffer_);
        return t;
      }
      if (c_ == '\n' || c_ == '\r' || c_ == kEnd) return Fail(InvalidChar(Read()));
      AppendUnit(buffer_, static_cast<unsigned>(Read()));
      return std::nullopt;
    case Lex::kValue:  // set by the places before a value
      return LexPlaceStep(Lex::kValue);
    default: return LexNumberStep();
  }
}

void Json5Reader::ParseStep() {
  switch (parse_) {
    case Lex::kStart:
      if (token_.type == TokenType::kEof) {
        Fail(InvalidEof());
        return;
      }
      Push();
      return;
    case Lex::kBeforePropertyName:
      if (token_.type == TokenType::kIdentifier || token_.type == TokenType::kString) {
        key_ = token_.value.text;
        parse_ = Lex::kAfterPropertyName;
      } else if (token_.type == TokenType::kPunctuator) {
        Pop();
      } else if (token_.type == TokenType::kEof) {
        {
          Fail(InvalidEof());
          return;
        }
      }
      return;
    case Lex::kAfterPropertyName:
      if (token_.type == TokenType::kEof) {
        Fail(InvalidEof());
        return;
      }
      parse_ = Lex::kBeforePropertyValue;
      return;
    case Lex::kBeforePropertyValue:
      if (token_.type == TokenType::kEof) {
        Fail(InvalidEof());
        return;
      }
      Push();
      return;
    case Lex::kBeforeArrayValue:
      if (token_.type == TokenType::kEof) {
        Fail(InvalidEof());
        return;
      }
      if (token_.type == TokenType::kPunctuator && token_.punctuator == ']') Pop();
      else Push();
      return;
    case Lex::kAfterPropertyValue:
    case Lex::kAfterArrayValue:
      if (token_.type == TokenType::kEof) {
        Fail(InvalidEof());
        return;
      }
      if (token_.punctuator == ',')
        parse_ = parse_ == Lex::kAfterArrayValue ? Lex::kBeforeArrayValue : Lex::kBeforePropertyName;
      else Pop();
      return;
    default: return;
  }
}

void Json5Reader::Push() {
  JsValue value;
  bool container = false;
  if (token_.type == TokenType::kPunctuator) {
    value.kind = token_.punctuator == '{' ? JsValue::Kind::kObject : JsValue::Kind::kArray;
    container = true;
  } else {
    value = token_.value;  // null, a boolean, a number or a string
  }
  JsValue* placed;
  if (!has_root_) {
    root_ = std::move(value);
    has_root_ = true;
    placed = &root_;
  } else if (stack_.back()->kind == JsValue::Kind::kArray) {
    stack_.back()->items.push_back(std::move(value));
    placed = &stack_.back()->items.back();
  } else {
    stack_.back()->Set(key_, std::move(value));
    placed = const_cast<JsValue*>(stack_.back()->Find(key_));
  }
  if (container) {
    stack_.push_back(placed);
    parse_ = placed->kind == JsValue::Kind::kArray ? Lex::kBeforeArrayValue : Lex::kBeforePropertyName;
  } else {
    AfterValue();
  }
}

void Json5Reader::Pop() {
  stack_.pop_back();
  AfterValue();
}

// JavaScript's /\s/ and the pre-scan's own spaces.
bool IsJsSpace(unsigned c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c == 0xFEFF || c == 0x2028 ||
         c == 0x2029 || IsSpaceSeparator(static_cast<int>(c));
}

std::optional<JsValue> TryRead(std::string_view text, std::string* detail) {
  Json5Reader reader(text);
  std::optional<JsValue> value = reader.Parse();
  if (!value && detail != nullptr) *detail = reader.error();
  return value;
}

// A key token's name, as JSON5 reads it (escapes resolved), or nullopt when it is not one.
std::optional<std::string> KeyName(std::string_view token) {
  if (token.find('\\') == std::string_view::npos && !token.empty() && token[0] != '"' && token[0] != '\'') {
    return std::string(token);
  }
  std::optional<JsValue> v = TryRead("{" + std::string(token) + ":0}", nullptr);
  if (!v || v->members.empty()) return std::nullopt;
  return v->Entries().front()->first;
}

struct Frame {
  bool object;
  std::string path;
  std::set<std::string> keys;
  bool expect_key;
  std::optional<std::string> key;
  size_t index = 0;
};

enum class Problem { kNone, kDuplicate, kDeep };

// The first duplicate key or too deep a nesting in `text` (its path in `path`). Linear.
Problem FirstProblem(std::string_view text, std::string& path) {
  std::vector<Frame> frames;
  auto path_of = [](const Frame& f, const std::string& last) { return f.path.empty() ? last : f.path + "." + last; };
  auto punctuation = [](char c) { return c == '{' || c == '}' || c == '[' || c == ']' || c == ':' || c == ','; };
  size_t i = 0;
  const size_t n = text.size();
  while (i < n) {
    size_t at = i;
    unsigned cp = NextCodePoint(text, at);
    if (IsJsSpace(cp)) {
      i = at;
      continue;
    }
    char c = text[i];
    if (c == '/' && i + 1 < n && text[i + 1] == '/') {
      while (i < n && text[i] != '\n' && text[i] != '\r') ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && text[i + 1] == '*') {
      size_t end = text.find("*/", i + 2);
      i = end == std::string_view::npos ? n : end + 2;
      continue;
    }
    Frame* top = frames.empty() ? nullptr : &frames.back();
    if (c == '{' || c == '[') {
      std::string p =
          top == nullptr ? "" : path_of(*top, top->object ? top->key.value_or("?") : std::to_string(top->index));
      if (frames.size() >= static_cast<size_t>(kMaxObjectDepth)) return Problem::kDeep;
      frames.push_back(Frame{c == '{', p, {}, c == '{', std::nullopt, 0});
      ++i;
      continue;
    }
    if (c == '}' || c == ']') {
      if (!frames.empty()) frames.pop_back();
      ++i;
      continue;
    }
    if (c == ',') {
      if (top != nullptr && top->object) top->expect_key = true;
      else if (top != nullptr) ++top->index;
      ++i;
      continue;
    }
    if (c == ':') {
      ++i;
      continue;
    }
    size_t start = i;
    if (c == '"' || c == '\'') {
      ++i;
      while (i < n && text[i] != c) i += text[i] == '\\' ? 2 : 1;
      i = std::min(n, i + 1);
    } else {
      while (i < n) {
        size_t next = i;
        unsigned u = NextCodePoint(text, next);
        if (IsJsSpace(u) || punctuation(text[i]) || text[i] == '"' || text[i] == '\'' || text[i] == '/') break;
        i = next;
      }
      if (i == start) ++i;  // a lone '/': JSON5 will say what is wrong
    }
    if (top != nullptr && top->object && top->expect_key) {
      std::optional<std::string> name = KeyName(text.substr(start, std::min(i, n) - start));
      top->expect_key = false;
      if (!name) continue;
      if (top->keys.count(*name) > 0) {
        path = path_of(*top, *name);
        return Problem::kDuplicate;
      }
      top->keys.insert(*name);
      top->key = *name;
    }
  }
  return Problem::kNone;
}

}  // namespace

ObjectTextRead ReadObjectText(std::string_view text, std::string_view name) {
  ObjectTextRead out;
  std::string path;
  Problem problem = FirstProblem(text, path);
  if (problem == Problem::kDeep) {
    out.key = std::string(name);
    out.expected = "at most " + std::to_string(kMaxObjectDepth) + " levels of nested objects and arrays";
    out.given = "more than " + std::to_string(kMaxObjectDepth);
    out.why = "is nested too deeply";
    return out;
  }
  if (problem == Problem::kDuplicate) {
    size_t dot = path.rfind('.');
    out.key = path;
    out.expected = "each key once";
    out.given = Isolated(JsonString(dot == std::string::npos ? path : path.substr(dot + 1))) + " a second time";
    out.why = "is a duplicate key";
    return out;
  }
  std::optional<JsValue> value = TryRead(text, &out.detail);
  if (!value) {
    out.key = std::string(name);
    out.why = "is not JSON";
    return out;
  }
  out.ok = true;
  out.value = std::move(*value);
  return out;
}

}  // namespace dlq::config
