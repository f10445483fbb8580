// libFuzzer harness: snapshots, the journal and crash recovery (core/queue/queue.h,
// "Durability": Snapshot, SnapshotText, Journal, Restore, Recover). A crash, a
// sanitizer report, a hang or a broken invariant below is a finding.
//
// Byte 0 chooses the mode (reading past the end of the input gives 0 bytes).
// Every check below that recovers does it at one or two crash points the input
// chooses, not at all of them: recovering is linear in the journal, so checking
// every point would make each input quadratic; the fuzzer tries them all in time.
//
// Restore mode (byte 0 < 0x80): bytes 1 up to the first NUL are a snapshot text
// without its end line; the harness appends a correct "end <crc32>\n" itself, so
// the fuzzer explores the structure behind the checksum (a NUL cannot occur in a
// snapshot). After that NUL: a PICK byte, then OPS (at most 16).
//  * Queue::Restore either refuses (invalid-snapshot, unsupported-version or
//    too-large, a proper one-line UTF-8 message) or accepts, and then
//    SnapshotText() is the input text exactly (one text per state), the views
//    agree with stats() and hold every id at most once, and the timeline renders
//    and explains;
//  * Recover(input, {}) (what a crash right after the snapshot finds) refuses
//    with invalid-snapshot, or accepts; accepted, its queue's text restores to
//    itself, and when Restore accepted the input it is the input;
//  * then OPS run on the restored queue (a refusal is a proper Status; it, and a
//    call with nothing to do, moves no counter and writes no journal record), and
//    afterwards SnapshotText() restores to the same text;
//  * with a journal: Recover(input, Journal()) at the end, and at the boundary
//    PICK chooses (0 before the first operation, i after the i-th; bit 7: with
//    the next record torn), gives the text the queue had there, with nothing
//    lost or duplicated.
//
// Journal mode (byte 0 >= 0x80): a small queue under a POLICY (2 bytes); a PICK
// byte (as above; boundaries count from the journal's start); OPS (n = next byte
// % 8); then the next byte % 4: 0 keeps the journal since creation, else
// Snapshot(); then OPS (n = next byte % 24). The restored snapshot runs the same
// OPS in lockstep and must give the same results, the same text and the same
// journal records (restoring loses nothing, the jitter stream included).
// Journal() then gives records r[0..n), and, unmutated:
//  * Recover at the end and at the chosen boundary gives the text the queue had
//    there, with nothing lost or duplicated;
//  * Recover at the crash point the next byte chooses (k = first + (c & 0x7F) %
//    (n − first + 1), first 0 after a snapshot, 1 since creation; torn with bit 7)
//    succeeds; every job id given before it (in the snapshot, or enqueued by
//    r[0..k)) is in exactly one view or in Recovery::lost, or was dropped at its
//    retention (stats().expired); nothing else is in a view; stats().lost is
//    lost's size; lost is empty unless policy.unsafe_quarantine_order; the text
//    restores to itself.
// Then a MUTATION of the journal (bytes below), a CRASH point and torn or not,
// and Recover must refuse (invalid-argument, invalid-snapshot or out-of-range;
// out-of-range exactly when the crash point is outside the journal, but
// invalid-argument for an empty journal since creation; a record with
// one byte changed and a stale check is always refused when applied) or accept a
// queue whose text restores to itself and which still runs OPS (the remaining
// bytes, at most 16) with the same round trip afterwards.
//
//   POLICY  byte p: maxAttempts 1 + p % 4, ordering (none, key, stall)[p / 4 % 3],
//           unsafeQuarantineOrder bit 4, retentionMs 5000 with bit 5, alarmDepth 2
//           with bit 6, journal off with bit 7 (only the lockstep check then);
//           byte q: backoff (none, fixed 100, exponential 100..1000 full jitter,
//           exponential 50..400 decorrelated)[q % 4], leaseMs (1000, 30000, 50,
//           5000)[q / 4 % 4], seed q / 16 % 4, with bit 6 permanent failures retry
//           (budget 2) and crashes raise an alert
//   OPS     an opcode byte b, by b % 12: 0, 1 Enqueue(ID, PAYLOAD, KEY); 2, 3
//           Process(OUTCOME, ERROR); 4 Lease(); 5 Settle(TOKEN, OUTCOME, ERROR);
//           6 Advance(MS); 7 AdvanceToNext(); 8 Replay(ID); 9 Redrive(byte: 0 (refused),
//           1, 2, 3, 10^9); 10 ReleaseKey(KEY); 11 with b / 12 even ProcessMany(byte
//           % 6 letters "stp", 0xFF: a bad one), else EnqueueMany of two (ID,
//           PAYLOAD, KEY)
//   ID      byte s: < 0xA0 "j" + s % 16; < 0xE0 an id in a view (next byte); else odd
//           ids ("", "a b", "%41", "é", "\n", "\0z", "\xff", 1025 bytes)
//   KEY     byte % 8: "" (0-2), "k0", "k1", "k2", "%k y", the key of a ready job
//   PAYLOAD byte % 4: "p", "", "\0\xff", "pay load %20"
//   OUTCOME byte % 8: the six outcomes, "Success", ""
//   ERROR   byte e: 0xFF 64 KiB + 1 (refused); else by e % 5: "", "", "e1", "db timeout",
//           "\xff%\n"
//   TOKEN   byte % 4: "lease-(1 + next % 16)"; an active lease's (next byte); a bad
//           one (next byte); an active lease's
//   MS      byte m: < 0xC0 a table of 0 .. 86400001 ms; < 0xE0 to the next pending
//           timer −1/0/+1; < 0xF0 to the end of time minus m % 4; else −1, 2^53,
//           INT64_MAX, INT64_MIN (refused)
//   MUTATION  byte: kind % 8 (0 a byte changed, 1 truncated, 2 a word replaced, 3 two
//           records swapped, 4 one duplicated, 5 one deleted, 6 a word inserted, 7
//           none); a record (byte), a position (2 bytes), a value (byte); then the
//           repair (byte % 4): 0 its check recomputed, 1 and the chain after it
//           (each later record's previous check and own check), 2 and every record
//           renumbered and rechained, 3 nothing (a stale check)
//   CRASH   byte c: < 0xF0 k = c % (n + 1); else nullopt, −1, n + 1, INT64_MIN,
//           INT64_MAX, 0; then a byte: torn with bit 0
//
// Seeds: DLQ_SNAPSHOT_FUZZ_SEEDS=<dir> ./snapshot_fuzz writes seed inputs of both
// modes into <dir> (scripts/dlq.mjs does this) and exits; they come from the core's
// own writer, so they stay valid when the format changes.
// DLQ_FUZZ_TRACE=1 prints each operation, recovery and mutation.
// Inputs that found bugs are kept in tests/fuzz/regressions/snapshot/ and run first in every smoke run.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "crc32.h"
#include "durable_text.h"
#include "fuzz_check.h"

using namespace dlq;
using dlq::fuzz::CheckRefusal;
using dlq::fuzz::HeapUsed;
using dlq::fuzz::Show;

namespace {

const bool kTrace = std::getenv("DLQ_FUZZ_TRACE") != nullptr;

void Note(const std::string& line) {
  if (kTrace) std::fprintf(stderr, "%s\n", line.c_str());
}

constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();

class Decoder {
 public:
  Decoder(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  uint16_t U16() { return static_cast<uint16_t>(Byte() | (Byte() << 8)); }
  bool empty() const { return pos_ >= size_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

std::string Hex8(uint32_t v) {
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", v);
  return buf;
}

// The snapshot text of `body` with its correct end line.
std::string WithEnd(std::string_view body) {
  std::string text(body);
  text += "end " + Hex8(Crc32(body)) + "\n";
  return text;
}

std::string TextOf(const Queue& q, std::string_view input) {
  Result<std::string> text = q.view().SnapshotText();
  FUZZ_CHECK(text.ok(), "SnapshotText() refused a small queue: " + text.status().ToString() + " on " + Show(input));
  return std::move(text).value();
}

// ---- views ------------------------------------------------------------------------

// Every id in a view, each checked to be in one place only, and the counts.
std::vector<std::string> PlacedIds(const Queue& q, std::string_view input) {
  const QueueStats s = q.stats();
  const auto ready = q.view().Ready();
  const auto delayed = q.view().Delayed();
  const auto leased = q.view().Leased();
  const auto completed = q.view().Completed();
  const auto quarantined = q.view().Quarantined();
  const auto where = [&] { return " on " + Show(input); };
  FUZZ_CHECK(ready.size() == s.ready && s.ready == q.stats().ready, where());
  FUZZ_CHECK(delayed.size() == s.delayed && s.delayed == q.stats().delayed, where());
  FUZZ_CHECK(leased.size() == s.leased && s.leased == q.stats().leased, where());
  FUZZ_CHECK(completed.size() == s.completed && s.completed == q.stats().completed, where());
  FUZZ_CHECK(quarantined.size() == s.quarantined && s.quarantined == q.stats().quarantined, where());
  FUZZ_CHECK(s.events == q.view().event_count() && s.now == q.stats().now && s.step == q.stats().step, where());
  std::vector<std::string> ids;
  for (const auto& j : ready) ids.push_back(j.id);
  for (const auto& j : delayed) {
    ids.push_back(j.id);
    FUZZ_CHECK(j.due_at >= s.now && j.due_at <= kMaxTimeMs, "delayed " + Show(j.id) + where());
  }
  for (const auto& j : leased) {
    ids.push_back(j.id);
    FUZZ_CHECK(j.expires_at >= s.now && j.expires_at <= kMaxTimeMs, "leased " + Show(j.id) + where());
  }
  for (const auto& j : completed) ids.push_back(j.id);
  for (const auto& j : quarantined) ids.push_back(j.id);
  std::set<std::string> seen;
  for (const std::string& id : ids)
    FUZZ_CHECK(seen.insert(id).second, "job " + Show(id) + " is in two views" + where());
  return ids;
}

// The views, the timeline (rendered and explained) and the other read-only calls.
void CheckReadable(const Queue& q, std::string_view input) {
  PlacedIds(q, input);
  const size_t events = q.view().event_count();
  for (size_t i = 0; i < events; ++i) {
    const Event e = q.view().EventAt(i);
    const std::string line = RenderEvent(e);
    FUZZ_CHECK(line.find('\n') == std::string::npos && IsValidUtf8(line), "event line " + Show(line));
    (void)ExplainEvent(e);
  }
  (void)q.view().Reorders();
  (void)q.view().alarm();
  (void)WorstCasePath(q.policy());
}

// ---- operations -------------------------------------------------------------------

enum OpKind {
  kEnqueue,
  kProcess,
  kLease,
  kSettle,
  kAdvance,
  kAdvanceToNext,
  kReplay,
  kRedrive,
  kReleaseKey,
  kProcessMany,
  kEnqueueMany
};

struct Op {
  OpKind kind = kEnqueue;
  std::string a, b, c;  // id, payload, key; outcome, error; token, outcome, error; key; letters
  std::string d, e, f;  // EnqueueMany's second job
  int64_t n = 0;        // Advance's ms, Redrive's max
  std::string Describe() const {
    switch (kind) {
      case kEnqueue: return "Enqueue(" + Show(a) + ", " + Show(b) + ", " + Show(c) + ")";
      case kProcess: return "Process(" + Show(a) + ", " + Show(b) + ")";
      case kLease: return "Lease()";
      case kSettle: return "Settle(" + Show(a) + ", " + Show(b) + ", " + Show(c) + ")";
      case kAdvance: return "Advance(" + std::to_string(n) + ")";
      case kAdvanceToNext: return "AdvanceToNext()";
      case kReplay: return "Replay(" + Show(a) + ")";
      case kRedrive: return "Redrive(" + std::to_string(n) + ")";
      case kReleaseKey: return "ReleaseKey(" + Show(a) + ")";
      case kProcessMany: return "ProcessMany(" + Show(a) + ")";
      case kEnqueueMany:
        return "EnqueueMany({" + Show(a) + ", " + Show(b) + ", " + Show(c) + "}, {" + Show(d) + ", " + Show(e) + ", " +
               Show(f) + "})";
    }
    return "?";
  }
};

const std::string kOddIds[8] = {
    "", "a b", "%41", "\xc3\xa9", "\n", std::string("\0z", 2), "\xff", std::string(kMaxIdBytes + 1, 'i')};
const std::string kKeys[7] = {"", "", "", "k0", "k1", "k2", "%k y"};
const std::string kPayloads[4] = {"p", "", std::string("\0\xff", 2), "pay load %20"};
const std::string kOutcomeTexts[8] = {"success",        "transient",    "permanent", "undeserializable",
                                      "unknown-schema", "precondition", "Success",   ""};
const std::string kErrors[5] = {"", "", "e1", "db timeout", "\xff%\n"};
const std::string kBadTokens[8] = {"lease-0",          "lease-01", "x",      "lease-4294967296",
                                   "lease-4294967295", "",         "lease-", "lease-1 "};
constexpr int64_t kMs[16] = {0,   1,    2,    10,   49,     50,     51,          100,
                             999, 1000, 1001, 5000, 30'000, 60'000, kMaxDelayMs, kMaxDelayMs + 1};
constexpr int64_t kEdgeMs[4] = {-1, int64_t{1} << 53, kI64Max, kI64Min};

std::string DecodeId(Decoder& in, const Queue& q, std::string_view input) {
  const uint8_t s = in.Byte();
  if (s < 0xA0) return "j" + std::to_string(s % 16);
  if (s < 0xE0) {
    const std::vector<std::string> ids = PlacedIds(q, input);
    const uint8_t k = in.Byte();
    return ids.empty() ? "j0" : ids[k % ids.size()];
  }
  return kOddIds[s % 8];
}

std::string DecodeKey(Decoder& in, const Queue& q) {
  const uint8_t k = in.Byte() % 8;
  if (k < 7) return kKeys[k];
  for (const JobView& j : q.view().Ready()) {
    if (!j.key.empty()) return j.key;
  }
  return "k0";
}

std::string DecodeError(Decoder& in) {
  const uint8_t e = in.Byte();
  if (e == 0xFF) return std::string(kMaxErrorTextBytes + 1, 'e');
  return kErrors[e % 5];
}

std::string DecodeToken(Decoder& in, const Queue& q) {
  const uint8_t t = in.Byte() % 4;
  const uint8_t k = in.Byte();
  if (t == 0) return "lease-" + std::to_string(1 + k % 16);
  if (t == 2) return kBadTokens[k % 8];
  const std::vector<LeaseView> active = q.view().Leased();
  return active.empty() ? "lease-1" : active[k % active.size()].token;
}

int64_t DecodeMs(Decoder& in, const Queue& q) {
  const uint8_t m = in.Byte();
  if (m < 0xC0) return kMs[m % 16];
  if (m < 0xE0) {
    int64_t next = kI64Max;
    for (const DelayedView& d : q.view().Delayed()) next = std::min(next, d.due_at);
    for (const LeaseView& l : q.view().Leased()) next = std::min(next, l.expires_at);
    if (q.policy().retention_ms > 0) {
      for (const QuarantineEntry& e : q.view().Quarantined())
        next = std::min(next, Later(e.arrived_at, q.policy().retention_ms));
    }
    if (next == kI64Max) return kMs[m % 16];
    return std::max<int64_t>(0, next - q.stats().now + (m % 3) - 1);
  }
  if (m < 0xF0) return kMaxTimeMs - q.stats().now - m % 4;
  return kEdgeMs[m % 4];
}

Op DecodeOp(Decoder& in, const Queue& q, std::string_view input) {
  Op op;
  const uint8_t b = in.Byte();
  switch (b % 12) {
    case 0:
    case 1:
      op.kind = kEnqueue;
      op.a = DecodeId(in, q, input);
      op.b = kPayloads[in.Byte() % 4];
      op.c = DecodeKey(in, q);
      break;
    case 2:
    case 3:
      op.kind = kProcess;
      op.a = kOutcomeTexts[in.Byte() % 8];
      op.b = DecodeError(in);
      break;
    case 4: op.kind = kLease; break;
    case 5:
      op.kind = kSettle;
      op.a = DecodeToken(in, q);
      op.b = kOutcomeTexts[in.Byte() % 8];
      op.c = DecodeError(in);
      break;
    case 6:
      op.kind = kAdvance;
      op.n = DecodeMs(in, q);
      break;
    case 7: op.kind = kAdvanceToNext; break;
    case 8:
      op.kind = kReplay;
      op.a = DecodeId(in, q, input);
      break;
    case 9: {
      op.kind = kRedrive;
      const uint8_t r = in.Byte() % 5;
      op.n = r == 4 ? 1'000'000'000 : r;
      break;
    }
    case 10:
      op.kind = kReleaseKey;
      op.a = DecodeKey(in, q);
      break;
    case 11:
      if (b / 12 % 2 == 0) {
        op.kind = kProcessMany;
        const uint8_t n = in.Byte();
        for (int i = 0; i < n % 6; ++i) op.a.push_back("stp"[in.Byte() % 3]);
        if (n == 0xFF) op.a.push_back('x');
      } else {
        op.kind = kEnqueueMany;
        op.a = DecodeId(in, q, input);
        op.b = kPayloads[in.Byte() % 4];
        op.c = DecodeKey(in, q);
        op.d = DecodeId(in, q, input);
        op.e = kPayloads[in.Byte() % 4];
        op.f = DecodeKey(in, q);
      }
      break;
  }
  return op;
}

// What a call did, as text: two queues in the same state must give the same.
std::string Summary(const Attempt& a) {
  if (!a.processed) return "nothing";
  return a.id + " #" + std::to_string(a.attempt) + " " + OutcomeName(a.outcome) + " " + DispositionName(a.disposition) +
         " " + ReasonName(a.reason) + " " + std::to_string(a.delay_ms) + " " + std::to_string(a.due_at);
}

// Runs `op`; a refusal must be proper. Returns what it did, and whether it
// changed nothing by contract (a refusal, or nothing to do).
std::string Apply(Queue& q, const Op& op, bool* unchanged, std::string_view input) {
  const char* call = "?";
  Status st;
  std::string out;
  *unchanged = false;
  switch (op.kind) {
    case kEnqueue:
      call = "Enqueue";
      st = q.Enqueue(op.a, op.b, op.c);
      break;
    case kProcess: {
      call = "Process";
      Result<Attempt> r = q.Process(op.a, op.b);
      if (r.ok()) {
        out = Summary(r.value());
        *unchanged = !r->processed;
      }
      st = r.status();
      break;
    }
    case kLease: {
      call = "Lease";
      Result<LeaseGrant> r = q.Lease();
      if (r.ok()) {
        out = r->leased
                  ? r->id + " " + r->token + " #" + std::to_string(r->attempt) + " " + std::to_string(r->expires_at)
                  : "nothing";
        *unchanged = !r->leased;
      }
      st = r.status();
      break;
    }
    case kSettle: {
      call = "Settle";
      Result<Attempt> r = q.Settle(op.a, op.b, op.c);
      if (r.ok()) out = Summary(r.value());
      st = r.status();
      break;
    }
    case kAdvance:
      call = "Advance";
      st = q.Advance(op.n);
      break;
    case kAdvanceToNext: {
      const std::optional<int64_t> t = q.AdvanceToNext();
      out = t ? std::to_string(*t) : "nothing";
      *unchanged = !t;
      break;
    }
    case kReplay: {
      const bool moved = q.Replay(op.a);
      out = moved ? "replayed" : "not replayed";
      *unchanged = !moved;
      break;
    }
    case kRedrive: {
      call = "Redrive";
      Result<uint64_t> r = q.Redrive(op.n);
      if (r.ok()) {
        out = std::to_string(r.value());
        *unchanged = r.value() == 0;
      }
      st = r.status();
      break;
    }
    case kReleaseKey: {
      call = "ReleaseKey";
      Result<uint64_t> r = q.ReleaseKey(op.a);
      if (r.ok()) {
        out = std::to_string(r.value());
        *unchanged = r.value() == 0;
      }
      st = r.status();
      break;
    }
    case kProcessMany: {
      call = "ProcessMany";
      Result<uint64_t> r = q.ProcessMany(op.a);
      if (r.ok()) {
        out = std::to_string(r.value());
        *unchanged = r.value() == 0;
      }
      st = r.status();
      break;
    }
    case kEnqueueMany:
      call = "EnqueueMany";
      st = q.EnqueueMany({{op.a, op.b, op.c}, {op.d, op.e, op.f}});
      break;
  }
  if (!st.ok()) {
    CheckRefusal(st, call, input);
    *unchanged = true;
    return std::string(CodeName(st.code())) + ": " + st.message();
  }
  return out;
}

// The counters a change moves: a call that changes nothing leaves them as they were.
std::string Counters(const Queue& q) {
  const QueueStats s = q.stats();
  std::string out;
  for (const uint64_t v :
       {s.step, s.actions, static_cast<uint64_t>(s.now), uint64_t{s.ready}, uint64_t{s.delayed}, uint64_t{s.leased},
        uint64_t{s.completed}, uint64_t{s.quarantined}, uint64_t{s.events}, uint64_t{s.reorders}, uint64_t{s.expired},
        uint64_t{s.lost}, uint64_t{q.view().journal_size()}}) {
    out += std::to_string(v) + " ";
  }
  return out;
}

// Runs `op` on `q` and checks it: a refusal or a call with nothing to do moves
// no counter and writes nothing to the journal.
std::string Step(Queue& q, const Op& op, std::string_view input) {
  const std::string before = Counters(q);
  bool unchanged = false;
  const std::string did = Apply(q, op, &unchanged, input);
  Note("  " + op.Describe() + " -> " + did);
  if (unchanged) {
    FUZZ_CHECK(Counters(q) == before, op.Describe() + " -> " + did + " changed the queue: " + before + "-> " +
                                          Counters(q) + " on " + Show(input));
  }
  return did;
}

// Restores `text`, which must be accepted and give itself back.
void CheckRoundTrip(const std::string& text, std::string_view input, const char* what) {
  Result<Queue> again = Queue::Restore(text);
  FUZZ_CHECK(again.ok(), std::string(what) +
                             ": Restore refused the queue's own snapshot: " + again.status().ToString() +
                             "\n  snapshot: " + QuoteShort(text, 4000) + "\n  input: " + Show(input));
  const std::string back = TextOf(again.value(), input);
  FUZZ_CHECK(back == text, std::string(what) + ": a restored snapshot's text differs from the snapshot\n  snapshot: " +
                               QuoteShort(text, 4000) + "\n  restored: " + QuoteShort(back, 4000) +
                               "\n  input: " + Show(input));
}

// A Recover() refusal: a proper Status of one of `codes`.
void CheckRecoverRefusal(const Status& s, std::initializer_list<Code> codes, std::string_view input) {
  CheckRefusal(s, "Recover", input);
  bool known = false;
  for (const Code c : codes) known = known || s.code() == c;
  FUZZ_CHECK(known, "Recover refused with an unexpected code: " + s.ToString() + " on " + Show(input));
}

std::vector<std::string_view> Views(const std::vector<std::string>& records) {
  return {records.begin(), records.end()};
}

// An operation boundary to recover at: the journal's length after an operation,
// the queue's text then, and whether the next record is torn.
struct Boundary {
  int64_t writes;
  std::string text;
  bool torn = false;
};

// Recovering at an operation boundary (and with a torn next record) gives the
// text the queue had there, with nothing lost or duplicated. The harness checks
// the last boundary and one the input chooses (recovering is linear in the
// journal: checking every one would make an input quadratic).
void CheckBoundaries(std::optional<std::string_view> snapshot, const std::vector<std::string>& records,
                     const std::vector<Boundary>& boundaries, std::string_view input) {
  const std::vector<std::string_view> journal = Views(records);
  const int64_t n = static_cast<int64_t>(records.size());
  for (const Boundary& b : boundaries) {
    const bool torn = b.torn && b.writes < n;
    RecoverOptions options;
    options.crash_after = b.writes;
    options.torn = torn;
    Result<Recovery> r = Queue::Recover(snapshot, journal, options);
    const std::string where = "Recover at operation boundary " + std::to_string(b.writes) + " of " + std::to_string(n) +
                              (torn ? " (torn)" : "");
    Note(where);
    FUZZ_CHECK(r.ok(), where + " refused: " + r.status().ToString() + " on " + Show(input));
    FUZZ_CHECK(r->lost.empty() && r->duplicated.empty(),
               where + " found a job lost or in two places on " + Show(input));
    FUZZ_CHECK(r->torn_discarded == torn, where + ": torn_discarded on " + Show(input));
    FUZZ_CHECK(r->applied == static_cast<uint64_t>(b.writes), where + ": applied " + std::to_string(r->applied));
    const std::string text = TextOf(r->queue, input);
    FUZZ_CHECK(text == b.text, where + " gives another queue\n  expected: " + QuoteShort(b.text, 4000) +
                                   "\n  recovered: " + QuoteShort(text, 4000) + "\n  input: " + Show(input));
  }
}

// Operations from the remaining bytes on `q` (at most `max`), each checked; then
// the views, the timeline and the round trip. `pick` (bit 7: torn) chooses the
// boundary to keep in `*boundaries`: 0 before the first operation, i after the
// i-th; the last one is kept too.
void RunOps(Queue& q, Decoder& in, size_t max, std::string_view input, uint8_t pick = 0,
            std::vector<Boundary>* boundaries = nullptr) {
  const size_t chosen = (pick & 0x7F) % (max + 1);
  if (boundaries && chosen == 0) boundaries->push_back({0, TextOf(q, input), (pick & 0x80) != 0});
  size_t i = 0;
  for (; i < max && !in.empty(); ++i) {
    Step(q, DecodeOp(in, q, input), input);
    if (boundaries && i + 1 == chosen) {
      boundaries->push_back({static_cast<int64_t>(q.view().journal_size()), TextOf(q, input), (pick & 0x80) != 0});
    }
  }
  const std::string text = TextOf(q, input);
  if (boundaries) boundaries->push_back({static_cast<int64_t>(q.view().journal_size()), text});
  CheckReadable(q, input);
  CheckRoundTrip(text, input, "after the operations");
}

// ---- restore mode -----------------------------------------------------------------

void RestoreMode(std::string_view rest, std::string_view input) {
  const size_t nul = rest.find('\0');
  const std::string_view body = rest.substr(0, nul);
  const std::string_view ops = nul == std::string_view::npos ? std::string_view() : rest.substr(nul + 1);
  const std::string text = WithEnd(body);
  Decoder in(reinterpret_cast<const uint8_t*>(ops.data()), ops.size());
  const uint8_t pick = in.Byte();

  Result<Queue> restored = Queue::Restore(text);
  if (!restored.ok()) {
    const Status& s = restored.status();
    CheckRefusal(s, "Restore", input);
    FUZZ_CHECK(
        s.code() == Code::kInvalidSnapshot || s.code() == Code::kUnsupportedVersion || s.code() == Code::kTooLarge,
        "Restore refused with an unexpected code: " + s.ToString() + " on " + Show(input));
  } else {
    Note("restored");
    const std::string back = TextOf(restored.value(), input);
    FUZZ_CHECK(back == text, "the snapshot is not canonical: restored, it writes another text\n  input:    " +
                                 QuoteShort(text, 4000) + "\n  restored: " + QuoteShort(back, 4000));
    CheckReadable(restored.value(), input);
  }
  // What a crash right after this snapshot finds: no journal.
  {
    Result<Recovery> r = Queue::Recover(std::string_view(text), {}, {});
    if (!r.ok()) {
      CheckRecoverRefusal(r.status(), {Code::kInvalidSnapshot, Code::kUnsupportedVersion, Code::kTooLarge}, input);
      FUZZ_CHECK(!restored.ok(), "Recover(snapshot, {}) refused what Restore accepted: " + r.status().ToString() +
                                     " on " + Show(input));
    } else {
      const std::string recovered = TextOf(r->queue, input);
      if (restored.ok()) {
        FUZZ_CHECK(recovered == text, "Recover(snapshot, {}) gives another queue than Restore on " + Show(input));
      } else {
        CheckReadable(r->queue, input);
        CheckRoundTrip(recovered, input, "Recover(snapshot, {}) of a snapshot Restore refused");
      }
    }
  }
  if (!restored.ok()) return;
  Queue& q = restored.value();

  std::vector<Boundary> boundaries;
  RunOps(q, in, 16, input, pick, &boundaries);
  Result<std::vector<JournalEntry>> journal = q.view().Journal();
  if (!q.policy().journal) {
    FUZZ_CHECK(!journal.ok() && journal.status().code() == Code::kFailedPrecondition, "Journal() without a journal");
    return;
  }
  FUZZ_CHECK(journal.ok(), "Journal() refused: " + journal.status().ToString());
  std::vector<std::string> records;
  for (const JournalEntry& e : journal.value()) records.push_back(e.record);
  CheckBoundaries(std::string_view(text), records, boundaries, input);
}

// ---- journal mode -----------------------------------------------------------------

Policy DecodePolicy(Decoder& in) {
  const uint8_t p = in.Byte(), q = in.Byte();
  Policy policy;
  policy.max_attempts = 1 + p % 4;
  policy.ordering = static_cast<Ordering>(p / 4 % 3);
  policy.unsafe_quarantine_order = (p & 0x10) != 0;
  policy.retention_ms = (p & 0x20) != 0 ? 5000 : 0;
  policy.alarm_depth = (p & 0x40) != 0 ? 2 : 0;
  policy.journal = (p & 0x80) == 0;
  switch (q % 4) {
    case 0: policy.backoff = Backoff{}; break;
    case 1: policy.backoff = {BackoffKind::kFixed, 100, 100, Jitter::kNone}; break;
    case 2: policy.backoff = {BackoffKind::kExponential, 100, 1000, Jitter::kFull}; break;
    case 3: policy.backoff = {BackoffKind::kExponential, 50, 400, Jitter::kDecorrelated}; break;
  }
  constexpr int64_t kLeases[4] = {1000, 30'000, 50, 5000};
  policy.lease_ms = kLeases[q / 4 % 4];
  policy.seed = q / 16 % 4;
  if ((q & 0x40) != 0) {
    policy.classes[FailureClass::kPermanent].retry = true;
    policy.classes[FailureClass::kPermanent].max_attempts = 2;
    policy.classes[FailureClass::kCrash].alert = true;
  }
  return policy;
}

// One record's parts: "<seq> <prev> <rest>" before " check <crc>".
struct Parts {
  std::string seq, prev, rest, check;
};

std::optional<Parts> Split(const std::string& record) {
  const size_t at = record.rfind(" check ");
  if (at == std::string::npos) return std::nullopt;
  const size_t s1 = record.find(' ');
  if (s1 == std::string::npos || s1 >= at) return std::nullopt;
  const size_t s2 = record.find(' ', s1 + 1);
  if (s2 == std::string::npos || s2 > at) return std::nullopt;
  return Parts{record.substr(0, s1), record.substr(s1 + 1, s2 - s1 - 1), record.substr(s2 + 1, at - s2 - 1),
               record.substr(at + 7)};
}

// `body` (a record before " check ") with its correct check.
std::string Sealed(const std::string& body) { return body + " check " + Hex8(Crc32(body)); }
std::string BodyOf(const std::string& record) {
  const size_t at = record.rfind(" check ");
  return at == std::string::npos ? record : record.substr(0, at);
}

const std::string kWords[24] = {"0",
                                "1",
                                "-1",
                                "2",
                                "3",
                                "4294967295",
                                "4294967296",
                                "18446744073709551615",
                                "9223372036854775807",
                                "-9223372036854775808",
                                "9007199254740991",
                                "-",
                                "put-ready",
                                "remove-ready",
                                "put-quarantine",
                                "end-lease",
                                "settled",
                                "expired",
                                "replayed",
                                "dropped",
                                "event",
                                "error",
                                "reorder",
                                "\"x\""};

// What Mutate() did.
struct Mutation {
  int64_t stale = -1;    // a record with one byte changed and its old check (its index), or -1
  bool changed = false;  // the journal differs from Journal()'s
};

// Mutates the journal as the MUTATION bytes say.
Mutation Mutate(std::vector<std::string>& records, Decoder& in) {
  Mutation m;
  const uint8_t kind = in.Byte() % 8;
  const uint8_t which = in.Byte();
  const uint16_t pos = in.U16();
  const uint8_t value = in.Byte();
  const uint8_t repair = in.Byte() % 4;
  if (records.empty() || kind == 7) {
    Note("mutation: none");
    return m;
  }
  const size_t r = which % records.size();
  const std::vector<std::string> before = records;
  std::string body = BodyOf(records[r]);
  bool in_place = true;  // the mutation changed record r's body (else the list)
  switch (kind) {
    case 0: {  // a byte changed
      const size_t p = pos % body.size();
      constexpr std::string_view kBytes = "0123456789 -\"%abcdefz";
      body[p] = value < 0xC0 ? kBytes[value % kBytes.size()] : static_cast<char>(value);
      break;
    }
    case 1:  // truncated
      body.resize(pos % body.size());
      break;
    case 2:
    case 6: {  // a word replaced, or inserted
      std::vector<size_t> starts{0};
      for (size_t i = 0; i < body.size(); ++i) {
        if (body[i] == ' ') starts.push_back(i + 1);
      }
      const size_t w = pos % starts.size();
      const size_t end = std::min(body.find(' ', starts[w]), body.size());
      std::string word = kWords[value % 24];
      if (value >= 0xC0) {  // a word of another record
        const std::string other = BodyOf(records[(r + 1 + value) % records.size()]);
        std::vector<std::string> words{""};
        for (const char ch : other) {
          if (ch == ' ') words.emplace_back();
          else words.back().push_back(ch);
        }
        word = words[pos % words.size()];
      }
      if (kind == 2) {
        body.replace(starts[w], end - starts[w], word);
      } else {
        body.insert(starts[w], word + " ");
      }
      break;
    }
    case 3:  // swapped with the next
      in_place = false;
      if (r + 1 < records.size()) std::swap(records[r], records[r + 1]);
      break;
    case 4:  // duplicated
      in_place = false;
      records.insert(records.begin() + static_cast<std::ptrdiff_t>(r), records[r]);
      break;
    case 5:  // deleted
      in_place = false;
      records.erase(records.begin() + static_cast<std::ptrdiff_t>(r));
      break;
  }
  if (in_place) {
    if (repair == 3) {
      records[r] = body + records[r].substr(records[r].rfind(" check "));
      if (body != BodyOf(before[r]) && kind == 0) m.stale = static_cast<int64_t>(r);  // one byte: always detected
    } else {
      records[r] = Sealed(body);
    }
  }
  // The chain after it: each later record follows the one before it.
  if (repair == 1 || repair == 2) {
    for (size_t k = in_place ? r + 1 : r; k < records.size(); ++k) {
      std::optional<Parts> p = Split(records[k]);
      if (!p) continue;
      if (repair == 2) p->seq = std::to_string(k + 1);
      if (k > 0) {
        const std::string prev_body = BodyOf(records[k - 1]);
        p->prev = Hex8(Crc32(prev_body));
      }
      records[k] = Sealed(p->seq + " " + p->prev + " " + p->rest);
    }
  }
  m.changed = records != before;
  Note("mutation: kind " + std::to_string(kind) + " record " + std::to_string(r) + " repair " + std::to_string(repair) +
       (m.changed ? "" : " (no change)"));
  if (kTrace) {
    for (size_t k = 0; k < records.size(); ++k) {
      if (k >= before.size() || records[k] != before[k])
        Note("  r[" + std::to_string(k) + "] = " + QuoteShort(records[k], 400));
    }
  }
  return m;
}

// Job accounting after a crash at write k of an unmutated journal.
void CheckAccounting(const Recovery& r, const std::set<std::string>& given, const Policy& policy,
                     const std::string& where, std::string_view input) {
  const std::vector<std::string> placed = PlacedIds(r.queue, input);
  std::set<std::string> accounted(placed.begin(), placed.end());
  for (const std::string& id : placed) {
    FUZZ_CHECK(given.count(id) != 0, where + ": " + Show(id) + " is in a view but was never given on " + Show(input));
  }
  for (const std::string& id : r.lost) {
    FUZZ_CHECK(given.count(id) != 0, where + ": lost " + Show(id) + " was never given on " + Show(input));
    FUZZ_CHECK(accounted.insert(id).second, where + ": lost " + Show(id) + " is in a view too on " + Show(input));
  }
  const QueueStats s = r.queue.stats();
  FUZZ_CHECK(s.lost == r.lost.size(), where + ": stats().lost " + std::to_string(s.lost) + ", lost " +
                                          std::to_string(r.lost.size()) + " on " + Show(input));
  const size_t missing = given.size() - accounted.size();
  FUZZ_CHECK(missing <= s.expired, where + ": " + std::to_string(missing) + " jobs in no view, not lost, and only " +
                                       std::to_string(s.expired) + " dropped at their retention on " + Show(input));
  if (!policy.unsafe_quarantine_order) {
    FUZZ_CHECK(r.lost.empty(), where + ": a job was lost (" + Show(r.lost.front()) +
                                   ") though every move writes its destination first, on " + Show(input));
  }
}

void JournalMode(Decoder& in, std::string_view input) {
  const Policy policy = DecodePolicy(in);
  // The operation boundary to recover at: 0 the journal's start, i after its i-th operation.
  const uint8_t pick = in.Byte();
  const size_t chosen = (pick & 0x7F) % 33;
  Result<Queue> created = Queue::Create(policy);
  FUZZ_CHECK(created.ok(), "Create refused: " + created.status().ToString());
  Queue& q = created.value();
  std::vector<Boundary> boundaries;
  size_t index = 0;  // operations since the journal started
  const auto boundary = [&](int64_t writes) {
    if (index == chosen) boundaries.push_back({writes, TextOf(q, input), (pick & 0x80) != 0});
  };
  boundary(1);  // since creation: write 1 creates the queue
  const size_t first_ops = in.Byte() % 8;
  for (size_t i = 0; i < first_ops; ++i) {
    Step(q, DecodeOp(in, q, input), input);
    ++index;
    boundary(static_cast<int64_t>(q.view().journal_size()));
  }
  std::optional<std::string> snapshot;
  std::set<std::string> given;  // ids given before the journal starts
  if (in.Byte() % 4 != 0) {
    const std::string text = TextOf(q, input);
    Result<std::string> s = q.Snapshot();
    FUZZ_CHECK(s.ok(), "Snapshot() refused: " + s.status().ToString());
    FUZZ_CHECK(s.value() == text, "Snapshot() and SnapshotText() differ on " + Show(input));
    FUZZ_CHECK(q.view().journal_size() == 0, "Snapshot() did not start a new journal");
    snapshot = s.value();
    boundaries.clear();
    index = 0;
    boundary(0);
    for (const std::string& id : PlacedIds(q, input)) given.insert(id);
    Note("snapshot");
  }
  // The restored snapshot runs the same operations in lockstep.
  std::optional<Queue> twin;
  if (snapshot) {
    Result<Queue> r = Queue::Restore(*snapshot);
    FUZZ_CHECK(r.ok(), "Restore refused a snapshot: " + r.status().ToString() + " on " + Show(input));
    twin.emplace(std::move(r.value()));
    FUZZ_CHECK(TextOf(*twin, input) == *snapshot, "a restored snapshot writes another text on " + Show(input));
  }
  const size_t second_ops = in.Byte() % 24;
  for (size_t i = 0; i < second_ops; ++i) {
    const Op op = DecodeOp(in, q, input);
    const std::string did = Step(q, op, input);
    if (twin) {
      const std::string twin_did = Step(*twin, op, input);
      FUZZ_CHECK(did == twin_did, op.Describe() + ": the restored queue did " + Show(twin_did) + ", the original " +
                                      Show(did) + " on " + Show(input));
    }
    ++index;
    boundary(static_cast<int64_t>(q.view().journal_size()));
  }
  const std::string text = TextOf(q, input);
  boundaries.push_back({static_cast<int64_t>(q.view().journal_size()), text});
  CheckReadable(q, input);
  if (twin) {
    const std::string twin_text = TextOf(*twin, input);
    FUZZ_CHECK(twin_text == text, "the restored queue ends in another state\n  original: " + QuoteShort(text, 4000) +
                                      "\n  restored: " + QuoteShort(twin_text, 4000) + "\n  input: " + Show(input));
    Result<std::vector<JournalEntry>> a = q.view().Journal(), b = twin->view().Journal();
    FUZZ_CHECK(a.ok() == b.ok(), "Journal()");
    if (a.ok()) {
      FUZZ_CHECK(a->size() == b->size(), "the restored queue's journal has another length on " + Show(input));
      for (size_t k = 0; k < a->size(); ++k) {
        const JournalEntry &x = a.value()[k], &y = b.value()[k];
        FUZZ_CHECK(x.record == y.record && x.op == y.op && x.id == y.id,
                   "record " + std::to_string(k) + " of the restored queue's journal differs on " + Show(input));
      }
    }
  }
  if (!policy.journal) return;
  Result<std::vector<JournalEntry>> journal = q.view().Journal();
  FUZZ_CHECK(journal.ok(), "Journal() refused: " + journal.status().ToString());
  std::vector<std::string> records;
  for (const JournalEntry& e : journal.value()) records.push_back(e.record);
  const std::optional<std::string_view> base = snapshot ? std::optional<std::string_view>(*snapshot) : std::nullopt;

  // Unmutated: the operation boundaries, then a crash point (any write; torn with bit 7).
  CheckBoundaries(base, records, boundaries, input);
  {
    const int64_t n = static_cast<int64_t>(records.size());
    const int64_t least = snapshot ? 0 : 1;
    const uint8_t c = in.Byte();
    const int64_t k = least + (c & 0x7F) % (n - least + 1);
    const bool torn = (c & 0x80) != 0 && k < n;
    for (int64_t i = 0; i < k; ++i) {
      const JournalEntry& e = journal.value()[static_cast<size_t>(i)];
      if (e.op == "enqueue") given.insert(e.id);
    }
    RecoverOptions options;
    options.crash_after = k;
    options.torn = torn;
    Result<Recovery> r = Queue::Recover(base, Views(records), options);
    const std::string where =
        "Recover at write " + std::to_string(k) + " of " + std::to_string(n) + (torn ? " (torn)" : "");
    Note(where);
    FUZZ_CHECK(r.ok(), where + " refused an unmutated journal: " + r.status().ToString() + " on " + Show(input));
    FUZZ_CHECK(r->torn_discarded == torn && r->applied == static_cast<uint64_t>(k),
               where + ": applied, torn_discarded");
    CheckAccounting(r.value(), given, policy, where, input);
    CheckRoundTrip(TextOf(r->queue, input), input, where.c_str());
  }

  // Mutated.
  const Mutation m = Mutate(records, in);
  const uint8_t c = in.Byte();
  const bool torn = (in.Byte() & 1) != 0;
  const int64_t len = static_cast<int64_t>(records.size());
  RecoverOptions options;
  options.torn = torn;
  if (c < 0xF0) {
    options.crash_after = c % (len + 1);
  } else {
    const std::optional<int64_t> edges[6] = {std::nullopt, -1, len + 1, kI64Min, kI64Max, 0};
    options.crash_after = edges[c % 6];
  }
  const int64_t k = options.crash_after.value_or(len);
  const bool in_range = k >= (snapshot ? 0 : 1) && k <= len;
  Note("Recover(" + std::string(snapshot ? "snapshot" : "creation") + ", " + std::to_string(len) +
       " records, crash after " + (options.crash_after ? std::to_string(*options.crash_after) : std::string("all")) +
       (torn ? ", torn" : "") + ")");
  Result<Recovery> r = Queue::Recover(base, Views(records), options);
  if (!r.ok()) {
    Note("  -> " + r.status().ToString());
    CheckRecoverRefusal(r.status(), {Code::kInvalidArgument, Code::kInvalidSnapshot, Code::kOutOfRange}, input);
    // From creation, an empty journal (its create record deleted) is refused by name first.
    const bool no_create = !snapshot && len == 0;
    FUZZ_CHECK(
        no_create ? r.status().code() == Code::kInvalidArgument : (r.status().code() == Code::kOutOfRange) == !in_range,
        "Recover: out-of-range exactly for a crash point outside the journal: " + r.status().ToString() + " (k " +
            std::to_string(k) + " of " + std::to_string(len) + ") on " + Show(input));
    if (!m.changed) FUZZ_CHECK(!in_range, "Recover refused an unmutated journal: " + r.status().ToString());
    return;
  }
  FUZZ_CHECK(in_range, "Recover accepted crash point " + std::to_string(k) + " of " + std::to_string(len));
  FUZZ_CHECK(m.stale < 0 || m.stale >= k,
             "Recover applied record " + std::to_string(m.stale) + ", damaged with a stale check, on " + Show(input));
  Note("  -> recovered, lost " + std::to_string(r->lost.size()) + ", duplicated " +
       std::to_string(r->duplicated.size()));
  Queue& recovered = r->queue;
  CheckReadable(recovered, input);
  const std::string recovered_text = TextOf(recovered, input);
  CheckRoundTrip(recovered_text, input, "after a mutated journal's recovery");
  RunOps(recovered, in, 16, input);
}

// ---- seeds ------------------------------------------------------------------------

// Journal-mode inputs, written with the operation layout above.
using Bytes = std::vector<uint8_t>;
Bytes operator+(Bytes a, const Bytes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
// Outcome bytes (OUTCOME), error bytes (ERROR), key bytes (KEY).
enum : uint8_t { kS = 0, kT = 1, kP = 2, kU = 3, kSchema = 4, kPre = 5 };
Bytes Enq(uint8_t id, uint8_t key = 0) { return {0x00, id, 0x00, key}; }
Bytes Proc(uint8_t outcome, uint8_t error = 0) { return {0x02, outcome, error}; }
Bytes LeaseOp() { return {0x04}; }
Bytes SettleActive(uint8_t outcome, uint8_t error = 0) { return {0x05, 0x01, 0x00, outcome, error}; }
Bytes Adv(uint8_t m) { return {0x06, m}; }
Bytes Next() { return {0x07}; }
Bytes ReplayAny(uint8_t k) { return {0x08, 0xA0, k}; }
Bytes RedriveOp(uint8_t r) { return {0x09, r}; }
Bytes Release(uint8_t key) { return {0x0A, key}; }
// A scenario: mode, policy, first operations, snapshot or not, more operations,
// a boundary and a crash point to check, a mutation and a crash point, then
// operations on the recovered queue.
Bytes Scenario(uint8_t p, uint8_t q, const std::vector<Bytes>& first, bool snapshot, const std::vector<Bytes>& second,
               uint8_t pick, uint8_t crash, const Bytes& tail) {
  Bytes out{0x80, p, q, pick, static_cast<uint8_t>(first.size())};
  for (const Bytes& op : first) out = out + op;
  out.push_back(snapshot ? 1 : 0);
  out.push_back(static_cast<uint8_t>(second.size()));
  for (const Bytes& op : second) out = out + op;
  return out + Bytes{crash} + tail;
}
const Bytes kNoMutation = {0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0xEF, 0x00};

const std::vector<Bytes> kScenarios = {
    // Default policy: a success, transient failures to exhaustion, a permanent failure, a replay.
    Scenario(0x02, 0x00, {Enq(0), Enq(1), Enq(2)}, true,
             {Proc(kS), Proc(kT, 2), Proc(kP, 3), Proc(kT, 2), Proc(kT, 2), ReplayAny(0), Proc(kS)}, 0x83, 0x05,
             kNoMutation),
    // Fixed backoff and leases: delays, a settle, an expiry, advances; a byte changed, check recomputed.
    Scenario(0x02, 0x05, {Enq(0), Enq(1)}, true,
             {LeaseOp(), Proc(kT, 3), SettleActive(kS), Adv(0x0C), LeaseOp(), Adv(0xC0), Next(), Proc(kPre), Enq(3)},
             0x04, 0x87, {0x00, 0x03, 0x05, 0x00, 0x02, 0x00, 0x10, 0x01, 0x02, 0x01, 0x00}),
    // Key ordering, a reorder and a key release; exponential full jitter; an alarm; since creation.
    Scenario(0x44 | 0x02, 0x02, {Enq(0, 3), Enq(1, 3), Enq(2, 4)}, false,
             {Proc(kP, 2), Proc(kS), Proc(kSchema), Release(3), Proc(kS), RedriveOp(4), Proc(kT), Next(), Proc(kS)},
             0x06, 0x0B, {0x02, 0x04, 0x07, 0x00, 0xC1, 0x01, 0x30, 0x01}),
    // Stall ordering, retention with a drop, unsafe quarantine order, decorrelated jitter, crash alerts.
    Scenario(0x08 | 0x10 | 0x20 | 0x01, 0x43, {Enq(0), Enq(1)}, true,
             {Proc(kT), Adv(0xC0), Proc(kT), Proc(kP), LeaseOp(), Adv(0x0C), Adv(0x0E), Proc(kS)}, 0x85, 0x86,
             {0x03, 0x02, 0x00, 0x00, 0x00, 0x02, 0x08, 0x00}),
    // Duplicated record, renumbered and rechained; a torn crash.
    Scenario(0x01, 0x31, {Enq(5), Enq(6, 5)}, true, {Proc(kT), LeaseOp(), SettleActive(kT, 4), Proc(kU), ReplayAny(0)},
             0x02, 0x03, {0x04, 0x02, 0x00, 0x00, 0x00, 0x02, 0x05, 0x01, 0x00, 0x01, 0x02}),
};

// Operation bytes appended to restore-mode seeds.
const Bytes kSeedOps = Enq(7) + Proc(kT, 2) + LeaseOp() + SettleActive(kS) + Adv(0xC0) + ReplayAny(1) + RedriveOp(2) +
                       Next() + Release(6) + Enq(8, 3) + Proc(kS);

// The queue a journal-mode input builds before its journal is taken.
std::optional<std::string> BuildText(const std::vector<uint8_t>& bytes) {
  Decoder in(bytes.data(), bytes.size());
  in.Byte();
  const Policy policy = DecodePolicy(in);
  in.Byte();
  Result<Queue> q = Queue::Create(policy);
  if (!q.ok()) return std::nullopt;
  const size_t first = in.Byte() % 8;
  for (size_t i = 0; i < first; ++i) Step(q.value(), DecodeOp(in, q.value(), "seed"), "seed");
  in.Byte();
  const size_t second = in.Byte() % 24;
  for (size_t i = 0; i < second; ++i) Step(q.value(), DecodeOp(in, q.value(), "seed"), "seed");
  return TextOf(q.value(), "seed");
}

void WriteFile(const std::string& path, const std::string& bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    std::fprintf(stderr, "snapshot_fuzz: cannot write %s\n", path.c_str());
    std::exit(1);
  }
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
}

void WriteSeeds(const std::string& dir) {
  int n = 0;
  const auto restore_seed = [&](const std::string& text) {
    const std::string body = text.substr(0, text.rfind("end "));
    WriteFile(dir + "/restore-" + std::to_string(++n),
              "S" + body + std::string(1, '\0') + "\x85" + std::string(kSeedOps.begin(), kSeedOps.end()));
  };
  for (const auto& scenario : kScenarios) {
    WriteFile(dir + "/journal-" + std::to_string(n + 1), std::string(scenario.begin(), scenario.end()));
    if (std::optional<std::string> text = BuildText(scenario)) restore_seed(*text);
  }
  // A recovered queue: a job lost by the unsafe order, and one kept once.
  {
    Policy p;
    p.unsafe_quarantine_order = true;
    p.max_attempts = 1;
    Result<Queue> q = Queue::Create(p);
    (void)q->Enqueue("a", "x", "k");
    (void)q->Enqueue("b", "y");
    (void)q->Process("transient", "boom");  // a: remove-ready, then put-quarantine
    (void)q->Process("success");            // b: put-completed, then remove-ready
    Result<std::vector<JournalEntry>> j = q->view().Journal();
    std::vector<std::string_view> records;
    for (const JournalEntry& e : j.value()) records.push_back(e.record);
    for (const int64_t k : {4, 6}) {
      RecoverOptions o;
      o.crash_after = k;
      Result<Recovery> r = Queue::Recover(std::nullopt, records, o);
      if (r.ok()) restore_seed(TextOf(r->queue, "seed"));
    }
  }
  // No journal, custom classes.
  {
    Policy p;
    p.journal = false;
    p.classes[FailureClass::kPrecondition].max_attempts = 3;
    p.classes[FailureClass::kTransient].own_backoff = true;
    p.classes[FailureClass::kTransient].backoff = {BackoffKind::kFixed, 7, 7, Jitter::kNone};
    Result<Queue> q = Queue::Create(p);
    (void)q->Enqueue("x", "");
    (void)q->Process("transient", "t");
    restore_seed(TextOf(q.value(), "seed"));
  }
  std::printf("snapshot_fuzz: wrote %d seeds to %s\n", n + static_cast<int>(kScenarios.size()), dir.c_str());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* dir = std::getenv("DLQ_SNAPSHOT_FUZZ_SEEDS")) {
    WriteSeeds(dir);
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  if (size == 0) return 0;
  const size_t heap_before = HeapUsed();
  if (data[0] < 0x80) {
    RestoreMode(input.substr(1), input);
  } else {
    Decoder in(data + 1, size - 1);
    JournalMode(in, input);
  }
  FUZZ_CHECK(HeapUsed() == heap_before, "heap budget use " + std::to_string(HeapUsed()) +
                                            " after the queues are gone, " + std::to_string(heap_before) + " before");
  return 0;
}
