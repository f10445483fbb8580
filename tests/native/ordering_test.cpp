// Per-key ordering (none, key, stall), reorders, releaseKey, and a quarantine
// someone can operate: retention at the exact millisecond, the depth alarm's
// hysteresis, redrive order, and the dead end.
#include <set>

#include "test_util.h"

using namespace dlq;
using namespace dlq::test;

namespace ordering_test {

namespace {

Queue Make(Ordering ordering, int64_t max_attempts = 3, Backoff backoff = {}) {
  Policy p;
  p.max_attempts = max_attempts;
  p.ordering = ordering;
  p.backoff = backoff;
  Result<Queue> made = Queue::Create(p);
  REQUIRE(made.ok());
  return std::move(made).value();
}

// The lesson's a/b/c example with two accounts: a and b are account 7, c is 9.
void AddAccounts(Queue& q) {
  REQUIRE(q.Enqueue("a", "", "acct-7").ok());
  REQUIRE(q.Enqueue("b", "", "acct-7").ok());
  REQUIRE(q.Enqueue("c", "", "acct-9").ok());
}

}  // namespace

TEST_SUITE("ordering") {
  TEST_CASE("none: a retried job is overtaken by a later job of its own key, and the reorder is recorded") {
    Queue q = Make(Ordering::kNone);
    AddAccounts(q);
    MustProcess(q, "transient");  // a -> tail
    MustProcess(q, "success");    // b completes before a
    MustProcess(q, "success");    // c
    MustProcess(q, "success");    // a
    CHECK(Ids(q.view().Completed()) == Strings{"b", "c", "a"});
    REQUIRE(q.view().Reorders().size() == 1);
    CHECK(q.view().Reorders()[0].key == "acct-7");
    CHECK(q.view().Reorders()[0].id == "b");
    CHECK(q.view().Reorders()[0].overtook == Strings{"a"});
    CHECK(q.stats().reorders == 1);
    bool found = false;
    for (const Event& e : q.view().Timeline()) {
      if (e.kind != EventKind::kReorder) continue;
      found = true;
      CHECK(RenderEvent(e) == "#8 step 2 reorder \"b\" key \"acct-7\" overtook \"a\"");
    }
    CHECK(found);
  }

  TEST_CASE("key: a held job keeps its place and waits, other keys flow, no reorder") {
    Queue q = Make(Ordering::kKey);
    AddAccounts(q);
    MustProcess(q, "transient");  // a -> tail; b is held by a
    auto ready = q.view().Ready();
    REQUIRE(ready.size() == 3);
    CHECK(ready[0].id == "b");
    CHECK(ready[0].held_by == "a");
    CHECK(ready[1].held_by.empty());
    Attempt next = MustProcess(q, "success");
    CHECK(next.id == "c");  // account 9 flows past the held b
    CHECK(MustProcess(q, "success").id == "a");
    CHECK(MustProcess(q, "success").id == "b");
    CHECK(q.view().Reorders().empty());
    CHECK(q.view().Ready().empty());
  }

  TEST_CASE("key: lease takes the first eligible job, a job without a key is never held") {
    Queue q = Make(Ordering::kKey);
    REQUIRE(q.Enqueue("a", "", "k").ok());
    REQUIRE(q.Enqueue("b", "", "k").ok());
    REQUIRE(q.Enqueue("free", "").ok());
    REQUIRE(q.Lease().ok());  // a in flight: b is held by it
    Result<LeaseGrant> g = q.Lease();
    REQUIRE(g.ok());
    CHECK(g->id == "free");
    Result<LeaseGrant> none = q.Lease();
    REQUIRE(none.ok());
    CHECK_FALSE(none->leased);  // only the held b is ready
    CHECK(q.view().Ready()[0].held_by == "a");
  }

  TEST_CASE(
      "stall: a failed head keeps its place, a waiting head blocks everything, a quarantined head lets the next run") {
    Queue q = Make(Ordering::kStall, 3, Backoff{BackoffKind::kFixed, 100, 100, Jitter::kNone});
    AddAccounts(q);
    Attempt a = MustProcess(q, "transient");
    CHECK(a.disposition == Disposition::kDelayed);
    CHECK(q.view().Delayed().size() == 1);  // the waiting head shows in delayed()
    Result<Attempt> blocked = q.Process("success");
    REQUIRE(blocked.ok());
    CHECK_FALSE(blocked->processed);  // nothing else runs until its retry
    Result<LeaseGrant> no_lease = q.Lease();
    CHECK_FALSE(no_lease->leased);
    REQUIRE(q.AdvanceToNext().has_value());
    CHECK(Ids(q.view().Ready()) == Strings{"a", "b", "c"});  // back at the head, not the tail
    CHECK(MustProcess(q, "permanent").id == "a");            // quarantined head: the next may run
    CHECK(MustProcess(q, "success").id == "b");
    REQUIRE(q.view().Reorders().size() == 1);  // b overtook the quarantined head of its key
    CHECK(q.view().Reorders()[0].overtook == Strings{"a"});
  }

  TEST_CASE("stall without backoff retries the head in place") {
    Queue q = Make(Ordering::kStall);
    AddAccounts(q);
    MustProcess(q, "transient");
    CHECK(Ids(q.view().Ready()) == Strings{"a", "b", "c"});
    CHECK(MustProcess(q, "success").id == "a");
  }

  TEST_CASE("key: a quarantined holder keeps its key until replayed and completed, or released") {
    Queue q = Make(Ordering::kKey);
    AddAccounts(q);
    MustProcess(q, "permanent");  // a quarantined: b waits aside
    CHECK(MustProcess(q, "success").id == "c");
    Result<Attempt> none = q.Process("success");
    CHECK_FALSE(none->processed);
    CHECK(q.view().Ready()[0].held_by == "a");
    // Replayed and completed: b runs after it, in order.
    REQUIRE(q.Replay("a"));
    CHECK(MustProcess(q, "success").id == "a");
    CHECK(MustProcess(q, "success").id == "b");
    CHECK(q.view().Reorders().empty());
  }

  TEST_CASE("releaseKey lets the successors run, is recorded, and the completion past the holder is a reorder") {
    Queue q = Make(Ordering::kKey);
    AddAccounts(q);
    MustProcess(q, "permanent");
    Result<uint64_t> released = q.ReleaseKey("acct-7");
    REQUIRE(released.ok());
    CHECK(released.value() == 1);
    const Event e = q.view().EventAt(q.view().event_count() - 1);
    CHECK(e.kind == EventKind::kKeyReleased);
    CHECK(e.id == "a");
    CHECK(RenderEvent(e) == "#6 step 1 key-released \"a\" key \"acct-7\"");
    CHECK(MustProcess(q, "success").id == "b");
    REQUIRE(q.view().Reorders().size() == 1);
    CHECK(q.view().Reorders()[0].overtook == Strings{"a"});
    CHECK(q.ReleaseKey("acct-7").value() == 0);  // nothing left to release: no change
    CHECK(q.ReleaseKey("nobody").value() == 0);
    CHECK(q.ReleaseKey(std::string(kMaxKeyBytes + 1, 'k')).status().code() == Code::kTooLarge);
  }

  TEST_CASE("releaseKey leaves holders in flight or delayed holding") {
    Queue q = Make(Ordering::kKey, 3, Backoff{BackoffKind::kFixed, 100, 100, Jitter::kNone});
    AddAccounts(q);
    REQUIRE(q.Lease().ok());  // a in flight
    CHECK(q.ReleaseKey("acct-7").value() == 0);
    REQUIRE(q.Settle("lease-1", "transient").ok());  // a delayed
    CHECK(q.ReleaseKey("acct-7").value() == 0);
    CHECK(q.view().Ready()[0].held_by == "a");
  }

  TEST_CASE("keys are refused past their limit, in a batch by index") {
    Queue q = Make(Ordering::kKey);
    const std::string long_key(kMaxKeyBytes + 1, 'k');
    CHECK(q.Enqueue("a", "", long_key).message() == "key must be at most 1024 bytes, got 1025 bytes");
    CHECK(q.EnqueueMany({{"a", "", "k"}, {"b", "", long_key}}).message() ==
          "jobs[1].key must be at most 1024 bytes, got 1025 bytes");
    CHECK(q.view().event_count() == 0);
    REQUIRE(q.EnqueueMany({{"a", "", "k"}, {"b", "", "k"}}).ok());
    CHECK(q.EnqueueMany({{"c", "", "k"}, {"a", "", "k"}}).code() == Code::kAlreadyExists);  // undone whole
    MustProcess(q, "success");
    CHECK(MustProcess(q, "success").id == "b");
    CHECK(q.view().Reorders().empty());
  }
}

TEST_SUITE("quarantine operability") {
  Queue MakeOperated(int64_t retention_ms, int64_t alarm_depth, Ordering ordering = Ordering::kNone) {
    Policy p;
    p.retention_ms = retention_ms;
    p.alarm_depth = alarm_depth;
    p.ordering = ordering;
    Result<Queue> made = Queue::Create(p);
    REQUIRE(made.ok());
    return std::move(made).value();
  }

  TEST_CASE("retention drops an entry at the exact millisecond, its evidence is gone for good") {
    Queue q = MakeOperated(1000, 0);
    REQUIRE(q.Enqueue("a", "").ok());
    REQUIRE(q.Advance(int64_t{5}).ok());
    MustProcess(q, "permanent");  // arrives at 5: dropped at 1005
    REQUIRE(q.Advance(int64_t{999}).ok());
    CHECK(q.stats().quarantined == 1);
    REQUIRE(q.Advance(int64_t{1}).ok());
    CHECK(q.stats().quarantined == 0);
    CHECK(q.stats().expired == 1);
    CHECK_FALSE(q.Replay("a"));
    const Event e = q.view().EventAt(q.view().event_count() - 1);
    CHECK(e.kind == EventKind::kEvidenceExpired);
    CHECK(e.time == 1005);
    CHECK(RenderEvent(e) == "#4 step 1 at 1005ms evidence-expired \"a\" attempts 1");
  }

  TEST_CASE("retention timers are timers: advanceToNext stops at them, a replay cancels one") {
    Queue q = MakeOperated(300, 0);
    REQUIRE(q.EnqueueMany({{"a", ""}, {"b", ""}}).ok());
    MustProcess(q, "permanent");
    MustProcess(q, "permanent");
    REQUIRE(q.Replay("a"));
    CHECK(q.AdvanceToNext().value() == 300);
    CHECK(Ids(q.view().Quarantined()).empty());
    CHECK(q.stats().expired == 1);
    CHECK(Ids(q.view().Ready()) == Strings{"a"});
    CHECK_FALSE(q.AdvanceToNext().has_value());
  }

  TEST_CASE("an expired holder still holds its key until releaseKey") {
    Queue q = MakeOperated(100, 0, Ordering::kKey);
    REQUIRE(q.Enqueue("a", "", "k").ok());
    REQUIRE(q.Enqueue("b", "", "k").ok());
    MustProcess(q, "permanent");
    REQUIRE(q.Advance(int64_t{100}).ok());
    CHECK(q.stats().expired == 1);
    CHECK(q.view().Ready()[0].held_by == "a");
    CHECK(q.ReleaseKey("k").value() == 1);
    CHECK(MustProcess(q, "success").id == "b");
    CHECK(q.view().Reorders()[0].overtook == Strings{"a"});  // overtaking an expired holder counts
  }

  TEST_CASE("the depth alarm: raised on reaching the depth, cleared on any fall below it, raised again") {
    Queue q = MakeOperated(500, 2);
    REQUIRE(q.EnqueueMany({{"a", ""}, {"b", ""}, {"c", ""}}).ok());
    MustProcess(q, "permanent");
    CHECK_FALSE(q.view().alarm().raised);
    MustProcess(q, "permanent");
    CHECK(q.view().alarm().raised);
    CHECK(q.view().alarm().depth == 2);
    CHECK(q.view().alarm().threshold == 2);
    CHECK(RenderEvent(q.view().EventAt(q.view().event_count() - 1)) == "#8 step 2 alarm-raised \"b\" depth 2");
    REQUIRE(q.Replay("a"));
    CHECK_FALSE(q.view().alarm().raised);
    CHECK(q.view().EventAt(q.view().event_count() - 1).kind == EventKind::kAlarmCleared);
    MustProcess(q, "permanent");  // c
    CHECK(q.view().alarm().raised);
    REQUIRE(q.Advance(int64_t{500}).ok());  // b's retention ends: the drop clears it
    CHECK_FALSE(q.view().alarm().raised);
    size_t raised = 0, cleared = 0;
    for (const Event& e : q.view().Timeline()) {
      raised += e.kind == EventKind::kAlarmRaised;
      cleared += e.kind == EventKind::kAlarmCleared;
    }
    CHECK(raised == 2);
    CHECK(cleared == 2);
    const AlarmView off = MakeOperated(0, 0).view().alarm();
    CHECK_FALSE(off.raised);
    CHECK(off.threshold == 0);
  }

  TEST_CASE("redrive replays the oldest entries first, each like replay, and says how many moved") {
    Queue q = MakeOperated(0, 0);
    REQUIRE(q.EnqueueMany({{"a", ""}, {"b", ""}, {"c", ""}}).ok());
    MustProcess(q, "permanent");
    MustProcess(q, "permanent");
    MustProcess(q, "permanent");
    Result<uint64_t> moved = q.Redrive(int64_t{2});
    REQUIRE(moved.ok());
    CHECK(moved.value() == 2);
    CHECK(Ids(q.view().Ready()) == Strings{"a", "b"});
    CHECK(Ids(q.view().Quarantined()) == Strings{"c"});
    CHECK(q.view().Ready()[0].attempts == 0);
    CHECK(q.view().EventAt(q.view().event_count() - 1).kind == EventKind::kReplayed);
    CHECK(q.Redrive(int64_t{10}).value() == 1);
    CHECK(q.Redrive(int64_t{10}).value() == 0);
    CHECK(q.Redrive(int64_t{0}).status().message() == "max must be an integer from 1 to 1000000000, got 0");
    CHECK(q.Redrive(1.5).status().code() == Code::kOutOfRange);
  }

  TEST_CASE("the quarantine is a dead end: no worker action or clock move ever takes a job out of it") {
    for (uint64_t seed = 1; seed <= 300; ++seed) {
      Prng prng(seed);
      Policy p;
      p.max_attempts = 1 + prng.Below(3);
      p.lease_ms = 1 + prng.Below(100);
      p.backoff = {BackoffKind::kFixed, 1 + prng.Below(50), 100, Jitter::kNone};
      p.ordering = static_cast<Ordering>(prng.Below(3));
      Result<Queue> made = Queue::Create(p);
      REQUIRE(made.ok());
      Queue q = std::move(made).value();
      for (int i = 0; i < 8; ++i) REQUIRE(q.Enqueue("j" + std::to_string(i), "", i % 2 ? "k" : "").ok());
      static const char* kOutcomes[] = {"success",          "transient",      "permanent",
                                        "undeserializable", "unknown-schema", "precondition"};
      std::set<std::string> seen;  // every id that ever entered quarantine
      for (int n = 0; n < 60; ++n) {
        switch (prng.Below(5)) {
          case 0: (void)q.Process(kOutcomes[prng.Below(6)]); break;
          case 1: (void)q.Lease(); break;
          case 2: (void)q.Settle("lease-" + std::to_string(1 + prng.Below(8)), kOutcomes[prng.Below(6)]); break;
          case 3: (void)q.Advance(int64_t{prng.Below(80)}); break;
          default: (void)q.AdvanceToNext(); break;
        }
        const std::vector<std::string> now = Ids(q.view().Quarantined());
        for (const std::string& id : seen) {
          CAPTURE(seed);
          CHECK(std::find(now.begin(), now.end(), id) != now.end());
        }
        seen.insert(now.begin(), now.end());
      }
    }
  }
}

}  // namespace ordering_test
