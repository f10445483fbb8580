// QueueCore::FromImage: a queue built from its durable image (a snapshot's, a
// clone's, a recovery's), each place claimed in turn, refusing the first
// inconsistency with InvalidSnapshot. The checks run in a fixed order, so a
// damaged image is always refused with the same words.
#include <string>
#include <vector>

#include "queue_core.h"
#include "text.h"

namespace dlq {

using durable::Entry;
using durable::Image;

namespace {

Status Invalid(const std::string& why) {
  return Status::Error(Code::kInvalidSnapshot, "snapshot is inconsistent: " + why);
}

// The image's policy, clock and ready bounds, before anything is built.
Status CheckHeader(const Image& image) {
  const durable::Meta& m = image.meta;
  if (m.now > kMaxTimeMs) return Invalid("the clock is past the end of virtual time");
  if (m.ready_head > 0 || m.ready_tail < 0 || m.ready_head < -kMaxTimeMs || m.ready_tail > kMaxTimeMs) {
    return Invalid("the ready queue's bounds must hold position 0 and stay within 2^53");
  }
  return Status::Ok();
}

// What the queue will keep beside its events and x-death records (queue_cost.h).
size_t KeptBytes(const Image& image) {
  size_t bytes = image.leases.size() * cost::kLease + (image.delayed.size() + image.quarantine.size()) * cost::kTimer;
  for (const std::string& e : image.errors) bytes += cost::ErrorText(e.size());
  for (const durable::ImageJob& j : image.jobs) bytes += cost::Job(j.id, j.payload, j.key);
  for (const durable::Reorder& r : image.reorders) bytes += cost::Reorder(r.overtook.size());
  return bytes + SystemRecords::TimesBytes(image.policy, image.jobs.size());
}

}  // namespace

// Fills one QueueCore from one image, a part at a time.
class QueueCore::Loader {
 public:
  Loader(const Image& image, QueueCore& q)
      : image_(image), m_(image.meta), q_(q), n_(image.jobs.size()), errors_(image.errors.size()), places_(n_, 0) {}

  // Each part in turn; the first refusal stops it.
  Status Load() {
    using Part = Status (Loader::*)();
    static constexpr Part kParts[] = {&Loader::LoadErrors,    &Loader::LoadJobs,       &Loader::LoadGoneRows,
                                      &Loader::LoadReady,     &Loader::LoadDelayed,    &Loader::LoadLeases,
                                      &Loader::LoadCompleted, &Loader::LoadQuarantine, &Loader::CheckEveryPlace,
                                      &Loader::LoadReorders,  &Loader::LoadEvents};
    for (const Part part : kParts) {
      RETURN_IF_ERROR((this->*part)());
    }
    LoadMeta();
    return Status::Ok();
  }

 private:
  Status LoadErrors();
  Status LoadJobs();
  Status LoadGoneRows();
  Status LoadReady();
  Status LoadDelayed();
  Status LoadLeases();
  Status LoadCompleted();
  Status LoadQuarantine();
  Status CheckEveryPlace();
  Status LoadReorders();
  Status LoadEvents();
  void LoadMeta();
  // Sets job `index`'s fields from a row its entry (or, dropped or lost, its job line) wrote.
  // `waiting`: ready or delayed, where a job always has an attempt left (one at
  // its budget would have been quarantined).
  Status ApplyRow(uint32_t index, const durable::JobRow& r, bool waiting = false);
  Status CheckRow(const std::string& who, const durable::JobRow& r, bool waiting) const;
  // Claims job `e.job` for `place` with the entry's fields; refuses a job in two places.
  Status Claim(const Entry& e, Place place, const char* where);
  bool TimerOk(uint64_t seq, int64_t time) const { return seq >= 1 && seq <= m_.timer_seq && time >= m_.now; }

  const Image& image_;
  const durable::Meta& m_;
  QueueCore& q_;
  const size_t n_;
  const size_t errors_;
  std::vector<uint8_t> places_;  // per job: how many places claimed it
};

Status QueueCore::Loader::LoadErrors() {
  for (const std::string& e : image_.errors) {
    bool added = false;
    q_.jobs_.InternError(e, &added);
    if (!added) return Invalid("error text " + QuoteShort(e) + " appears twice");
  }
  q_.records_.ResizeForRestore(n_);
  return Status::Ok();
}

Status QueueCore::Loader::LoadJobs() {
  for (size_t k = 0; k < n_; ++k) {
    const durable::ImageJob& j = image_.jobs[k];
    if (j.id.empty() || j.id.size() > kMaxIdBytes || j.payload.size() > kMaxPayloadBytes ||
        j.key.size() > kMaxKeyBytes) {
      return Invalid("job " + std::to_string(k) + " has an empty or over-long id, payload or key");
    }
    const int64_t added = q_.jobs_.Add(j.id, j.payload, j.key);
    if (added < 0) return Invalid("job id " + QuoteShort(j.id) + " appears twice");
    const auto index = static_cast<uint32_t>(added);
    q_.jobs_[index].released = j.released;
    q_.jobs_[index].place = j.fate == durable::Fate::kDropped     ? Place::kDropped
                            : j.fate == durable::Fate::kDiscarded ? Place::kDiscarded
                                                                  : Place::kLost;  // until a place claims it
    if (j.fate == durable::Fate::kLost) q_.finished_.RestoreLost();
    if (j.fate == durable::Fate::kDiscarded) q_.finished_.RestoreDiscarded(index);
  }
  return Status::Ok();
}

Status QueueCore::Loader::CheckRow(const std::string& who, const durable::JobRow& r, bool waiting) const {
  const Policy& policy = image_.policy;
  const int64_t budget = policy.Budget();
  // Under bullmq a retry without a reset (ReplayKeepingAttempts) keeps attemptsMade,
  // so a job may be waiting at its budget, or past it by one run per such retry.
  const SystemRules& rules = SystemOf(policy);
  if (rules.CanReplayKeepingAttempts() ? r.attempts > kMaxKeptAttempts
                                       : r.attempts > budget || (waiting && r.attempts >= budget)) {
    return Invalid(who + " has more attempts than its budget allows where it is");
  }
  if (r.last_error > errors_) return Invalid(who + " names a missing error text");
  if (r.first_attempt_at > m_.now || r.arrived_at > m_.now || r.enqueued_at > m_.now || r.ttl_from > m_.now ||
      r.failed_at > m_.now) {
    return Invalid(who + " has a time after now");
  }
  // A mode's own fields only in its mode (so a lab queue's rows stay as they were).
  if ((r.stalls != 0 && !rules.Keeps(JobRecord::kStalls)) ||
      (r.enqueued_at != 0 && !rules.Keeps(JobRecord::kFirstEnqueue)) ||
      (!r.x_death.empty() && !rules.Keeps(JobRecord::kXDeath)) || (r.ttl_from != 0 && policy.MessageTtlMs() == 0) ||
      (r.failed_at >= 0 && rules.RetryWindowMs(policy) == 0) ||
      (r.moves != 0 && rules.MoveRatePerSecond(policy) == 0)) {
    return Invalid(who + " carries another system's fields");
  }
  if (r.stalls > UINT16_MAX || r.x_death.time[0] > m_.now || r.x_death.time[1] > m_.now || r.x_death.time[2] > m_.now ||
      r.x_death.time[3] > m_.now) {
    return Invalid(who + " has a stall count or an x-death time out of range");
  }
  return Status::Ok();
}

Status QueueCore::Loader::ApplyRow(uint32_t index, const durable::JobRow& r, bool waiting) {
  RETURN_IF_ERROR(CheckRow("job " + QuoteShort(image_.jobs[index].id), r, waiting));
  StoredJob& job = q_.jobs_[index];
  job.attempts = r.attempts;
  job.first_attempt_at = r.first_attempt_at;
  job.last_delay = static_cast<uint32_t>(r.last_delay);  // checked: at most kMaxSidekiqDelayMs
  job.reason = r.reason;
  job.failure_class = r.failure_class;
  job.alert = r.alert;
  job.last_error = r.last_error;
  job.quarantine_step = r.quarantine_step;
  job.arrived_at = r.arrived_at;
  job.stalls = static_cast<uint16_t>(r.stalls);
  q_.records_.Restore(index, r.enqueued_at, r.ttl_from, r.x_death, r.failed_at, r.moves);
  return Status::Ok();
}

Status QueueCore::Loader::LoadGoneRows() {
  for (size_t k = 0; k < n_; ++k) {
    if (image_.jobs[k].fate == durable::Fate::kLive) continue;
    RETURN_IF_ERROR(ApplyRow(static_cast<uint32_t>(k), image_.jobs[k].row));
  }
  return Status::Ok();
}

Status QueueCore::Loader::Claim(const Entry& e, Place place, const char* where) {
  if (e.job >= n_)
    return Invalid(std::string(where) + " names job " + std::to_string(e.job) + " of " + std::to_string(n_));
  if (image_.jobs[e.job].fate != durable::Fate::kLive || places_[e.job]++ != 0) {
    return Invalid("job " + QuoteShort(image_.jobs[e.job].id) +
                   " is in more than one place, or dropped or lost and in one");
  }
  q_.jobs_[e.job].place = place;
  return ApplyRow(e.job, e.row, place == Place::kReady || place == Place::kDelayed);
}

Status QueueCore::Loader::LoadReady() {
  for (const auto& [pos, e] : image_.ready) {
    RETURN_IF_ERROR(Claim(e, Place::kReady, "a ready entry"));
    if (pos < m_.ready_head || pos >= m_.ready_tail)
      return Invalid("a ready position lies outside the ready queue's bounds");
    q_.jobs_[e.job].ready_pos = pos;
    q_.ready_.Restore(e.job);
  }
  return Status::Ok();
}

Status QueueCore::Loader::LoadDelayed() {
  for (const auto& [seq, e] : image_.delayed) {
    RETURN_IF_ERROR(Claim(e, Place::kDelayed, "a delayed entry"));
    if (!TimerOk(seq, e.due_at)) return Invalid("a delayed entry's timer is not pending");
    q_.jobs_[e.job].due_at = e.due_at;
    q_.jobs_[e.job].timer = seq;
    q_.delayed_.Add(e.due_at, seq, e.job);
  }
  return Status::Ok();
}

Status QueueCore::Loader::LoadLeases() {
  for (size_t k = 0; k < image_.leases.size(); ++k) {
    const LeaseRecord& r = image_.leases[k].record;
    if (r.job >= n_) return Invalid("lease " + std::to_string(k + 1) + " names a missing job");
    if (r.leased_at > m_.now || r.expires_at < r.leased_at) {
      return Invalid("lease " + std::to_string(k + 1) + " has impossible times");
    }
    if (r.state == LeaseState::kActive) {
      Entry e = image_.leases[k].entry;
      e.job = r.job;
      RETURN_IF_ERROR(Claim(e, Place::kLeased, "a lease"));
      if (!TimerOk(r.timer, r.expires_at)) return Invalid("an active lease's expiry is not pending");
      q_.jobs_[r.job].lease = static_cast<uint32_t>(k + 1);
    }
    q_.leases_.Restore(r);
  }
  return Status::Ok();
}

Status QueueCore::Loader::LoadCompleted() {
  for (const Entry& e : image_.completed) {
    RETURN_IF_ERROR(Claim(e, Place::kCompleted, "a completed entry"));
    q_.finished_.Complete(e.job);
  }
  return Status::Ok();
}

Status QueueCore::Loader::LoadQuarantine() {
  for (const auto& [arrival, e] : image_.quarantine) {
    RETURN_IF_ERROR(Claim(e, Place::kQuarantined, "a quarantine entry"));
    if (arrival < 1 || arrival > m_.arrivals) return Invalid("a quarantine arrival lies outside the arrivals so far");
    if (e.row.quarantine_step > m_.step) return Invalid("a quarantine entry arrived after the current step");
    StoredJob& job = q_.jobs_[e.job];
    job.arrival = arrival;
    job.quarantine_pos = q_.quarantine_.Restore(e.job);
    if (q_.quarantine_.RetentionTimers()) {
      const int64_t ends = q_.quarantine_.RetentionEnd(e.row.arrived_at, e.row.enqueued_at);
      if (!TimerOk(e.timer, ends)) return Invalid("a quarantine entry's retention timer is not pending");
      job.timer = e.timer;
      q_.quarantine_.StartRetention(ends, e.timer, e.job);
    } else if (e.timer != 0) {
      return Invalid("a quarantine entry has a retention timer but the policy keeps entries forever");
    }
  }
  return Status::Ok();
}

Status QueueCore::Loader::CheckEveryPlace() {
  for (size_t k = 0; k < n_; ++k) {
    if (image_.jobs[k].fate == durable::Fate::kLive && places_[k] == 0) {
      return Invalid("job " + QuoteShort(image_.jobs[k].id) + " is in no place");
    }
    const StoredJob& job = q_.jobs_[static_cast<uint32_t>(k)];
    if (!job.key().empty() && job.place != Place::kCompleted) q_.keys_.Add(job.key(), static_cast<uint32_t>(k));
  }
  return Status::Ok();
}

Status QueueCore::Loader::LoadReorders() {
  for (const durable::Reorder& r : image_.reorders) {
    if (r.job >= n_) return Invalid("a reorder names a missing job");
    for (const uint32_t j : r.overtook) {
      if (j >= n_) return Invalid("a reorder names a missing job");
    }
    q_.keys_.RestoreReorder(r.job, r.overtook);
  }
  return Status::Ok();
}

Status QueueCore::Loader::LoadEvents() {
  for (size_t k = 0; k < image_.events.size(); ++k) {
    const EventRecord& e = image_.events[k];
    const bool reorder_ok = (e.kind != EventKind::kReorder || (e.ref >= 1 && e.ref <= q_.keys_.reorder_count())) &&
                            (e.kind != EventKind::kKeptOnce || e.ref <= static_cast<uint32_t>(Place::kQuarantined));
    if (e.job >= n_ || e.error > errors_ || e.lease > image_.leases.size() || !reorder_ok || e.time > m_.now) {
      return Invalid("event " + std::to_string(k + 1) + " names a missing job, error text, lease or reorder");
    }
    if (e.kind == EventKind::kPatched) q_.patches_.push_back({e.job, k, static_cast<uint64_t>(e.until)});
    q_.events_.Append(e);
  }
  return Status::Ok();
}

void QueueCore::Loader::LoadMeta() {
  q_.step_ = m_.step;
  q_.actions_ = m_.actions;
  q_.now_ = m_.now;
  q_.timer_seq_ = m_.timer_seq;
  q_.ready_.RestoreBounds(m_.ready_head, m_.ready_tail);
  q_.quarantine_.RestoreCounters(m_.arrivals, static_cast<size_t>(m_.expired), m_.alarm_raised);
  q_.journal_.marks = {q_.events_.size(), q_.jobs_.error_count(), q_.keys_.reorder_count()};
}

Result<QueueCore> QueueCore::FromImage(Image&& image) {
  if (Status s = Policy::Check(image.policy); !s.ok()) return Invalid("its policy is refused: " + s.message());
  Result<Prng> jitter = Prng::FromState(image.meta.jitter);
  if (!jitter.ok()) return Invalid(jitter.status().message());
  RETURN_IF_ERROR(CheckHeader(image));
  // What the queue will keep, checked before anything is built: the events at
  // most (their log's real size is charged once it is built), x-death records
  // at most one per job (charged as they are).
  const size_t bytes = KeptBytes(image);
  const size_t x_death_most = SystemRecords::MostXDeathBytes(image.policy, image.jobs.size());
  RETURN_IF_ERROR(HeapBudget::CheckRoom(bytes + x_death_most + image.events.size() * cost::kEventAtMost, "restore"));
  QueueCore q(image.policy);
  q.jitter_ = jitter.value();
  RETURN_IF_ERROR(Loader(image, q).Load());
  q.charge_.Add(bytes + q.records_.RestoredBytes());
  q.ChargeEvents();
  return q;
}

}  // namespace dlq
