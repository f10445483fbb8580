// Format(): the report in the format a user names (check.h), and the rule descriptions the
// formats that describe rules share (formats.h).
#include <array>
#include <string>
#include <string_view>

#include "check.h"
#include "formats/formats.h"

namespace dlq::check {

Result<std::string> Format(const Report& report, std::string_view format) {
  if (format == "text") return formats::Text(report);
  if (format == "json") return formats::Json(report);
  if (format == "junit") return formats::Junit(report);
  if (format == "sarif") return formats::Sarif(report);
  if (format == "github") return formats::Github(report);
  return Status::InvalidArgument("--format: expected text, json, junit, sarif or github, got \"" +
                                 formats::ValidUtf8(format) + "\"");
}

namespace formats {
namespace {

// The rule table (docs/check.md "Rules"), "holds when" as one line each, then the
// long text (SARIF fullDescription), which docs/check.md's "### <ID>" section sources.
constexpr std::array<RuleText, 12> kRules{{
    {"DLQ-EXISTS", Level::kError,
     "A terminal failure lands where it is kept (a DLQ, a Dead set, a failed set), not dropped.",
     "Fails a queue whose message, once no retry is left, is dropped (SQS without a redrive policy, RabbitMQ without a "
     "dead-letter exchange, Sidekiq retry: false or dead: false, BullMQ removeOnFail: true) or dead-letters to "
     "nothing. A DLQ named but not among the files read, or a target the file does not know, is a note."},
    {"DLQ-DEAD-END", Level::kError, "The DLQ does not route back into its source.",
     "Fails when the DLQ's own redrive or dead-letter target is its source, when the DLQ routes back into its source "
     "(a TTL retry queue), or when the policy replays every DLQ entry at once: a poison message then loops instead of "
     "resting."},
    {"DLQ-RETENTION", Level::kError, "The DLQ keeps a message longer than its source does.",
     "Fails when the DLQ keeps a message no longer than its source does. An SQS standard queue keeps the original "
     "enqueue time when it moves a message, so a DLQ with the same retention may delete it on arrival. An unknown "
     "retention is a note; a system without a retention is not judged."},
    {"DLQ-TYPE-MATCH", Level::kError, "A FIFO source has a FIFO DLQ, a standard one a standard DLQ.",
     "Fails a FIFO source with a standard DLQ, or a standard source with a FIFO DLQ: SQS requires the DLQ to be of its "
     "source's type."},
    {"RMQ-DLX-BOUND", Level::kError, "The dead-letter exchange exists and reaches at least one queue.",
     "Fails a RabbitMQ queue whose dead-letter exchange (argument or policy) does not exist, or reaches no queue "
     "through its bindings: RabbitMQ then drops the dead letter and only logs it."},
    {"RMQ-AT-LEAST-ONCE", Level::kError, "dead-letter-strategy at-least-once comes with overflow reject-publish.",
     "Fails dead-letter-strategy at-least-once without overflow reject-publish: with drop-head (the default) a quorum "
     "queue falls back to at-most-once dead-lettering."},
    {"RETRY-BOUNDED", Level::kError,
     "Every message reaches success or its DLQ within a finite number of attempts (and goals.maxTimeToDlq).",
     "Fails when nothing ends the retries (no attempt limit: an SQS queue without a redrive policy, a RabbitMQ 3.x "
     "quorum queue without delivery-limit, a classic queue, a crash loop), and, when goals.maxTimeToDlq is stated, "
     "when the worst-case path reaches its end later than it. The message prints the computed path."},
    {"RETRY-OUTLASTS-OUTAGE", Level::kWarning,
     "The retries outlast an outage of goals.outage with probability at least goals.outageProbability.",
     "Plays the retry schedule of a message that fails at once and reports the probability (10,000 seeded runs when "
     "the delays draw jitter, exact otherwise) that its last attempt starts at or after the end of an outage of "
     "goals.outage (default 5 min); warns below goals.outageProbability (default 0.99), an error when goals.outage is "
     "stated."},
    {"BACKOFF-CAP", Level::kWarning, "No single delay exceeds goals.maxDelay.",
     "Warns when the largest single wait of the worst-case path exceeds goals.maxDelay (default 1 h), an error when "
     "the goal is stated: an uncapped exponential backoff (BullMQ's, Sidekiq's late retries) waits hours or days."},
    {"JITTER", Level::kWarning, "Retries that failed together do not come back together.",
     "Warns when no delay of the retry schedule draws jitter (neither the system's own nor the policy's): jobs that "
     "failed together come back together and hit the recovering dependency at once. A queue with a single attempt is "
     "not judged."},
    {"DLQ-ALARM", Level::kWarning, "Something alarms on the DLQ's depth.",
     "Warns on an SQS DLQ that no CloudWatch alarm on ApproximateNumberOfMessagesVisible (namespace AWS/SQS, dimension "
     "QueueName) watches: messages that land there go unnoticed. Only SQS is judged; the other formats cannot declare "
     "an alarm beside their queues."},
    {"PUBSUB-DLQ-GRANT", Level::kError, "Pub/Sub's service account may forward dead letters.",
     "Fails a Pub/Sub subscription with a dead-letter topic when the same plan does not grant the project's Pub/Sub "
     "service account (service-<project-number>@gcp-sa-pubsub.iam.gserviceaccount.com) roles/pubsub.publisher on the "
     "dead-letter topic or roles/pubsub.subscriber on the subscription: without them Pub/Sub cannot forward a dead "
     "letter. One finding per missing grant."},
}};

}  // namespace

std::span<const RuleText> AllRules() { return kRules; }

const RuleText& DescribeRule(std::string_view id) {
  for (const RuleText& rule : kRules) {
    if (id == rule.id) return rule;
  }
  // A rule this table does not know (added to rules/ and not here): described by its id.
  static const RuleText kUnknown{"", Level::kError, "", ""};
  return kUnknown;
}

}  // namespace formats
}  // namespace dlq::check
