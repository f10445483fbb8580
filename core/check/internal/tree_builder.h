// Builds a Node tree (document.h) from a parser's stream of events, for both parsers
// (json_parser.cpp, yaml_parser.cpp), and enforces what they share: the nesting depth, the
// number of values, one key once per map, keys that are scalars (parse_limits.h). It builds
// with its own stack, never by recursion, so no input can exhaust the machine's stack.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "document.h"
#include "status.h"

namespace dlq::check {

// "<file>:<line>: " (or "<file>: " for line 0): how every parse error starts.
std::string At(std::string_view file, int line);

// `s` on one line, printable, cut to 64 bytes: Quote() without its quotes (for names in messages).
std::string Unquoted(std::string_view s);

// The 1-based line of byte `offset` in `text` (lines end at '\n').
int LineOf(std::string_view text, size_t offset);

// A file's size and encoding, checked before it is parsed: at most kMaxFileBytes, and
// well-formed UTF-8 (the first bad byte named by its offset and line).
Status CheckFileText(std::string_view file, std::string_view text);

class TreeBuilder {
 public:
  // `merge_keys`: YAML's merge key (`<<: *defaults`, https://yaml.org/type/merge.html), as
  // Ruby's Psych (Sidekiq, Rails) applies it: a map's `<<` entry whose value is a map or a list
  // of maps adds each of their keys the map does not have itself (earlier maps win), in place
  // of the `<<` entry; any other value leaves `<<` an ordinary key.
  explicit TreeBuilder(std::string_view file, bool merge_keys = false) : file_(file), merge_keys_(merge_keys) {}

  // A scalar, a whole value (a YAML alias's copy, `nodes` values in it), or a map or list
  // that the matching End() closes. In a map, values alternate: a key (a scalar), its value.
  Status Scalar(Node node);
  Status Copy(const Node& node, size_t nodes);
  Status Start(Node node);  // node.kind is kMap or kList, with its tag, line and column
  // Closes the innermost map or list; `copy`, when given, gets a copy of it (a YAML anchor's).
  Status End(Node* copy = nullptr);
  // Counts `nodes` more values against kMaxNodes (a YAML anchor's kept copy).
  Status Charge(size_t nodes, int line) { return Count(nodes, line); }

  // Precondition: every Start() ended. The values built so far (one per document).
  bool Open() const { return !stack_.empty(); }
  std::vector<Node> TakeRoots() { return std::move(roots_); }

 private:
  Status Place(Node node);
  Status Count(size_t nodes, int line);
  Status CheckKeys(const Node& map) const;
  void MergeKeys(Node& map) const;

  std::string file_;
  bool merge_keys_ = false;
  std::vector<Node> stack_;     // the maps and lists being built, innermost last
  std::vector<bool> want_key_;  // per open map: the next scalar is a key
  std::vector<Node> roots_;
  size_t nodes_ = 0;
};

}  // namespace dlq::check
