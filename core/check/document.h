// A configuration file as a tree of located values: what every reader of the checker
// walks, whichever syntax the file was written in (JSON: RapidJSON; YAML: yaml-cpp).
//
// Contract:
//  * Every node carries the 1-based line (and column) where its value starts in the file,
//    so a finding can point at the setting it is about.
//  * Scalars keep their text as written ("300", "3e2", "true", "18446744073709551616"):
//    a reader converts it with the helpers below and refuses what does not fit, by name.
//  * A YAML tag is kept ("!GetAtt", "!Ref", "!Sub"; "" for none); CloudFormation's short
//    forms are read from it. A JSON file has no tags.
//  * Map keys keep their order; a repeated key is a parse error (YAML 1.2 and RFC 8259
//    advise against it and readers would disagree on which wins).
//  * The parsers bound what they build (depth, nodes, alias expansion, size: limits.h)
//    and refuse the rest with an error naming the file and line: a hostile file is a
//    parse error (exit 2), never a crash or a hang.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "status.h"

namespace dlq::check {

// Where a value sits: a file as the user named it (relative paths as given) and its line.
struct Location {
  std::string file;
  int line = 0;    // 1-based; 0: the file as a whole
  int column = 0;  // 1-based; 0: unknown
  bool operator==(const Location&) const = default;
};

// "<file>:<line>", or "<file>" for the file as a whole (line 0): how messages and reports name a place.
std::string LocationText(const Location& at);

class Node {
 public:
  enum class Kind : uint8_t { kNull, kBool, kNumber, kString, kMap, kList };

  Kind kind = Kind::kNull;
  std::string tag;     // YAML tag as written ("!GetAtt"), "" for none
  std::string scalar;  // kBool/kNumber/kString: the text as written (unquoted, unescaped)
  int line = 0, column = 0;
  // kMap: keys with their values, in file order (keys_[i] names items_[i]); kList: items_ only.
  std::vector<std::string> keys;
  std::vector<int> key_lines;  // the line of each key (a finding about a setting points at its key)
  std::vector<Node> items;

  bool IsMap() const { return kind == Kind::kMap; }
  bool IsList() const { return kind == Kind::kList; }
  bool IsScalar() const { return kind == Kind::kBool || kind == Kind::kNumber || kind == Kind::kString; }
  bool IsNull() const { return kind == Kind::kNull; }

  // The value of `key` in a map, or nullptr (also when this is not a map).
  const Node* Get(std::string_view key) const;
  // The line of `key` in a map (the key's own line), or this node's line.
  int KeyLine(std::string_view key) const;
};

struct Document {
  std::string file;
  Node root;                     // the file's value; YAML: the first document of the stream (null for an empty file)
  std::vector<Node> more_roots;  // YAML: the stream's further documents ("---"), in order
};

// Parsers (internal/json_parser.cpp, internal/yaml_parser.cpp). An error's message starts
// "<file>:<line>: " and says what was expected and what was found.
Result<Document> ParseJson(std::string_view file, std::string_view text);
Result<Document> ParseYaml(std::string_view file, std::string_view text);

// Scalar conversions: nullopt when the scalar is not of that form (or out of range).
std::optional<int64_t> AsInteger(const Node& n);  // "300", 300, "3e2" is not an integer
std::optional<double> AsNumber(const Node& n);
std::optional<bool> AsBool(const Node& n);         // true/false (YAML 1.2 core schema)
std::optional<std::string> AsText(const Node& n);  // any scalar's text
std::string TextOf(const Node* n);                 // a scalar's text; "" for none or a collection

// An inline skip comment: `# dlq-lab:skip=RULE reason` (YAML, Ruby) at `line`.
struct SkipComment {
  std::string rule;
  std::string reason;  // "" when none was given (a configuration error)
  int line = 0;
};
// Every skip comment in `text` (read line by line, in any syntax that starts comments with #).
std::vector<SkipComment> FindSkipComments(std::string_view text);

}  // namespace dlq::check
