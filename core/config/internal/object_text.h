// Reading a pasted config object: JSON, or a JavaScript object literal as code has it
// (unquoted keys, single quotes, trailing commas, comments: JSON5, JSON's superset).
// No library reads JSON5 into C++ and builds with Emscripten 3.1.6 from the registries
// reachable here, so this is a small reader of its own: the lexer follows the json5 npm
// package's (lib/parse.js, 2.2) state for state, so its refusals name the same
// character at the same line:column.
//
// Before the value is read, one linear pass over the text (strings and comments skipped)
// refuses what JSON5 would take without a word: a key given twice (JSON5, like JSON,
// keeps the last) and nesting deeper than any broker config has.
#pragma once

#include <string>
#include <string_view>

#include "internal/js_value.h"

namespace dlq::config {

// The deepest nesting of objects and arrays read: broker configs go 3 or 4 levels deep.
inline constexpr int kMaxObjectDepth = 16;

struct ObjectTextRead {
  bool ok = false;
  JsValue value;
  // A refusal: `key` is the argument's name (or a duplicate key's path, "backoff.delay");
  // a text JSON5 cannot read has why "is not JSON" and `detail`, the reader's own words
  // ("invalid character 'x' at 1:5").
  std::string key, expected, given, why, detail;
};

// `text` read as one JSON5 value, or why not. `name`: the argument, as messages call it.
ObjectTextRead ReadObjectText(std::string_view text, std::string_view name);

}  // namespace dlq::config
