// An exercise's par (Learn Git Branching's golf): how few actions its "Show me"
// solution needs before the goal holds. The core plays the solution action by
// action and checks the goal after each, so the par a page shows is the core's
// answer, never a number written in the page.
//
// A move is the solver's own action. An action the scenario's world would have
// taken itself at that point (NextWorldAction, player.h: the simulated workers'
// leases, settles and clock moves that Run plays) is the world's, not a move; so
// a par and a learner's count agree on what they count, world or not.
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
  size_t moves = 0;    // of those actions, the solver's own (the world's are not counted)
};

// The first point along `solution`'s script (from its set-up, whatever its
// cursor) at which `goal` holds, or nullopt when it never does. Refused, with
// RunScenario's Status, when the set-up or an action the script reaches is
// refused (an author's broken solution is named, never read as "no par").
Result<std::optional<GoalPar>> SolutionPar(const Goal& goal, const Scenario& solution);

// The solver's moves among `scenario`'s actions before its cursor, played from
// its set-up: every action but those its world would have taken itself. Refused
// as SolutionPar (the set-up's or a reached action's Status).
Result<size_t> LearnerMoves(const Scenario& scenario);

}  // namespace dlq
