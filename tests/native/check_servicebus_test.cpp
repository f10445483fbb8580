// dlq-lab check over Azure Service Bus in a Terraform plan (core/check/readers/service_bus_plan.cpp):
// the corpus case tests/fixtures/check/servicebus/ read into the service-bus mode through the
// core's Service Bus config reader, its terminal place the queue's own $DeadLetterQueue, the
// rules as docs/check.md says they apply, and bad input refused naming the Terraform attribute.
// No Service Bus here: the plan is written from the azurerm provider's documentation.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "check.h"

namespace dlq::check::check_servicebus_test {
namespace {

constexpr const char* kPlan = "servicebus/plan.json";

std::string FixtureText(const std::string& relative) {
  std::ifstream in(std::filesystem::path(DLQ_SOURCE_DIR) / "tests/fixtures/check" / relative, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), relative);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

int LineOf(std::string_view text, std::string_view needle) {
  int line = 1;
  for (size_t start = 0; start <= text.size(); ++line) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    if (text.substr(start, end - start).find(needle) != std::string_view::npos) return line;
    start = end + 1;
  }
  FAIL("no line holds " << needle);
  return 0;
}

const Finding* FindingOf(const Report& report, std::string_view rule, std::string_view queue) {
  for (const Finding& f : report.findings) {
    if (f.rule == rule && f.queue == queue) return &f;
  }
  return nullptr;
}

Result<Report> CheckText(const std::string& text) {
  const std::vector<SourceFile> files = {{kPlan, text}};
  return Check(files, CheckOptions{});
}

// The plan with `from` replaced by `to` once (a value of the fixture's first queue).
std::string Edited(std::string text, std::string_view from, std::string_view to) {
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE(
    "check servicebus: queues and subscriptions are read into the service-bus mode, kept in their $DeadLetterQueue") {
  const std::string text = FixtureText(kPlan);
  CHECK(DetectFormat(kPlan, text) == "terraform-plan");
  Result<Report> report = CheckText(text);
  REQUIRE_MESSAGE(report.ok(), report.status().ToString());
  REQUIRE(report->queues.size() == 3);
  const QueueSummary& queue = report->queues[0];
  CHECK(queue.name == "tfex_servicebus_queue");
  CHECK(queue.system == "service-bus");
  CHECK(queue.attempts == 10);  // max_delivery_count = 10
  // Every delivery's lock expiring: 10 x PT1M.
  CHECK(queue.worst_case_ms == 600'000);
  CHECK(report->queues[1].name == "payments");
  CHECK(report->queues[1].worst_case_ms == 5 * 300'000);  // 5 x PT5M
  CHECK(report->queues[2].name == "tfex_servicebus_subscription");
  CHECK(report->queues[2].attempts == 1);

  // DLQ-EXISTS holds: the sub-queue always exists. RETRY-BOUNDED and BACKOFF-CAP hold.
  for (const char* name : {"tfex_servicebus_queue", "payments", "tfex_servicebus_subscription"}) {
    CHECK(FindingOf(report.value(), "DLQ-EXISTS", name) == nullptr);
    CHECK(FindingOf(report.value(), "RETRY-BOUNDED", name) == nullptr);
    CHECK(FindingOf(report.value(), "BACKOFF-CAP", name) == nullptr);
  }
  // The deliveries come back to back: they outlast no outage, and nothing draws jitter.
  const Finding* outage = FindingOf(report.value(), "RETRY-OUTLASTS-OUTAGE", "tfex_servicebus_queue");
  REQUIRE(outage != nullptr);
  CHECK(outage->message.find("with probability 0.00") != std::string::npos);
  CHECK(outage->message.find("→ tfex_servicebus_queue/$deadletterqueue") != std::string::npos);
  CHECK(outage->at == Location{kPlan, LineOf(text, "\"max_delivery_count\": 10")});
  CHECK(FindingOf(report.value(), "JITTER", "tfex_servicebus_queue") != nullptr);
  // One delivery: no retry, so JITTER does not judge it.
  CHECK(FindingOf(report.value(), "JITTER", "tfex_servicebus_subscription") == nullptr);
}

TEST_CASE("check servicebus: bad values are refused naming the Terraform attribute at its line") {
  const std::string text = FixtureText(kPlan);
  Result<Report> r = CheckText(Edited(text, "\"lock_duration\": \"PT1M\"", "\"lock_duration\": \"PT6M\""));
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message() ==
        std::string(kPlan) + ":" + std::to_string(LineOf(text, "\"lock_duration\": \"PT1M\"")) +
            ": lock_duration: expected an ISO 8601 duration of whole milliseconds up to 5 minutes (\"PT30S\", "
            "\"PT5M\"), got \"PT6M\"");
  r = CheckText(Edited(text, "\"max_delivery_count\": 10", "\"max_delivery_count\": 0"));
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message().find(": max_delivery_count: expected a whole number from 1 to 1000000, got 0") !=
        std::string::npos);
  // A time-to-live that is no ISO 8601 duration of whole milliseconds is refused at its line.
  r = CheckText(
      Edited(text, "\"default_message_ttl\": \"P10675199DT2H48M5.4775807S\"", "\"default_message_ttl\": \"14 days\""));
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message().find(": default_message_ttl: expected an ISO 8601 duration of whole milliseconds "
                                  "(\"P14D\", \"PT30S\"), got \"14 days\"") != std::string::npos);
  // A finite one is read (defaultMessageTtlMs, with dead_lettering_on_message_expiration beside it).
  r = CheckText(
      Edited(text, "\"default_message_ttl\": \"P10675199DT2H48M5.4775807S\"", "\"default_message_ttl\": \"P14D\""));
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  r = CheckText(
      Edited(text, "\"forward_dead_lettered_messages_to\": null", "\"forward_dead_lettered_messages_to\": \"audit\""));
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message().find(": forward_dead_lettered_messages_to is not modelled by the lab") !=
        std::string::npos);
}

}  // namespace dlq::check::check_servicebus_test
