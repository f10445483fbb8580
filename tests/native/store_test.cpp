// The queue's storage (core/store/job_store.h, core/store/event_log.h) against plain
// reference containers: every id found or refused as a std::map says, every
// string intact across arena blocks, every event record read back exactly as
// appended (in order, backwards, at random, after truncation), whatever packs.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "block_memory.h"
#include "event_log.h"
#include "job_store.h"
#include "prng.h"
#include "queue.h"
#include "test_util.h"

using namespace dlq;

namespace {

bool Same(const EventRecord& a, const EventRecord& b) { return std::memcmp(&a, &b, sizeof(EventRecord)) == 0; }

EventRecord Zeroed() {
  EventRecord r;
  std::memset(&r, 0, sizeof r);  // padding too, so Same() compares bytes
  return r;
}

// A record like the queue writes: mostly the packable kind (same time, step and
// action the same or one on), sometimes one that must be kept whole.
EventRecord NextRecord(Prng& rng, const EventRecord& before) {
  EventRecord r = Zeroed();
  r.step = before.step + rng.Below(2);
  r.action = before.action + rng.Below(2);
  r.time = before.time;
  r.max_attempts = before.max_attempts == 0 ? 3 : before.max_attempts;
  r.job = rng.Below(1000);
  r.attempts = rng.Below(5);
  r.error = rng.Below(3);
  r.kind = static_cast<EventKind>(rng.Below(kEventKindCount));
  r.failure_class = static_cast<FailureClass>(rng.Below(kFailureClassCount));
  r.outcome = static_cast<Outcome>(rng.Below(kOutcomeCount));
  r.disposition = static_cast<Disposition>(rng.Below(4));
  r.reason = static_cast<Reason>(rng.Below(3));
  r.until = rng.Below(2) == 0 ? 0 : r.time;
  switch (rng.Below(12)) {  // the ways a record fails to pack
    case 0: r.time += 1 + rng.Below(1000); break;
    case 1: r.until = r.time + 1 + rng.Below(5000); break;
    case 2: r.lease = 1 + rng.Below(100); break;
    case 3: r.ref = 1 + rng.Below(100); break;
    case 4: r.step += 2 + rng.Below(3); break;
    case 5: r.max_attempts = 1 + rng.Below(10); break;
    default: break;
  }
  return r;
}

}  // namespace

TEST_CASE("the event log reads back every record exactly, in any order and after truncation") {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Prng rng(seed);
    EventLog log;
    std::vector<EventRecord> reference;
    for (int round = 0; round < 6; ++round) {
      const size_t more = 1 + rng.Below(3000);
      for (size_t k = 0; k < more; ++k) {
        const EventRecord r = NextRecord(rng, reference.empty() ? Zeroed() : reference.back());
        EventRecord& open = log.Append(r);
        // The open record may still be changed (as Queue::Finish does).
        if (rng.Below(4) == 0) open.ref = 7;
        reference.push_back(open);
      }
      REQUIRE(log.size() == reference.size());
      for (size_t k = 0; k < reference.size(); ++k) REQUIRE(Same(log[k], reference[k]));
      for (size_t k = reference.size(); k-- > 0;) REQUIRE(Same(log[k], reference[k]));
      for (int probe = 0; probe < 500; ++probe) {
        const size_t k = rng.Below(static_cast<uint32_t>(reference.size()));
        REQUIRE(Same(log[k], reference[k]));
      }
      const size_t keep = rng.Below(static_cast<uint32_t>(reference.size() + 1));
      log.Truncate(keep);
      reference.resize(keep);
      REQUIRE(log.size() == keep);
      if (keep > 0) REQUIRE(Same(log[keep - 1], reference[keep - 1]));
    }
  }
}

TEST_CASE("the event log packs an attempt and the requeue after it into a few bytes") {
  EventLog log;
  EventRecord r = Zeroed();
  r.max_attempts = 3;
  for (uint32_t k = 0; k < 64 * 100; ++k) {
    r.step += k % 2 == 0;
    r.action += k % 2 == 0;
    r.job = k / 2;  // the next job's attempt, then where it went
    r.attempts = 1;
    r.kind = k % 2 == 0 ? EventKind::kAttempt : EventKind::kRequeued;
    r.outcome = k % 2 == 0 ? Outcome::kTransient : Outcome::kSuccess;
    r.disposition = k % 2 == 0 ? Disposition::kRequeued : Disposition::kCompleted;
    log.Append(r);
  }
  // About 4 bytes for the attempt and 2 for the requeue; one record per 64 is a
  // whole checkpoint; the open record is not yet stored.
  CHECK(log.bytes() <= 64 * 100 * 3 + 100 * (sizeof(EventRecord) + sizeof(uint64_t)));
}

TEST_CASE("the event log keeps records exact across its blocks, with numbers up to 32 bits") {
  EventLog log;
  std::vector<EventRecord> reference;
  EventRecord r = Zeroed();
  for (uint32_t k = 0; k < 40'000; ++k) {  // records of up to 19 bytes, over many 32 KiB blocks
    r.step += 1;
    r.job = k % 2 ? 0 : UINT32_MAX - k;
    r.attempts = k % 3 ? UINT32_MAX - k : k;
    r.error = UINT32_MAX - 7 * k;
    r.failure_class = static_cast<FailureClass>(k % kFailureClassCount);
    r.outcome = static_cast<Outcome>(k % kOutcomeCount);
    reference.push_back(log.Append(r));
  }
  for (size_t k = 0; k < reference.size(); ++k) REQUIRE(Same(log[k], reference[k]));
  log.Truncate(33'333);
  REQUIRE(Same(log[33'332], reference[33'332]));
  log.Append(reference[33'333]);
  log.Append(reference[33'334]);
  REQUIRE(Same(log[33'333], reference[33'333]));
}

TEST_CASE("a series of records is stored exactly as the same records appended one by one") {
  Prng rng(11);
  for (int trial = 0; trial < 60; ++trial) {
    EventLog series, single;
    std::vector<EventRecord> reference;
    const size_t before = rng.Below(200);  // the series starts anywhere between checkpoints
    for (size_t k = 0; k < before; ++k) {
      const EventRecord r = NextRecord(rng, reference.empty() ? Zeroed() : reference.back());
      series.Append(r);
      single.Append(r);
      reference.push_back(r);
    }
    EventRecord first = NextRecord(rng, reference.empty() ? Zeroed() : reference.back());
    const size_t count = trial < 5 ? static_cast<size_t>(trial) : rng.Below(400);
    series.AppendSeries(first, count);
    for (size_t k = 0; k < count; ++k) {
      single.Append(first);
      reference.push_back(first);
      ++first.job;
    }
    // A record after the series, as the next call would append.
    const EventRecord after = NextRecord(rng, reference.empty() ? Zeroed() : reference.back());
    series.Append(after);
    single.Append(after);
    reference.push_back(after);
    REQUIRE(series.size() == reference.size());
    REQUIRE(series.bytes() == single.bytes());
    for (size_t k = 0; k < reference.size(); ++k) REQUIRE(Same(series[k], reference[k]));
  }
}

TEST_CASE(
    "block memory: carved blocks are distinct and aligned, big zeroed arrays are zero, a moved carver keeps them") {
  BlockCarver carver(28 * 1024);  // about a job block: chunks grow past 1 MiB, onto huge pages where offered
  std::vector<char*> blocks;
  for (int k = 0; k < 300; ++k) {
    char* block = carver.Next();
    REQUIRE(reinterpret_cast<uintptr_t>(block) % alignof(std::max_align_t) == 0);
    std::memset(block, k & 0xff, carver.block_bytes());
    blocks.push_back(block);
  }
  BlockCarver moved = std::move(carver);
  for (int k = 0; k < 300; ++k) {
    REQUIRE(blocks[k][0] == static_cast<char>(k & 0xff));
    REQUIRE(blocks[k][carver.block_bytes() - 1] == static_cast<char>(k & 0xff));  // no block overlaps the next
  }
  char* after = moved.Next();
  CHECK(std::find(blocks.begin(), blocks.end(), after) == blocks.end());
  for (const size_t size : {size_t{10}, size_t{3} << 20}) {  // malloc'd, and mapped whole
    ZeroedArray<uint64_t> zeros(size / sizeof(uint64_t));
    CHECK(std::all_of(zeros.begin(), zeros.end(), [](uint64_t v) { return v == 0; }));
  }
}

TEST_CASE("the job store finds every id it holds and refuses a taken one, across growth and undo") {
  JobStore store;
  std::map<std::string, uint32_t> reference;
  Prng rng(7);
  const std::string big(3 << 20, 'x');  // larger than an arena block: a block of its own
  for (int k = 0; k < 50'000; ++k) {
    const std::string id = "job-" + std::to_string(rng.Below(80'000));
    const std::string payload = k % 9999 == 0 ? big : "payload " + std::to_string(k);
    const std::string key = k % 3 == 0 ? "" : "key-" + std::to_string(k % 17);
    const int64_t added = store.Add(id, payload, key);
    if (reference.count(id)) {
      REQUIRE(added == -1);
    } else {
      REQUIRE(added == static_cast<int64_t>(reference.size()));
      reference[id] = static_cast<uint32_t>(added);
      REQUIRE(store[static_cast<uint32_t>(added)].payload() == payload);
      REQUIRE(store[static_cast<uint32_t>(added)].key() == key);
    }
    if (rng.Below(10) == 0) {  // undo the newest job, as a refused batch does
      const uint32_t last = static_cast<uint32_t>(store.size() - 1);
      reference.erase(std::string(store[last].id()));
      store.RemoveLast();
      REQUIRE(store.size() == reference.size());
    }
  }
  REQUIRE(store.size() == reference.size());
  for (const auto& [id, index] : reference) {
    REQUIRE(store.Find(id) == index);
    REQUIRE(store[index].id() == id);
    REQUIRE(store[index].attempts == 0);
  }
  CHECK(store.Find("job-absent") == -1);
  CHECK(store.Find("") == -1);
}

TEST_CASE("Locate finds every job where its place's view shows it, and nothing it was never given") {
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    Prng rng(seed);
    Policy policy;
    policy.max_attempts = 3;
    policy.lease_ms = 1000;
    policy.backoff = {BackoffKind::kExponential, 100, 2000, Jitter::kFull};
    policy.ordering = seed % 2 ? Ordering::kKey : Ordering::kNone;
    policy.retention_ms = seed % 3 == 0 ? 5000 : 0;
    policy.seed = static_cast<int64_t>(seed);
    auto queue = Queue::Create(policy);
    REQUIRE(queue.ok());
    Queue& q = queue.value();
    std::vector<std::string> ids;
    for (int i = 0; i < 40; ++i) {
      ids.push_back("j" + std::to_string(i));
      REQUIRE(q.Enqueue(ids.back(), "p", i % 3 == 0 ? "" : "k" + std::to_string(i % 4)).ok());
    }
    std::vector<std::string> tokens;
    for (int step = 0; step < 300; ++step) {
      switch (rng.Below(6)) {
        case 0: (void)q.Process(static_cast<Outcome>(rng.Below(kOutcomeCount)), "e"); break;
        case 1: {
          auto grant = q.Lease();
          if (grant.ok() && grant->leased) tokens.push_back(grant->token);
          break;
        }
        case 2:
          if (!tokens.empty()) (void)q.Settle(tokens[rng.Below(static_cast<uint32_t>(tokens.size()))], "success");
          break;
        case 3: (void)q.AdvanceToNext(); break;
        case 4: (void)q.Replay(ids[rng.Below(static_cast<uint32_t>(ids.size()))]); break;
        default: (void)q.Process(Outcome::kTransient, ""); break;
      }
    }
    size_t found = 0;
    for (const JobView& j : q.view().Ready()) {
      const auto at = q.view().Locate(j.id);
      REQUIRE(at.has_value());
      CHECK((at->place == Place::kReady && at->attempts == j.attempts && at->held_by == j.held_by));
      ++found;
    }
    for (const DelayedView& d : q.view().Delayed()) {
      const auto at = q.view().Locate(d.id);
      REQUIRE(at.has_value());
      CHECK((at->place == Place::kDelayed && at->attempts == d.attempts && at->until == d.due_at));
      ++found;
    }
    for (const LeaseView& l : q.view().Leased()) {
      const auto at = q.view().Locate(l.id);
      REQUIRE(at.has_value());
      CHECK((at->place == Place::kLeased && at->attempts == l.attempts && at->until == l.expires_at &&
             at->token == l.token));
      ++found;
    }
    for (const JobView& j : q.view().Completed()) {
      const auto at = q.view().Locate(j.id);
      REQUIRE(at.has_value());
      CHECK((at->place == Place::kCompleted && at->attempts == j.attempts));
      ++found;
    }
    for (const QuarantineEntry& e : q.view().Quarantined()) {
      const auto at = q.view().Locate(e.id);
      REQUIRE(at.has_value());
      CHECK((at->place == Place::kQuarantined && at->attempts == e.attempts && at->reason == e.reason &&
             at->failure_class == e.failure_class));
      ++found;
    }
    // The rest were dropped at their retention: in no view.
    for (const std::string& id : ids) {
      const auto at = q.view().Locate(id);
      REQUIRE(at.has_value());
      if (at->place == Place::kDropped) ++found;
    }
    CHECK(found == ids.size());
    CHECK_FALSE(q.view().Locate("never-given").has_value());
    CHECK_FALSE(q.view().Locate("").has_value());
  }
}
