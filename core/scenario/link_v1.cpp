// Link format v1, FROZEN (link.h): lesson 1's policy (maxAttempts only) and the
// process, replay and enqueue actions.
//
//   v1;m<maxAttempts>[;j<id>:<payload>,…][;a<action>,…][;c<cursor>]
//   action  s[:<error>] | t[:<error>] | p[:<error>] | r<id> | e<id>:<payload>
//
// Its messages are part of what released links give; tests/native/scenario_test.cpp
// pins them.
#include <algorithm>

#include "link.h"

namespace dlq::link {
namespace {

// v1's j field body, <id>:<payload>,… (one or more jobs), as released. v2 spells a
// job alike with an optional third part, its key (link_v2.cpp reads and writes it).
Status ReadJobs(Reader& in, std::vector<JobSpec>* jobs) {
  do {
    JobSpec job;
    const std::string n = std::to_string(jobs->size() + 1);
    RETURN_IF_ERROR(in.String("job " + n + " id", &job.id));
    if (!in.Accept(':')) return in.Error("':' between job " + n + "'s id and payload");
    RETURN_IF_ERROR(in.String("job " + n + " payload", &job.payload));
    jobs->push_back(std::move(job));
  } while (in.Accept(','));
  return Status::Ok();
}

void AppendJobs(std::string& out, const std::vector<JobSpec>& jobs) {
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (i > 0) out += ',';
    AppendEncoded(out, jobs[i].id);
    out += ':';
    AppendEncoded(out, jobs[i].payload);
  }
}

Status ReadActionsV1(Reader& in, std::vector<Action>* actions) {
  do {
    const std::string n = "action " + std::to_string(actions->size() + 1);
    const char letter = in.peek();
    Outcome outcome = Outcome::kSuccess;
    // Built in place: GCC 12 warns (falsely) about moving a whole variant in.
    if (ParseOutcomeLetter(letter, &outcome, false)) {
      in.Accept(letter);
      auto& process = std::get<action::Process>(actions->emplace_back(action::Process{outcome, {}}));
      if (in.Accept(':')) {
        RETURN_IF_ERROR(in.String(n + " error text", &process.error));
      }
    } else if (letter == 'r') {
      in.Accept(letter);
      auto& replay = std::get<action::Replay>(actions->emplace_back(action::Replay{}));
      RETURN_IF_ERROR(in.String(n + " id", &replay.id));
    } else if (letter == 'e') {
      in.Accept(letter);
      auto& enqueue = std::get<action::Enqueue>(actions->emplace_back(action::Enqueue{}));
      RETURN_IF_ERROR(in.String(n + " id", &enqueue.id));
      if (!in.Accept(':')) return in.Error("':' between " + n + "'s id and payload");
      RETURN_IF_ERROR(in.String(n + " payload", &enqueue.payload));
    } else {
      return in.Error(n + " (s, t or p to process, r to replay, e to enqueue)");
    }
  } while (in.Accept(','));
  return Status::Ok();
}

}  // namespace

bool FitsV1(const Scenario& scenario) {
  // v1 has no ordering keys: a job or an enqueue with one needs v2, though
  // IsLessonOneAction goes by the action's kind alone.
  const auto keyless = [](const Action& a) {
    const auto* enqueue = std::get_if<action::Enqueue>(&a);
    return enqueue == nullptr || enqueue->key.empty();
  };
  // A world that plays as none (an empty outage, default behaviours) writes nothing.
  return scenario.policy.IsLessonOne() && CanonicalWorld(scenario.world) == World{} &&
         std::all_of(scenario.jobs.begin(), scenario.jobs.end(), [](const JobSpec& j) { return j.key.empty(); }) &&
         std::all_of(scenario.actions.begin(), scenario.actions.end(),
                     [&](const Action& a) { return IsLessonOneAction(a) && keyless(a); });
}

Result<Scenario> ReadV1(Reader& in) {
  Scenario scenario;
  if (!in.Accept(';') || !in.Accept('m')) return in.Error("';m' and the policy's maxAttempts");
  uint64_t max_attempts = 0;
  RETURN_IF_ERROR(in.Number("maxAttempts", 7, &max_attempts));
  if (Status s = Policy::CheckMaxAttempts(static_cast<int64_t>(max_attempts)); !s.ok()) {
    return Status::OutOfRange("scenario link: " + s.message());
  }
  scenario.policy.max_attempts = static_cast<int64_t>(max_attempts);

  bool has_cursor = false;
  char last_field = 'm';
  while (in.Accept(';')) {
    const char field = in.peek();
    if (field == 'j' && last_field == 'm') {
      in.Accept('j');
      RETURN_IF_ERROR(ReadJobs(in, &scenario.jobs));
    } else if (field == 'a' && (last_field == 'm' || last_field == 'j')) {
      in.Accept('a');
      RETURN_IF_ERROR(ReadActionsV1(in, &scenario.actions));
    } else if (field == 'c' && last_field != 'c') {
      in.Accept('c');
      uint64_t cursor = 0;
      RETURN_IF_ERROR(in.Number("the cursor", 9, &cursor));
      if (Status s = CheckCursor(cursor, scenario.actions.size()); !s.ok()) {
        return Status::OutOfRange("scenario link: " + s.message());
      }
      scenario.cursor = static_cast<size_t>(cursor);
      has_cursor = true;
    } else {
      return in.Error(last_field == 'c' ? "the end of the link"
                                        : "a field in order: j (jobs), a (actions), c (cursor)");
    }
    last_field = field;
  }
  if (!in.done()) return in.Error("';' or the end of the link");
  if (!has_cursor) scenario.cursor = scenario.actions.size();
  return scenario;
}

std::string WriteV1(const Scenario& scenario) {
  std::string out = "v1;m" + std::to_string(scenario.policy.max_attempts);
  if (!scenario.jobs.empty()) {
    out += ";j";
    AppendJobs(out, scenario.jobs);
  }
  if (!scenario.actions.empty()) {
    out += ";a";
    for (size_t i = 0; i < scenario.actions.size(); ++i) {
      if (i > 0) out += ',';
      std::visit(Overloaded{
                     [&](const action::Process& a) {
                       out += OutcomeLetter(a.outcome);
                       if (!a.error.empty()) {
                         out += ':';
                         AppendEncoded(out, a.error);
                       }
                     },
                     [&](const action::Replay& a) {
                       out += 'r';
                       AppendEncoded(out, a.id);
                     },
                     [&](const action::Enqueue& a) {
                       out += 'e';
                       AppendEncoded(out, a.id);
                       out += ':';
                       AppendEncoded(out, a.payload);
                     },
                     // Not in v1: FormatScenario writes v2 for these (the precondition).
                     [](const action::Lease&) {},
                     [](const action::Settle&) {},
                     [](const action::Advance&) {},
                     [](const action::AdvanceToNext&) {},
                     [](const action::ReleaseKey&) {},
                     [](const action::Redrive&) {},
                     [](const action::Crash&) {},
                     [](const action::Patch&) {},
                 },
                 scenario.actions[i]);
    }
  }
  if (scenario.cursor != scenario.actions.size()) out += ";c" + std::to_string(scenario.cursor);
  return out;
}

}  // namespace dlq::link
