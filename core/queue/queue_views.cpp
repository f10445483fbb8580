// QueueCore: the reads QueueView forwards (the places' copies, Locate, the
// stats, the reorders and the timeline).
#include <algorithm>

#include "queue_core.h"
#include "text.h"

namespace dlq {

namespace {

// The [from, from + count) slice of a container of size n, clamped.
std::pair<size_t, size_t> Slice(size_t n, size_t from, size_t count) {
  const size_t begin = std::min(from, n);
  return {begin, begin + std::min(count, n - begin)};
}

}  // namespace

template <typename Indexes>
std::vector<JobView> QueueCore::JobViews(const Indexes& indexes, size_t from, size_t count) const {
  const auto [begin, end] = Slice(indexes.size(), from, count);
  std::vector<JobView> out;
  out.reserve(end - begin);
  for (size_t k = begin; k < end; ++k) {
    const StoredJob& job = jobs_[indexes[k]];
    const int64_t holder = job.place == Place::kReady ? HolderOf(indexes[k]) : -1;
    out.push_back({std::string(job.id()), std::string(job.payload()), job.attempts, std::string(job.key()),
                   holder < 0 ? std::string() : std::string(jobs_[static_cast<uint32_t>(holder)].id())});
  }
  return out;
}

std::vector<JobView> QueueCore::Ready(size_t from, size_t count) const { return JobViews(ready_, from, count); }

std::vector<JobView> QueueCore::Completed(size_t from, size_t count) const {
  return JobViews(finished_.completed(), from, count);
}

std::vector<DiscardedView> QueueCore::Discarded(size_t from, size_t count) const {
  const std::vector<uint32_t>& discarded = finished_.discarded();
  const auto [begin, end] = Slice(discarded.size(), from, count);
  std::vector<DiscardedView> out;
  out.reserve(end - begin);
  for (size_t k = begin; k < end; ++k) {
    const StoredJob& job = jobs_[discarded[k]];
    out.push_back({std::string(job.id()), std::string(job.payload()), job.attempts, job.reason, job.arrived_at});
  }
  return out;
}

std::vector<QuarantineEntry> QueueCore::Quarantined(size_t from, size_t count) const {
  const auto [begin, end] = Slice(quarantine_.size(), from, count);
  std::vector<QuarantineEntry> out;
  out.reserve(end - begin);
  auto it = quarantine_.begin();
  std::advance(it, begin);  // a list: linear, but the viewer asks for the head
  for (size_t k = begin; k < end; ++k, ++it) {
    const StoredJob& job = jobs_[*it];
    out.push_back({std::string(job.id()), std::string(job.payload()), job.attempts, job.reason,
                   std::string(jobs_.ErrorText(job.last_error)), job.quarantine_step, job.failure_class, job.alert,
                   job.arrived_at, job.first_attempt_at, std::string(job.key()), job.stalls, records_.EnqueuedAt(*it),
                   records_.XDeathOf(*it), records_.MovesOf(*it), kSourceQueueName});
    QuarantineEntry& entry = out.back();
    quarantine_.RetentionWindow(job.arrived_at, entry.enqueued_at, &entry.retention_from, &entry.retention_until);
  }
  return out;
}

std::optional<JobLocation> QueueCore::Locate(std::string_view id) const {
  const int64_t found = jobs_.Find(id);
  if (found < 0) return std::nullopt;
  const auto index = static_cast<uint32_t>(found);
  const StoredJob& job = jobs_[index];
  JobLocation out;
  out.place = job.place;
  out.attempts = job.attempts;
  switch (job.place) {
    case Place::kReady: {
      const int64_t holder = HolderOf(index);
      if (holder >= 0) out.held_by.assign(jobs_[static_cast<uint32_t>(holder)].id());
      break;
    }
    case Place::kDelayed: out.until = job.due_at; break;
    case Place::kLeased:
      out.until = leases_[job.lease].expires_at;
      out.token = LeaseTable::Token(job.lease);
      break;
    case Place::kQuarantined:
      out.reason = job.reason;
      out.failure_class = job.failure_class;
      out.source_queue = kSourceQueueName;
      break;
    default: break;
  }
  return out;
}

std::vector<DelayedView> QueueCore::Delayed(size_t from, size_t count) const {
  const auto [begin, end] = Slice(delayed_.size(), from, count);
  std::vector<DelayedView> out;
  out.reserve(end - begin);
  auto it = delayed_.timers().begin();
  std::advance(it, begin);
  for (size_t k = begin; k < end; ++k, ++it) {
    const StoredJob& job = jobs_[it->ref];
    out.push_back({std::string(job.id()), std::string(job.payload()), job.attempts, it->time});
  }
  return out;
}

std::vector<LeaseView> QueueCore::Leased(size_t from, size_t count) const {
  const TimerSet& active = leases_.active();
  const auto [begin, end] = Slice(active.size(), from, count);
  std::vector<LeaseView> out;
  out.reserve(end - begin);
  auto it = active.begin();
  std::advance(it, begin);
  for (size_t k = begin; k < end; ++k, ++it) {
    const StoredJob& job = jobs_[leases_[it->ref].job];
    out.push_back({std::string(job.id()), std::string(job.payload()), job.attempts, LeaseTable::Token(it->ref),
                   it->time, leases_[it->ref].leased_at});
  }
  return out;
}

QueueStats QueueCore::stats() const {
  QueueStats s;
  s.step = step_;
  s.actions = actions_;
  s.now = now_;
  s.ready = ready_.size();
  s.delayed = delayed_.size();
  s.leased = leases_.size();
  s.completed = finished_.completed().size();
  s.quarantined = quarantine_.size();
  s.events = events_.size();
  s.reorders = keys_.reorder_count();
  s.expired = quarantine_.expired();
  s.lost = finished_.lost();
  s.discarded = finished_.discarded().size();
  return s;
}

std::vector<ReorderView> QueueCore::Reorders(size_t from, size_t count) const {
  const auto [begin, end] = Slice(keys_.reorder_count(), from, count);
  std::vector<ReorderView> out;
  out.reserve(end - begin);
  for (size_t k = begin; k < end; ++k) {
    ReorderView r;
    r.id = jobs_[keys_.reorder_job(k)].id();
    r.key = jobs_[keys_.reorder_job(k)].key();
    for (const uint32_t earlier : keys_.overtook(k)) r.overtook.emplace_back(jobs_[earlier].id());
    out.push_back(std::move(r));
  }
  return out;
}

Event QueueCore::EventAt(size_t index) const {
  Event e = events_.Expand(index, jobs_, keys_.overtaken());
  // Expand reads the job's payload as it is now; a later patch changed it.
  if (e.kind == EventKind::kEnqueued || e.kind == EventKind::kReplayed) {
    for (const PatchMark& p : patches_) {
      if (p.event > index && jobs_.Find(e.id) == static_cast<int64_t>(p.job)) {
        e.payload_bytes = p.old_bytes;
        break;
      }
    }
  }
  return e;
}

std::vector<Event> QueueCore::Timeline(size_t from, size_t count) const {
  std::vector<Event> out;
  const auto [begin, end] = Slice(events_.size(), from, count);
  out.reserve(end - begin);
  for (size_t i = begin; i < end; ++i) out.push_back(EventAt(i));
  return out;
}

std::string QueueCore::TimelineText() const {
  std::string text;
  for (size_t i = 0; i < events_.size(); ++i) {
    text += RenderEvent(EventAt(i));
    text += '\n';
  }
  return text;
}

}  // namespace dlq
