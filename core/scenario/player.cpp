#include "player.h"

#include <algorithm>

#include "leases.h"

namespace dlq {

std::optional<Action> NextWorldAction(const Queue& queue, const World& world) {
  const int64_t now = queue.stats().now;
  const std::vector<LeaseView> leases = queue.view().Leased();
  // 1. Work that is done: settle it, lowest lease number first.
  std::optional<std::pair<uint32_t, Verdict>> settle;
  // Under delayAt consumer-sleep a delayed job is a worker asleep holding it: that worker is busy.
  int64_t busy = queue.policy().delay_at == DelayAt::kConsumerSleep ? static_cast<int64_t>(queue.stats().delayed) : 0;
  std::optional<int64_t> next_finish;
  for (const LeaseView& l : leases) {
    const int64_t finish = Later(l.leased_at, world.work_ms);
    if (finish > now) {
      ++busy;
      next_finish = std::min(next_finish.value_or(finish), finish);
      continue;
    }
    Verdict v = Judge(BehaviourOf(world, l.id), l.attempts, finish, world, queue.view().WasPatched(l.id));
    if (v.crash) continue;  // its worker died; the lease expires on the queue's clock
    const uint32_t n = LeaseTable::ParseToken(l.token);
    if (!settle || n < settle->first) settle = std::make_pair(n, std::move(v));
  }
  if (settle) return action::Settle{settle->first, settle->second.outcome, settle->second.error};
  // 2. A free worker takes the next job.
  if (busy < world.workers && queue.view().CanLease()) return action::Lease{};
  // 3. The clock moves to whatever happens next.
  const std::optional<int64_t> timer = queue.view().NextTimerAt();
  if (timer && (!next_finish || *timer <= *next_finish)) return action::AdvanceToNext{};
  if (next_finish) return action::Advance{*next_finish - now};
  return std::nullopt;
}

}  // namespace dlq
