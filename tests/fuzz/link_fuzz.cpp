// libFuzzer harness: the scenario link parser and formatter (core/scenario.h).
//
// The input bytes are a link text. For every input:
//  * ParseScenario either refuses it with a proper Status (non-OK, a known code,
//    a non-empty one-line UTF-8 message; TooLarge exactly when the text is over
//    kMaxScenarioTextBytes), or
//  * accepts it, and then the scenario is sane (maxAttempts in range, cursor within
//    the script, every string UTF-8), FormatScenario writes only the link alphabet,
//    no longer than the limit, and that text parses back to an equal scenario whose
//    FormatScenario is the same text (one canonical text per scenario);
//  * RunScenario, ShareScenario and PlayableActions agree with each other and do
//    not crash, and an accepted run gives a queue whose counts match the script.
// Seeds: tests/fixtures/links/*.link (scripts/dlq.mjs copies them into the corpus).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"

using namespace dlq;
using dlq::fuzz::CheckRefusal;
using dlq::fuzz::HeapUsed;
using dlq::fuzz::Show;

namespace {

bool IsLinkCharacter(char c) {
  const auto u = static_cast<unsigned char>(c);
  if ((u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9')) return true;
  return std::string_view(";,:%-_.~!$'()*+=@/?").find(c) != std::string_view::npos;
}

bool SameAction(const Action& a, const Action& b) {
  if (a.type != b.type) return false;
  switch (a.type) {
    case ActionType::kProcess: return a.outcome == b.outcome && a.error == b.error;
    case ActionType::kReplay: return a.id == b.id;
    case ActionType::kEnqueue: return a.id == b.id && a.payload == b.payload;
  }
  return false;
}

bool SameScenario(const Scenario& a, const Scenario& b) {
  if (a.policy.max_attempts != b.policy.max_attempts || a.cursor != b.cursor) return false;
  if (a.jobs.size() != b.jobs.size() || a.actions.size() != b.actions.size()) return false;
  for (size_t i = 0; i < a.jobs.size(); ++i) {
    if (a.jobs[i].id != b.jobs[i].id || a.jobs[i].payload != b.jobs[i].payload) return false;
  }
  for (size_t i = 0; i < a.actions.size(); ++i) {
    if (!SameAction(a.actions[i], b.actions[i])) return false;
  }
  return true;
}

void CheckStrings(const Scenario& s, std::string_view input) {
  for (const JobSpec& job : s.jobs) {
    FUZZ_CHECK(IsValidUtf8(job.id) && IsValidUtf8(job.payload), Show(input));
  }
  for (const Action& a : s.actions) {
    FUZZ_CHECK(IsValidUtf8(a.id) && IsValidUtf8(a.payload) && IsValidUtf8(a.error), Show(input));
    if (a.type != ActionType::kProcess) FUZZ_CHECK(a.error.empty(), Show(input));
    if (a.type != ActionType::kEnqueue) FUZZ_CHECK(a.payload.empty(), Show(input));
    if (a.type == ActionType::kProcess) FUZZ_CHECK(a.id.empty(), Show(input));
  }
}

// The queue that RunScenario built: counts follow from the script up to the cursor.
void CheckRunQueue(const Scenario& s, const Queue& q, std::string_view input) {
  size_t jobs = s.jobs.size();
  uint64_t steps = 0;
  for (size_t i = 0; i < s.cursor; ++i) {
    if (s.actions[i].type == ActionType::kEnqueue) ++jobs;
    else ++steps;  // an accepted process took a job; an accepted replay is a step
  }
  FUZZ_CHECK(q.ready_size() + q.completed_size() + q.quarantine_size() == jobs, Show(input));
  FUZZ_CHECK(q.step() == steps, Show(input));
  FUZZ_CHECK(q.policy().max_attempts == s.policy.max_attempts, Show(input));
  // Each enqueue is 1 event, each process 2 (attempt + where the job went), each replay 1.
  size_t events = s.jobs.size();
  for (size_t i = 0; i < s.cursor; ++i) events += s.actions[i].type == ActionType::kProcess ? 2 : 1;
  FUZZ_CHECK(q.event_count() == events, Show(input));

  std::string text;
  for (size_t i = 0; i < q.event_count(); ++i) {
    const Event e = q.EventAt(i);
    FUZZ_CHECK(e.seq == i + 1, Show(input));
    FUZZ_CHECK(e.step <= q.step(), Show(input));
    FUZZ_CHECK(e.attempts <= static_cast<uint64_t>(s.policy.max_attempts), Show(input));
    const std::string line = RenderEvent(e);
    FUZZ_CHECK(IsValidUtf8(line) && line.find('\n') == std::string::npos, Show(input));
    const std::string why = ExplainEvent(e);
    FUZZ_CHECK(!why.empty() && IsValidUtf8(why), Show(input));
    text.append(line).append("\n");
  }
  FUZZ_CHECK(q.TimelineText() == text, Show(input));
}

// The checks for one input (see the top of this file).
void CheckLink(std::string_view input) {
  const size_t size = input.size();
  Result<Scenario> parsed = ParseScenario(input);
  if (!parsed.ok()) {
    CheckRefusal(parsed.status(), "ParseScenario", input);
    FUZZ_CHECK((parsed.status().code() == Code::kTooLarge) == (size > kMaxScenarioTextBytes),
               parsed.status().ToString());
    return;
  }
  FUZZ_CHECK(size <= kMaxScenarioTextBytes, Show(input));
  const Scenario& s = parsed.value();
  FUZZ_CHECK(Policy::CheckMaxAttempts(s.policy.max_attempts).ok(), Show(input));
  FUZZ_CHECK(s.cursor <= s.actions.size(), Show(input));
  CheckStrings(s, input);

  // Round trip: one canonical text, which reads back to the same scenario.
  const std::string formatted = FormatScenario(s);
  FUZZ_CHECK(formatted.size() <= kMaxScenarioTextBytes, Show(input) + " formats to " + Show(formatted));
  for (const char c : formatted) FUZZ_CHECK(IsLinkCharacter(c), Show(input) + " formats to " + Show(formatted));
  Result<Scenario> back = ParseScenario(formatted);
  if (!back.ok()) {
    FUZZ_CHECK(back.ok(), Show(input) + " formats to " + Show(formatted) + ", which fails: " + back.status().ToString());
  }
  FUZZ_CHECK(SameScenario(s, back.value()), Show(input) + " formats to " + Show(formatted) + ", which differs");
  FUZZ_CHECK(FormatScenario(back.value()) == formatted, Show(input) + " formats to " + Show(formatted));

  // Replay: RunScenario, ShareScenario and PlayableActions agree.
  Result<Queue> run = RunScenario(s);
  Result<std::string> shared = ShareScenario(s);
  const ScenarioReach reach = PlayableActions(s);
  FUZZ_CHECK(reach.playable <= s.actions.size(), Show(input));
  if (reach.stopped.ok()) {
    FUZZ_CHECK(reach.playable == s.actions.size(), Show(input));
  } else {  // an action was refused, or the set-up was (then playable is 0)
    CheckRefusal(reach.stopped, "PlayableActions", input);
    FUZZ_CHECK(reach.playable < s.actions.size() || reach.playable == 0, Show(input) + " " + reach.stopped.ToString());
  }
  if (run.ok()) {
    CheckRunQueue(s, run.value(), input);
    FUZZ_CHECK(reach.playable >= s.cursor, Show(input) + " " + reach.stopped.ToString());
    FUZZ_CHECK(shared.ok(), Show(input) + " runs, but ShareScenario says " + shared.status().ToString());
    FUZZ_CHECK(shared.value() == formatted, Show(input));
  } else {
    CheckRefusal(run.status(), "RunScenario", input);
    // Either the set-up failed (playable 0, same error) or an action before the cursor.
    FUZZ_CHECK(reach.playable < s.cursor || (reach.playable == 0 && !reach.stopped.ok()),
               Show(input) + " " + run.status().ToString() + " / " + reach.stopped.ToString());
    FUZZ_CHECK(reach.stopped.code() == run.status().code() && reach.stopped.message() == run.status().message(),
               Show(input) + " run: " + run.status().ToString() + " reach: " + reach.stopped.ToString());
    FUZZ_CHECK(!shared.ok(), Show(input) + " fails to run, but ShareScenario accepts it");
    FUZZ_CHECK(shared.status().code() == run.status().code() && shared.status().message() == run.status().message(),
               Show(input) + " run: " + run.status().ToString() + " share: " + shared.status().ToString());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t heap_before = HeapUsed();
  CheckLink(input);
  // Every queue RunScenario, ShareScenario and PlayableActions built is gone, and so is its charge.
  FUZZ_CHECK(HeapUsed() == heap_before, Show(input) + ": heap budget use " + std::to_string(HeapUsed()) +
                                            " after, " + std::to_string(heap_before) + " before");
  return 0;
}
