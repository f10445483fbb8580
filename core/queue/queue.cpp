// Queue and QueueView: the facade and its reads, each call forwarded to the
// queue's state (internal/queue_core.h), which holds the rules.
#include "queue.h"

#include "queue_core.h"

namespace dlq {

namespace {

// A factory's queue core, boxed behind the facade.
template <typename Make>
Result<Queue> Boxed(Result<QueueCore>&& made, Make make) {
  if (!made.ok()) return made.status();
  return make(std::make_unique<QueueCore>(std::move(made.value())));
}

}  // namespace

Queue::Queue(std::unique_ptr<QueueCore> core) : core_(std::move(core)) {}
Queue::Queue(Queue&&) noexcept = default;
Queue& Queue::operator=(Queue&&) noexcept = default;
Queue::~Queue() = default;

Result<Queue> Queue::Create(const Policy& policy) {
  return Boxed(QueueCore::Create(policy), [](auto core) { return Queue(std::move(core)); });
}
Result<Queue> Queue::Clone() const {
  return Boxed(core_->Clone(), [](auto core) { return Queue(std::move(core)); });
}
Result<Queue> Queue::Restore(std::string_view snapshot) {
  return Boxed(QueueCore::Restore(snapshot), [](auto core) { return Queue(std::move(core)); });
}
Result<Recovery> Queue::Recover(std::optional<std::string_view> snapshot, const std::vector<std::string_view>& journal,
                                const RecoverOptions& options) {
  return QueueCore::Recover(snapshot, journal, options);
}
Result<std::vector<uint8_t>> Queue::CrashRanks(std::optional<std::string_view> snapshot,
                                               const std::vector<std::string_view>& journal) {
  return QueueCore::CrashRanks(snapshot, journal);
}

Status Queue::Enqueue(std::string_view id, std::string_view payload, std::string_view key) {
  return core_->Enqueue(id, payload, key);
}
Status Queue::EnqueueMany(const std::vector<JobRef>& jobs) { return core_->EnqueueMany(jobs); }
Result<Attempt> Queue::Process(std::string_view outcome, std::string_view error_text) {
  return core_->Process(outcome, error_text);
}
Result<Attempt> Queue::Process(Outcome outcome, std::string_view error_text) {
  return core_->Process(outcome, error_text);
}
Result<uint64_t> Queue::ProcessMany(std::string_view outcomes, std::string_view error_text) {
  return core_->ProcessMany(outcomes, error_text);
}
Result<LeaseGrant> Queue::Lease() { return core_->Lease(); }
Result<Attempt> Queue::Settle(std::string_view token, std::string_view outcome, std::string_view error_text) {
  return core_->Settle(token, outcome, error_text);
}
Status Queue::Advance(int64_t ms) { return core_->Advance(ms); }
Status Queue::Advance(double ms) { return core_->Advance(ms); }
std::optional<int64_t> Queue::AdvanceToNext() { return core_->AdvanceToNext(); }
bool Queue::Replay(std::string_view id) { return core_->Replay(id); }
Result<bool> Queue::ReplayKeepingAttempts(std::string_view id) { return core_->ReplayKeepingAttempts(id); }
Status Queue::Patch(std::string_view id, std::string_view payload) { return core_->Patch(id, payload); }
Result<uint64_t> Queue::ReleaseKey(std::string_view key) { return core_->ReleaseKey(key); }
Result<uint64_t> Queue::Redrive(int64_t max, const RedriveFilter& only) { return core_->Redrive(max, only); }
Result<uint64_t> Queue::Redrive(double max) { return core_->Redrive(max); }
Result<std::string> Queue::Snapshot() { return core_->Snapshot(); }

const Policy& Queue::policy() const { return core_->policy(); }
QueueStats Queue::stats() const { return core_->stats(); }
QueueView Queue::view() const { return QueueView(*core_); }

std::vector<JobView> QueueView::Ready(size_t from, size_t count) const { return core_->Ready(from, count); }
std::vector<JobView> QueueView::Completed(size_t from, size_t count) const { return core_->Completed(from, count); }
std::vector<QuarantineEntry> QueueView::Quarantined(size_t from, size_t count) const {
  return core_->Quarantined(from, count);
}
std::vector<DelayedView> QueueView::Delayed(size_t from, size_t count) const { return core_->Delayed(from, count); }
std::vector<LeaseView> QueueView::Leased(size_t from, size_t count) const { return core_->Leased(from, count); }
std::vector<DiscardedView> QueueView::Discarded(size_t from, size_t count) const {
  return core_->Discarded(from, count);
}
std::optional<JobLocation> QueueView::Locate(std::string_view id) const { return core_->Locate(id); }
bool QueueView::CanLease() const { return core_->CanLease(); }
std::optional<int64_t> QueueView::NextTimerAt() const { return core_->NextTimerAt(); }
AlarmView QueueView::alarm() const { return core_->alarm(); }
std::vector<ReorderView> QueueView::Reorders(size_t from, size_t count) const { return core_->Reorders(from, count); }
bool QueueView::WasPatched(std::string_view id) const { return core_->WasPatched(id); }
bool QueueView::CanReplayKeepingAttempts() const { return core_->CanReplayKeepingAttempts(); }
size_t QueueView::RedriveCount(const RedriveFilter& only) const { return core_->RedriveCount(only); }
size_t QueueView::event_count() const { return core_->event_count(); }
Event QueueView::EventAt(size_t index) const { return core_->EventAt(index); }
std::vector<Event> QueueView::Timeline(size_t from, size_t count) const { return core_->Timeline(from, count); }
std::string QueueView::TimelineText() const { return core_->TimelineText(); }
Result<std::string> QueueView::SnapshotText() const { return core_->SnapshotText(); }
Result<std::vector<JournalEntry>> QueueView::Journal() const { return core_->Journal(); }
size_t QueueView::journal_size() const { return core_->journal_size(); }

}  // namespace dlq
