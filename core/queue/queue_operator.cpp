// QueueCore: the operator's calls (replay, patch, redrive, releasing a key)
// and the alarm.
#include <algorithm>

#include "queue_core.h"
#include "text.h"

namespace dlq {

int64_t QueueCore::ReplayableIndex(std::string_view id) const {
  const int64_t found = jobs_.Find(id);
  if (found < 0 || jobs_[static_cast<uint32_t>(found)].place != Place::kQuarantined) return -1;
  return CheckCounters("replay").ok() ? found : -1;
}

bool QueueCore::Replay(std::string_view id) {
  const int64_t found = ReplayableIndex(id);
  if (found < 0) return false;
  const auto index = static_cast<uint32_t>(found);
  ++actions_;  // one event or two and two records: too small to check, covered by the budget's headroom
  ReplayChecked(index);
  return true;
}

Status QueueCore::Patch(std::string_view id, std::string_view payload) {
  const int64_t found = jobs_.Find(id);
  if (found < 0) return Status::NotFound("patch: id " + QuoteShort(id) + " names no job");
  const auto index = static_cast<uint32_t>(found);
  if (jobs_[index].place != Place::kQuarantined) {
    return Status::FailedPrecondition("patch: job " + QuoteShort(id) +
                                      " expected in quarantine (only a quarantined job is patched), got it elsewhere");
  }
  RETURN_IF_ERROR(checks::Payload(payload, "payload"));
  RETURN_IF_ERROR(CheckCounters("patch"));
  const StoredJob& job = jobs_[index];
  const cost::Need need{.job_strings = job.id().size() + payload.size() + job.key().size(),
                        .events = 1,
                        .moves = 1};  // the set-payload write, which copies the payload
  RETURN_IF_ERROR(CheckRoom(need, "patch"));
  ++actions_;
  charge_.Add(need.job_strings);  // the arena's fresh copy of the job's strings
  const uint64_t old_bytes = job.payload().size();
  patches_.push_back({index, events_.size(), old_bytes});
  EventRecord& patched = Record(EventKind::kPatched, index);
  patched.until = static_cast<int64_t>(old_bytes);
  patched.ref = static_cast<uint32_t>(payload.size());  // at most kMaxPayloadBytes
  jobs_.SetPayload(index, payload);
  if (policy_.journal) {
    durable::Write w;
    w.op = durable::WriteOp::kSetPayload;
    w.job_number = index;
    w.job.payload.assign(payload);
    Emit(std::move(w), index);
  }
  return Status::Ok();
}

bool QueueCore::WasPatched(std::string_view id) const {
  if (patches_.empty()) return false;
  const int64_t found = jobs_.Find(id);
  return std::any_of(patches_.begin(), patches_.end(),
                     [&](const PatchMark& p) { return static_cast<int64_t>(p.job) == found; });
}

Result<bool> QueueCore::ReplayKeepingAttempts(std::string_view id) {
  if (!CanReplayKeepingAttempts()) {
    return Status::InvalidArgument(
        std::string("replay: resetAttempts false expected only under system bullmq (BullMQ's "
                    "job.retry() without resetAttemptsMade), got it under system ") +
        system().name() + ", where a replay always resets attempts");
  }
  const int64_t found = ReplayableIndex(id);
  if (found < 0) return false;
  const auto index = static_cast<uint32_t>(found);
  if (jobs_[index].attempts >= kMaxKeptAttempts) {
    return Status::OutOfRange("replay: job " + QuoteShort(id) + " has " + std::to_string(jobs_[index].attempts) +
                              " attempts, the most a retry without a reset may keep");
  }
  ++actions_;
  ReplayChecked(index, false, true);
  return true;
}

void QueueCore::ReplayChecked(uint32_t index, bool routed, bool keep_attempts, uint64_t slot) {
  StoredJob& job = jobs_[index];
  // An operator's replay under a move task (sqs's StartMessageMoveTask) makes a new message.
  const int64_t rate = routed ? 0 : system().MoveRatePerSecond(policy_);
  const int64_t from = static_cast<int64_t>(job.arrival);
  ++step_;
  quarantine_.Remove(job.quarantine_pos);
  if (quarantine_.RetentionTimers()) quarantine_.StopRetention(RetentionEndOf(index), job.timer, index);
  // Sidekiq's retry of a dead job lowers its count by one: it gets one more run.
  // BullMQ's retry without a reset keeps attemptsMade.
  const uint32_t kept = keep_attempts ? job.attempts : system().AttemptsAfterReplay(job.attempts);
  // It carries the attempt count before the reset, and the count it keeps.
  if (rate > 0) records_.Moved(index, now_);  // a new message: SentTimestamp now, its move count + 1
  EventRecord& replayed = Record(EventKind::kReplayed, index);
  replayed.until = kept;
  // The event says who sent it back (bit 0) and, moved by a move task, its move count
  // (its new MessageId; the bits above: 0 for every replay that is not a move).
  replayed.ref = (routed ? 1u : 0u) | (records_.MovesOf(index) << 1);
  job.reason = Reason::kNone;
  job.attempts = kept;
  job.last_error = 0;
  job.quarantine_step = 0;
  job.alert = false;
  records_.Republish(index, now_);  // republished: a new message's TTL
  const int64_t after = rate > 0 ? MoveAfterMs(rate, slot) : 0;
  if (after > 0) {  // its turn in the move task is later: it waits in delayed until then
    Park(index, after, now_ + after, 0);
  } else {
    job.place = Place::kReady;
    job.ready_pos = ready_.PushBack(index);
  }
  job.last_delay = 0;  // a fresh start: no previous delay (a move's wait is not a retry's)
  CheckAlarm(index);
  EmitMove(index, {durable::WriteOp::kRemoveQuarantine, from});
}

cost::Need QueueCore::RedriveNeed(size_t n) const {
  // Each entry: its replayed event and an alarm change, and its move; under a move task
  // every entry but the first also waits for its turn (a delayed event and a timer).
  const size_t waiting = system().MoveRatePerSecond(policy_) > 0 && n > 0 ? n - 1 : 0;
  return {.events = 2 * n + waiting, .timers = waiting, .moves = n};
}

bool QueueCore::RedriveTakes(uint32_t job, const RedriveFilter& only) const {
  const StoredJob& j = jobs_[job];
  return (!only.failure_class || j.failure_class == *only.failure_class) &&
         (only.reason == Reason::kNone || j.reason == only.reason);
}

size_t QueueCore::RedriveCount(const RedriveFilter& only) const {
  if (only == RedriveFilter{}) return quarantine_.size();
  size_t n = 0;
  for (const uint32_t job : quarantine_) n += RedriveTakes(job, only) ? 1 : 0;
  return n;
}

Result<uint64_t> QueueCore::Redrive(int64_t max, const RedriveFilter& only) {
  if (only == RedriveFilter{}) return Redrive(max);
  RETURN_IF_ERROR(kRedriveMaxField.Check(max));
  std::vector<uint32_t> taken;  // the oldest matching entries, at most max
  for (const uint32_t job : quarantine_) {
    if (taken.size() == static_cast<size_t>(max)) break;
    if (RedriveTakes(job, only)) taken.push_back(job);
  }
  if (taken.empty()) return uint64_t{0};
  RETURN_IF_ERROR(CheckCounters("redrive"));
  RETURN_IF_ERROR(CheckRoom(RedriveNeed(taken.size()), "redrive"));
  ++actions_;
  uint64_t slot = 0;
  for (const uint32_t job : taken) ReplayChecked(job, false, false, slot++);
  return static_cast<uint64_t>(taken.size());
}

Result<uint64_t> QueueCore::Redrive(int64_t max) {
  RETURN_IF_ERROR(kRedriveMaxField.Check(max));
  const size_t n = std::min(quarantine_.size(), static_cast<size_t>(max));
  if (n == 0) return uint64_t{0};
  RETURN_IF_ERROR(CheckCounters("redrive"));
  RETURN_IF_ERROR(CheckRoom(RedriveNeed(n), "redrive"));
  ++actions_;
  for (size_t k = 0; k < n; ++k) ReplayChecked(quarantine_.front(), false, false, k);  // oldest arrival first
  return static_cast<uint64_t>(n);
}

Result<uint64_t> QueueCore::Redrive(double max) {
  RETURN_IF_ERROR(kRedriveMaxField.Check(max));
  return Redrive(static_cast<int64_t>(max));
}

Result<uint64_t> QueueCore::ReleaseKey(std::string_view key) {
  RETURN_IF_ERROR(checks::Key(key, "key"));
  const std::deque<uint32_t>* pending = keys_.Pending(key);
  if (pending == nullptr) return uint64_t{0};
  std::vector<uint32_t> holders;
  for (const uint32_t job : *pending) {
    const StoredJob& j = jobs_[job];
    if (!j.released && (j.place == Place::kQuarantined || j.place == Place::kDropped || j.place == Place::kLost ||
                        j.place == Place::kDiscarded)) {
      holders.push_back(job);
    }
  }
  if (holders.empty()) return uint64_t{0};
  RETURN_IF_ERROR(CheckCounters("releaseKey"));
  RETURN_IF_ERROR(CheckRoom({.events = holders.size(), .moves = holders.size()}, "releaseKey"));
  ++actions_;
  for (const uint32_t job : holders) {
    jobs_[job].released = true;
    Record(EventKind::kKeyReleased, job);
    if (policy_.journal) {
      durable::Write w;
      w.op = durable::WriteOp::kReleaseKey;
      w.job_number = job;
      Emit(std::move(w), job);
    }
  }
  return static_cast<uint64_t>(holders.size());
}

AlarmView QueueCore::alarm() const { return {quarantine_.alarm_raised(), quarantine_.size(), policy_.alarm_depth}; }

}  // namespace dlq
