// Session's set-up edits (session.h: SetPolicy, AddJob with a behaviour,
// RemoveJob): each builds the next scenario from the one at the cursor and
// hands it to Change whole, so a page sends only what it edits.
#include "session.h"

#include <algorithm>
#include <string>

#include "text.h"

namespace dlq {
namespace {

// The world's behaviours without the one for `id`, if any.
void DropBehaviour(World& world, std::string_view id) {
  std::vector<JobBehaviour>& behaviours = world.behaviours;
  behaviours.erase(
      std::remove_if(behaviours.begin(), behaviours.end(), [&](const JobBehaviour& b) { return b.id == id; }),
      behaviours.end());
}

}  // namespace

Status Session::SetPolicy(const Policy& policy, bool replay_world) {
  RETURN_IF_ERROR(Policy::Check(policy));
  Scenario next = scenario_;
  next.policy = policy;
  return Change(next, replay_world);
}

Status Session::SetWorld(const World& world) {
  Scenario next = scenario_;
  next.world = world;
  return Change(next, true);
}

Status Session::AddJob(const JobSpec& job, const Behaviour& behaviour) {
  Scenario next = scenario_;
  DropBehaviour(next.world, job.id);
  next.world.behaviours.push_back({job.id, behaviour});
  if (next.cursor == 0) {
    next.jobs.push_back(job);
  } else {
    next.actions.resize(next.cursor);
    next.actions.push_back(action::Enqueue{job.id, job.payload, job.key});
    next.cursor = next.actions.size();
  }
  return Change(next, false);
}

Status Session::RemoveJob(std::string_view id) {
  Scenario next = scenario_;
  const auto setup = std::find_if(next.jobs.begin(), next.jobs.end(), [&](const JobSpec& j) { return j.id == id; });
  if (setup != next.jobs.end()) {
    next.jobs.erase(setup);
  } else {
    const auto enqueue = std::find_if(next.actions.begin(), next.actions.end(), [&](const Action& a) {
      const auto* e = std::get_if<action::Enqueue>(&a);
      return e != nullptr && e->id == id;
    });
    if (enqueue == next.actions.end()) {
      return Status::NotFound("id: expected the id of a set-up job or of a job an enqueue action adds, got " +
                              QuoteShort(id) + " (no job of the scenario)");
    }
    const size_t at = static_cast<size_t>(enqueue - next.actions.begin());
    next.actions.erase(enqueue);
    if (at < next.cursor) next.cursor -= 1;
  }
  DropBehaviour(next.world, id);
  return Change(next, false);
}

}  // namespace dlq
