// Model-based test of time and leases: a second, independent model of the clock
// (backoff, jitter, delayed jobs, leases, expiries, timer order) is driven side by
// side with the core over seeded random runs that mix every action, stale tokens
// and bad durations included. Every answer, view and event must agree.
//
// The model is written from the issue text with plain vectors and linear scans;
// it shares only the PRNG primitive (Prng::Below) with the core, and computes the
// delay formulas itself.
#include <algorithm>
#include <deque>
#include <optional>
#include <set>

#include "rules.h"
#include "test_util.h"

using namespace dlq;
using namespace dlq::test;

namespace clock_model_test {

namespace {

struct TJob {
  std::string id;
  uint32_t attempts = 0;
  int64_t last_delay = 0;
};

struct TTimer {
  int64_t time;
  uint64_t seq;
  bool lease;  // an expiry, else a due time
  size_t ref;  // lease number, or index into delayed
};

struct TLease {
  TJob job;
  int64_t expires;
  uint64_t seq;
  int state = 0;  // 0 active, 1 settled, 2 expired
};

struct TimeModel {
  int64_t max_attempts;
  std::string kind, jitter;
  int64_t base, cap, lease_ms;
  Prng jitter_stream;
  int64_t now = 0;
  uint64_t seq = 0;
  std::deque<TJob> ready;
  std::vector<std::pair<TJob, std::pair<int64_t, uint64_t>>> delayed;  // job, (due, seq)
  std::vector<TLease> leases;
  std::vector<std::string> completed, quarantined;  // "id/attempts[/reason]"
  std::set<std::string> seen;
  std::vector<std::string> events;  // "kind id attempts @time"

  void Event(const char* kind, const TJob& job) {
    events.push_back(std::string(kind) + " " + job.id + " " + std::to_string(job.attempts) + " @" +
                     std::to_string(now));
  }

  int64_t Uniform(int64_t lo, int64_t hi) { return lo + jitter_stream.Below(static_cast<uint32_t>(hi - lo + 1)); }

  int64_t Delay(const TJob& job) {
    if (kind == "none") return 0;
    int64_t v = base;
    if (kind == "exponential") {
      v = base;
      for (uint32_t k = 1; k < job.attempts && v < cap; ++k) v *= 2;
      v = std::min(v, cap);
    }
    if (jitter == "full") return Uniform(0, v);
    if (jitter == "equal") return v / 2 + Uniform(0, v - v / 2);
    if (jitter == "decorrelated") {
      const int64_t prev = job.last_delay > 0 ? job.last_delay : base;
      return std::min(cap, Uniform(base, std::max(base, 3 * prev)));
    }
    return v;
  }

  // The counted attempt of `job` ends with `outcome`; returns "disposition/reason/delay".
  std::string Decide(TJob job, const std::string& outcome, const char* kind_of_event) {
    Event(kind_of_event, job);
    if (outcome == "success") {
      completed.push_back(job.id + "/" + std::to_string(job.attempts));
      Event("completed", job);
      return "completed//0";
    }
    if (outcome == "permanent" || job.attempts >= max_attempts) {
      const std::string reason = outcome == "permanent" ? "permanent" : "exhausted";
      quarantined.push_back(job.id + "/" + std::to_string(job.attempts) + "/" + reason);
      Event("quarantined", job);
      return "quarantined/" + reason + "/0";
    }
    const int64_t d = Delay(job);
    job.last_delay = d;
    if (d == 0) {
      ready.push_back(job);
      Event("requeued", job);
      return "requeued//0";
    }
    delayed.push_back({job, {now + d, ++seq}});
    Event("delayed", job);
    return "delayed//" + std::to_string(d);
  }

  bool Enqueue(const std::string& id) {
    if (id.empty() || seen.count(id)) return false;
    seen.insert(id);
    ready.push_back({id, 0, 0});
    Event("enqueued", ready.back());
    return true;
  }

  std::string Process(const std::string& outcome) {
    if (ready.empty()) return "";
    TJob job = ready.front();
    ready.pop_front();
    job.attempts++;
    return job.id + "/" + std::to_string(job.attempts) + "/" + Decide(job, outcome, "attempt");
  }

  std::string Lease() {
    if (ready.empty()) return "";
    TJob job = ready.front();
    ready.pop_front();
    job.attempts++;
    leases.push_back({job, now + lease_ms, ++seq});
    Event("leased", job);
    return job.id + "/" + std::to_string(job.attempts) + "/lease-" + std::to_string(leases.size()) + "/" +
           std::to_string(now + lease_ms);
  }

  // "" for a stale token, else the decision.
  std::string Settle(size_t n, const std::string& outcome) {
    if (n == 0 || n > leases.size() || leases[n - 1].state != 0) return "";
    leases[n - 1].state = 1;
    const TJob job = leases[n - 1].job;
    return job.id + "/" + std::to_string(job.attempts) + "/" + Decide(job, outcome, "attempt");
  }

  std::optional<TTimer> Next() const {
    std::optional<TTimer> best;
    for (size_t i = 0; i < delayed.size(); ++i) {
      const TTimer t{delayed[i].second.first, delayed[i].second.second, false, i};
      if (!best || t.time < best->time || (t.time == best->time && t.seq < best->seq)) best = t;
    }
    for (size_t i = 0; i < leases.size(); ++i) {
      if (leases[i].state != 0) continue;
      const TTimer t{leases[i].expires, leases[i].seq, true, i + 1};
      if (!best || t.time < best->time || (t.time == best->time && t.seq < best->seq)) best = t;
    }
    return best;
  }

  void Fire(const TTimer& t) {
    now = t.time;
    if (!t.lease) {
      const TJob job = delayed[t.ref].first;
      delayed.erase(delayed.begin() + static_cast<std::ptrdiff_t>(t.ref));
      ready.push_back(job);
      Event("due", job);
      return;
    }
    leases[t.ref - 1].state = 2;
    Decide(leases[t.ref - 1].job, "transient", "expired");
  }

  void AdvanceTo(int64_t target) {
    for (auto t = Next(); t && t->time <= target; t = Next()) Fire(*t);
    now = target;
  }
};

std::string Describe(const Attempt& a) {
  if (!a.processed) return "";
  return a.id + "/" + std::to_string(a.attempt) + "/" + DispositionName(a.disposition) + "/" + ReasonName(a.reason) +
         "/" + std::to_string(a.delay_ms);
}

void Compare(const TimeModel& m, const Queue& q) {
  CHECK(q.stats().now == m.now);
  const auto ready = q.view().Ready();
  REQUIRE(ready.size() == m.ready.size());
  for (size_t i = 0; i < ready.size(); ++i) {
    CHECK(ready[i].id == m.ready[i].id);
    CHECK(ready[i].attempts == m.ready[i].attempts);
  }
  // Delayed in firing order: (due, seq).
  auto delayed = m.delayed;
  std::sort(delayed.begin(), delayed.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  const auto core_delayed = q.view().Delayed();
  REQUIRE(core_delayed.size() == delayed.size());
  for (size_t i = 0; i < delayed.size(); ++i) {
    CHECK(core_delayed[i].id == delayed[i].first.id);
    CHECK(core_delayed[i].due_at == delayed[i].second.first);
    CHECK(core_delayed[i].attempts == delayed[i].first.attempts);
  }
  std::vector<std::pair<std::pair<int64_t, uint64_t>, std::string>> active;
  for (size_t i = 0; i < m.leases.size(); ++i) {
    if (m.leases[i].state == 0) {
      active.push_back(
          {{m.leases[i].expires, m.leases[i].seq}, m.leases[i].job.id + "/lease-" + std::to_string(i + 1)});
    }
  }
  std::sort(active.begin(), active.end());
  const auto leased = q.view().Leased();
  REQUIRE(leased.size() == active.size());
  for (size_t i = 0; i < active.size(); ++i) {
    CHECK(leased[i].id + "/" + leased[i].token == active[i].second);
    CHECK(leased[i].expires_at == active[i].first.first);
  }
  std::vector<std::string> completed, quarantined;
  for (const JobView& j : q.view().Completed()) completed.push_back(j.id + "/" + std::to_string(j.attempts));
  for (const QuarantineEntry& e : q.view().Quarantined()) {
    quarantined.push_back(e.id + "/" + std::to_string(e.attempts) + "/" + ReasonName(e.reason));
  }
  CHECK(completed == m.completed);
  CHECK(quarantined == m.quarantined);
  REQUIRE(q.view().event_count() == m.events.size());
}

}  // namespace

TEST_CASE("time and leases agree with an independent model over 2000 seeded random runs (500 sanitized)") {
  static const char* kKinds[] = {"none", "fixed", "exponential"};
  static const char* kJitters[] = {"none", "full", "equal", "decorrelated"};
  static const char* kOutcomes[] = {"success", "transient", "permanent"};
  static const char* kIds[] = {"a", "b", "c", "d", "e", ""};
  uint64_t actions = 0, stale = 0, expiries = 0, delays = 0;
  const uint64_t seeds = kSanitized ? 500 : 2000;  // a quarter under the sanitizers: each run is checked alike
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    Prng prng(seed * 7919);
    Policy p;
    p.max_attempts = 1 + prng.Below(5);
    p.backoff.kind = static_cast<BackoffKind>(prng.Below(3));
    p.backoff.base_ms = 1 + prng.Below(200);
    p.backoff.cap_ms = p.backoff.base_ms + prng.Below(1000);
    const uint32_t jitter =
        p.backoff.kind == BackoffKind::kNone ? 0 : prng.Below(p.backoff.kind == BackoffKind::kExponential ? 4 : 3);
    p.backoff.jitter = static_cast<Jitter>(jitter);
    p.lease_ms = 1 + prng.Below(500);
    p.seed = prng.Below(1000);
    Result<Queue> made = Queue::Create(p);
    REQUIRE(made.ok());
    Queue q = std::move(made).value();
    TimeModel m{p.max_attempts,
                kKinds[static_cast<int>(p.backoff.kind)],
                kJitters[jitter],
                p.backoff.base_ms,
                p.backoff.cap_ms,
                p.lease_ms,
                Prng(static_cast<uint64_t>(p.seed), PrngStream::kJitter)};
    const uint32_t length = 20 + prng.Below(60);
    for (uint32_t n = 0; n < length; ++n) {
      CAPTURE(seed);
      CAPTURE(n);
      ++actions;
      const size_t events_before = q.view().event_count();
      const uint32_t roll = prng.Below(16);
      if (roll < 3) {
        const std::string id = kIds[prng.Below(6)];
        CHECK(q.Enqueue(id, "").ok() == m.Enqueue(id));
      } else if (roll < 6) {
        const std::string outcome = kOutcomes[prng.Below(3)];
        Result<Attempt> got = q.Process(outcome);
        REQUIRE(got.ok());
        const std::string expected = m.Process(outcome);
        std::string want = expected;
        if (!want.empty()) {  // the model says "id/n/disposition/reason/delay"
          CHECK(Describe(got.value()) == want);
        } else {
          CHECK_FALSE(got->processed);
        }
      } else if (roll < 9) {
        Result<LeaseGrant> g = q.Lease();
        REQUIRE(g.ok());
        const std::string expected = m.Lease();
        if (expected.empty()) {
          CHECK_FALSE(g->leased);
        } else {
          CHECK(g->id + "/" + std::to_string(g->attempt) + "/" + g->token + "/" + std::to_string(g->expires_at) ==
                expected);
        }
      } else if (roll < 12) {
        // A token from the lease history, sometimes one past it: stale ones are refused.
        const size_t token = 1 + prng.Below(static_cast<uint32_t>(m.leases.size()) + 1);
        const std::string outcome = kOutcomes[prng.Below(3)];
        Result<Attempt> got = q.Settle("lease-" + std::to_string(token), outcome);
        const std::string expected = m.Settle(token, outcome);
        REQUIRE(got.ok() == !expected.empty());
        if (got.ok()) {
          CHECK(Describe(got.value()) == expected);
        } else {
          ++stale;
          CHECK(got.status().code() == Code::kStaleLease);
          CHECK(q.view().event_count() == events_before);
        }
      } else if (roll < 14) {
        const int64_t ms = prng.Below(4) == 0 ? -1 - prng.Below(3) : prng.Below(700);
        Status s = q.Advance(ms);
        REQUIRE(s.ok() == (ms >= 0));
        if (ms >= 0) m.AdvanceTo(m.now + ms);
      } else if (roll < 15) {
        const std::optional<TTimer> next = m.Next();
        const std::optional<int64_t> at = q.AdvanceToNext();
        REQUIRE(at.has_value() == next.has_value());
        if (next) {
          m.AdvanceTo(next->time);
          CHECK(*at == m.now);
        }
      } else {
        // An operator's replay of a quarantined job (by id).
        const std::string id = kIds[prng.Below(5)];
        auto it = std::find_if(m.quarantined.begin(), m.quarantined.end(),
                               [&](const std::string& e) { return e.rfind(id + "/", 0) == 0; });
        const bool model_ok = it != m.quarantined.end();
        CHECK(q.Replay(id) == model_ok);
        if (model_ok) {
          const auto before = static_cast<uint32_t>(std::stoul(it->substr(id.size() + 1)));
          m.quarantined.erase(it);
          m.Event("replayed", TJob{id, before, 0});  // with the count it had
          m.ready.push_back(TJob{id, 0, 0});         // reset, and no previous delay
        }
      }
      // Every new event: kind, id, attempts and time as the model wrote them.
      for (const dlq::Event& e : q.view().Timeline(events_before)) {
        REQUIRE(e.seq - 1 < m.events.size());
        CHECK(std::string(EventKindName(e.kind)) + " " + e.id + " " + std::to_string(e.attempts) + " @" +
                  std::to_string(e.time) ==
              m.events[e.seq - 1]);
        if (e.kind == EventKind::kExpired) ++expiries;
        if (e.kind == EventKind::kDelayed) ++delays;
      }
      Compare(m, q);
    }
  }
  MESSAGE("actions: " << actions << ", stale settles: " << stale << ", expiries: " << expiries
                      << ", delays: " << delays);
  // Each exercised often enough (per run, so the same rates hold at either size).
  CHECK(stale > seeds / 2);
  CHECK(expiries > seeds / 2);
  CHECK(delays > seeds / 2);
}

}  // namespace clock_model_test
