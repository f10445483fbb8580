// ParseJson (document.h) on RapidJSON's SAX reader: iterative (no recursion however deep
// the input), numbers kept as the text written, every value located by line and column.
#include <string>
#include <string_view>
#include <utility>

#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include "document.h"
#include "text.h"
#include "tree_builder.h"

namespace dlq::check {
namespace {

// Turns the reader's events into TreeBuilder calls. The iterative reader calls StartObject
// and StartArray before it takes the bracket (the stream is at it), and the scalar events
// once it has read the token (the stream is just past it); a JSON token holds no line
// break, so a scalar's start is found by reading back from there.
class Handler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Handler> {
 public:
  Handler(std::string_view file, std::string_view text, size_t base, const rapidjson::MemoryStream& stream)
      : builder_(file), text_(text), base_(base), stream_(stream) {}

  bool Null() { return Put(Node::Kind::kNull, "null", Offset() - 4); }
  bool Bool(bool b) { return Put(Node::Kind::kBool, b ? "true" : "false", Offset() - (b ? 4 : 5)); }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool) {
    return Put(Node::Kind::kNumber, std::string_view(s, n), Offset() - n);
  }
  bool String(const char* s, rapidjson::SizeType n, bool) {
    return Put(Node::Kind::kString, std::string_view(s, n), StringStart());
  }
  bool Key(const char* s, rapidjson::SizeType n, bool copy) { return String(s, n, copy); }
  bool StartObject() { return Open(Node::Kind::kMap); }
  bool EndObject(rapidjson::SizeType) { return Done(builder_.End()); }
  bool StartArray() { return Open(Node::Kind::kList); }
  bool EndArray(rapidjson::SizeType) { return Done(builder_.End()); }

  TreeBuilder& builder() { return builder_; }
  Status TakeStatus() { return std::move(status_); }

 private:
  size_t Offset() const { return base_ + stream_.Tell(); }

  // Where the string token that ends at Offset() starts: its opening quote. Inside the
  // string a quote is always escaped (preceded by an odd run of backslashes).
  size_t StringStart() const {
    size_t i = Offset() - 1;  // the closing quote
    while (i > base_) {
      --i;
      if (text_[i] != '"') continue;
      size_t backslashes = 0;
      while (backslashes < i && text_[i - 1 - backslashes] == '\\') ++backslashes;
      if (backslashes % 2 == 0) return i;
    }
    return base_;
  }

  // Line and column of the byte at `offset`, counting on from the last one asked (events
  // come in file order, and a token's start is never before the previous token's end).
  void Locate(size_t offset, Node& node) {
    for (; scanned_ < offset; ++scanned_) {
      if (text_[scanned_] == '\n') ++line_, line_start_ = scanned_ + 1;
    }
    node.line = line_;
    node.column = static_cast<int>(offset - line_start_) + 1;
  }

  bool Put(Node::Kind kind, std::string_view scalar, size_t start) {
    Node node;
    node.kind = kind;
    node.scalar = std::string(scalar);
    Locate(start, node);
    return Done(builder_.Scalar(std::move(node)));
  }

  bool Open(Node::Kind kind) {
    Node node;
    node.kind = kind;
    Locate(Offset(), node);
    return Done(builder_.Start(std::move(node)));
  }

  bool Done(Status s) {
    if (s.ok()) return true;
    status_ = std::move(s);
    return false;  // RapidJSON stops with kParseErrorTermination
  }

  TreeBuilder builder_;
  std::string_view text_;
  size_t base_;  // the text's first byte after a byte order mark
  const rapidjson::MemoryStream& stream_;
  Status status_;
  size_t scanned_ = 0, line_start_ = 0;
  int line_ = 1;
};

// What RapidJSON found at the error's offset: a few characters, or the end of the file.
std::string Found(std::string_view text, size_t offset) {
  if (offset >= text.size()) return "the end of the file";
  size_t n = 0;
  while (n < 24 && offset + n < text.size() && text[offset + n] != '\n') ++n;
  return n == 0 ? "a line break" : QuoteShort(text.substr(offset, n), 24);
}

}  // namespace

Result<Document> ParseJson(std::string_view file, std::string_view text) {
  RETURN_IF_ERROR(CheckFileText(file, text));
  const size_t base = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;  // RFC 8259 §8.1: may be ignored
  rapidjson::MemoryStream stream(text.data() + base, text.size() - base);
  Handler handler(file, text, base, stream);
  rapidjson::Reader reader;
  constexpr unsigned kFlags =
      rapidjson::kParseIterativeFlag | rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseValidateEncodingFlag;
  const rapidjson::ParseResult parsed = reader.Parse<kFlags>(stream, handler);
  if (parsed.IsError()) {
    if (parsed.Code() == rapidjson::kParseErrorTermination) return handler.TakeStatus();
    const size_t offset = base + parsed.Offset();
    std::string what = rapidjson::GetParseError_En(parsed.Code());
    if (!what.empty() && what.back() == '.') what.pop_back();
    return Status::InvalidArgument(At(file, LineOf(text, offset)) + "expected JSON, got " + Found(text, offset) + " (" +
                                   what + ")");
  }
  std::vector<Node> roots = handler.builder().TakeRoots();
  Document doc;
  doc.file = std::string(file);
  if (!roots.empty()) doc.root = std::move(roots.front());  // a parsed JSON text has exactly one
  return doc;
}

}  // namespace dlq::check
