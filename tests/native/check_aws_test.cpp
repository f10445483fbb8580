// The AWS readers of dlq-lab check (core/check/readers/terraform_plan.cpp, cloudformation.cpp):
// each fixture under tests/fixtures/check/{terraform,cloudformation}/ read into its Inventory
// (ids, DLQ links, policy fields, the lines of the settings, unknowns), and bad input refused
// with an error naming the file and line.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "check.h"
#include "readers/readers.h"

namespace dlq::check::check_aws_test {
namespace {

std::string FixtureText(const std::string& relative) {
  std::ifstream in(std::filesystem::path(DLQ_SOURCE_DIR) / "tests/fixtures/check" / relative, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), relative);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The 1-based line of the `nth` line of `text` that contains `needle`.
int LineOf(std::string_view text, std::string_view needle, int nth = 1) {
  int line = 1;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    if (text.substr(start, end - start).find(needle) != std::string_view::npos && --nth == 0) return line;
    start = end + 1;
    ++line;
  }
  FAIL("no line holds " << needle);
  return 0;
}

const Reader& ReaderFor(std::string_view format) {
  for (const Reader& r : Readers()) {
    if (r.format == format) return r;
  }
  FAIL("no reader " << format);
  return Readers().front();
}

// `text` as `path` read by the reader of `format`: parsed as its syntax, detected, read.
Result<Inventory> ReadAs(std::string_view format, const std::string& path, const std::string& text) {
  const Reader& reader = ReaderFor(format);
  const bool json = path.ends_with(".json");
  Result<Document> doc = json ? ParseJson(path, text) : ParseYaml(path, text);
  REQUIRE_MESSAGE(doc.ok(), doc.status().ToString());
  CHECK(reader.detects(path, text, &doc->root));
  Inventory out;
  SourceFile file{path, text};
  RETURN_IF_ERROR(reader.read(file, &doc.value(), &out));
  return out;
}

struct Fixture {
  std::string path, text;
  Inventory inventory;
};

Fixture Read(std::string_view format, const std::string& relative) {
  Fixture f{relative, FixtureText(relative), {}};
  Result<Inventory> read = ReadAs(format, f.path, f.text);
  REQUIRE_MESSAGE(read.ok(), read.status().ToString());
  f.inventory = std::move(read).value();
  return f;
}

const QueueConfig& QueueNamed(const Inventory& inventory, std::string_view id) {
  for (const QueueConfig& q : inventory.queues) {
    if (q.id == id) return q;
  }
  FAIL("no queue " << id);
  return inventory.queues.front();
}

bool HasUnknown(const QueueConfig& q, std::string_view what, int line) {
  for (const Unknown& u : q.unknowns) {
    if (u.what == what && u.at.line == line) return true;
  }
  return false;
}

Location At(const Fixture& f, int line) { return {f.path, line}; }

// The error of reading `text` as `path`; REQUIREs that it fails.
std::string ErrorOf(std::string_view format, const std::string& path, const std::string& text) {
  Result<Inventory> read = ReadAs(format, path, text);
  REQUIRE_FALSE(read.ok());
  return read.status().message();
}

}  // namespace

TEST_CASE("check aws: the reader table holds the Terraform plan and CloudFormation readers") {
  CHECK(std::string(ReaderFor("terraform-plan").label).starts_with("Terraform plan JSON"));
  CHECK(ReaderFor("terraform-plan").syntax == Syntax::kJson);
  CHECK(ReaderFor("cloudformation").syntax == Syntax::kJsonOrYaml);
  Result<Document> other = ParseJson("x.json", R"({"Attributes": {"VisibilityTimeout": "30"}})");
  REQUIRE(other.ok());
  CHECK_FALSE(ReaderFor("terraform-plan").detects("x.json", "", &other->root));
  CHECK_FALSE(ReaderFor("cloudformation").detects("x.json", "", &other->root));
}

TEST_CASE("check aws: a plan's inline redrive_policy, a DLQ's redrive_allow_policy, a depth alarm") {
  Fixture f = Read("terraform-plan", "terraform/inline-redrive/plan.json");
  REQUIRE(f.inventory.queues.size() == 3);
  const QueueConfig& source = QueueNamed(f.inventory, "aws_sqs_queue.terraform_queue");
  CHECK(source.name == "terraform-example-queue");
  CHECK(source.system == "sqs");
  CHECK(source.policy.system == System::kSqs);
  CHECK(source.at == At(f, LineOf(f.text, "\"address\": \"aws_sqs_queue.terraform_queue\"")));
  CHECK(source.bounded);
  CHECK(source.terminal == Terminal::kDeadLetter);
  CHECK(source.dead_letter_to == "aws_sqs_queue.terraform_queue_deadletter");  // its ARN, as the DLQ's id
  const int redrive_line = LineOf(f.text, "\"redrive_policy\": \"{");
  CHECK(source.dead_letter_at == At(f, redrive_line));
  CHECK(source.policy.max_attempts == 4);
  CHECK(source.policy.lease_ms == 30'000);
  CHECK(source.policy.backoff.kind == BackoffKind::kNone);
  CHECK(source.fifo == false);
  CHECK(source.retention_ms == 86'400'000);
  CHECK(source.retention_at == At(f, LineOf(f.text, "\"message_retention_seconds\": 86400")));
  CHECK(source.retention_from_first_enqueue);
  CHECK(source.unknowns.empty());
  REQUIRE(source.notes.size() == 1);  // delay_seconds = 90, as the Registry example has it
  CHECK(source.notes[0].text ==
        "delay_seconds 90 s: each message's first delivery waits 90 s, which the lab does not play");
  CHECK(source.notes[0].at == At(f, LineOf(f.text, "\"delay_seconds\": 90")));
  CHECK(source.aliases.front() == "arn:aws:sqs:us-east-1:123456789012:terraform-example-queue");
  REQUIRE(source.settings.size() == 2);
  CHECK(source.settings[0] == std::pair<std::string, Location>("maxAttempts", At(f, redrive_line)));
  CHECK(source.settings[1].first == "leaseMs");
  CHECK(source.settings[1].second == At(f, LineOf(f.text, "\"visibility_timeout_seconds\": 30")));

  const QueueConfig& dlq = QueueNamed(f.inventory, "aws_sqs_queue.terraform_queue_deadletter");
  CHECK(dlq.terminal == Terminal::kDropped);
  CHECK_FALSE(dlq.bounded);
  CHECK(dlq.redrive_permission == "byQueue");
  CHECK(dlq.dead_letter_sources == std::vector<std::string>{"aws_sqs_queue.terraform_queue"});
  CHECK(dlq.retention_ms == 345'600'000);

  const QueueConfig& audit = QueueNamed(f.inventory, "aws_sqs_queue.audit");
  CHECK_FALSE(audit.bounded);
  CHECK(audit.unbounded_because.find("no redrive policy") != std::string::npos);
  CHECK(audit.policy.lease_ms == 120'000);
  CHECK(audit.retention_ms == 1'209'600'000);

  REQUIRE(f.inventory.alarms.size() == 1);
  CHECK(f.inventory.alarms[0].queue == "aws_sqs_queue.terraform_queue_deadletter");
  CHECK(f.inventory.alarms[0].at == At(f, LineOf(f.text, "\"dimensions\": {")));
}

TEST_CASE("check aws: values known after apply are resolved through the configuration's references") {
  Fixture f = Read("terraform-plan", "terraform/after-apply/plan.json");
  REQUIRE(f.inventory.queues.size() == 5);
  const QueueConfig& orders = QueueNamed(f.inventory, "aws_sqs_queue.orders");
  CHECK(orders.name == "prod-orders");
  CHECK(orders.bounded);
  CHECK(orders.terminal == Terminal::kDeadLetter);
  CHECK(orders.dead_letter_to == "aws_sqs_queue.orders_dlq");
  // The redrive's line is its expression in the configuration (the planned values omit it).
  const int expression = LineOf(f.text, "\"redrive_policy\": {", 1);
  CHECK(orders.dead_letter_at == At(f, expression));
  CHECK(HasUnknown(orders, "redrive_policy.maxReceiveCount (known after apply)", expression));
  CHECK_FALSE(HasUnknown(orders, "redrive_policy.deadLetterTargetArn (known after apply)", expression));
  REQUIRE(orders.notes.size() == 1);
  CHECK(orders.notes[0].text.find("aws_sqs_queue.orders_dlq") != std::string::npos);
  CHECK(orders.policy.lease_ms == 60'000);
  CHECK(orders.settings.size() == 1);  // leaseMs: maxAttempts is not known

  // A queue with no redrive expression: the provider's computed redrive_policy is unset.
  const QueueConfig& dlq = QueueNamed(f.inventory, "aws_sqs_queue.orders_dlq");
  CHECK_FALSE(dlq.bounded);
  CHECK(dlq.unknowns.empty());
  CHECK(dlq.retention_ms == 1'209'600'000);

  // A literal ARN of the plan's own FIFO DLQ, matched by its name.
  const QueueConfig& payments = QueueNamed(f.inventory, "aws_sqs_queue.payments");
  CHECK(payments.fifo == true);
  CHECK_FALSE(payments.retention_from_first_enqueue);
  CHECK(payments.dead_letter_to == "aws_sqs_queue.payments_dlq");
  CHECK(payments.policy.max_attempts == 3);
  CHECK(payments.redrive_permission == "denyAll");
  CHECK(QueueNamed(f.inventory, "aws_sqs_queue.payments_dlq").fifo == true);

  // A module output the plan does not resolve: an Unknown, never a guess.
  const QueueConfig& notifications = QueueNamed(f.inventory, "aws_sqs_queue.notifications");
  const int unresolved = LineOf(f.text, "\"redrive_policy\": {", 3);
  CHECK(notifications.bounded);
  CHECK(notifications.terminal == Terminal::kUnknown);
  CHECK(notifications.dead_letter_to.empty());
  CHECK(HasUnknown(notifications, "redrive_policy.deadLetterTargetArn (known after apply)", unresolved));
  CHECK(HasUnknown(notifications, "redrive_policy.maxReceiveCount (known after apply)", unresolved));

  REQUIRE(f.inventory.alarms.size() == 1);
  CHECK(f.inventory.alarms[0].queue == "aws_sqs_queue.orders_dlq");
}

TEST_CASE("check aws: a module's separate redrive resources join their queues") {
  Fixture f = Read("terraform-plan", "terraform/modules/plan.json");
  REQUIRE(f.inventory.queues.size() == 2);
  const QueueConfig& orders = QueueNamed(f.inventory, "module.orders.aws_sqs_queue.this[0]");
  CHECK(orders.name == "orders");
  CHECK(orders.dead_letter_to == "module.orders.aws_sqs_queue.dlq[0]");
  CHECK(orders.terminal == Terminal::kDeadLetter);
  CHECK(orders.policy.lease_ms == 120'000);
  const int redrive = LineOf(f.text, "\"redrive_policy\": {", 2);  // the redrive resource's expression
  CHECK(orders.dead_letter_at == At(f, redrive));
  CHECK(HasUnknown(orders, "redrive_policy.maxReceiveCount (known after apply)", redrive));
  const QueueConfig& dlq = QueueNamed(f.inventory, "module.orders.aws_sqs_queue.dlq[0]");
  CHECK(dlq.name == "orders-dlq");
  CHECK_FALSE(dlq.bounded);
  CHECK(dlq.redrive_permission == "byQueue");
  CHECK(dlq.dead_letter_sources == std::vector<std::string>{"module.orders.aws_sqs_queue.this[0]"});
  CHECK(dlq.retention_ms == 1'209'600'000);
}

TEST_CASE("check aws: separate redrive resources with known values join their queues by URL") {
  Fixture f = Read("terraform-plan", "terraform/separate-redrive/plan.json");
  REQUIRE(f.inventory.queues.size() == 2);
  const QueueConfig& q = QueueNamed(f.inventory, "aws_sqs_queue.q");
  CHECK(q.dead_letter_to == "aws_sqs_queue.ddl");
  CHECK(q.policy.max_attempts == 4);
  CHECK(q.policy.lease_ms == 300'000);
  const int redrive = LineOf(f.text, "\"redrive_policy\": \"{");
  CHECK(q.dead_letter_at == At(f, redrive));
  CHECK(q.settings[0] == std::pair<std::string, Location>("maxAttempts", At(f, redrive)));
  const QueueConfig& ddl = QueueNamed(f.inventory, "aws_sqs_queue.ddl");
  CHECK(ddl.redrive_permission == "byQueue");
  CHECK(ddl.dead_letter_sources == std::vector<std::string>{"aws_sqs_queue.q"});
  CHECK(f.inventory.alarms.empty());
}

TEST_CASE("check aws: a YAML template's short intrinsics, parameters, FIFO, alarms and skips") {
  Fixture f = Read("cloudformation", "cloudformation/short-form/template.yaml");
  REQUIRE(f.inventory.queues.size() == 5);
  const QueueConfig& source = QueueNamed(f.inventory, "MySourceQueue");
  CHECK(source.name == "orders");
  CHECK(source.at == At(f, LineOf(f.text, "  MySourceQueue:")));
  CHECK(source.dead_letter_to == "MyDeadLetterQueue");
  CHECK(source.dead_letter_at == At(f, LineOf(f.text, "deadLetterTargetArn: !GetAtt MyDeadLetterQueue.Arn")));
  CHECK(source.policy.max_attempts == 5);  // the parameter's Default, with a note
  REQUIRE(source.notes.size() == 1);
  CHECK(source.notes[0].text.find("parameter OrdersMaxReceiveCount") != std::string::npos);
  CHECK(source.policy.lease_ms == 60'000);
  CHECK(source.retention_ms == 345'600'000);  // absent: SQS's 4 days
  CHECK(source.retention_at == source.at);
  CHECK(source.routes_back_to == std::vector<std::string>{"MyDeadLetterQueue"});

  const QueueConfig& dlq = QueueNamed(f.inventory, "MyDeadLetterQueue");
  CHECK(dlq.retention_ms == 1'209'600'000);
  CHECK(dlq.retention_at == At(f, LineOf(f.text, "MessageRetentionPeriod: 1209600")));
  CHECK(dlq.dead_letter_sources == std::vector<std::string>{"MySourceQueue"});

  const QueueConfig& invoices = QueueNamed(f.inventory, "InvoicesQueue");
  CHECK(invoices.fifo == true);
  CHECK(invoices.dead_letter_to == "InvoicesDeadLetterQueue");  // !GetAtt [X, Arn]
  CHECK(invoices.policy.max_attempts == 3);
  const QueueConfig& invoices_dlq = QueueNamed(f.inventory, "InvoicesDeadLetterQueue");
  CHECK(invoices_dlq.name == "InvoicesDeadLetterQueue");  // !Sub with a variable: the logical id
  CHECK(invoices_dlq.fifo == false);

  const QueueConfig& audit = QueueNamed(f.inventory, "AuditQueue");
  REQUIRE(audit.skips.size() == 1);
  CHECK(audit.skips[0].rule == "DLQ-EXISTS");
  CHECK(audit.skips[0].line == LineOf(f.text, "dlq-lab:skip=DLQ-EXISTS"));
  CHECK(source.skips.empty());

  REQUIRE(f.inventory.alarms.size() == 1);
  CHECK(f.inventory.alarms[0].queue == "MyDeadLetterQueue");
  CHECK(f.inventory.alarms[0].at.line == LineOf(f.text, "- Name: QueueName"));
}

TEST_CASE("check aws: a JSON template's long intrinsics, strings for numbers, a JSON-string redrive") {
  Fixture f = Read("cloudformation", "cloudformation/long-form/template.json");
  REQUIRE(f.inventory.queues.size() == 4);
  const QueueConfig& payments = QueueNamed(f.inventory, "PaymentsQueue");
  CHECK(payments.dead_letter_to == "PaymentsDeadLetterQueue");
  CHECK(payments.policy.max_attempts == 8);
  CHECK(payments.policy.lease_ms == 300'000);
  CHECK(payments.retention_ms == 604'800'000);
  CHECK(payments.settings[0].second == At(f, LineOf(f.text, "\"maxReceiveCount\": \"8\"")));
  CHECK(QueueNamed(f.inventory, "PaymentsDeadLetterQueue").redrive_permission == "allowAll");

  const QueueConfig& refunds = QueueNamed(f.inventory, "RefundsQueue");
  CHECK(refunds.fifo == true);  // "true" as a string
  CHECK(refunds.terminal == Terminal::kUnknown);
  CHECK(HasUnknown(refunds, "RedrivePolicy.deadLetterTargetArn (!ImportValue)",
                   LineOf(f.text, "\"deadLetterTargetArn\": {", 2)));

  const QueueConfig& ledger = QueueNamed(f.inventory, "LedgerQueue");
  CHECK(ledger.name == "LedgerQueue");
  CHECK(ledger.dead_letter_to == "PaymentsDeadLetterQueue");  // a literal ARN, by the queue's name
  CHECK(ledger.policy.max_attempts == 2);
  CHECK(ledger.dead_letter_at == At(f, LineOf(f.text, "\"RedrivePolicy\": \"{")));

  // NumberOfMessagesSent does not count a redrive: only the depth alarm is one.
  REQUIRE(f.inventory.alarms.size() == 1);
  CHECK(f.inventory.alarms[0].queue == "PaymentsDeadLetterQueue");
}

// The readers' inventories through Check(): the join finds each DLQ and its alarm, the rules
// point at the settings the readers located.
const Finding* FindingOf(const Report& report, std::string_view rule, std::string_view queue) {
  for (const Finding& f : report.findings) {
    if (f.rule == rule && f.queue == queue) return &f;
  }
  return nullptr;
}

TEST_CASE("check aws: Check() over the fixtures judges the queues the readers located") {
  const std::string plan = "terraform/inline-redrive/plan.json", cfn = "cloudformation/short-form/template.yaml",
                    separate = "terraform/separate-redrive/plan.json";
  const std::vector<SourceFile> files = {
      {plan, FixtureText(plan)}, {cfn, FixtureText(cfn)}, {separate, FixtureText(separate)}};
  CHECK(DetectFormat(plan, files[0].text) == "terraform-plan");
  CHECK(DetectFormat(cfn, files[1].text) == "cloudformation");
  Result<Report> report = Check(files, CheckOptions{});
  REQUIRE_MESSAGE(report.ok(), report.status().ToString());
  CHECK(report->queues.size() == 10);

  const Finding* dropped = FindingOf(report.value(), "DLQ-EXISTS", "audit-events");
  REQUIRE(dropped != nullptr);
  CHECK(dropped->level == Level::kError);
  CHECK(dropped->at == Location{plan, LineOf(files[0].text, "\"address\": \"aws_sqs_queue.audit\"")});
  // The DLQ is recognised from the redrive, and its alarm found by the queue's name.
  CHECK(FindingOf(report.value(), "DLQ-EXISTS", "terraform-example-deadletter-queue") == nullptr);
  CHECK(FindingOf(report.value(), "DLQ-ALARM", "terraform-example-deadletter-queue") == nullptr);
  CHECK(FindingOf(report.value(), "DLQ-ALARM", "examplequeue-ddl") != nullptr);

  const Finding* skipped = FindingOf(report.value(), "DLQ-EXISTS", "audit");
  REQUIRE(skipped != nullptr);
  CHECK(skipped->skipped);
  CHECK(skipped->reason == "audit events are best-effort");
  // The DLQ keeps 4 days, as its source does: reported at the DLQ's retention (its default).
  const Finding* retention = FindingOf(report.value(), "DLQ-RETENTION", "examplequeue");
  REQUIRE(retention != nullptr);
  CHECK(retention->at.file == separate);
  CHECK(retention->at.line == LineOf(files[2].text, "\"message_retention_seconds\": 345600"));
}

TEST_CASE("check aws: a RedrivePolicy given by a condition is unknown, a !Sub without variables is read") {
  Result<Inventory> read = ReadAs("cloudformation", "t.yaml", R"(Conditions:
  IsProd: !Equals [!Ref AWS::AccountId, "123456789012"]
Resources:
  Dlq:
    Type: AWS::SQS::Queue
  Source:
    Type: AWS::SQS::Queue
    Properties:
      RedrivePolicy: !If
        - IsProd
        - deadLetterTargetArn: !GetAtt Dlq.Arn
          maxReceiveCount: 5
        - !Ref AWS::NoValue
  Literal:
    Type: AWS::SQS::Queue
    Properties:
      RedrivePolicy: !Sub '{"deadLetterTargetArn": "arn:aws:sqs:us-east-1:123456789012:Dlq", "maxReceiveCount": 7}'
)");
  REQUIRE_MESSAGE(read.ok(), read.status().ToString());
  const QueueConfig& source = QueueNamed(read.value(), "Source");
  CHECK(source.bounded);
  CHECK(source.terminal == Terminal::kUnknown);
  REQUIRE(source.unknowns.size() == 2);
  CHECK(source.unknowns[0].what == "RedrivePolicy.deadLetterTargetArn (!If)");
  CHECK(source.unknowns[0].field == "dead_letter_to");
  CHECK(source.unknowns[0].at.line == 9);
  CHECK(source.unknowns[1].field == "policy");
  const QueueConfig& literal = QueueNamed(read.value(), "Literal");
  CHECK(literal.dead_letter_to == "Dlq");
  CHECK(literal.policy.max_attempts == 7);
}

TEST_CASE("check aws: bad input is an error naming the file and line") {
  const std::string plan = FixtureText("terraform/separate-redrive/plan.json");
  const std::string redrive =
      R"(\"deadLetterTargetArn\":\"arn:aws:sqs:eu-west-1:210987654321:examplequeue-ddl\",\"maxReceiveCount\":4)";
  REQUIRE(plan.find(redrive) != std::string::npos);
  const int line = LineOf(plan, "\"redrive_policy\": \"{");
  auto replaced = [&](const std::string& with) {
    std::string text = plan;
    text.replace(text.find(redrive), redrive.size(), with);
    return text;
  };
  std::string not_json = ErrorOf("terraform-plan", "plan.json", replaced(R"(deadLetterTargetArn: 4)"));
  CHECK(not_json.starts_with("plan.json:" + std::to_string(line) + ": redrive_policy is not JSON: "));
  std::string abc =
      ErrorOf("terraform-plan", "plan.json",
              replaced(R"(\"deadLetterTargetArn\":\"arn:aws:sqs:eu-west-1:1:x\",\"maxReceiveCount\":\"abc\")"));
  CHECK(abc == "plan.json:" + std::to_string(line) +
                   ": redrive_policy.maxReceiveCount: expected a whole number from 1 to 1000, got \"abc\"");
  std::string too_many =
      ErrorOf("terraform-plan", "plan.json",
              replaced(R"(\"deadLetterTargetArn\":\"arn:aws:sqs:eu-west-1:1:x\",\"maxReceiveCount\":1001)"));
  CHECK(too_many.starts_with("plan.json:" + std::to_string(line) + ": redrive_policy.maxReceiveCount: expected"));
  CHECK(too_many.find("1001") != std::string::npos);

  const std::string yaml = R"(Resources:
  Source:
    Type: AWS::SQS::Queue
    Properties:
      RedrivePolicy:
        deadLetterTargetArn: !GetAtt Missing.Arn
        maxReceiveCount: 3
)";
  std::string missing = ErrorOf("cloudformation", "template.yaml", yaml);
  CHECK(missing ==
        "template.yaml:6: RedrivePolicy.deadLetterTargetArn: !GetAtt names Missing, which the template "
        "does not declare");
  std::string count = ErrorOf("cloudformation", "t.yaml", R"(Resources:
  Dlq:
    Type: AWS::SQS::Queue
  Source:
    Type: AWS::SQS::Queue
    Properties:
      VisibilityTimeout: 30
      RedrivePolicy:
        deadLetterTargetArn: !GetAtt Dlq.Arn
        maxReceiveCount: abc
)");
  CHECK(count == "t.yaml:10: RedrivePolicy.maxReceiveCount: expected a whole number from 1 to 1000, got \"abc\"");
  std::string visibility = ErrorOf("cloudformation", "t.yaml", R"(Resources:
  Source:
    Type: AWS::SQS::Queue
    Properties:
      VisibilityTimeout: 43201
)");
  CHECK(visibility.starts_with("t.yaml:5: VisibilityTimeout: expected whole seconds from 0 to 43200, got "));
  std::string not_a_queue = ErrorOf("cloudformation", "t.yaml", R"(Resources:
  Topic:
    Type: AWS::SNS::Topic
  Source:
    Type: AWS::SQS::Queue
    Properties:
      RedrivePolicy:
        deadLetterTargetArn: !GetAtt Topic.TopicArn
        maxReceiveCount: 3
)");
  CHECK(not_a_queue.starts_with("t.yaml:8: RedrivePolicy.deadLetterTargetArn: expected a queue"));
  std::string ref = ErrorOf("cloudformation", "t.yaml", R"(Resources:
  Source:
    Type: AWS::SQS::Queue
    Properties:
      VisibilityTimeout: !Ref Nowhere
)");
  CHECK(ref ==
        "t.yaml:5: VisibilityTimeout: !Ref names Nowhere, which the template declares neither as a "
        "parameter nor as a resource");
}

// Inputs the reader harness found (tests/fuzz/regressions/check-cloudformation/): a template
// without resources was refused at line 0 (the file as a whole), an empty QueueName read as a
// queue without a name.
TEST_CASE("check aws: hostile templates found by the fuzz harness are refused with a line") {
  std::string e =
      ErrorOf("cloudformation", "t.yaml", "# a template\nAWSTemplateFormatVersion: '2010-09-09'\nDescription: none\n");
  CHECK(e == "t.yaml:2: Resources: expected a map of resources, got no Resources key");
  e = ErrorOf("cloudformation", "t.yaml", "AWSTemplateFormatVersion: '2010-09-09'\n\nResources:\n  - a\n");
  CHECK(e == "t.yaml:3: Resources: expected a map of resources, got a list");
  e = ErrorOf("cloudformation", "t.json", "{\"AWSTemplateFormatVersion\": \"2010-09-09\",\n \"Resources\": null}");
  CHECK(e == "t.json:2: Resources: expected a map of resources, got a null");
  e = ErrorOf("cloudformation", "t.yaml", R"(Resources:
  Source:
    Type: AWS::SQS::Queue
    Properties:
      QueueName: ""
)");
  CHECK(e == "t.yaml:5: QueueName: expected a queue name, got \"\"");
}

}  // namespace dlq::check::check_aws_test
