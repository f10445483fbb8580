// libFuzzer harness: random operation sequences on one dlq::Queue (core/queue/queue.h):
// lesson 1's operations, and the clock, backoff, leases and failure classes under
// any policy, with the queue's invariants checked after every operation.
//
// How the bytes decode (deterministic; reading past the end gives 0 bytes). Byte 0
// chooses the layout version:
//
// Version 1, lesson 1 (byte 0 < 0x40 or >= 0xF8; every seed written before version 2
// existed means what it always did):
//   byte 0    the policy. b < 0x40: maxAttempts = 1 + b % 8. b >= 0xF8: an edge
//             value, kEdgeAttempts[b - 0xF8] (0, -1, 1000001, INT64_MIN, INT64_MAX:
//             Create must refuse them with OutOfRange, and the run goes on with
//             maxAttempts 3; 1000000, 1, 2 are accepted). The rest is the default
//             policy: no backoff, leaseMs 30000, seed 1, the default class table.
//   then operations until the input runs out, each an opcode byte (b % 11, the
//   operations 0–10 below) and its operands.
//
// Version 2, the clock, backoff and leases (0x40 <= byte 0 < 0xF8; its value is not
// used further):
//   byte 1    maxAttempts: a < 0xF8: 1 + a % 8; else kEdgeAttempts[a - 0xF8]
//   byte 2    backoff kind and jitter: k < 0xF0: kBackoffs[k % 8], the eight pairs
//             Check accepts (none; fixed with none, full, equal; exponential with
//             none, full, equal, decorrelated); k >= 0xF0: kBadBackoffs[k % 4]
//             (none with a jitter, fixed with decorrelated)
//   byte 3    backoff.baseMs: MS
//   byte 4    backoff.capMs: c < 0xF8: min(86400000, baseMs · kCapFactors[c % 8])
//             (60000 when baseMs is out of range); else baseMs − 1, 0, −1, 86400001,
//             INT64_MIN, INT64_MAX, 86400000, baseMs (by c − 0xF8)
//   byte 5    leaseMs: MS
//   byte 6    seed: s < 0xF0: s; s < 0xF8: kBigSeeds[s % 8] (up to 2^32 − 1);
//             else kEdgeSeeds[s − 0xF8] (−1, 2^32, INT64_MIN, …; two accepted)
//   byte 7…   the class table (policy.h): t < 0x80 ends it (0x00: the default table);
//             t >= 0x80 replaces the rule of class t % 6 (transient, permanent,
//             undeserializable, unknown-schema, precondition, crash) with one from
//             the next byte r, and another t follows (at most six):
//             r < 0xF8: retry = bit 0, alert = bit 1, maxAttempts = kClassAttempts[
//             bits 2–4] (0, 1, 2, 3, 5, the policy's, one above it, 1000000), and
//             with bit 5 its own backoff from the next byte o: o < 0xF0: the pair
//             kBackoffs[o % 8], baseMs kPolicyMs[o / 8 % 16], capMs = baseMs (o < 0x80)
//             or min(one day, 100 · baseMs); o >= 0xF0: kOddClassBackoffs[o % 8]
//             (six refused); r >= 0xF8: retry, maxAttempts kEdgeClassAttempts[r −
//             0xF8] (−1, 1000001, INT64_MIN, … refused; 1000000, 0, 1 accepted)
//   MS        one byte m: m < 0xF8: kPolicyMs[m % 16] (1 ms to one day); else
//             kEdgePolicyMs[m − 0xF8] (0, −1, one day + 1, INT64_MIN, INT64_MAX:
//             refused; one day, 1: accepted)
//   A policy Policy::Check refuses must make Create refuse it with a proper Status
//   whose message starts with the name of a field that is wrong (OutOfRange for a
//   range, InvalidArgument for a kind/jitter pair; "classes.<class>.…" for a rule);
//   the run ends there. An accepted one must be kept as given, and worst_case()
//   must be the bounded path (for maxAttempts up to 1000).
//   Then operations until the input runs out, each an opcode byte (b % 16):
//
//     0, 1  Enqueue(id, payload)                    id: STRING, payload: STRING
//     2, 3  Process(outcome text, error)            OUTCOME, error: STRING
//     4     Process(Outcome enum, error)            1 byte b (b % 3 in version 1, b % 6
//                                                   in 2), error: STRING
//     5     ProcessMany(letters, error)             n = b % 17, n LETTERs, error: STRING
//     6, 7  Replay(id)                              TARGET
//     8     EnqueueMany(n = b % 9 jobs)             n × (id: STRING, payload: STRING)
//     9     views with slices                       from: SLICE, count: SLICE
//     10    move the queue out and back in          nothing
//   version 2 only:
//     11    Lease()                                 nothing
//     12    Settle(token, outcome, error)           TOKEN, OUTCOME, error: STRING
//     13    Advance(int64_t ms)                     DURATION
//     14    AdvanceToNext()                         nothing
//     15    Advance(double ms)                      DOUBLE
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
//   OUTCOME  one byte o. Version 1, by o % 6: "success", "transient", "permanent",
//            "transient", an invalid text kBadOutcomes[o / 6 % 8], or a raw STRING (raw
//            bytes). Version 2, by o % 8: the six outcomes ("success", "transient",
//            "permanent", "undeserializable", "unknown-schema", "precondition"),
//            kBadOutcomes[o / 8 % 8], or a raw STRING
//   LETTER   one byte c: c < 0xF8: "stpt"[c % 4]; else an invalid letter
//   TARGET   one byte t, by t % 4: 0, 1: a quarantined id (index: next byte; when
//            quarantine is empty, a STRING instead); 2: an id ever given (index: next
//            byte); 3: an id STRING
//   SLICE    one byte b: b < 0xF0: b % 16; else kBigSlices[b % 8] (SIZE_MAX, …)
//   TOKEN    one byte t, by t % 8: 0–2: "lease-k" for a lease ever granted (k = 1 +
//            next byte % leases; "lease-1" before any), so active, settled or expired;
//            3: an active lease's token (index: next byte; else as 4); 4: one not
//            granted yet, "lease-(leases + 1 + next byte % 3)"; 5: malformed,
//            kBadTokens[next byte % 16] ("lease-0", "lease-01", "x", huge numbers, …);
//            6: an id STRING; 7: the latest lease's ("lease-0" before any)
//   DURATION one byte d (n = d % 16, −1/0/+1 = d % 3 − 1):
//            d < 0x40   kSmallMs[n] (0 ms to one day)
//            0x40–0x7F  to the next pending timer −1/0/+1 (kSmallMs[n] when none)
//            0x80–0x9F  leaseMs · (1 + d % 4) + d / 4 % 3 − 1
//            0xA0–0xBF  to the last pending timer −1/0/+1: all fire (else kSmallMs[n])
//            0xC0–0xCF  to the end of time, 2^53 − 1, minus kSmallMs[n]
//            0xD0–0xDF  past the end of time by 1 + n (refused)
//            0xE0–0xEF  the next 8 bytes, little-endian
//            0xF0–0xFF  kEdgeAdvance[n] (−1, INT64_MIN, INT64_MAX, 2^53 − 1, 2^53, …)
//   DOUBLE   one byte d: d < 0x80: a DURATION (next bytes) as a double; else
//            kOddDoubles[d % 16] (−0, 0.5, NaN, ±Infinity, 2^53, 1e300, 5e−324, …)
//
// After every operation, against a snapshot taken before it:
//  * every job ever accepted is in exactly one place (ready, delayed, leased,
//    completed or quarantine), the views' sizes match stats() and the size
//    accessors, and no other id is anywhere;
//  * a refused call (a non-OK Status with a known code and a non-empty message —
//    StaleLease for a stale or unknown token, OutOfRange for a bad advance — or
//    Replay's false, or a Process, Lease or AdvanceToNext with nothing to do)
//    changes nothing: the views, step, actions, now and the event count are as
//    before, and so is the heap budget's use;
//  * now() never decreases and never passes 2^53 − 1 (kMaxTimeMs); every delayed
//    due_at and every lease's expires_at is after now and within kMaxTimeMs;
//  * attempts stay within maxAttempts (ready and delayed jobs below it, leased,
//    completed and quarantined ones at most at it); a quarantine entry's reason is
//    permanent only for a class that never retries and exhausted only at its class's
//    budget or past it, its alert is its class's, first_attempt_at <= arrived_at <=
//    now; completed jobs never leave, quarantine entries leave only through an
//    accepted Replay, and a replayed job is at the ready tail with attempts 0;
//  * each new delay lies in its jitter's window under its class's backoff (the
//    fixed/exponential value, [0, v], [v/2, v], [baseMs, min(capMs, 3·previous)])
//    and within MaxDelay() (backoff.h) for its attempt, and a delayed job is due
//    within the delay it was given;
//  * the bounded path: a job reaches quarantine at most worst_case().time_ms after
//    its first attempt, not counting the time it waited ready (worst_case() assumes
//    it is leased as soon as it is ready);
//  * the event count only grows, events' times and actions never decrease (and never
//    pass now and stats().actions), and the new events are exactly the ones the
//    operation implies, field by field: a reference model below (places, the clock,
//    timers in (time, order set) order, leases and their tokens, the class rules
//    and budgets, alerts; delays drawn with the core's NextDelay on its own copy of
//    the jitter stream) predicts the new state, the call's result and the events;
//    they render to one UTF-8 line and explain;
//  * where the core has a heap budget: a refused call charges nothing, and a
//    destroyed queue gives back all it charged.
// At the end every event is still what it was when appended, and TimelineText()
// is the lines rendered then (when no event's texts were too long to render).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <limits>
#include <map>
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

// now + span, stopped at the end of virtual time (queue.h: no timer passes 2^53 - 1 ms).
int64_t Until(int64_t now, int64_t span) { return span > kMaxTimeMs - now ? kMaxTimeMs : now + span; }

constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();

constexpr int64_t kEdgeAttempts[8] = {0, -1, 1'000'001, kI64Min, kI64Max, 1'000'000, 1, 2};
constexpr size_t kBigSlices[8] = {
    SIZE_MAX, SIZE_MAX - 1, size_t{1} << 31, size_t{1} << 32, 16, 17, 1000, std::numeric_limits<size_t>::max() / 2};
const std::string_view kBadOutcomes[8] = {
    "", "Success", "succes", "transient ", std::string_view("permanent\0", 10), "s", "TRANSIENT", "permanently"};
constexpr std::string_view kBadLetters("xS T\0P%\xff", 8);

// Version 2: the policy.
struct BackoffPair {
  BackoffKind kind;
  Jitter jitter;
};
constexpr BackoffPair kBackoffs[8] = {
    {BackoffKind::kNone, Jitter::kNone},         {BackoffKind::kFixed, Jitter::kNone},
    {BackoffKind::kFixed, Jitter::kFull},        {BackoffKind::kFixed, Jitter::kEqual},
    {BackoffKind::kExponential, Jitter::kNone},  {BackoffKind::kExponential, Jitter::kFull},
    {BackoffKind::kExponential, Jitter::kEqual}, {BackoffKind::kExponential, Jitter::kDecorrelated}};
constexpr BackoffPair kBadBackoffs[4] = {{BackoffKind::kNone, Jitter::kFull},
                                         {BackoffKind::kNone, Jitter::kEqual},
                                         {BackoffKind::kNone, Jitter::kDecorrelated},
                                         {BackoffKind::kFixed, Jitter::kDecorrelated}};
constexpr int64_t kPolicyMs[16] = {1,   2,   3,    5,    10,     25,     50,        100,
                                   128, 250, 1000, 4096, 30'000, 65'536, 3'600'000, kMaxDelayMs};
constexpr int64_t kEdgePolicyMs[8] = {0, -1, kMaxDelayMs + 1, kI64Min, kI64Max, kMaxDelayMs, 1, -kMaxDelayMs};
constexpr int64_t kCapFactors[8] = {1, 2, 3, 10, 100, 1000, int64_t{1} << 20, int64_t{1} << 30};
// Version 2: a class rule's maxAttempts (by rule byte bits 2-4; kPolicyMax and kAbovePolicy
// stand for the policy's and one above it), and values Check refuses.
constexpr int64_t kPolicyMax = -100, kAbovePolicy = -101;
constexpr int64_t kClassAttempts[8] = {0, 1, 2, 3, 5, kPolicyMax, kAbovePolicy, 1'000'000};
constexpr int64_t kEdgeClassAttempts[8] = {-1, 1'000'001, kI64Min, kI64Max, -1'000'000, 1'000'000, 0, 1};
// A class's own backoff that Check refuses (the last two are accepted).
const Backoff kOddClassBackoffs[8] = {{BackoffKind::kNone, 100, 100, Jitter::kFull},
                                      {BackoffKind::kFixed, 100, 100, Jitter::kDecorrelated},
                                      {BackoffKind::kFixed, 0, 100, Jitter::kNone},
                                      {BackoffKind::kExponential, -1, 100, Jitter::kNone},
                                      {BackoffKind::kExponential, 200, 100, Jitter::kFull},
                                      {BackoffKind::kFixed, 100, kMaxDelayMs + 1, Jitter::kNone},
                                      {BackoffKind::kFixed, 1, 1, Jitter::kNone},
                                      {BackoffKind::kExponential, kMaxDelayMs, kMaxDelayMs, Jitter::kDecorrelated}};
constexpr int64_t kBigSeeds[8] = {4'294'967'295, 4'294'967'294, 2'147'483'647, 2'147'483'648, 65'535, 65'536, 0, 1};
constexpr int64_t kEdgeSeeds[8] = {-1, 4'294'967'296, kI64Min, kI64Max, -4'294'967'295, int64_t{1} << 40, 4'294'967'295,
                                   0};

// Version 2: the clock and leases.
constexpr int64_t kSmallMs[16] = {0,   1,   2,   3,    5,      10,     50,        99,
                                  100, 101, 500, 1000, 30'000, 60'000, 3'600'000, kMaxDelayMs};
constexpr int64_t kEdgeAdvance[16] = {-1,
                                      -2,
                                      kI64Min,
                                      kI64Min + 1,
                                      kI64Max,
                                      kMaxTimeMs,
                                      kMaxTimeMs + 1,
                                      kMaxTimeMs + 2,
                                      int64_t{1} << 62,
                                      -kMaxTimeMs,
                                      0,
                                      1,
                                      int64_t{1} << 31,
                                      int64_t{1} << 32,
                                      4'294'967'295,
                                      kMaxTimeMs - 1};
const double kOddDoubles[16] = {-0.0,
                                0.5,
                                1.5,
                                -1.0,
                                std::numeric_limits<double>::quiet_NaN(),
                                std::numeric_limits<double>::infinity(),
                                -std::numeric_limits<double>::infinity(),
                                9007199254740991.0,
                                9007199254740992.0,
                                1e300,
                                -1e300,
                                std::numeric_limits<double>::denorm_min(),
                                0.1,
                                29999.999999999996,
                                1e21,
                                100.0};
const std::string_view kBadTokens[16] = {"lease-0",
                                         "lease-01",
                                         "x",
                                         "",
                                         "lease-",
                                         "lease",
                                         "LEASE-1",
                                         "lease-1 ",
                                         " lease-1",
                                         "lease--1",
                                         "lease-+1",
                                         std::string_view("lease-1\0", 8),
                                         "lease-4294967297",
                                         "lease-18446744073709551617",
                                         "lease-9999999999",
                                         "lease-1x"};

enum class Kind { kId, kPayload, kError };

// DLQ_FUZZ_TRACE=1 prints each decoded operation and the queue after it (for
// reading a crash input: ./queue_fuzz crash-…).
const bool kTrace = std::getenv("DLQ_FUZZ_TRACE") != nullptr;

// Events whose id and error text are longer together are checked field by field
// but not rendered: quoting kilobytes under coverage instrumentation costs
// milliseconds, and a short text takes the same paths.
constexpr size_t kRenderedBytes = 256;

std::string Token(size_t lease) { return "lease-" + std::to_string(lease); }

// The outcomes a worker may report, by name (policy.h), and their failure classes.
constexpr Outcome kOutcomes[6] = {Outcome::kSuccess,          Outcome::kTransient,     Outcome::kPermanent,
                                  Outcome::kUndeserializable, Outcome::kUnknownSchema, Outcome::kPrecondition};
constexpr std::string_view kOutcomeNames[6] = {"success",          "transient",      "permanent",
                                               "undeserializable", "unknown-schema", "precondition"};
constexpr std::string_view kClassNames[6] = {"transient",      "permanent",    "undeserializable",
                                             "unknown-schema", "precondition", "crash"};

std::optional<Outcome> OutcomeNamed(std::string_view text) {
  for (int i = 0; i < 6; ++i) {
    if (text == kOutcomeNames[i]) return kOutcomes[i];
  }
  return std::nullopt;
}

// The class of a failing outcome.
FailureClass ClassOfFailure(Outcome outcome) {
  switch (outcome) {
    case Outcome::kPermanent: return FailureClass::kPermanent;
    case Outcome::kUndeserializable: return FailureClass::kUndeserializable;
    case Outcome::kUnknownSchema: return FailureClass::kUnknownSchema;
    case Outcome::kPrecondition: return FailureClass::kPrecondition;
    default: return FailureClass::kTransient;
  }
}
std::string_view NameOf(FailureClass c) { return kClassNames[static_cast<int>(c)]; }

// Views as the model builds them, field by field (fields the core adds later keep
// their defaults, which is what the model expects of them).
JobView MakeJob(std::string id, std::string payload, uint32_t attempts) {
  JobView j;
  j.id = std::move(id);
  j.payload = std::move(payload);
  j.attempts = attempts;
  return j;
}
DelayedView MakeDelayed(const JobView& job, int64_t due_at) {
  DelayedView d;
  d.id = job.id;
  d.payload = job.payload;
  d.attempts = job.attempts;
  d.due_at = due_at;
  return d;
}
LeaseView MakeLease(const JobView& job, std::string token, int64_t expires_at) {
  LeaseView l;
  l.id = job.id;
  l.payload = job.payload;
  l.attempts = job.attempts;
  l.token = std::move(token);
  l.expires_at = expires_at;
  return l;
}

// One run of the decoder over the input; strings it makes live as long as it does.
class Decoder {
 public:
  Decoder(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  bool done() const { return pos_ >= size_; }
  uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }

  int64_t Int64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t{Byte()} << (8 * i);
    return static_cast<int64_t>(v);
  }

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

  std::string_view Keep(std::string s) { return kept_.emplace_back(std::move(s)); }

 private:
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
  std::vector<JobView> ready;
  std::vector<DelayedView> delayed;  // firing order
  std::vector<LeaseView> leased;     // firing order
  std::vector<JobView> completed;
  std::vector<QuarantineEntry> quarantine;
  uint64_t step = 0, actions = 0;
  int64_t now = 0;
  size_t events = 0;
  size_t heap = 0;  // HeapUsed(); not part of Same()
};

bool Same(const JobView& a, const JobView& b) {
  return a.id == b.id && a.payload == b.payload && a.attempts == b.attempts && a.key == b.key && a.held_by == b.held_by;
}
bool Same(const DelayedView& a, const DelayedView& b) {
  return a.id == b.id && a.payload == b.payload && a.attempts == b.attempts && a.due_at == b.due_at;
}
bool Same(const LeaseView& a, const LeaseView& b) {
  return a.id == b.id && a.payload == b.payload && a.attempts == b.attempts && a.token == b.token &&
         a.expires_at == b.expires_at;
}
bool Same(const QuarantineEntry& a, const QuarantineEntry& b) {
  return a.id == b.id && a.payload == b.payload && a.attempts == b.attempts && a.reason == b.reason &&
         a.last_error == b.last_error && a.step == b.step && a.failure_class == b.failure_class && a.alert == b.alert &&
         a.arrived_at == b.arrived_at && a.first_attempt_at == b.first_attempt_at && a.key == b.key;
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
  return a.step == b.step && a.actions == b.actions && a.now == b.now && a.events == b.events &&
         Same(a.ready, b.ready) && Same(a.delayed, b.delayed) && Same(a.leased, b.leased) &&
         Same(a.completed, b.completed) && Same(a.quarantine, b.quarantine);
}
// Every field of an event.
bool Same(const Event& a, const Event& b) {
  return a.seq == b.seq && a.step == b.step && a.action == b.action && a.time == b.time && a.kind == b.kind &&
         a.id == b.id && a.attempts == b.attempts && a.max_attempts == b.max_attempts &&
         a.failure_class == b.failure_class && a.outcome == b.outcome && a.disposition == b.disposition &&
         a.reason == b.reason && a.error == b.error && a.payload_bytes == b.payload_bytes && a.token == b.token &&
         a.until == b.until && a.delay_ms == b.delay_ms && a.key == b.key && a.overtook == b.overtook &&
         a.depth == b.depth;
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
bool StartsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

// The delay before jitter after failed attempt `attempt`, written out here.
int64_t PlainDelay(const Backoff& b, uint32_t attempt) {
  if (b.kind == BackoffKind::kNone) return 0;
  int64_t v = b.base_ms;
  if (b.kind == BackoffKind::kExponential) {
    for (uint32_t k = 1; k < attempt && v < b.cap_ms; ++k) v *= 2;
    v = std::min(v, b.cap_ms);
  }
  return v;
}

// A delay `d` drawn after attempt `attempt` lies in its jitter's window (policy.h).
void CheckDelayWindow(const Backoff& b, uint32_t attempt, int64_t previous, int64_t d) {
  const int64_t v = PlainDelay(b, attempt);
  int64_t lo = v, hi = v;
  if (b.kind != BackoffKind::kNone) {
    switch (b.jitter) {
      case Jitter::kNone: break;
      case Jitter::kFull: lo = 0; break;
      case Jitter::kEqual: lo = v / 2; break;
      case Jitter::kDecorrelated: {
        const int64_t prev = previous > 0 ? previous : b.base_ms;
        lo = b.base_ms;
        hi = std::min(b.cap_ms, std::max(b.base_ms, 3 * prev));
        break;
      }
      case Jitter::kBullMq: lo = v * (1000 - b.jitter_permille) / 1000; break;  // not in kBackoffs: never drawn
    }
  }
  FUZZ_CHECK(d >= lo && d <= hi, std::string("delay ") + std::to_string(d) + " ms after attempt " +
                                     std::to_string(attempt) + " (" + BackoffKindName(b.kind) + "/" +
                                     JitterName(b.jitter) + ", previous " + std::to_string(previous) + ") outside [" +
                                     std::to_string(lo) + ", " + std::to_string(hi) + "]");
}

// The reference model: the rules of queue.h and policy.h applied to a State —
// places, the clock, timers, leases, the class table. Delays come from the core's
// NextDelay() on the model's own copy of the jitter stream (the formulas have
// their own model-based test); everything else is written out here. Only accepted
// calls reach it.
struct Model {
  enum class LeaseState { kActive, kSettled, kExpired };
  struct LeaseRecord {
    std::string id;
    LeaseState state;
  };
  struct JobInfo {
    int64_t last_delay = 0;        // its previous retry delay (0: none since enqueue, replay or a requeue)
    int64_t first_attempt_at = 0;  // since enqueue or replay
    int64_t ready_since = 0;       // when it last joined the ready queue
    int64_t ready_wait = 0;        // time spent ready since its first attempt
  };

  Policy policy;
  Prng jitter;
  State s;
  uint64_t timer_seq = 0;               // timers fire in (time, seq) order
  std::vector<uint64_t> delayed_seq;    // parallel to s.delayed
  std::vector<uint64_t> leased_seq;     // parallel to s.leased
  std::vector<size_t> leased_number;    // parallel to s.leased: its lease number
  std::vector<LeaseRecord> leases;      // every lease granted; token n is leases[n - 1]
  std::map<std::string, JobInfo> info;  // by id
  std::optional<int64_t> worst_time;    // worst_case().time_ms, once checked
  uint32_t budget_in_force = 0;         // while Finish() records: the class's budget
  std::vector<Event> events;            // expected since the last check

  explicit Model(const Policy& p) : policy(p), jitter(static_cast<uint64_t>(p.seed), PrngStream::kJitter) {}

  uint32_t max_attempts() const { return static_cast<uint32_t>(policy.max_attempts); }

  // The rule in force for class `c`: its budget (0 or above the policy's means the
  // policy's) and its backoff (the policy's unless it has its own).
  ClassRule Rule(FailureClass c) const {
    ClassRule rule = policy.classes[c];
    if (rule.max_attempts == 0 || rule.max_attempts > policy.max_attempts) rule.max_attempts = policy.max_attempts;
    if (!rule.own_backoff) rule.backoff = policy.backoff;
    return rule;
  }

  Event& Record(EventKind kind, const std::string& id, uint32_t attempts) {
    Event e;
    e.seq = ++s.events;
    e.step = s.step;
    e.action = s.actions;
    e.time = s.now;
    e.kind = kind;
    e.id = id;
    e.attempts = attempts;
    // The budget in force: the policy's, or the class's for every event of a decision.
    e.max_attempts = budget_in_force != 0 ? budget_in_force : max_attempts();
    return events.emplace_back(std::move(e));
  }

  void Ready(const JobView& job) {
    s.ready.push_back(job);
    info[job.id].ready_since = s.now;
  }

  void Enqueue(std::string_view id, std::string_view payload, bool new_action) {
    if (new_action) ++s.actions;
    info[std::string(id)] = JobInfo{};
    Ready(MakeJob(std::string(id), std::string(payload), 0));
    Record(EventKind::kEnqueued, std::string(id), 0).payload_bytes = payload.size();
  }

  // Pops the ready head and counts its attempt (a new step and action).
  JobView Start() {
    ++s.actions;
    JobView job = s.ready.front();
    s.ready.erase(s.ready.begin());
    ++s.step;
    JobInfo& j = info[job.id];
    if (job.attempts == 0) {
      j.first_attempt_at = s.now, j.ready_wait = 0;
    } else {
      j.ready_wait += s.now - j.ready_since;
    }
    job.attempts += 1;
    return job;
  }

  // Decides the counted attempt of `job` (Process, Settle, or an expiry, whose
  // class is crash).
  Attempt Finish(const JobView& job, EventKind kind, Outcome outcome, std::optional<FailureClass> failure,
                 const std::string& error, size_t lease) {
    JobInfo& j = info[job.id];
    Disposition disposition = Disposition::kCompleted;
    Reason reason = Reason::kNone;
    int64_t delay = 0;
    uint32_t budget = max_attempts();
    bool alert = false;
    if (failure) {
      const ClassRule rule = Rule(*failure);
      budget = static_cast<uint32_t>(rule.max_attempts);
      if (!rule.retry) {
        disposition = Disposition::kQuarantined, reason = Reason::kPermanent;
      } else if (job.attempts < budget) {
        delay = NextDelay(rule.backoff, job.attempts, j.last_delay, jitter);
        CheckDelay(rule.backoff, job.attempts, j.last_delay, delay);
        disposition = delay > 0 ? Disposition::kDelayed : Disposition::kRequeued;
      } else {
        disposition = Disposition::kQuarantined, reason = Reason::kExhausted;
      }
      alert = disposition == Disposition::kQuarantined && rule.alert;
    }
    budget_in_force = budget;
    {
      Event& e = Record(kind, job.id, job.attempts);
      e.failure_class = failure.value_or(FailureClass::kTransient);
      e.outcome = outcome;
      e.disposition = disposition;
      e.reason = reason;
      e.error = error;
      if (lease != 0) e.token = Token(lease);
      if (disposition == Disposition::kDelayed) e.until = Until(s.now, delay), e.delay_ms = e.until - s.now;
    }
    switch (disposition) {
      case Disposition::kCompleted:
        s.completed.push_back(job);
        Record(EventKind::kCompleted, job.id, job.attempts);
        break;
      case Disposition::kRequeued:
        j.last_delay = 0;
        Ready(job);
        Record(EventKind::kRequeued, job.id, job.attempts);
        break;
      case Disposition::kDelayed: {
        j.last_delay = delay;
        const int64_t due = Until(s.now, delay);
        // After every timer due at or before it: ties fire in the order set.
        size_t at = 0;
        while (at < s.delayed.size() && s.delayed[at].due_at <= due) ++at;
        s.delayed.insert(s.delayed.begin() + static_cast<std::ptrdiff_t>(at), MakeDelayed(job, due));
        delayed_seq.insert(delayed_seq.begin() + static_cast<std::ptrdiff_t>(at), ++timer_seq);
        Event& e = Record(EventKind::kDelayed, job.id, job.attempts);
        e.until = due;
        e.delay_ms = due - s.now;  // shorter than the delay only at the end of time
        break;
      }
      case Disposition::kQuarantined: {
        QuarantineEntry q;
        q.id = job.id;
        q.payload = job.payload;
        q.attempts = job.attempts;
        q.reason = reason;
        q.last_error = error;
        q.step = s.step;
        q.failure_class = *failure;
        q.alert = alert;
        q.arrived_at = s.now;
        q.first_attempt_at = j.first_attempt_at;
        s.quarantine.push_back(std::move(q));
        Record(EventKind::kQuarantined, job.id, job.attempts).reason = reason;
        if (alert) Record(EventKind::kAlert, job.id, job.attempts).failure_class = *failure;
        // The bounded path (backoff.h): from its first attempt to quarantine, not
        // counting the time it waited ready, a job takes at most worst_case().
        const int64_t path = s.now - j.first_attempt_at - j.ready_wait;
        FUZZ_CHECK(!worst_time || path <= *worst_time,
                   Show(job.id) + " reached quarantine (" + std::string(NameOf(*failure)) + ", attempt " +
                       std::to_string(job.attempts) + ") " + std::to_string(path) + " ms after its first attempt (" +
                       std::to_string(j.ready_wait) + " ms ready not counted); worst_case() says at most " +
                       std::to_string(worst_time.value_or(0)) + " ms");
        break;
      }
      case Disposition::kDiscarded:  // the lab keeps every terminal failure: nothing here discards
        FUZZ_CHECK(false, Show(job.id) + ": the model discarded a job, which the lab system never does");
        break;
    }
    budget_in_force = 0;
    Attempt a;
    a.processed = true;
    a.id = job.id;
    a.attempt = job.attempts;
    a.outcome = outcome;
    a.disposition = disposition;
    a.reason = reason;
    if (disposition == Disposition::kDelayed) a.due_at = Until(s.now, delay), a.delay_ms = a.due_at - s.now;
    return a;
  }

  // A delay drawn after attempt `attempt` lies in its jitter's window (written out
  // here from policy.h) and within MaxDelay() (backoff.h) given the previous delay.
  static void CheckDelay(const Backoff& b, uint32_t attempt, int64_t previous, int64_t d) {
    CheckDelayWindow(b, attempt, previous, d);
    const int64_t bound = MaxDelay(b, attempt, previous);
    FUZZ_CHECK(d <= bound, "delay " + std::to_string(d) + " ms after attempt " + std::to_string(attempt) +
                               " is past MaxDelay " + std::to_string(bound));
  }

  static std::optional<FailureClass> FailureOf(Outcome outcome) {
    if (outcome == Outcome::kSuccess) return std::nullopt;
    return ClassOfFailure(outcome);
  }

  // One attempt at the head; processed == false if nothing is ready.
  Attempt Process(Outcome outcome, std::string_view error) {
    if (s.ready.empty()) return Attempt{};
    const JobView job = Start();
    return Finish(job, EventKind::kAttempt, outcome, FailureOf(outcome), std::string(error), 0);
  }

  // leased == false if nothing is ready.
  LeaseGrant Lease() {
    if (s.ready.empty()) return LeaseGrant{};
    const JobView job = Start();
    leases.push_back({job.id, LeaseState::kActive});
    const size_t n = leases.size();
    const int64_t expires = Until(s.now, policy.lease_ms);
    size_t at = 0;  // every lease lasts leaseMs, so a new one is last unless times tie
    while (at < s.leased.size() && s.leased[at].expires_at <= expires) ++at;
    s.leased.insert(s.leased.begin() + static_cast<std::ptrdiff_t>(at), MakeLease(job, Token(n), expires));
    leased_seq.insert(leased_seq.begin() + static_cast<std::ptrdiff_t>(at), ++timer_seq);
    leased_number.insert(leased_number.begin() + static_cast<std::ptrdiff_t>(at), n);
    Event& e = Record(EventKind::kLeased, job.id, job.attempts);
    e.token = Token(n);
    e.until = expires;
    LeaseGrant g;
    g.leased = true;
    g.id = job.id;
    g.payload = job.payload;
    g.attempt = job.attempts;
    g.token = Token(n);
    g.leased_at = s.now;
    g.expires_at = expires;
    return g;
  }

  // The lease a token names ("lease-<n>", n from 1 without leading zeros, granted
  // already), or 0.
  size_t Lookup(std::string_view token) const {
    if (!StartsWith(token, "lease-")) return 0;
    const std::string_view digits = token.substr(6);
    if (digits.empty() || digits.size() > 18 || digits[0] == '0') return 0;
    uint64_t n = 0;
    for (const char c : digits) {
      if (c < '0' || c > '9') return 0;
      n = n * 10 + static_cast<uint64_t>(c - '0');
    }
    return n <= leases.size() ? static_cast<size_t>(n) : 0;
  }

  // Index of lease `n` in s.leased.
  size_t ActiveIndex(size_t n) const {
    for (size_t i = 0; i < leased_number.size(); ++i) {
      if (leased_number[i] == n) return i;
    }
    FUZZ_CHECK(false, "model: lease " + Token(n) + " is not active");
    return 0;
  }

  JobView Unlease(size_t i) {
    const LeaseView lease = s.leased[i];
    s.leased.erase(s.leased.begin() + static_cast<std::ptrdiff_t>(i));
    leased_seq.erase(leased_seq.begin() + static_cast<std::ptrdiff_t>(i));
    leased_number.erase(leased_number.begin() + static_cast<std::ptrdiff_t>(i));
    return MakeJob(lease.id, lease.payload, lease.attempts);
  }

  // Precondition: lease n is active.
  Attempt Settle(size_t n, Outcome outcome, std::string_view error) {
    ++s.actions;
    leases[n - 1].state = LeaseState::kSettled;
    const JobView job = Unlease(ActiveIndex(n));
    return Finish(job, EventKind::kAttempt, outcome, FailureOf(outcome), std::string(error), n);
  }

  // The earliest pending timer's time; lease says whether it is an expiry.
  std::optional<int64_t> Next(bool* lease = nullptr) const {
    const bool has_due = !s.delayed.empty(), has_expiry = !s.leased.empty();
    if (!has_due && !has_expiry) return std::nullopt;
    bool expiry = has_expiry;
    if (has_due && has_expiry) {
      const int64_t d = s.delayed.front().due_at, x = s.leased.front().expires_at;
      expiry = x < d || (x == d && leased_seq.front() < delayed_seq.front());
    }
    if (lease != nullptr) *lease = expiry;
    return expiry ? s.leased.front().expires_at : s.delayed.front().due_at;
  }

  // The latest pending timer's time.
  std::optional<int64_t> Last() const {
    std::optional<int64_t> last;
    if (!s.delayed.empty()) last = s.delayed.back().due_at;
    if (!s.leased.empty()) last = std::max(last.value_or(kI64Min), s.leased.back().expires_at);
    return last;
  }

  void Fire() {
    bool expiry = false;
    s.now = *Next(&expiry);
    if (!expiry) {
      const DelayedView job = s.delayed.front();
      s.delayed.erase(s.delayed.begin());
      delayed_seq.erase(delayed_seq.begin());
      Ready(MakeJob(job.id, job.payload, job.attempts));
      Record(EventKind::kDue, job.id, job.attempts);
      return;
    }
    const size_t n = leased_number.front();
    leases[n - 1].state = LeaseState::kExpired;
    const JobView job = Unlease(0);
    Finish(job, EventKind::kExpired, Outcome::kTransient, FailureClass::kCrash,
           Token(n) + " expired after " + std::to_string(policy.lease_ms) + " ms without a settle", n);
  }

  // One accepted Advance or AdvanceToNext: every timer due by `target` fires.
  void AdvanceTo(int64_t target) {
    ++s.actions;
    for (auto next = Next(); next && *next <= target; next = Next()) Fire();
    s.now = target;
  }

  // False if `id` is not in quarantine.
  bool Replay(std::string_view id) {
    for (size_t i = 0; i < s.quarantine.size(); ++i) {
      if (s.quarantine[i].id != id) continue;
      const QuarantineEntry entry = s.quarantine[i];
      s.quarantine.erase(s.quarantine.begin() + static_cast<std::ptrdiff_t>(i));
      ++s.step;
      ++s.actions;
      Record(EventKind::kReplayed, entry.id, entry.attempts).payload_bytes = entry.payload.size();
      info[entry.id] = JobInfo{};
      Ready(MakeJob(entry.id, entry.payload, 0));
      return true;
    }
    return false;
  }
};

bool SameAttempt(const Attempt& a, const Attempt& b) {
  return a.processed == b.processed && a.id == b.id && a.attempt == b.attempt && a.outcome == b.outcome &&
         a.disposition == b.disposition && a.reason == b.reason && a.delay_ms == b.delay_ms && a.due_at == b.due_at;
}
std::string Describe(const Attempt& a) {
  if (!a.processed) return "nothing processed";
  return Show(a.id) + " attempt " + std::to_string(a.attempt) + " " + OutcomeName(a.outcome) + " -> " +
         DispositionName(a.disposition) + " " + ReasonName(a.reason) + " delay " + std::to_string(a.delay_ms) +
         " due " + std::to_string(a.due_at);
}

class Harness {
 public:
  Harness(Queue queue, std::string_view input) : queue_(std::move(queue)), input_(input), model_(queue_->policy()) {
    state_ = Take();
    FUZZ_CHECK(Same(state_, model_.s), "a new queue is not empty at time 0");
  }

  void Enqueue(std::string_view id, std::string_view payload) {
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
    model_.Enqueue(id, payload, true);
    After("Enqueue");
  }

  void EnqueueMany(const std::vector<JobRef>& jobs) {
    // The first offending job, as the model sees it.
    size_t bad = SIZE_MAX;
    std::set<std::string> batch;
    for (size_t i = 0; i < jobs.size() && bad == SIZE_MAX; ++i) {
      const std::string id(jobs[i].id);
      if (id.empty() || id.size() > kMaxIdBytes || jobs[i].payload.size() > kMaxPayloadBytes || given_.count(id) != 0 ||
          !batch.insert(id).second) {
        bad = i;
      }
    }
    const Status s = queue_->EnqueueMany(jobs);
    if (bad != SIZE_MAX) {
      CheckRefusal(s, "EnqueueMany", input_);
      const std::string names = "jobs[" + std::to_string(bad) + "]";
      FUZZ_CHECK(s.message().find(names) != std::string::npos,
                 "expected a message naming " + names + ": " + s.ToString());
      return Unchanged("EnqueueMany");
    }
    FUZZ_CHECK(s.ok(), "EnqueueMany refused: " + s.ToString());
    if (jobs.empty()) return Unchanged("EnqueueMany");  // an empty batch changes nothing: not an action
    ++model_.s.actions;                                 // one action for the batch
    for (const JobRef& job : jobs) {
      Give(job.id);
      model_.Enqueue(job.id, job.payload, false);
    }
    After("EnqueueMany");
  }

  void Process(std::string_view outcome, std::string_view error) {
    const Result<Outcome> parsed = ParseOutcome(outcome);
    const std::optional<Outcome> named = OutcomeNamed(outcome);
    FUZZ_CHECK(parsed.ok() == named.has_value() && (!named || parsed.value() == *named), Show(outcome));
    Result<Attempt> attempt = queue_->Process(outcome, error);
    if (!named) {  // the outcome is validated first: InvalidArgument, or TooLarge for a long text
      CheckBadOutcome(attempt.status(), outcome, "Process");
      return Unchanged("Process");
    }
    CheckAttempt(*named, error, attempt);
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
    uint64_t count = 0;
    for (const char c : letters) {
      const Outcome o = c == 's' ? Outcome::kSuccess : c == 't' ? Outcome::kTransient : Outcome::kPermanent;
      if (!model_.Process(o, error).processed) break;
      ++count;
    }
    FUZZ_CHECK(made.value() == count, "ProcessMany(" + Show(letters) + ") made " + std::to_string(made.value()) +
                                          " attempts, expected " + std::to_string(count));
    if (count == 0) return Unchanged("ProcessMany with nothing ready");
    After("ProcessMany");
  }

  void Replay(std::string_view id) {
    const bool valid = model_.Replay(id);
    const bool replayed = queue_->Replay(id);
    FUZZ_CHECK(replayed == valid, "Replay(" + Show(id) + ") gave " + (replayed ? "true" : "false"));
    if (!replayed) return Unchanged("Replay");
    After("Replay");
    FUZZ_CHECK(!state_.ready.empty() && state_.ready.back().id == id && state_.ready.back().attempts == 0,
               "a replayed job is at the ready tail with attempts 0");
  }

  void Lease() {
    const Result<LeaseGrant> got = queue_->Lease();
    FUZZ_CHECK(got.ok(), "Lease refused: " + got.status().ToString());
    const LeaseGrant want = model_.Lease();
    const LeaseGrant& g = got.value();
    FUZZ_CHECK(g.leased == want.leased, std::string("Lease: leased ") + (g.leased ? "true" : "false"));
    if (!g.leased) return Unchanged("Lease with nothing ready");
    FUZZ_CHECK(g.id == want.id && g.payload == want.payload && g.attempt == want.attempt && g.token == want.token &&
                   g.leased_at == want.leased_at && g.expires_at == want.expires_at,
               "Lease gave " + Show(g.id) + " attempt " + std::to_string(g.attempt) + " " + g.token + " at " +
                   std::to_string(g.leased_at) + " until " + std::to_string(g.expires_at) + "; expected " +
                   Show(want.id) + " attempt " + std::to_string(want.attempt) + " " + want.token + " until " +
                   std::to_string(want.expires_at));
    After("Lease");
  }

  void Settle(std::string_view token, std::string_view outcome, std::string_view error) {
    const std::optional<Outcome> named = OutcomeNamed(outcome);
    const size_t lease = model_.Lookup(token);
    const Result<Attempt> got = queue_->Settle(token, outcome, error);
    const std::string call = "Settle(" + Show(token) + ", " + Show(outcome) + ")";
    // The outcome and the error text are checked first, then the token.
    if (!named) {
      CheckBadOutcome(got.status(), outcome, call.c_str());
      return Unchanged("Settle with a bad outcome");
    }
    if (error.size() > kMaxErrorTextBytes) {
      CheckRefusal(got.status(), call.c_str(), input_);
      FUZZ_CHECK(got.status().code() == Code::kTooLarge, call + ": " + got.status().ToString());
      return Unchanged("Settle with a long error text");
    }
    if (lease == 0 || model_.leases[lease - 1].state != Model::LeaseState::kActive) {
      const Status& s = got.status();
      CheckRefusal(s, call.c_str(), input_);
      FUZZ_CHECK(s.code() == Code::kStaleLease, call + ": " + s.ToString());
      if (lease != 0) {  // a lease this queue granted: the message names it and its job
        const std::string& id = model_.leases[lease - 1].id;
        FUZZ_CHECK(s.message().find(Token(lease)) != std::string::npos, call + ": " + s.ToString());
        FUZZ_CHECK(id.size() > 32 || s.message().find(Quote(id)) != std::string::npos,
                   call + " does not name the job " + Show(id) + ": " + s.ToString());
      }
      return Unchanged("Settle with a stale token");
    }
    FUZZ_CHECK(got.ok(), call + " refused: " + got.status().ToString());
    const Attempt want = model_.Settle(lease, *named, error);
    FUZZ_CHECK(SameAttempt(got.value(), want), call + ": " + Describe(got.value()) + "; expected " + Describe(want));
    After("Settle");
  }

  void Advance(int64_t ms) {
    const Status s = queue_->Advance(ms);
    AfterAdvance(s, ms >= 0 && ms <= kMaxTimeMs && ms <= kMaxTimeMs - state_.now, ms,
                 "Advance(" + std::to_string(ms) + ")");
  }

  void Advance(double ms) {
    const Status s = queue_->Advance(ms);
    const bool integral = ms >= 0 && ms <= static_cast<double>(kMaxTimeMs) && ms == std::trunc(ms);
    const int64_t whole = integral ? static_cast<int64_t>(ms) : -1;
    AfterAdvance(s, integral && whole <= kMaxTimeMs - state_.now, whole, "Advance(double " + DescribeNumber(ms) + ")");
  }

  void AdvanceToNext() {
    const std::optional<int64_t> want = model_.Next();
    const std::optional<int64_t> got = queue_->AdvanceToNext();
    FUZZ_CHECK(got.has_value() == want.has_value(), "AdvanceToNext: a timer pending or not");
    if (!got) return Unchanged("AdvanceToNext with nothing pending");
    model_.AdvanceTo(*want);
    FUZZ_CHECK(*got == *want, "AdvanceToNext gave " + std::to_string(*got) + ", expected " + std::to_string(*want));
    After("AdvanceToNext");
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
    FUZZ_CHECK(Same(q.view().Ready(from, count), slice(state_.ready)), "Ready " + what);
    FUZZ_CHECK(Same(q.view().Delayed(from, count), slice(state_.delayed)), "Delayed " + what);
    FUZZ_CHECK(Same(q.view().Leased(from, count), slice(state_.leased)), "Leased " + what);
    FUZZ_CHECK(Same(q.view().Completed(from, count), slice(state_.completed)), "Completed " + what);
    FUZZ_CHECK(Same(q.view().Quarantined(from, count), slice(state_.quarantine)), "Quarantined " + what);
    const std::vector<Event> events = q.view().Timeline(from, count);
    const size_t begin = std::min(from, q.view().event_count());
    FUZZ_CHECK(events.size() == std::min(count, q.view().event_count() - begin), "Timeline " + what);
    for (size_t i = 0; i < events.size(); ++i) FUZZ_CHECK(Same(events[i], events_[begin + i]), "Timeline " + what);
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
    FUZZ_CHECK(queue_->view().event_count() == events_.size(), "event count");
    for (size_t i = 0; i < events_.size(); ++i) {
      FUZZ_CHECK(Same(queue_->view().EventAt(i), events_[i]), "event " + std::to_string(i + 1) + " changed");
    }
    if (rendered_all_) {
      FUZZ_CHECK(queue_->view().TimelineText() == timeline_,
                 "TimelineText differs from the events as they were appended");
    }
  }

  const std::vector<QuarantineEntry>& quarantine() const { return state_.quarantine; }
  const std::vector<LeaseView>& leased() const { return state_.leased; }
  const std::vector<std::string>& given() const { return given_order_; }
  size_t leases_granted() const { return model_.leases.size(); }
  int64_t now() const { return state_.now; }
  int64_t lease_ms() const { return model_.policy.lease_ms; }
  std::optional<int64_t> NextTimer() const { return model_.Next(); }
  std::optional<int64_t> LastTimer() const { return model_.Last(); }

  // "ready 2 delayed 1 leased 0 completed 1 quarantine 0 now 100 step 3 events 8", for tracing.
  std::string Summary() const {
    return "ready " + std::to_string(state_.ready.size()) + " delayed " + std::to_string(state_.delayed.size()) +
           " leased " + std::to_string(state_.leased.size()) + " completed " + std::to_string(state_.completed.size()) +
           " quarantine " + std::to_string(state_.quarantine.size()) + " now " + std::to_string(state_.now) + " step " +
           std::to_string(state_.step) + " events " + std::to_string(state_.events);
  }

 private:
  void Give(std::string_view id) {
    given_.emplace(id);
    given_order_.emplace_back(id);
  }

  // The views, with the counts checked against them, and what holds after any call.
  State Take() const {
    const Queue& q = *queue_;
    const QueueStats st = q.stats();
    State s{q.view().Ready(),
            q.view().Delayed(),
            q.view().Leased(),
            q.view().Completed(),
            q.view().Quarantined(),
            st.step,
            st.actions,
            st.now,
            st.events,
            HeapUsed()};
    FUZZ_CHECK(s.ready.size() == st.ready && s.delayed.size() == st.delayed && s.leased.size() == st.leased &&
                   s.completed.size() == st.completed && s.quarantine.size() == st.quarantined,
               "a view's size differs from stats()");
    FUZZ_CHECK(st.ready == q.stats().ready && st.delayed == q.stats().delayed && st.leased == q.stats().leased &&
                   st.completed == q.stats().completed && st.quarantined == q.stats().quarantined,
               "stats() differs from the size accessors");
    FUZZ_CHECK(st.now == q.stats().now && st.step == q.stats().step && st.events == q.view().event_count(),
               "stats() differs from now(), step(), event_count()");
    // No job has an ordering key, the policy keeps quarantine entries and sets no
    // depth alarm: those features stay out of the way.
    FUZZ_CHECK(st.reorders == 0 && st.expired == 0 && !q.view().alarm().raised, "reorders, expiries or an alarm");
    FUZZ_CHECK(s.now >= 0 && s.now <= kMaxTimeMs, "now " + std::to_string(s.now) + " is past 2^53 - 1 ms");
    // Pending timers are in the future, in firing order, and within the clock's range.
    for (size_t i = 0; i < s.delayed.size(); ++i) {
      const DelayedView& d = s.delayed[i];
      FUZZ_CHECK(d.due_at > s.now || d.due_at == kMaxTimeMs,
                 Show(d.id) + " due at " + std::to_string(d.due_at) + ", now " + std::to_string(s.now));
      FUZZ_CHECK(i == 0 || s.delayed[i - 1].due_at <= d.due_at, "Delayed() is not in firing order");
      FUZZ_CHECK(d.due_at <= kMaxTimeMs, Show(d.id) + " due at " + std::to_string(d.due_at) +
                                             ", past the end of time (2^53 - 1 ms); now " + std::to_string(s.now));
    }
    for (size_t i = 0; i < s.leased.size(); ++i) {
      const LeaseView& l = s.leased[i];
      FUZZ_CHECK(l.expires_at > s.now || l.expires_at == kMaxTimeMs,
                 l.token + " expires at " + std::to_string(l.expires_at) + ", now " + std::to_string(s.now));
      FUZZ_CHECK(i == 0 || s.leased[i - 1].expires_at <= l.expires_at, "Leased() is not in firing order");
      FUZZ_CHECK(l.expires_at <= kMaxTimeMs, l.token + " expires at " + std::to_string(l.expires_at) +
                                                 ", past the end of time (2^53 - 1 ms); now " + std::to_string(s.now));
    }
    return s;
  }

  // An outcome text Process or Settle must refuse before anything else.
  void CheckBadOutcome(const Status& s, std::string_view outcome, const char* call) {
    CheckRefusal(s, call, input_);
    const Code want = outcome.size() > kMaxOutcomeBytes ? Code::kTooLarge : Code::kInvalidArgument;
    FUZZ_CHECK(s.code() == want, std::string(call) + ": " + s.ToString());
  }

  void CheckAttempt(Outcome outcome, std::string_view error, const Result<Attempt>& attempt) {
    if (error.size() > kMaxErrorTextBytes) {
      CheckRefusal(attempt.status(), "Process", input_);
      FUZZ_CHECK(attempt.status().code() == Code::kTooLarge, attempt.status().ToString());
      return Unchanged("Process");
    }
    FUZZ_CHECK(attempt.ok(), "Process refused: " + attempt.status().ToString());
    const Attempt want = model_.Process(outcome, error);
    const Attempt& a = attempt.value();
    FUZZ_CHECK(SameAttempt(a, want),
               std::string("Process(") + OutcomeName(outcome) + "): " + Describe(a) + "; expected " + Describe(want));
    if (!a.processed) return Unchanged("Process with nothing ready");
    After("Process");
  }

  void AfterAdvance(const Status& s, bool valid, int64_t ms, const std::string& call) {
    if (!valid) {
      CheckRefusal(s, call.c_str(), input_);
      FUZZ_CHECK(s.code() == Code::kOutOfRange && StartsWith(s.message(), "ms "), call + ": " + s.ToString());
      return Unchanged("Advance out of range");
    }
    FUZZ_CHECK(s.ok(), call + " refused at " + std::to_string(state_.now) + ": " + s.ToString());
    model_.AdvanceTo(state_.now + ms);
    After("Advance");
  }

  // A refused call: nothing changed.
  void Unchanged(const char* call) {
    const State now = Take();
    FUZZ_CHECK(Same(now, state_), std::string(call) + " changed the queue when it should not have");
    FUZZ_CHECK(now.heap == state_.heap, std::string(call) + " changed the heap budget's use when it should not have");
    FUZZ_CHECK(model_.events.empty(), std::string(call) + ": the model expected events");
  }

 public:
  // worst_case() is the bounded path (backoff.h): as many attempts as the largest
  // budget of a class that retries, each lease running to its expiry, plus after
  // each attempt but the last the largest delay a class that may still retry then
  // can give. Written out here from that contract; the oracle that matters is the
  // bound check on every quarantined job's path. (Not for budgets past 1000:
  // 1,000,000 attempts take ~50 ms under the sanitizers.)
  void CheckWorstCase() {
    if (model_.policy.max_attempts > 1000) return;
    const WorstCase w = WorstCasePath(queue_->policy());
    std::vector<ClassRule> rules;
    int64_t most = 1;
    for (int c = 0; c < kFailureClassCount; ++c) {
      rules.push_back(model_.policy.RuleFor(static_cast<FailureClass>(c)));
      if (rules.back().retry) most = std::max(most, rules.back().max_attempts);
    }
    int64_t total = most * model_.policy.lease_ms, previous = 0;
    for (int64_t n = 1; n < most; ++n) {
      int64_t longest = 0;
      for (const ClassRule& rule : rules) {
        if (rule.retry && n < rule.max_attempts) {
          longest = std::max(longest, MaxDelay(rule.backoff, static_cast<uint32_t>(n), previous));
        }
      }
      previous = longest;
      total += longest;
    }
    FUZZ_CHECK(w.attempts == static_cast<uint32_t>(most) && w.time_ms == total,
               "worst_case() " + std::to_string(w.attempts) + " attempts, " + std::to_string(w.time_ms) +
                   " ms; expected " + std::to_string(most) + " attempts, " + std::to_string(total) + " ms");
    model_.worst_time = w.time_ms;
  }

 private:
  // An accepted call: the queue matches the model's prediction, and the invariants hold.
  void After(const char* call) {
    const State before = std::move(state_);
    state_ = Take();
    const State& now = state_;
    const std::string where = call;

    // Every job is in exactly one place, and only jobs ever accepted are anywhere.
    std::set<std::string> seen;
    const auto place = [&](const std::string& id) {
      FUZZ_CHECK(seen.insert(id).second, where + ": " + Show(id) + " twice");
    };
    for (const auto& j : now.ready) place(j.id);
    for (const auto& j : now.delayed) place(j.id);
    for (const auto& j : now.leased) place(j.id);
    for (const auto& j : now.completed) place(j.id);
    for (const auto& e : now.quarantine) place(e.id);
    FUZZ_CHECK(seen == given_, where + ": the views hold other jobs than those accepted");

    // Attempts within the budget; delays within the bounded path.
    const uint32_t max = model_.max_attempts();
    for (const auto& j : now.ready) FUZZ_CHECK(j.attempts < max, where);
    for (const auto& j : now.delayed) {
      FUZZ_CHECK(j.attempts >= 1 && j.attempts < max, where);
      // Due within the delay it was given (drawn within MaxDelay, Model::CheckDelay).
      const int64_t given = model_.info[j.id].last_delay;
      FUZZ_CHECK(j.due_at - now.now <= given, where + ": " + Show(j.id) + " due in " +
                                                  std::to_string(j.due_at - now.now) + " ms, after a delay of " +
                                                  std::to_string(given) + " ms");
    }
    for (const auto& j : now.leased) FUZZ_CHECK(j.attempts >= 1 && j.attempts <= max, where);
    for (const auto& j : now.completed) FUZZ_CHECK(j.attempts >= 1 && j.attempts <= max, where);
    for (const auto& e : now.quarantine) {
      // Permanent: its class never retries; exhausted: at its class's budget (never
      // above the policy's; one attempt count per job, so it may be past it).
      const ClassRule rule = model_.Rule(e.failure_class);
      FUZZ_CHECK(e.attempts >= 1 && e.attempts <= max && rule.max_attempts <= max, where);
      FUZZ_CHECK((e.reason == Reason::kPermanent && !rule.retry) ||
                     (e.reason == Reason::kExhausted && rule.retry && e.attempts >= rule.max_attempts),
                 where + ": " + Show(e.id) + " quarantined " + ReasonName(e.reason) + " after " +
                     std::to_string(e.attempts) + " attempts, class " + std::string(NameOf(e.failure_class)));
      FUZZ_CHECK(e.alert == rule.alert, where + ": " + Show(e.id) + " alert");
      FUZZ_CHECK(e.step >= 1 && e.step <= now.step, where);
      FUZZ_CHECK(e.first_attempt_at <= e.arrived_at && e.arrived_at <= now.now, where + ": " + Show(e.id) + " times");
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

    // The clock, the step, the actions and the timeline only grow; an accepted call is one action or more.
    FUZZ_CHECK(now.now >= before.now,
               where + ": the clock went back from " + std::to_string(before.now) + " to " + std::to_string(now.now));
    FUZZ_CHECK(now.step >= before.step && now.events >= before.events && now.actions > before.actions, where);

    // And the whole state and the new events are what the model says.
    FUZZ_CHECK(Same(now, model_.s), where + ": the queue differs from the model");
    FUZZ_CHECK(model_.events.size() == now.events - before.events, where);
    for (size_t i = 0; i < model_.events.size(); ++i) {
      CheckEvent(before.events + i, model_.events[i], before.actions, where);
    }
    model_.events.clear();
  }

  // The new event at `index` against the model's, in order with those before it,
  // rendered (unless its texts are long, kRenderedBytes) and kept, so that Finish()
  // can tell that it never changes.
  void CheckEvent(size_t index, const Event& x, uint64_t actions_before, const std::string& where) {
    const Event e = queue_->view().EventAt(index);
    FUZZ_CHECK(Same(e, x), where + ": event " + RenderEvent(e) + "; expected " + RenderEvent(x));
    FUZZ_CHECK(e.attempts <= model_.max_attempts(), where + ": event " + RenderEvent(e));
    FUZZ_CHECK(e.time >= last_time_ && e.time <= state_.now && e.action >= last_action_ && e.action > actions_before &&
                   e.action <= state_.actions && e.step >= last_step_,
               where + ": event " + RenderEvent(e) + " out of order");
    if (e.kind == EventKind::kDelayed) {
      FUZZ_CHECK((e.delay_ms > 0 || e.until == kMaxTimeMs) && e.until == e.time + e.delay_ms,
                 where + ": event " + RenderEvent(e));
    }
    last_time_ = e.time, last_action_ = e.action, last_step_ = e.step;
    if (e.id.size() + e.error.size() <= kRenderedBytes) {
      const std::string line = RenderEvent(e);
      FUZZ_CHECK(IsValidUtf8(line) && line.find('\n') == std::string::npos, where + ": event " + line);
      const std::string why = ExplainEvent(e);
      FUZZ_CHECK(!why.empty() && IsValidUtf8(why), where + ": event " + line);
      timeline_.append(line).append("\n");
    } else {
      rendered_all_ = false;
    }
    events_.push_back(e);
  }

  std::optional<Queue> queue_;
  std::string_view input_;
  Model model_;
  State state_;
  std::set<std::string> given_;           // every id the queue accepted
  std::vector<std::string> given_order_;  // the same, in order
  std::vector<Event> events_;             // every event, as first seen (and as the model predicted it)
  std::string timeline_;                  // every event rendered when it was appended
  bool rendered_all_ = true;              // false once an event was too long to render
  int64_t last_time_ = 0;                 // the last event's time, action and step
  uint64_t last_action_ = 0, last_step_ = 0;
};

// Version 1: lesson 1's policy; a refused maxAttempts goes on with 3.
Queue MakeLessonOneQueue(uint8_t b, std::string_view input) {
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

int64_t PolicyMs(Decoder& in) {
  const uint8_t m = in.Byte();
  return m < 0xF8 ? kPolicyMs[m % 16] : kEdgePolicyMs[m - 0xF8];
}

std::string DescribeBackoff(const Backoff& b) {
  return std::string(BackoffKindName(b.kind)) + "/" + JitterName(b.jitter) + " " + std::to_string(b.base_ms) + ".." +
         std::to_string(b.cap_ms) + " ms";
}

std::string DescribePolicy(const Policy& p) {
  std::string text = "maxAttempts " + std::to_string(p.max_attempts) + ", backoff " + DescribeBackoff(p.backoff) +
                     ", leaseMs " + std::to_string(p.lease_ms) + ", seed " + std::to_string(p.seed);
  const ClassTable defaults;
  for (int i = 0; i < kFailureClassCount; ++i) {
    const ClassRule& r = p.classes.rules[i];
    if (r == defaults.rules[i]) continue;
    text += ", classes." + std::string(kClassNames[i]) + " {" + (r.retry ? "retry" : "never") + " max " +
            std::to_string(r.max_attempts) + (r.alert ? " alert" : "") +
            (r.own_backoff ? " backoff " + DescribeBackoff(r.backoff) : "") + "}";
  }
  return text;
}

// Every field of a backoff Check must refuse, under `prefix`, with its code.
void WrongBackoff(const Backoff& b, const std::string& prefix, std::vector<std::pair<std::string, Code>>& wrong) {
  if (b.base_ms < kBaseMsField.min || b.base_ms > kBaseMsField.max)
    wrong.emplace_back(prefix + ".baseMs", Code::kOutOfRange);
  if (b.cap_ms < kCapMsField.min || b.cap_ms > kCapMsField.max || b.cap_ms < b.base_ms) {
    wrong.emplace_back(prefix + ".capMs", Code::kOutOfRange);
  }
  if ((b.kind == BackoffKind::kNone && b.jitter != Jitter::kNone) ||
      (b.jitter == Jitter::kDecorrelated && b.kind != BackoffKind::kExponential)) {
    wrong.emplace_back(prefix + ".jitter", Code::kInvalidArgument);
  }
}

// Version 2: a whole policy. nullopt when Create refused it (as it must).
std::optional<Queue> MakeQueue(Decoder& in, std::string_view input) {
  Policy p;
  const uint8_t a = in.Byte();
  p.max_attempts = a < 0xF8 ? 1 + a % 8 : kEdgeAttempts[a - 0xF8];
  const uint8_t k = in.Byte();
  const BackoffPair pair = k < 0xF0 ? kBackoffs[k % 8] : kBadBackoffs[k % 4];
  p.backoff.kind = pair.kind;
  p.backoff.jitter = pair.jitter;
  p.backoff.base_ms = PolicyMs(in);
  const uint8_t c = in.Byte();
  const int64_t base = p.backoff.base_ms;
  const bool base_ok = base >= kBaseMsField.min && base <= kBaseMsField.max;
  if (c < 0xF8) {
    p.backoff.cap_ms = base_ok ? std::min(kMaxDelayMs, base * kCapFactors[c % 8]) : 60'000;
  } else {
    const int64_t edges[8] = {base_ok ? base - 1 : 0, 0, -1, kMaxDelayMs + 1, kI64Min, kI64Max, kMaxDelayMs, base};
    p.backoff.cap_ms = edges[c - 0xF8];
  }
  p.lease_ms = PolicyMs(in);
  const uint8_t s = in.Byte();
  p.seed = s < 0xF0 ? s : s < 0xF8 ? kBigSeeds[s % 8] : kEdgeSeeds[s - 0xF8];
  // The class table: up to six rules changed.
  const bool max_ok = p.max_attempts >= kMaxAttemptsField.min && p.max_attempts <= kMaxAttemptsField.max;
  for (int changes = 0; changes < kFailureClassCount; ++changes) {
    const uint8_t t = in.Byte();
    if (t < 0x80) break;
    ClassRule& rule = p.classes.rules[t % kFailureClassCount];
    const uint8_t r = in.Byte();
    rule = ClassRule{};
    if (r >= 0xF8) {
      rule.max_attempts = kEdgeClassAttempts[r - 0xF8];
      continue;
    }
    rule.retry = (r & 1) != 0;
    rule.alert = (r & 2) != 0;
    const int64_t m = kClassAttempts[r >> 2 & 7];
    const int64_t policy_max = max_ok ? p.max_attempts : 3;
    rule.max_attempts = m == kPolicyMax ? policy_max : m == kAbovePolicy ? policy_max + 1 : m;
    if ((r & 0x20) != 0) {
      rule.own_backoff = true;
      const uint8_t o = in.Byte();
      if (o < 0xF0) {
        rule.backoff.kind = kBackoffs[o % 8].kind;
        rule.backoff.jitter = kBackoffs[o % 8].jitter;
        rule.backoff.base_ms = kPolicyMs[o / 8 % 16];
        rule.backoff.cap_ms = o < 0x80 ? rule.backoff.base_ms : std::min(kMaxDelayMs, 100 * rule.backoff.base_ms);
      } else {
        rule.backoff = kOddClassBackoffs[o % 8];
      }
    }
  }

  // Every field Check must refuse, with the code it must give.
  std::vector<std::pair<std::string, Code>> wrong;
  const auto range = [&](const IntegerField& f, const std::string& name, int64_t v) {
    if (v < f.min || v > f.max) wrong.emplace_back(name, Code::kOutOfRange);
  };
  range(kMaxAttemptsField, kMaxAttemptsField.name, p.max_attempts);
  WrongBackoff(p.backoff, "backoff", wrong);
  range(kLeaseMsField, kLeaseMsField.name, p.lease_ms);
  range(kSeedField, kSeedField.name, p.seed);
  for (int i = 0; i < kFailureClassCount; ++i) {
    const ClassRule& rule = p.classes.rules[i];
    const std::string prefix = "classes." + std::string(kClassNames[i]);
    range(kClassMaxAttemptsField, prefix + ".maxAttempts", rule.max_attempts);
    if (rule.own_backoff) WrongBackoff(rule.backoff, prefix + ".backoff", wrong);
  }

  Result<Queue> made = Queue::Create(p);
  const std::string what = "Create(" + DescribePolicy(p) + ")";
  if (!wrong.empty()) {
    const Status& st = made.status();
    CheckRefusal(st, what.c_str(), input);
    bool named = false;
    for (const auto& [name, code] : wrong) named = named || (StartsWith(st.message(), name + " ") && st.code() == code);
    FUZZ_CHECK(named, what + " refused without naming a wrong field first: " + st.ToString());
    if (kTrace) std::fprintf(stderr, "%s -> refused: %s\n", what.c_str(), st.ToString().c_str());
    return std::nullopt;
  }
  FUZZ_CHECK(made.ok(), what + " refused: " + made.status().ToString());
  FUZZ_CHECK(made->policy() == p, what + " kept another policy: " + DescribePolicy(made->policy()));
  FUZZ_CHECK(made->stats().now == 0, what + ": a new queue's clock is not at 0");
  if (kTrace) std::fprintf(stderr, "%s\n", what.c_str());
  return std::move(made).value();
}

// Version 1 knows lesson 1's three outcomes; version 2 all six (policy.h).
std::string_view OutcomeText(Decoder& in, int version) {
  const uint8_t o = in.Byte();
  if (version == 2) {
    if (o % 8 < 6) return kOutcomeNames[o % 8];
    return o % 8 == 6 ? kBadOutcomes[o / 8 % 8] : in.Raw();
  }
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

std::string TokenOperand(Decoder& in, const Harness& h) {
  const uint8_t t = in.Byte();
  const size_t granted = h.leases_granted();
  switch (t % 8) {
    case 0:
    case 1:
    case 2: return Token(granted == 0 ? 1 : 1 + in.Byte() % granted);
    case 3:
      if (!h.leased().empty()) return h.leased()[in.Byte() % h.leased().size()].token;
      [[fallthrough]];
    case 4: return Token(granted + 1 + in.Byte() % 3);
    case 5: return std::string(kBadTokens[in.Byte() % 16]);
    case 6: return std::string(in.String(Kind::kId));
    default: return Token(granted);
  }
}

int64_t Duration(Decoder& in, const Harness& h) {
  const uint8_t d = in.Byte();
  const int64_t around = d % 3 - 1;
  const int64_t left = kMaxTimeMs - h.now();  // room left on the clock
  if (d < 0x40) return kSmallMs[d % 16];
  if (d < 0x80) {
    const auto next = h.NextTimer();
    return next ? *next - h.now() + around : kSmallMs[d % 16];
  }
  if (d < 0xA0) return h.lease_ms() * (1 + d % 4) + d / 4 % 3 - 1;
  if (d < 0xC0) {
    const auto last = h.LastTimer();
    return last ? *last - h.now() + around : kSmallMs[d % 16];
  }
  if (d < 0xD0) return left - kSmallMs[d % 16];
  if (d < 0xE0) return left + 1 + d % 16;
  if (d < 0xF0) return in.Int64();
  return kEdgeAdvance[d % 16];
}

double DoubleDuration(Decoder& in, const Harness& h) {
  const uint8_t d = in.Byte();
  return d < 0x80 ? static_cast<double>(Duration(in, h)) : kOddDoubles[d % 16];
}

// Traces an operation before it runs (so a failing one is the last line).
void Note(const std::string& operation) { std::fprintf(stderr, "%-60s", operation.c_str()); }

// The operations, decoded and applied until the input runs out; version 1 knows
// only the first 11.
void Run(Decoder& in, Harness& h, int version) {
  while (!in.done()) {
    std::string trace;  // EnqueueMany's jobs, when tracing
    const uint8_t op = in.Byte();
    switch (version == 1 ? op % 11 : op % 16) {
      case 0:
      case 1: {
        const std::string_view id = in.String(Kind::kId);
        const std::string_view payload = in.String(Kind::kPayload);
        if (kTrace) Note("Enqueue(" + Show(id) + ", " + Show(payload) + ")");
        h.Enqueue(id, payload);
        break;
      }
      case 2:
      case 3: {
        const std::string_view outcome = OutcomeText(in, version);
        const std::string_view error = in.String(Kind::kError);
        if (kTrace) Note("Process(" + Show(outcome) + ", " + Show(error) + ")");
        h.Process(outcome, error);
        break;
      }
      case 4: {
        const auto outcome = kOutcomes[in.Byte() % (version == 1 ? 3 : 6)];
        const std::string_view error = in.String(Kind::kError);
        if (kTrace) Note(std::string("Process(Outcome ") + OutcomeName(outcome) + ", " + Show(error) + ")");
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
        if (kTrace) Note("ProcessMany(" + Show(letters) + ", " + Show(error) + ")");
        h.ProcessMany(letters, error);
        break;
      }
      case 6:
      case 7: {
        // Copied: the target may view a quarantine entry the call removes.
        const std::string id(ReplayTarget(in, h));
        if (kTrace) Note("Replay(" + Show(id) + ")");
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
        if (kTrace) Note(trace + ")");
        h.EnqueueMany(jobs);
        break;
      }
      case 9: {
        const size_t from = in.Slice();
        const size_t count = in.Slice();
        if (kTrace) Note("views from " + std::to_string(from) + " count " + std::to_string(count));
        h.Views(from, count);
        break;
      }
      case 10:
        if (kTrace) Note("move");
        h.Move();
        break;
      case 11:
        if (kTrace) Note("Lease()");
        h.Lease();
        break;
      case 12: {
        const std::string token = TokenOperand(in, h);
        const std::string_view outcome = OutcomeText(in, version);
        const std::string_view error = in.String(Kind::kError);
        if (kTrace) Note("Settle(" + Show(token) + ", " + Show(outcome) + ", " + Show(error) + ")");
        h.Settle(token, outcome, error);
        break;
      }
      case 13: {
        const int64_t ms = Duration(in, h);
        if (kTrace) Note("Advance(" + std::to_string(ms) + ")");
        h.Advance(ms);
        break;
      }
      case 14:
        if (kTrace) Note("AdvanceToNext()");
        h.AdvanceToNext();
        break;
      default: {
        const double ms = DoubleDuration(in, h);
        if (kTrace) Note("Advance(double " + DescribeNumber(ms) + ")");
        h.Advance(ms);
        break;
      }
    }
    if (kTrace) std::fprintf(stderr, " -> %s\n", h.Summary().c_str());
  }
  h.Finish();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t heap_before = HeapUsed();
  {
    Decoder in(data, size);
    const uint8_t b = in.Byte();
    const int version = b < 0x40 || b >= 0xF8 ? 1 : 2;
    std::optional<Queue> queue;
    if (version == 1) {
      queue.emplace(MakeLessonOneQueue(b, input));
    } else {
      queue = MakeQueue(in, input);
    }
    if (queue) {
      Harness h(std::move(*queue), input);
      if (version == 2) h.CheckWorstCase();
      Run(in, h, version);
    }
  }
  // A destroyed queue gives back all it charged to the heap budget.
  FUZZ_CHECK(HeapUsed() == heap_before, "heap budget use " + std::to_string(HeapUsed()) + " after the queue is gone, " +
                                            std::to_string(heap_before) + " before");
  return 0;
}
