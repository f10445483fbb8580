// Shared by the checker's parser harnesses (check_json_fuzz, check_yaml_fuzz): what every
// parse must answer, whatever the bytes (core/check/document.h's contract).
//  * A refusal is a proper Status (fuzz_check.h) whose message starts "<file>:" and, when it
//    names a line, a line the input has (or the one just past its end).
//  * An accepted tree holds at most kMaxNodes values nested at most kMaxDepth deep; every
//    value sits on a line the input has; a map has one key (and one key line) per value,
//    each key once; a list has no keys; a scalar has neither; scalar text is UTF-8; the
//    As* conversions agree with each other (an integer is a number; a bool is neither).
#pragma once

#include <algorithm>
#include <set>
#include <string>
#include <string_view>

#include "document.h"
#include "fuzz_check.h"
#include "parse_limits.h"

namespace dlq::fuzz {

inline int Lines(std::string_view input) { return 1 + static_cast<int>(std::count(input.begin(), input.end(), '\n')); }

inline void CheckParseRefusal(const Status& s, std::string_view file, std::string_view input) {
  CheckRefusal(s, "parse", input);
  const std::string& m = s.message();
  const std::string where = Show(input) + ": " + s.ToString();
  FUZZ_CHECK(m.rfind(std::string(file) + ":", 0) == 0, where);
  const std::string rest = m.substr(file.size() + 1);
  if (!rest.empty() && rest[0] >= '0' && rest[0] <= '9') {
    size_t i = 0;
    long line = 0;
    while (i < rest.size() && i < 10 && rest[i] >= '0' && rest[i] <= '9') line = line * 10 + (rest[i++] - '0');
    FUZZ_CHECK(line >= 1 && line <= Lines(input) + 1, where);
    FUZZ_CHECK(rest.substr(i, 2) == ": ", where);
  } else {
    FUZZ_CHECK(rest.substr(0, 1) == " ", where);  // "<file>: …": about the file as a whole
  }
}

struct TreeCount {
  size_t nodes = 0;
};

inline void CheckNode(const check::Node& n, int depth, int lines, TreeCount& count, std::string_view input) {
  using check::Node;
  const std::string where = Show(input) + " at line " + std::to_string(n.line);
  ++count.nodes;
  FUZZ_CHECK(n.line >= 1 && n.line <= lines, where);
  FUZZ_CHECK(n.column >= 1, where);
  FUZZ_CHECK(IsValidUtf8(n.scalar) && IsValidUtf8(n.tag), where);
  if (n.IsMap() || n.IsList()) {
    FUZZ_CHECK(depth < check::kMaxDepth, where);
    FUZZ_CHECK(n.scalar.empty(), where);
  } else {
    FUZZ_CHECK(n.items.empty() && n.keys.empty(), where);
  }
  if (n.IsMap()) {
    FUZZ_CHECK(n.keys.size() == n.items.size() && n.key_lines.size() == n.items.size(), where);
    std::set<std::string_view> seen;
    for (size_t i = 0; i < n.keys.size(); ++i) {
      FUZZ_CHECK(seen.insert(n.keys[i]).second, where + ": key " + Show(n.keys[i]) + " twice");
      FUZZ_CHECK(n.key_lines[i] >= 1 && n.key_lines[i] <= lines, where);
      FUZZ_CHECK(IsValidUtf8(n.keys[i]), where);
      FUZZ_CHECK(n.Get(n.keys[i]) == &n.items[i], where);
    }
  }
  if (n.IsList()) FUZZ_CHECK(n.keys.empty() && n.key_lines.empty(), where);
  if (const auto i = check::AsInteger(n)) {
    FUZZ_CHECK(check::AsNumber(n).has_value(), where + ": an integer that is not a number");
  }
  if (check::AsBool(n)) FUZZ_CHECK(!check::AsInteger(n) && !check::AsNumber(n), where);
  FUZZ_CHECK(check::AsText(n).has_value() == n.IsScalar(), where);
  for (const Node& item : n.items) CheckNode(item, depth + 1, lines, count, input);
}

inline void CheckTree(const check::Document& doc, std::string_view file, std::string_view input) {
  FUZZ_CHECK(doc.file == file, Show(input));
  TreeCount count;
  const int lines = Lines(input);
  CheckNode(doc.root, 0, lines, count, input);
  for (const check::Node& root : doc.more_roots) CheckNode(root, 0, lines, count, input);
  FUZZ_CHECK(count.nodes <= check::kMaxNodes, Show(input));
}

}  // namespace dlq::fuzz
