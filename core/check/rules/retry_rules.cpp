// The retry rules: RETRY-BOUNDED, RETRY-OUTLASTS-OUTAGE, BACKOFF-CAP, JITTER. Each asks the
// core for time: the join's bounded path (WorstCasePath) and the schedule (RetrySchedule),
// which apply the queue's system (its delay formula and its jitter): nothing re-derived here.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <string_view>

#include "link.h"
#include "rules/path.h"
#include "rules/rule.h"
#include "scenario.h"
#include "schedule.h"

namespace dlq::check {

namespace {

// Enough samples that the probability is stable to two decimals (the schedule's largest:
// a standard error under 0.005), fewer only when the schedule's draw cap says so.
constexpr int64_t kOutageSamples = 10'000;
constexpr int64_t kScreenSamples = 1'000;

// Where the first of the policy fields `fields` that the file sets was set, else where the
// queue is declared. A delay's fields end with leaseMs: SQS waits the visibility timeout.
const Location& SettingAt(const QueueConfig& q, std::initializer_list<std::string_view> fields) {
  for (std::string_view field : fields) {
    for (const auto& [name, at] : q.settings) {
      if (name == field && at.line > 0) return at;
    }
  }
  return q.at;
}

std::string TwoDecimals(double p) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", std::floor(p * 100.0 + 1e-9) / 100.0);
  return text;
}

// The schedule of `policy` under the outage goal. A screen of kScreenSamples first: when it
// outlasts the outage beyond doubt (its probability four standard errors above the goal) the
// rule passes on it; otherwise the full kOutageSamples give the probability a finding prints.
// Both are seeded from the policy (deterministic), so the answer never depends on the order.
Result<ScheduleTable> OutageTable(const Policy& policy, const Goals& goals) {
  ScheduleOptions options;
  options.samples = kScreenSamples;
  options.outage_ms = goals.outage_ms;
  options.work_ms = 0;  // judged on attempts that fail at once, when their next delivery comes
  Result<ScheduleTable> screen = RetrySchedule(policy, options);
  if (!screen.ok() || screen->exact) return screen;
  const double n = static_cast<double>(screen->samples);
  const double p = static_cast<double>(screen->outlasting) / n;
  const double margin = 4.0 * std::sqrt(std::max(p * (1.0 - p), 1.0 / n) / n);
  if (p - margin >= goals.outage_probability) return screen;
  options.samples = kOutageSamples;
  return RetrySchedule(policy, options);
}

// `make(policy)`, computed once per distinct policy in a run (kept in `tables`).
template <typename Make>
const Result<ScheduleTable>& Once(std::map<std::string, Result<ScheduleTable>>& tables, const Policy& policy,
                                  Make make) {
  Scenario key;
  key.policy = policy;
  auto [it, fresh] = tables.try_emplace(link::WriteV2(key), Status::Ok());
  if (fresh) it->second = make(policy);
  return it->second;
}

const Result<ScheduleTable>& OutageSchedule(const RuleContext& ctx, const Policy& policy) {
  return Once(ctx.schedules->tables, policy, [&](const Policy& p) { return OutageTable(p, ctx.goals()); });
}

// One sample of the schedule: whether any delay draws jitter, and the first delay.
const Result<ScheduleTable>& JitterSchedule(const RuleContext& ctx, const Policy& policy) {
  return Once(ctx.schedules->jitter, policy, [](const Policy& p) {
    ScheduleOptions options;
    options.samples = 1;
    options.until_draw = true;  // JITTER reads rows only when nothing is drawn
    return RetrySchedule(p, options);
  });
}

// True (after a note naming them) when the file leaves the retry policy unknown.
bool PolicyUnknown(const Rule& rule, const RuleContext& ctx, const QueueConfig& q, std::vector<Finding>* out) {
  std::vector<const Unknown*> unknowns = UnknownsAbout(q, "policy");
  if (unknowns.empty()) return false;
  std::string names;
  for (const Unknown* u : unknowns) names += (names.empty() ? "" : ", ") + u->what;
  out->push_back(MakeFinding(rule, ctx, q, unknowns.front()->at, "the retry policy is not known: " + names, true));
  return true;
}

}  // namespace

void JudgeRetryBounded(const Rule& rule, const RuleContext& ctx, const JoinedQueue& j, std::vector<Finding>* out) {
  const QueueConfig& q = *j.queue;
  if (j.is_dlq() || PolicyUnknown(rule, ctx, q, out)) return;
  std::string message;
  if (!q.bounded) {
    message = "nothing ends the retries (" + q.unbounded_because + "): a failing message is delivered forever";
  } else if (j.worst.unbounded) {
    message = "a worker that keeps crashing is never counted: its message is leased forever";
  } else if (ctx.goals().max_time_to_dlq_ms && j.worst.time_ms > *ctx.goals().max_time_to_dlq_ms) {
    message = PathText(j, TerminalText(j)) + ", past maxTimeToDlq " + DurationText(*ctx.goals().max_time_to_dlq_ms);
  } else {
    return;
  }
  Finding f = MakeFinding(rule, ctx, q, SettingAt(q, {"maxAttempts"}), message);
  int64_t outage = std::max(ctx.goals().outage_ms, ctx.goals().max_time_to_dlq_ms.value_or(0) + 1);
  f.link = ScenarioLink(q, outage, ctx.options);
  out->push_back(std::move(f));
}

void JudgeRetryOutlastsOutage(const Rule& rule, const RuleContext& ctx, const JoinedQueue& j,
                              std::vector<Finding>* out) {
  const QueueConfig& q = *j.queue;
  if (j.is_dlq() || !q.bounded || j.worst.unbounded) return;  // endless retries outlast any outage
  if (PolicyUnknown(rule, ctx, q, out)) return;
  const Goals& goals = ctx.goals();
  const Result<ScheduleTable>& table = OutageSchedule(ctx, q.policy);
  if (!table.ok()) {
    out->push_back(MakeFinding(rule, ctx, q, q.at, "the schedule is refused: " + table.status().message(), true));
    return;
  }
  double p = static_cast<double>(table->outlasting) / static_cast<double>(table->samples);
  if (p >= goals.outage_probability) return;
  std::string median = table->exact ? "" : " (median)";
  std::string message = "the retries of a message failing at once outlast a " + DurationText(goals.outage_ms) +
                        " outage with probability " + TwoDecimals(p) + ", below " +
                        TwoDecimals(goals.outage_probability) + ": attempt " + std::to_string(table->attempts) +
                        " at " + DurationText(table->total.median) + median + " → " + TerminalText(j);
  Finding f = MakeFinding(rule, ctx, q, SettingAt(q, {"maxAttempts"}), message);
  f.link = ScenarioLink(q, goals.outage_ms, ctx.options);
  out->push_back(std::move(f));
}

void JudgeBackoffCap(const Rule& rule, const RuleContext& ctx, const JoinedQueue& j, std::vector<Finding>* out) {
  const QueueConfig& q = *j.queue;
  if (j.is_dlq() || PolicyUnknown(rule, ctx, q, out)) return;
  const WorstDelay* largest = nullptr;
  for (const WorstDelay& d : j.worst.delays) {
    if (largest == nullptr || d.delay_ms > largest->delay_ms) largest = &d;
  }
  if (largest == nullptr || largest->delay_ms <= ctx.goals().max_delay_ms) return;
  out->push_back(MakeFinding(rule, ctx, q, SettingAt(q, {"backoff.capMs", "backoff.baseMs", "backoff.kind", "leaseMs"}),
                             "attempt " + std::to_string(largest->first_attempt) + " waits up to " +
                                 DurationText(largest->delay_ms) + " before its retry, past maxDelay " +
                                 DurationText(ctx.goals().max_delay_ms)));
}

void JudgeJitter(const Rule& rule, const RuleContext& ctx, const JoinedQueue& j, std::vector<Finding>* out) {
  const QueueConfig& q = *j.queue;
  if (j.is_dlq() || j.worst.attempts < 2) return;  // no retry, nothing comes back
  if (PolicyUnknown(rule, ctx, q, out)) return;
  const Result<ScheduleTable>& table = JitterSchedule(ctx, q.policy);
  if (!table.ok()) {
    out->push_back(MakeFinding(rule, ctx, q, q.at, "the schedule is refused: " + table.status().message(), true));
    return;
  }
  if (!table->exact) return;  // the system or the policy draws jitter
  const ScheduleRow& first = table->rows.front();
  out->push_back(MakeFinding(rule, ctx, q,
                             SettingAt(q, {"backoff.jitter", "backoff.kind", "backoff.baseMs", "leaseMs"}),
                             "no delay draws jitter: messages that failed together come back together (attempt 2 at " +
                                 DurationText(first.delay.max) + " for all of them)"));
}

}  // namespace dlq::check
