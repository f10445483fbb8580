// Model-based test: a small, independent reference model of the lesson's contract
// is driven side by side with the core over thousands of seeded random action
// sequences (invalid actions included); every answer and every view must agree.
#include <algorithm>
#include <deque>
#include <set>

#include "test_util.h"

using namespace dlq;
using namespace dlq::test;

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

// Written straight from the lesson text, sharing no code with core/queue.cpp.
struct Model {
  uint32_t max_attempts;
  std::deque<ModelJob> ready;
  std::vector<ModelJob> completed;
  std::vector<ModelEntry> quarantine;
  std::set<std::string> seen;
  uint64_t step = 0;

  bool Enqueue(const std::string& id, const std::string& payload) {
    if (id.empty() || seen.count(id)) return false;
    seen.insert(id);
    ready.push_back({id, payload, 0});
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
      completed.push_back(job);
      return head + "completed/";
    }
    if (outcome == "transient" && job.attempts < max_attempts) {
      ready.push_back(job);
      return head + "requeued/";
    }
    const std::string reason = outcome == "permanent" ? "permanent" : "exhausted";
    quarantine.push_back({job, reason, error, step});
    return head + "quarantined/" + reason;
  }

  bool Replay(const std::string& id) {
    auto it = std::find_if(quarantine.begin(), quarantine.end(), [&](const ModelEntry& e) { return e.job.id == id; });
    if (it == quarantine.end()) return false;
    ModelJob job = it->job;
    quarantine.erase(it);
    job.attempts = 0;
    ready.push_back(job);
    ++step;
    return true;
  }
};

std::string Describe(const Attempt& a) {
  if (!a.processed) return "";
  return a.id + "/" + std::to_string(a.attempt) + "/" + DispositionName(a.disposition) + "/" + ReasonName(a.reason);
}

void CompareViews(const Model& m, const Queue& q) {
  auto ready = q.Ready();
  REQUIRE(ready.size() == m.ready.size());
  for (size_t i = 0; i < ready.size(); ++i) {
    CHECK(ready[i].id == m.ready[i].id);
    CHECK(ready[i].payload == m.ready[i].payload);
    CHECK(ready[i].attempts == m.ready[i].attempts);
  }
  auto completed = q.Completed();
  REQUIRE(completed.size() == m.completed.size());
  for (size_t i = 0; i < completed.size(); ++i) {
    CHECK(completed[i].id == m.completed[i].id);
    CHECK(completed[i].attempts == m.completed[i].attempts);
  }
  auto quarantined = q.Quarantined();
  REQUIRE(quarantined.size() == m.quarantine.size());
  for (size_t i = 0; i < quarantined.size(); ++i) {
    CHECK(quarantined[i].id == m.quarantine[i].job.id);
    CHECK(quarantined[i].payload == m.quarantine[i].job.payload);
    CHECK(quarantined[i].attempts == m.quarantine[i].job.attempts);
    CHECK(ReasonName(quarantined[i].reason) == m.quarantine[i].reason);
    CHECK(quarantined[i].last_error == m.quarantine[i].error);
    CHECK(quarantined[i].step == m.quarantine[i].step);
  }
  CHECK(q.step() == m.step);
}

}  // namespace

TEST_CASE("core agrees with an independent model over 3000 seeded random runs") {
  static const char* kOutcomes[] = {"success", "transient", "permanent", "", "Success", "retry", "transient "};
  static const char* kIds[] = {"a", "b", "c", "d", "e", "f", "", "🧾", "a\n"};
  uint64_t actions = 0, refused = 0;
  for (uint64_t seed = 1; seed <= 3000; ++seed) {
    Prng prng(seed);
    const auto max_attempts = static_cast<uint32_t>(1 + prng.Below(4));
    Queue q = MakeQueue(max_attempts);
    Model m{max_attempts, {}, {}, {}, {}, 0};
    const uint32_t length = 10 + prng.Below(60);
    for (uint32_t n = 0; n < length; ++n) {
      CAPTURE(seed);
      CAPTURE(n);
      const size_t events_before = q.event_count();
      const uint32_t roll = prng.Below(10);
      ++actions;
      if (roll < 3) {
        const std::string id = kIds[prng.Below(9)];
        const std::string payload = "p" + std::to_string(prng.Below(1000));
        const bool model_ok = m.Enqueue(id, payload);
        const bool core_ok = q.Enqueue(id, payload).ok();
        REQUIRE(core_ok == model_ok);
        if (!core_ok) {
          ++refused;
          CHECK(q.event_count() == events_before);
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
          CHECK(q.event_count() == events_before);
        }
      } else {
        const std::string id = kIds[prng.Below(9)];
        const bool model_ok = m.Replay(id);
        CHECK(q.Replay(id) == model_ok);
        if (!model_ok) CHECK(q.event_count() == events_before);
      }
      CompareViews(m, q);
    }
  }
  MESSAGE("actions: " << actions << ", refused: " << refused);
  CHECK(refused > 1000);  // invalid actions really were exercised
}
