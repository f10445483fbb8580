// QueueCore: the clock (timers in time order, Advance, AdvanceToNext) and what
// fires on it.
#include <algorithm>

#include "queue_core.h"
#include "text.h"

namespace dlq {

const Timer* QueueCore::NextTimer(TimerKind* kind) const {
  const std::pair<const Timer*, TimerKind> firsts[] = {{delayed_.Next(), TimerKind::kDue},
                                                       {leases_.NextExpiry(), TimerKind::kLeaseExpiry},
                                                       {quarantine_.NextRetention(), TimerKind::kRetention}};
  const Timer* best = nullptr;
  for (const auto& [first, set_kind] : firsts) {
    if (first == nullptr) continue;
    if (best == nullptr || *first < *best) {
      best = first;
      *kind = set_kind;
    }
  }
  return best;
}

void QueueCore::FireEarliest(TimerKind kind) {
  if (kind == TimerKind::kDue) {  // a due time
    const Timer timer = delayed_.TakeNext();
    now_ = timer.time;
    if (policy_.RetryRepublishes()) records_.Republish(timer.ref, now_);  // a retry queue republishes it: a new TTL
    ReturnToReady(timer.ref, false);
    Record(EventKind::kDue, timer.ref).ref = policy_.delay_at == DelayAt::kBroker       ? 0
                                             : policy_.delay_at == DelayAt::kRetryQueue ? 2
                                                                                        : 1;
    EmitMove(timer.ref, {durable::WriteOp::kRemoveDelayed, static_cast<int64_t>(timer.seq)});
    return;
  }
  if (kind == TimerKind::kRetention) {  // a quarantine entry's retention ends: its evidence is gone
    const Timer timer = quarantine_.TakeNextRetention();
    now_ = timer.time;
    DropEntry(timer.ref);
    return;
  }
  // TimerKind::kLeaseExpiry: the lease ends unsettled.
  const Timer timer = *leases_.NextExpiry();
  now_ = timer.time;
  const uint32_t lease = timer.ref;
  const uint32_t job = leases_[lease].job;
  leases_.End(lease, LeaseState::kExpired);
  jobs_[job].lease = 0;
  const uint32_t error = InternError(LeaseTable::Token(lease) + " expired after " + std::to_string(policy_.lease_ms) +
                                     " ms without a settle");
  ForgetCountOnCrash(job);
  Apply(job, EventKind::kExpired, Outcome::kTransient, FailureClass::kCrash, error, lease);
  EmitMove(job, {durable::WriteOp::kEndLease, 0, lease, LeaseState::kExpired});
  RouteDeadLetterToSource(job);
  ExpireReturned(job);  // its lock expired past its TTL: expired at once (service-bus)
  ExpireHeads();        // returned near the head with its TTL's start kept
}

void QueueCore::ForgetCountOnCrash(uint32_t index) {
  if (!policy_.count_in_body || jobs_[index].attempts == 0) return;
  jobs_[index].attempts -= 1;  // the crashed worker never wrote attempts + 1 into the message
}

void QueueCore::RouteDeadLetterToSource(uint32_t index) {
  if (!policy_.dlq_to_source || jobs_[index].place != Place::kQuarantined) return;
  ReplayChecked(index, /*routed=*/true);  // its attempts reset: the poison job loops again
}

void QueueCore::AdvanceTo(int64_t target) {
  TimerKind kind = TimerKind::kDue;
  for (;;) {
    const Timer* next = NextTimer(&kind);
    // A head's TTL runs out before the other timers due at the same instant.
    const std::optional<int64_t> expiry = HeadExpiry();
    if (expiry && *expiry <= target && (next == nullptr || *expiry <= next->time)) {
      now_ = std::max(now_, *expiry);
      ExpireHeads();
      continue;
    }
    if (next == nullptr || next->time > target) break;
    FireEarliest(kind);
  }
  now_ = target;
}

Status QueueCore::Advance(int64_t ms) {
  RETURN_IF_ERROR(kAdvanceMsField.Check(ms));
  if (ms > kMaxTimeMs - now_) {
    return Status::OutOfRange("ms must keep the clock at most " + std::to_string(kMaxTimeMs) + " ms; now is " +
                              std::to_string(now_) + ", got " + std::to_string(ms));
  }
  RETURN_IF_ERROR(CheckCounters("advance"));
  // Each timer fires with at most three events, a timer and an expiry's text,
  // and its move; then the clock's write.
  const size_t timers = delayed_.size() + leases_.size() + quarantine_.retention_timers();
  const cost::Need need{.events = 3 * timers, .timers = timers, .expiry_texts = timers, .moves = timers + 1};
  RETURN_IF_ERROR(CheckRoom(WithExpiry(WithTrim(need, timers)), "advance"));
  ++actions_;
  AdvanceTo(now_ + ms);
  EmitClock();
  return Status::Ok();
}

Status QueueCore::Advance(double ms) {
  RETURN_IF_ERROR(kAdvanceMsField.Check(ms));
  return Advance(static_cast<int64_t>(ms));
}

std::optional<int64_t> QueueCore::NextTimerAt() const {
  TimerKind kind = TimerKind::kDue;
  const Timer* next = NextTimer(&kind);
  const std::optional<int64_t> expiry = HeadExpiry();  // never before now: ExpireHeads ran
  if (next == nullptr) return expiry;
  return expiry ? std::min(*expiry, next->time) : next->time;
}

std::optional<int64_t> QueueCore::AdvanceToNext() {
  const std::optional<int64_t> next = NextTimerAt();
  if (!next || !CheckCounters("advanceToNext").ok()) return std::nullopt;
  ++actions_;                        // the timers due at one instant: within the headroom
  AdvanceTo(std::max(*next, now_));  // (a restored snapshot's head may be past its TTL already)
  EmitClock();
  return now_;
}

}  // namespace dlq
