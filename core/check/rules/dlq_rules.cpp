// The dead-letter rules: DLQ-EXISTS, DLQ-DEAD-END, DLQ-RETENTION, DLQ-TYPE-MATCH, DLQ-ALARM.
// Each judges a source queue and the DLQ the join resolved for it (DLQ-ALARM: the DLQ).
#include <algorithm>

#include "rules/path.h"
#include "rules/rule.h"

namespace dlq::check {

namespace {

const Location& DeadLetterAt(const QueueConfig& q) { return q.dead_letter_at.line > 0 ? q.dead_letter_at : q.at; }

// A note naming the unknowns that keep `rule` from judging `q` (none: nothing to say).
void NoteUnknowns(const Rule& rule, const RuleContext& ctx, const QueueConfig& q, std::string_view field,
                  const std::string& needs, std::vector<Finding>* out) {
  std::vector<const Unknown*> unknowns = UnknownsAbout(q, field);
  if (unknowns.empty()) return;
  std::string names;
  for (const Unknown* u : unknowns) names += (names.empty() ? "" : ", ") + u->what;
  out->push_back(MakeFinding(rule, ctx, q, unknowns.front()->at, needs + " is not known: " + names, true));
}

// DLQ-EXISTS on a terminal place the reader marked unknown: always a note (never a silent
// pass), naming the unknowns about it, else every unknown of the queue.
void NoteUnknownTerminal(const Rule& rule, const RuleContext& ctx, const QueueConfig& q, std::vector<Finding>* out) {
  std::vector<const Unknown*> unknowns = UnknownsAbout(q, "terminal");
  if (unknowns.empty()) unknowns = UnknownsAbout(q, "dead_letter_to");
  if (unknowns.empty()) {
    for (const Unknown& u : q.unknowns) unknowns.push_back(&u);
  }
  std::string names;
  for (const Unknown* u : unknowns) names += (names.empty() ? "" : ", ") + u->what;
  const Location& at = unknowns.empty() ? DeadLetterAt(q) : unknowns.front()->at;
  out->push_back(MakeFinding(
      rule, ctx, q, at,
      "where a failing message ends is not known: " + (names.empty() ? std::string("the file does not say") : names),
      true));
}

bool Contains(const std::vector<std::string>& ids, const std::string& id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

}  // namespace

void JudgeDlqExists(const Rule& rule, const RuleContext& ctx, const JoinedQueue& j, std::vector<Finding>* out) {
  const QueueConfig& q = *j.queue;
  if (j.is_dlq()) return;  // a DLQ is recognised from the graph: its own terminal place is not asked for
  switch (q.terminal) {
    case Terminal::kKeptHere: return;
    case Terminal::kUnknown: NoteUnknownTerminal(rule, ctx, q, out); return;
    case Terminal::kDropped: {
      Finding f = MakeFinding(rule, ctx, q, DeadLetterAt(q),
                              "a message that fails for good is dropped: " + PathText(j, TerminalText(j)));
      f.link = ScenarioLink(q, std::max(ctx.goals().outage_ms, j.worst.time_ms + 1), ctx.options);
      out->push_back(std::move(f));
      return;
    }
    case Terminal::kDeadLetter: break;
  }
  if (!q.dead_letter_to.empty()) {
    if (j.dlq == nullptr) {
      out->push_back(MakeFinding(rule, ctx, q, DeadLetterAt(q),
                                 "its DLQ " + q.dead_letter_to +
                                     " is not among the files read: DLQ-DEAD-END, DLQ-RETENTION, DLQ-TYPE-MATCH and "
                                     "DLQ-ALARM were not judged for it",
                                 true));
    }
    return;
  }
  if (q.dead_letter_exchange || !q.dead_letter_reaches.empty()) return;  // RMQ-DLX-BOUND judges the exchange
  if (!UnknownsAbout(q, "dead_letter_to").empty()) {
    NoteUnknowns(rule, ctx, q, "dead_letter_to", "its dead-letter target", out);
    return;
  }
  Finding f = MakeFinding(rule, ctx, q, DeadLetterAt(q),
                          "no dead-letter target: " + PathText(j, "dropped (no dead-letter queue)"));
  f.link = ScenarioLink(q, std::max(ctx.goals().outage_ms, j.worst.time_ms + 1), ctx.options);
  out->push_back(std::move(f));
}

void JudgeDlqDeadEnd(const Rule& rule, const RuleContext& ctx, const JoinedQueue& j, std::vector<Finding>* out) {
  const QueueConfig& q = *j.queue;
  if (q.policy.dlq_to_source) {
    out->push_back(MakeFinding(rule, ctx, q, q.at, "a consumer of its DLQ routes every entry back into " + q.name));
    return;
  }
  if (j.dlq == nullptr || j.is_dlq()) return;  // a loop is reported once, at its source
  const QueueConfig& dlq = *j.dlq;
  const JoinedQueue* dj = ctx.joined.Find(&dlq);
  bool back =
      Contains(dlq.routes_back_to, q.id) || (dj != nullptr && dj->dlq == &q) || Contains(dlq.dead_letter_reaches, q.id);
  if (!back) return;
  out->push_back(MakeFinding(rule, ctx, q, DeadLetterAt(dlq),
                             "its DLQ " + dlq.name + " routes back into " + q.name + ": " + PathText(j, dlq.name) +
                                 " → " + q.name + " again, a poison message loops"));
}

void JudgeDlqRetention(const Rule& rule, const RuleContext& ctx, const JoinedQueue& j, std::vector<Finding>* out) {
  if (j.dlq == nullptr) return;
  const QueueConfig& q = *j.queue;
  const QueueConfig& dlq = *j.dlq;
  if (!q.retention_ms || !dlq.retention_ms) {
    NoteUnknowns(rule, ctx, q.retention_ms ? dlq : q, "retention_ms", "the retention period", out);
    return;
  }
  if (*dlq.retention_ms > *q.retention_ms) return;
  std::string message = dlq.name + " keeps a message " + DurationText(*dlq.retention_ms) + ", no longer than " +
                        q.name + " (" + DurationText(*q.retention_ms) + ")";
  if (dlq.retention_from_first_enqueue) {
    message += "; it counts from the first enqueue, so a message that spent up to " + DurationText(*q.retention_ms) +
               " in " + q.name + " may be gone when it is looked at";
  }
  const Location& at = dlq.retention_at.line > 0 ? dlq.retention_at : dlq.at;
  out->push_back(MakeFinding(rule, ctx, q, at, message));
}

void JudgeDlqTypeMatch(const Rule& rule, const RuleContext& ctx, const JoinedQueue& j, std::vector<Finding>* out) {
  if (j.dlq == nullptr) return;
  const QueueConfig& q = *j.queue;
  const QueueConfig& dlq = *j.dlq;
  if (!q.fifo || !dlq.fifo) {
    NoteUnknowns(rule, ctx, q.fifo ? dlq : q, "fifo", "whether the queue is FIFO", out);
    return;
  }
  if (*q.fifo == *dlq.fifo) return;
  auto kind = [](bool fifo) { return fifo ? "a FIFO queue" : "a standard queue"; };
  out->push_back(MakeFinding(rule, ctx, q, DeadLetterAt(q),
                             q.name + " is " + kind(*q.fifo) + " but its DLQ " + dlq.name + " is " + kind(*dlq.fifo)));
}

void JudgeDlqAlarm(const Rule& rule, const RuleContext& ctx, const JoinedQueue& j, std::vector<Finding>* out) {
  const QueueConfig& q = *j.queue;
  // Only SQS configurations declare depth alarms beside their queues (CloudWatch); the other
  // formats cannot say it, so the rule would fail every one of them unfixably.
  if (!j.is_dlq() || j.alarmed || q.system != "sqs" || q.policy.alarm_depth > 0) return;
  out->push_back(MakeFinding(rule, ctx, q, q.at,
                             "nothing alarms on the depth of DLQ " + q.name +
                                 " (a CloudWatch alarm on ApproximateNumberOfMessagesVisible with QueueName " + q.name +
                                 ")"));
}

void JudgeRmqDlxBound(const Rule& rule, const RuleContext& ctx, const JoinedQueue& j, std::vector<Finding>* out) {
  const QueueConfig& q = *j.queue;
  if (!q.dead_letter_exchange) return;
  // An exchange the file cannot resolve (a topology file that declares no Exchange or Binding):
  // a note naming it, not "does not exist".
  if (!UnknownsAbout(q, "dead_letter_to").empty()) {
    NoteUnknowns(rule, ctx, q, "dead_letter_to", "whether its dead-letter exchange reaches a queue", out);
    return;
  }
  const std::string exchange = q.dead_letter_exchange->empty() ? "the default exchange" : *q.dead_letter_exchange;
  if (!q.dead_letter_exchange_exists) {
    out->push_back(MakeFinding(rule, ctx, q, DeadLetterAt(q),
                               "dead-letter exchange " + exchange + " does not exist: " + PathText(j, "dropped")));
  } else if (q.dead_letter_reaches.empty()) {
    out->push_back(MakeFinding(rule, ctx, q, DeadLetterAt(q),
                               "dead-letter exchange " + exchange + " reaches no queue: " + PathText(j, "dropped")));
  }
}

void JudgeRmqAtLeastOnce(const Rule& rule, const RuleContext& ctx, const JoinedQueue& j, std::vector<Finding>* out) {
  const QueueConfig& q = *j.queue;
  if (q.dead_letter_strategy != "at-least-once" || q.overflow == "reject-publish") return;
  std::string overflow = q.overflow.empty() ? "drop-head (the default)" : q.overflow;
  out->push_back(MakeFinding(rule, ctx, q, DeadLetterAt(q),
                             "dead-letter-strategy at-least-once needs overflow reject-publish, not " + overflow +
                                 ": RabbitMQ falls back to at-most-once"));
}

}  // namespace dlq::check
