// libFuzzer harness: random operation sequences on one dlq::Queue (core/queue.h),
// with the queue's invariants checked after every operation.
//
// How the bytes decode (deterministic; reading past the end gives 0 bytes):
//
//   byte 0    the policy. b < 0xF8: maxAttempts = 1 + b % 8. b >= 0xF8: an edge
//             value, kEdgeAttempts[b - 0xF8] (0, -1, 1000001, INT64_MIN, INT64_MAX:
//             Create must refuse them with OutOfRange, and the run goes on with
//             maxAttempts 3; 1000000, 1, 2 are accepted).
//   then operations until the input runs out, each an opcode byte (b % 11) and
//   its operands:
//     0, 1  Enqueue(id, payload)                    id: STRING, payload: STRING
//     2, 3  Process(outcome text, error)            OUTCOME, error: STRING
//     4     Process(Outcome enum b % 3, error)      1 byte, error: STRING
//     5     ProcessMany(letters, error)             n = b % 17, n LETTERs, error: STRING
//     6, 7  Replay(id)                              TARGET
//     8     EnqueueMany(n = b % 9 jobs)             n × (id: STRING, payload: STRING)
//     9     views with slices                       from: SLICE, count: SLICE
//     10    move the queue out and back in          nothing
//
//   STRING   one selector byte s:
//            s < 0xC0   a pooled name: "j"/"p"/"e" (id/payload/error) + (s % 24),
//                       so ids collide often
//            0xC0–0xEF  raw: a length byte n, then n bytes as they are (NUL and
//                       non-UTF-8 included; fewer if the input ends)
//            0xF0–0xF7  "" (an empty id is refused)
//            0xF8–0xFB  at the limit: ids 1 KiB, error texts 64 KiB of one letter
//                       ('a' + s % 4); payloads 64 KiB (a 16 MiB payload would make
//                       every view copy 16 MiB)
//            0xFC–0xFF  one byte past the limit (refused with TooLarge)
//   OUTCOME  one byte o, by o % 6: "success", "transient", "permanent", "transient",
//            an invalid text kBadOutcomes[o / 6 % 8], or a raw STRING (raw bytes)
//   LETTER   one byte c: c < 0xF8: "stpt"[c % 4]; else an invalid letter
//   TARGET   one byte t, by t % 4: 0, 1: a quarantined id (index: next byte; when
//            quarantine is empty, a STRING instead); 2: an id ever given (index: next
//            byte); 3: an id STRING
//   SLICE    one byte b: b < 0xF0: b % 16; else kBigSlices[b % 8] (SIZE_MAX, …)
//
// After every operation, against a snapshot taken before it:
//  * every job ever accepted is in exactly one place (ready, completed or
//    quarantine), the views' sizes match the counts, and no other id is anywhere;
//  * a refused call (a non-OK Status with a known code and a non-empty message,
//    or Replay's false, or a Process with nothing ready) changes nothing: the views,
//    the step and the event count are as before;
//  * attempts never exceed maxAttempts (ready jobs stay below it, an exhausted job
//    is at it), completed jobs never leave, quarantine entries leave only through an
//    accepted Replay, and a replayed job is at the ready tail with attempts 0;
//  * the event count only grows, and the new events are exactly the ones the
//    operation implies (a small reference model below predicts the new state and
//    events from the snapshot); they render to one UTF-8 line and explain;
//  * where the core has a heap budget: a refused call charges nothing, and a
//    destroyed queue gives back all it charged.
// At the end every event is still what it was when appended, and TimelineText()
// is the lines rendered then (when no error text was too long to render).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "fuzz_check.h"

using namespace dlq;
using dlq::fuzz::CheckRefusal;
using dlq::fuzz::HeapUsed;
using dlq::fuzz::Show;

namespace {

constexpr int64_t kEdgeAttempts[8] = {0, -1, 1'000'001, std::numeric_limits<int64_t>::min(),
                                      std::numeric_limits<int64_t>::max(), 1'000'000, 1, 2};
constexpr size_t kBigSlices[8] = {SIZE_MAX, SIZE_MAX - 1, size_t{1} << 31, size_t{1} << 32,
                                  16, 17, 1000, std::numeric_limits<size_t>::max() / 2};
const std::string_view kBadOutcomes[8] = {"", "Success", "succes", "transient ", std::string_view("permanent\0", 10),
                                          "s", "TRANSIENT", "permanently"};
constexpr std::string_view kBadLetters("xS T\0P%\xff", 8);

enum class Kind { kId, kPayload, kError };

// DLQ_FUZZ_TRACE=1 prints each decoded operation and the queue after it (for
// reading a crash input: ./queue_fuzz crash-…).
const bool kTrace = std::getenv("DLQ_FUZZ_TRACE") != nullptr;

// Events with longer error texts are checked field by field but not rendered.
constexpr size_t kRenderedErrorBytes = 1024;

// One run of the decoder over the input; strings it makes live as long as it does.
class Decoder {
 public:
  Decoder(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  bool done() const { return pos_ >= size_; }
  uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }

  std::string_view String(Kind kind) {
    const uint8_t s = Byte();
    if (s < 0xC0) {
      const char* prefix = kind == Kind::kId ? "j" : kind == Kind::kPayload ? "p" : "e";
      return Keep(prefix + std::to_string(s % 24));
    }
    if (s < 0xF0) return Raw();
    if (s < 0xF8) return {};
    if (s < 0xFC) {
      const size_t length = kind == Kind::kId ? kMaxIdBytes : kMaxErrorTextBytes;
      return Keep(std::string(length, static_cast<char>('a' + s % 4)));
    }
    return PastLimit(kind);
  }

  std::string_view Raw() {
    const size_t n = Byte();
    const size_t take = n < size_ - pos_ ? n : size_ - pos_;
    const auto* begin = reinterpret_cast<const char*>(data_ + pos_);
    pos_ += take;
    return {begin, take};
  }

  size_t Slice() {
    const uint8_t b = Byte();
    return b < 0xF0 ? b % 16 : kBigSlices[b % 8];
  }

 private:
  std::string_view Keep(std::string s) { return kept_.emplace_back(std::move(s)); }

  static std::string_view PastLimit(Kind kind) {
    static const std::string id(kMaxIdBytes + 1, 'i');
    static const std::string payload(kMaxPayloadBytes + 1, 'p');
    static const std::string error(kMaxErrorTextBytes + 1, 'e');
    return kind == Kind::kId ? id : kind == Kind::kPayload ? payload : error;
  }

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  std::deque<std::string> kept_;
};

// What the views show, plus the counters.
struct State {
  std::vector<JobView> ready, completed;
  std::vector<QuarantineEntry> quarantine;
  uint64_t step = 0;
  size_t events = 0;
  size_t heap = 0;  // HeapUsed(); not part of Same()
};

bool Same(const JobView& a, const JobView& b) {
  return a.id == b.id && a.payload == b.payload && a.attempts == b.attempts;
}
bool Same(const QuarantineEntry& a, const QuarantineEntry& b) {
  return a.id == b.id && a.payload == b.payload && a.attempts == b.attempts && a.reason == b.reason &&
         a.last_error == b.last_error && a.step == b.step;
}
template <typename T>
bool Same(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!Same(a[i], b[i])) return false;
  }
  return true;
}
bool Same(const State& a, const State& b) {
  return a.step == b.step && a.events == b.events && Same(a.ready, b.ready) && Same(a.completed, b.completed) &&
         Same(a.quarantine, b.quarantine);
}
// Whether `prefix` is the start of `all`.
template <typename T>
bool StartsWith(const std::vector<T>& all, const std::vector<T>& prefix) {
  if (prefix.size() > all.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (!Same(all[i], prefix[i])) return false;
  }
  return true;
}

// An event the model expects (the fields that matter for its kind).
struct Expected {
  EventKind kind = EventKind::kEnqueued;
  std::string id;
  uint32_t attempts = 0;
  uint64_t step = 0;
  Outcome outcome = Outcome::kSuccess;
  Disposition disposition = Disposition::kCompleted;
  Reason reason = Reason::kNone;
  std::string error;
  uint64_t payload_bytes = 0;
};

// The reference model: the lesson's rules applied to a State, straight from queue.h.
struct Model {
  uint32_t max_attempts;
  std::vector<Expected> events;  // expected since the last Take()

  void Enqueue(State& s, std::string_view id, std::string_view payload) {
    s.ready.push_back({std::string(id), std::string(payload), 0});
    events.push_back({.kind = EventKind::kEnqueued, .id = std::string(id), .step = s.step, .payload_bytes = payload.size()});
    s.events += 1;
  }

  // One attempt at the head; false if nothing is ready.
  bool Process(State& s, Outcome outcome, std::string_view error, Attempt* attempt = nullptr) {
    if (s.ready.empty()) return false;
    JobView job = s.ready.front();
    s.ready.erase(s.ready.begin());
    ++s.step;
    job.attempts += 1;
    Disposition disposition = Disposition::kCompleted;
    Reason reason = Reason::kNone;
    if (outcome == Outcome::kPermanent) {
      disposition = Disposition::kQuarantined, reason = Reason::kPermanent;
    } else if (outcome == Outcome::kTransient) {
      if (job.attempts < max_attempts) disposition = Disposition::kRequeued;
      else disposition = Disposition::kQuarantined, reason = Reason::kExhausted;
    }
    events.push_back({.kind = EventKind::kAttempt, .id = job.id, .attempts = job.attempts, .step = s.step,
                      .outcome = outcome, .disposition = disposition, .reason = reason, .error = std::string(error)});
    if (disposition == Disposition::kCompleted) {
      s.completed.push_back(job);
      events.push_back({.kind = EventKind::kCompleted, .id = job.id, .attempts = job.attempts, .step = s.step});
    } else if (disposition == Disposition::kRequeued) {
      s.ready.push_back(job);
      events.push_back({.kind = EventKind::kRequeued, .id = job.id, .attempts = job.attempts, .step = s.step});
    } else {
      s.quarantine.push_back({job.id, job.payload, job.attempts, reason, std::string(error), s.step});
      events.push_back(
          {.kind = EventKind::kQuarantined, .id = job.id, .attempts = job.attempts, .step = s.step, .reason = reason});
    }
    s.events += 2;
    if (attempt != nullptr) {
      attempt->processed = true;
      attempt->id = job.id;
      attempt->attempt = job.attempts;
      attempt->outcome = outcome;
      attempt->disposition = disposition;
      attempt->reason = reason;
    }
    return true;
  }

  // False if `id` is not in quarantine.
  bool Replay(State& s, std::string_view id) {
    for (size_t i = 0; i < s.quarantine.size(); ++i) {
      if (s.quarantine[i].id != id) continue;
      const QuarantineEntry entry = s.quarantine[i];
      s.quarantine.erase(s.quarantine.begin() + static_cast<std::ptrdiff_t>(i));
      ++s.step;
      events.push_back({.kind = EventKind::kReplayed, .id = entry.id, .attempts = entry.attempts, .step = s.step,
                        .payload_bytes = entry.payload.size()});
      s.events += 1;
      s.ready.push_back({entry.id, entry.payload, 0});
      return true;
    }
    return false;
  }
};

class Harness {
 public:
  Harness(Queue queue, std::string_view input) : queue_(std::move(queue)), input_(input) {
    model_.max_attempts = static_cast<uint32_t>(queue_->policy().max_attempts);
    state_ = Take();
  }

  void Enqueue(std::string_view id, std::string_view payload) {
    State expected = state_;
    const bool valid = !id.empty() && id.size() <= kMaxIdBytes && given_.count(std::string(id)) == 0 &&
                       payload.size() <= kMaxPayloadBytes;
    const Status s = queue_->Enqueue(id, payload);
    if (!valid) {
      CheckRefusal(s, "Enqueue", input_);
      const Code code = s.code();
      FUZZ_CHECK((id.empty() && code == Code::kInvalidArgument) ||
                     ((id.size() > kMaxIdBytes || payload.size() > kMaxPayloadBytes) && code == Code::kTooLarge) ||
                     (given_.count(std::string(id)) != 0 && code == Code::kAlreadyExists),
                 s.ToString());
      return Unchanged("Enqueue");
    }
    FUZZ_CHECK(s.ok(), "Enqueue(" + Show(id) + ") refused: " + s.ToString());
    Give(id);
    model_.Enqueue(expected, id, payload);
    After("Enqueue", expected);
  }

  void EnqueueMany(const std::vector<JobRef>& jobs) {
    // The first offending job, as the model sees it.
    size_t bad = SIZE_MAX;
    std::set<std::string> batch;
    for (size_t i = 0; i < jobs.size() && bad == SIZE_MAX; ++i) {
      const std::string id(jobs[i].id);
      if (id.empty() || id.size() > kMaxIdBytes || jobs[i].payload.size() > kMaxPayloadBytes ||
          given_.count(id) != 0 || !batch.insert(id).second) {
        bad = i;
      }
    }
    const Status s = queue_->EnqueueMany(jobs);
    if (bad != SIZE_MAX) {
      CheckRefusal(s, "EnqueueMany", input_);
      const std::string names = "jobs[" + std::to_string(bad) + "]";
      FUZZ_CHECK(s.message().find(names) != std::string::npos, "expected a message naming " + names + ": " + s.ToString());
      return Unchanged("EnqueueMany");
    }
    FUZZ_CHECK(s.ok(), "EnqueueMany refused: " + s.ToString());
    State expected = state_;
    for (const JobRef& job : jobs) {
      Give(job.id);
      model_.Enqueue(expected, job.id, job.payload);
    }
    After("EnqueueMany", expected);
  }

  void Process(std::string_view outcome, std::string_view error) {
    const Result<Outcome> parsed = ParseOutcome(outcome);
    const bool valid = outcome == "success" || outcome == "transient" || outcome == "permanent";
    FUZZ_CHECK(parsed.ok() == valid, Show(outcome));
    Result<Attempt> attempt = queue_->Process(outcome, error);
    if (!valid) {  // the outcome is validated first: InvalidArgument, or TooLarge for a long text
      CheckRefusal(attempt.status(), "Process", input_);
      const Code code = attempt.status().code();
      FUZZ_CHECK(code == Code::kInvalidArgument || (code == Code::kTooLarge && outcome.size() > 9),
                 attempt.status().ToString());
      return Unchanged("Process");
    }
    CheckAttempt(parsed.value(), error, attempt);
  }

  void Process(Outcome outcome, std::string_view error) {
    CheckAttempt(outcome, error, queue_->Process(outcome, error));
  }

  void ProcessMany(std::string_view letters, std::string_view error) {
    const bool valid = letters.find_first_not_of("stp") == std::string_view::npos;
    Result<uint64_t> made = queue_->ProcessMany(letters, error);
    const bool too_large = error.size() > kMaxErrorTextBytes;
    if (!valid || too_large) {  // with both wrong, either refusal will do
      CheckRefusal(made.status(), "ProcessMany", input_);
      const Code code = made.status().code();
      FUZZ_CHECK((!valid && code == Code::kInvalidArgument) || (too_large && code == Code::kTooLarge),
                 made.status().ToString());
      return Unchanged("ProcessMany");
    }
    FUZZ_CHECK(made.ok(), "ProcessMany(" + Show(letters) + ") refused: " + made.status().ToString());
    State expected = state_;
    uint64_t count = 0;
    for (const char c : letters) {
      const Outcome o = c == 's' ? Outcome::kSuccess : c == 't' ? Outcome::kTransient : Outcome::kPermanent;
      if (!model_.Process(expected, o, error)) break;
      ++count;
    }
    FUZZ_CHECK(made.value() == count, "ProcessMany(" + Show(letters) + ") made " + std::to_string(made.value()) +
                                          " attempts, expected " + std::to_string(count));
    After("ProcessMany", expected);
  }

  void Replay(std::string_view id) {
    State expected = state_;
    const bool valid = model_.Replay(expected, id);
    const bool replayed = queue_->Replay(id);
    FUZZ_CHECK(replayed == valid, "Replay(" + Show(id) + ") gave " + (replayed ? "true" : "false"));
    if (!replayed) return Unchanged("Replay");
    After("Replay", expected);
    FUZZ_CHECK(!state_.ready.empty() && state_.ready.back().id == id && state_.ready.back().attempts == 0,
               "a replayed job is at the ready tail with attempts 0");
  }

  void Views(size_t from, size_t count) {
    const Queue& q = *queue_;
    const auto slice = [&](const auto& all) {
      using T = typename std::decay_t<decltype(all)>::value_type;
      const size_t begin = std::min(from, all.size());
      const size_t end = begin + std::min(count, all.size() - begin);
      return std::vector<T>(all.begin() + static_cast<std::ptrdiff_t>(begin),
                            all.begin() + static_cast<std::ptrdiff_t>(end));
    };
    const std::string what = "slice from " + std::to_string(from) + " count " + std::to_string(count);
    FUZZ_CHECK(Same(q.Ready(from, count), slice(state_.ready)), "Ready " + what);
    FUZZ_CHECK(Same(q.Completed(from, count), slice(state_.completed)), "Completed " + what);
    FUZZ_CHECK(Same(q.Quarantined(from, count), slice(state_.quarantine)), "Quarantined " + what);
    const std::vector<Event> events = q.Timeline(from, count);
    const size_t begin = std::min(from, q.event_count());
    FUZZ_CHECK(events.size() == std::min(count, q.event_count() - begin), "Timeline " + what);
    for (size_t i = 0; i < events.size(); ++i) FUZZ_CHECK(Matches(events[i], begin + i, events_[begin + i]), "Timeline " + what);
    Unchanged("views");
  }

  void Move() {
    Queue moved = std::move(*queue_);
    queue_.reset();  // a moved-from queue may be destroyed
    queue_.emplace(std::move(moved));
    Unchanged("move");
  }

  // Earlier events never change: the timeline is every line as it was first seen.
  void Finish() const {
    FUZZ_CHECK(queue_->event_count() == events_.size(), "event count");
    for (size_t i = 0; i < events_.size(); ++i) {
      FUZZ_CHECK(Matches(queue_->EventAt(i), i, events_[i]), "event " + std::to_string(i + 1) + " changed");
    }
    if (rendered_all_) {
      FUZZ_CHECK(queue_->TimelineText() == timeline_, "TimelineText differs from the events as they were appended");
    }
  }

  const std::vector<QuarantineEntry>& quarantine() const { return state_.quarantine; }
  // "ready 2 completed 1 quarantine 0 step 3 events 8", for tracing.
  std::string Summary() const {
    return "ready " + std::to_string(state_.ready.size()) + " completed " + std::to_string(state_.completed.size()) +
           " quarantine " + std::to_string(state_.quarantine.size()) + " step " + std::to_string(state_.step) +
           " events " + std::to_string(state_.events);
  }
  const std::vector<std::string>& given() const { return given_order_; }

 private:
  void Give(std::string_view id) {
    given_.emplace(id);
    given_order_.emplace_back(id);
  }

  // The views, with the counts checked against them.
  State Take() const {
    const Queue& q = *queue_;
    State s{q.Ready(), q.Completed(), q.Quarantined(), q.step(), q.event_count(), HeapUsed()};
    FUZZ_CHECK(s.ready.size() == q.ready_size() && s.completed.size() == q.completed_size() &&
                   s.quarantine.size() == q.quarantine_size(),
               "a view's size differs from its count");
    return s;
  }

  void CheckAttempt(Outcome outcome, std::string_view error, const Result<Attempt>& attempt) {
    if (error.size() > kMaxErrorTextBytes) {
      CheckRefusal(attempt.status(), "Process", input_);
      FUZZ_CHECK(attempt.status().code() == Code::kTooLarge, attempt.status().ToString());
      return Unchanged("Process");
    }
    FUZZ_CHECK(attempt.ok(), "Process refused: " + attempt.status().ToString());
    State expected = state_;
    Attempt predicted;
    model_.Process(expected, outcome, error, &predicted);
    const Attempt& a = attempt.value();
    FUZZ_CHECK(a.processed == predicted.processed, "Process: processed differs");
    if (!a.processed) return Unchanged("Process with nothing ready");
    FUZZ_CHECK(a.id == predicted.id && a.attempt == predicted.attempt && a.outcome == predicted.outcome &&
                   a.disposition == predicted.disposition && a.reason == predicted.reason,
               "Process(" + std::string(OutcomeName(outcome)) + ") on " + Show(predicted.id) + " attempt " +
                   std::to_string(predicted.attempt) + ": got " + DispositionName(a.disposition) + " " +
                   ReasonName(a.reason));
    After("Process", expected);
  }

  // A refused call: nothing changed.
  void Unchanged(const char* call) {
    const State now = Take();
    FUZZ_CHECK(Same(now, state_), std::string(call) + " changed the queue when it should not have");
    FUZZ_CHECK(now.heap == state_.heap, std::string(call) + " changed the heap budget's use when it should not have");
    model_.events.clear();
  }

  // An accepted call: the queue matches the model's prediction, and the invariants hold.
  void After(const char* call, const State& expected) {
    const State before = std::move(state_);
    state_ = Take();
    const State& now = state_;
    const std::string where = call;

    // Every job is in exactly one place, and only jobs ever accepted are anywhere.
    std::set<std::string> seen;
    for (const auto& j : now.ready) FUZZ_CHECK(seen.insert(j.id).second, where + ": " + Show(j.id) + " twice");
    for (const auto& j : now.completed) FUZZ_CHECK(seen.insert(j.id).second, where + ": " + Show(j.id) + " twice");
    for (const auto& e : now.quarantine) FUZZ_CHECK(seen.insert(e.id).second, where + ": " + Show(e.id) + " twice");
    FUZZ_CHECK(seen == given_, where + ": the views hold other jobs than those accepted");

    // Attempts within the budget.
    const uint32_t max = model_.max_attempts;
    for (const auto& j : now.ready) FUZZ_CHECK(j.attempts < max, where);
    for (const auto& j : now.completed) FUZZ_CHECK(j.attempts >= 1 && j.attempts <= max, where);
    for (const auto& e : now.quarantine) {
      FUZZ_CHECK(e.attempts >= 1 && e.attempts <= max, where);
      FUZZ_CHECK(e.reason == Reason::kPermanent || (e.reason == Reason::kExhausted && e.attempts == max), where);
      FUZZ_CHECK(e.step >= 1 && e.step <= now.step, where);
    }

    // Completed jobs never leave; quarantine entries leave only through Replay, one at a time.
    FUZZ_CHECK(StartsWith(now.completed, before.completed), where + ": a completed job left");
    size_t left = 0;
    for (const auto& old : before.quarantine) {
      bool still = false;
      for (const auto& e : now.quarantine) still = still || Same(e, old);
      if (!still) ++left;
    }
    FUZZ_CHECK(left == 0 || (std::string_view(call) == "Replay" && left == 1), where + ": a quarantine entry left");

    // The step and the timeline only grow.
    FUZZ_CHECK(now.step >= before.step && now.events >= before.events, where);

    // And the whole state and the new events are what the model says.
    FUZZ_CHECK(Same(now, expected), where + ": the queue differs from the model");
    FUZZ_CHECK(model_.events.size() == now.events - before.events, where);
    for (size_t i = 0; i < model_.events.size(); ++i) CheckEvent(before.events + i, model_.events[i], where);
    model_.events.clear();
  }

  bool Matches(const Event& e, size_t index, const Expected& x) const {
    if (e.seq != index + 1 || e.kind != x.kind || e.id != x.id || e.attempts != x.attempts || e.step != x.step ||
        e.max_attempts != model_.max_attempts) {
      return false;
    }
    switch (e.kind) {
      case EventKind::kAttempt:
        return e.outcome == x.outcome && e.disposition == x.disposition && e.reason == x.reason && e.error == x.error;
      case EventKind::kQuarantined:
        return e.reason == x.reason;
      case EventKind::kEnqueued:
      case EventKind::kReplayed:
        return e.payload_bytes == x.payload_bytes;
      default:
        return true;
    }
  }

  // The new event at `index` against the model's, rendered (unless its error text
  // is long: quoting 64 KiB under coverage instrumentation costs milliseconds) and
  // kept, so that Finish() can tell that it never changes.
  void CheckEvent(size_t index, const Expected& x, const std::string& where) {
    const Event e = queue_->EventAt(index);
    FUZZ_CHECK(Matches(e, index, x), where + ": event " + RenderEvent(e));
    FUZZ_CHECK(e.attempts <= model_.max_attempts, where + ": event " + RenderEvent(e));
    if (e.error.size() <= kRenderedErrorBytes) {
      const std::string line = RenderEvent(e);
      FUZZ_CHECK(IsValidUtf8(line) && line.find('\n') == std::string::npos, where + ": event " + line);
      const std::string why = ExplainEvent(e);
      FUZZ_CHECK(!why.empty() && IsValidUtf8(why), where + ": event " + line);
      timeline_.append(line).append("\n");
    } else {
      rendered_all_ = false;
    }
    events_.push_back(x);
  }

  std::optional<Queue> queue_;
  std::string_view input_;
  Model model_{};
  State state_;
  std::set<std::string> given_;           // every id the queue accepted
  std::vector<std::string> given_order_;  // the same, in order
  std::vector<Expected> events_;          // every event, as the model predicted it
  std::string timeline_;                  // every event rendered when it was appended
  bool rendered_all_ = true;              // false once an event was too long to render
};

Queue MakeQueue(Decoder& in, std::string_view input) {
  const uint8_t b = in.Byte();
  const int64_t max_attempts = b < 0xF8 ? 1 + b % 8 : kEdgeAttempts[b - 0xF8];
  Policy policy;  // the defaults otherwise: no backoff
  policy.max_attempts = max_attempts;
  Result<Queue> made = Queue::Create(policy);
  const bool valid = max_attempts >= Policy::kMinAttempts && max_attempts <= Policy::kMaxAttempts;
  if (!valid) {
    CheckRefusal(made.status(), "Create", input);
    FUZZ_CHECK(made.status().code() == Code::kOutOfRange, made.status().ToString());
    policy.max_attempts = 3;
    made = Queue::Create(policy);
  }
  FUZZ_CHECK(made.ok(), "Create(" + std::to_string(max_attempts) + "): " + made.status().ToString());
  FUZZ_CHECK(made->policy().max_attempts == (valid ? max_attempts : 3), "Create kept another policy");
  return std::move(made).value();
}

std::string_view OutcomeText(Decoder& in) {
  const uint8_t o = in.Byte();
  switch (o % 6) {
    case 0: return "success";
    case 1: return "transient";
    case 2: return "permanent";
    case 3: return "transient";
    case 4: return kBadOutcomes[o / 6 % 8];
    default: return in.Raw();
  }
}

std::string_view ReplayTarget(Decoder& in, const Harness& h) {
  const uint8_t t = in.Byte();
  if (t % 4 <= 1 && !h.quarantine().empty()) return h.quarantine()[in.Byte() % h.quarantine().size()].id;
  if (t % 4 == 2 && !h.given().empty()) return h.given()[in.Byte() % h.given().size()];
  return in.String(Kind::kId);
}

// The operations, decoded and applied until the input runs out.
void Run(Decoder& in, Harness& h) {
  while (!in.done()) {
    std::string trace;  // what the operation was, when tracing
    switch (in.Byte() % 11) {
      case 0:
      case 1: {
        const std::string_view id = in.String(Kind::kId);
        const std::string_view payload = in.String(Kind::kPayload);
        if (kTrace) trace = "Enqueue(" + Show(id) + ", " + Show(payload) + ")";
        h.Enqueue(id, payload);
        break;
      }
      case 2:
      case 3: {
        const std::string_view outcome = OutcomeText(in);
        const std::string_view error = in.String(Kind::kError);
        if (kTrace) trace = "Process(" + Show(outcome) + ", " + Show(error) + ")";
        h.Process(outcome, error);
        break;
      }
      case 4: {
        const auto outcome = static_cast<dlq::Outcome>(in.Byte() % 3);
        const std::string_view error = in.String(Kind::kError);
        if (kTrace) trace = std::string("Process(Outcome ") + OutcomeName(outcome) + ", " + Show(error) + ")";
        h.Process(outcome, error);
        break;
      }
      case 5: {
        std::string letters(in.Byte() % 17, 's');
        for (char& c : letters) {
          const uint8_t b = in.Byte();
          c = b < 0xF8 ? "stpt"[b % 4] : kBadLetters[b - 0xF8];
        }
        const std::string_view error = in.String(Kind::kError);
        if (kTrace) trace = "ProcessMany(" + Show(letters) + ", " + Show(error) + ")";
        h.ProcessMany(letters, error);
        break;
      }
      case 6:
      case 7: {
        // Copied: the target may view a quarantine entry the call removes.
        const std::string id(ReplayTarget(in, h));
        if (kTrace) trace = "Replay(" + Show(id) + ")";
        h.Replay(id);
        break;
      }
      case 8: {
        std::vector<JobRef> jobs(in.Byte() % 9);
        if (kTrace) trace = "EnqueueMany(";
        for (JobRef& job : jobs) {
          job.id = in.String(Kind::kId);
          job.payload = in.String(Kind::kPayload);
          if (kTrace) trace += "{" + Show(job.id) + ", " + Show(job.payload) + "} ";
        }
        if (kTrace) trace += ")";
        h.EnqueueMany(jobs);
        break;
      }
      case 9: {
        const size_t from = in.Slice();
        const size_t count = in.Slice();
        if (kTrace) trace = "views from " + std::to_string(from) + " count " + std::to_string(count);
        h.Views(from, count);
        break;
      }
      default:
        if (kTrace) trace = "move";
        h.Move();
        break;
    }
    if (kTrace) std::fprintf(stderr, "%-60s -> %s\n", trace.c_str(), h.Summary().c_str());
  }
  h.Finish();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t heap_before = HeapUsed();
  {
    Decoder in(data, size);
    Harness h(MakeQueue(in, input), input);
    Run(in, h);
  }
  // A destroyed queue gives back all it charged to the heap budget.
  FUZZ_CHECK(HeapUsed() == heap_before, "heap budget use " + std::to_string(HeapUsed()) + " after the queue is gone, " +
                                            std::to_string(heap_before) + " before");
  return 0;
}
