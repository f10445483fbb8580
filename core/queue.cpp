#include "queue.h"

#include <algorithm>

#include "text.h"

namespace dlq {

Result<Queue> Queue::Create(const Policy& policy) {
  if (Status s = Policy::CheckMaxAttempts(policy.max_attempts); !s.ok()) return s;
  return Queue(policy);
}

Queue::Queue(const Policy& policy) : policy_(policy) {}

namespace {

// "id", or "jobs[3].id" for a job of a batch.
std::string ArgumentName(const char* argument, size_t index, const char* field) {
  if (index == SIZE_MAX) return argument;
  return std::string(argument) + "[" + std::to_string(index) + "]." + field;
}

Status TooLarge(const std::string& name, size_t limit, size_t given) {
  return Status::Error(Code::kTooLarge, name + " must be at most " + std::to_string(limit) + " bytes, got " +
                                            std::to_string(given) + " bytes");
}

}  // namespace

Status Queue::CheckPayload(std::string_view payload, const char* argument, size_t index) {
  if (payload.size() > kMaxPayloadBytes) return TooLarge(ArgumentName(argument, index, "payload"), kMaxPayloadBytes, payload.size());
  return Status::Ok();
}

Status Queue::CheckErrorText(std::string_view error_text) {
  if (error_text.size() > kMaxErrorTextBytes) return TooLarge("errorText", kMaxErrorTextBytes, error_text.size());
  return Status::Ok();
}

Status Queue::CheckNewId(std::string_view id, const char* argument, size_t index) const {
  const auto name = [&] { return ArgumentName(argument, index, "id"); };
  if (id.empty()) return Status::InvalidArgument(name() + " must be a non-empty string, got \"\"");
  if (id.size() > kMaxIdBytes) return TooLarge(name(), kMaxIdBytes, id.size());
  if (index_.count(id) != 0) {
    return Status::AlreadyExists(name() + " " + QuoteShort(id) + " was already given to this queue; ids must be unique");
  }
  return Status::Ok();
}

void Queue::Append(std::string_view id, std::string_view payload) {
  const auto job = static_cast<uint32_t>(jobs_.size());
  Job& record = jobs_.emplace_back();
  record.id.assign(id);
  record.payload.assign(payload);
  index_.emplace(record.id, job);
  ready_.push_back(job);
  Record(EventKind::kEnqueued, job);
}

Status Queue::Enqueue(std::string_view id, std::string_view payload) {
  if (Status s = CheckNewId(id, "id"); !s.ok()) return s;
  if (Status s = CheckPayload(payload, "payload"); !s.ok()) return s;
  Append(id, payload);
  return Status::Ok();
}

Status Queue::EnqueueMany(const std::vector<JobRef>& jobs) {
  // Append optimistically and undo everything at the first bad job: one hash
  // lookup per job instead of a second set for the batch.
  const size_t first = jobs_.size();
  const size_t events_before = events_.size();
  const auto undo = [&] {
    while (jobs_.size() > first) {
      index_.erase(jobs_.back().id);
      jobs_.pop_back();
      ready_.pop_back();
    }
    events_.resize(events_before);
  };
  index_.reserve(index_.size() + jobs.size());
  events_.reserve(events_.size() + jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (jobs[i].id.empty() || jobs[i].id.size() > kMaxIdBytes) {
      undo();
      return CheckNewId(jobs[i].id, "jobs", i);
    }
    if (Status s = CheckPayload(jobs[i].payload, "jobs", i); !s.ok()) {
      undo();
      return s;
    }
    const auto existing = index_.find(jobs[i].id);
    if (existing != index_.end()) {
      const bool in_batch = existing->second >= first;
      undo();
      return Status::AlreadyExists("jobs[" + std::to_string(i) + "].id " + QuoteShort(jobs[i].id) +
                                   (in_batch ? " appears twice in this batch; ids must be unique"
                                             : " was already given to this queue; ids must be unique"));
    }
    Append(jobs[i].id, jobs[i].payload);
  }
  return Status::Ok();
}

uint32_t Queue::InternError(std::string_view text) {
  if (text.empty()) return 0;
  if (auto it = error_index_.find(text); it != error_index_.end()) return it->second;
  error_texts_.emplace_back(text);
  const auto index = static_cast<uint32_t>(error_texts_.size());  // 1-based: 0 is ""
  error_index_.emplace(error_texts_.back(), index);
  return index;
}

std::string_view Queue::ErrorText(uint32_t index) const {
  return index == 0 ? std::string_view() : std::string_view(error_texts_[index - 1]);
}

void Queue::Record(EventKind kind, uint32_t job, uint32_t error, Outcome outcome, Disposition disposition,
                   Reason reason) {
  events_.push_back(RawEvent{step_, job, jobs_[job].attempts, error, kind, outcome, disposition, reason});
}

Result<Attempt> Queue::Process(std::string_view outcome, std::string_view error_text) {
  Result<Outcome> parsed = ParseOutcome(outcome);
  if (!parsed.ok()) return parsed.status();
  return Process(parsed.value(), error_text);
}

Result<Attempt> Queue::Process(Outcome outcome, std::string_view error_text) {
  if (Status s = CheckErrorText(error_text); !s.ok()) return s;
  return ProcessChecked(outcome, error_text);
}

Attempt Queue::ProcessChecked(Outcome outcome, std::string_view error_text) {
  Attempt result;
  if (ready_.empty()) return result;

  const uint32_t index = ready_.front();
  ready_.pop_front();
  Job& job = jobs_[index];
  ++step_;
  job.attempts += 1;  // count first, decide second
  const auto budget = static_cast<uint32_t>(policy_.max_attempts);

  Disposition disposition = Disposition::kCompleted;
  Reason reason = Reason::kNone;
  if (outcome == Outcome::kPermanent) {
    disposition = Disposition::kQuarantined;
    reason = Reason::kPermanent;
  } else if (outcome == Outcome::kTransient) {
    if (job.attempts < budget) {
      disposition = Disposition::kRequeued;
    } else {
      disposition = Disposition::kQuarantined;
      reason = Reason::kExhausted;
    }
  }

  const uint32_t error = InternError(error_text);
  Record(EventKind::kAttempt, index, error, outcome, disposition, reason);
  switch (disposition) {
    case Disposition::kCompleted:
      job.where = Where::kCompleted;
      completed_.push_back(index);
      Record(EventKind::kCompleted, index);
      break;
    case Disposition::kRequeued:
      ready_.push_back(index);
      Record(EventKind::kRequeued, index);
      break;
    case Disposition::kQuarantined:
      job.where = Where::kQuarantined;
      job.reason = reason;
      job.last_error = error;
      job.quarantine_step = step_;
      job.quarantine_pos = quarantine_.insert(quarantine_.end(), index);
      Record(EventKind::kQuarantined, index, 0, outcome, disposition, reason);
      break;
  }

  result.processed = true;
  result.id = job.id;
  result.attempt = job.attempts;
  result.outcome = outcome;
  result.disposition = disposition;
  result.reason = reason;
  return result;
}

Result<uint64_t> Queue::ProcessMany(std::string_view outcomes, std::string_view error_text) {
  if (Status s = CheckErrorText(error_text); !s.ok()) return s;
  for (size_t i = 0; i < outcomes.size(); ++i) {
    const char c = outcomes[i];
    if (c != 's' && c != 't' && c != 'p') {
      return Status::InvalidArgument("outcomes[" + std::to_string(i) +
                                     "] must be 's' (success), 't' (transient) or 'p' (permanent), got " +
                                     Quote(outcomes.substr(i, 1)));
    }
  }
  uint64_t made = 0;
  for (const char c : outcomes) {
    if (ready_.empty()) break;
    ProcessChecked(c == 's' ? Outcome::kSuccess : c == 't' ? Outcome::kTransient : Outcome::kPermanent, error_text);
    ++made;
  }
  return made;
}

bool Queue::Replay(std::string_view id) {
  const auto it = index_.find(id);
  if (it == index_.end()) return false;
  const uint32_t index = it->second;
  Job& job = jobs_[index];
  if (job.where != Where::kQuarantined) return false;

  ++step_;
  quarantine_.erase(job.quarantine_pos);
  Record(EventKind::kReplayed, index);  // carries the attempt count before the reset
  job.where = Where::kReady;
  job.reason = Reason::kNone;
  job.attempts = 0;
  job.last_error = 0;
  job.quarantine_step = 0;
  ready_.push_back(index);
  return true;
}

namespace {

// The [from, from + count) slice of a container of size n, clamped.
std::pair<size_t, size_t> Slice(size_t n, size_t from, size_t count) {
  const size_t begin = std::min(from, n);
  return {begin, begin + std::min(count, n - begin)};
}

}  // namespace

template <typename Indexes>
std::vector<JobView> Queue::JobViews(const Indexes& indexes, size_t from, size_t count) const {
  const auto [begin, end] = Slice(indexes.size(), from, count);
  std::vector<JobView> out;
  out.reserve(end - begin);
  for (size_t k = begin; k < end; ++k) {
    const Job& job = jobs_[indexes[k]];
    out.push_back({job.id, job.payload, job.attempts});
  }
  return out;
}

std::vector<JobView> Queue::Ready(size_t from, size_t count) const { return JobViews(ready_, from, count); }

std::vector<JobView> Queue::Completed(size_t from, size_t count) const { return JobViews(completed_, from, count); }

std::vector<QuarantineEntry> Queue::Quarantined(size_t from, size_t count) const {
  const auto [begin, end] = Slice(quarantine_.size(), from, count);
  std::vector<QuarantineEntry> out;
  out.reserve(end - begin);
  auto it = quarantine_.begin();
  std::advance(it, begin);  // a list: linear, but the viewer asks for the head
  for (size_t k = begin; k < end; ++k, ++it) {
    const Job& job = jobs_[*it];
    out.push_back({job.id, job.payload, job.attempts, job.reason, std::string(ErrorText(job.last_error)),
                   job.quarantine_step});
  }
  return out;
}

Event Queue::EventAt(size_t index) const {
  const RawEvent& raw = events_[index];
  const Job& job = jobs_[raw.job];
  Event e;
  e.seq = index + 1;
  e.step = raw.step;
  e.kind = raw.kind;
  e.id = job.id;
  e.attempts = raw.attempts;
  e.max_attempts = static_cast<uint32_t>(policy_.max_attempts);
  e.outcome = raw.outcome;
  e.disposition = raw.disposition;
  e.reason = raw.reason;
  e.error = ErrorText(raw.error);
  if (raw.kind == EventKind::kEnqueued || raw.kind == EventKind::kReplayed) e.payload_bytes = job.payload.size();
  return e;
}

std::vector<Event> Queue::Timeline(size_t from, size_t count) const {
  std::vector<Event> out;
  const auto [begin, end] = Slice(events_.size(), from, count);
  out.reserve(end - begin);
  for (size_t i = begin; i < end; ++i) out.push_back(EventAt(i));
  return out;
}

std::string Queue::TimelineText() const {
  std::string text;
  for (size_t i = 0; i < events_.size(); ++i) {
    text += RenderEvent(EventAt(i));
    text += '\n';
  }
  return text;
}

}  // namespace dlq
