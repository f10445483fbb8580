// The broker readers of dlq-lab check (core/check/readers/): RabbitMQ definitions and
// topology-operator resources, Sidekiq's sidekiq.yml and job classes, BullMQ job options.
// Each fixture under tests/fixtures/check/ is read into its Inventory and the queues, their
// dead-letter links, policy fields and Locations are checked; bad input is an error naming
// the file and the line.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "check.h"
#include "model.h"
#include "readers/broker_readers.h"
#include "readers/rabbitmq_pattern.h"
#include "readers/readers.h"

namespace dlq::check::check_brokers_test {
namespace {

const Reader& ReaderFor(std::string_view format) {
  for (const Reader& r : Readers()) {
    if (format == r.format) return r;
  }
  FAIL("no reader for " << format);
  return Readers().front();
}

// Reads `text` as `path` with the reader of `format` into `out`.
Status ReadText(std::string_view format, const std::string& path, const std::string& text, Inventory* out) {
  const Reader& reader = ReaderFor(format);
  SourceFile file{path, text};
  if (reader.syntax == Syntax::kText) {
    CHECK(reader.detects(path, text, nullptr));
    return reader.read(file, nullptr, out);
  }
  Result<Document> doc = reader.syntax == Syntax::kJson ? ParseJson(path, text) : ParseYaml(path, text);
  if (!doc.ok()) return doc.status();
  CHECK(reader.detects(path, text, &doc->root));
  return reader.read(file, &doc.value(), out);
}

// A fixture, named by its path under tests/fixtures/check/ (which is also its Location's file).
Inventory ReadFixtures(std::string_view format, const std::vector<std::string>& paths, Inventory inventory = {}) {
  for (const std::string& path : paths) {
    std::ifstream in(std::filesystem::path(DLQ_SOURCE_DIR) / "tests/fixtures/check" / path, std::ios::binary);
    REQUIRE_MESSAGE(in, path);
    std::stringstream text;
    text << in.rdbuf();
    Status read = ReadText(format, path, text.str(), &inventory);
    REQUIRE_MESSAGE(read.ok(), read.message());
  }
  return inventory;
}

const QueueConfig& Queue(const Inventory& inventory, std::string_view id) {
  for (const QueueConfig& q : inventory.queues) {
    if (q.id == id) return q;
  }
  FAIL("no queue " << id);
  return inventory.queues.front();
}

std::vector<std::string> Ids(const Inventory& inventory) {
  std::vector<std::string> ids;
  for (const QueueConfig& q : inventory.queues) ids.push_back(q.id);
  return ids;
}

Location At(std::string file, int line) { return {std::move(file), line, 0}; }

// The line where `field` was set, 0 when it was not.
int SettingLine(const QueueConfig& q, std::string_view field) {
  int line = 0;
  for (const auto& [name, at] : q.settings) {
    if (name == field) line = at.line;
  }
  return line;
}

// The error of reading `text`, which must fail.
std::string ErrorOf(std::string_view format, const std::string& path, const std::string& text) {
  Inventory inventory;
  Status read = ReadText(format, path, text, &inventory);
  REQUIRE_FALSE(read.ok());
  return read.message();
}

TEST_CASE("check policy patterns: RabbitMQ's regular expressions, searched in the queue's name") {
  auto matches = [](std::string_view pattern, std::string_view name) {
    Result<PolicyPattern> p = PolicyPattern::Compile(pattern);
    REQUIRE_MESSAGE(p.ok(), p.status().message());
    return p->Matches(name);
  };
  CHECK(matches("^orders$", "orders"));
  CHECK_FALSE(matches("^orders$", "orders.dlq"));
  CHECK(matches("orders", "eu.orders.dlq"));  // unanchored: a search, as re:run
  CHECK(matches("^amq\\.", "amq.gen-1"));
  CHECK_FALSE(matches("^amq\\.", "amqx"));
  CHECK(matches(".*", "anything"));
  CHECK(matches("", "anything"));
  CHECK(matches("^(orders|audit)$", "audit"));
  CHECK_FALSE(matches("^(orders|audit)$", "auditor"));
  CHECK(matches("^invoices(\\.high)?$", "invoices.high"));
  CHECK_FALSE(matches("^invoices(\\.high)?$", "invoices.dead"));
  CHECK(matches("^q-[0-9]{2,3}$", "q-123"));
  CHECK_FALSE(matches("^q-[0-9]{2,3}$", "q-1234"));
  CHECK(matches("^[^.]+\\.dlq$", "orders.dlq"));
  CHECK_FALSE(matches("^[^.]+\\.dlq$", "eu.orders.dlq"));
  CHECK(matches("\\d+$", "shard-7"));
  // Linear whatever the pattern: the classic backtracking trap answers at once.
  CHECK_FALSE(matches("^(a+)+$", std::string(200, 'a') + "b"));
  for (std::string_view bad : {"(?=x)", "(a", "a)", "[z-a]", "\\1", "*a", "a{2000}"}) {
    Result<PolicyPattern> p = PolicyPattern::Compile(bad);
    CHECK_MESSAGE(!p.ok(), bad);
  }
  CHECK(PolicyPattern::Compile(std::string(1025, 'a')).status().message().find("at most 1024") != std::string::npos);
}

TEST_CASE("check rabbitmq definitions 4.x: policy precedence, argument override, DLX routes, defaults") {
  const std::string f = "rabbitmq-4x/definitions.json";
  Inventory inv = ReadFixtures("rabbitmq-definitions", {f});
  // The stream events.dlq dead-letters nothing and is not a queue the rules judge.
  CHECK(Ids(inv) == std::vector<std::string>{"/orders", "/orders.dlq", "/payments", "/payments.dlq", "/audit",
                                             "/notifications", "/reports", "/events.billing", "/events.shipping",
                                             "/emails", "/emails.retry"});
  const QueueConfig& orders = Queue(inv, "/orders");
  CHECK(orders.name == "orders");
  CHECK(orders.system == "rabbitmq-quorum");
  CHECK(orders.at == At(f, 46));
  // orders-retry (priority 10) over blanket-dlx (priority 0).
  CHECK(orders.policy.max_attempts == 6);  // delivery-limit 5: 6 deliveries
  CHECK(orders.policy.delivery_limit == DeliveryLimit::kExplicit);
  CHECK(SettingLine(orders, "maxAttempts") == 31);
  CHECK(orders.bounded);
  CHECK(orders.dead_letter_exchange == std::optional<std::string>("orders.dlx"));
  CHECK(orders.dead_letter_at == At(f, 30));
  CHECK(orders.dead_letter_exchange_exists);
  CHECK(orders.dead_letter_reaches == std::vector<std::string>{"/orders.dlq"});
  CHECK(orders.terminal == Terminal::kDeadLetter);
  CHECK(orders.dead_letter_to == "/orders.dlq");
  CHECK(orders.dead_letter_strategy == "at-least-once");
  CHECK(orders.overflow == "reject-publish");
  CHECK(orders.policy.lease_ms == 30 * 60'000);  // consumer_timeout's default
  // payments: its x-dead-letter-exchange "" overrides blanket-dlx; the default exchange routes by
  // the dead-letter routing key.
  const QueueConfig& payments = Queue(inv, "/payments");
  CHECK(payments.at == At(f, 49));
  CHECK(payments.policy.max_attempts == 4);
  CHECK(SettingLine(payments, "maxAttempts") == 55);
  CHECK(payments.dead_letter_exchange == std::optional<std::string>(""));
  CHECK(payments.dead_letter_at == At(f, 56));
  CHECK(payments.dead_letter_exchange_exists);
  CHECK(payments.dead_letter_to == "/payments.dlq");
  // audit: blanket-dlx's exchange was never declared; audit-at-least-once gives the strategy alone
  // (priority 5 over 0: only the highest-priority policy applies, so no DLX comes with it).
  const QueueConfig& audit = Queue(inv, "/audit");
  CHECK(audit.dead_letter_strategy == "at-least-once");
  CHECK(audit.overflow == "drop-head");
  CHECK_FALSE(audit.dead_letter_exchange.has_value());
  CHECK(audit.terminal == Terminal::kDropped);
  // notifications: no DLX on 4.x: the default delivery-limit of 20, then dropped.
  const QueueConfig& notifications = Queue(inv, "/notifications");
  CHECK(notifications.policy.delivery_limit == DeliveryLimit::kUnset4);
  CHECK(notifications.bounded);
  CHECK(notifications.policy.Budget() == 21);
  CHECK(notifications.policy.max_attempts == 21);
  CHECK(SettingLine(notifications, "deliveryLimit") == 2);  // rabbit_version
  CHECK(notifications.terminal == Terminal::kDropped);
  CHECK(notifications.drop_cause == "no dead-letter-exchange");
  CHECK(notifications.policy.dead_letter_exchange == DeadLetterExchange::kNone);
  // reports: its dead-letter exchange is not declared.
  const QueueConfig& reports = Queue(inv, "/reports");
  CHECK(reports.dead_letter_exchange == std::optional<std::string>("reports.dlx"));
  CHECK_FALSE(reports.dead_letter_exchange_exists);
  CHECK(reports.dead_letter_reaches.empty());
  CHECK(reports.terminal == Terminal::kDeadLetter);
  CHECK(reports.dead_letter_to.empty());
  CHECK(reports.dead_letter_at == At(f, 63));
  // A topic exchange (events.#), and an exchange-to-exchange binding into it.
  CHECK(Queue(inv, "/events.billing").dead_letter_reaches == std::vector<std::string>{"/events.dlq"});
  CHECK(Queue(inv, "/events.shipping").dead_letter_reaches == std::vector<std::string>{"/events.dlq"});
  CHECK(Queue(inv, "/events.shipping").notes.size() == 1);  // the stream
  // A TTL retry queue: emails dead-letters into emails.retry, which routes back into emails.
  const QueueConfig& retry = Queue(inv, "/emails.retry");
  CHECK(retry.retention_ms == std::optional<int64_t>(30000));
  CHECK(retry.retention_at == At(f, 93));
  CHECK(retry.policy.message_ttl_ms == 30000);
  CHECK(retry.routes_back_to == std::vector<std::string>{"/emails"});
  CHECK(Queue(inv, "/emails").dead_letter_to == "/emails.retry");
  CHECK(Queue(inv, "/orders").routes_back_to.empty());
}

TEST_CASE("check rabbitmq definitions: the blanket policy's missing exchange") {
  // blanket-dlx names dead-letters, which the export does not declare.
  const std::string text = R"J({"rabbit_version": "4.1.0",
  "policies": [{"vhost": "/", "name": "blanket", "pattern": ".*", "apply-to": "quorum_queues", "priority": 0,
                "definition": {"dead-letter-exchange": "dead-letters"}}],
  "queues": [{"name": "audit", "vhost": "/", "arguments": {"x-queue-type": "quorum"}}],
  "exchanges": [], "bindings": []})J";
  Inventory inv;
  REQUIRE(ReadText("rabbitmq-definitions", "defs.json", text, &inv).ok());
  const QueueConfig& audit = Queue(inv, "/audit");
  CHECK(audit.dead_letter_exchange == std::optional<std::string>("dead-letters"));
  CHECK_FALSE(audit.dead_letter_exchange_exists);
  CHECK(audit.dead_letter_reaches.empty());
  CHECK(audit.terminal == Terminal::kDeadLetter);
  CHECK(audit.dead_letter_to.empty());
  CHECK(audit.dead_letter_at == At("defs.json", 3));
}

TEST_CASE("check rabbitmq definitions 3.x: no default delivery-limit, classic queues, vhost default type") {
  const std::string f = "rabbitmq-3x/definitions.json";
  Inventory inv = ReadFixtures("rabbitmq-definitions", {f});
  const QueueConfig& jobs = Queue(inv, "/jobs");
  CHECK_FALSE(jobs.bounded);
  CHECK(jobs.policy.delivery_limit == DeliveryLimit::kUnset3);
  CHECK(jobs.unbounded_because.find("3.13.7") != std::string::npos);
  CHECK(jobs.dead_letter_to == "/jobs.dlq");  // direct, its routing key its own name
  const QueueConfig& legacy = Queue(inv, "/legacy");
  CHECK(legacy.policy.delivery_limit == DeliveryLimit::kClassicQueue);
  CHECK_FALSE(legacy.bounded);
  REQUIRE(legacy.notes.size() == 1);
  CHECK(legacy.notes[0].at == At(f, 18));
  CHECK(legacy.dead_letter_exchange_exists);
  CHECK(legacy.dead_letter_reaches.empty());  // jobs.dlx binds "jobs" only
  // billing's default_queue_type is quorum; the policy's pattern has a group.
  const QueueConfig& invoices = Queue(inv, "billing/invoices");
  CHECK(invoices.policy.max_attempts == 7);
  CHECK(invoices.bounded);
  CHECK(invoices.dead_letter_to == "billing/invoices.dead");
  CHECK(Queue(inv, "billing/invoices.dead").terminal == Terminal::kDropped);
}

TEST_CASE("check rabbitmq topology: Queue and Policy resources, several documents, inline skips") {
  const std::string f = "rabbitmq-operator/topology.yaml";
  Inventory inv = ReadFixtures("rabbitmq-topology", {f});
  CHECK(Ids(inv) == std::vector<std::string>{"/orders", "/orders.dlq", "/audit"});
  const QueueConfig& orders = Queue(inv, "/orders");
  CHECK(orders.policy.max_attempts == 11);
  CHECK(SettingLine(orders, "maxAttempts") == 12);
  CHECK(orders.dead_letter_to == "/orders.dlq");  // the default exchange needs no declaration
  // No version in the resources: a quorum queue without a delivery-limit is an Unknown.
  const QueueConfig& dlq = Queue(inv, "/orders.dlq");
  CHECK_FALSE(dlq.bounded);
  REQUIRE(dlq.unknowns.size() == 1);
  CHECK(dlq.unknowns[0].what.find("delivery-limit") != std::string::npos);
  const QueueConfig& audit = Queue(inv, "/audit");
  CHECK(audit.at.line == 42);  // its spec.name
  CHECK(orders.at.line == 8);
  CHECK(audit.policy.max_attempts == 3);
  CHECK(SettingLine(audit, "maxAttempts") == 59);
  CHECK(audit.terminal == Terminal::kUnknown);  // audit.dlx is declared outside this file
  REQUIRE(audit.unknowns.size() == 1);
  CHECK(audit.unknowns[0].at == At(f, 58));
  REQUIRE(audit.skips.size() == 1);
  CHECK(audit.skips[0].rule == "DLQ-EXISTS");
  CHECK(audit.skips[0].reason == "audit events are best-effort");
  CHECK(audit.skips[0].line == 41);
  CHECK(orders.skips.empty());
}

TEST_CASE("check sidekiq 7: retry_for is the policy's window, and a sidekiq_retries_exhausted :discard drops the job") {
  Inventory inv = ReadFixtures(
      "sidekiq-ruby",
      {"sidekiq-7/app/jobs/payment_job.rb", "sidekiq-7/app/jobs/webhook_job.rb", "sidekiq-7/app/jobs/notify_job.rb"});
  JoinInventory(&inv);
  // "retry_for and retry are mutually exclusive" (job_retry.rb, 8.1.0): retry: 3 is not read beside it.
  const QueueConfig& payment = Queue(inv, "PaymentJob");
  CHECK(payment.policy.retry_for_ms == 48LL * 3600 * 1000);
  CHECK(payment.policy.Budget() == kMaxAttemptsField.max);
  CHECK(SettingLine(payment, "maxAttempts") == 0);
  CHECK(payment.terminal == Terminal::kKeptHere);
  const QueueConfig& webhook = Queue(inv, "WebhookJob");
  CHECK(webhook.policy.retry_for_ms == 30'000);
  CHECK(webhook.terminal == Terminal::kKeptHere);
  // "discarded = msg["dead"] == false || rv == :discard" (job_retry.rb, retries_exhausted; 7.2.0).
  const QueueConfig& notify = Queue(inv, "NotifyJob");
  CHECK(notify.policy.discard_on_exhausted);
  CHECK(SettingLine(notify, "discardOnExhausted") == 7);
  CHECK(notify.terminal == Terminal::kDropped);
  CHECK(notify.drop_cause == "sidekiq_retries_exhausted returns :discard");
  CHECK(notify.policy.max_attempts == 6);
  // A block that returns something else, a :discarded symbol or a "string", is not a discard.
  Inventory other;
  REQUIRE(ReadText("sidekiq-ruby", "x.rb",
                   "class X\n  include Sidekiq::Job\n  sidekiq_retries_exhausted do |msg, ex|\n    log(\":discard\")\n"
                   "    :discarded\n  end\n  def perform; end\nend\n",
                   &other)
              .ok());
  REQUIRE(other.queues.size() == 1);
  CHECK_FALSE(other.queues[0].policy.discard_on_exhausted);
  CHECK(other.queues[0].terminal == Terminal::kKeptHere);
  // A one-line block.
  Inventory inline_block;
  REQUIRE(ReadText("sidekiq-ruby", "y.rb",
                   "class Y\n  include Sidekiq::Job\n  sidekiq_retries_exhausted { |msg, ex| :discard }\nend\n",
                   &inline_block)
              .ok());
  REQUIRE(inline_block.queues.size() == 1);
  CHECK(inline_block.queues[0].policy.discard_on_exhausted);
}

TEST_CASE("check sidekiq: sidekiq.yml and job classes, joined") {
  Inventory inv = ReadFixtures("sidekiq-yml", {"sidekiq/config/sidekiq.yml"});
  inv = ReadFixtures("sidekiq-ruby",
                     {"sidekiq/app/jobs/hard_job.rb", "sidekiq/app/jobs/default_job.rb",
                      "sidekiq/app/jobs/fire_and_forget_job.rb", "sidekiq/app/jobs/billing/charge_job.rb"},
                     std::move(inv));
  JoinInventory(&inv);
  CHECK(Ids(inv) == std::vector<std::string>{"HardJob", "DefaultJob", "FireAndForgetJob", "Billing::ChargeJob"});
  const std::string yml = "sidekiq/config/sidekiq.yml";
  const QueueConfig& hard = Queue(inv, "HardJob");
  CHECK(hard.system == "sidekiq");
  CHECK(hard.at == At("sidekiq/app/jobs/hard_job.rb", 3));
  CHECK(hard.policy.max_attempts == 6);  // retry: 5, then the Dead set
  CHECK(SettingLine(hard, "maxAttempts") == 5);
  CHECK_FALSE(hard.default_retries);
  CHECK(hard.terminal == Terminal::kKeptHere);
  CHECK(hard.policy.dead_max_jobs == 50000);
  CHECK(SettingLine(hard, "deadMaxJobs") == 7);
  CHECK(hard.policy.retention_ms == 2'592'000'000);
  // No options: the process's max_retries (12) applies.
  const QueueConfig& plain = Queue(inv, "DefaultJob");
  CHECK(plain.default_retries);
  CHECK(plain.policy.max_attempts == 13);
  REQUIRE(SettingLine(plain, "maxAttempts") == 6);
  CHECK(plain.settings.back().second.file == yml);
  const QueueConfig& fire = Queue(inv, "FireAndForgetJob");
  CHECK(fire.policy.max_attempts == 1);
  CHECK(fire.terminal == Terminal::kDropped);
  CHECK(fire.drop_cause == "retry: false");
  REQUIRE(fire.notes.size() == 1);  // lock: a plugin's option
  CHECK(fire.notes[0].text.find("lock") != std::string::npos);
  // retry_for over several lines: the policy's window (retryForMs), which replaces the count (8.1.0).
  const QueueConfig& charge = Queue(inv, "Billing::ChargeJob");
  CHECK(charge.at.line == 2);
  CHECK(charge.retry_for_ms == std::optional<int64_t>(48LL * 3600 * 1000));
  CHECK(charge.policy.retry_for_ms == 48LL * 3600 * 1000);
  CHECK(charge.retry_for_at.line == 5);
  CHECK(SettingLine(charge, "retryForMs") == 5);
  CHECK(charge.policy.Budget() == kMaxAttemptsField.max);  // max_retries (12) is not applied either
  CHECK_FALSE(charge.default_retries);
  CHECK(charge.terminal == Terminal::kDropped);
  CHECK(charge.drop_cause == "dead: false");
  REQUIRE(charge.notes.size() == 1);
  CHECK(charge.notes[0].text.find("custom schedule, not read") != std::string::npos);
  CHECK(charge.notes[0].at.line == 9);
  // ... and the schedule is an Unknown: the retry rules say so instead of playing Sidekiq's own.
  REQUIRE(charge.unknowns.size() == 1);
  CHECK(charge.unknowns[0].what == "sidekiq_retry_in (custom schedule, not read)");
  CHECK(charge.unknowns[0].field == "policy");
  CHECK(charge.unknowns[0].at.line == 9);
  REQUIRE(charge.skips.size() == 1);
  CHECK(charge.skips[0].rule == "RETRY-OUTLASTS-OUTAGE");
  CHECK(charge.skips[0].line == 4);
}

TEST_CASE("check sidekiq: without sidekiq.yml, Sidekiq's defaults") {
  Inventory inv;
  REQUIRE(ReadText("sidekiq-ruby", "app/jobs/a.rb", "class A\n  include Sidekiq::Worker\nend\n", &inv).ok());
  JoinInventory(&inv);
  const QueueConfig& a = Queue(inv, "A");
  CHECK(a.policy.max_attempts == 26);  // 25 retries
  CHECK(a.policy.dead_max_jobs == 10'000);
  CHECK(a.policy.retention_ms == 180LL * 24 * 3600 * 1000);
  CHECK(a.terminal == Terminal::kKeptHere);
}

TEST_CASE("check bullmq: job options alone, defaultJobOptions with the Worker's settings, a custom backoff") {
  Inventory inv =
      ReadFixtures("bullmq-options", {"bullmq/emails.json", "bullmq/reports.queue.json", "bullmq/webhooks.json"});
  CHECK(Ids(inv) == std::vector<std::string>{"emails", "reports", "webhooks"});
  const QueueConfig& emails = Queue(inv, "emails");
  CHECK(emails.system == "bullmq");
  CHECK(emails.policy.max_attempts == 5);
  CHECK(emails.policy.backoff.kind == BackoffKind::kExponential);
  CHECK(emails.policy.backoff.base_ms == 1000);
  CHECK(emails.policy.backoff.jitter == Jitter::kBullMq);
  CHECK(emails.policy.backoff.jitter_permille == 500);
  CHECK(SettingLine(emails, "backoff.kind") == 3);
  CHECK(emails.policy.retention_ms == 604'800'000);
  CHECK(SettingLine(emails, "quarantine.retentionMs") == 5);
  CHECK(emails.terminal == Terminal::kKeptHere);
  REQUIRE(emails.notes.size() == 1);  // removeOnComplete
  const QueueConfig& reports = Queue(inv, "reports");
  CHECK(reports.at.line == 4);
  CHECK(reports.policy.max_attempts == 3);
  CHECK(reports.policy.backoff.kind == BackoffKind::kFixed);
  CHECK(reports.policy.backoff.base_ms == 2000);
  CHECK(reports.policy.max_stalled_count == 2);
  CHECK(SettingLine(reports, "maxStalledCount") == 10);
  CHECK(reports.policy.lease_ms == 60000);
  CHECK(reports.terminal == Terminal::kDropped);
  CHECK(reports.drop_cause == "removeOnFail: true");
  const QueueConfig& webhooks = Queue(inv, "webhooks");
  CHECK(webhooks.policy.max_attempts == 8);
  CHECK(webhooks.policy.max_stalled_count == 0);
  REQUIRE(webhooks.unknowns.size() == 1);
  CHECK(webhooks.unknowns[0].what.find("webhookBackoff") != std::string::npos);
  CHECK(webhooks.unknowns[0].at.line == 5);
}

TEST_CASE("check broker readers: bad input is an error naming the file and the line") {
  auto has = [](const std::string& message, std::string_view part) {
    CHECK_MESSAGE(message.find(part) != std::string::npos, message);
  };
  std::string e = ErrorOf("rabbitmq-definitions", "d.json", R"J({"rabbit_version": "4.0.1",
  "queues": [{"name": "q", "vhost": "/", "arguments": {"x-queue-type": "quorum",
     "x-delivery-limit": "many"}}], "exchanges": []})J");
  has(e, "d.json:3: ");
  has(e, "delivery-limit");
  e = ErrorOf("rabbitmq-definitions", "d.json", R"J({"rabbit_version": "4.0.1", "exchanges": [],
  "policies": [{"name": "p", "vhost": "/",
    "pattern": "^(?=x)", "definition": {}}], "queues": []})J");
  has(e, "d.json:3: policy p pattern");
  e = ErrorOf("rabbitmq-definitions", "d.json", R"J({"rabbit_version": "4.0.1", "exchanges": [],
  "queues": [{"name": "q", "arguments": {"x-queue-type": "quorum", "x-overflow": "drop-tail"}}]})J");
  has(e, "d.json:2: overflow: expected one of \"drop-head\"");
  e = ErrorOf("rabbitmq-definitions", "d.json", R"J({"rabbit_version": "four", "queues": []})J");
  has(e, "d.json:1: rabbit_version");
  e = ErrorOf("sidekiq-ruby", "app/jobs/x.rb",
              "class X\n  include Sidekiq::Job\n  sidekiq_options retry: \"many\"\nend\n");
  has(e, "app/jobs/x.rb:3: retry");
  e = ErrorOf("sidekiq-ruby", "app/jobs/x.rb", "class X\n  sidekiq_options retry_for: soon\nend\n");
  has(e, "app/jobs/x.rb:2: retry_for");
  e = ErrorOf("sidekiq-yml", "config/sidekiq.yml", ":concurrency: 5\n:max_retries: -1\n");
  has(e, "config/sidekiq.yml:2: :max_retries: expected a whole number");
  e = ErrorOf("bullmq-options", "bull.json", "{\n  \"attempts\": 0\n}");
  has(e, "bull.json:2: attempts");
  e = ErrorOf("bullmq-options", "bull.json", "{\n  \"attempts\": 3,\n  \"atempts\": 4\n}");
  has(e, "bull.json:3: atempts");
  // A document that does not parse: its line counted from the file's start.
  e = ErrorOf("rabbitmq-topology", "t.yaml",
              "apiVersion: rabbitmq.com/v1beta1\nkind: Queue\nspec:\n  name: a\n---\napiVersion: rabbitmq.com/v1beta1\n"
              "kind: Queue\nspec:\n  name: [b\n");
  has(e, "t.yaml:10: ");  // the end of the file, where the parser finds the bracket unclosed
  // Hostile streams are refused by their count, at once.
  std::string many;
  for (int i = 0; i < 20'000; ++i) many += "---\n";
  e = ErrorOf("rabbitmq-topology", "t.yaml", "apiVersion: rabbitmq.com/v1beta1\nkind: Queue\n" + many);
  has(e, "t.yaml:10003: expected at most 10,000 YAML documents");
  std::string classes;
  for (int i = 0; i < 100'001; ++i) classes += "class C" + std::to_string(i) + "\nend\n";
  e = ErrorOf("sidekiq-ruby", "app/jobs/x.rb", "# Sidekiq::Job\n" + classes);
  has(e, "app/jobs/x.rb:200002: expected at most 100,000 classes");
  std::string nested;
  for (int i = 0; i < 65; ++i) nested += std::string(static_cast<size_t>(i), ' ') + "module M\n";
  e = ErrorOf("sidekiq-ruby", "app/jobs/x.rb", "# Sidekiq::Job\n" + nested);
  has(e, "app/jobs/x.rb:66: expected classes and modules nested at most 64 deep");
}

// Inputs the reader harnesses found (tests/fuzz/regressions/check-sidekiq-ruby/): refused with a
// file and line, never read into a queue without a name or a report that is not UTF-8.
TEST_CASE("check sidekiq ruby: hostile input found by the fuzz harness is refused with a line") {
  std::string e = ErrorOf("sidekiq-ruby", "app/jobs/x.rb",
                          "class X\n  include Sidekiq::Job\n  sidekiq_options queue: \"q\xff\"\nend\n");
  CHECK(e == "app/jobs/x.rb:3: expected UTF-8 text, got a byte sequence that is not UTF-8");
  e = ErrorOf("sidekiq-ruby", "app/jobs/x.rb", "class& X\n  include Sidekiq::Job\nend\n");
  CHECK(e == "app/jobs/x.rb:1: class: expected a constant name (Billing::ChargeJob), got \"& X\"");
  e = ErrorOf("sidekiq-ruby", "app/jobs/x.rb",
              "module Billing\n  class ::\n    sidekiq_options retry: 3\n  end\nend\n");
  CHECK(e == "app/jobs/x.rb:2: class: expected a constant name (Billing::ChargeJob), got \"::\"");
  // A class's name after `class` still reads as before (`class << self` is no class).
  Inventory read;
  Status ok = ReadText("sidekiq-ruby", "app/jobs/x.rb",
                       "class ::Top < ApplicationJob\n  include Sidekiq::Job\n  class << self\n  end\nend\n", &read);
  REQUIRE_MESSAGE(ok.ok(), ok.message());
  CHECK(Ids(read) == std::vector<std::string>{"::Top"});
}

std::string FixtureText(const std::string& path) {
  std::ifstream in(std::filesystem::path(DLQ_SOURCE_DIR) / "tests/fixtures/check" / path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const Finding* FindingFor(const Report& report, std::string_view rule, std::string_view queue) {
  for (const Finding& f : report.findings) {
    if (f.rule == rule && f.queue == queue) return &f;
  }
  return nullptr;
}

TEST_CASE("check broker fixtures: each file's format is detected, and Check() judges them together") {
  const std::vector<std::pair<std::string, std::string>> fixtures = {
      {"rabbitmq-4x/definitions.json", "rabbitmq-definitions"},
      {"rabbitmq-3x/definitions.json", "rabbitmq-definitions"},
      {"rabbitmq-operator/topology.yaml", "rabbitmq-topology"},
      {"sidekiq/config/sidekiq.yml", "sidekiq-yml"},
      {"sidekiq/app/jobs/hard_job.rb", "sidekiq-ruby"},
      {"sidekiq/app/jobs/billing/charge_job.rb", "sidekiq-ruby"},
      {"bullmq/emails.json", "bullmq-options"},
      {"bullmq/reports.queue.json", "bullmq-options"}};
  for (const auto& fixture : fixtures) {
    CHECK_MESSAGE(DetectFormat(fixture.first, FixtureText(fixture.first)) == fixture.second, fixture.first);
  }
  // One run per system (the topology's queues share ids with the 4.x export's).
  for (std::vector<std::string> paths :
       {std::vector<std::string>{"rabbitmq-4x/definitions.json"},
        std::vector<std::string>{"rabbitmq-3x/definitions.json"},
        std::vector<std::string>{"rabbitmq-operator/topology.yaml"},
        std::vector<std::string>{"sidekiq/config/sidekiq.yml", "sidekiq/app/jobs/hard_job.rb",
                                 "sidekiq/app/jobs/default_job.rb", "sidekiq/app/jobs/fire_and_forget_job.rb",
                                 "sidekiq/app/jobs/billing/charge_job.rb"},
        std::vector<std::string>{"bullmq/emails.json", "bullmq/reports.queue.json", "bullmq/webhooks.json"}}) {
    std::vector<SourceFile> files;
    for (const std::string& p : paths) files.push_back({p, FixtureText(p)});
    Result<Report> report = Check(files, {});
    REQUIRE_MESSAGE(report.ok(), report.status().message());
    CHECK(!report->queues.empty());
  }
  // The sidekiq.yml's max_retries reaches DefaultJob through Check() (JoinInventory).
  std::vector<SourceFile> files = {{"sidekiq/config/sidekiq.yml", FixtureText("sidekiq/config/sidekiq.yml")},
                                   {"sidekiq/app/jobs/default_job.rb", FixtureText("sidekiq/app/jobs/default_job.rb")}};
  Result<Report> report = Check(files, {});
  REQUIRE(report.ok());
  REQUIRE(report->queues.size() == 1);
  CHECK(report->queues[0].attempts == std::optional<int64_t>(13));
  // RabbitMQ 4.x: the rules see the missing exchange and the dropped dead letters.
  files = {{"rabbitmq-4x/definitions.json", FixtureText("rabbitmq-4x/definitions.json")}};
  report = Check(files, {});
  REQUIRE(report.ok());
  const Finding* unbound = FindingFor(report.value(), "RMQ-DLX-BOUND", "reports");
  REQUIRE(unbound != nullptr);
  CHECK_FALSE(unbound->skipped);
  CHECK(unbound->at.line == 63);
  CHECK(FindingFor(report.value(), "DLQ-EXISTS", "notifications") != nullptr);
}

TEST_CASE("check rabbitmq definitions 4.3: delayed-retry-* from policies and x- arguments, on quorum queues only") {
  // rabbitmq.com/docs/quorum-queues, "Delayed retry": delayed-retry-type, delayed-retry-min, delayed-retry-max
  // (policy keys and x- queue arguments), "the delay is min(delayed-retry-min x delivery_count, delayed-retry-max)".
  const std::string f = "rabbitmq-43/definitions.json";
  Inventory inv = ReadFixtures("rabbitmq-definitions", {f});
  const QueueConfig& orders = Queue(inv, "/orders");  // from its policy
  CHECK(orders.policy.delayed_retry_type == DelayedRetryType::kFailed);
  CHECK(orders.policy.delayed_retry_min_ms == 1000);
  CHECK(orders.policy.delayed_retry_max_ms == 30000);
  CHECK(orders.policy.max_attempts == 6);
  CHECK(SettingLine(orders, "delayedRetryType") == 24);
  CHECK(SettingLine(orders, "delayedRetryMaxMs") == 26);
  const QueueConfig& payments = Queue(inv, "/payments");  // from its x- arguments
  CHECK(payments.policy.delayed_retry_type == DelayedRetryType::kAll);
  CHECK(payments.policy.delayed_retry_min_ms == 3'600'000);
  CHECK(payments.policy.delayed_retry_max_ms == 86'400'000);
  CHECK(SettingLine(payments, "delayedRetryMinMs") == 44);
  // reports: a classic queue reads no delayed-retry key; each gets a note, nothing is set.
  const QueueConfig& reports = Queue(inv, "/reports");
  CHECK(reports.policy.delayed_retry_type == DelayedRetryType::kDisabled);
  REQUIRE(reports.notes.size() == 3);
  CHECK(reports.notes[0].text ==
        "delayed-retry-type is read by RabbitMQ 4.3 quorum queues only (this is a classic queue); it is ignored");
  CHECK(reports.notes[0].at == At(f, 58));
  // The same file named 4.2: the keys are ignored with a note naming the version.
  std::string text = FixtureText(f);
  for (size_t at = text.find("4.3.0"); at != std::string::npos; at = text.find("4.3.0")) text.replace(at, 5, "4.2.1");
  Inventory older;
  REQUIRE(ReadText("rabbitmq-definitions", f, text, &older).ok());
  const QueueConfig& old_orders = Queue(older, "/orders");
  CHECK(old_orders.policy.delayed_retry_type == DelayedRetryType::kDisabled);
  REQUIRE_FALSE(old_orders.notes.empty());
  CHECK(old_orders.notes[0].text ==
        "delayed-retry-type is read by RabbitMQ 4.3 quorum queues only (this file's rabbit_version is 4.2.1); it is "
        "ignored");
  // The rules judge the 4.3 delays: orders' 1 to 5 s pass BACKOFF-CAP (maxDelay 1 h), payments' 1, 2, 3 h do not.
  const std::vector<SourceFile> files = {{f, FixtureText(f)}};
  Result<Report> report = Check(files, {});
  REQUIRE_MESSAGE(report.ok(), report.status().message());
  CHECK(FindingFor(report.value(), "BACKOFF-CAP", "orders") == nullptr);
  const Finding* cap = FindingFor(report.value(), "BACKOFF-CAP", "payments");
  REQUIRE(cap != nullptr);
  CHECK(cap->message.find("attempt 3 waits up to 3 h") != std::string::npos);
}

}  // namespace
}  // namespace dlq::check::check_brokers_test
