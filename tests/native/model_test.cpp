// Model-based test: a small, independent reference model of the lesson's contract
// is driven side by side with the core over thousands of seeded random action
// sequences (invalid actions included); every answer and every view must agree.
#include <algorithm>
#include <deque>
#include <set>

#include "test_util.h"

using namespace dlq;
using namespace dlq::test;

namespace model_test {

namespace {

struct ModelJob {
  std::string id, payload;
  uint32_t attempts = 0;
};

struct ModelEntry {
  ModelJob job;
  std::string reason, error;
  uint64_t step = 0;
};

// Written straight from the lesson text, sharing no code with core/queue/queue.cpp.
// Events are kept as "kind|id|attempts|step|detail" strings.
struct Model {
  uint32_t max_attempts;
  std::deque<ModelJob> ready;
  std::vector<ModelJob> completed;
  std::vector<ModelEntry> quarantine;
  std::set<std::string> seen;
  uint64_t step = 0;
  std::vector<std::string> events;

  void Event(const std::string& kind, const ModelJob& job, const std::string& detail = "") {
    events.push_back(kind + "|" + job.id + "|" + std::to_string(job.attempts) + "|" + std::to_string(step) + "|" +
                     detail);
  }

  bool Enqueue(const std::string& id, const std::string& payload) {
    if (id.empty() || seen.count(id)) return false;
    seen.insert(id);
    ready.push_back({id, payload, 0});
    Event("enqueued", ready.back());
    return true;
  }

  // All or nothing.
  bool EnqueueMany(const std::vector<std::pair<std::string, std::string>>& jobs) {
    std::set<std::string> batch;
    for (const auto& [id, payload] : jobs) {
      if (id.empty() || seen.count(id) || !batch.insert(id).second) return false;
    }
    for (const auto& [id, payload] : jobs) Enqueue(id, payload);
    return true;
  }

  // "" when nothing was ready, else "<id>/<attempt>/<disposition>/<reason>".
  std::string Process(const std::string& outcome, const std::string& error) {
    if (ready.empty()) return "";
    ModelJob job = ready.front();
    ready.pop_front();
    ++step;
    job.attempts++;
    std::string head = job.id + "/" + std::to_string(job.attempts) + "/";
    if (outcome == "success") {
      Event("attempt", job, outcome + "|completed||" + error);
      completed.push_back(job);
      Event("completed", job);
      return head + "completed/";
    }
    if (outcome == "transient" && job.attempts < max_attempts) {
      Event("attempt", job, outcome + "|requeued||" + error);
      ready.push_back(job);
      Event("requeued", job);
      return head + "requeued/";
    }
    const std::string reason = outcome == "permanent" ? "permanent" : "exhausted";
    Event("attempt", job, outcome + "|quarantined|" + reason + "|" + error);
    quarantine.push_back({job, reason, error, step});
    Event("quarantined", job, reason);
    return head + "quarantined/" + reason;
  }

  bool Replay(const std::string& id) {
    auto it = std::find_if(quarantine.begin(), quarantine.end(), [&](const ModelEntry& e) { return e.job.id == id; });
    if (it == quarantine.end()) return false;
    ModelJob job = it->job;
    quarantine.erase(it);
    ++step;
    Event("replayed", job);  // with the attempt count it had
    job.attempts = 0;
    ready.push_back(job);
    return true;
  }
};

std::string Describe(const Attempt& a) {
  if (!a.processed) return "";
  return a.id + "/" + std::to_string(a.attempt) + "/" + DispositionName(a.disposition) + "/" + ReasonName(a.reason);
}

std::string Describe(const dlq::Event& e) {
  std::string s = std::string(EventKindName(e.kind)) + "|" + e.id + "|" + std::to_string(e.attempts) + "|" +
                  std::to_string(e.step) + "|";
  if (e.kind == EventKind::kAttempt) {
    s += std::string(OutcomeName(e.outcome)) + "|" + DispositionName(e.disposition) + "|" + ReasonName(e.reason) + "|" +
         e.error;
  } else if (e.kind == EventKind::kQuarantined) {
    s += ReasonName(e.reason);
  }
  return s;
}

void CompareViews(const Model& m, const Queue& q) {
  auto ready = q.view().Ready();
  REQUIRE(ready.size() == m.ready.size());
  for (size_t i = 0; i < ready.size(); ++i) {
    CHECK(ready[i].id == m.ready[i].id);
    CHECK(ready[i].payload == m.ready[i].payload);
    CHECK(ready[i].attempts == m.ready[i].attempts);
  }
  auto completed = q.view().Completed();
  REQUIRE(completed.size() == m.completed.size());
  for (size_t i = 0; i < completed.size(); ++i) {
    CHECK(completed[i].id == m.completed[i].id);
    CHECK(completed[i].payload == m.completed[i].payload);
    CHECK(completed[i].attempts == m.completed[i].attempts);
  }
  auto quarantined = q.view().Quarantined();
  REQUIRE(quarantined.size() == m.quarantine.size());
  for (size_t i = 0; i < quarantined.size(); ++i) {
    CHECK(quarantined[i].id == m.quarantine[i].job.id);
    CHECK(quarantined[i].payload == m.quarantine[i].job.payload);
    CHECK(quarantined[i].attempts == m.quarantine[i].job.attempts);
    CHECK(ReasonName(quarantined[i].reason) == m.quarantine[i].reason);
    CHECK(quarantined[i].last_error == m.quarantine[i].error);
    CHECK(quarantined[i].step == m.quarantine[i].step);
  }
  CHECK(q.stats().step == m.step);
  REQUIRE(q.view().event_count() == m.events.size());
}

// The events appended since `from`, compared one by one.
void CompareNewEvents(const Model& m, const Queue& q, size_t from) {
  for (const dlq::Event& e : q.view().Timeline(from)) {
    REQUIRE(e.seq - 1 < m.events.size());
    CHECK(Describe(e) == m.events[e.seq - 1]);
  }
}

}  // namespace

TEST_CASE("core agrees with an independent model over 3000 seeded random runs (750 sanitized)") {
  static const char* kOutcomes[] = {"success", "transient", "permanent", "", "Success", "retry", "transient "};
  static const char* kIds[] = {"a", "b", "c", "d", "e", "f", "", "🧾", "a\n"};
  uint64_t actions = 0, refused = 0;
  const uint64_t seeds = kSanitized ? 750 : 3000;  // a quarter under the sanitizers: each run is checked alike
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    Prng prng(seed);
    const auto max_attempts = static_cast<uint32_t>(1 + prng.Below(4));
    Queue q = MakeQueue(max_attempts);
    Model m{max_attempts, {}, {}, {}, {}, 0};
    const uint32_t length = 10 + prng.Below(60);
    for (uint32_t n = 0; n < length; ++n) {
      CAPTURE(seed);
      CAPTURE(n);
      const size_t events_before = q.view().event_count();
      const uint32_t roll = prng.Below(12);
      ++actions;
      if (roll < 3) {
        const std::string id = kIds[prng.Below(9)];
        const std::string payload = "p" + std::to_string(prng.Below(1000));
        const bool model_ok = m.Enqueue(id, payload);
        const bool core_ok = q.Enqueue(id, payload).ok();
        REQUIRE(core_ok == model_ok);
        if (!core_ok) {
          ++refused;
          CHECK(q.view().event_count() == events_before);
        }
      } else if (roll < 8) {
        const std::string outcome = kOutcomes[prng.Below(roll < 7 ? 3 : 7)];
        const std::string error = prng.Below(2) ? "" : "err" + std::to_string(prng.Below(3));
        Result<Attempt> got = q.Process(outcome, error);
        const bool valid = outcome == "success" || outcome == "transient" || outcome == "permanent";
        REQUIRE(got.ok() == valid);
        if (valid) {
          CHECK(Describe(got.value()) == m.Process(outcome, error));
        } else {
          ++refused;
          CHECK(q.view().event_count() == events_before);
        }
      } else if (roll < 10) {
        const std::string id = kIds[prng.Below(9)];
        const bool model_ok = m.Replay(id);
        CHECK(q.Replay(id) == model_ok);
        if (!model_ok) CHECK(q.view().event_count() == events_before);
      } else if (roll < 11) {
        // A batch of 0-3 jobs, often with a duplicate or an empty id somewhere in it.
        std::vector<std::pair<std::string, std::string>> batch;
        std::vector<JobRef> refs;
        const uint32_t size = prng.Below(4);
        for (uint32_t k = 0; k < size; ++k) batch.emplace_back(kIds[prng.Below(9)], "b" + std::to_string(k));
        for (const auto& [id, payload] : batch) refs.push_back({id, payload});
        const bool model_ok = m.EnqueueMany(batch);
        const bool core_ok = q.EnqueueMany(refs).ok();
        REQUIRE(core_ok == model_ok);
        if (!core_ok) {
          ++refused;
          CHECK(q.view().event_count() == events_before);
        }
      } else {
        // A script of 0-4 letters, now and then with a bad one (nothing may move then).
        std::string script;
        const uint32_t size = prng.Below(5);
        for (uint32_t k = 0; k < size; ++k) script += "stpx"[prng.Below(k + 1 == size ? 4 : 3)];
        Result<uint64_t> made = q.ProcessMany(script);
        if (script.find('x') != std::string::npos) {
          REQUIRE_FALSE(made.ok());
          ++refused;
          CHECK(q.view().event_count() == events_before);
        } else {
          REQUIRE(made.ok());
          uint64_t model_made = 0;
          for (const char c : script) {
            if (m.ready.empty()) break;
            m.Process(c == 's' ? "success" : c == 't' ? "transient" : "permanent", "");
            ++model_made;
          }
          CHECK(made.value() == model_made);
        }
      }
      CompareNewEvents(m, q, events_before);
      CompareViews(m, q);
    }
  }
  MESSAGE("actions: " << actions << ", refused: " << refused);
  CHECK(refused > seeds / 3);  // invalid actions really were exercised
}

}  // namespace model_test
