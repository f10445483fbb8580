// How a message echoes a value the reader gave (web/src/shared/quote.mjs, the same
// rules): as JSON, a long one only by its start and its length, and a value that could
// reorder the sentence around it (right-to-left letters, bidi controls) isolated in
// U+2068 … U+2069 with its bidi controls written as \u escapes.
#pragma once

#include <string>
#include <string_view>

#include "internal/js_value.h"

namespace dlq::config {

// `text` as a message may echo it: isolated when it could reorder the sentence.
std::string Isolated(std::string_view text);
// `"abc"`, `["a",1]`, or `"aaaa…" (1048576 characters)` past 40 characters; isolated as Isolated says.
std::string Quoted(const JsValue& value);
// A value that is absent (JavaScript's undefined): quoted(undefined) is "undefined".
inline std::string QuotedOrUndefined(const JsValue* value) { return value == nullptr ? "undefined" : Quoted(*value); }

}  // namespace dlq::config
