// The checker's rules (core/check/rules/) over inventories built here, no parser needed:
// every rule has a case that fails and one that passes, with the computed path in its
// message; the join across files, the skips, the summaries, the order of findings, the
// exit codes, and links that load back into the policy read.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "check.h"
#include "document.h"
#include "link.h"
#include "link_text.h"
#include "readers/readers.h"
#include "scenario.h"

using namespace dlq;
using namespace dlq::check;

namespace check_rules_test {

namespace {

Location At(int line, const char* file = "main.tf.json") { return Location{file, line, 0}; }

// An SQS queue as a reader fills it: the visibility timeout as lease (and delay), a redrive
// policy to `dlq` with maxReceiveCount `receives`, 4 days' retention (SQS's default).
QueueConfig Sqs(const std::string& name, int line, const std::string& dlq = "", int64_t receives = 5) {
  QueueConfig q;
  q.id = "aws_sqs_queue." + name;
  q.name = name;
  q.system = "sqs";
  q.at = At(line);
  q.policy.system = System::kSqs;
  q.policy.lease_ms = 30'000;
  q.policy.max_attempts = receives;
  q.fifo = false;
  q.retention_ms = 4 * 86'400'000LL;
  q.retention_at = At(line + 1);
  q.retention_from_first_enqueue = true;
  if (dlq.empty()) {
    q.bounded = false;
    q.unbounded_because = "no redrive_policy";
    q.terminal = Terminal::kDropped;
    q.drop_cause = "no redrive_policy: deleted at the end of its retention";
  } else {
    q.terminal = Terminal::kDeadLetter;
    q.dead_letter_to = "aws_sqs_queue." + dlq;
    q.dead_letter_at = At(line + 2);
  }
  return q;
}

Inventory SourceAndDlq(int64_t receives = 5) {
  Inventory inv;
  inv.queues.push_back(Sqs("orders", 10, "orders-dlq", receives));
  QueueConfig dlq = Sqs("orders-dlq", 30);
  dlq.retention_ms = 14 * 86'400'000LL;
  inv.queues.push_back(dlq);
  inv.alarms.push_back(DepthAlarm{"orders-dlq", At(50)});
  return inv;
}

QueueConfig Rabbit(const std::string& name, int line) {
  QueueConfig q;
  q.id = "/" + name;
  q.name = name;
  q.system = "rabbitmq-quorum";
  q.at = At(line, "definitions.json");
  q.policy.system = System::kRabbitMqQuorum;
  q.policy.max_attempts = 21;
  q.policy.delivery_limit = DeliveryLimit::kUnset4;
  q.dead_letter_exchange = "dlx";
  q.dead_letter_exchange_exists = true;
  q.dead_letter_reaches = {"/" + name + "-dlq"};
  q.dead_letter_at = At(line + 1, "definitions.json");
  return q;
}

Report Run(const Inventory& inv, const CheckOptions& options = {}) {
  Result<Report> report = Judge(inv, options);
  REQUIRE_MESSAGE(report.ok(), report.status().ToString());
  return report.value();
}

// Copies: the report is often a temporary.
std::vector<Finding> Of(const Report& report, const std::string& rule) {
  std::vector<Finding> out;
  for (const Finding& f : report.findings) {
    if (f.rule == rule) out.push_back(f);
  }
  return out;
}

// The policy a finding's link plays, read back through the v2 reader.
Policy LinkedPolicy(const Finding& f) {
  size_t hash = f.link.find("#v2");
  REQUIRE(hash != std::string::npos);
  Result<Scenario> back = ParseScenario(f.link.substr(hash + 1));
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  const std::string body = f.link.substr(hash + 3);  // past "#v2": what ReadV2 reads
  link::Reader in(body);
  Result<Scenario> v2 = link::ReadV2(in);
  REQUIRE_MESSAGE(v2.ok(), v2.status().ToString());
  CHECK(v2->policy == back->policy);
  CHECK(back->world.outage_end > back->world.outage_start);  // the job fails through an outage
  Result<Queue> played = RunScenario(back.value());
  CHECK_MESSAGE(played.ok(), played.status().ToString());
  return back->policy;
}

}  // namespace

TEST_CASE("check rules: a well-kept SQS source with its DLQ passes every rule but JITTER") {
  // Eleven receives: ten waits of the 30 s visibility timeout outlast the 5 min outage.
  Report report = Run(SourceAndDlq(11));
  for (const Finding& f : report.findings) CHECK_MESSAGE(f.rule == "JITTER", f.rule << ": " << f.message);
  REQUIRE(Of(report, "JITTER").size() == 1);
  CHECK(report.errors == 0);
  CHECK(report.warnings == 1);
  REQUIRE(report.queues.size() == 2);
  CHECK(report.queues[0].dlq == "orders-dlq");
  CHECK(report.queues[0].attempts == 11);
  // Eleven receives, each holding its 30 s visibility timeout, ten waits of the timeout again.
  CHECK(report.queues[0].worst_case_ms == 11 * 30'000 + 10 * 30'000);
  CHECK(report.queues[1].attempts == std::nullopt);  // the DLQ has no redrive: unbounded
}

TEST_CASE("check rules: DLQ-EXISTS fails a dropped terminal, passes a DLQ and a kept set, spares a DLQ") {
  Inventory inv;
  inv.queues.push_back(Sqs("audit", 5));
  QueueConfig job;
  job.id = "HardJob";
  job.name = "HardJob";
  job.system = "sidekiq";
  job.at = At(3, "app/jobs/hard_job.rb");
  job.policy.system = System::kSidekiq;
  job.policy.max_attempts = 1;
  job.policy.skip_dead_set = true;
  job.terminal = Terminal::kDropped;
  job.drop_cause = "retry: false";
  job.dead_letter_at = At(4, "app/jobs/hard_job.rb");
  inv.queues.push_back(job);
  Report report = Run(inv);
  auto exists = Of(report, "DLQ-EXISTS");
  REQUIRE(exists.size() == 2);
  const Finding& sidekiq = exists[0];  // app/… sorts before main.tf.json
  CHECK(sidekiq.queue == "HardJob");
  CHECK(sidekiq.level == Level::kError);
  CHECK(sidekiq.at == At(4, "app/jobs/hard_job.rb"));
  CHECK(sidekiq.message == "a message that fails for good is dropped: attempt 1 at 30 s → dropped (retry: false)");
  CHECK(LinkedPolicy(sidekiq) == job.policy);

  const Finding& sqs = exists[1];  // no redrive policy: no attempt limit, no DLQ
  CHECK(sqs.message ==
        "a message that fails for good is dropped: retried without an attempt limit (no redrive_policy), then → "
        "dropped (no redrive_policy: deleted at the end of its retention)");

  Report good = Run(SourceAndDlq());
  CHECK(Of(good, "DLQ-EXISTS").empty());  // orders has a DLQ; orders-dlq is one (no redrive of its own)
  inv.queues[1].terminal = Terminal::kKeptHere;
  inv.queues[1].policy.skip_dead_set = false;
  CHECK(Of(Run(inv), "DLQ-EXISTS").size() == 1);  // only audit now
}

TEST_CASE("check rules: DLQ-EXISTS notes an unknown terminal and a DLQ not among the files, never passes them") {
  Inventory inv;
  QueueConfig q = Sqs("orders", 10, "orders-dlq");
  q.terminal = Terminal::kUnknown;
  q.unknowns.push_back(Unknown{"redrive_policy.deadLetterTargetArn (known after apply)", At(12), "terminal"});
  inv.queues.push_back(q);
  inv.queues.push_back(Sqs("billing", 40, "billing-dlq"));
  Report report = Run(inv);
  auto notes = Of(report, "DLQ-EXISTS");
  REQUIRE(notes.size() == 2);
  CHECK(notes[0].level == Level::kNote);
  CHECK(notes[0].message ==
        "where a failing message ends is not known: redrive_policy.deadLetterTargetArn (known after apply)");
  CHECK(notes[1].level == Level::kNote);
  CHECK(notes[1].message.find("its DLQ aws_sqs_queue.billing-dlq is not among the files read") == 0);
  CHECK(report.errors == 0);
  CHECK(report.notes == 2);
}

TEST_CASE("check rules: DLQ-EXISTS never passes an unknown terminal, whatever field its unknowns name") {
  Inventory inv;
  inv.queues.push_back(Sqs("refunds", 10, "refunds-dlq"));
  inv.queues[0].terminal = Terminal::kUnknown;
  inv.queues[0].unknowns.push_back(Unknown{"RedrivePolicy (an Fn::ImportValue)", At(14), "policy"});
  auto found = Of(Run(inv), "DLQ-EXISTS");
  REQUIRE(found.size() == 1);
  CHECK(found[0].level == Level::kNote);
  CHECK(found[0].message == "where a failing message ends is not known: RedrivePolicy (an Fn::ImportValue)");
  inv.queues[0].unknowns.clear();
  found = Of(Run(inv), "DLQ-EXISTS");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message == "where a failing message ends is not known: the file does not say");
  CHECK(found[0].at == At(12));
}

TEST_CASE("check rules: the join resolves a DLQ named by ARN in another file") {
  Inventory inv = SourceAndDlq();
  inv.queues[0].dead_letter_to = "arn:aws:sqs:eu-west-1:123456789012:orders-dlq";
  inv.queues[1].at = At(3, "dlq.yml");
  Report report = Run(inv);
  CHECK(report.queues[0].dlq == "orders-dlq");
  CHECK(Of(report, "DLQ-EXISTS").empty());
  CHECK(Of(report, "DLQ-ALARM").empty());
}

TEST_CASE("check rules: DLQ-DEAD-END fails a DLQ that redrives back into its source") {
  Inventory inv = SourceAndDlq();
  CHECK(Of(Run(inv), "DLQ-DEAD-END").empty());
  inv.queues[1].routes_back_to.push_back("aws_sqs_queue.orders");
  inv.queues[1].dead_letter_at = At(33);
  auto found = Of(Run(inv), "DLQ-DEAD-END");
  REQUIRE(found.size() == 1);
  CHECK(found[0].queue == "orders");
  CHECK(found[0].at == At(33));
  CHECK(found[0].message ==
        "its DLQ orders-dlq routes back into orders: attempt 5 at 4 min 30 s → orders-dlq → orders again, a poison "
        "message loops");
}

TEST_CASE("check rules: two queues dead-lettering into each other: the first is the source, the loop reported once") {
  Inventory inv;
  inv.queues.push_back(Rabbit("emails", 10));
  inv.queues[0].dead_letter_reaches = {"/emails.retry"};
  inv.queues.push_back(Rabbit("emails.retry", 20));
  inv.queues[1].dead_letter_reaches = {"/emails"};
  Report report = Run(inv);
  auto found = Of(report, "DLQ-DEAD-END");
  REQUIRE(found.size() == 1);
  CHECK(found[0].queue == "emails");
  CHECK(found[0].at == At(21, "definitions.json"));
  CHECK(found[0].message.find("its DLQ emails.retry routes back into emails: attempt 21 at ") == 0);
  // The source is judged as one (its retries), the retry queue as its DLQ (no retry rules).
  CHECK(Of(report, "JITTER").size() == 1);
  CHECK(Of(report, "JITTER")[0].queue == "emails");
}

TEST_CASE("check rules: DLQ-RETENTION fails a DLQ that keeps no longer than its source") {
  Inventory inv = SourceAndDlq();
  CHECK(Of(Run(inv), "DLQ-RETENTION").empty());
  inv.queues[1].retention_ms = 4 * 86'400'000LL;
  auto found = Of(Run(inv), "DLQ-RETENTION");
  REQUIRE(found.size() == 1);
  CHECK(found[0].level == Level::kError);
  CHECK(found[0].at == At(31));
  CHECK(found[0].message ==
        "orders-dlq keeps a message 4 d, no longer than orders (4 d); it counts from the first enqueue, so a "
        "message that spent up to 4 d in orders may be gone when it is looked at");
  inv.queues[1].retention_ms.reset();
  inv.queues[1].unknowns.push_back(Unknown{"message_retention_seconds (known after apply)", At(31), "retention_ms"});
  found = Of(Run(inv), "DLQ-RETENTION");
  REQUIRE(found.size() == 1);
  CHECK(found[0].level == Level::kNote);
}

TEST_CASE("check rules: DLQ-TYPE-MATCH fails a FIFO source with a standard DLQ") {
  Inventory inv = SourceAndDlq();
  CHECK(Of(Run(inv), "DLQ-TYPE-MATCH").empty());
  inv.queues[0].fifo = true;
  auto found = Of(Run(inv), "DLQ-TYPE-MATCH");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message == "orders is a FIFO queue but its DLQ orders-dlq is a standard queue");
  CHECK(found[0].at == At(12));
}

TEST_CASE("check rules: DLQ-ALARM warns on an SQS DLQ nothing watches") {
  Inventory inv = SourceAndDlq();
  CHECK(Of(Run(inv), "DLQ-ALARM").empty());
  inv.alarms.clear();
  auto found = Of(Run(inv), "DLQ-ALARM");
  REQUIRE(found.size() == 1);
  CHECK(found[0].queue == "orders-dlq");
  CHECK(found[0].level == Level::kWarning);
}

TEST_CASE("check rules: RMQ-DLX-BOUND fails a missing exchange and one that reaches no queue") {
  Inventory inv;
  inv.queues.push_back(Rabbit("orders", 10));
  inv.queues.push_back(Rabbit("orders-dlq", 20));
  inv.queues[1].dead_letter_exchange.reset();
  inv.queues[1].dead_letter_reaches.clear();
  inv.queues[1].terminal = Terminal::kDropped;
  inv.queues[1].drop_cause = "no dead-letter-exchange";
  Report good = Run(inv);
  CHECK(Of(good, "RMQ-DLX-BOUND").empty());
  CHECK(Of(good, "DLQ-EXISTS").empty());  // orders-dlq is a DLQ: the graph says so
  CHECK(good.queues[0].dlq == "orders-dlq");

  inv.queues[0].dead_letter_reaches.clear();
  auto found = Of(Run(inv), "RMQ-DLX-BOUND");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message.find("dead-letter exchange dlx reaches no queue: attempt 21 at ") == 0);
  inv.queues[0].dead_letter_exchange_exists = false;
  found = Of(Run(inv), "RMQ-DLX-BOUND");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message.find("dead-letter exchange dlx does not exist") == 0);
  // An exchange the file cannot resolve (declared outside it) is a note naming it, not a failure.
  inv.queues[0].terminal = Terminal::kUnknown;
  inv.queues[0].unknowns.push_back(
      {"dead-letter-exchange \"dlx\" (declared outside this file: where it routes is not known)", inv.queues[0].at,
       "dead_letter_to"});
  found = Of(Run(inv), "RMQ-DLX-BOUND");
  REQUIRE(found.size() == 1);
  CHECK(found[0].level == Level::kNote);
  CHECK(found[0].message ==
        "whether its dead-letter exchange reaches a queue is not known: dead-letter-exchange \"dlx\" "
        "(declared outside this file: where it routes is not known)");
}

TEST_CASE("check rules: RMQ-AT-LEAST-ONCE needs overflow reject-publish") {
  Inventory inv;
  inv.queues.push_back(Rabbit("orders", 10));
  inv.queues[0].dead_letter_strategy = "at-least-once";
  inv.queues[0].overflow = "reject-publish";
  CHECK(Of(Run(inv), "RMQ-AT-LEAST-ONCE").empty());
  inv.queues[0].overflow = "";
  auto found = Of(Run(inv), "RMQ-AT-LEAST-ONCE");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message ==
        "dead-letter-strategy at-least-once needs overflow reject-publish, not drop-head (the default): RabbitMQ "
        "falls back to at-most-once");
}

TEST_CASE("check rules: RETRY-BOUNDED fails endless retries and a path past maxTimeToDlq, with a link") {
  Inventory inv;
  inv.queues.push_back(Sqs("orders", 10));  // no redrive: nothing ends the retries
  inv.queues[0].settings.push_back({"maxAttempts", At(14)});
  auto found = Of(Run(inv), "RETRY-BOUNDED");
  REQUIRE(found.size() == 1);
  CHECK(found[0].at == At(14));
  CHECK(found[0].message == "nothing ends the retries (no redrive_policy): a failing message is delivered forever");
  CHECK(LinkedPolicy(found[0]) == inv.queues[0].policy);

  Inventory bounded = SourceAndDlq();
  CHECK(Of(Run(bounded), "RETRY-BOUNDED").empty());
  CheckOptions options;
  options.config.goals.max_time_to_dlq_ms = 4 * 60'000;  // the path takes 4 min 30 s
  found = Of(Run(bounded, options), "RETRY-BOUNDED");
  REQUIRE(found.size() == 1);
  CHECK(found[0].message == "attempt 5 at 4 min 30 s → orders-dlq, past maxTimeToDlq 4 min");
  CHECK(found[0].link.rfind("https://dlq-lab.dev/playground.html#v2", 0) == 0);
  Policy linked = LinkedPolicy(found[0]);
  CHECK(linked == bounded.queues[0].policy);
  options.config.goals.max_time_to_dlq_ms = 5 * 60'000;
  CHECK(Of(Run(bounded, options), "RETRY-BOUNDED").empty());
}

TEST_CASE("check rules: RETRY-OUTLASTS-OUTAGE from the schedule, its goal stated makes it an error") {
  Inventory inv = SourceAndDlq();  // attempts fail at once: 4 waits of 30 s, done at 2 min
  auto found = Of(Run(inv), "RETRY-OUTLASTS-OUTAGE");
  REQUIRE(found.size() == 1);
  CHECK(found[0].level == Level::kWarning);
  CHECK(found[0].message ==
        "the retries of a message failing at once outlast a 5 min outage with probability 0.00, below 0.99: "
        "attempt 5 at 2 min → orders-dlq");
  CHECK(LinkedPolicy(found[0]) == inv.queues[0].policy);
  CheckOptions options;
  options.config.goals.outage_ms = 60'000;
  options.config.goals.outage_stated = true;
  CHECK(Of(Run(inv, options), "RETRY-OUTLASTS-OUTAGE").empty());
  options.config.goals.outage_ms = 10 * 60'000;
  found = Of(Run(inv, options), "RETRY-OUTLASTS-OUTAGE");
  REQUIRE(found.size() == 1);
  CHECK(found[0].level == Level::kError);
}

TEST_CASE("check rules: RETRY-OUTLASTS-OUTAGE with full jitter is a sampled probability, stable and seeded") {
  Inventory inv = SourceAndDlq(6);
  Policy& p = inv.queues[0].policy;
  p.backoff = Backoff{BackoffKind::kExponential, 60'000, 600'000, Jitter::kFull, 500};
  // Unjittered: 1 + 2 + 4 + 8 + 10 min = 25 min; full jitter draws each on [0, v].
  CheckOptions options;
  options.config.goals.outage_ms = 12 * 60'000;
  auto found = Of(Run(inv, options), "RETRY-OUTLASTS-OUTAGE");
  REQUIRE(found.size() == 1);
  std::string message = found[0].message;
  CHECK(message.find("the retries of a message failing at once outlast a 12 min outage with probability 0.") == 0);
  CHECK(message.find("(median) → orders-dlq") != std::string::npos);
  CHECK(Of(Run(inv, options), "RETRY-OUTLASTS-OUTAGE")[0].message == message);  // deterministic
  CHECK(Of(Run(inv), "JITTER").empty());                                        // full jitter draws
  options.config.goals.outage_ms = 60'000;  // five waits drawn on [0, v] all summing under 1 min: rare
  CHECK(Of(Run(inv, options), "RETRY-OUTLASTS-OUTAGE").empty());
}

TEST_CASE("check rules: BACKOFF-CAP warns on a delay past maxDelay, an error when the goal is stated") {
  Inventory inv = SourceAndDlq(8);
  inv.queues[0].policy.backoff = Backoff{BackoffKind::kExponential, 60'000, 4 * 3'600'000, Jitter::kNone, 500};
  inv.queues[0].settings.push_back({"backoff.capMs", At(16)});
  // Delays 1, 2, 4, 8, 16, 32, 64 min: attempt 7 waits 1 h 4 min.
  auto found = Of(Run(inv), "BACKOFF-CAP");
  REQUIRE(found.size() == 1);
  CHECK(found[0].level == Level::kWarning);
  CHECK(found[0].at == At(16));
  CHECK(found[0].message == "attempt 7 waits up to 1 h 4 min before its retry, past maxDelay 1 h");
  CheckOptions options;
  options.config.goals.max_delay_ms = 2 * 3'600'000;
  options.config.goals.max_delay_stated = true;
  CHECK(Of(Run(inv, options), "BACKOFF-CAP").empty());
  options.config.goals.max_delay_ms = 30 * 60'000;
  found = Of(Run(inv, options), "BACKOFF-CAP");
  REQUIRE(found.size() == 1);
  CHECK(found[0].level == Level::kError);
}

TEST_CASE("check rules: JITTER asks the system: Sidekiq's schedule draws, SQS's timeout does not") {
  Inventory sqs = SourceAndDlq();
  sqs.queues[0].settings.push_back({"leaseMs", At(17)});  // the visibility timeout: SQS's delay
  auto found = Of(Run(sqs), "JITTER");
  REQUIRE(found.size() == 1);
  CHECK(found[0].at == At(17));
  CHECK(found[0].message ==
        "no delay draws jitter: messages that failed together come back together (attempt 2 at 30 s for all of "
        "them)");
  Inventory sidekiq;
  QueueConfig job;
  job.id = job.name = "HardJob";
  job.system = "sidekiq";
  job.at = At(1, "config/sidekiq.yml");
  job.policy.system = System::kSidekiq;
  job.policy.max_attempts = 26;
  // backoff none: Sidekiq's own schedule, count^4 + 15 + rand(10) * (count + 1) s
  job.terminal = Terminal::kKeptHere;
  sidekiq.queues.push_back(job);
  Result<Report> report = Judge(sidekiq, {});
  REQUIRE_MESSAGE(report.ok(), report.status().ToString());
  CHECK(Of(report.value(), "JITTER").empty());
}

TEST_CASE("check rules: skips by config (name or glob) and inline, a skip without reason is refused") {
  Inventory inv;
  inv.queues.push_back(Sqs("audit-events", 5));
  CheckOptions options;
  options.config.skips.push_back(Skip{"RETRY-BOUNDED", "audit-*", "best-effort events", At(3, ".dlq-lab.yml")});
  inv.queues[0].skips.push_back(SkipComment{"DLQ-EXISTS", "audit events are best-effort", 6});
  Report report = Run(inv, options);
  auto bounded = Of(report, "RETRY-BOUNDED");
  REQUIRE(bounded.size() == 1);
  CHECK(bounded[0].skipped);
  CHECK(bounded[0].reason == "best-effort events");
  auto exists = Of(report, "DLQ-EXISTS");
  REQUIRE(exists.size() == 1);
  CHECK(exists[0].skipped);
  CHECK(exists[0].reason == "audit events are best-effort");
  CHECK(report.errors == 0);
  CHECK(report.skipped == 2);
  CHECK(ExitCode(report, Level::kError) == 0);

  options.config.skips[0].queue = "audit";  // a name matches whole, not a prefix
  CHECK(!Of(Run(inv, options), "RETRY-BOUNDED")[0].skipped);

  inv.queues[0].skips[0].reason = "";
  Result<Report> refused = Judge(inv, options);
  REQUIRE(!refused.ok());
  CHECK(refused.status().message() == "main.tf.json:6: skip of DLQ-EXISTS: a reason is required");
  inv.queues[0].skips.clear();
  options.config.skips[0].rule = "DLQ-EXIST";
  refused = Judge(inv, options);
  REQUIRE(!refused.ok());
  CHECK(refused.status().message().find(".dlq-lab.yml:3: skip: expected a rule id (DLQ-EXISTS, ") == 0);
}

TEST_CASE("check rules: findings sort by file, line, rule, summary counts, exit codes") {
  Inventory inv = SourceAndDlq();
  inv.queues.push_back(Sqs("audit", 2, "", 1));
  Report report = Run(inv);
  CHECK(std::is_sorted(report.findings.begin(), report.findings.end(), [](const Finding& a, const Finding& b) {
    return std::tie(a.at.file, a.at.line, a.rule) < std::tie(b.at.file, b.at.line, b.rule);
  }));
  CHECK(report.findings.front().queue == "audit");
  CHECK(report.errors == 2);    // audit: DLQ-EXISTS, RETRY-BOUNDED
  CHECK(report.warnings == 2);  // orders: RETRY-OUTLASTS-OUTAGE, JITTER (audit has no retry: no JITTER)
  CHECK(ExitCode(report, Level::kError) == 1);

  Report warnings_only = Run(SourceAndDlq());
  CHECK(ExitCode(warnings_only, Level::kError) == 0);
  CHECK(ExitCode(warnings_only, Level::kWarning) == 1);
}

TEST_CASE("check rules: the join refuses two queues with one id and a policy the core refuses") {
  Inventory inv = SourceAndDlq();
  inv.queues.push_back(inv.queues[0]);
  inv.queues.back().at = At(3, "other.tf.json");
  Result<Report> refused = Judge(inv, {});
  REQUIRE(!refused.ok());
  CHECK(refused.status().message() ==
        "other.tf.json:3: queue aws_sqs_queue.orders is declared twice (first at main.tf.json:10)");
  inv.queues.pop_back();
  inv.queues[0].policy.max_attempts = 0;
  refused = Judge(inv, {});
  REQUIRE(!refused.ok());
  CHECK(refused.status().message().find("main.tf.json:10: queue orders: the policy read is refused: ") == 0);
}

TEST_CASE("check rules: RuleIds lists the rules in the issue's order, then Pub/Sub's grant rule") {
  std::vector<std::string> ids(RuleIds().begin(), RuleIds().end());
  CHECK(ids == std::vector<std::string>{"DLQ-EXISTS", "DLQ-DEAD-END", "DLQ-RETENTION", "DLQ-TYPE-MATCH",
                                        "RMQ-DLX-BOUND", "RMQ-AT-LEAST-ONCE", "RETRY-BOUNDED", "RETRY-OUTLASTS-OUTAGE",
                                        "BACKOFF-CAP", "JITTER", "DLQ-ALARM", "PUBSUB-DLQ-GRANT"});
}

TEST_CASE("check rules: an unknown retry policy is a note in each retry rule, a reader's note is reported") {
  Inventory inv = SourceAndDlq();
  inv.queues[0].unknowns.push_back(Unknown{"redrive_policy.maxReceiveCount (known after apply)", At(13), "policy"});
  inv.queues[0].notes.push_back(ReaderNote{"custom schedule, not read (sidekiq_retry_in)", At(15)});
  Report report = Run(inv);
  for (const char* rule : {"RETRY-BOUNDED", "RETRY-OUTLASTS-OUTAGE", "BACKOFF-CAP", "JITTER"}) {
    auto found = Of(report, rule);
    REQUIRE_MESSAGE(found.size() == 1, rule);
    CHECK(found[0].level == Level::kNote);
    CHECK(found[0].message == "the retry policy is not known: redrive_policy.maxReceiveCount (known after apply)");
    CHECK(found[0].at == At(13));
  }
  auto notes = Of(report, kReaderNoteRule);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].message == "custom schedule, not read (sidekiq_retry_in)");
  CHECK(report.queues[0].attempts == std::nullopt);
  CHECK(report.queues[0].worst_case_ms == std::nullopt);
  CHECK(report.errors == 0);
  CHECK(report.warnings == 0);
  CHECK(report.notes == 5);
}

TEST_CASE("check rules: durations print in the unit people read") {
  Inventory inv = SourceAndDlq(2);
  inv.queues[0].policy.lease_ms = 12'500;  // 2 × 12.5 s + one wait of 12.5 s
  CheckOptions options;
  options.config.goals.max_time_to_dlq_ms = 850;
  CHECK(Of(Run(inv, options), "RETRY-BOUNDED")[0].message ==
        "attempt 2 at 37.5 s → orders-dlq, past maxTimeToDlq 850 ms");
  inv.queues[0].policy.lease_ms = 3'900'000;  // 65 min: three of them
  CHECK(Of(Run(inv, options), "RETRY-BOUNDED")[0].message.find("attempt 2 at 3 h 15 min → ") == 0);
  inv.queues[0].policy.lease_ms = 86'400'000;  // a day, the longest lease
  CHECK(Of(Run(inv, options), "RETRY-BOUNDED")[0].message.find("attempt 2 at 3 d → ") == 0);
  inv.queues[0].policy.lease_ms = 28'800'000;  // 8 h: 24 h is one day
  CHECK(Of(Run(inv, options), "RETRY-BOUNDED")[0].message.find("attempt 2 at 1 d → ") == 0);
}

// ---- The whole flow, through a reader of the test's own (the format readers are elsewhere) ----

namespace {

// "testQueues": [{ name, dlq?, receives }], JSON or YAML: SQS-like queues (30 s visibility timeout).
bool DetectsTestQueues(std::string_view, std::string_view, const Node* root) {
  return root != nullptr && root->IsMap() && root->Get("testQueues") != nullptr;
}

Status ReadTestQueues(const SourceFile& file, const Document* doc, Inventory* out) {
  const Node* list = doc->root.Get("testQueues");
  if (!list->IsList()) {
    return Status::InvalidArgument(file.path + ":" + std::to_string(list->line) + ": testQueues: expected a list");
  }
  const std::vector<SkipComment> skips = FindSkipComments(file.text);
  for (size_t i = 0; i < list->items.size(); ++i) {
    const Node& item = list->items[i];
    const int end = i + 1 < list->items.size() ? list->items[i + 1].line : 1 << 30;
    QueueConfig q = Sqs(AsText(*item.Get("name")).value_or(""), 0);
    q.id = "test:" + q.name;
    q.at = Location{file.path, item.line, item.column};
    q.retention_at = q.at;
    q.policy.max_attempts = AsInteger(*item.Get("receives")).value_or(1);
    if (const Node* dlq = item.Get("dlq")) {
      q.bounded = true;
      q.terminal = Terminal::kDeadLetter;
      q.dead_letter_to = "test:" + AsText(*dlq).value_or("");
      q.dead_letter_at = Location{file.path, item.KeyLine("dlq"), 0};
    } else {
      q.dead_letter_at = q.at;
    }
    for (const SkipComment& c : skips) {
      if (c.line >= item.line && c.line < end) q.skips.push_back(c);
    }
    out->queues.push_back(std::move(q));
  }
  return Status::Ok();
}

constexpr Reader kTestReaders[] = {
    {"test-queues", "the test's queue list (JSON or YAML)", Syntax::kJsonOrYaml, DetectsTestQueues, ReadTestQueues},
};

}  // namespace

TEST_CASE("check flow: files detected, parsed, read, joined across files, judged, skipped inline, sorted") {
  const std::vector<SourceFile> files = {
      {"queues.json",
       "{\n  \"testQueues\": [\n    {\"name\": \"orders\",\n     \"dlq\": \"orders-dlq\",\n"
       "     \"receives\": 5},\n    {\"name\": \"audit\", \"receives\": 1}\n  ]\n}\n"},
      {"dlq.yml",
       "testQueues:\n  - name: orders-dlq\n    # dlq-lab:skip=DLQ-ALARM the DLQ is watched by hand\n"
       "    receives: 1\n"},
  };
  CHECK(DetectFormatWithReaders(kTestReaders, files[0].path, files[0].text) == "test-queues");
  CHECK(DetectFormatWithReaders(kTestReaders, files[1].path, files[1].text) == "test-queues");
  CHECK(DetectFormatWithReaders(kTestReaders, "notes.txt", "just words") == "");
  Result<Report> report = CheckWithReaders(kTestReaders, files, {});
  REQUIRE_MESSAGE(report.ok(), report.status().ToString());
  REQUIRE(report->queues.size() == 3);
  CHECK(report->queues[0].name == "orders");
  CHECK(report->queues[0].dlq == "orders-dlq");  // declared in the other file
  CHECK(report->queues[0].at == Location{"queues.json", 3, 5});
  std::vector<std::string> seen;
  for (const Finding& f : report->findings) {
    seen.push_back(f.at.file + ":" + std::to_string(f.at.line) + " " + f.rule + " " + f.queue +
                   (f.skipped ? " skipped: " + f.reason : ""));
  }
  CHECK(seen == std::vector<std::string>{
                    "dlq.yml:2 DLQ-ALARM orders-dlq skipped: the DLQ is watched by hand",
                    "dlq.yml:2 DLQ-RETENTION orders",  // both keep 4 d: the DLQ no longer than its source
                    "queues.json:3 JITTER orders",
                    "queues.json:3 RETRY-OUTLASTS-OUTAGE orders",
                    "queues.json:6 DLQ-EXISTS audit",
                    "queues.json:6 RETRY-BOUNDED audit",
                });
  CHECK(report->errors == 3);
  CHECK(report->warnings == 2);
  CHECK(report->skipped == 1);
  CHECK(ExitCode(report.value(), Level::kError) == 1);
}

TEST_CASE("check flow: a file in no known format, and one that does not parse, are errors naming the file") {
  std::vector<SourceFile> files = {{"notes.yml", "just: words\n"}};
  Result<Report> report = CheckWithReaders(kTestReaders, files, {});
  REQUIRE(!report.ok());
  CHECK(report.status().message() ==
        "notes.yml: not a format dlq-lab check reads (expected one of: the test's queue list (JSON or YAML))");
  files = {{"broken.json", "{\"testQueues\": [\n  {\"name\": \"orders\",}\n]}\n"}};
  report = CheckWithReaders(kTestReaders, files, {});
  REQUIRE(!report.ok());
  CHECK(report.status().message().rfind("broken.json:2: ", 0) == 0);
  files = {{"queues.yml", "testQueues: 3\n"}};
  report = CheckWithReaders(kTestReaders, files, {});
  REQUIRE(!report.ok());
  CHECK(report.status().message() == "queues.yml:1: testQueues: expected a list");
}

}  // namespace check_rules_test
