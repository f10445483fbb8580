// What every system's snippet writer shares (web/src/shared/snippets.mjs's helpers, moved):
// the policy in words, how the class table departs from "every failure retried under the
// policy's budget and backoff", and the notes every system adds.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "config.h"

namespace dlq::config {

// "exponential 1000..60000 ms, full jitter"; "none (requeue at once)".
std::string BackoffText(const BackoffFacts& b);
// "maxAttempts 3; backoff …; leaseMs …; ordering …; quarantine retentionMs …, alarmDepth …".
std::string PolicyText(const PolicyFacts& n);
// "classes.<name> (<n> attempts, backoff …)".
std::string RuleText(const RuleFacts& r);

struct ClassShape {
  std::vector<std::string> never;  // classes that never retry, but crash
  bool crash_never = false;
  std::vector<const RuleFacts*> own;  // bounded classes with a budget or a backoff of their own
  std::vector<std::string> alerts;
};
ClassShape ShapeOf(const PolicyFacts& n);

// The teaching switch's note, and where the lab's retry waits when not in the broker
// (`configures`: the delayAt the snippet's configuration itself expresses).
void CommonNotes(const PolicyFacts& n, std::vector<std::string>& notes, std::string_view configures = "broker");
// `items` joined by `separator` (Array.prototype.join).
std::string Joined(const std::vector<std::string>& items, std::string_view separator = ", ");
// Each note as a "# " comment line.
std::vector<std::string> HashComments(const std::vector<std::string>& notes);
// Each note as a "// " comment line, after `indent`.
std::vector<std::string> SlashComments(const std::vector<std::string>& notes, std::string_view indent = "");
// `more` appended to `lines`.
void Append(std::vector<std::string>& lines, const std::vector<std::string>& more);
// `lines`, each ended by a newline (a snippet's text).
std::string LinesText(const std::vector<std::string>& lines);

// `ms` in whole seconds, rounded up (Math.ceil(ms / 1000)).
double SecondsUp(double ms);
// `v` within [lo, hi] (Math.min(hi, Math.max(lo, v))).
double Clamp(double v, double lo, double hi);
// The failure class `name`'s rule in force (every policy in force has one per class).
const RuleFacts& RuleOf(const PolicyFacts& n, std::string_view name);
// The error type a worker would throw for failure class `name` ("TransientError"), "undefined" for crash.
std::string ErrorType(std::string_view name);

}  // namespace dlq::config
