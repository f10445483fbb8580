// Queue: the lesson's retry/quarantine policy applied to an in-memory job queue.
//
// Contract (lesson 1):
//  * Every job id is unique over everything the queue was ever given (ready,
//    completed or quarantined); a duplicate is refused.
//  * Process() validates the outcome first, then takes the head of the ready
//    queue, counts the attempt, and only then decides:
//      success                          -> completed
//      permanent                        -> quarantine at once, reason "permanent"
//      transient, attempts < maximum    -> the ready tail
//      transient, attempts == maximum   -> quarantine, reason "exhausted"
//  * Nothing leaves quarantine except through Replay(id), an operator's explicit
//    decision that resets the job's attempts to 0 and appends it at the ready tail.
//  * Views are copies. Every change appends events to the timeline; a refused call
//    changes nothing and appends nothing.
//
// A step is one accepted Process() that took a job or one accepted Replay().
// Enqueueing is not a step: its event carries the current step (0 before the first).
//
// Deterministic: no clock, no randomness, no dependence on hash iteration order.
#pragma once

#include <cstdint>
#include <deque>
#include <list>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "event.h"
#include "policy.h"
#include "status.h"

namespace dlq {

struct JobView {
  std::string id;
  std::string payload;
  uint32_t attempts = 0;
};

struct QuarantineEntry {
  std::string id;
  std::string payload;
  uint32_t attempts = 0;
  Reason reason = Reason::kNone;
  std::string last_error;  // the worker's error text on the final attempt
  uint64_t step = 0;       // the step at which it arrived
};

// Size limits per string, so that no single call can exhaust memory (the
// WebAssembly heap is capped at 2 GB). Beyond them a call is refused with
// TooLarge and nothing changes.
constexpr size_t kMaxIdBytes = 1024;
constexpr size_t kMaxPayloadBytes = size_t{16} << 20;   // 16 MiB
constexpr size_t kMaxErrorTextBytes = size_t{64} << 10;  // 64 KiB

// What one Process() call did.
struct Attempt {
  bool processed = false;  // false: nothing was ready, nothing changed
  std::string id;
  uint32_t attempt = 0;  // this attempt's number, 1-based
  Outcome outcome = Outcome::kSuccess;
  Disposition disposition = Disposition::kCompleted;
  Reason reason = Reason::kNone;  // set when disposition is kQuarantined
};

// A job to enqueue, owning its strings (scenarios keep these).
struct JobSpec {
  std::string id;
  std::string payload;
};

// A job to enqueue, viewing strings the caller keeps alive for the call.
struct JobRef {
  std::string_view id;
  std::string_view payload;
};

class Queue {
 public:
  // OutOfRange if policy.max_attempts is not within [1, 1000000].
  static Result<Queue> Create(const Policy& policy);

  // A moved-from queue may only be assigned to or destroyed.
  Queue(Queue&&) noexcept = default;
  Queue& operator=(Queue&&) noexcept = default;
  Queue(const Queue&) = delete;  // a queue is an identity; copy its views instead
  Queue& operator=(const Queue&) = delete;

  // Appends a job at the ready tail. InvalidArgument for an empty id,
  // AlreadyExists for an id this queue was ever given, TooLarge past the limits
  // above. The payload is kept byte for byte (NUL and non-UTF-8 included).
  Status Enqueue(std::string_view id, std::string_view payload);

  // All or nothing: either every job is appended in order, or (an empty id, an id
  // already given, a duplicate inside the batch, a string past its limit) none is
  // and the Status names the first offending job by its index.
  Status EnqueueMany(const std::vector<JobRef>& jobs);

  // One attempt at the head job with the worker's outcome. An invalid outcome
  // string is refused (InvalidArgument) even when nothing is ready, and so is an
  // error text past kMaxErrorTextBytes (TooLarge). With nothing ready the result
  // has processed == false and nothing changes.
  Result<Attempt> Process(std::string_view outcome, std::string_view error_text = {});
  Result<Attempt> Process(Outcome outcome, std::string_view error_text = {});

  // Runs one attempt per character of `outcomes` ('s' success, 't' transient,
  // 'p' permanent), stopping early when nothing is ready. Every character is
  // validated before anything moves. Returns the number of attempts made.
  Result<uint64_t> ProcessMany(std::string_view outcomes, std::string_view error_text = {});

  // Moves the quarantined job `id` back to the ready tail with attempts reset to 0
  // and the reason cleared. False (and nothing changes) if `id` is not in quarantine.
  bool Replay(std::string_view id);

  // Copies, in order: ready head first; completed and quarantine in arrival order.
  // `from` and `count` select a slice (a viewer showing the first 100 of 1,000,000
  // copies 100); out-of-range values give a shorter or empty slice.
  std::vector<JobView> Ready(size_t from = 0, size_t count = SIZE_MAX) const;
  std::vector<JobView> Completed(size_t from = 0, size_t count = SIZE_MAX) const;
  std::vector<QuarantineEntry> Quarantined(size_t from = 0, size_t count = SIZE_MAX) const;

  size_t ready_size() const { return ready_.size(); }
  size_t completed_size() const { return completed_.size(); }
  size_t quarantine_size() const { return quarantine_.size(); }
  uint64_t step() const { return step_; }
  const Policy& policy() const { return policy_; }

  // The timeline. Events are numbered 1..event_count(); Timeline(from, count)
  // copies up to `count` events starting at index `from` (0-based), so a viewer
  // can fetch only what is new.
  size_t event_count() const { return events_.size(); }
  Event EventAt(size_t index) const;  // precondition: index < event_count()
  std::vector<Event> Timeline(size_t from = 0, size_t count = SIZE_MAX) const;
  // Every event rendered with RenderEvent(), one per line, each ending in "\n".
  std::string TimelineText() const;

 private:
  enum class Where : uint8_t { kReady, kCompleted, kQuarantined };
  using QuarantineList = std::list<uint32_t>;

  struct Job {
    std::string id;
    std::string payload;
    uint32_t attempts = 0;
    Where where = Where::kReady;
    Reason reason = Reason::kNone;
    uint32_t last_error = 0;  // index into error_texts_
    uint64_t quarantine_step = 0;
    QuarantineList::iterator quarantine_pos;
  };

  // Compact event record: the timeline may hold millions of them.
  struct RawEvent {
    uint64_t step;
    uint32_t job;
    uint32_t attempts;
    uint32_t error;  // index into error_texts_
    EventKind kind;
    Outcome outcome;
    Disposition disposition;
    Reason reason;
  };

  explicit Queue(const Policy& policy);
  void Append(std::string_view id, std::string_view payload);
  uint32_t InternError(std::string_view text);  // 0 for "", else 1 + its place in error_texts_
  std::string_view ErrorText(uint32_t index) const;
  void Record(EventKind kind, uint32_t job, uint32_t error = 0, Outcome outcome = Outcome::kSuccess,
              Disposition disposition = Disposition::kCompleted, Reason reason = Reason::kNone);
  // `argument` names the id in messages: "id", or "jobs" with `index` for jobs[index].id.
  Status CheckNewId(std::string_view id, const char* argument, size_t index = SIZE_MAX) const;
  static Status CheckPayload(std::string_view payload, const char* argument, size_t index = SIZE_MAX);
  static Status CheckErrorText(std::string_view error_text);
  Attempt ProcessChecked(Outcome outcome, std::string_view error_text);
  // Copies of jobs_[indexes[k]] for k in the slice [from, from + count).
  template <typename Indexes>
  std::vector<JobView> JobViews(const Indexes& indexes, size_t from, size_t count) const;

  Policy policy_;
  uint64_t step_ = 0;
  std::deque<Job> jobs_;  // every job ever given; a deque keeps addresses stable
  std::unordered_map<std::string_view, uint32_t> index_;  // id -> jobs_ index; views into jobs_
  std::deque<uint32_t> ready_;
  std::vector<uint32_t> completed_;
  QuarantineList quarantine_;
  std::deque<std::string> error_texts_;  // distinct non-empty error texts
  std::unordered_map<std::string_view, uint32_t> error_index_;  // views into error_texts_
  std::vector<RawEvent> events_;
};

}  // namespace dlq
