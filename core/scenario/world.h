// The simulated world that plays a queue by itself: what each job does when a
// worker runs it, a dependency that may be down for a while, and a pool of
// workers that lease, work and settle on the clock. The world decides outcomes
// (so it is a rule, and lives here once); the queue still applies the policy to
// them. Deterministic: no randomness. player.h plays a queue by a world.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backoff.h"
#include "field.h"
#include "policy.h"
#include "size_limits.h"
#include "status.h"

namespace dlq {

enum class BehaviourKind : uint8_t {
  kHealthy,       // succeeds (unless the dependency is down and it needs it)
  kPoison,        // every attempt fails with one failing outcome (e.g. undeserializable)
  kFlaky,         // attempts 1..count fail transiently, then it succeeds
  kPrecondition,  // attempts that finish before `until` find the precondition missing
  kCrashes,       // the worker running attempts 1..count dies: no settle, the lease expires
  kScript,        // attempt n gets the n-th letter of `script`, then success
  kMalformed,     // its payload cannot be read (undeserializable) until an operator patches it
};
constexpr BehaviourKind kLastBehaviourKind = BehaviourKind::kMalformed;

// What one job does. Attempt numbers are the queue's (1-based, reset by a
// replay), so a replayed job behaves as on its first delivery.
struct Behaviour {
  BehaviourKind kind = BehaviourKind::kHealthy;
  Outcome failure = Outcome::kPermanent;  // kPoison
  int64_t count = 0;                      // kFlaky, kCrashes: 0..1000000
  int64_t until = 0;                      // kPrecondition: virtual ms
  // kScript: letters s t p u v q (the outcomes, as links spell them) and c (the
  // worker crashes); at most kMaxScriptLetters.
  std::string script;
  // During the outage every attempt of a job that needs the dependency fails
  // transiently (poison jobs, crashes and scripts are decided before it).
  bool needs_dependency = true;
  bool operator==(const Behaviour&) const = default;
};

struct JobBehaviour {
  std::string id;
  Behaviour behaviour;
  bool operator==(const JobBehaviour&) const = default;
};

struct World {
  std::vector<JobBehaviour> behaviours;  // jobs not listed are healthy
  int64_t outage_start = 0;              // the dependency is down in [outage_start, outage_end)
  int64_t outage_end = 0;                // equal to outage_start: no outage
  int64_t workers = 1;                   // how many attempts run at once
  int64_t work_ms = 100;                 // how long one attempt takes, lease to settle
  bool operator==(const World&) const = default;
};

constexpr size_t kMaxScriptLetters = 1000;
constexpr IntegerField kWorkersField{"world.workers", 1, 64};
constexpr IntegerField kWorkMsField{"world.workMs", 1, kMaxDelayMs};
constexpr IntegerField kOutageStartField{"world.outage.startMs", 0, kMaxTimeMs};
constexpr IntegerField kOutageEndField{"world.outage.endMs", 0, kMaxTimeMs};  // and at least startMs
constexpr IntegerField kBehaviourCountField{"count", 0, 1'000'000};
// The world's integer settings, for callers that check numbers against the core's table.
constexpr const IntegerField* kWorldIntegerFields[] = {&kWorkersField, &kWorkMsField, &kOutageStartField,
                                                       &kOutageEndField};

// The world's settings (field.h): workers, workMs, outage.startMs, outage.endMs,
// in the order the bindings read them. `outage` may also be null (none), and
// `behaviours` is a list of per-job objects the bindings read on their own.
std::span<const Field<World>> WorldFields();

// "healthy" | "poison" | "flaky" | "precondition" | "crashes" | "script".
const char* BehaviourKindName(BehaviourKind kind);
Result<BehaviourKind> ParseBehaviourKind(std::string_view text);

// The first field out of range, named ("world.workers", "world.behaviours[2].count",
// "world.behaviours[1].id" for a duplicate or an empty id); or OK.
Status CheckWorld(const World& world);

// `world` in its one canonical form, as links carry it: an empty outage (start
// equal to end) as none (0, 0), and each behaviour equal to the default
// (healthy, needing the dependency) left out, as a job not listed is healthy.
// It plays exactly as `world` does.
World CanonicalWorld(World world);

// The behaviour of job `id` (healthy when the world does not list it).
const Behaviour& BehaviourOf(const World& world, std::string_view id);

// What the world does with attempt `attempt` of a job that finishes at `at`;
// `patched`: an operator has patched the job's payload (Queue::WasPatched).
struct Verdict {
  bool crash = false;  // the worker died: nothing settles
  Outcome outcome = Outcome::kSuccess;
  std::string error;  // the worker's error text for a failure
};
Verdict Judge(const Behaviour& behaviour, uint32_t attempt, int64_t at, const World& world, bool patched = false);

// Adds to `scope` every failure class `world` can produce, as Judge decides: each
// behaviour's failures (a poison's outcome, flaky's transient, precondition's, a
// crash, a script's letters, malformed's undeserializable) and, with an outage,
// the transient failure of a job that needs the dependency. Its workers hold
// leases, so a crash too (a lease that runs out).
void AddWorldFailures(const World& world, FailureScope* scope);

}  // namespace dlq
