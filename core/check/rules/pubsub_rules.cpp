// PUBSUB-DLQ-GRANT: a Pub/Sub subscription with a dead-letter topic forwards nothing unless
// the project's Pub/Sub service account (service-<project-number>@gcp-sa-pubsub.iam.gserviceaccount.com)
// may publish to that topic (roles/pubsub.publisher) and acknowledge on the subscription
// (roles/pubsub.subscriber): DeadLetterPolicy.dead_letter_topic, "The Pub/Sub service account
// associated with the enclosing subscription's parent project ... must have permission to
// Publish() to this topic", and cloud.google.com/pubsub/docs/handling-failures ("Grant
// forwarding permissions"). The reader (readers/pubsub_plan.cpp) records the plan's grants.
#include "rules/rule.h"

namespace dlq::check {

void JudgePubSubDlqGrant(const Rule& rule, const RuleContext& ctx, const JoinedQueue& j, std::vector<Finding>* out) {
  const QueueConfig& q = *j.queue;
  if (q.system != "pubsub" || q.pubsub_dead_letter_topic.empty()) return;
  const Location& at = q.dead_letter_at.line > 0 ? q.dead_letter_at : q.at;
  const std::string account =
      "the Pub/Sub service account (service-<project-number>@gcp-sa-pubsub.iam.gserviceaccount.com)";
  if (!q.pubsub_publisher_granted) {
    out->push_back(MakeFinding(rule, ctx, q, at,
                               "the plan grants " + account + " no roles/pubsub.publisher on the dead-letter topic " +
                                   q.pubsub_dead_letter_topic +
                                   " (google_pubsub_topic_iam_member, _binding or _policy): Pub/Sub cannot forward "
                                   "a dead letter there, so it stays in the subscription"));
  }
  if (!q.pubsub_subscriber_granted) {
    out->push_back(MakeFinding(rule, ctx, q, at,
                               "the plan grants " + account + " no roles/pubsub.subscriber on the subscription " +
                                   q.name +
                                   " (google_pubsub_subscription_iam_member, _binding or _policy): Pub/Sub cannot "
                                   "acknowledge the message it forwards"));
  }
}

}  // namespace dlq::check
