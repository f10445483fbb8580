#include "scenario.h"

#include <algorithm>
#include <unordered_set>

#include "link.h"
#include "text.h"

namespace dlq {

bool IsLessonOneAction(const Action& action) {
  return std::visit(Overloaded{
                        [](const action::Process& a) {  // lesson 1's three outcomes only
                          return a.outcome == Outcome::kSuccess || a.outcome == Outcome::kTransient ||
                                 a.outcome == Outcome::kPermanent;
                        },
                        [](const action::Replay& a) { return !a.keep_attempts; },
                        [](const action::Enqueue& a) { return a.key.empty(); },
                        [](const action::Lease&) { return false; },
                        [](const action::Settle&) { return false; },
                        [](const action::Advance&) { return false; },
                        [](const action::AdvanceToNext&) { return false; },
                        [](const action::ReleaseKey&) { return false; },
                        [](const action::Redrive&) { return false; },
                        [](const action::Crash&) { return false; },
                        [](const action::Patch&) { return false; },
                    },
                    action);
}

bool operator==(const Scenario& a, const Scenario& b) {
  const auto same_job = [](const JobSpec& x, const JobSpec& y) {
    return x.id == y.id && x.payload == y.payload && x.key == y.key;
  };
  return a.policy == b.policy && a.cursor == b.cursor && a.actions == b.actions && a.world == b.world &&
         std::equal(a.jobs.begin(), a.jobs.end(), b.jobs.begin(), b.jobs.end(), same_job);
}

Result<Scenario> ParseScenario(std::string_view text) {
  RETURN_IF_ERROR(CheckSize("scenario link", kMaxScenarioTextBytes, text.size()));
  link::Reader in(text);
  if (!in.Accept('v')) return in.Error("a format version such as 'v1' at the start");
  uint64_t version = 0;
  if (Status s = in.Number("the format version", 6, &version); !s.ok()) {
    return s.code() == Code::kOutOfRange ? Status::Error(Code::kUnsupportedVersion, s.message()) : s;
  }
  switch (version) {
    case 1: return link::ReadV1(in);
    case 2: return link::ReadV2(in);
    default: break;
  }
  std::string reads;  // "v1 and v2"
  for (int v = kOldestScenarioFormatVersion; v <= kScenarioFormatVersion; ++v) {
    if (v > kOldestScenarioFormatVersion) reads += v == kScenarioFormatVersion ? " and " : ", ";
    reads.append("v").append(std::to_string(v));
  }
  return Status::Error(Code::kUnsupportedVersion,
                       "scenario link is format v" + std::to_string(version) + "; this build of dlq-lab reads " +
                           reads + (version > kScenarioFormatVersion ? " (the link needs a newer dlq-lab)" : ""));
}

std::string FormatScenario(const Scenario& scenario) {
  // The lowest version that expresses the scenario, so that lesson 1's links stay
  // readable by builds that know only v1.
  return link::FitsV1(scenario) ? link::WriteV1(scenario) : link::WriteV2(scenario);
}

Status CheckCursor(uint64_t cursor, size_t actions) {
  if (cursor > actions) {
    return Status::OutOfRange("the cursor must be from 0 to " + std::to_string(actions) +
                              " (the number of actions), got " + std::to_string(cursor));
  }
  return Status::Ok();
}

namespace {

// CheckScenario without the cursor: the world's fields, and every behaviour
// naming a set-up job or a job an enqueue action adds.
Status CheckScenarioWorld(const Scenario& scenario) {
  const World& world = scenario.world;
  RETURN_IF_ERROR(CheckWorld(world));
  if (world.behaviours.empty()) return Status::Ok();
  std::unordered_set<std::string_view> ids;
  for (const JobSpec& job : scenario.jobs) ids.insert(job.id);
  for (const Action& action : scenario.actions) {
    if (const auto* enqueue = std::get_if<action::Enqueue>(&action)) ids.insert(enqueue->id);
  }
  for (size_t i = 0; i < world.behaviours.size(); ++i) {
    const std::string& id = world.behaviours[i].id;
    if (ids.count(id) == 0) {
      return Status::InvalidArgument(
          "world.behaviours[" + std::to_string(i) + "].id " + QuoteShort(id) +
          " names no job of the scenario; expected the id of a set-up job or of a job an enqueue action adds");
    }
  }
  return Status::Ok();
}

}  // namespace

Status CheckScenario(const Scenario& scenario) {
  if (Status s = CheckCursor(scenario.cursor, scenario.actions.size()); !s.ok()) {
    return Status::OutOfRange("scenario: " + s.message());
  }
  return CheckScenarioWorld(scenario);
}

Result<std::string> ShareScenario(const Scenario& scenario) {
  std::string text = FormatScenario(scenario);
  Result<Scenario> back = ParseScenario(text);
  if (!back.ok()) return back.status();
  if (Result<Queue> run = RunScenario(back.value()); !run.ok()) return run.status();
  return text;
}

namespace {

// The crash action: recovery from the origin and the journal's first `after` writes.
Status ApplyCrash(Queue& queue, JournalOrigin& origin, const action::Crash& a, CrashReport* report) {
  Result<std::vector<JournalEntry>> journal = queue.view().Journal();
  if (!journal.ok()) return journal.status();
  std::vector<std::string_view> records;
  records.reserve(journal->size());
  for (const JournalEntry& entry : journal.value()) records.push_back(entry.record);
  RecoverOptions options;
  options.crash_after = a.after;
  options.torn = a.torn;
  Result<Recovery> recovered =
      Queue::Recover(origin.has_value() ? std::optional<std::string_view>(*origin) : std::nullopt, records, options);
  if (!recovered.ok()) return recovered.status();
  Result<std::string> state = recovered->queue.view().SnapshotText();  // what a later crash restarts from
  if (!state.ok()) return state.status();
  if (report != nullptr) {
    report->applied = recovered->applied;
    report->journal = records.size();
    report->torn_discarded = recovered->torn_discarded;
    report->lost = recovered->lost;
    report->duplicated = recovered->duplicated;
  }
  queue = std::move(recovered->queue);
  origin = std::move(state.value());
  return Status::Ok();
}

// A refusal of the queue's, its message after `where`.
Status Prefixed(const std::string& where, const Status& s) { return Status::Error(s.code(), where + s.message()); }

Status ApplyReplay(Queue& queue, const action::Replay& a, const std::string& where) {
  if (a.keep_attempts) {
    Result<bool> kept = queue.ReplayKeepingAttempts(a.id);
    if (!kept.ok()) return Prefixed(where, kept.status());
    if (!kept.value()) {
      return Status::NotFound(where + "replay(" + QuoteShort(a.id) +
                              ", { resetAttempts: false }) found no such job in quarantine");
    }
    return Status::Ok();
  }
  if (!queue.Replay(a.id)) {
    return Status::NotFound(where + "replay(" + QuoteShort(a.id) + ") found no such job in quarantine");
  }
  return Status::Ok();
}

// Like a replay of an id not in quarantine, an operator action that would
// change nothing is refused, so every played action is one queue action.
Status ApplyReleaseKey(Queue& queue, const action::ReleaseKey& a, const std::string& where) {
  Result<uint64_t> released = queue.ReleaseKey(a.key);
  if (!released.ok()) return Prefixed(where, released.status());
  if (released.value() == 0) {
    return Status::FailedPrecondition(where + "releaseKey(" + QuoteShort(a.key) +
                                      ") found no quarantined holder of that key");
  }
  return Status::Ok();
}

Status ApplyRedrive(Queue& queue, const action::Redrive& a, const std::string& where) {
  Result<uint64_t> moved = queue.Redrive(a.max, a.only);
  if (!moved.ok()) return Prefixed(where, moved.status());
  if (moved.value() == 0) {
    return Status::FailedPrecondition(where + (a.only == RedriveFilter{}
                                                   ? "redrive() found the quarantine empty"
                                                   : "redrive() found no quarantine entry of that class or reason"));
  }
  return Status::Ok();
}

}  // namespace

Status ApplyAction(Queue& queue, JournalOrigin& origin, const Action& action, size_t i, CrashReport* crash) {
  return ApplyAction(queue, origin, action, "scenario action " + std::to_string(i + 1) + ": ", crash);
}

Status ApplyAction(Queue& queue, JournalOrigin& origin, const Action& action, const std::string& where,
                   CrashReport* crash) {
  const auto prefixed = [&where](const Status& s) { return Prefixed(where, s); };
  return std::visit(
      Overloaded{
          [&](const action::Process& a) -> Status {
            Result<Attempt> attempt = queue.Process(a.outcome, a.error);
            if (!attempt.ok()) return prefixed(attempt.status());
            if (!attempt->processed) {
              return Status::FailedPrecondition(where + "process(" + OutcomeName(a.outcome) + ") found nothing ready");
            }
            return Status::Ok();
          },
          [&](const action::Replay& a) { return ApplyReplay(queue, a, where); },
          [&](const action::Enqueue& a) -> Status {
            if (Status s = queue.Enqueue(a.id, a.payload, a.key); !s.ok()) return prefixed(s);
            return Status::Ok();
          },
          [&](const action::Lease&) -> Status {
            Result<LeaseGrant> grant = queue.Lease();
            if (!grant.ok()) return prefixed(grant.status());
            if (!grant->leased) return Status::FailedPrecondition(where + "lease() found nothing ready");
            return Status::Ok();
          },
          [&](const action::Settle& a) -> Status {
            Result<Attempt> attempt = queue.Settle("lease-" + std::to_string(a.lease), OutcomeName(a.outcome), a.error);
            if (!attempt.ok()) return prefixed(attempt.status());
            return Status::Ok();
          },
          [&](const action::Advance& a) -> Status {
            if (Status s = queue.Advance(a.ms); !s.ok()) return prefixed(s);
            return Status::Ok();
          },
          [&](const action::AdvanceToNext&) -> Status {
            if (!queue.AdvanceToNext().has_value()) {
              return Status::FailedPrecondition(where + "advanceToNext() found no pending timer");
            }
            return Status::Ok();
          },
          [&](const action::ReleaseKey& a) { return ApplyReleaseKey(queue, a, where); },
          [&](const action::Redrive& a) { return ApplyRedrive(queue, a, where); },
          [&](const action::Crash& a) -> Status {
            if (Status s = ApplyCrash(queue, origin, a, crash); !s.ok()) return prefixed(s);
            return Status::Ok();
          },
          [&](const action::Patch& a) -> Status { return prefixed(queue.Patch(a.id, a.payload)); },
      },
      action);
}

Result<Queue> SetUpScenario(const Scenario& scenario) {
  RETURN_IF_ERROR(CheckScenarioWorld(scenario));
  Result<Queue> made = Queue::Create(scenario.policy);
  if (!made.ok()) return made.status();
  for (size_t i = 0; i < scenario.jobs.size(); ++i) {
    if (Status s = made->Enqueue(scenario.jobs[i].id, scenario.jobs[i].payload, scenario.jobs[i].key); !s.ok()) {
      return Status::Error(s.code(), "scenario job " + std::to_string(i + 1) + ": " + s.message());
    }
  }
  return made;
}

int LinkVersionOf(const Scenario& scenario) { return link::FitsV1(scenario) ? 1 : 2; }

Result<Queue> RunScenario(const Scenario& scenario) {
  JournalOrigin origin;
  return RunScenario(scenario, &origin);
}

Result<Queue> RunScenario(const Scenario& scenario, JournalOrigin* origin_out) {
  if (Status s = CheckCursor(scenario.cursor, scenario.actions.size()); !s.ok()) {
    return Status::OutOfRange("scenario: " + s.message());
  }
  Result<Queue> made = SetUpScenario(scenario);
  if (!made.ok()) return made.status();
  JournalOrigin origin;
  for (size_t i = 0; i < scenario.cursor; ++i) {
    RETURN_IF_ERROR(ApplyAction(made.value(), origin, scenario.actions[i], i));
  }
  *origin_out = std::move(origin);
  return made;
}

ScenarioReach PlayableActions(const Scenario& scenario) {
  ScenarioReach reach;
  Result<Queue> made = SetUpScenario(scenario);
  if (!made.ok()) {
    reach.stopped = made.status();
    return reach;
  }
  JournalOrigin origin;
  for (; reach.playable < scenario.actions.size(); ++reach.playable) {
    reach.stopped = ApplyAction(made.value(), origin, scenario.actions[reach.playable], reach.playable);
    if (!reach.stopped.ok()) break;
  }
  return reach;
}

}  // namespace dlq
