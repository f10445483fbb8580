// BullMQ: job options as JSON or as the JavaScript object literal code has
// ({ attempts: 3, backoff: { type: 'exponential', delay: 1000 }, }), into the bullmq mode.
#include <array>
#include <cmath>
#include <string_view>

#include "internal/translation.h"

namespace dlq::config {
namespace {

constexpr double kDayMs = 86400000;

// BullMQ 6's JobsOptions (src/interfaces/base-job-options.ts, job-options.ts), in its order.
constexpr std::array<std::string_view, 24> kJobKeys = {
    "attempts", "backoff", "removeOnFail", "removeOnComplete", "lifo", "delay", "priority", "jobId", "repeat",
    "repeatJobKey", "timestamp", "parent", "keepLogs", "stackTraceLimit", "sizeLimit", "rateLimiterKey",
    "prevMillis", "failParentOnFailure", "ignoreDependencyOnFailure", "removeDependencyOnFailure",
    "continueParentOnFailure", "deduplication", "debounce", "telemetry"};
// The Worker's own options a reader might paste with them.
constexpr std::array<std::string_view, 5> kWorkerKeys = {"maxStalledCount", "stalledInterval", "lockDuration",
                                                         "concurrency", "limiter"};
// Job options with no bearing on retries or the failed set: read, and listed as changing nothing.
constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kNoBearing = {{
    {"jobId", "names the job; the lab names its jobs itself"},
    {"timestamp", "when the job was created; the lab's clock starts at 0"},
    {"keepLogs", "how many log lines the job keeps"},
    {"stackTraceLimit", "how many stack frames a failure keeps; the lab keeps the last error's text"},
    {"sizeLimit", "the most data a job may carry, checked when it is added"},
    {"telemetry", "tracing metadata"},
}};

template <size_t N>
bool In(const std::array<std::string_view, N>& set, std::string_view key) {
  for (std::string_view k : set) {
    if (k == key) return true;
  }
  return false;
}

// Math.round.
double JsRound(double x) {
  double f = std::floor(x);
  return x - f >= 0.5 ? f + 1 : f;
}

bool IsAgeCountObject(const JsValue& v) {
  if (!v.IsObject() || v.members.empty()) return false;
  for (const auto& m : v.members) {
    if (m.first != "age" && m.first != "count") return false;
  }
  const JsValue* age = v.Find("age");
  const JsValue* count = v.Find("count");
  return (age == nullptr || (age->IsWhole() && age->number >= 1)) &&
         (count == nullptr || (count->IsWhole() && count->number >= 1));
}

void RemoveOnFail(Translation& t, const JsValue& value) {
  if (value.IsBool(false)) {
    t.Ignore("removeOnFail", "false: BullMQ keeps failed jobs, as the lab keeps its quarantine");
  } else if (value.IsWhole() && value.number >= 1) {
    std::string n = Num(value.number);
    t.ToNumber("removeOnFailCount", value.number, "removeOnFail " + n + " (each failure keeps the newest " + n + " failed jobs)");
    t.ToFlag("removeOnFail", false, "removeOnFail " + n + " (a count, so not true: failed jobs are kept, the newest " + n + ")");
  } else if (IsAgeCountObject(value)) {
    // The bullmq mode plays an age lazily, as BullMQ does: a later failure trims the failed set.
    if (const JsValue* age = value.Find("age")) {
      t.ToNumber("quarantine.retentionMs", age->number * 1000,
                 "removeOnFail { age: " + Num(age->number) + " } (seconds; evicted when a later job fails)");
    }
    if (const JsValue* count = value.Find("count")) {
      std::string n = Num(count->number);
      t.ToNumber("removeOnFailCount", count->number, "removeOnFail { count: " + n + " } (each failure keeps the newest " + n + ")");
    }
    t.ToFlag("removeOnFail", false, "removeOnFail { age, count } (not true: failed jobs are kept until then)");
  } else if (value.IsBool(true)) {
    t.ToFlag("removeOnFail", true, "removeOnFail true (a job that fails for good is removed: dropped, no entry)");
    t.ToNumber("removeOnFailCount", 0, "removeOnFail true (every failed job goes, so no count)");
  } else {
    t.Refuse(Refusal("removeOnFail", "true, false, a whole number from 1 or { \"age\": seconds, \"count\": n }", Quoted(value)));
  }
}

void OtherKey(Translation& t, const std::string& key, const JsValue& value) {
  if (key == "maxStalledCount") {
    if (value.IsWhole() && value.number >= 0) {
      t.ToNumber("maxStalledCount", value.number, "maxStalledCount " + Num(value.number) + " (a Worker option: stalls have their own budget)");
    } else {
      t.Refuse(Refusal(key, "a whole number from 0", Quoted(value)));
    }
  } else if (key == "removeOnComplete") {
    if (value.IsBool(false)) t.Ignore(key, "false: the lab keeps completed jobs");
    else t.Refuse(NotModelled(key, Quoted(value), "the lab keeps every completed job", "it absent or false"));
  } else if (key == "lifo") {
    if (value.IsBool(false)) t.Ignore(key, "false: new jobs join the tail, as in the lab");
    else t.Refuse(NotModelled(key, Quoted(value), "the lab adds jobs at the tail", "it absent or false"));
  } else if (key == "delay") {
    if (value.IsNumberEq(0)) t.Ignore(key, "0: the job is ready at once, as in the lab");
    else t.Refuse(NotModelled(key, Quoted(value), "a job's first delay", "it absent or 0"));
  } else {
    for (const auto& [name, why] : kNoBearing) {
      if (name == key) {
        t.Ignore(key, Quoted(value) + ": " + std::string(why) + "; no bearing on retries");
        return;
      }
    }
    if (In(kWorkerKeys, key)) {
      t.Refuse(NotModelled(key, Quoted(value), "a Worker option, not a job option"));
    } else if (In(kJobKeys, key)) {
      t.Refuse(NotModelled(key, Quoted(value), "the import sets the retry policy"));
    } else {
      t.Refuse(Refusal(key, "one of BullMQ's job options (attempts, backoff, removeOnFail, removeOnComplete, lifo, …)",
                       Quoted(value), "is unknown"));
    }
  }
}

void Backoff(Translation& t, const JsValue* backoff) {
  if (backoff == nullptr) {
    t.NoBackoff("backoff absent (BullMQ retries at once, at the end of waiting)");
    return;
  }
  const bool shorthand = backoff->IsNumber();  // BullMQ's shorthand: a number is a fixed delay
  std::string type;
  JsValue delay = JsValue::Number(0);
  JsValue jitter = JsValue::Number(0);
  if (shorthand) {
    type = "fixed";
    delay = *backoff;
  } else if (backoff->IsObject()) {
    for (const auto* m : backoff->Entries()) {
      if (m->first != "type" && m->first != "delay" && m->first != "jitter") {
        t.Refuse(Refusal("backoff." + m->first, "type, delay or jitter", Quoted(m->second), "is unknown"));
      }
    }
    const JsValue* type_value = backoff->Find("type");
    if (const JsValue* d = backoff->Find("delay")) delay = *d;
    if (const JsValue* j = backoff->Find("jitter")) jitter = *j;
    if (type_value == nullptr || !(type_value->IsStringEq("fixed") || type_value->IsStringEq("exponential"))) {
      t.Refuse(type_value != nullptr && type_value->IsString()
                   ? Refusal("backoff.type", "\"fixed\" or \"exponential\"", Quoted(*type_value),
                             "names a custom backoffStrategy, which is not modelled by the lab")
                   : Refusal("backoff.type", "\"fixed\" or \"exponential\"", QuotedOrUndefined(type_value)));
      return;
    }
    type = type_value->text;
  } else {
    t.Refuse(Refusal("backoff", "a number of ms or { type, delay }", Quoted(*backoff)));
    return;
  }
  if (!delay.IsWhole() || delay.number < 0) {
    t.Refuse(Refusal(shorthand ? "backoff" : "backoff.delay", "a whole number of ms from 0", Quoted(delay)));
    return;
  }
  // BullMQ's jitter j: the lab's jitter 'bullmq' ([v(1−j), v), BullMQ's own formula) in thousandths.
  double permille = jitter.IsNumber() ? JsRound(jitter.number * 1000) : NAN;
  if (!(permille >= 0 && permille <= 1000 && std::fabs(permille - jitter.number * 1000) < 1e-6)) {
    t.Refuse(Refusal("backoff.jitter", "a number from 0 to 1 in thousandths (0.5, 0.125)", Quoted(jitter)));
    return;
  }
  std::string from = shorthand ? "backoff " + Num(backoff->number) : "backoff " + type + ", delay " + Num(delay.number);
  if (delay.number == 0) {
    t.NoBackoff(from + " (a delay of 0 retries at once, at the end of waiting)");
    return;
  }
  t.ToText("backoff.kind", type, from);
  t.ToNumber("backoff.baseMs", delay.number, from);
  // BullMQ's exponential has no cap (the bullmq mode ignores the lab's); a fixed delay is its own cap.
  const bool fixed = type == "fixed";
  t.ToNumber("backoff.capMs", fixed ? delay.number : kDayMs,
             fixed ? from + " (a fixed delay is its own cap)" : from + " (BullMQ has no cap; the lab's delays stop at a day)");
  if (permille == 0) {
    t.ToText("backoff.jitter", "none", !shorthand && backoff->Has("jitter") ? "backoff.jitter 0" : "no backoff.jitter");
  } else {
    std::string j = Num(jitter.number);
    t.ToText("backoff.jitter", "bullmq", "backoff.jitter " + j + " (each delay drawn from [v(1−j), v), BullMQ's own formula)");
    t.ToNumber("backoff.jitterPermille", permille, "backoff.jitter " + j + " (in thousandths)");
  }
}

}  // namespace

bool IsBullmqKey(std::string_view key) { return In(kJobKeys, key) || In(kWorkerKeys, key); }

ImportResult ReadBullmq(const JsValue& options) {
  Translation t("bullmq", "bullmq");
  for (const auto* m : options.Entries()) {
    if (m->first == "attempts" || m->first == "backoff") continue;
    if (m->first == "removeOnFail") RemoveOnFail(t, m->second);
    else OtherKey(t, m->first, m->second);
  }
  const JsValue* attempts = options.Find("attempts");
  if (attempts == nullptr) {
    t.ToNumber("maxAttempts", 1, "attempts absent (BullMQ's default 1: no retries)");
  } else if (attempts->IsWhole() && attempts->number >= 1) {
    t.ToNumber("maxAttempts", attempts->number, "attempts " + Num(attempts->number) + " (every run counts)");
  } else {
    t.Refuse(Refusal("attempts", "a whole number from 1", Quoted(*attempts)));
  }
  Backoff(t, options.Find("backoff"));
  if (!t.HasRefusals() && !t.Sets("quarantine.retentionMs")) {
    t.ToNumber("quarantine.retentionMs", 0, "removeOnFail absent or false (BullMQ keeps failed jobs)");
  }
  return std::move(t).Result();
}

}  // namespace dlq::config
