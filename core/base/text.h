// Small text helpers shared by the core's messages and timeline lines.
#pragma once

#include <string>
#include <string_view>

namespace dlq {

// `s` in double quotes, one line, valid UTF-8 whatever the input: `"` and `\` are
// backslash-escaped, control bytes become \n \r \t or \xHH, and bytes that are not
// well-formed UTF-8 become \xHH. Well-formed UTF-8 (emoji included) is kept as is.
std::string Quote(std::string_view s);

// True if `s` is well-formed UTF-8 (no overlongs, no encoded surrogates).
bool IsValidUtf8(std::string_view s);

// `s` quoted as above and cut to at most `max_bytes` input bytes (on a character
// boundary), with "…" appended when cut. For error messages that echo input.
std::string QuoteShort(std::string_view s, size_t max_bytes = 64);

// A number as JavaScript would print it: 3, -1, 2.5, NaN, Infinity, 1e+21.
std::string DescribeNumber(double value);

}  // namespace dlq
