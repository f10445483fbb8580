// ReadCheckConfig (core/check/check_config.cpp): `.dlq-lab.yml` read into goals and skips, in
// YAML and JSON; every mistake refused with the file, the line, the setting, what was expected
// and what was given.
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "check.h"

using namespace dlq;
using namespace dlq::check;

namespace check_config_test {

namespace {

CheckConfig Read(std::string_view text, std::string_view file = ".dlq-lab.yml") {
  Result<CheckConfig> config = ReadCheckConfig(file, text);
  REQUIRE_MESSAGE(config.ok(), config.status().ToString());
  return std::move(config).value();
}

std::string Error(std::string_view text, std::string_view file = ".dlq-lab.yml") {
  Result<CheckConfig> config = ReadCheckConfig(file, text);
  REQUIRE(!config.ok());
  CHECK(config.status().code() == Code::kInvalidArgument);
  return config.status().message();
}

}  // namespace

TEST_CASE("ReadCheckConfig: the issue's example, goals stated and skips with their lines") {
  const CheckConfig c = Read(
      "goals:\n"
      "  outage: 15m            # RETRY-OUTLASTS-OUTAGE\n"
      "  outageProbability: 0.99\n"
      "  maxTimeToDlq: 24h      # RETRY-BOUNDED\n"
      "  maxDelay: 1h           # BACKOFF-CAP\n"
      "skip:\n"
      "  - rule: DLQ-EXISTS\n"
      "    queue: audit         # a queue name, or a pattern\n"
      "    reason: audit events are best-effort   # required\n"
      "  - rule: JITTER\n"
      "    reason: >\n"
      "      one consumer\n");
  CHECK(c.goals.outage_ms == 15 * 60'000);
  CHECK(c.goals.outage_stated);
  CHECK(c.goals.outage_probability == 0.99);
  CHECK(c.goals.max_time_to_dlq_ms == 24 * 3'600'000);
  CHECK(c.goals.max_delay_ms == 3'600'000);
  CHECK(c.goals.max_delay_stated);
  REQUIRE(c.skips.size() == 2);
  CHECK(c.skips[0].rule == "DLQ-EXISTS");
  CHECK(c.skips[0].queue == "audit");
  CHECK(c.skips[0].reason == "audit events are best-effort");
  CHECK(c.skips[0].at == Location{".dlq-lab.yml", 7, 5});
  CHECK(c.skips[1].queue == "*");  // no queue: every queue
  CHECK(c.skips[1].reason == "one consumer");
  CHECK(c.skips[1].at.line == 10);
}

TEST_CASE("ReadCheckConfig: defaults, durations in every unit, JSON") {
  const CheckConfig empty = Read("");
  CHECK(empty.goals.outage_ms == 5 * 60'000);
  CHECK(!empty.goals.outage_stated);
  CHECK(!empty.goals.max_time_to_dlq_ms);
  CHECK(empty.skips.empty());
  CHECK(Read("# nothing yet\n").skips.empty());
  CHECK(Read("goals: {outage: 500ms}").goals.outage_ms == 500);
  CHECK(Read("goals: {outage: 90s}").goals.outage_ms == 90'000);
  CHECK(Read("goals: {outage: 900000}").goals.outage_ms == 900'000);
  CHECK(Read("goals: {maxDelay: \"2h\"}").goals.max_delay_ms == 7'200'000);
  CHECK(Read("goals: {outageProbability: 1}").goals.outage_probability == 1.0);
  const CheckConfig json = Read(
      "{\"goals\": {\"maxTimeToDlq\": \"4h\"},\n \"skip\": [{\"rule\": \"DLQ-ALARM\", "
      "\"queue\": \"*-dlq\", \"reason\": \"alarms live in Datadog\"}]}",
      "dlq-lab.json");
  CHECK(json.goals.max_time_to_dlq_ms == 4 * 3'600'000);
  REQUIRE(json.skips.size() == 1);
  CHECK(json.skips[0].queue == "*-dlq");
  CHECK(json.skips[0].at == Location{"dlq-lab.json", 2, 11});
}

TEST_CASE("ReadCheckConfig: each mistake names the file, the line, the setting") {
  CHECK(Error("goals:\n  outage: 15 minutes\n") ==
        ".dlq-lab.yml:2: goals.outage: expected a duration (\"500ms\", \"90s\", \"15m\", \"24h\" or a number of "
        "milliseconds), got \"15 minutes\"");
  CHECK(Error("goals:\n  outage: 1.5h\n").rfind(".dlq-lab.yml:2: goals.outage: expected a duration", 0) == 0);
  CHECK(Error("goals:\n  maxDelay: 0s\n") ==
        ".dlq-lab.yml:2: goals.maxDelay: expected a duration above 0 and at most 365 days (\"500ms\", \"90s\", "
        "\"15m\", \"24h\" or a number of milliseconds), got \"0s\"");
  CHECK(Error("goals:\n  maxTimeToDlq: 9999d\n").rfind(".dlq-lab.yml:2: goals.maxTimeToDlq: expected", 0) == 0);
  CHECK(Error("goals:\n  outage: 99999999999999999999\n").find("at most 365 days") != std::string::npos);
  CHECK(Error("goals:\n  outage:\n").find("got nothing") != std::string::npos);
  CHECK(Error("goals:\n  outageProbability: 0\n") ==
        ".dlq-lab.yml:2: goals.outageProbability: expected a number above 0 and at most 1, got \"0\"");
  CHECK(Error("goals:\n  outageProbability: 1.01\n").find("got \"1.01\"") != std::string::npos);
  CHECK(Error("goals:\n  outageProbability: '0.9'\n").find("expected a number") != std::string::npos);
  CHECK(Error("goals:\n  outage: 5m\n  maxdelay: 1h\n") ==
        ".dlq-lab.yml:3: goals: unknown key \"maxdelay\", expected one of outage, outageProbability, maxTimeToDlq, "
        "maxDelay");
  CHECK(Error("goal:\n  outage: 5m\n") ==
        ".dlq-lab.yml:1: the configuration: unknown key \"goal\", expected one of goals, skip");
  CHECK(Error("- goals\n") == ".dlq-lab.yml:1: the configuration: expected a map with goals and skip, got a list");
  CHECK(Error("skip:\n  - rule: DLQ-EXISTS\n    queue: audit\n") ==
        ".dlq-lab.yml:2: skip[0]: a skip of DLQ-EXISTS needs a reason (reason: why the rule does not apply), got none");
  CHECK(Error("skip:\n  - rule: DLQ-EXISTS\n    reason: '  '\n") ==
        ".dlq-lab.yml:3: skip[0].reason: expected a reason (why the rule does not apply), got \"  \"");
  CHECK(Error("skip:\n  - {rule: DLQ-EXISTS, reason: x}\n  - rule: DLQ-EXIST\n    reason: typo\n")
            .rfind(".dlq-lab.yml:3: skip[1].rule: expected a rule id (DLQ-EXISTS, DLQ-DEAD-END, ", 0) == 0);
  CHECK(Error("skip:\n  - reason: x\n").find(".dlq-lab.yml:2: skip[0]: expected a rule (") == 0);
  CHECK(Error("skip:\n  - rule: JITTER\n    reason: x\n    queues: [a]\n") ==
        ".dlq-lab.yml:4: skip[0]: unknown key \"queues\", expected one of rule, queue, reason");
  CHECK(Error("skip: DLQ-EXISTS\n") == ".dlq-lab.yml:1: skip: expected a list of skips, got \"DLQ-EXISTS\"");
  CHECK(Error("goals: {}\n---\nskip: []\n") ==
        ".dlq-lab.yml:3: expected one document (goals and skip), got a second after ---");
  // Parse errors come through with their line.
  CHECK(Error("{\"goals\": {\"outage\": 5m}}", "dlq-lab.json").rfind("dlq-lab.json:1: expected JSON", 0) == 0);
  CHECK(Error("goals:\n  outage: 5m\n  outage: 6m\n") ==
        ".dlq-lab.yml:3: expected each key once in a map, got \"outage\" again (first on line 2)");
}

}  // namespace check_config_test
