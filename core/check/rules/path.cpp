#include "rules/path.h"

#include <algorithm>
#include <vector>

#include "link.h"
#include "scenario.h"
#include "world.h"

namespace dlq::check {

namespace {

constexpr int64_t kSecond = 1000, kMinute = 60 * kSecond, kHour = 60 * kMinute, kDay = 24 * kHour;

// "N unit" plus "M subunit" when the remainder has any.
std::string TwoUnits(int64_t ms, int64_t unit, const char* unit_name, int64_t sub, const char* sub_name) {
  std::string out = std::to_string(ms / unit);
  out.append(" ").append(unit_name);
  if (int64_t rest = (ms % unit) / sub; rest != 0)
    out.append(" ").append(std::to_string(rest)).append(" ").append(sub_name);
  return out;
}

}  // namespace

std::string DurationText(int64_t ms) {
  if (ms < kSecond) return std::to_string(ms) + " ms";
  if (ms < kMinute) {
    std::string out = std::to_string(ms / kSecond);
    if (int64_t tenths = (ms % kSecond) / 100; tenths != 0) out.append(".").append(std::to_string(tenths));
    return out.append(" s");
  }
  if (ms < kHour) return TwoUnits(ms, kMinute, "min", kSecond, "s");
  if (ms < kDay) return TwoUnits(ms, kHour, "h", kMinute, "min");
  return TwoUnits(ms, kDay, "d", kHour, "h");
}

std::string TerminalText(const JoinedQueue& queue) {
  const QueueConfig& q = *queue.queue;
  switch (q.terminal) {
    case Terminal::kDeadLetter:
      return queue.dlq_name.empty() ? "no queue (the dead-letter target reaches none)" : queue.dlq_name;
    case Terminal::kKeptHere:
      return q.kept_in.empty() ? "kept by " + q.system + " (its dead or failed set)" : q.kept_in;
    case Terminal::kDropped: return "dropped (" + q.drop_cause + ")";
    case Terminal::kUnknown: break;
  }
  return "an unknown place";
}

std::string PathText(const JoinedQueue& queue, const std::string& where) {
  const QueueConfig& q = *queue.queue;
  if (!q.bounded) return "retried without an attempt limit (" + q.unbounded_because + "), then → " + where;
  if (queue.worst.unbounded) return "a crashing worker's message is leased without end; others → " + where;
  // A schedule the file does not give (a sidekiq_retry_in block, a custom backoff type): no
  // attempt or time is printed, as the JSON summary leaves them null; the place is still known.
  const std::vector<const Unknown*> unknown = UnknownsAbout(q, "policy");
  if (!unknown.empty()) return "after its retries (not known: " + unknown.front()->what + ") → " + where;
  return "attempt " + std::to_string(queue.worst.attempts) + " at " + DurationText(queue.worst.time_ms) + " → " + where;
}

std::string ScenarioLink(const QueueConfig& queue, int64_t outage_ms, const CheckOptions& options) {
  Scenario scenario;
  scenario.policy = queue.policy;
  scenario.jobs.push_back(JobSpec{"job-1", "{}", ""});
  scenario.world.outage_start = 0;
  scenario.world.outage_end = std::clamp<int64_t>(outage_ms, 1, kOutageEndField.max);
  return options.link_base + "#" + link::WriteV2(scenario);
}

}  // namespace dlq::check
