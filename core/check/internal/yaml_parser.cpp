// ParseYaml (document.h) on libfyaml's event parser (YAML 1.2). The tree is built here, from
// the events, so that this file decides what a document may hold (tree_builder.h and
// parse_limits.h): aliases are expanded by copying their anchor's value, within a budget.
#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <libfyaml.h>

#include "document.h"
#include "parse_limits.h"
#include "text.h"
#include "tree_builder.h"

namespace dlq::check {
namespace {

std::string TokenText(struct fy_token* token) {
  size_t n = 0;
  const char* s = token != nullptr ? fy_token_get_text(token, &n) : nullptr;
  return s != nullptr ? std::string(s, n) : std::string();
}

// The tag as written: "!GetAtt", "!!str", "!e!thing" (a %TAG handle), "!<tag:x>" (verbatim).
std::string TagText(struct fy_token* tag) {
  if (tag == nullptr) return "";
  size_t handle_length = 0, suffix_length = 0;
  const char* handle = fy_tag_token_handle(tag, &handle_length);
  const char* suffix = fy_tag_token_suffix(tag, &suffix_length);
  const std::string h = handle != nullptr ? std::string(handle, handle_length) : "";
  const std::string s = suffix != nullptr ? std::string(suffix, suffix_length) : "";
  return h.empty() ? "!<" + s + ">" : h + s;
}

bool AllOf(std::string_view s, const char* set) { return !s.empty() && s.find_first_not_of(set) == s.npos; }

// A plain scalar's kind under the YAML 1.2 core schema (https://yaml.org/spec/1.2.2/#1023-core-schema).
Node::Kind PlainKind(std::string_view s) {
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return Node::Kind::kNull;
  if (s == "true" || s == "True" || s == "TRUE" || s == "false" || s == "False" || s == "FALSE")
    return Node::Kind::kBool;
  if (s.substr(0, 2) == "0o" && AllOf(s.substr(2), "01234567")) return Node::Kind::kNumber;
  if (s.substr(0, 2) == "0x" && AllOf(s.substr(2), "0123456789abcdefABCDEF")) return Node::Kind::kNumber;
  std::string_view rest = s;
  if (rest[0] == '-' || rest[0] == '+') rest.remove_prefix(1);
  if (rest == ".inf" || rest == ".Inf" || rest == ".INF") return Node::Kind::kNumber;
  if (s == ".nan" || s == ".NaN" || s == ".NAN") return Node::Kind::kNumber;
  // [0-9]+ ( . [0-9]* )? | . [0-9]+, then ( [eE] [-+]? [0-9]+ )?
  const size_t e = rest.find_first_of("eE");
  const std::string_view mantissa = rest.substr(0, e);
  const size_t dot = mantissa.find('.');
  const std::string_view whole = mantissa.substr(0, dot);
  const std::string_view fraction = dot == mantissa.npos ? std::string_view() : mantissa.substr(dot + 1);
  const bool digits_ok = (whole.empty() || AllOf(whole, "0123456789")) &&
                         (fraction.empty() || AllOf(fraction, "0123456789")) && !(whole.empty() && fraction.empty());
  if (!digits_ok) return Node::Kind::kString;
  if (e == rest.npos) return Node::Kind::kNumber;
  std::string_view exponent = rest.substr(e + 1);
  if (!exponent.empty() && (exponent[0] == '-' || exponent[0] == '+')) exponent.remove_prefix(1);
  return AllOf(exponent, "0123456789") ? Node::Kind::kNumber : Node::Kind::kString;
}

Node::Kind ScalarKind(const std::string& tag, enum fy_scalar_style style, std::string_view text) {
  if (tag == "!!str") return Node::Kind::kString;
  if (tag == "!!int" || tag == "!!float") return Node::Kind::kNumber;
  if (tag == "!!bool") return Node::Kind::kBool;
  if (tag == "!!null") return Node::Kind::kNull;
  if (!tag.empty() || style != FYSS_PLAIN) return Node::Kind::kString;  // "!Ref x", "'300'"
  return PlainKind(text);
}

size_t CountNodes(const Node& n) {
  size_t total = 1;
  for (const Node& item : n.items) total += CountNodes(item);
  return total;
}

// The parser and its diagnostics, released together.
struct FyParser {
  struct fy_diag* diag = nullptr;
  struct fy_parser* parser = nullptr;
  ~FyParser() {
    if (parser != nullptr) fy_parser_destroy(parser);
    if (diag != nullptr) fy_diag_destroy(diag);
  }
};

void Silent(struct fy_diag*, void*, const char*, size_t) {}

class YamlReader {
 public:
  YamlReader(std::string_view file, std::string_view text) : file_(file), text_(text), builder_(file, true) {}

  Result<Document> Read() {
    FyParser fy;
    RETURN_IF_ERROR(Create(fy));
    for (;;) {
      struct fy_event* event = fy_parser_parse(fy.parser);
      if (event == nullptr) break;
      const Status s = OnEvent(event);
      fy_parser_event_free(fy.parser, event);
      RETURN_IF_ERROR(s);
    }
    if (fy_parser_get_stream_error(fy.parser)) return LibraryError(fy.diag);
    std::vector<Node> roots = builder_.TakeRoots();
    Document doc;
    doc.file = file_;
    if (!roots.empty()) doc.root = std::move(roots.front());
    for (size_t i = 1; i < roots.size(); ++i) doc.more_roots.push_back(std::move(roots[i]));
    return doc;
  }

 private:
  Status Create(FyParser& fy) {
    struct fy_diag_cfg diag_cfg;
    std::memset(&diag_cfg, 0, sizeof diag_cfg);
    diag_cfg.fp = nullptr;
    diag_cfg.output_fn = Silent;
    diag_cfg.level = FYET_ERROR;
    fy.diag = fy_diag_create(&diag_cfg);
    if (fy.diag == nullptr)
      return Status::Error(Code::kResourceExhausted, At(file_, 0) + "cannot start the YAML parser");
    fy_diag_set_collect_errors(fy.diag, true);
    struct fy_parse_cfg cfg;
    std::memset(&cfg, 0, sizeof cfg);
    cfg.flags = static_cast<enum fy_parse_cfg_flags>(FYPCF_QUIET | FYPCF_COLLECT_DIAG | FYPCF_DEFAULT_VERSION_1_2 |
                                                     FYPCF_JSON_NONE | FYPCF_DISABLE_MMAP_OPT);
    cfg.diag = fy.diag;
    fy.parser = fy_parser_create(&cfg);
    if (fy.parser == nullptr || fy_parser_set_string(fy.parser, text_.data(), text_.size()) != 0) {
      return Status::Error(Code::kResourceExhausted, At(file_, 0) + "cannot start the YAML parser");
    }
    return Status::Ok();
  }

  // The library's first error, with its line and what is written there: "expected YAML, got …".
  Status LibraryError(struct fy_diag* diag) const {
    void* iter = nullptr;
    for (struct fy_diag_error* e; (e = fy_diag_errors_iterate(diag, &iter)) != nullptr;) {
      if (e->type != FYET_ERROR) continue;
      const size_t at = OffsetOfLine(e->line) + static_cast<size_t>(std::max(e->column - 1, 0));
      size_t n = 0;
      while (n < 24 && at + n < text_.size() && text_[at + n] != '\n') ++n;
      const std::string found = at >= text_.size() ? "the end of the file"
                                : n == 0           ? "a line break"
                                                   : QuoteShort(text_.substr(at, n), 24);
      return Status::InvalidArgument(At(file_, e->line) + "expected YAML, got " + found + " at column " +
                                     std::to_string(e->column) + " (" + Unquoted(e->msg != nullptr ? e->msg : "") +
                                     ")");
    }
    return Status::InvalidArgument(At(file_, 0) + "expected YAML, got a text the YAML parser refused");
  }

  size_t OffsetOfLine(int line) const {
    size_t offset = 0;
    for (int l = 1; l < line && offset < text_.size(); ++l) {
      const size_t nl = text_.find('\n', offset);
      if (nl == text_.npos) return text_.size();
      offset = nl + 1;
    }
    return offset;
  }

  // Where the event starts. An empty value (`goals:` with nothing after it) has no mark of
  // its own: it is placed where the previous event was (its key).
  void Mark(struct fy_event* event, Node& node) {
    const struct fy_mark* mark = fy_event_start_mark(event);
    if (mark != nullptr && mark->line >= 0) last_line_ = mark->line + 1, last_column_ = mark->column + 1;
    node.line = last_line_;
    node.column = last_column_;
  }

  Status OnEvent(struct fy_event* event) {
    switch (event->type) {
      case FYET_SCALAR: return OnScalar(event);
      case FYET_ALIAS: return OnAlias(event);
      case FYET_MAPPING_START:
      case FYET_SEQUENCE_START: {
        Node node;
        node.kind = event->type == FYET_MAPPING_START ? Node::Kind::kMap : Node::Kind::kList;
        node.tag = TagText(fy_event_get_tag_token(event));
        Mark(event, node);
        anchors_open_.push_back(TokenText(fy_event_get_anchor_token(event)));
        return builder_.Start(std::move(node));
      }
      case FYET_MAPPING_END:
      case FYET_SEQUENCE_END: {
        std::string anchor = std::move(anchors_open_.back());
        anchors_open_.pop_back();
        if (anchor.empty()) return builder_.End();
        Node copy;
        RETURN_IF_ERROR(builder_.End(&copy));
        return Anchor(anchor, std::move(copy));
      }
      default: return Status::Ok();  // stream and document boundaries
    }
  }

  Status OnScalar(struct fy_event* event) {
    Node node;
    struct fy_token* value = event->scalar.value;
    size_t length = 0;
    const char* text = fy_token_get_text(value, &length);
    Mark(event, node);
    // libfyaml 0.7.12 gives no text for some malformed quoted scalars (fy_atom_format_text
    // when the text does not fit what it measured): refused, never read as "".
    if (text == nullptr) {
      return Status::InvalidArgument(At(file_, node.line) +
                                     "expected a YAML value, got one the YAML parser "
                                     "could not read (a malformed quoted scalar?)");
    }
    node.scalar = std::string(text, length);
    node.tag = TagText(fy_event_get_tag_token(event));
    node.kind = ScalarKind(node.tag, fy_token_scalar_style(value), node.scalar);
    const std::string anchor = TokenText(fy_event_get_anchor_token(event));
    if (!anchor.empty()) RETURN_IF_ERROR(Anchor(anchor, node));
    return builder_.Scalar(std::move(node));
  }

  // Keeps a copy of an anchored value for its aliases. The copy counts against the file's
  // values (kMaxNodes): anchors on every level of a deep nesting must not multiply memory.
  Status Anchor(const std::string& name, Node node) {
    const size_t nodes = CountNodes(node);
    RETURN_IF_ERROR(builder_.Charge(nodes, node.line));
    anchors_[name] = Anchored{std::move(node), nodes};
    return Status::Ok();
  }

  Status OnAlias(struct fy_event* event) {
    const std::string name = TokenText(event->alias.anchor);
    Node where;
    Mark(event, where);
    const auto found = anchors_.find(name);
    if (found == anchors_.end()) {
      return Status::InvalidArgument(At(file_, where.line) +
                                     "expected an alias to name an anchor defined before it, got *" + Unquoted(name));
    }
    alias_nodes_ += found->second.nodes;
    if (alias_nodes_ > kMaxAliasNodes) {
      return Status::Error(Code::kTooLarge, At(file_, where.line) + "aliases may copy at most " +
                                                std::to_string(kMaxAliasNodes) + " values in a file, got more at *" +
                                                Unquoted(name) + " (an alias bomb?)");
    }
    Node copy = found->second.node;
    copy.line = where.line;  // the value is here now: a finding about it points at the alias
    copy.column = where.column;
    return builder_.Copy(copy, found->second.nodes);
  }

  struct Anchored {
    Node node;
    size_t nodes = 0;
  };

  std::string file_;
  std::string_view text_;
  TreeBuilder builder_;
  std::map<std::string, Anchored> anchors_;
  std::vector<std::string> anchors_open_;  // the anchor of each open map or list ("" for none)
  size_t alias_nodes_ = 0;
  int last_line_ = 1, last_column_ = 1;
};

}  // namespace

Result<Document> ParseYaml(std::string_view file, std::string_view text) {
  RETURN_IF_ERROR(CheckFileText(file, text));
  return YamlReader(file, text).Read();
}

}  // namespace dlq::check
