#include "queue_core.h"

#include <algorithm>

#include "rules.h"
#include "text.h"

namespace dlq {

Result<QueueCore> QueueCore::Create(const Policy& policy) {
  RETURN_IF_ERROR(Policy::Check(policy));
  QueueCore queue(policy);
  queue.EmitCreate();
  return queue;
}

QueueCore::QueueCore(const Policy& policy)
    : policy_(policy),
      in_force_(policy),
      jitter_(static_cast<uint64_t>(policy.seed), PrngStream::kJitter),
      quarantine_(policy),
      records_(policy) {}

QueueCore::InForce::InForce(const Policy& p)
    : decide(p),
      ordering(p.OrderingInForce()),
      return_to(decide.system->ReturnTo(p)),
      message_ttl_ms(p.MessageTtlMs()),
      expires_in_place(p.ExpiresInPlace()),
      dead_letter_drop(p.DeadLetterDrop()),
      expiry_drop(p.ExpiryDrop()) {}

namespace {

// The class of a worker's outcome: nullopt for a success.
std::optional<FailureClass> FailureOf(Outcome outcome) {
  if (outcome == Outcome::kSuccess) return std::nullopt;
  return ClassOf(outcome);
}

// One attempt decided (process, settle): at most three events (the attempt, where
// it went, an alert or an alarm change), a timer, and its move's journal records;
// `attempts` of them share one new error text.
cost::Need AttemptNeed(size_t attempts, std::string_view error_text) {
  return {
      .events = 3 * attempts, .timers = attempts, .error_text = error_text.size(), .error = true, .moves = attempts};
}

}  // namespace

Status QueueCore::CheckRoom(const cost::Need& need, const char* call) const {
  return HeapAccount::CheckRoom(need, policy_.journal, call);
}

void QueueCore::ChargeEvents() { charge_.ChargeEvents(events_.bytes()); }

bool QueueCore::Append(std::string_view id, std::string_view payload, std::string_view key, uint64_t hash,
                       bool record) {
  const int64_t added = jobs_.Add(id, payload, key, hash);
  if (added < 0) return false;
  const auto job = static_cast<uint32_t>(added);
  if (!key.empty()) keys_.Add(jobs_[job].key(), job);
  jobs_[job].ready_pos = ready_.PushBack(job);
  charge_.Add(cost::Job(id, payload, key));  // the event charges itself
  charge_.Add(records_.Publish(now_));       // a system's records start (sqs, a TTL)
  if (record) Record(EventKind::kEnqueued, job);
  if (policy_.journal) {
    durable::Write w;
    w.op = durable::WriteOp::kEnqueue;
    w.job.id.assign(id);
    w.job.payload.assign(payload);
    w.job.key.assign(key);
    w.position = jobs_[job].ready_pos;
    w.entry.job = job;
    w.entry.row = RowOf(job);
    Emit(std::move(w), job);
  }
  return true;
}

Status QueueCore::Enqueue(std::string_view id, std::string_view payload, std::string_view key) {
  RETURN_IF_ERROR(checks::NewId(id, jobs_, "id"));
  RETURN_IF_ERROR(checks::Payload(payload, "payload"));
  RETURN_IF_ERROR(checks::Key(key, "key"));
  RETURN_IF_ERROR(CheckCounters("enqueue"));
  // The job, its event, and its journal record (which copies its strings) when the policy keeps one.
  const cost::Need need{.jobs = 1, .job_strings = id.size() + payload.size() + key.size(), .events = 1, .moves = 1};
  RETURN_IF_ERROR(CheckRoom(WithExpiry(WithOverflow(need, 1), 1), "enqueue"));
  ++actions_;
  Append(id, payload, key, JobStore::HashId(id));  // checks::NewId found the id new
  DropHeadOverLimit();
  ExpireHeads();  // the drop may bring an older job to the head
  return Status::Ok();
}

QueueCore::BatchMark QueueCore::MarkBatch() const {
  return {jobs_.size(), events_.size(), charge_.mark(), journal_.size(), journal_.marks};
}

void QueueCore::UndoBatch(const BatchMark& mark) {
  while (jobs_.size() > mark.jobs) {
    const std::string_view key = jobs_[static_cast<uint32_t>(jobs_.size() - 1)].key();
    if (!key.empty()) keys_.UndoAdd(key);
    jobs_.RemoveLast();
    ready_.UndoPushBack();
    records_.Unpublish();
  }
  events_.Truncate(mark.events);
  journal_.Truncate(mark.journal);
  journal_.marks = mark.journal_marks;
  charge_.Rewind(mark.charged);
  --actions_;
}

Status QueueCore::EnqueueMany(const std::vector<JobRef>& jobs) {
  RETURN_IF_ERROR(CheckSize("jobs", kMaxBatchJobs, jobs.size(), "items"));
  if (jobs.empty()) return Status::Ok();  // nothing to add: not an action
  size_t batch_bytes = 0;
  for (const JobRef& job : jobs) batch_bytes += job.id.size() + job.payload.size() + job.key.size();
  RETURN_IF_ERROR(CheckSize("jobs (ids and payloads together)", kMaxBatchBytes, batch_bytes));
  RETURN_IF_ERROR(CheckCounters("enqueueMany"));
  // No journal, no records: as processMany counts them.
  const cost::Need need{.jobs = jobs.size(), .job_strings = batch_bytes, .events = jobs.size(), .moves = jobs.size()};
  RETURN_IF_ERROR(CheckRoom(WithExpiry(WithOverflow(need, jobs.size()), jobs.size()), "enqueueMany"));
  // Append optimistically and undo everything at the first bad job: one hash
  // lookup per job instead of a second set for the batch.
  const BatchMark mark = MarkBatch();
  const size_t first = mark.jobs;
  ++actions_;  // undone with the rest
  const auto undo = [&] { UndoBatch(mark); };
  jobs_.Reserve(jobs.size());
  ready_.Reserve(ready_.size() + jobs.size());  // one allocation, no copies as it fills
  // The id index is bigger than the cache for big batches: hash kAhead jobs
  // ahead and start loading their slots, so the misses overlap.
  constexpr size_t kAhead = 16;
  uint64_t hashes[kAhead];
  for (size_t i = 0; i < kAhead && i < jobs.size(); ++i) {
    hashes[i] = JobStore::HashId(jobs[i].id);
    jobs_.PrefetchId(hashes[i]);
  }
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (jobs[i].id.empty() || jobs[i].id.size() > kMaxIdBytes) {
      undo();
      return checks::NewId(jobs[i].id, jobs_, "jobs", i);
    }
    if (Status s = checks::Payload(jobs[i].payload, "jobs", i); !s.ok()) {
      undo();
      return s;
    }
    if (Status s = checks::Key(jobs[i].key, "jobs", i); !s.ok()) {
      undo();
      return s;
    }
    const uint64_t hash = hashes[i % kAhead];
    if (i + kAhead < jobs.size()) {  // job i + kAhead takes job i's place in the ring
      hashes[i % kAhead] = JobStore::HashId(jobs[i + kAhead].id);
      jobs_.PrefetchId(hashes[i % kAhead]);
    }
    if (!Append(jobs[i].id, jobs[i].payload, jobs[i].key, hash, /*record=*/policy_.journal)) {
      const bool in_batch = static_cast<size_t>(jobs_.Find(jobs[i].id)) >= first;
      undo();
      return Status::AlreadyExists("jobs[" + std::to_string(i) + "].id " + QuoteShort(jobs[i].id) +
                                   (in_batch ? " appears twice in this batch; ids must be unique"
                                             : " was already given to this queue; ids must be unique"));
    }
  }
  // Without a journal (whose records carry each job's event), the batch's
  // enqueue events are written at the end as one series: the same records,
  // encoded once (EventLog::AppendSeries).
  if (!policy_.journal) {
    EventRecord head{};
    Describe(EventKind::kEnqueued, static_cast<uint32_t>(first), &head);
    events_.AppendSeries(head, jobs.size());
    ChargeEvents();
  }
  // The batch is published whole first (so a refused job undoes nothing else), then its
  // overflow goes oldest first: the same jobs a drop-head per publish would dead-letter.
  DropHeadOverLimit();
  ExpireHeads();
  return Status::Ok();
}

Status QueueCore::CheckCounters(const char* call) const {
  constexpr auto kLimit = static_cast<uint64_t>(kMaxTimeMs - kCounterRoom);
  const uint64_t largest =
      std::max({step_, actions_, timer_seq_, quarantine_.arrivals(), static_cast<uint64_t>(quarantine_.expired()),
                static_cast<uint64_t>(ready_.tail_position()), static_cast<uint64_t>(-ready_.head_position())});
  if (largest <= kLimit) return Status::Ok();
  return Status::OutOfRange(std::string(call) + " refused: this queue's counters reached " + std::to_string(largest) +
                            ", within 2^48 of 2^53 - 1 (only a restored snapshot gets there); it takes no more calls");
}

uint32_t QueueCore::InternError(std::string_view text) {
  bool added = false;
  const uint32_t index = jobs_.InternError(text, &added);
  if (added) charge_.Add(cost::ErrorText(text.size()));  // room checked by the caller
  return index;
}

EventRecord& QueueCore::Record(EventKind kind, uint32_t job) {
  EventRecord& e = events_.AppendZeroed();
  // What the log took for the record before this one, packed now (room checked
  // by the caller); this one is charged when the next is appended.
  ChargeEvents();
  Describe(kind, job, &e);
  return e;
}

void QueueCore::Describe(EventKind kind, uint32_t job, EventRecord* out) const {
  EventRecord& e = *out;
  e.step = step_;
  e.action = actions_;
  e.time = now_;
  e.job = job;
  e.attempts = jobs_[job].attempts;
  e.max_attempts = budget_in_force_ != 0 ? budget_in_force_ : in_force_.decide.budget;
  e.kind = kind;
  e.outcome = Outcome::kSuccess;
  e.disposition = Disposition::kCompleted;
  e.reason = Reason::kNone;
}

Result<Attempt> QueueCore::Process(std::string_view outcome, std::string_view error_text) {
  Outcome parsed = Outcome::kSuccess;
  RETURN_IF_ERROR(checks::OutcomeName(outcome, &parsed));
  return Process(parsed, error_text);
}

Result<Attempt> QueueCore::Process(Outcome outcome, std::string_view error_text) {
  RETURN_IF_ERROR(checks::ErrorText(error_text));
  RETURN_IF_ERROR(CheckCounters("process"));
  RETURN_IF_ERROR(CheckRoom(WithExpiry(WithTrim(AttemptNeed(1, error_text))), "process"));
  return ProcessChecked(outcome, error_text);
}

int64_t QueueCore::NextEligible() const {
  if (ready_.empty()) return -1;
  switch (in_force_.ordering) {
    case Ordering::kNone: return 0;
    case Ordering::kStall:  // one partition: a leased or waiting head blocks the rest
      // (a job waiting in the retry queue has left the partition: it holds nothing)
      return leases_.empty() && (delayed_.empty() || policy_.delay_at == DelayAt::kRetryQueue) ? 0 : -1;
    case Ordering::kKey: return keys_.FirstFree(ready_, jobs_);
  }
  return -1;
}

void QueueCore::ReturnToReady(uint32_t index, bool returned) {
  jobs_[index].place = Place::kReady;
  // A RabbitMQ quorum queue puts a message returned at once back near the head.
  // Back from a delay: a sleeping worker retries its job next (the head); the retry
  // queue's scheduler publishes a new message (the tail, even in a stalled partition).
  const bool from_retry_queue = !returned && policy_.delay_at == DelayAt::kRetryQueue;
  const bool from_sleep = !returned && policy_.delay_at == DelayAt::kConsumerSleep;
  if ((in_force_.ordering == Ordering::kStall && !from_retry_queue) || from_sleep ||
      (returned && in_force_.return_to != ReturnPlace::kTail)) {
    jobs_[index].ready_pos = ready_.PushFront(index);  // the head retries in place
  } else {
    jobs_[index].ready_pos = ready_.PushBack(index);
  }
}

uint32_t QueueCore::StartAttempt(size_t pos) {
  const uint32_t index = ready_.Take(pos);
  ++step_;
  StoredJob& job = jobs_[index];
  job.attempts += 1;  // count first, decide second
  if (job.attempts == 1) job.first_attempt_at = now_;
  return index;
}

Attempt QueueCore::Finish(uint32_t index, EventKind kind, Outcome outcome, std::optional<FailureClass> failure,
                          uint32_t error, uint32_t lease) {
  return Report(index, outcome, Apply(index, kind, outcome, failure, error, lease));
}

Attempt QueueCore::Report(uint32_t index, Outcome outcome, const Decision& d) const {
  Attempt result;
  result.processed = true;
  result.id.assign(jobs_[index].id());
  result.attempt = jobs_[index].attempts;
  result.outcome = outcome;
  result.disposition = d.disposition;
  result.reason = d.reason;
  if (d.disposition == Disposition::kDelayed) {
    result.due_at = Later(now_, d.delay_ms);
    result.delay_ms = result.due_at - now_;
  }
  return result;
}

uint32_t QueueCore::DelayRef(Decision* d, uint32_t lease) const {
  if (policy_.delay_at != DelayAt::kConsumerSleep) return policy_.delay_at == DelayAt::kRetryQueue ? 2 : 1;
  // Process() is a lease and its settle at one instant: its lease would end at now + leaseMs.
  const int64_t expiry = lease != 0 ? leases_[lease].expires_at : Later(now_, policy_.lease_ms);
  if (Later(now_, d->delay_ms) <= expiry) return 1;
  d->delay_ms = expiry - now_;  // > 0: a lease is settled before its expiry
  return 3;
}

void QueueCore::Complete(uint32_t index) {
  StoredJob& job = jobs_[index];
  job.place = Place::kCompleted;
  finished_.Complete(index);
  Record(EventKind::kCompleted, index);
  // (BullMQ trims the failed set only when a job fails: a completion trims the completed set.)
  if (job.key().empty() || !keys_.Complete(job.key(), index)) return;
  const size_t reorders = keys_.reorder_count();  // it overtook earlier jobs of its key
  charge_.Add(cost::Reorder(keys_.overtook(reorders - 1).size()));
  Record(EventKind::kReorder, index).ref = static_cast<uint32_t>(reorders);
}

void QueueCore::Park(uint32_t index, int64_t delay_ms, int64_t due_at, uint32_t delay_ref) {
  StoredJob& job = jobs_[index];
  job.place = Place::kDelayed;
  job.last_delay = static_cast<uint32_t>(delay_ms);  // at most kMaxSidekiqDelayMs
  job.due_at = due_at;
  job.timer = ++timer_seq_;
  delayed_.Add(job.due_at, job.timer, index);
  charge_.Add(cost::kTimer);
  EventRecord& delayed = Record(EventKind::kDelayed, index);
  delayed.until = job.due_at;
  delayed.ref = delay_ref;
}

Decision QueueCore::Apply(uint32_t index, EventKind kind, Outcome outcome, std::optional<FailureClass> failure,
                          uint32_t error, uint32_t lease) {
  StoredJob& job = jobs_[index];
  // Under bullmq a crash is a stall, counted on its own (saturating; the budget is far below).
  if (in_force_.decide.counts_stalls && failure == FailureClass::kCrash && job.stalls < UINT16_MAX) ++job.stalls;
  // Under a retry window (sidekiq's retry_for) the first failure's time is kept, and the window read from it.
  const int64_t since_first_failure = failure.has_value() ? records_.Failed(index, now_) : 0;
  Decision d = Decide(policy_, in_force_.decide, failure, job.attempts, job.last_delay, jitter_, job.stalls,
                      since_first_failure);
  // A dead letter with no dead-letter exchange is dropped (RabbitMQ: dlx.md).
  if (d.disposition == Disposition::kQuarantined && in_force_.dead_letter_drop != DropCause::kKept)
    d.disposition = Disposition::kDiscarded;
  if (d.uncounted) job.attempts -= 1;  // BullMQ's attemptsMade leaves a stall out
  if (const char* own = system().OwnError(d.reason)) error = InternError(own);  // BullMQ's failedReason
  budget_in_force_ = d.budget;  // every event of this decision carries the class's budget
  EventRecord& decided = Record(kind, index);
  decided.failure_class = failure.value_or(FailureClass::kTransient);
  decided.error = error;
  decided.lease = lease;
  decided.outcome = outcome;
  decided.disposition = d.disposition;
  decided.reason = d.reason;
  // Where the delay lives (policy.h, DelayAt): the events say so (ref 1 its worker,
  // 2 the retry queue, 3 its worker until the lease's expiry cuts the sleep short).
  uint32_t delay_ref = 0;
  if (d.disposition == Disposition::kDelayed && policy_.delay_at != DelayAt::kBroker) {
    delay_ref = DelayRef(&d, lease);
    decided.ref = delay_ref;
  }
  if (d.disposition == Disposition::kDiscarded) decided.ref = static_cast<uint32_t>(in_force_.dead_letter_drop);
  const int64_t due_at = Later(now_, d.delay_ms);
  decided.until = due_at;
  switch (d.disposition) {
    case Disposition::kCompleted: Complete(index); break;
    case Disposition::kRequeued: {
      job.last_delay = 0;
      ReturnToReady(index, true);
      // Under RabbitMQ's semantics the return went near the head: the events say so
      // (ref 1 a quorum queue's return, 2 a classic queue's, which keeps its place).
      const auto at_head = static_cast<uint32_t>(in_force_.return_to);
      decided.ref = at_head;
      Record(EventKind::kRequeued, index).ref = at_head;
      break;
    }
    case Disposition::kDelayed: Park(index, d.delay_ms, due_at, delay_ref); break;
    case Disposition::kQuarantined:
      job.reason = d.reason;
      job.last_error = error;
      job.failure_class = *failure;
      job.alert = d.alert;
      Quarantine(index);
      break;
    case Disposition::kDiscarded:
      job.reason = d.reason;
      job.last_error = error;
      job.failure_class = *failure;
      Discard(index);
      break;
  }
  budget_in_force_ = 0;
  return d;
}

void QueueCore::Quarantine(uint32_t index) {
  StoredJob& job = jobs_[index];
  job.place = Place::kQuarantined;
  job.quarantine_pos = quarantine_.Arrive(index, &job.arrival);
  job.quarantine_step = step_;
  job.arrived_at = now_;
  EventRecord& quarantined = Record(EventKind::kQuarantined, index);
  quarantined.reason = job.reason;
  // Under dlq_to_source every caller of Apply routes it straight back (RouteDeadLetterToSource): the event says so.
  quarantined.ref = policy_.dlq_to_source ? 1 : 0;
  if (job.alert) Record(EventKind::kAlert, index).failure_class = job.failure_class;
  charge_.Add(records_.DeadLettered(index, job.reason, now_));  // within the headroom every attempt leaves
  if (quarantine_.RetentionTimers()) {
    job.timer = ++timer_seq_;
    quarantine_.StartRetention(RetentionEndOf(index), job.timer, index);
    charge_.Add(cost::kTimer);
  }
  CheckAlarm(index);
  trim_due_ = quarantine_.Trims();  // after the move's writes (EmitMove)
}

void QueueCore::Discard(uint32_t index) { Discard(index, in_force_.dead_letter_drop); }

void QueueCore::Discard(uint32_t index, DropCause cause) {
  StoredJob& job = jobs_[index];
  job.place = Place::kDiscarded;
  job.arrived_at = now_;  // when it went (its row keeps it)
  finished_.Discard(index);
  charge_.Add(sizeof(uint32_t) + 64);
  EventRecord& discarded = Record(EventKind::kDiscarded, index);
  discarded.reason = job.reason;
  discarded.ref = static_cast<uint32_t>(cause);  // which setting dropped it
}

void QueueCore::DeadLetterHead(Reason reason) { DeadLetterReady(0, reason); }

void QueueCore::DeadLetterReady(size_t pos, Reason reason) {
  const uint32_t index = ready_.Take(pos);
  StoredJob& job = jobs_[index];
  const int64_t from = job.ready_pos;
  job.reason = reason;
  job.last_error = 0;                            // no worker said anything
  job.failure_class = FailureClass::kTransient;  // no failure: the class field's zero
  job.alert = false;
  const DropCause drop = reason == Reason::kExpired ? in_force_.expiry_drop : in_force_.dead_letter_drop;
  if (drop != DropCause::kKept) {
    Discard(index, drop);
  } else {
    Quarantine(index);
  }
  EmitMove(index, {durable::WriteOp::kRemoveReady, from});  // then a dlqMaxLength trim, if due
}

bool QueueCore::ExpiredAt(size_t pos) const {
  const int64_t ttl = in_force_.message_ttl_ms;
  return ttl != 0 && Later(records_.TtlFrom(ready_[pos]), ttl) <= now_;
}

int64_t QueueCore::NextReceivable(bool counted) {
  int64_t pos = NextEligible();
  if (!in_force_.expires_in_place) return pos;
  while (pos >= 0 && ExpiredAt(static_cast<size_t>(pos))) {
    if (!counted) ++actions_;  // the expiry is an action of its own before the attempt's
    counted = true;
    DeadLetterReady(static_cast<size_t>(pos), Reason::kExpired);
    pos = NextEligible();
  }
  return pos;
}

void QueueCore::ExpireReturned(uint32_t index) {
  if (!in_force_.expires_in_place || jobs_[index].place != Place::kReady || ready_.empty()) return;
  // A return goes to the tail or the head (ReturnToReady).
  const size_t pos = ready_[ready_.size() - 1] == index ? ready_.size() - 1 : 0;
  if (ready_[pos] == index && ExpiredAt(pos)) DeadLetterReady(pos, Reason::kExpired);
}

void QueueCore::DropHeadOverLimit() {
  if (policy_.max_length == 0) return;
  while (ready_.size() > static_cast<uint64_t>(policy_.max_length)) DeadLetterHead(Reason::kMaxLength);
}

std::optional<int64_t> QueueCore::HeadExpiry() const {
  const int64_t ttl = in_force_.message_ttl_ms;
  if (ttl == 0 || ready_.empty()) return std::nullopt;
  return Later(records_.TtlFrom(ready_[0]), ttl);
}

void QueueCore::ExpireHeads() {
  for (std::optional<int64_t> at = HeadExpiry(); at && *at <= now_; at = HeadExpiry()) DeadLetterHead(Reason::kExpired);
}

void QueueCore::TrimLazily() {
  if (!quarantine_.Trims()) return;
  // By age first (a lazy mode's retention), then the one keep-newest rule
  // (Policy::QuarantineKeepNewest): BullMQ 6.7.0's removeJobsByMaxCount, Sidekiq's
  // zremrangebyrank(0, -dead_max_jobs), a RabbitMQ DLQ's x-max-length drop-head.
  while (quarantine_.FrontAgedOut(now_, jobs_)) DropEntry(quarantine_.front());
  while (quarantine_.OverKeep()) DropEntry(quarantine_.front(), true);
}

void QueueCore::DropEntry(uint32_t index, bool trimmed) {
  StoredJob& job = jobs_[index];
  quarantine_.Drop(job.quarantine_pos);
  job.place = Place::kDropped;
  Record(EventKind::kEvidenceExpired, index).ref = trimmed ? 1 : 0;
  CheckAlarm(index);
  if (policy_.journal) {
    durable::Write w;
    w.op = durable::WriteOp::kRemoveQuarantine;
    w.position = static_cast<int64_t>(job.arrival);
    w.dropped = true;
    Emit(std::move(w), index);
  }
}

void QueueCore::CheckAlarm(uint32_t index) {
  if (!quarantine_.UpdateAlarm()) return;
  Record(quarantine_.alarm_raised() ? EventKind::kAlarmRaised : EventKind::kAlarmCleared, index).ref =
      static_cast<uint32_t>(quarantine_.size());
}

Attempt QueueCore::ProcessChecked(Outcome outcome, std::string_view error_text) {
  const int64_t pos = NextReceivable();
  if (pos < 0) return Attempt{};
  const uint32_t index = ready_[static_cast<size_t>(pos)];
  const Decision d = ProcessAt(static_cast<size_t>(pos), outcome, InternError(error_text));
  return Report(index, outcome, d);
}

Decision QueueCore::ProcessAt(size_t pos, Outcome outcome, uint32_t error) {
  ++actions_;
  const int64_t from = jobs_[ready_[pos]].ready_pos;
  const uint32_t index = StartAttempt(pos);
  const Decision d = Apply(index, EventKind::kAttempt, outcome, FailureOf(outcome), error, 0);
  // Each step below does nothing without its setting (a journal or a lazy trim due,
  // dlq_to_source, a TTL): asked here, lesson 1's attempt makes none of the three calls.
  if (policy_.journal || trim_due_) EmitMove(index, {durable::WriteOp::kRemoveReady, from});
  if (policy_.dlq_to_source) RouteDeadLetterToSource(index);
  if (in_force_.message_ttl_ms != 0) ExpireHeads();  // the next head, or this job back near it, may be past its TTL
  return d;
}

Result<uint64_t> QueueCore::ProcessMany(std::string_view outcomes, std::string_view error_text) {
  RETURN_IF_ERROR(checks::ErrorText(error_text));
  RETURN_IF_ERROR(checks::OutcomeLetters(outcomes));
  RETURN_IF_ERROR(CheckCounters("processMany"));
  RETURN_IF_ERROR(
      CheckRoom(WithExpiry(WithTrim(AttemptNeed(outcomes.size(), error_text), outcomes.size())), "processMany"));
  uint64_t made = 0;
  uint32_t error = 0;  // interned at the first attempt, as Process does
  for (const char c : outcomes) {
    const int64_t pos = NextReceivable();
    if (pos < 0) break;
    if (made == 0) error = InternError(error_text);
    constexpr size_t kAhead = 8;  // jobs outnumber the cache: start loading the one 8 places behind the head
    if (ready_.size() > pos + kAhead) jobs_.PrefetchJob(ready_[static_cast<size_t>(pos) + kAhead]);
    ProcessAt(static_cast<size_t>(pos),
              c == 's'   ? Outcome::kSuccess
              : c == 't' ? Outcome::kTransient
                         : Outcome::kPermanent,
              error);
    ++made;
  }
  return made;
}

Result<LeaseGrant> QueueCore::Lease() {
  if (NextEligible() < 0) return LeaseGrant{};
  RETURN_IF_ERROR(CheckCounters("lease"));
  RETURN_IF_ERROR(CheckRoom(WithExpiry({.events = 1, .leases = 1, .moves = 1}), "lease"));
  ++actions_;
  const int64_t pos = NextReceivable(true);  // past every expired one it would hand out (service-bus)
  if (pos < 0) return LeaseGrant{};
  const int64_t from = jobs_[ready_[static_cast<size_t>(pos)]].ready_pos;
  const uint32_t index = StartAttempt(static_cast<size_t>(pos));
  StoredJob& job = jobs_[index];
  const int64_t expires_at = Later(now_, policy_.lease_ms);
  const uint32_t lease = leases_.Grant(index, now_, expires_at, ++timer_seq_);
  charge_.Add(cost::kLease);
  job.place = Place::kLeased;
  job.lease = lease;
  EventRecord& e = Record(EventKind::kLeased, index);
  e.lease = lease;
  e.until = expires_at;
  EmitMove(index, {durable::WriteOp::kRemoveReady, from});
  ExpireHeads();  // the next head may be past its TTL

  LeaseGrant grant;
  grant.leased = true;
  grant.id = job.id();
  grant.payload = job.payload();
  grant.attempt = job.attempts;
  grant.token = LeaseTable::Token(lease);
  grant.leased_at = now_;
  grant.expires_at = expires_at;
  return grant;
}

Result<Attempt> QueueCore::Settle(std::string_view token, std::string_view outcome, std::string_view error_text) {
  Outcome parsed = Outcome::kSuccess;
  RETURN_IF_ERROR(checks::OutcomeName(outcome, &parsed));
  RETURN_IF_ERROR(checks::ErrorText(error_text));
  const Result<uint32_t> active = leases_.Active(token, jobs_);
  if (!active.ok()) return active.status();
  const uint32_t lease = active.value();
  RETURN_IF_ERROR(CheckCounters("settle"));
  RETURN_IF_ERROR(CheckRoom(WithExpiry(WithTrim(AttemptNeed(1, error_text))), "settle"));
  ++actions_;
  const uint32_t job = leases_[lease].job;
  leases_.End(lease, LeaseState::kSettled);
  jobs_[job].lease = 0;
  Attempt attempt = Finish(job, EventKind::kAttempt, parsed, FailureOf(parsed), InternError(error_text), lease);
  EmitMove(job, {durable::WriteOp::kEndLease, 0, lease, LeaseState::kSettled});
  RouteDeadLetterToSource(job);
  ExpireReturned(job);  // abandoned past its TTL: expired at once (service-bus)
  ExpireHeads();        // a return near the head keeps its TTL's start
  return attempt;
}

}  // namespace dlq
