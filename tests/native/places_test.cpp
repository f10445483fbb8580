// The queue's places as parts (core/queue/internal/*_place.h, key_order.h), each on
// its own: the containers' order, the positions and counters a snapshot keeps, the
// quarantine's retention, trim and alarm rules, and a stale lease's refusals. The
// queue's own tests (queue_test, ordering_test, durable_test, the goldens) cover
// the moves between them.
#include <string>
#include <vector>

#include "delayed_place.h"
#include "finished_places.h"
#include "job_store.h"
#include "key_order.h"
#include "leased_place.h"
#include "quarantine_place.h"
#include "ready_place.h"
#include "test_util.h"

using namespace dlq;

namespace {

std::vector<uint32_t> Contents(const ReadyPlace& ready) {
  std::vector<uint32_t> out;
  for (size_t k = 0; k < ready.size(); ++k) out.push_back(ready[k]);
  return out;
}

std::vector<uint32_t> Contents(const QuarantinePlace& quarantine) { return {quarantine.begin(), quarantine.end()}; }

}  // namespace

TEST_SUITE("places") {
  TEST_CASE("ready: positions rise from head to tail, a take keeps the order, an undone push gives its position back") {
    ReadyPlace ready;
    CHECK(ready.PushBack(10) == 0);
    CHECK(ready.PushBack(11) == 1);
    CHECK(ready.PushFront(12) == -1);
    CHECK(Contents(ready) == std::vector<uint32_t>{12, 10, 11});
    CHECK(ready.head_position() == -1);
    CHECK(ready.tail_position() == 2);
    CHECK(ready.Take(1) == 10);
    CHECK(ready.Take(0) == 12);
    CHECK(Contents(ready) == std::vector<uint32_t>{11});
    CHECK(ready.PushBack(13) == 2);
    ready.UndoPushBack();
    CHECK(ready.tail_position() == 2);
    CHECK(ready.PushBack(14) == 2);
    CHECK(ready.head_position() == -1);  // taking from the head never moves its bound
  }

  TEST_CASE("delayed: earliest due first, ties in the order their timers were set") {
    DelayedPlace delayed;
    CHECK(delayed.Next() == nullptr);
    delayed.Add(500, 3, 7);
    delayed.Add(100, 4, 8);
    delayed.Add(500, 2, 9);
    CHECK(delayed.size() == 3);
    CHECK(delayed.Next()->ref == 8);
    CHECK(delayed.TakeNext().ref == 8);
    CHECK(delayed.TakeNext().ref == 9);  // seq 2 before seq 3 at the same time
    CHECK(delayed.TakeNext().ref == 7);
    CHECK(delayed.empty());
  }

  TEST_CASE("leased: the active lease a token names, or StaleLease saying why") {
    JobStore jobs;
    const auto job = static_cast<uint32_t>(jobs.Add("a", "", ""));
    LeasedPlace leased;
    const uint32_t first = leased.Grant(job, 0, 1000, 1);
    const uint32_t second = leased.Grant(job, 0, 2000, 2);
    CHECK(leased.size() == 2);
    CHECK(leased.NextExpiry()->ref == first);
    Result<uint32_t> found = leased.Active("lease-2", jobs);
    REQUIRE(found.ok());
    CHECK(found.value() == second);
    leased.End(first, LeaseState::kSettled);
    leased.End(second, LeaseState::kExpired);
    CHECK(leased.empty());
    CHECK(leased.granted() == 2);
    const Status unknown = leased.Active("lease-3", jobs).status();
    CHECK(unknown.code() == Code::kStaleLease);
    CHECK(unknown.message() == "token \"lease-3\" names no lease this queue granted");
    CHECK(leased.Active("lease-1", jobs).status().message() == "lease lease-1 for job \"a\" was already settled");
    CHECK(leased.Active("lease-2", jobs).status().message() ==
          "lease lease-2 for job \"a\" expired at 2000 ms; its attempt was counted");
  }

  TEST_CASE("quarantine: arrival numbers, drops counted as expired, the alarm raised and cleared once each") {
    Policy p;
    p.alarm_depth = 2;
    QuarantinePlace quarantine(p);
    uint64_t arrival = 0;
    const QuarantinePlace::Position a = quarantine.Arrive(4, &arrival);
    CHECK(arrival == 1);
    CHECK_FALSE(quarantine.UpdateAlarm());  // depth 1 < 2: still clear
    quarantine.Arrive(5, &arrival);
    CHECK(arrival == 2);
    CHECK(quarantine.UpdateAlarm());
    CHECK(quarantine.alarm_raised());
    CHECK_FALSE(quarantine.UpdateAlarm());  // no change, no second raise
    quarantine.Drop(a);
    CHECK(quarantine.UpdateAlarm());
    CHECK_FALSE(quarantine.alarm_raised());
    CHECK(Contents(quarantine) == std::vector<uint32_t>{5});
    CHECK(quarantine.expired() == 1);
    CHECK(quarantine.arrivals() == 2);
  }

  TEST_CASE("quarantine: retention timers and their window, none under a lazy mode") {
    Policy p;
    p.retention_ms = 1000;
    const QuarantinePlace timed(p);
    CHECK(timed.RetentionTimers());
    CHECK(timed.RetentionEnd(200, 0) == 1200);
    int64_t from = -1, until = -1;
    timed.RetentionWindow(200, 0, &from, &until);
    CHECK(from == 200);
    CHECK(until == 1200);

    p.system = System::kSqs;  // counted from the first enqueue, never before the arrival
    const QuarantinePlace sqs(p);
    CHECK(sqs.RetentionEnd(5000, 100) == 5000);
    CHECK(sqs.RetentionEnd(500, 100) == 1100);

    Policy kept;
    const QuarantinePlace forever(kept);
    from = until = -1;
    forever.RetentionWindow(200, 0, &from, &until);
    CHECK(from == -1);
    CHECK(until == -1);
    CHECK_FALSE(forever.Trims());
  }

  TEST_CASE("quarantine: a lazy trim's rules, by age then by count, oldest first") {
    Policy p;
    p.system = System::kSidekiq;
    p.retention_ms = 100;
    p.dead_max_jobs = 3;  // keeps the newest 2
    QuarantinePlace quarantine(p);
    CHECK(quarantine.Trims());
    CHECK_FALSE(quarantine.RetentionTimers());
    CHECK(quarantine.LazyRetentionAge() == 100);
    JobStore jobs;
    uint64_t arrival = 0;
    for (int k = 0; k < 3; ++k) {
      const auto job = static_cast<uint32_t>(jobs.Add("j" + std::to_string(k), "", ""));
      jobs[job].arrived_at = 50 * k;
      quarantine.Arrive(job, &arrival);
    }
    CHECK(quarantine.FrontAgedOut(100, jobs));  // arrived at 0: 100 old
    CHECK_FALSE(quarantine.FrontAgedOut(99, jobs));
    CHECK(quarantine.OverKeep());
    quarantine.Remove(quarantine.Restore(9));  // a restore appends; a remove is not a drop
    CHECK(quarantine.expired() == 0);
  }

  TEST_CASE("keys: the first free ready job, a completion past earlier jobs of its key recorded, an undone add") {
    JobStore jobs;
    const auto a1 = static_cast<uint32_t>(jobs.Add("a1", "", "a"));
    const auto a2 = static_cast<uint32_t>(jobs.Add("a2", "", "a"));
    const auto b1 = static_cast<uint32_t>(jobs.Add("b1", "", "b"));
    KeyOrder keys;
    for (const uint32_t job : {a1, a2, b1}) keys.Add(jobs[job].key(), job);
    CHECK(keys.HolderOf(jobs, a1) == -1);
    CHECK(keys.HolderOf(jobs, a2) == a1);
    ReadyPlace ready;
    ready.PushBack(a2);
    ready.PushBack(b1);
    CHECK(keys.FirstFree(ready, jobs) == 1);  // a2 is held by a1; b1 runs
    jobs[a1].released = true;
    CHECK(keys.FirstFree(ready, jobs) == 0);
    CHECK(keys.Complete("a", a2));  // past a1
    CHECK(keys.reorder_count() == 1);
    CHECK(keys.reorder_job(0) == a2);
    CHECK(keys.overtook(0) == std::vector<uint32_t>{a1});
    CHECK_FALSE(keys.Complete("b", b1));
    CHECK(keys.Pending("b") == nullptr);
    keys.UndoAdd("a");  // a1, the only one left
    CHECK(keys.Pending("a") == nullptr);
  }

  TEST_CASE("finished: discarded jobs listed in enqueue order, whatever order they went in") {
    FinishedPlaces finished;
    finished.Discard(7);
    finished.Discard(2);
    finished.Discard(5);
    finished.Complete(3);
    CHECK(finished.discarded() == std::vector<uint32_t>{2, 5, 7});
    CHECK(finished.completed() == std::vector<uint32_t>{3});
    finished.RestoreLost();
    CHECK(finished.lost() == 1);
  }
}
