// Helpers shared by the native tests.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include <string>
#include <string_view>
#include <vector>

#include "dlq.h"

namespace dlq::test {

// True in the sanitized build (ASan, gcc or clang): the few tests whose point is sheer size
// run the same code path at a smaller scale there, and at full scale in the optimised build.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

// The ids of `n` processes with `outcome`, in delivery order (stops when nothing is ready).
inline std::vector<std::string> Run(Queue& q, const char* outcome, int n) {
  std::vector<std::string> ids;
  for (int i = 0; i < n; ++i) {
    Result<Attempt> a = q.Process(outcome);
    REQUIRE(a.ok());
    if (!a->processed) break;
    ids.push_back(a->id);
  }
  return ids;
}

inline Queue MakeQueue(int64_t max_attempts) {
  Result<Queue> made = Queue::Create(Policy{max_attempts});
  REQUIRE(made.ok());
  return std::move(made).value();
}

// A queue with policy `p` and jobs `ids` enqueued in order, each with payload "payload of <id>".
inline Queue QueueWith(const Policy& p, const std::vector<std::string>& ids) {
  Result<Queue> q = Queue::Create(p);
  REQUIRE_MESSAGE(q.ok(), q.status().ToString());
  for (const std::string& id : ids) REQUIRE(q->Enqueue(id, "payload of " + id).ok());
  return std::move(q).value();
}

// The journal since creation, recovered whole and after each write: nothing lost, the whole equal to `q`.
inline void CheckJournalRecovers(const Queue& q) {
  Result<std::vector<JournalEntry>> journal = q.view().Journal();
  REQUIRE(journal.ok());
  std::vector<std::string_view> records;
  for (const JournalEntry& e : journal.value()) records.push_back(e.record);
  Result<Recovery> whole = Queue::Recover(std::nullopt, records, {});
  REQUIRE_MESSAGE(whole.ok(), whole.status().ToString());
  CHECK(whole->queue.view().SnapshotText().value() == q.view().SnapshotText().value());
  for (size_t k = 1; k <= records.size(); ++k) {
    Result<Recovery> r = Queue::Recover(std::nullopt, records, {.crash_after = static_cast<int64_t>(k)});
    REQUIRE_MESSAGE(r.ok(), r.status().ToString());
    CHECK(r->lost.empty());
  }
}

inline std::vector<std::string> Ids(const std::vector<JobView>& jobs) {
  std::vector<std::string> ids;
  for (const JobView& j : jobs) ids.push_back(j.id);
  return ids;
}

inline std::vector<std::string> Ids(const std::vector<QuarantineEntry>& entries) {
  std::vector<std::string> ids;
  for (const QuarantineEntry& e : entries) ids.push_back(e.id);
  return ids;
}

inline Attempt MustProcess(Queue& q, const char* outcome, const char* error = "") {
  Result<Attempt> r = q.Process(outcome, error);
  REQUIRE(r.ok());
  return r.value();
}

using Strings = std::vector<std::string>;

// A scenario from link text the test knows is valid; a parse error fails the test with the core's message.
inline Scenario ParseOrDie(const std::string& text) {
  Result<Scenario> s = ParseScenario(text);
  REQUIRE_MESSAGE(s.ok(), s.status().ToString());
  return s.value();
}

// A session over a scenario the test knows is valid.
inline Session SessionOrDie(const Scenario& scenario) {
  Result<Session> made = Session::Create(scenario);
  REQUIRE_MESSAGE(made.ok(), made.status().ToString());
  return std::move(made).value();
}

}  // namespace dlq::test
