// Shared by the broker readers: the core's config readers (core/config/, the playground's
// Import) give a policy as a list of fields set; this applies that list to a QueueConfig's
// policy, so a reader never re-decides a system's mapping (house rule: rules live once).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config.h"
#include "document.h"
#include "model.h"
#include "status.h"

namespace dlq::check {

// "<file>:<line>: <message>": every reader error starts with where it is.
Status ErrorAt(const Location& at, std::string_view message);

// A file's name without its folders and extensions ("config/orders.bullmq.json" -> "orders"):
// the queue's name when the file does not give one.
std::string FileStem(std::string_view path);

// A located scalar, map or list as the config readers take it (core/config/internal/js_value.h):
// a number stays a number (AsNumber), true/false a boolean, null null.
config::JsValue ToJsValue(const Node& node);
// A node's value as a message echoes it (config::Quoted: JSON, long ones cut, bidi isolated).
std::string QuotedNode(const Node& node);

// One field an import set ("maxAttempts", "backoff.kind"), applied to `policy` through the
// policy's schema (its range and choices checked there). FailedPrecondition for a field the
// schema does not have or a value of the wrong kind (a config reader's bug, not the file's).
Status ApplyField(const config::SetField& set, Policy* policy);

// Where each key a config reader may name was set, so its refusal points at the line.
using KeyLines = std::vector<std::pair<std::string, Location>>;

// Applies an accepted import to `queue` (policy.system, every field set, each recorded in
// queue->settings at the line of the key it came from, `fallback` when none is known).
// A refusal is an error naming the file and line of the refused key, with the reader's
// own message ("delivery-limit: expected a whole number from 0, got \"x\"").
Status ApplyImport(const config::ImportResult& import, const KeyLines& lines, const Location& fallback,
                   QueueConfig* queue);

}  // namespace dlq::check
