// Snapshots, the journal and crash recovery (Capstone III).
//
// The heart of it: over thousands of seeded random runs (every operation, every
// policy knob), after each operation
//   * a snapshot restores to a queue whose snapshot is the same text, and which
//     answers the same calls the same way from then on;
//   * the last snapshot plus the whole journal recovers exactly the live queue;
//   * a crash after any write k (and a torn k+1-th) recovers a consistent queue
//     that lost nothing with the safe order.
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "crc32.h"
#include "durable.h"
#include "test_util.h"

using namespace dlq;
using namespace dlq::test;

namespace durable_test {

namespace {

std::vector<std::string_view> Records(const std::vector<JournalEntry>& journal) {
  std::vector<std::string_view> out;
  for (const JournalEntry& e : journal) out.push_back(e.record);
  return out;
}

// The first line where two texts differ, for messages.
std::string FirstDifference(const std::string& a, const std::string& b) {
  size_t line = 1, start = 0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    if (a[i] != b[i]) {
      return "line " + std::to_string(line) + ": " + a.substr(start, a.find('\n', start) - start) + " | " +
             b.substr(start, b.find('\n', start) - start);
    }
    if (a[i] == '\n') {
      ++line;
      start = i + 1;
    }
  }
  return a.size() == b.size() ? "none" : "one is a prefix of the other";
}

std::string MustText(const Queue& q) {
  Result<std::string> text = q.view().SnapshotText();
  REQUIRE(text.ok());
  return text.value();
}

Policy RandomPolicy(Prng& r) {
  Policy p;
  p.max_attempts = 1 + r.Below(4);
  p.seed = r.Below(1000);
  switch (r.Below(3)) {
    case 0: break;
    case 1:
      p.backoff = {BackoffKind::kFixed, 1 + r.Below(300), 1000, r.Below(2) ? Jitter::kFull : Jitter::kNone};
      break;
    default: p.backoff = {BackoffKind::kExponential, 1 + r.Below(200), 2000, static_cast<Jitter>(r.Below(4))};
  }
  p.lease_ms = 1 + r.Below(500);
  p.ordering = static_cast<Ordering>(r.Below(3));
  p.retention_ms = r.Below(3) == 0 ? 1 + r.Below(2000) : 0;
  p.alarm_depth = r.Below(3) == 0 ? 1 + r.Below(3) : 0;
  p.unsafe_quarantine_order = r.Below(4) == 0;
  return p;
}

const char* const kOutcomes[] = {"success",          "transient",      "permanent",
                                 "undeserializable", "unknown-schema", "precondition"};

// One random call; returns what it answered, as text, so two queues can be compared.
std::string RandomOp(Queue& q, Prng& r, int& next_id, std::vector<std::string>& tokens) {
  const uint32_t pick = r.Below(20);
  std::string out;
  const auto status = [](const Status& s) { return s.ok() ? std::string("ok") : s.ToString(); };
  if (pick < 5) {
    const std::string id =
        r.Below(10) == 0 && next_id > 0 ? "j" + std::to_string(r.Below(next_id)) : "j" + std::to_string(next_id++);
    const std::string key = r.Below(2) ? std::string(1, static_cast<char>('a' + r.Below(2))) : "";
    std::string payload = "p" + std::to_string(r.Below(100));
    if (r.Below(5) == 0) payload += std::string("\0 %\xff\n\"", 6);
    return "enqueue " + status(q.Enqueue(id, payload, key));
  }
  if (pick < 10) {
    Result<Attempt> a = q.Process(kOutcomes[r.Below(6)], r.Below(3) == 0 ? "err " + std::to_string(r.Below(3)) : "");
    return a.ok() ? "process " + a->id + " " + DispositionName(a->disposition) + " " + std::to_string(a->due_at)
                  : a.status().ToString();
  }
  if (pick < 12) {
    Result<LeaseGrant> g = q.Lease();
    if (g.ok() && g->leased) tokens.push_back(g->token);
    return g.ok() ? "lease " + g->id + " " + g->token + " " + std::to_string(g->expires_at) : g.status().ToString();
  }
  if (pick < 14 && !tokens.empty()) {
    const std::string token = tokens[r.Below(static_cast<uint32_t>(tokens.size()))];
    Result<Attempt> a = q.Settle(token, kOutcomes[r.Below(6)], "");
    return a.ok() ? "settle " + a->id + " " + DispositionName(a->disposition) : a.status().ToString();
  }
  if (pick < 16) return "advance " + status(q.Advance(static_cast<int64_t>(r.Below(700))));
  if (pick < 17) {
    const std::optional<int64_t> t = q.AdvanceToNext();
    return "next " + (t ? std::to_string(*t) : std::string("none"));
  }
  if (pick < 18 && next_id > 0)
    return std::string("replay ") + (q.Replay("j" + std::to_string(r.Below(next_id))) ? "1" : "0");
  if (pick < 19) {
    Result<uint64_t> n = q.Redrive(static_cast<int64_t>(1 + r.Below(3)));
    return n.ok() ? "redrive " + std::to_string(n.value()) : n.status().ToString();
  }
  Result<uint64_t> n = q.ReleaseKey(r.Below(2) ? "a" : "b");
  return n.ok() ? "release " + std::to_string(n.value()) : n.status().ToString();
}

// Every job the queue was given, by the place it is in now (from the public views).
std::map<std::string, std::string> Places(const Queue& q) {
  std::map<std::string, std::string> at;
  const auto put = [&](const std::string& id, const char* place) {
    CHECK_MESSAGE(at.emplace(id, place).second, id << " is in two places");
  };
  for (const JobView& j : q.view().Ready()) put(j.id, "ready");
  for (const DelayedView& j : q.view().Delayed()) put(j.id, "delayed");
  for (const LeaseView& j : q.view().Leased()) put(j.id, "leased");
  for (const JobView& j : q.view().Completed()) put(j.id, "completed");
  for (const QuarantineEntry& j : q.view().Quarantined()) put(j.id, "quarantine");
  return at;
}

}  // namespace

TEST_CASE("crc32 is the IEEE one") {
  CHECK(Crc32("123456789") == 0xCBF43926u);
  CHECK(Crc32("") == 0u);
}

TEST_CASE("a snapshot restores to an equal queue that continues identically, over 2000 random runs (500 sanitized)") {
  const uint64_t seeds = kSanitized ? 500 : 2000;  // a quarter under the sanitizers: each run is checked alike
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    Prng r(seed);
    Result<Queue> made = Queue::Create(RandomPolicy(r));
    REQUIRE(made.ok());
    Queue q = std::move(made).value();
    int next_id = 0;
    std::vector<std::string> tokens;
    const int before = static_cast<int>(r.Below(40));
    for (int i = 0; i < before; ++i) RandomOp(q, r, next_id, tokens);
    const std::string text = MustText(q);
    Result<Queue> restored = Queue::Restore(text);
    REQUIRE_MESSAGE(restored.ok(), restored.status().ToString());
    Queue& b = restored.value();
    REQUIRE(MustText(b) == text);
    CHECK(b.view().TimelineText() == q.view().TimelineText());
    // Continue both with the same calls: the same answers, states and timelines.
    Prng ra(seed * 7919), rb(seed * 7919);
    int ia = next_id, ib = next_id;
    std::vector<std::string> ta = tokens, tb = tokens;
    for (int i = 0; i < 30; ++i) {
      const std::string a = RandomOp(q, ra, ia, ta);
      const std::string c = RandomOp(b, rb, ib, tb);
      REQUIRE_MESSAGE(a == c, "seed " << seed << " call " << i);
    }
    REQUIRE_MESSAGE(MustText(b) == MustText(q), "seed " << seed << ": " << FirstDifference(MustText(b), MustText(q)));
    CHECK(b.view().TimelineText() == q.view().TimelineText());
  }
}

TEST_CASE("the last snapshot plus the whole journal recovers the live queue exactly, after every call") {
  const uint64_t seeds = kSanitized ? 150 : 600;  // a quarter under the sanitizers (each call is checked alike)
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    Prng r(seed + 50'000);
    Result<Queue> made = Queue::Create(RandomPolicy(r));
    REQUIRE(made.ok());
    Queue q = std::move(made).value();
    std::optional<std::string> base;  // nullopt: since creation
    int next_id = 0;
    std::vector<std::string> tokens;
    for (int i = 0; i < 40; ++i) {
      RandomOp(q, r, next_id, tokens);
      if (r.Below(12) == 0) {
        Result<std::string> s = q.Snapshot();
        REQUIRE(s.ok());
        base = s.value();
        CHECK(q.view().journal_size() == 0);
      }
      Result<std::vector<JournalEntry>> journal = q.view().Journal();
      REQUIRE(journal.ok());
      const std::vector<std::string_view> records = Records(journal.value());
      Result<Recovery> rec =
          base ? Queue::Recover(std::string_view(*base), records) : Queue::Recover(std::nullopt, records);
      REQUIRE_MESSAGE(rec.ok(), "seed " << seed << " call " << i << ": " << rec.status().ToString());
      CHECK(rec->lost.empty());
      CHECK(rec->duplicated.empty());
      REQUIRE_MESSAGE(MustText(rec->queue) == MustText(q),
                      "seed " << seed << " call " << i << ": " << FirstDifference(MustText(rec->queue), MustText(q)));
      CHECK(rec->queue.view().journal_size() == 0);
    }
  }
}

TEST_CASE("a crash after any write, torn or not, loses nothing with the safe order") {
  size_t duplicates = 0, crash_points = 0;
  const uint64_t seeds = kSanitized ? 75 : 300;  // a quarter under the sanitizers (every crash point of each)
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    Prng r(seed + 90'000);
    Policy p = RandomPolicy(r);
    p.unsafe_quarantine_order = false;
    Result<Queue> made = Queue::Create(p);
    REQUIRE(made.ok());
    Queue q = std::move(made).value();
    int next_id = 0;
    std::vector<std::string> tokens;
    for (int i = 0; i < 12; ++i) RandomOp(q, r, next_id, tokens);
    const std::string base = q.Snapshot().value();
    const std::map<std::string, std::string> ids_before = Places(q);
    for (int i = 0; i < 25; ++i) RandomOp(q, r, next_id, tokens);
    const std::vector<JournalEntry> journal = q.view().Journal().value();
    const std::vector<std::string_view> records = Records(journal);
    // Every id given by the end was given by some write; recovery must hold each
    // one that its writes enqueued, in exactly one place (or dropped by retention).
    for (size_t k = 0; k <= records.size(); ++k) {
      for (const bool torn : {false, true}) {
        Result<Recovery> rec = Queue::Recover(std::string_view(base), records, {static_cast<int64_t>(k), torn});
        REQUIRE_MESSAGE(rec.ok(), "seed " << seed << " k " << k << ": " << rec.status().ToString());
        ++crash_points;
        CHECK(rec->applied == k);
        CHECK(rec->torn_discarded == (torn && k < records.size()));
        REQUIRE_MESSAGE(rec->lost.empty(), "seed " << seed << " k " << k << " lost " << rec->lost[0]);
        duplicates += rec->duplicated.size();
        const std::map<std::string, std::string> at = Places(rec->queue);
        for (const auto& [id, place] : ids_before) {
          (void)place;
          // Present unless its retention dropped it (not a loss).
          if (at.count(id) == 0) CHECK(rec->queue.stats().expired > 0);
        }
        CHECK(rec->queue.stats().lost == 0);
        // The recovered queue works: it accepts a step and a snapshot round trip.
        Queue& rq = rec->queue;
        CHECK(rq.Advance(int64_t{1}).ok());
        Result<Queue> again = Queue::Restore(MustText(rq));
        REQUIRE(again.ok());
      }
    }
  }
  MESSAGE("crash points checked: " << crash_points << ", jobs found in two places and kept once: " << duplicates);
  CHECK(duplicates > 0);  // the safe order's half-done moves really happened and were resolved
}

TEST_CASE("the unsafe quarantine order loses a job at some write, the safe order never does") {
  for (const bool unsafe : {false, true}) {
    Policy p;
    p.max_attempts = 1;
    p.unsafe_quarantine_order = unsafe;
    Queue q = Queue::Create(p).value();
    REQUIRE(q.Enqueue("a", "x").ok());
    REQUIRE(q.Enqueue("b", "y").ok());
    const std::string base = q.Snapshot().value();
    REQUIRE(q.Process("success").ok());
    REQUIRE(q.Process("permanent", "bad payload").ok());  // b -> quarantine
    const std::vector<JournalEntry> journal = q.view().Journal().value();
    // put-completed a, remove-ready a, then b's move in the policy's order.
    REQUIRE(journal.size() == 4);
    CHECK(journal[0].op == "put-completed");
    CHECK(journal[1].op == "remove-ready");
    CHECK(journal[2].op == (unsafe ? "remove-ready" : "put-quarantine"));
    CHECK(journal[3].op == (unsafe ? "put-quarantine" : "remove-ready"));
    CHECK(journal[2].id == "b");
    std::vector<std::string> lost_at;
    for (size_t k = 0; k <= journal.size(); ++k) {
      Result<Recovery> rec = Queue::Recover(std::string_view(base), Records(journal), {static_cast<int64_t>(k), false});
      REQUIRE(rec.ok());
      if (!rec->lost.empty()) lost_at.push_back(std::to_string(k) + ":" + rec->lost[0]);
      if (k == 3 && !unsafe) {
        CHECK(rec->duplicated == Strings{"b"});
        CHECK(Ids(rec->queue.view().Quarantined()) == Strings{"b"});
        CHECK(rec->queue.view().Quarantined()[0].last_error == "bad payload");
        CHECK(rec->queue.view().Ready().empty());
        CHECK(rec->queue.view().TimelineText().find("kept-once \"b\" in quarantine") != std::string::npos);
      }
      if (k == 3 && unsafe) {
        CHECK(rec->queue.view().Ready().empty());
        CHECK(rec->queue.view().Quarantined().empty());
        CHECK(rec->queue.stats().lost == 1);
        CHECK(rec->queue.view().TimelineText().find("lost \"b\"") != std::string::npos);
        // Lost ids stay used.
        CHECK(rec->queue.Enqueue("b", "again").code() == Code::kAlreadyExists);
      }
    }
    CHECK(lost_at == (unsafe ? Strings{"3:b"} : Strings{}));
  }
}

TEST_CASE("leases survive snapshots and recovery: tokens still settle, expiries still fire") {
  Policy p;
  p.lease_ms = 100;
  Queue q = Queue::Create(p).value();
  REQUIRE(q.Enqueue("a", "x").ok());
  REQUIRE(q.Enqueue("b", "y").ok());
  const LeaseGrant ga = q.Lease().value();
  const LeaseGrant gb = q.Lease().value();
  REQUIRE(q.Advance(int64_t{10}).ok());
  Queue restored = Queue::Restore(MustText(q)).value();
  Result<Attempt> settled = restored.Settle(ga.token, "success");
  REQUIRE(settled.ok());
  CHECK(settled->id == "a");
  CHECK(restored.Settle(ga.token, "success").status().code() == Code::kStaleLease);
  // Recovery from creation with every write: b's lease is in flight and expires at 100.
  Recovery rec = Queue::Recover(std::nullopt, Records(q.view().Journal().value())).value();
  CHECK(rec.queue.view().Leased().size() == 2);
  CHECK(rec.queue.AdvanceToNext() == std::optional<int64_t>(100));
  CHECK(rec.queue.stats().leased == 0);
  CHECK(rec.queue.view().Ready().size() == 2);  // both expired: counted, decided as crashes, requeued
  CHECK(rec.queue.view().Ready()[0].attempts == 1);
  (void)gb;
}

TEST_CASE("snapshot refusals: not a snapshot, every truncation, every flipped byte, a future version, too large") {
  Policy p;
  p.backoff = {BackoffKind::kExponential, 100, 1000, Jitter::kFull};
  p.retention_ms = 5000;
  Queue q = Queue::Create(p).value();
  REQUIRE(q.Enqueue("a", "x", "k").ok());
  REQUIRE(q.Enqueue("b", std::string("\0\xff", 2)).ok());
  REQUIRE(q.Process("transient", "timeout").ok());
  REQUIRE(q.Process("unknown-schema").ok());
  REQUIRE(q.Lease().ok());
  const std::string text = MustText(q);
  CHECK(Queue::Restore("").status().code() == Code::kInvalidSnapshot);
  CHECK(Queue::Restore("v2;m3").status().code() == Code::kInvalidSnapshot);
  CHECK(Queue::Restore("v2;m3").status().message().find("not a dlq-lab snapshot") != std::string::npos);
  for (size_t cut = 0; cut < text.size(); ++cut) {
    const Status s = Queue::Restore(std::string_view(text).substr(0, cut)).status();
    REQUIRE_MESSAGE(s.code() == Code::kInvalidSnapshot, "cut at " << cut << ": " << s.ToString());
  }
  size_t unsupported = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    for (const unsigned char flip : {0x01, 0x03, 0x20, 0x80}) {
      std::string bad = text;
      bad[i] = static_cast<char>(static_cast<unsigned char>(bad[i]) ^ flip);
      const Status s = Queue::Restore(bad).status();
      REQUIRE_MESSAGE((s.code() == Code::kInvalidSnapshot || s.code() == Code::kUnsupportedVersion),
                      "byte " << i << " ^ " << int(flip) << ": " << s.ToString());
      if (s.code() == Code::kUnsupportedVersion) ++unsupported;
    }
  }
  CHECK(unsupported > 0);  // the version digit
  std::string future = text;
  future.replace(0, 14, "dlq-snapshot 2");
  const Status newer = Queue::Restore(future).status();
  CHECK(newer.code() == Code::kUnsupportedVersion);
  CHECK(newer.message() == "snapshot is format version 2; this build reads version 1 and older");
  const Status big = Queue::Restore(std::string(kMaxSnapshotBytes + 1, 'd')).status();
  CHECK(big.code() == Code::kTooLarge);
  CHECK(big.message().find("snapshot must be at most 134217728 bytes") == 0);
}

TEST_CASE("recover refuses journals that are not its own, out of order, damaged or cut wrongly") {
  Queue q = Queue::Create(Policy{}).value();
  REQUIRE(q.Enqueue("a", "x").ok());
  const std::string base = q.Snapshot().value();
  REQUIRE(q.Process("transient").ok());
  REQUIRE(q.Process("success").ok());
  const std::vector<JournalEntry> journal = q.view().Journal().value();
  std::vector<std::string_view> records = Records(journal);
  REQUIRE(records.size() == 4);
  // Another queue's journal after the same snapshot does not follow its records.
  Queue other = Queue::Restore(base).value();
  REQUIRE(other.Process("permanent").ok());
  const std::vector<JournalEntry> theirs = other.view().Journal().value();
  std::vector<std::string_view> mixed = records;
  mixed[1] = theirs[1].record;
  Status s = Queue::Recover(std::string_view(base), mixed).status();
  CHECK(s.code() == Code::kInvalidArgument);
  CHECK(s.message().find("journal[1]") == 0);
  // Out of order.
  std::swap(records[0], records[1]);
  CHECK(Queue::Recover(std::string_view(base), records).status().message().find("journal[0] does not follow") == 0);
  std::swap(records[0], records[1]);
  // A damaged record (one byte changed) fails its check.
  std::string damaged(records[2]);
  damaged[5] = damaged[5] == 'x' ? 'y' : 'x';
  records[2] = damaged;
  s = Queue::Recover(std::string_view(base), records).status();
  CHECK(s.code() == Code::kInvalidArgument);
  CHECK(s.message().find("journal[2] must be a journal record of this lab") == 0);
  records[2] = journal[2].record;
  // Not following this snapshot: a journal since creation against a snapshot.
  Queue fresh = Queue::Create(Policy{}).value();
  REQUIRE(fresh.Enqueue("a", "x").ok());
  s = Queue::Recover(std::string_view(base), Records(fresh.view().Journal().value())).status();
  CHECK(s.code() == Code::kInvalidArgument);
  // crashAfter out of range.
  s = Queue::Recover(std::string_view(base), records, {5, false}).status();
  CHECK(s.code() == Code::kOutOfRange);
  CHECK(s.message() == "crashAfter must be an integer from 0 to 4 (the journal's length), got 5");
  CHECK(Queue::Recover(std::string_view(base), records, {-1, false}).status().code() == Code::kOutOfRange);
  s = Queue::Recover(std::nullopt, Records(fresh.view().Journal().value()), {0, false}).status();
  CHECK(s.message() ==
        "crashAfter must be an integer from 1 to 2 (the journal's length; write 1 creates the queue), got 0");
  // A snapshot's own refusals come through.
  CHECK(Queue::Recover(std::string_view("nope"), records).status().code() == Code::kInvalidSnapshot);
  // No journal kept: refused by name.
  Policy quiet;
  quiet.journal = false;
  Queue silent = Queue::Create(quiet).value();
  CHECK(silent.view().Journal().status().code() == Code::kFailedPrecondition);
  REQUIRE(silent.Enqueue("a", "x").ok());
  CHECK(MustText(Queue::Restore(MustText(silent)).value()) == MustText(silent));
}

TEST_CASE("snapshot text is canonical and starts with its version") {
  Queue a = Queue::Create(Policy{}).value();
  Queue b = Queue::Create(Policy{}).value();
  for (Queue* q : {&a, &b}) {
    REQUIRE(q->Enqueue("x", "1").ok());
    REQUIRE(q->Process("transient").ok());
  }
  CHECK(MustText(a) == MustText(b));
  CHECK(MustText(a).rfind("dlq-snapshot 1\npolicy 3 none 1000 60000 none 30000 1 none 0 0 0 1\n", 0) == 0);
}

// `text` with its meta line's step and actions set to `count`, resealed.
static std::string WithCounters(const std::string& text, int64_t count) {
  std::istringstream in(text);
  std::string line, body;
  while (std::getline(in, line)) {
    if (line.rfind("end ", 0) == 0) break;
    if (line.rfind("meta ", 0) == 0) {
      std::istringstream fields(line);
      std::vector<std::string> f;
      for (std::string w; fields >> w;) f.push_back(w);
      f[2] = f[3] = std::to_string(count);  // meta <now> <step> <actions> ...
      line.clear();
      for (const std::string& w : f) line += (line.empty() ? "" : " ") + w;
    }
    body += line + "\n";
  }
  char end[32];
  std::snprintf(end, sizeof end, "end %08x\n", Crc32(body));
  return body + end;
}

TEST_CASE("a queue always restores its own snapshot: counters near 2^53 - 1 refuse calls, and nothing changes") {
  Queue q = Queue::Create(Policy{}).value();
  REQUIRE(q.Enqueue("a", "1").ok());
  REQUIRE(q.Enqueue("b", "2").ok());
  REQUIRE(q.Process("permanent").ok());  // "a" in quarantine, "b" ready
  const std::string text = MustText(q);

  // At the line a call is taken, and what it leaves restores; it moved the
  // counters past the line, so the next call is refused.
  const int64_t line = kMaxTimeMs - kCounterRoom;
  Queue at = Queue::Restore(WithCounters(text, line)).value();
  REQUIRE(at.ProcessMany("tt").ok());
  REQUIRE(Queue::Restore(MustText(at)).ok());
  CHECK(at.Process("success").status().code() == Code::kOutOfRange);

  // Past it (only a restored snapshot gets there, here at 2^53 - 1 itself): every
  // call that changes the queue is refused by name, and the snapshot stays the same.
  Queue past = Queue::Restore(WithCounters(text, kMaxTimeMs)).value();
  const std::string before = MustText(past);
  const Status enqueue = past.Enqueue("c", "3");
  CHECK(enqueue.code() == Code::kOutOfRange);
  CHECK(enqueue.message() ==
        "enqueue refused: this queue's counters reached 9007199254740991, within 2^48 of 2^53 - 1 (only a restored "
        "snapshot gets there); it takes no more calls");
  CHECK(past.EnqueueMany({{"c", "3"}}).code() == Code::kOutOfRange);
  CHECK(past.Process("success").status().code() == Code::kOutOfRange);
  CHECK(past.ProcessMany("s").status().code() == Code::kOutOfRange);
  CHECK(past.Lease().status().code() == Code::kOutOfRange);
  CHECK(past.Advance(int64_t{5}).code() == Code::kOutOfRange);
  CHECK(past.Redrive(int64_t{1}).status().code() == Code::kOutOfRange);
  CHECK_FALSE(past.Replay("a"));
  CHECK(MustText(past) == before);
  CHECK(Queue::Restore(before).ok());
}

TEST_CASE("every released snapshot restores to the same text, and to the state its link gives today") {
  const std::filesystem::path dir = std::filesystem::path(DLQ_SOURCE_DIR) / "tests/fixtures/snapshots";
  size_t checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".snap") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    const std::string text = bytes.str();
    Result<Queue> restored = Queue::Restore(text);
    REQUIRE_MESSAGE(restored.ok(), entry.path().filename().string() << ": " << restored.status().ToString());
    CHECK(MustText(restored.value()) == text);
    // A snapshot made from a link fixture must match what that link runs to now.
    const std::filesystem::path link = dir.parent_path() / "links" / (entry.path().stem().string() + ".link");
    if (std::filesystem::exists(link)) {
      std::ifstream link_in(link, std::ios::binary);
      std::string link_text((std::istreambuf_iterator<char>(link_in)), {});
      while (!link_text.empty() && link_text.back() == '\n') link_text.pop_back();
      Result<Scenario> scenario = ParseScenario(link_text);
      REQUIRE(scenario.ok());
      Result<Queue> ran = RunScenario(scenario.value());
      REQUIRE(ran.ok());
      CHECK_MESSAGE(MustText(ran.value()) == text, entry.path().filename().string()
                                                       << ": " << FirstDifference(MustText(ran.value()), text));
    }
    ++checked;
  }
  CHECK(checked >= 10);
}

TEST_CASE("a v2 link carries the unsafe quarantine order, and a snapshot keeps it") {
  Result<Scenario> s = ParseScenario("v2;m1;s1;q0.0u;ja:,b:;ap,s");
  REQUIRE(s.ok());
  CHECK(s->policy.unsafe_quarantine_order);
  CHECK(FormatScenario(s.value()) == "v2;m1;s1;q0.0u;ja:,b:;ap,s");
  Queue q = RunScenario(s.value()).value();
  CHECK(Queue::Restore(MustText(q)).value().policy().unsafe_quarantine_order);
}

// Issue 20, item 7: a 250,000-job queue's own journal (1,250,001 records, about
// 330 MB) was refused as too large by a 128 MiB byte limit, while the record
// limit said 16,777,216. The limits now describe the same journal. Under the sanitizers the
// same path runs at a tenth of the size (25,000 jobs: every record kind, ASan watching each
// read); the optimised build runs the full size past the old byte limit.
TEST_CASE("the journal limits agree, and a 250,000-job queue's own journal recovers") {
  CHECK(kMaxJournalRecords == 1'572'864);
  CHECK(kMaxJournalBytes == kMaxJournalRecords * kJournalRecordBytes);
  CHECK(kMaxJournalBytes == size_t{384} << 20);
  // Both limits are in the table the JS API reads (lab.limits).
  size_t rows = 0;
  for (const SizeLimit& limit : kSizeLimits) {
    if (std::string_view(limit.key) == "journalRecords") rows += limit.value == kMaxJournalRecords ? 1 : 100;
    if (std::string_view(limit.key) == "journalBytes") rows += limit.value == kMaxJournalBytes ? 1 : 100;
  }
  CHECK(rows == 2);

  Policy policy;
  policy.max_attempts = 3;
  Queue q = Queue::Create(policy).value();
  const int count = kSanitized ? 25'000 : 250'000;
  std::vector<std::string> ids;
  for (int i = 0; i < count; ++i) ids.push_back("job-" + std::to_string(i));
  std::vector<JobRef> jobs;
  for (const std::string& id : ids) jobs.push_back({id, "x"});
  REQUIRE(q.EnqueueMany(jobs).ok());
  const size_t n = static_cast<size_t>(count);
  REQUIRE(q.ProcessMany(std::string(n, 't')).value() == n);  // every job requeued
  REQUIRE(q.ProcessMany(std::string(n, 's')).value() == n);
  const std::vector<JournalEntry> journal = q.view().Journal().value();
  const std::vector<std::string_view> records = Records(journal);
  CHECK(records.size() == 5 * n + 1);
  size_t bytes = 0;
  for (const std::string_view r : records) bytes += r.size();
  if (!kSanitized) CHECK(bytes > kMaxSnapshotBytes);  // what the old byte limit refused
  CHECK(bytes / records.size() <= 300);               // about kJournalRecordBytes a record
  Result<Recovery> recovered = Queue::Recover(std::nullopt, records);
  REQUIRE_MESSAGE(recovered.ok(), recovered.status().ToString());
  CHECK(recovered->applied == records.size());
  CHECK(recovered->lost.empty());
  CHECK(recovered->queue.view().SnapshotText().value() == q.view().SnapshotText().value());
}

TEST_CASE("recover refuses a journal past either limit by name, before reading a record") {
  // Past the record limit: the records need not be real, nothing is read.
  const std::vector<std::string_view> many(kMaxJournalRecords + 1, std::string_view("x"));
  const Status records = Queue::Recover(std::nullopt, many).status();
  CHECK(records.code() == Code::kTooLarge);
  CHECK(records.message() == "journal must be at most 1572864 items, got 1572865 items");
  // Past the byte limit: four records of 96 MiB + 1 byte.
  const std::string big(kMaxJournalBytes / 4 + 1, 'r');
  const std::vector<std::string_view> heavy(4, std::string_view(big));
  const Status bytes = Queue::Recover(std::nullopt, heavy).status();
  CHECK(bytes.code() == Code::kTooLarge);
  CHECK(bytes.message() == "journal (its records together) must be at most 402653184 bytes, got 402653188 bytes");
}

}  // namespace durable_test
