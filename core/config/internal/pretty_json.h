// JSON as JSON.stringify(value, null, 2) prints it: the SQS and Service Bus snippets are
// templates a reader pastes, and their text is pinned byte for byte. Numbers print as
// JavaScript prints them (JsNumberText), keys in JavaScript's order (JsValue::Entries).
// With the builders below a writer states a template as an object literal would.
#pragma once

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "internal/js_value.h"

namespace dlq::config {

// JSON.stringify(value, null, 2): two spaces a level, "[]" and "{}" when empty.
std::string PrettyJson(const JsValue& value);

// An object with `members`, in the order given (a later key replaces an earlier one in place).
JsValue JsObject(std::initializer_list<std::pair<std::string, JsValue>> members);
// An array of `items`.
JsValue JsArray(std::initializer_list<JsValue> items);
// A string array (a snippet's notes).
JsValue JsStrings(const std::vector<std::string>& items);

}  // namespace dlq::config
