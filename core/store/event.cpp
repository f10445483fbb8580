#include "event.h"

#include "text.h"

namespace dlq {
namespace {

std::string Plural(uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string Ms(int64_t ms) { return std::to_string(ms) + " ms"; }

// Where a delay lives, when not in the broker (whose lines stay as released):
// " in the worker", " in the worker cut by its lease", " in orders.retry".
std::string WaitsIn(const Event& e) {
  switch (e.delay_at) {
    case DelayAt::kBroker: return "";
    case DelayAt::kConsumerSleep: return e.sleep_cut ? " in the worker cut by its lease" : " in the worker";
    case DelayAt::kRetryQueue: return std::string(" in ") + kRetryQueueName;
  }
  return "";
}

// " -> requeued", " -> delayed 400ms until 1700", " -> quarantined".
std::string Where(const Event& e) {
  std::string out = std::string(" -> ") + DispositionName(e.disposition);
  if (e.disposition == Disposition::kDelayed) {
    out.append(" ").append(std::to_string(e.delay_ms)).append("ms until ").append(std::to_string(e.until));
  }
  return out + WaitsIn(e);
}

// What a decided attempt does next, for the sentences.
std::string NextStep(const Event& e) {
  const uint32_t left = e.max_attempts - e.attempts;
  switch (e.disposition) {
    case Disposition::kRequeued:
      return Plural(left, "attempt", "attempts") +
             (e.in_place  ? " left → back in its place at the head, as a classic queue requeues it"
              : e.at_head ? " left → back near the head, as a quorum queue returns it"
                          : " left → requeue at the tail");
    case Disposition::kDelayed: {
      const std::string where =
          e.delay_at == DelayAt::kConsumerSleep
              ? (e.sleep_cut ? ", its worker sleeping until its lease expires" : ", its worker sleeping")
          : e.delay_at == DelayAt::kRetryQueue ? std::string(", waiting in ") + kRetryQueueName
                                               : "";
      return Plural(left, "attempt", "attempts") + " left → retry after a backoff of " + Ms(e.delay_ms) + where +
             ", at " + Ms(e.until);
    }
    case Disposition::kQuarantined:
      return e.reason == Reason::kPermanent ? "its class never retries → quarantine at once"
                                            : "budget used up → quarantine";
    case Disposition::kDiscarded:
      switch (e.drop_cause) {
        case DropCause::kRemoveOnFail:
          return std::string(e.reason == Reason::kPermanent ? "its class never retries" : "budget used up") +
                 " → failed, and removeOnFail true removes it";
        case DropCause::kNoDeadSet:
          return std::string(e.reason == Reason::kPermanent ? "its class never retries" : "retries used up") +
                 " → dead: false, so it is dropped, not put in the Dead set";
        case DropCause::kNoDeadLetterTopic:
          return std::string(e.reason == Reason::kPermanent ? "its class never retries: acked" : "budget used up") +
                 " → with no dead-letter topic it is deleted";
        case DropCause::kNoRecoverer:
          return std::string(e.reason == Reason::kPermanent ? "not retryable" : "back-off exhausted") +
                 " → no dead-letter recoverer, so the error handler logs it and skips it";
        case DropCause::kExhaustedDiscard:
          return std::string(e.reason == Reason::kPermanent ? "its class never retries" : "retries used up") +
                 " → sidekiq_retries_exhausted returns :discard, so it is dropped, not put in the Dead set";
        case DropCause::kNoDeadLetterQueueTopic:
          return std::string(e.reason == Reason::kPermanent ? "not retriable" : "errors.retry.timeout passed") +
                 " → errors.tolerance all with no DLQ topic, so the record is skipped";
        default:
          return std::string(e.reason == Reason::kPermanent ? "rejected" : "delivery limit reached") +
                 " → dead-lettered, but with no dead-letter exchange it is dropped";
      }
    case Disposition::kCompleted: return "completed";
  }
  return "";
}

}  // namespace

const char* EventKindName(EventKind kind) {
  switch (kind) {
    case EventKind::kEnqueued: return "enqueued";
    case EventKind::kAttempt: return "attempt";
    case EventKind::kRequeued: return "requeued";
    case EventKind::kCompleted: return "completed";
    case EventKind::kQuarantined: return "quarantined";
    case EventKind::kReplayed: return "replayed";
    case EventKind::kLeased: return "leased";
    case EventKind::kExpired: return "expired";
    case EventKind::kDelayed: return "delayed";
    case EventKind::kDue: return "due";
    case EventKind::kAlert: return "alert";
    case EventKind::kReorder: return "reorder";
    case EventKind::kKeyReleased: return "key-released";
    case EventKind::kEvidenceExpired: return "evidence-expired";
    case EventKind::kAlarmRaised: return "alarm-raised";
    case EventKind::kAlarmCleared: return "alarm-cleared";
    case EventKind::kLost: return "lost";
    case EventKind::kKeptOnce: return "kept-once";
    case EventKind::kDiscarded: return "discarded";
    case EventKind::kPatched: return "patched";
  }
  return "?";
}

std::string RenderEvent(const Event& e) {
  // Built with append(): GCC 12 warns falsely (-Wrestrict) on "literal" + std::string.
  std::string line = "#";
  line.append(std::to_string(e.seq)).append(" step ").append(std::to_string(e.step)).append(" ");
  if (e.time > 0) line.append("at ").append(std::to_string(e.time)).append("ms ");
  line.append(EventKindName(e.kind)).append(" ").append(Quote(e.id));
  std::string of = " ";
  of.append(std::to_string(e.attempts)).append("/").append(std::to_string(e.max_attempts));
  switch (e.kind) {
    case EventKind::kEnqueued: line += " payload " + Plural(e.payload_bytes, "byte", "bytes"); break;
    case EventKind::kAttempt:
      line.append(of).append(" ").append(OutcomeName(e.outcome));
      if (!e.error.empty()) line += " error " + Quote(e.error);
      if (!e.token.empty()) line += " lease " + e.token;
      line += Where(e);
      break;
    case EventKind::kExpired: line.append(of).append(" lease ").append(e.token).append(Where(e)); break;
    case EventKind::kLeased:
      line.append(of).append(" lease ").append(e.token).append(" until ").append(std::to_string(e.until));
      break;
    case EventKind::kRequeued:
    case EventKind::kCompleted:
    case EventKind::kDue:
      line += " attempts " + std::to_string(e.attempts);
      if (e.kind == EventKind::kDue) line += WaitsIn(e);
      break;
    case EventKind::kDelayed:
      line += " attempts " + std::to_string(e.attempts) + " until " + std::to_string(e.until) + WaitsIn(e);
      break;
    case EventKind::kQuarantined:
      line += " attempts " + std::to_string(e.attempts) + " reason " + ReasonName(e.reason);
      break;
    case EventKind::kReplayed:
      line += " attempts " + std::to_string(e.attempts) + " -> " + std::to_string(e.until);
      if (e.routed_back) line += " routed back by the dead-letter queue";
      if (!e.message_id.empty()) line += " moved as " + Quote(e.message_id);
      break;
    case EventKind::kAlert: line.append(" class ").append(ClassName(e.failure_class)); break;
    case EventKind::kReorder: {
      line.append(" key ").append(Quote(e.key)).append(" overtook ");
      for (size_t i = 0; i < e.overtook.size(); ++i) line.append(i > 0 ? "," : "").append(Quote(e.overtook[i]));
      break;
    }
    case EventKind::kKeyReleased: line.append(" key ").append(Quote(e.key)); break;
    case EventKind::kEvidenceExpired:
      line += " attempts " + std::to_string(e.attempts);
      if (e.trimmed) line += " trimmed";
      break;
    case EventKind::kAlarmRaised:
    case EventKind::kAlarmCleared: line.append(" depth ").append(std::to_string(e.depth)); break;
    case EventKind::kLost: line += " attempts " + std::to_string(e.attempts); break;
    case EventKind::kKeptOnce: line.append(" in ").append(e.place); break;
    case EventKind::kDiscarded:
      line += " attempts " + std::to_string(e.attempts) + " reason " + ReasonName(e.reason);
      break;
    case EventKind::kPatched:
      line.append(" payload ")
          .append(std::to_string(e.old_payload_bytes))
          .append(" -> ")
          .append(Plural(e.payload_bytes, "byte", "bytes"));
      break;
  }
  return line;
}

namespace {

// ExplainEvent's sentences for the kinds with many cases, one function each.
// `id` is the job's quoted id; `of` is "<attempts> of <max attempts>".
std::string ExplainAttempt(const Event& e, const std::string& of) {
  switch (e.outcome) {
    case Outcome::kSuccess: return "attempt " + of + " succeeded → completed";
    case Outcome::kTransient: return "attempt " + of + " failed transiently: " + NextStep(e);
    case Outcome::kPrecondition:
      return "attempt " + of +
             " found a precondition not met yet (its class has a short budget of its own): " + NextStep(e);
    case Outcome::kPermanent:
    case Outcome::kUndeserializable:
    case Outcome::kUnknownSchema: {
      const char* why = e.outcome == Outcome::kPermanent          ? "failed permanently"
                        : e.outcome == Outcome::kUndeserializable ? "could not read the payload (undeserializable)"
                                                                  : "met a schema it does not know (unknown-schema)";
      if (e.disposition == Disposition::kDiscarded) return "attempt " + of + " " + why + ": " + NextStep(e);
      if (e.disposition != Disposition::kQuarantined || e.reason != Reason::kPermanent) {
        return "attempt " + of + " " + why + ": its class retries: " + NextStep(e);
      }
      const uint32_t unused = e.max_attempts > e.attempts ? e.max_attempts - e.attempts : 0;
      std::string s = "attempt " + of + " " + why + ": retrying cannot help → quarantine at once";
      if (unused > 0) s += " (" + Plural(unused, "attempt", "attempts") + " unused)";
      return s;
    }
  }
  return "";
}

std::string ExplainDelayed(const Event& e, const std::string& id) {
  switch (e.delay_at) {
    case DelayAt::kBroker: break;
    case DelayAt::kConsumerSleep:
      if (e.sleep_cut) {
        return "the worker holding " + id + " sleeps, but its lease expires at " + Ms(e.until) +
               ", before the backoff ends: the broker delivers it again then, and the worker's own retry when " +
               "it wakes is a duplicate";
      }
      return id + " waits in its worker, which sleeps holding it until " + Ms(e.until) +
             " and takes no other job meanwhile; then it retries it";
    case DelayAt::kRetryQueue:
      return id + " was published to the retry queue " + kRetryQueueName + " and acked; its scheduler puts it " +
             "back at the tail of " + kSourceQueueName + " as a new message at " + Ms(e.until);
  }
  return id + " waits in delayed until " + Ms(e.until) + ", then joins the tail of the ready queue";
}

std::string ExplainDue(const Event& e, const std::string& id) {
  if (e.delay_at == DelayAt::kConsumerSleep) {
    return "the worker holding " + id + " stopped waiting: " + id + " is at the head of the ready queue, " +
           "retried next";
  }
  if (e.delay_at == DelayAt::kRetryQueue) {
    return "the scheduler moved " + id + " from " + kRetryQueueName + " to the tail of " + kSourceQueueName +
           " as a new message";
  }
  return "the backoff of " + id + " is over: it joined the tail of the ready queue";
}

std::string ExplainQuarantined(const Event& e, const std::string& id) {
  if (e.reason == Reason::kExpired && e.attempts > 0) {  // delivered and failed before its time ran out
    return id + " was dead-lettered (expired) after " + Plural(e.attempts, "attempt", "attempts") +
           ": its time to live ran out before it completed; only an operator's replay brings it back";
  }
  if (e.reason == Reason::kExpired) {
    return id + " was dead-lettered (expired): it reached the head of " + kSourceQueueName +
           " after its message TTL ran out, undelivered; only an operator's replay brings it back";
  }
  if (e.reason == Reason::kMaxLength) {
    return id + " was dead-lettered (maxlen): a publish left " + kSourceQueueName +
           " over its maxLength, so its oldest ready message went to the dead-letter queue undelivered " +
           "(drop-head); only an operator's replay brings it back";
  }
  if (e.routed_back) {
    return id + " quarantined (" + ReasonName(e.reason) + ") after " + Plural(e.attempts, "attempt", "attempts") +
           ", and the dead-letter queue's consumer routed it straight back to the source queue (an " +
           "anti-pattern): the loop starts again";
  }
  return id + " quarantined (" + ReasonName(e.reason) + ") after " + Plural(e.attempts, "attempt", "attempts") +
         "; only an operator's replay brings it back";
}

std::string ExplainDiscarded(const Event& e, const std::string& id) {
  switch (e.drop_cause) {
    case DropCause::kRemoveOnFail:
      return id + " failed (" + ReasonName(e.reason) + ") after " + Plural(e.attempts, "attempt", "attempts") +
             ", and removeOnFail true removes a failed job: no entry is kept and nothing can retry it";
    case DropCause::kNoDeadSet:
      return id + " failed for good (" + ReasonName(e.reason) + ") after " + Plural(e.attempts, "attempt", "attempts") +
             ", and dead: false keeps it out of the Dead set: it is dropped and nothing can retry it";
    case DropCause::kNoDeadLetterTopic:
      if (e.reason == Reason::kExpired) {
        return id + " expired after " + Plural(e.attempts, "attempt", "attempts") + ": its subscription has no " +
               "dead-letter topic, so it was redelivered until its message retention ran out, then deleted; no " +
               "entry is kept and nothing can replay it";
      }
      return id + " failed for good (" + ReasonName(e.reason) + ") after " + Plural(e.attempts, "attempt", "attempts") +
             ", and its subscription has no dead-letter topic: it is acked and gone, nothing can replay it";
    case DropCause::kNoRecoverer:
      return id + " failed for good (" + ReasonName(e.reason) + ") after " +
             Plural(e.attempts, "delivery", "deliveries") +
             ", and its error handler has no DeadLetterPublishingRecoverer: the record is logged and skipped, the " +
             "partition moves past it, and nothing can replay it";
    case DropCause::kExhaustedDiscard:
      return id + " failed for good (" + ReasonName(e.reason) + ") after " + Plural(e.attempts, "attempt", "attempts") +
             ", and its sidekiq_retries_exhausted block returned :discard: it is dropped, never quarantined, and "
             "nothing can retry it";
    case DropCause::kNoDeadLetteringOnExpiration:
      return id + " expired after " + Plural(e.attempts, "delivery", "deliveries") + ": its time to live ran out, " +
             "and its queue has deadLetteringOnMessageExpiration false, so Service Bus dropped it " +
             (e.attempts == 0 ? "undelivered" : "before it completed") + "; no entry is kept and nothing can replay it";
    case DropCause::kNoDeadLetterQueueTopic:
      return id + " failed for good (" + ReasonName(e.reason) + ") after " + Plural(e.attempts, "attempt", "attempts") +
             ", and its connector tolerates errors (errors.tolerance all) with no errors.deadletterqueue.topic.name: "
             "the record is skipped (logged at most), the task moves past it, and nothing can replay it";
    default:
      if (e.reason == Reason::kExpired) {
        return id + " was dead-lettered (expired): it reached the head of " + kSourceQueueName +
               " after its message TTL ran out, but its queue has no dead-letter exchange: the message is " +
               "dropped undelivered, no entry is kept and nothing can replay it";
      }
      if (e.reason == Reason::kMaxLength) {
        return id + " was dead-lettered (maxlen): a publish left " + kSourceQueueName +
               " over its maxLength (drop-head), but its queue has no dead-letter exchange: the message is " +
               "dropped undelivered, no entry is kept and nothing can replay it";
      }
      return id + " was dead-lettered (" + ReasonName(e.reason) + ") after " +
             Plural(e.attempts, "attempt", "attempts") +
             ", but its queue has no dead-letter exchange: the message is dropped, no entry is kept and nothing "
             "can replay it";
  }
  return "";
}

std::string ExplainReplayed(const Event& e, const std::string& id) {
  if (e.routed_back) {
    return "the dead-letter queue's consumer sent " + id +
           " straight back to the source queue (an anti-pattern): " + "attempts reset from " +
           std::to_string(e.attempts) + " to 0, appended at the ready tail";
  }
  if (!e.message_id.empty()) {  // sqs: StartMessageMoveTask
    return "a message move task moved " + id + " back to the source queue as a new message " + Quote(e.message_id) +
           ": receive count reset from " + std::to_string(e.attempts) + " to 0, a fresh retention period";
  }
  if (e.until == e.attempts && e.attempts > 0) {  // bullmq's retry without a reset
    return "an operator retried " + id + " without a reset: attempts kept at " + std::to_string(e.attempts) +
           ", appended at the ready tail (one more run; a failure there is final)";
  }
  return "an operator replayed " + id + ": attempts reset from " + std::to_string(e.attempts) + " to " +
         std::to_string(e.until) + ", appended at the ready tail";
}

}  // namespace

std::string ExplainEvent(const Event& e) {
  const std::string id = Quote(e.id);
  const std::string of = std::to_string(e.attempts) + " of " + std::to_string(e.max_attempts);
  switch (e.kind) {
    case EventKind::kEnqueued: return id + " joined the ready queue at the tail";
    case EventKind::kAttempt: return ExplainAttempt(e, of);
    case EventKind::kLeased:
      return "a worker leased " + id + " for attempt " + of + "; the queue counted it now, so it stays counted " +
             "even if the worker crashes (the lease expires at " + Ms(e.until) + ")";
    case EventKind::kExpired:
      return e.token + " on " + id + " expired unsettled: attempt " + of +
             " stays counted and counts as a transient failure: " + NextStep(e);
    case EventKind::kRequeued:
      if (e.in_place) {
        return id + " went back in its place at the head of the ready queue, so it runs again before the rest " +
               "(a classic queue keeps no delivery count: only the lab counts these attempts)";
      }
      if (e.at_head) return id + " went back near the head of the ready queue, so it runs again before the rest";
      return id + " moved to the tail of the ready queue, so the jobs behind it run first";
    case EventKind::kDelayed: return ExplainDelayed(e, id);
    case EventKind::kDue: return ExplainDue(e, id);
    case EventKind::kCompleted: return id + " completed after " + Plural(e.attempts, "attempt", "attempts");
    case EventKind::kQuarantined: return ExplainQuarantined(e, id);
    case EventKind::kAlert:
      return id + " arrived in quarantine as " + ClassName(e.failure_class) +
             ", a class that raises an alert: whoever owns this dead-letter queue should look now";
    case EventKind::kReorder: {
      std::string ids;
      for (size_t i = 0; i < e.overtook.size(); ++i) ids += (i > 0 ? ", " : "") + Quote(e.overtook[i]);
      return id + " completed before " + ids + ", enqueued earlier with the same key " + Quote(e.key) +
             ": the key's order was broken";
    }
    case EventKind::kKeyReleased:
      return "an operator released key " + Quote(e.key) + " from " + id +
             ": the jobs behind it may now run out of order (an explicit, recorded decision)";
    case EventKind::kEvidenceExpired:
      if (e.trimmed) {
        return id +
               " was trimmed from the quarantine by its size (deadMaxJobs, removeOnFailCount or dlqMaxLength "
               "keeps only the newest entries): its evidence is gone for good";
      }
      return id + " stayed in quarantine for the whole retention and was dropped: its evidence is gone for good";
    case EventKind::kAlarmRaised:
      return "the quarantine holds " + Plural(e.depth, "entry", "entries") + ", the alarm depth: someone must look";
    case EventKind::kAlarmCleared:
      return "the quarantine fell to " + Plural(e.depth, "entry", "entries") + ", below the alarm depth: alarm cleared";
    case EventKind::kLost:
      return "after the crash " + id + " was in no place: its source was removed before its destination was " +
             "written, so the job is lost (its id stays used)";
    case EventKind::kKeptOnce:
      return "after the crash " + id + " was in two places (a move's destination was written, its source not yet " +
             "removed): kept once, in " + e.place;
    case EventKind::kDiscarded: return ExplainDiscarded(e, id);
    case EventKind::kPatched:
      return "an operator patched the payload of " + id + " in quarantine (" +
             Plural(e.old_payload_bytes, "byte", "bytes") + " → " + Plural(e.payload_bytes, "byte", "bytes") +
             "): its entry keeps its id, attempts and reason, and a replay runs the fixed job";
    case EventKind::kReplayed: return ExplainReplayed(e, id);
  }
  return "";
}

}  // namespace dlq
