// BullMQ: job options as JSON or as the JavaScript object literal code has
// ({ attempts: 3, backoff: { type: 'exponential', delay: 1000 }, }), into the bullmq mode.
#include <array>
#include <cmath>
#include <string_view>

#include "internal/snippet_text.h"
#include "internal/translation.h"

namespace dlq::config {
namespace {

constexpr double kDayMs = 86400000;

// BullMQ 6's JobsOptions (src/interfaces/base-job-options.ts, job-options.ts), in its order.
constexpr std::array<std::string_view, 24> kJobKeys = {"attempts",
                                                       "backoff",
                                                       "removeOnFail",
                                                       "removeOnComplete",
                                                       "lifo",
                                                       "delay",
                                                       "priority",
                                                       "jobId",
                                                       "repeat",
                                                       "repeatJobKey",
                                                       "timestamp",
                                                       "parent",
                                                       "keepLogs",
                                                       "stackTraceLimit",
                                                       "sizeLimit",
                                                       "rateLimiterKey",
                                                       "prevMillis",
                                                       "failParentOnFailure",
                                                       "ignoreDependencyOnFailure",
                                                       "removeDependencyOnFailure",
                                                       "continueParentOnFailure",
                                                       "deduplication",
                                                       "debounce",
                                                       "telemetry"};
// The Worker's own options a reader might paste with them.
constexpr std::array<std::string_view, 5> kWorkerKeys = {"maxStalledCount", "stalledInterval", "lockDuration",
                                                         "concurrency", "limiter"};
// Job options with no bearing on retries or the failed set: read, and listed as changing nothing.
constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kBullmqNoBearing = {{
    {"jobId", "names the job; the lab names its jobs itself"},
    {"timestamp", "when the job was created; the lab's clock starts at 0"},
    {"keepLogs", "how many log lines the job keeps"},
    {"stackTraceLimit", "how many stack frames a failure keeps; the lab keeps the last error's text"},
    {"sizeLimit", "the most data a job may carry, checked when it is added"},
    {"telemetry", "tracing metadata"},
}};

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
    t.ToNumber("removeOnFailCount", value.number,
               "removeOnFail " + n + " (each failure keeps the newest " + n + " failed jobs)");
    t.ToFlag("removeOnFail", false,
             "removeOnFail " + n + " (a count, so not true: failed jobs are kept, the newest " + n + ")");
  } else if (IsAgeCountObject(value)) {
    // The bullmq mode plays an age lazily, as BullMQ does: a later failure trims the failed set.
    if (const JsValue* age = value.Find("age")) {
      t.ToNumber("quarantine.retentionMs", age->number * 1000,
                 "removeOnFail { age: " + Num(age->number) + " } (seconds; evicted when a later job fails)");
    }
    if (const JsValue* count = value.Find("count")) {
      std::string n = Num(count->number);
      t.ToNumber("removeOnFailCount", count->number,
                 "removeOnFail { count: " + n + " } (each failure keeps the newest " + n + ")");
    }
    t.ToFlag("removeOnFail", false, "removeOnFail { age, count } (not true: failed jobs are kept until then)");
  } else if (value.IsBool(true)) {
    t.ToFlag("removeOnFail", true, "removeOnFail true (a job that fails for good is removed: dropped, no entry)");
    t.ToNumber("removeOnFailCount", 0, "removeOnFail true (every failed job goes, so no count)");
  } else {
    t.Refuse(Refusal("removeOnFail", "true, false, a whole number from 1 or { \"age\": seconds, \"count\": n }",
                     Quoted(value)));
  }
}

void OtherKey(Translation& t, const std::string& key, const JsValue& value) {
  if (key == "maxStalledCount") {
    if (value.IsWhole() && value.number >= 0) {
      t.ToNumber("maxStalledCount", value.number,
                 "maxStalledCount " + Num(value.number) + " (a Worker option: stalls have their own budget)");
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
    for (const auto& [name, why] : kBullmqNoBearing) {
      if (name == key) {
        t.Ignore(key, Quoted(value) + ": " + std::string(why) + "; no bearing on retries");
        return;
      }
    }
    if (IsOneOf(kWorkerKeys, key)) {
      t.Refuse(NotModelled(key, Quoted(value), "a Worker option, not a job option"));
    } else if (IsOneOf(kJobKeys, key)) {
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
  t.ToNumber(
      "backoff.capMs", fixed ? delay.number : kDayMs,
      fixed ? from + " (a fixed delay is its own cap)" : from + " (BullMQ has no cap; the lab's delays stop at a day)");
  if (permille == 0) {
    t.ToText("backoff.jitter", "none", !shorthand && backoff->Has("jitter") ? "backoff.jitter 0" : "no backoff.jitter");
  } else {
    std::string j = Num(jitter.number);
    t.ToText("backoff.jitter", "bullmq",
             "backoff.jitter " + j + " (each delay drawn from [v(1−j), v), BullMQ's own formula)");
    t.ToNumber("backoff.jitterPermille", permille, "backoff.jitter " + j + " (in thousandths)");
  }
}

}  // namespace

bool IsBullmqKey(std::string_view key) { return IsOneOf(kJobKeys, key) || IsOneOf(kWorkerKeys, key); }

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

// ---- the snippet: the policy in force as a runnable BullMQ module (web/src/shared/snippets.mjs before issue 32) ----

namespace {

struct BullmqShape {
  ClassShape classes;
  std::vector<const RuleFacts*> own;  // classes.own but crash: the ones the handler throws its own error type for
  bool custom;                        // the backoff is the worker's backoffStrategy, not a built-in
};

// TypeScript for the lab's delay (before jitter) after attempt number attemptsMade, in ms.
std::string TsDelay(const BackoffFacts& b) {
  if (b.kind == "none") return "0";
  if (b.kind == "fixed") return Num(b.base_ms);
  return "Math.min(" + Num(b.cap_ms) + ", " + Num(b.base_ms) + " * 2 ** (attemptsMade - 1))";
}

std::vector<std::string> BullmqNotes(const PolicyFacts& n, const BullmqShape& m) {
  std::vector<std::string> notes;
  if (n.backoff.jitter == "decorrelated")
    notes.push_back("jitter decorrelated: no equivalent (it needs the previous delay); plain exponential used");
  if (!m.classes.alerts.empty())
    notes.push_back("alert on " + Joined(m.classes.alerts) + ": no per-failure alert in BullMQ");
  if (m.classes.crash_never || m.own.size() != m.classes.own.size()) {
    notes.push_back(
        "classes.crash: a job whose lock lapses is handled by the stalled-job check (maxStalledCount), not by "
        "attempts");
  }
  if (n.ordering != "none")
    notes.push_back("ordering " + n.ordering + ": no per-key hold in open-source BullMQ (groups are a Pro feature)");
  if (n.alarm_depth > 0)
    notes.push_back("quarantine.alarmDepth " + Num(n.alarm_depth) + ": no built-in alarm on the failed set");
  CommonNotes(n, notes);
  return notes;
}

// The job's options: attempts, the backoff, and what becomes of a job that fails for good.
void JobOptionLines(const PolicyFacts& n, const BullmqShape& m, std::vector<std::string>& lines) {
  const BackoffFacts& b = n.backoff;
  Append(lines, {"const jobOptions = {", "  attempts: " + Num(n.max_attempts) + ", // maxAttempts " +
                                             Num(n.max_attempts) + ": BullMQ counts the first run as an attempt too"});
  if (m.custom) {
    lines.push_back("  backoff: { type: 'custom' }, // the worker's backoffStrategy below");
  } else if (b.kind == "fixed" || b.kind == "exponential") {
    std::string jitter = b.jitter == "full"     ? ", jitter: 1"
                         : b.jitter == "equal"  ? ", jitter: 0.5"
                         : b.jitter == "bullmq" ? ", jitter: " + Num(b.jitter_permille / 1000)
                                                : "";
    lines.push_back("  backoff: { type: '" + b.kind + "', delay: " + Num(b.base_ms) + jitter + " }, // backoff " +
                    BackoffText(b));
  } else {
    lines.push_back("  // backoff none: no backoff option; a failed job goes back to the end of the waiting list");
  }
  const double keep = n.remove_on_fail_count;
  const std::string age = Num(SecondsUp(n.retention_ms));
  if (n.system == "bullmq" && n.remove_on_fail) {
    lines.push_back(
        "  removeOnFail: true, // removeOnFail: a job that fails for good is removed; nothing is kept to retry");
  } else if (keep > 0) {
    lines.push_back(
        "  removeOnFail: " + (n.retention_ms == 0 ? Num(keep) : "{ age: " + age + ", count: " + Num(keep) + " }") +
        ", // removeOnFailCount " + Num(keep) + ": each failure trims the failed set to its newest " + Num(keep) +
        (n.retention_ms == 0 ? "" : ", and by age lazily"));
  } else if (n.retention_ms == 0) {
    lines.push_back("  removeOnFail: false, // quarantine.retentionMs 0: failed jobs are kept (the default)");
  } else {
    lines.push_back("  removeOnFail: { age: " + age + " }, // quarantine.retentionMs " + Num(n.retention_ms) +
                    ", in seconds; applied lazily, when a later job fails (BullMQ trims the failed set only then), " +
                    (n.system == "bullmq" ? "as the lab's bullmq mode plays it" : "not on a timer as in the lab"));
  }
  Append(lines, {"};", ""});
}

// The worker's options: the lock, the stall budget, and the custom backoffStrategy when one is needed.
void WorkerOptionLines(const PolicyFacts& n, const BullmqShape& m, std::vector<std::string>& lines) {
  const BackoffFacts& b = n.backoff;
  Append(lines, {"const workerOptions = {", "  connection,",
                 "  lockDuration: " + Num(n.lease_ms) + ", // leaseMs: how long a worker holds the job's lock",
                 "  maxStalledCount: " + Num(n.max_stalled_count) +
                     ", // a crashed attempt (a stalled job) is not counted in attemptsMade: stalls have this budget "
                     "of their own",
                 n.system == "bullmq" ? "  // (maxStalledCount, default 1); one stall more fails the job even with "
                                        "attempts left, as the lab's bullmq mode plays it."
                                      : "  // (the default, 1); one stall more fails the job even with attempts left. "
                                        "The lab counts a crash as an attempt."});
  if (m.custom) {
    const std::string share = Num(b.jitter_permille / 1000);
    std::string jitter =
        b.jitter == "full"     ? "Math.round(Math.random() * delay)"
        : b.jitter == "equal"  ? "Math.floor(delay / 2) + Math.round(Math.random() * (delay - Math.floor(delay / 2)))"
        : b.jitter == "bullmq" ? "Math.floor(Math.random() * delay * " + share + " + delay * (1 - " + share + "))"
                               : "delay";
    Append(lines, {"  settings: {", "    backoffStrategy: (attemptsMade, type, err) => {"});
    for (const RuleFacts* r : m.own) {
      lines.push_back("      if (err instanceof " + ErrorType(r->name) +
                      ") return attemptsMade >= " + Num(r->max_attempts) + " ? -1 : " + TsDelay(r->backoff) + "; // " +
                      RuleText(*r) + "; -1: failed");
    }
    lines.push_back("      const delay = " + TsDelay(b) + "; // backoff " + BackoffText(b));
    Append(lines,
           {"      return " + (b.jitter == "decorrelated" ? std::string("delay") : jitter) + ";", "    },", "  },"});
  }
  Append(lines, {"};", ""});
}

}  // namespace

Snippet BullmqSnippet(const PolicyFacts& n) {
  const BackoffFacts& b = n.backoff;
  BullmqShape m{ShapeOf(n), {}, false};
  for (const RuleFacts* r : m.classes.own) {
    if (r->name != "crash") m.own.push_back(r);
  }
  // BullMQ's exponential is 2^(attemptsMade-1) * delay with no cap: the built-in fits while the cap is never reached.
  // Under the bullmq mode the lab does not cap it either, so the built-in is the mode's own.
  const bool cap_reached = n.system != "bullmq" && b.kind == "exponential" && n.max_attempts >= 2 &&
                           b.base_ms * std::pow(2.0, n.max_attempts - 2) > b.cap_ms;
  m.custom = cap_reached || b.jitter == "decorrelated" || !m.own.empty();
  std::vector<std::string> lines = {"// dlq-lab policy -> BullMQ (written against 6.7): " + PolicyText(n)};
  Append(lines, SlashComments(BullmqNotes(n, m)));
  Append(lines,
         {"// A runnable module: node orders.mjs worker | node orders.mjs add <id> | node orders.mjs replay <id>",
          "import { Queue, Worker, Job } from 'bullmq';",
          "import { handleOrder } from './order-handler.mjs'; // your work: throw an Error to fail the attempt"});
  if (!m.classes.never.empty()) {
    lines.push_back("// " + Joined(m.classes.never) +
                    ": quarantined at once in the lab; handleOrder throws UnrecoverableError (from bullmq) for them");
  }
  lines.push_back("");
  for (const RuleFacts* r : m.own) {
    lines.push_back("export class " + ErrorType(r->name) + " extends Error { name = '" + ErrorType(r->name) + "'; }");
  }
  if (!m.own.empty()) lines.push_back("");
  Append(lines, {"const connection = { host: 'localhost', port: 6379 }; // the connection: where your Redis is",
                 "const queue = new Queue('orders', { connection });", ""});
  JobOptionLines(n, m, lines);
  WorkerOptionLines(n, m, lines);
  Append(
      lines,
      {"const [command, id] = process.argv.slice(2);", "if (command === 'add') {",
       "  await queue.add('order', { id }, { ...jobOptions, jobId: id }); // jobId: so Job.fromId(queue, id) finds it",
       "  await queue.close();", "} else if (command === 'replay') {",
       "  // replay(id), which resets attempts; without resetAttemptsMade the job runs once more, then fails again",
       "  const failed = await Job.fromId(queue, id);",
       "  if (failed) await failed.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });",
       "  console.log(failed ? `replayed ${id}` : `no job ${id}`);", "  await queue.close();",
       "} else if (command === 'worker') {",
       "  new Worker('orders', (job) => handleOrder(job.data, job), workerOptions);", "} else {",
       "  console.error('usage: node orders.mjs worker | add <id> | replay <id>');", "  process.exitCode = 2;", "}"});
  return {"javascript", LinesText(lines)};
}

}  // namespace dlq::config
