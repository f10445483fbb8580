// Model-based test of failure classes, per-key ordering and quarantine
// operability: an independent model (plain vectors and linear scans, written
// from the issue text) is driven side by side with the core over seeded random
// runs of enqueues with keys, all six outcomes, clock moves, replays, redrives
// and key releases. Every answer, view and event must agree. Leases are covered
// by clock_model_test.cpp; here every attempt is a process().
#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <set>

#include "test_util.h"

using namespace dlq;
using namespace dlq::test;

namespace operability_model_test {

namespace {

struct MJob {
  std::string id, key;
  uint32_t attempts = 0;
  std::string place = "ready";  // ready delayed completed quarantined dropped
  bool released = false;
  // quarantine context
  std::string reason, cls;
  bool alert = false;
  int64_t arrived = 0, first = 0, due = 0;
  uint64_t seq = 0;  // its current timer's order (delayed or retention)
};

struct OpModel {
  Policy policy;
  int64_t now = 0;
  uint64_t seq = 0;
  std::vector<MJob> jobs;
  std::deque<size_t> ready;
  std::vector<size_t> completed;
  std::vector<size_t> quarantine;     // arrival order
  std::vector<std::string> reorders;  // "key/id/overtook,…"
  std::vector<std::string> events;    // "kind id"
  bool alarm = false;
  size_t expired = 0;

  int64_t Find(const std::string& id) const {
    for (size_t i = 0; i < jobs.size(); ++i)
      if (jobs[i].id == id) return static_cast<int64_t>(i);
    return -1;
  }
  void Event(const std::string& kind, size_t j) { events.push_back(kind + " " + jobs[j].id); }

  // The jobs of `key` not yet completed, in enqueue order.
  std::vector<size_t> Pending(const std::string& key) const {
    std::vector<size_t> out;
    for (size_t i = 0; i < jobs.size(); ++i) {
      if (jobs[i].key == key && jobs[i].place != "completed") out.push_back(i);
    }
    return out;
  }

  std::optional<size_t> Holder(size_t j) const {
    if (policy.ordering != Ordering::kKey || jobs[j].key.empty() || jobs[j].released) return std::nullopt;
    for (size_t p : Pending(jobs[j].key)) {
      if (p == j) return std::nullopt;
      if (!jobs[p].released) return p;
    }
    return std::nullopt;
  }

  std::optional<size_t> Eligible() const {
    if (ready.empty()) return std::nullopt;
    if (policy.ordering == Ordering::kNone) return 0;
    if (policy.ordering == Ordering::kStall) {
      for (const MJob& j : jobs)
        if (j.place == "delayed") return std::nullopt;
      return 0;
    }
    for (size_t pos = 0; pos < ready.size(); ++pos)
      if (!Holder(ready[pos])) return pos;
    return std::nullopt;
  }

  void Alarm(size_t j) {
    if (policy.alarm_depth == 0) return;
    const bool reached = static_cast<int64_t>(quarantine.size()) >= policy.alarm_depth;
    if (reached == alarm) return;
    alarm = reached;
    Event(reached ? "alarm-raised" : "alarm-cleared", j);
  }

  void BackToReady(size_t j) {
    jobs[j].place = "ready";
    if (policy.ordering == Ordering::kStall) ready.push_front(j);
    else ready.push_back(j);
  }

  // "" when nothing may run, else "id/attempt/disposition/reason/delay".
  std::string Process(Outcome outcome) {
    const auto pos = Eligible();
    if (!pos) return "";
    const size_t j = ready[*pos];
    ready.erase(ready.begin() + static_cast<std::ptrdiff_t>(*pos));
    MJob& job = jobs[j];
    if (++job.attempts == 1) job.first = now;
    Event("attempt", j);
    std::string head = job.id + "/" + std::to_string(job.attempts) + "/";
    if (outcome == Outcome::kSuccess) {
      job.place = "completed";
      completed.push_back(j);
      Event("completed", j);
      if (!job.key.empty()) {
        std::string overtook;
        for (size_t i = 0; i < j; ++i) {
          if (jobs[i].key == job.key && jobs[i].place != "completed")
            overtook += (overtook.empty() ? "" : ",") + jobs[i].id;
        }
        if (!overtook.empty()) {
          reorders.push_back(job.key + "/" + job.id + "/" + overtook);
          Event("reorder", j);
        }
      }
      return head + "completed//0";
    }
    // The class's rule, read straight from the table (its defaults in the issue text).
    const std::string cls = outcome == Outcome::kTransient          ? "transient"
                            : outcome == Outcome::kPermanent        ? "permanent"
                            : outcome == Outcome::kUndeserializable ? "undeserializable"
                            : outcome == Outcome::kUnknownSchema    ? "unknown-schema"
                                                                    : "precondition";
    const ClassRule& rule = policy.classes[ClassOf(outcome)];
    int64_t budget = rule.max_attempts == 0 ? policy.max_attempts : std::min(rule.max_attempts, policy.max_attempts);
    std::string disposition, reason;
    int64_t delay = 0;
    if (!rule.retry) {
      reason = "permanent";
    } else if (job.attempts < budget) {
      const Backoff& b = rule.own_backoff ? rule.backoff : policy.backoff;
      delay = b.kind == BackoffKind::kNone ? 0 : b.base_ms;  // fixed, no jitter in these runs
    } else {
      reason = "exhausted";
    }
    if (!reason.empty()) {
      job.place = "quarantined";
      job.reason = reason;
      job.cls = cls;
      job.alert = rule.alert;
      job.arrived = now;
      quarantine.push_back(j);
      Event("quarantined", j);
      if (job.alert) Event("alert", j);
      if (policy.retention_ms > 0) job.seq = ++seq;
      Alarm(j);
      return head + "quarantined/" + reason + "/0";
    }
    if (delay == 0) {
      BackToReady(j);
      Event("requeued", j);
      return head + "requeued//0";
    }
    job.place = "delayed";
    job.due = now + delay;
    job.seq = ++seq;
    Event("delayed", j);
    return head + "delayed//" + std::to_string(delay);
  }

  bool Replay(size_t j) {
    if (jobs[j].place != "quarantined") return false;
    quarantine.erase(std::find(quarantine.begin(), quarantine.end(), j));
    Event("replayed", j);
    jobs[j].attempts = 0;
    jobs[j].alert = false;
    jobs[j].place = "ready";
    ready.push_back(j);
    Alarm(j);
    return true;
  }

  uint64_t Release(const std::string& key) {
    uint64_t n = 0;
    for (size_t p : Pending(key)) {
      MJob& job = jobs[p];
      if (!job.released && (job.place == "quarantined" || job.place == "dropped")) {
        job.released = true;
        Event("key-released", p);
        ++n;
      }
    }
    return n;
  }

  // The next timer: {time, seq, job, is-retention}.
  std::optional<std::tuple<int64_t, uint64_t, size_t, bool>> Next() const {
    std::optional<std::tuple<int64_t, uint64_t, size_t, bool>> best;
    for (size_t i = 0; i < jobs.size(); ++i) {
      std::optional<std::tuple<int64_t, uint64_t, size_t, bool>> t;
      if (jobs[i].place == "delayed") t = {jobs[i].due, jobs[i].seq, i, false};
      if (jobs[i].place == "quarantined" && policy.retention_ms > 0) {
        t = {jobs[i].arrived + policy.retention_ms, jobs[i].seq, i, true};
      }
      if (t && (!best || std::make_pair(std::get<0>(*t), std::get<1>(*t)) <
                             std::make_pair(std::get<0>(*best), std::get<1>(*best))))
        best = t;
    }
    return best;
  }

  void AdvanceTo(int64_t target) {
    for (auto t = Next(); t && std::get<0>(*t) <= target; t = Next()) {
      now = std::get<0>(*t);
      const size_t j = std::get<2>(*t);
      if (std::get<3>(*t)) {
        quarantine.erase(std::find(quarantine.begin(), quarantine.end(), j));
        jobs[j].place = "dropped";
        ++expired;
        Event("evidence-expired", j);
        Alarm(j);
      } else {
        BackToReady(j);
        Event("due", j);
      }
    }
    now = target;
  }
};

std::string Describe(const Attempt& a) {
  if (!a.processed) return "";
  return a.id + "/" + std::to_string(a.attempt) + "/" + DispositionName(a.disposition) + "/" + ReasonName(a.reason) +
         "/" + std::to_string(a.delay_ms);
}

void Compare(const OpModel& m, const Queue& q) {
  CHECK(q.stats().now == m.now);
  const auto ready = q.view().Ready();
  REQUIRE(ready.size() == m.ready.size());
  for (size_t i = 0; i < ready.size(); ++i) {
    CHECK(ready[i].id == m.jobs[m.ready[i]].id);
    CHECK(ready[i].attempts == m.jobs[m.ready[i]].attempts);
    const auto holder = m.Holder(m.ready[i]);
    CHECK(ready[i].held_by == (holder ? m.jobs[*holder].id : std::string()));
  }
  std::vector<std::string> completed;
  for (size_t j : m.completed) completed.push_back(m.jobs[j].id);
  CHECK(Ids(q.view().Completed()) == completed);
  const auto entries = q.view().Quarantined();
  REQUIRE(entries.size() == m.quarantine.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    const MJob& job = m.jobs[m.quarantine[i]];
    CHECK(entries[i].id == job.id);
    CHECK(ReasonName(entries[i].reason) == job.reason);
    CHECK(ClassName(entries[i].failure_class) == job.cls);
    CHECK(entries[i].alert == job.alert);
    CHECK(entries[i].arrived_at == job.arrived);
    CHECK(entries[i].first_attempt_at == job.first);
    CHECK(entries[i].key == job.key);
  }
  std::vector<std::string> reorders;
  for (const ReorderView& r : q.view().Reorders()) {
    std::string ids;
    for (const std::string& id : r.overtook) ids += (ids.empty() ? "" : ",") + id;
    reorders.push_back(r.key + "/" + r.id + "/" + ids);
  }
  CHECK(reorders == m.reorders);
  CHECK(q.view().alarm().raised == m.alarm);
  CHECK(q.stats().expired == m.expired);
  REQUIRE(q.view().event_count() == m.events.size());
}

}  // namespace

TEST_CASE("classes, keys and retention agree with an independent model over 1500 seeded random runs (375 sanitized)") {
  static const char* kIds[] = {"a", "b", "c", "d", "e", "f", "g"};
  static const char* kKeys[] = {"", "k1", "k2"};
  uint64_t actions = 0, reorders = 0, drops = 0, alarms = 0, releases = 0, redrives = 0;
  const uint64_t seeds = kSanitized ? 375 : 1500;  // a quarter under the sanitizers: each run is checked alike
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    Prng prng(seed * 104729);
    Policy p;
    p.max_attempts = 1 + prng.Below(4);
    p.ordering = static_cast<Ordering>(prng.Below(3));
    if (prng.Below(2)) p.backoff = {BackoffKind::kFixed, 1 + prng.Below(50), 1000, Jitter::kNone};
    p.retention_ms = prng.Below(3) == 0 ? 0 : 1 + prng.Below(300);
    p.alarm_depth = prng.Below(4);
    if (prng.Below(3) == 0) p.classes[FailureClass::kPrecondition].max_attempts = prng.Below(4);
    Result<Queue> made = Queue::Create(p);
    REQUIRE(made.ok());
    Queue q = std::move(made).value();
    OpModel m{p};
    const uint32_t length = 20 + prng.Below(60);
    for (uint32_t n = 0; n < length; ++n) {
      CAPTURE(seed);
      CAPTURE(n);
      ++actions;
      const size_t events_before = q.view().event_count();
      const uint32_t roll = prng.Below(14);
      if (roll < 3) {
        const std::string id = kIds[prng.Below(7)];
        const std::string key = kKeys[prng.Below(3)];
        const bool fresh = m.Find(id) < 0;
        CHECK(q.Enqueue(id, "", key).ok() == fresh);
        if (fresh) {
          m.jobs.push_back({id, key});
          m.ready.push_back(m.jobs.size() - 1);
          m.Event("enqueued", m.jobs.size() - 1);
        }
      } else if (roll < 8) {
        const auto outcome = static_cast<Outcome>(prng.Below(kOutcomeCount));
        Result<Attempt> got = q.Process(OutcomeName(outcome));
        REQUIRE(got.ok());
        CHECK(Describe(got.value()) == m.Process(outcome));
      } else if (roll < 10) {
        const int64_t ms = prng.Below(120);
        REQUIRE(q.Advance(ms).ok());
        m.AdvanceTo(m.now + ms);
      } else if (roll < 11) {
        const auto next = m.Next();
        const std::optional<int64_t> at = q.AdvanceToNext();
        REQUIRE(at.has_value() == next.has_value());
        if (next) m.AdvanceTo(std::get<0>(*next));
      } else if (roll < 12) {
        const std::string id = kIds[prng.Below(7)];
        const int64_t j = m.Find(id);
        CHECK(q.Replay(id) == (j >= 0 && m.Replay(static_cast<size_t>(j))));
      } else if (roll < 13) {
        const int64_t max = 1 + prng.Below(3);
        Result<uint64_t> moved = q.Redrive(max);
        REQUIRE(moved.ok());
        uint64_t expected = 0;
        while (expected < static_cast<uint64_t>(max) && !m.quarantine.empty()) {
          m.Replay(m.quarantine.front());
          ++expected;
        }
        CHECK(moved.value() == expected);
        redrives += expected;
      } else {
        const std::string key = kKeys[1 + prng.Below(2)];
        Result<uint64_t> released = q.ReleaseKey(key);
        REQUIRE(released.ok());
        CHECK(released.value() == m.Release(key));
        releases += released.value();
      }
      for (const dlq::Event& e : q.view().Timeline(events_before)) {
        REQUIRE(e.seq - 1 < m.events.size());
        CHECK(std::string(EventKindName(e.kind)) + " " + e.id == m.events[e.seq - 1]);
        reorders += e.kind == EventKind::kReorder;
        drops += e.kind == EventKind::kEvidenceExpired;
        alarms += e.kind == EventKind::kAlarmRaised;
      }
      Compare(m, q);
    }
  }
  MESSAGE("actions: " << actions << ", reorders: " << reorders << ", retention drops: " << drops
                      << ", alarms: " << alarms << ", releases: " << releases << ", redriven: " << redrives);
  // Each exercised often enough (per run, so the same rates hold at either size).
  CHECK(reorders > 200 * seeds / 1500);
  CHECK(drops > 200 * seeds / 1500);
  CHECK(alarms > 200 * seeds / 1500);
  CHECK(releases > 50 * seeds / 1500);
  CHECK(redrives > 200 * seeds / 1500);
}

}  // namespace operability_model_test
