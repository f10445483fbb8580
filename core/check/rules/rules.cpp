// The rule table: the one list of rule ids (check.h RuleIds), in the order.
#include "rules/rule.h"

namespace dlq::check {

namespace {

bool OutageStated(const Goals& goals) { return goals.outage_stated; }
bool MaxTimeToDlqStated(const Goals& goals) { return goals.max_time_to_dlq_ms.has_value(); }
bool MaxDelayStated(const Goals& goals) { return goals.max_delay_stated; }

constexpr Rule kRules[] = {
    {"DLQ-EXISTS", Level::kError, nullptr, JudgeDlqExists},
    {"DLQ-DEAD-END", Level::kError, nullptr, JudgeDlqDeadEnd},
    {"DLQ-RETENTION", Level::kError, nullptr, JudgeDlqRetention},
    {"DLQ-TYPE-MATCH", Level::kError, nullptr, JudgeDlqTypeMatch},
    {"RMQ-DLX-BOUND", Level::kError, nullptr, JudgeRmqDlxBound},
    {"RMQ-AT-LEAST-ONCE", Level::kError, nullptr, JudgeRmqAtLeastOnce},
    {"RETRY-BOUNDED", Level::kError, MaxTimeToDlqStated, JudgeRetryBounded},
    {"RETRY-OUTLASTS-OUTAGE", Level::kWarning, OutageStated, JudgeRetryOutlastsOutage},
    {"BACKOFF-CAP", Level::kWarning, MaxDelayStated, JudgeBackoffCap},
    {"JITTER", Level::kWarning, nullptr, JudgeJitter},
    {"DLQ-ALARM", Level::kWarning, nullptr, JudgeDlqAlarm},
    {"PUBSUB-DLQ-GRANT", Level::kError, nullptr, JudgePubSubDlqGrant},
};

constexpr const char* kRuleIds[] = {
    kRules[0].id, kRules[1].id, kRules[2].id, kRules[3].id, kRules[4].id,  kRules[5].id,
    kRules[6].id, kRules[7].id, kRules[8].id, kRules[9].id, kRules[10].id, kRules[11].id,
};
static_assert(std::size(kRuleIds) == std::size(kRules), "RuleIds lists every rule");

}  // namespace

std::span<const Rule> Rules() { return kRules; }
std::span<const char* const> RuleIds() { return kRuleIds; }

Level FailLevel(const Rule& rule, const Goals& goals) {
  return rule.goal_stated != nullptr && rule.goal_stated(goals) ? Level::kError : rule.level;
}

Finding MakeFinding(const Rule& rule, const RuleContext& ctx, const QueueConfig& queue, const Location& at,
                    std::string message, bool note) {
  Finding f;
  f.rule = rule.id;
  f.level = note ? Level::kNote : FailLevel(rule, ctx.goals());
  f.queue = queue.name;
  f.at = at;
  f.message = std::move(message);
  return f;
}

}  // namespace dlq::check
