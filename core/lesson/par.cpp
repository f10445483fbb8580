#include "par.h"

#include <utility>

namespace dlq {

Result<std::optional<GoalPar>> SolutionPar(const Goal& goal, const Scenario& solution) {
  if (Status s = CheckScenario(solution); !s.ok()) return s;
  Result<Queue> made = SetUpScenario(solution);
  if (!made.ok()) return made.status();
  Queue queue = std::move(made).value();
  JournalOrigin origin;
  for (size_t i = 0;; ++i) {
    if (CheckGoal(goal, queue).met) return std::optional<GoalPar>(GoalPar{i, queue.stats().step});
    if (i == solution.actions.size()) return std::optional<GoalPar>();
    if (Status s = ApplyAction(queue, origin, solution.actions[i], i); !s.ok()) return s;
  }
}

}  // namespace dlq
