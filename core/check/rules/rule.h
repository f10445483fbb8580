// One interface for every rule of `dlq-lab check` (check.h, docs/check.md "Rules"):
// a stable id, a default level, the goal that makes it an error when stated, and a
// function over the joined inventory (join.h) that appends the findings for one queue.
//
// A rule's contract:
//  * It judges one queue (`JoinedQueue`), reading its DLQ and sources through the join.
//  * A failure is a Finding at ctx.FailLevel(rule) (the default level, or an error when its
//    goal is stated); a value it needs but the file does not give (an Unknown) is a note
//    naming it, never a pass and never a guess. A rule that does not apply says nothing.
//  * Time comes from the core only (backoff.h, schedule.h): the join computes the bounded
//    path once per queue; a rule never re-derives a system's delay or jitter.
//  * Messages print the computed path ("attempt 5 at 41 min → orders-dlq": path.h).
#pragma once

#include <map>
#include <span>
#include <string>
#include <vector>

#include "check.h"
#include "join.h"
#include "schedule.h"

namespace dlq::check {

// The schedules the rules read, one per distinct policy (a generated definitions file
// has thousands of queues under a few policies), keyed by the policy's v2 link text:
// RETRY-OUTLASTS-OUTAGE's under the outage goal, JITTER's single sample.
struct ScheduleCache {
  std::map<std::string, Result<ScheduleTable>> tables;
  std::map<std::string, Result<ScheduleTable>> jitter;
};

struct RuleContext {
  const Joined& joined;
  const CheckOptions& options;
  ScheduleCache* schedules;  // owned by Judge, for one run
  const Goals& goals() const { return options.config.goals; }
};

struct Rule {
  const char* id;  // "DLQ-EXISTS": stable, as skips and outputs name it
  Level level;     // its level when it fails and its goal is not stated
  // True when the configuration states the goal that makes this rule an error (nullptr: none).
  bool (*goal_stated)(const Goals& goals);
  // Appends this rule's findings about `queue` (rule, level, queue, at, message, link).
  void (*judge)(const Rule& rule, const RuleContext& ctx, const JoinedQueue& queue, std::vector<Finding>* out);
};

// The level a failure of `rule` is reported at under `goals`.
Level FailLevel(const Rule& rule, const Goals& goals);
// A finding of `rule` about `queue` at `at` (level: FailLevel, or kNote when `note`).
Finding MakeFinding(const Rule& rule, const RuleContext& ctx, const QueueConfig& queue, const Location& at,
                    std::string message, bool note = false);

// Every rule, in the table order (rules/rules.cpp). RuleIds() (check.h) reads it.
std::span<const Rule> Rules();

// The rules' judges, one file per family.
void JudgeDlqExists(const Rule&, const RuleContext&, const JoinedQueue&, std::vector<Finding>*);
void JudgeDlqDeadEnd(const Rule&, const RuleContext&, const JoinedQueue&, std::vector<Finding>*);
void JudgeDlqRetention(const Rule&, const RuleContext&, const JoinedQueue&, std::vector<Finding>*);
void JudgeDlqTypeMatch(const Rule&, const RuleContext&, const JoinedQueue&, std::vector<Finding>*);
void JudgeDlqAlarm(const Rule&, const RuleContext&, const JoinedQueue&, std::vector<Finding>*);
void JudgeRmqDlxBound(const Rule&, const RuleContext&, const JoinedQueue&, std::vector<Finding>*);
void JudgeRmqAtLeastOnce(const Rule&, const RuleContext&, const JoinedQueue&, std::vector<Finding>*);
void JudgeRetryBounded(const Rule&, const RuleContext&, const JoinedQueue&, std::vector<Finding>*);
void JudgeRetryOutlastsOutage(const Rule&, const RuleContext&, const JoinedQueue&, std::vector<Finding>*);
void JudgeBackoffCap(const Rule&, const RuleContext&, const JoinedQueue&, std::vector<Finding>*);
void JudgeJitter(const Rule&, const RuleContext&, const JoinedQueue&, std::vector<Finding>*);
void JudgePubSubDlqGrant(const Rule&, const RuleContext&, const JoinedQueue&, std::vector<Finding>*);

}  // namespace dlq::check
