// Helpers shared by the native tests.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include <string>
#include <vector>

#include "dlq.h"

namespace dlq::test {

inline Queue MakeQueue(int64_t max_attempts) {
  Result<Queue> made = Queue::Create(Policy{max_attempts});
  REQUIRE(made.ok());
  return std::move(made).value();
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

}  // namespace dlq::test
