// Temporal: the policy in force as an activity's retry policy (TypeScript SDK). Temporal
// has no dead-letter queue, so there is no reader for this format; only the writer
// (web/src/shared/snippets.mjs before issue 32).
#include <string>
#include <vector>

#include "config.h"
#include "internal/js_value.h"
#include "internal/snippet_text.h"

namespace dlq::config {
namespace {

// The top of maxAttempts' range (core/policy/policy.h, kMaxAttemptsField; the config layer does not link the policy's).
constexpr double kLabMaxAttempts = 1000000;

// A rule's delay after a first failed attempt, before jitter: its base (core/systems/backoff.h: 2^0 · base for
// exponential).
double FirstDelay(const BackoffFacts& b) { return b.kind == "none" ? 0 : b.base_ms; }

struct TemporalShape {
  double initial, coefficient, maximum;
  bool unlimited;
};

std::vector<std::string> TemporalNotes(const PolicyFacts& n, const TemporalShape& m) {
  std::vector<std::string> notes;
  ClassShape shape = ShapeOf(n);
  if (n.backoff.kind == "none")
    notes.push_back("backoff none: Temporal always waits between attempts; 1 ms is the nearest to retrying at once");
  if (m.unlimited)
    notes.push_back("maxAttempts " + JsNumberText(n.max_attempts) +
                    " is the lab's largest budget, its nearest to unlimited: maximumAttempts 0");
  if (n.backoff.jitter != "none")
    notes.push_back("jitter " + n.backoff.jitter + ": no jitter is documented for Temporal retries");
  for (const RuleFacts* r : shape.own) {
    notes.push_back(r->name == "crash"
                        ? RuleText(*r) + ": a timed-out attempt uses the same retry policy"
                        : RuleText(*r) + ": no per-error budget; the activity can read its attempt number and throw " +
                              "ApplicationFailure.create({ type: '" + ErrorType(r->name) +
                              "', nonRetryable: attempt >= " + JsNumberText(r->max_attempts) +
                              ", nextRetryDelay: " + JsNumberText(FirstDelay(r->backoff)) + " })");
  }
  if (shape.crash_never)
    notes.push_back("classes.crash never retries in the lab; a timed-out Temporal attempt is retried like any failure");
  if (!shape.alerts.empty()) notes.push_back("alert on " + Joined(shape.alerts) + ": no equivalent");
  if (n.ordering != "none") notes.push_back("ordering " + n.ordering + ": not applicable to activity retries");
  notes.push_back(
      "quarantine (retention, alarm, replay, redrive): no equivalent; Temporal has no dead-letter queue, "
      "the final failure goes back to the workflow");
  CommonNotes(n, notes);
  return notes;
}

}  // namespace

Snippet TemporalSnippet(const PolicyFacts& n) {
  const BackoffFacts& b = n.backoff;
  TemporalShape m{b.base_ms, 2, b.cap_ms, false};
  if (b.kind == "none") {
    m = {1, 1, 1, false};
  } else if (b.kind == "fixed") {
    m.coefficient = 1;
    m.maximum = b.base_ms;
  }
  // The lab's largest budget is its nearest to "no limit": Temporal says that with 0 (its default).
  m.unlimited = n.max_attempts >= kLabMaxAttempts;
  std::vector<std::string> lines = {"// dlq-lab policy -> Temporal activity retry policy (TypeScript SDK): " +
                                    PolicyText(n)};
  Append(lines, SlashComments(TemporalNotes(n, m)));
  std::vector<std::string> non_retryable;
  for (const std::string& name : ShapeOf(n).never)
    non_retryable.push_back(std::string("'").append(ErrorType(name)).append("'"));
  const std::string kind = b.kind;
  Append(
      lines,
      {"import { proxyActivities } from '@temporalio/workflow';", "import type * as activities from './activities';",
       "", "const { processOrder } = proxyActivities<typeof activities>({",
       "  startToCloseTimeout: " + JsNumberText(n.lease_ms) +
           ", // leaseMs: an attempt running longer times out and counts as failed",
       "  retry: {",
       "    maximumAttempts: " + JsNumberText(m.unlimited ? 0 : n.max_attempts) + ", // " +
           (m.unlimited ? "unlimited"
                        : "maxAttempts " + JsNumberText(n.max_attempts) + ", the first attempt included") +
           "; 0 means unlimited (the default), 1 no retries",
       "    initialInterval: " + JsNumberText(m.initial) + ", // " +
           (kind == "none" ? "backoff none: the shortest wait" : "backoff.baseMs"),
       "    backoffCoefficient: " + JsNumberText(m.coefficient) + ", // " +
           (kind == "exponential" ? "the lab doubles each delay" : "the same delay every time"),
       "    maximumInterval: " + JsNumberText(m.maximum) + ", // " +
           (kind == "exponential" ? "backoff.capMs" : "no growth"),
       "    nonRetryableErrorTypes: [" + Joined(non_retryable) + "]," +
           (non_retryable.empty() ? ""
                                  : " // " + Joined(ShapeOf(n).never) +
                                        ": quarantined at once in the lab (or throw ApplicationFailure.nonRetryable)"),
       "  },", "});"});
  return {"typescript", LinesText(lines)};
}

}  // namespace dlq::config
