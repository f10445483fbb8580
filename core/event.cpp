#include "event.h"

#include "text.h"

namespace dlq {
namespace {

std::string Plural(uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
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
  }
  return "?";
}

std::string RenderEvent(const Event& e) {
  // Built with append(): GCC 12 warns falsely (-Wrestrict) on "literal" + std::string.
  std::string line = "#";
  line.append(std::to_string(e.seq)).append(" step ").append(std::to_string(e.step)).append(" ");
  line.append(EventKindName(e.kind)).append(" ").append(Quote(e.id));
  switch (e.kind) {
    case EventKind::kEnqueued:
      line += " payload " + Plural(e.payload_bytes, "byte", "bytes");
      break;
    case EventKind::kAttempt:
      line.append(" ").append(std::to_string(e.attempts)).append("/").append(std::to_string(e.max_attempts));
      line.append(" ").append(OutcomeName(e.outcome));
      if (!e.error.empty()) line += " error " + Quote(e.error);
      line += std::string(" -> ") + DispositionName(e.disposition);
      break;
    case EventKind::kRequeued:
    case EventKind::kCompleted:
      line += " attempts " + std::to_string(e.attempts);
      break;
    case EventKind::kQuarantined:
      line += " attempts " + std::to_string(e.attempts) + " reason " + ReasonName(e.reason);
      break;
    case EventKind::kReplayed:
      line += " attempts " + std::to_string(e.attempts) + " -> 0";
      break;
  }
  return line;
}

std::string ExplainEvent(const Event& e) {
  const std::string id = Quote(e.id);
  const std::string of = std::to_string(e.attempts) + " of " + std::to_string(e.max_attempts);
  switch (e.kind) {
    case EventKind::kEnqueued:
      return id + " joined the ready queue at the tail";
    case EventKind::kAttempt:
      switch (e.outcome) {
        case Outcome::kSuccess:
          return "attempt " + of + " succeeded → completed";
        case Outcome::kTransient:
          if (e.disposition == Disposition::kQuarantined) {
            return "attempt " + of + " failed transiently: budget used up → quarantine";
          }
          return "attempt " + of + " failed transiently: " +
                 Plural(e.max_attempts - e.attempts, "attempt", "attempts") + " left → requeue at the tail";
        case Outcome::kPermanent: {
          const uint32_t unused = e.max_attempts - e.attempts;
          std::string s = "attempt " + of + " failed permanently: retrying cannot help → quarantine at once";
          if (unused > 0) s += " (" + Plural(unused, "attempt", "attempts") + " unused)";
          return s;
        }
      }
      break;
    case EventKind::kRequeued:
      return id + " moved to the tail of the ready queue, so the jobs behind it run first";
    case EventKind::kCompleted:
      return id + " completed after " + Plural(e.attempts, "attempt", "attempts");
    case EventKind::kQuarantined:
      return id + " quarantined (" + ReasonName(e.reason) + ") after " +
             Plural(e.attempts, "attempt", "attempts") + "; only an operator's replay brings it back";
    case EventKind::kReplayed:
      return "an operator replayed " + id + ": attempts reset from " + std::to_string(e.attempts) +
             " to 0, appended at the ready tail";
  }
  return "";
}

}  // namespace dlq
