// An exercise's par (Learn Git Branching's golf): how few actions its "Show me"
// solution needs before the goal holds. The core plays the solution action by
// action and checks the goal after each, so the par a page shows is the core's
// answer, never a number written in the page.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "goal.h"
#include "scenario.h"
#include "status.h"

namespace dlq {

struct GoalPar {
  size_t actions = 0;  // script actions played when the goal first holds (0: it holds at the set-up)
  uint64_t steps = 0;  // the queue's step counter then (attempts started plus replays)
};

// The first point along `solution`'s script (from its set-up, whatever its
// cursor) at which `goal` holds, or nullopt when it never does. Refused, with
// RunScenario's Status, when the set-up or an action the script reaches is
// refused (an author's broken solution is named, never read as "no par").
Result<std::optional<GoalPar>> SolutionPar(const Goal& goal, const Scenario& solution);

}  // namespace dlq
