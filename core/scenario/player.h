// Plays a queue by a world (world.h): simulated workers lease, work and settle
// on the clock. Each step is an ordinary scenario action, chosen as a pure
// function of the queue's state, so a played run is a script that links and
// time travel replay exactly, and a person can take over by hand at any moment.
#pragma once

#include <optional>

#include "queue.h"
#include "scenario.h"
#include "world.h"

namespace dlq {

// The next thing the world does to `queue`, as a scenario action (so a played
// run is an ordinary script that links and time travel replay), or nullopt when
// nothing will ever happen again. In order of preference at the current time:
//   1. settle the lowest-numbered lease whose work is done (leased at + workMs <= now)
//      and whose worker did not crash, with the world's verdict;
//   2. lease, when a worker is free (fewer leases still working than workers;
//      under delayAt consumer-sleep each delayed job is a worker asleep holding it)
//      and a job may be leased;
//   3. move the clock: to the queue's next timer (advanceToNext) or to the next
//      moment a worker finishes (advance), whichever comes first.
// A crashed worker is replaced at once: its slot is free when its work would
// have been done, and its lease expires on the queue's clock.
std::optional<Action> NextWorldAction(const Queue& queue, const World& world);

}  // namespace dlq
