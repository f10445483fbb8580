#include "tree_builder.h"

#include <algorithm>
#include <numeric>
#include <unordered_set>
#include <utility>

#include "parse_limits.h"
#include "text.h"

namespace dlq::check {

std::string At(std::string_view file, int line) {
  std::string out(file);
  if (line > 0) out.append(":").append(std::to_string(line));  // (append: g++ 12 warns on "x" + string)
  return out.append(": ");
}

std::string Unquoted(std::string_view s) {
  size_t cut = std::min<size_t>(s.size(), 64);
  while (cut > 0 && cut < s.size() && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // whole characters
  const std::string quoted = Quote(s.substr(0, cut));
  return quoted.substr(1, quoted.size() - 2) + (cut < s.size() ? "…" : "");
}

int LineOf(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

namespace {

// The length of the well-formed UTF-8 sequence at `s[i]`, or 0 (Unicode 15, table 3-7).
size_t Utf8Length(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return k < s.size() ? static_cast<unsigned char>(s[k]) : 0u; };
  const unsigned c = byte(i);
  const auto cont = [&](size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) { return byte(k) >= lo && byte(k) <= hi; };
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (c == 0xE0) return cont(i + 1, 0xA0) && cont(i + 2) ? 3 : 0;
  if (c == 0xED) return cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : 0;
  if (c >= 0xE1 && c <= 0xEF) return cont(i + 1) && cont(i + 2) ? 3 : 0;
  if (c == 0xF0) return cont(i + 1, 0x90) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  if (c == 0xF4) return cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  return 0;
}

const char* KindName(Node::Kind kind) {
  switch (kind) {
    case Node::Kind::kMap: return "a map";
    case Node::Kind::kList: return "a list";
    default: return "a scalar";
  }
}

}  // namespace

Status CheckFileText(std::string_view file, std::string_view text) {
  if (text.size() > kMaxFileBytes) {
    return Status::Error(Code::kTooLarge, At(file, 0) + "a file must be at most " + std::to_string(kMaxFileBytes) +
                                              " bytes (64 MiB), got " + std::to_string(text.size()) + " bytes");
  }
  for (size_t i = 0; i < text.size();) {
    const size_t n = Utf8Length(text, i);
    if (n == 0) {
      char hex[8];
      static const char kDigits[] = "0123456789ABCDEF";
      const auto b = static_cast<unsigned char>(text[i]);
      hex[0] = kDigits[b >> 4], hex[1] = kDigits[b & 15], hex[2] = '\0';
      return Status::InvalidArgument(At(file, LineOf(text, i)) + "expected UTF-8 text, got the byte 0x" + hex +
                                     " at byte offset " + std::to_string(i) + " that is not well-formed UTF-8");
    }
    i += n;
  }
  return Status::Ok();
}

Status TreeBuilder::Count(size_t nodes, int line) {
  nodes_ += nodes;
  if (nodes_ > kMaxNodes) {
    return Status::Error(Code::kTooLarge, At(file_, line) + "a file may hold at most " + std::to_string(kMaxNodes) +
                                              " values (maps, lists and scalars), got more");
  }
  return Status::Ok();
}

// Puts a finished value where it belongs: a root, a map's key or value, a list's item.
Status TreeBuilder::Place(Node node) {
  if (stack_.empty()) {
    roots_.push_back(std::move(node));
    return Status::Ok();
  }
  Node& top = stack_.back();
  if (top.IsList()) {
    top.items.push_back(std::move(node));
    return Status::Ok();
  }
  if (want_key_.back()) {
    if (!node.IsScalar() && !node.IsNull()) {
      return Status::InvalidArgument(At(file_, node.line) + "expected a map key to be a scalar (a name), got " +
                                     KindName(node.kind));
    }
    if (node.scalar.size() > kMaxScalarBytes) {
      return Status::Error(Code::kTooLarge, At(file_, node.line) + "a key must be at most " +
                                                std::to_string(kMaxScalarBytes) + " bytes, got " +
                                                std::to_string(node.scalar.size()) + " bytes");
    }
    top.keys.push_back(std::move(node.scalar));
    top.key_lines.push_back(node.line);
    want_key_.back() = false;
    return Status::Ok();
  }
  top.items.push_back(std::move(node));
  want_key_.back() = true;
  return Status::Ok();
}

Status TreeBuilder::Scalar(Node node) {
  if (node.scalar.size() > kMaxScalarBytes) {
    return Status::Error(Code::kTooLarge, At(file_, node.line) + "a value must be at most " +
                                              std::to_string(kMaxScalarBytes) + " bytes, got " +
                                              std::to_string(node.scalar.size()) + " bytes");
  }
  // The file is UTF-8 (CheckFileText), but an escape can still name a lone surrogate ("\uDC00").
  if (!IsValidUtf8(node.scalar)) {
    return Status::InvalidArgument(At(file_, node.line) +
                                   "expected a value of Unicode characters, got an escape "
                                   "that names none (a lone surrogate such as \\uDC00)");
  }
  const bool is_key = !stack_.empty() && stack_.back().IsMap() && want_key_.back();
  if (!is_key) RETURN_IF_ERROR(Count(1, node.line));
  return Place(std::move(node));
}

Status TreeBuilder::Copy(const Node& node, size_t nodes) {
  const bool is_key = !stack_.empty() && stack_.back().IsMap() && want_key_.back();
  if (!is_key) RETURN_IF_ERROR(Count(nodes, node.line));
  return Place(node);
}

Status TreeBuilder::Start(Node node) {
  if (!stack_.empty() && stack_.back().IsMap() && want_key_.back()) {
    return Status::InvalidArgument(At(file_, node.line) + "expected a map key to be a scalar (a name), got " +
                                   KindName(node.kind));
  }
  if (static_cast<int>(stack_.size()) >= kMaxDepth) {
    return Status::Error(Code::kTooLarge, At(file_, node.line) + "maps and lists may nest at most " +
                                              std::to_string(kMaxDepth) + " deep, got deeper");
  }
  RETURN_IF_ERROR(Count(1, node.line));
  want_key_.push_back(node.IsMap());
  stack_.push_back(std::move(node));
  return Status::Ok();
}

Status TreeBuilder::End(Node* copy) {
  Node node = std::move(stack_.back());
  stack_.pop_back();
  want_key_.pop_back();
  if (node.IsMap()) RETURN_IF_ERROR(CheckKeys(node));
  if (node.IsMap() && merge_keys_) MergeKeys(node);
  if (copy != nullptr) *copy = node;
  return Place(std::move(node));
}

void TreeBuilder::MergeKeys(Node& map) const {
  const auto merge = std::find(map.keys.begin(), map.keys.end(), "<<");
  if (merge == map.keys.end()) return;
  const size_t at = static_cast<size_t>(merge - map.keys.begin());
  const Node& from = map.items[at];
  // A map, or a list of maps; anything else stays an ordinary key, as Ruby's Psych keeps it.
  const bool maps = from.IsMap() || (from.IsList() && std::all_of(from.items.begin(), from.items.end(),
                                                                  [](const Node& n) { return n.IsMap(); }));
  if (!maps) return;
  std::vector<Node> sources;
  if (from.IsMap()) sources.push_back(std::move(map.items[at]));
  else sources = std::move(map.items[at].items);
  map.keys.erase(map.keys.begin() + static_cast<std::ptrdiff_t>(at));
  map.key_lines.erase(map.key_lines.begin() + static_cast<std::ptrdiff_t>(at));
  map.items.erase(map.items.begin() + static_cast<std::ptrdiff_t>(at));
  std::unordered_set<std::string> present(map.keys.begin(), map.keys.end());
  for (Node& source : sources) {
    for (size_t i = 0; i < source.keys.size(); ++i) {
      if (!present.insert(source.keys[i]).second) continue;  // the map's own keys, then earlier maps, win
      map.keys.push_back(std::move(source.keys[i]));
      map.key_lines.push_back(source.key_lines[i]);
      map.items.push_back(std::move(source.items[i]));
    }
  }
}

// A key given twice in one map: the second is refused, naming the first's line.
Status TreeBuilder::CheckKeys(const Node& map) const {
  const std::vector<std::string>& keys = map.keys;
  std::vector<size_t> order(keys.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return keys[a] < keys[b]; });
  // Among equal keys the stable sort keeps file order. The repeat reported is the earliest in the file.
  size_t repeat = keys.size();
  for (size_t k = 1; k < order.size(); ++k) {
    if (keys[order[k]] == keys[order[k - 1]]) repeat = std::min(repeat, order[k]);
  }
  if (repeat == keys.size()) return Status::Ok();
  size_t earliest = 0;  // the first occurrence of that key
  for (size_t k = 0; k < repeat; ++k) {
    if (keys[k] == keys[repeat]) {
      earliest = k;
      break;
    }
  }
  return Status::InvalidArgument(At(file_, map.key_lines[repeat]) + "expected each key once in a map, got " +
                                 QuoteShort(keys[repeat]) + " again (first on line " +
                                 std::to_string(map.key_lines[earliest]) + ")");
}

}  // namespace dlq::check
