#include "internal/snippet_text.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "internal/js_value.h"

namespace dlq::config {
namespace {

std::string N(double n) { return JsNumberText(n); }

bool SameBackoff(const BackoffFacts& a, const BackoffFacts& b) {
  return a.kind == b.kind && a.base_ms == b.base_ms && a.cap_ms == b.cap_ms && a.jitter == b.jitter &&
         a.jitter_permille == b.jitter_permille;
}

}  // namespace

std::string BackoffText(const BackoffFacts& b) {
  if (b.kind == "none") return "none (requeue at once)";
  std::string range = b.kind == "fixed" ? N(b.base_ms) + " ms" : N(b.base_ms) + ".." + N(b.cap_ms) + " ms";
  std::string jitter = b.jitter == "bullmq" ? "bullmq jitter " + N(b.jitter_permille / 1000) : b.jitter + " jitter";
  return b.kind + " " + range + (b.jitter == "none" ? "" : ", " + jitter);
}

std::string PolicyText(const PolicyFacts& n) {
  return "maxAttempts " + N(n.max_attempts) + "; backoff " + BackoffText(n.backoff) + "; leaseMs " + N(n.lease_ms) +
         "; ordering " + n.ordering + "; quarantine retentionMs " +
         (n.retention_ms == 0 ? std::string("0 (forever)") : N(n.retention_ms)) + ", alarmDepth " +
         (n.alarm_depth == 0 ? std::string("0 (off)") : N(n.alarm_depth));
}

std::string RuleText(const RuleFacts& r) {
  return "classes." + r.name + " (" + N(r.max_attempts) + " attempts, backoff " + BackoffText(r.backoff) + ")";
}

ClassShape ShapeOf(const PolicyFacts& n) {
  ClassShape shape;
  for (const RuleFacts& r : n.rules) {
    if (r.alert) shape.alerts.push_back(r.name);
    if (r.retry == "never") {
      if (r.name == "crash") shape.crash_never = true;
      else shape.never.push_back(r.name);
    } else if (r.max_attempts < n.max_attempts || (r.own_backoff && !SameBackoff(r.backoff, n.backoff))) {
      shape.own.push_back(&r);
    }
  }
  return shape;
}

void CommonNotes(const PolicyFacts& n, std::vector<std::string>& notes, std::string_view configures) {
  if (n.unsafe_quarantine_order) {
    notes.push_back(
        "unsafeQuarantineOrder: a lab teaching switch (a crash between two writes loses the job); no configuration "
        "equivalent");
  }
  if (n.delay_at == configures) return;
  if (n.delay_at == "consumer-sleep") {
    notes.push_back(
        "delayAt consumer-sleep: the worker sleeps holding the job (within its lease); no configuration equivalent, "
        "the consumer's own code sleeps");
  } else if (n.delay_at == "retry-queue") {
    notes.push_back(
        "delayAt retry-queue: the delay waits in a retry queue and a scheduler republishes it; not configured here, "
        "the consumer publishes to it and acks");
  }
}

std::string Joined(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += separator;
    out += items[i];
  }
  return out;
}

std::vector<std::string> HashComments(const std::vector<std::string>& notes) {
  std::vector<std::string> out;
  for (const std::string& line : notes) out.push_back("# " + line);
  return out;
}

std::vector<std::string> SlashComments(const std::vector<std::string>& notes, std::string_view indent) {
  std::vector<std::string> out;
  for (const std::string& line : notes) out.push_back(std::string(indent) + "// " + line);
  return out;
}

void Append(std::vector<std::string>& lines, const std::vector<std::string>& more) {
  lines.insert(lines.end(), more.begin(), more.end());
}

std::string LinesText(const std::vector<std::string>& lines) { return Joined(lines, "\n") + "\n"; }

double SecondsUp(double ms) { return std::ceil(ms / 1000); }

double Clamp(double v, double lo, double hi) { return std::min(hi, std::max(lo, v)); }

const RuleFacts& RuleOf(const PolicyFacts& n, std::string_view name) {
  static const RuleFacts kNone;
  for (const RuleFacts& r : n.rules) {
    if (r.name == name) return r;
  }
  return kNone;
}

std::string ErrorType(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kTypes = {
      {{"transient", "TransientError"},
       {"permanent", "PermanentError"},
       {"undeserializable", "UndeserializableError"},
       {"unknown-schema", "UnknownSchemaError"},
       {"precondition", "PreconditionError"}}};
  for (const auto& [cls, type] : kTypes) {
    if (cls == name) return std::string(type);
  }
  return "undefined";
}

}  // namespace dlq::config
