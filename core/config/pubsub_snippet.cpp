// Google Cloud Pub/Sub: the policy in force as gcloud commands for a subscription with a
// dead-letter topic. No reader for this format (a shell script is not read back); only
// the writer (web/src/shared/snippets.mjs before issue 32).
#include <string>
#include <vector>

#include "config.h"
#include "internal/js_value.h"
#include "internal/snippet_text.h"

namespace dlq::config {
namespace {

std::string N(double n) { return JsNumberText(n); }

// The notes on the budget, lease, backoff and classes; the subscription's flags as they are set.
std::vector<std::string> SubscriptionNotes(const PolicyFacts& n, std::vector<std::string>& flags) {
  std::vector<std::string> notes;
  const BackoffFacts& b = n.backoff;
  const double attempts = Clamp(n.max_attempts, 5, 100);
  if (attempts != n.max_attempts) notes.push_back("maxAttempts " + N(n.max_attempts) + ": max-delivery-attempts must be 5 to 100, set to " + N(attempts));
  const double ack = Clamp(SecondsUp(n.lease_ms), 10, 600);
  if (ack * 1000 != n.lease_ms) notes.push_back("leaseMs " + N(n.lease_ms) + ": the ack deadline is whole seconds within 10..600, set to " + N(ack));
  flags = {"--topic=orders", "--ack-deadline=" + N(ack), "--dead-letter-topic=orders-dlt", "--max-delivery-attempts=" + N(attempts)};
  if (b.kind != "none") {
    const double min = Clamp(SecondsUp(b.base_ms), 0, 600);
    const double max = Clamp(SecondsUp(b.kind == "fixed" ? b.base_ms : b.cap_ms), min, 600);
    flags.push_back("--min-retry-delay=" + N(min) + "s");
    flags.push_back("--max-retry-delay=" + N(max) + "s");
    if (b.kind == "exponential") notes.push_back("backoff exponential: Pub/Sub grows the delay between the two bounds its own way, best effort");
    if (min * 1000 != b.base_ms || (b.kind == "exponential" && max * 1000 != b.cap_ms)) {
      notes.push_back("backoff " + BackoffText(b) + ": retry delays are whole seconds up to 600 s, set to " + N(min) + "s.." + N(max) + "s");
    }
  } else {
    notes.push_back("backoff none: no retry policy, so a nacked message is redelivered at once");
  }
  if (b.jitter != "none") notes.push_back("jitter " + b.jitter + ": no equivalent");
  return notes;
}

void ClassNotes(const PolicyFacts& n, std::vector<std::string>& flags, std::vector<std::string>& notes) {
  ClassShape shape = ShapeOf(n);
  if (!shape.never.empty()) {
    notes.push_back(Joined(shape.never) + ": quarantined at once in the lab; Pub/Sub has no permanent failure, so such a message is "
                    "redelivered until max-delivery-attempts (or the subscriber publishes it to orders-dlt and acks it)");
  }
  for (const RuleFacts* r : shape.own) notes.push_back(RuleText(*r) + ": one delivery budget for every failure");
  if (shape.crash_never) notes.push_back("classes.crash never retries in the lab; an expired ack deadline is a redelivery in Pub/Sub");
  if (!shape.alerts.empty()) notes.push_back("alert on " + Joined(shape.alerts) + ": no equivalent");
  if (n.ordering == "key") {
    flags.push_back("--enable-message-ordering");
    notes.push_back("ordering key: ordering keys, enabled per subscription; how they interact with dead-lettering is not documented in the reference");
  }
  if (n.ordering == "stall") notes.push_back("ordering stall: no equivalent (ordering is per ordering key)");
  if (n.alarm_depth > 0) notes.push_back("quarantine.alarmDepth " + N(n.alarm_depth) + ": no alarm configured here");
  notes.push_back("dead-lettering is best effort: a message may reach orders-dlt more than once");
  notes.push_back("replay(id): no built-in replay; republish from orders-dlt-sub");
  CommonNotes(n, notes);
}

// The dead-letter topic's subscription, which keeps what is dead-lettered (quarantine.retentionMs as its retention).
void DeadLetterSubscription(const PolicyFacts& n, std::vector<std::string>& lines) {
  if (n.retention_ms > 0) {
    const double keep = Clamp(SecondsUp(n.retention_ms), 600, 604800);
    if (keep * 1000 != n.retention_ms) {
      lines.push_back("# quarantine.retentionMs " + N(n.retention_ms) + ": subscription retention is 10 minutes to 7 days, set to " + N(keep) + "s");
    }
    lines.push_back("gcloud pubsub subscriptions create orders-dlt-sub --topic=orders-dlt --message-retention-duration=" + N(keep) + "s");
  } else {
    Append(lines, {"# quarantine.retentionMs 0 (forever): no equivalent; the subscription keeps unacked messages for its retention duration",
                   "gcloud pubsub subscriptions create orders-dlt-sub --topic=orders-dlt"});
  }
}

}  // namespace

Snippet PubSubSnippet(const PolicyFacts& n) {
  std::vector<std::string> flags;
  std::vector<std::string> notes = SubscriptionNotes(n, flags);
  ClassNotes(n, flags, notes);
  std::vector<std::string> lines = {"# dlq-lab policy -> Google Cloud Pub/Sub subscription with a dead-letter topic: " + PolicyText(n)};
  Append(lines, HashComments(notes));
  Append(lines, {"# The dead-letter topic needs a subscription: messages sent to a topic without one are lost.",
                 "gcloud pubsub topics create orders-dlt"});
  DeadLetterSubscription(n, lines);
  Append(lines, {"# maxAttempts " + N(n.max_attempts) + " -> --max-delivery-attempts=" + N(Clamp(n.max_attempts, 5, 100)) +
                     "; leaseMs -> --ack-deadline (seconds)",
                 "gcloud pubsub subscriptions create orders-sub \\"});
  for (size_t i = 0; i < flags.size(); ++i) lines.push_back("  " + flags[i] + (i + 1 < flags.size() ? " \\" : ""));
  const std::string service_account = "--member=\"serviceAccount:service-${PROJECT_NUMBER}@gcp-sa-pubsub.iam.gserviceaccount.com\"";
  Append(lines, {"# Dead-lettering works only when the project's Pub/Sub service account may publish to the",
                 "# dead-letter topic and subscribe to (acknowledge on) the source subscription.",
                 "PROJECT_NUMBER=$(gcloud projects describe \"$(gcloud config get-value project)\" --format='value(projectNumber)')",
                 "gcloud pubsub topics add-iam-policy-binding orders-dlt \\", "  " + service_account + " \\",
                 "  --role=roles/pubsub.publisher", "gcloud pubsub subscriptions add-iam-policy-binding orders-sub \\",
                 "  " + service_account + " \\", "  --role=roles/pubsub.subscriber"});
  return {"shell", LinesText(lines)};
}

}  // namespace dlq::config
