#include "par.h"

#include <optional>
#include <utility>

#include "player.h"

namespace dlq {

namespace {

// True when `action` is what the world would do itself at `queue` (a simulated
// worker's action or its clock move), so it is not the solver's move.
bool WorldWouldTake(const Queue& queue, const World& world, const Action& action) {
  if (world == World{}) return false;
  const std::optional<Action> next = NextWorldAction(queue, world);
  return next.has_value() && *next == action;
}

}  // namespace

Result<std::optional<GoalPar>> SolutionPar(const Goal& goal, const Scenario& solution) {
  RETURN_IF_ERROR(CheckScenario(solution));
  Result<Queue> made = SetUpScenario(solution);
  if (!made.ok()) return made.status();
  Queue queue = std::move(made).value();
  JournalOrigin origin;
  size_t moves = 0;
  for (size_t i = 0;; ++i) {
    if (CheckGoal(goal, queue).met) return std::optional<GoalPar>(GoalPar{i, queue.stats().step, moves});
    if (i == solution.actions.size()) return std::optional<GoalPar>();
    if (!WorldWouldTake(queue, solution.world, solution.actions[i])) ++moves;
    RETURN_IF_ERROR(ApplyAction(queue, origin, solution.actions[i], i));
  }
}

Result<size_t> LearnerMoves(const Scenario& scenario) {
  RETURN_IF_ERROR(CheckScenario(scenario));
  Result<Queue> made = SetUpScenario(scenario);
  if (!made.ok()) return made.status();
  Queue queue = std::move(made).value();
  JournalOrigin origin;
  size_t moves = 0;
  for (size_t i = 0; i < scenario.cursor && i < scenario.actions.size(); ++i) {
    if (!WorldWouldTake(queue, scenario.world, scenario.actions[i])) ++moves;
    RETURN_IF_ERROR(ApplyAction(queue, origin, scenario.actions[i], i));
  }
  return moves;
}

}  // namespace dlq
