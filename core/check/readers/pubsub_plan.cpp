// google_pubsub_subscription in a Terraform plan (docs/check.md "Formats"):
//   ack_deadline_seconds, dead_letter_policy[0].{dead_letter_topic, max_delivery_attempts},
//   retry_policy[0].{minimum_backoff, maximum_backoff}, message_retention_duration, topic.
// Its settings are written as the gcloud flags they are and read by the core's own
// reader (config::ReadConfig, core/config/pubsub_config.cpp), so a setting means the same
// in the playground's import and here, defaults included (Pub/Sub's: 5 attempts, 10 s,
// 7 days). Its dead-letter topic is joined to the plan's subscription on that topic (the
// DLQ: a topic keeps nothing without one). The grants: google_pubsub_topic_iam_member /
// _binding / _policy giving roles/pubsub.publisher on that topic, and
// google_pubsub_subscription_iam_* giving roles/pubsub.subscriber on the subscription, each
// to the Pub/Sub service account service-<project-number>@gcp-sa-pubsub.iam.gserviceaccount.com.
#include "pubsub_plan.h"

#include <string>
#include <string_view>
#include <vector>

#include "config.h"
#include "config_import.h"

namespace dlq::check {
namespace {

// "projects/p/topics/x" -> "x"; "x" -> "x".
std::string_view LastSegment(std::string_view s) {
  const size_t slash = s.rfind('/');
  return slash == std::string_view::npos ? s : s.substr(slash + 1);
}

bool SameResource(std::string_view a, std::string_view b) { return !a.empty() && LastSegment(a) == LastSegment(b); }

bool IsPubSubServiceAccount(std::string_view member) {
  constexpr std::string_view kPrefix = "serviceAccount:service-", kSuffix = "@gcp-sa-pubsub.iam.gserviceaccount.com";
  return member.starts_with(kPrefix) && member.ends_with(kSuffix);
}

// The first block of a nested block list (Terraform writes `dead_letter_policy { … }` as [ { … } ]).
const Node* FirstBlock(const Node* values, std::string_view key) {
  const Node* list = values != nullptr ? values->Get(key) : nullptr;
  if (list == nullptr || !list->IsList() || list->items.empty() || !list->items[0].IsMap()) return nullptr;
  return &list->items[0];
}

// One grant of the plan: a role on a topic or subscription (by name), to a member, where.
struct Grant {
  std::string on;  // the topic's or subscription's name or path
  std::string role;
  std::string member;
  Location at;
};

// The grants of one google_pubsub_{topic,subscription}_iam_{member,binding,policy} resource.
void GrantsOf(const SourceFile& file, const PlanResource& r, std::string_view on_key, std::vector<Grant>* out) {
  const Node* v = r.values;
  if (v == nullptr) return;
  const std::string on = TextOf(v->Get(on_key));
  const Location at{file.path, r.node->KeyLine("address")};
  if (r.type.ends_with("_iam_member")) {
    out->push_back({on, TextOf(v->Get("role")), TextOf(v->Get("member")), at});
  } else if (r.type.ends_with("_iam_binding")) {
    const Node* members = v->Get("members");
    if (members == nullptr || !members->IsList()) return;
    for (const Node& m : members->items) out->push_back({on, TextOf(v->Get("role")), TextOf(&m), at});
  } else if (r.type.ends_with("_iam_policy")) {
    const std::string text = TextOf(v->Get("policy_data"));
    Result<Document> doc = ParseJson(file.path, text);
    if (!doc.ok()) return;
    const Node* bindings = doc->root.Get("bindings");
    if (bindings == nullptr || !bindings->IsList()) return;
    for (const Node& b : bindings->items) {
      const Node* members = b.Get("members");
      if (members == nullptr || !members->IsList()) continue;
      for (const Node& m : members->items) out->push_back({on, TextOf(b.Get("role")), TextOf(&m), at});
    }
  }
}

bool Granted(const std::vector<Grant>& grants, std::string_view on, std::string_view role, Location* at) {
  for (const Grant& g : grants) {
    if (SameResource(g.on, on) && g.role == role && IsPubSubServiceAccount(g.member)) {
      *at = g.at;
      return true;
    }
  }
  return false;
}

struct Flag {
  std::string flag;  // "--ack-deadline"
  std::string value;
  Location at;  // the plan attribute it came from
};

}  // namespace

Status ReadPubSubSubscriptions(const SourceFile& file, const PlanIndex& plan, Inventory* out) {
  std::vector<Grant> topic_grants, subscription_grants;
  std::vector<const PlanResource*> subscriptions;
  for (const PlanResource& r : plan.resources()) {
    if (r.type == "google_pubsub_subscription") subscriptions.push_back(&r);
    if (r.type.starts_with("google_pubsub_topic_iam_")) GrantsOf(file, r, "topic", &topic_grants);
    if (r.type.starts_with("google_pubsub_subscription_iam_")) GrantsOf(file, r, "subscription", &subscription_grants);
  }
  for (const PlanResource* r : subscriptions) {
    const Node* v = r->values;
    QueueConfig q;
    q.id = r->address;
    q.at = {file.path, r->node->KeyLine("address")};
    q.name = TextOf(v != nullptr ? v->Get("name") : nullptr);
    if (q.name.empty()) q.name = r->address;
    auto where = [&](const Node* holder, std::string_view key) {
      return Location{file.path, holder != nullptr && holder->Get(key) != nullptr ? holder->KeyLine(key) : q.at.line};
    };
    std::vector<Flag> flags;
    auto add = [&](const char* flag, const Node* holder, std::string_view key) {
      const Node* n = holder != nullptr ? holder->Get(key) : nullptr;
      if (n == nullptr || n->IsNull()) return;
      flags.push_back({flag, TextOf(n), where(holder, key)});
    };
    add("--ack-deadline", v, "ack_deadline_seconds");
    add("--message-retention-duration", v, "message_retention_duration");
    const Node* dead_letter = FirstBlock(v, "dead_letter_policy");
    std::string topic;
    if (dead_letter != nullptr) {
      topic = TextOf(dead_letter->Get("dead_letter_topic"));
      flags.push_back(
          {"--dead-letter-topic", topic.empty() ? "unknown" : topic, where(dead_letter, "dead_letter_topic")});
      add("--max-delivery-attempts", dead_letter, "max_delivery_attempts");
      q.dead_letter_at = where(v, "dead_letter_policy");
    }
    if (const Node* retry = FirstBlock(v, "retry_policy")) {
      add("--min-retry-delay", retry, "minimum_backoff");
      add("--max-retry-delay", retry, "maximum_backoff");
      if (retry->Get("minimum_backoff") == nullptr && retry->Get("maximum_backoff") == nullptr) {
        flags.push_back({"--min-retry-delay", "10s", where(v, "retry_policy")});  // an empty retry_policy: its defaults
      }
    }
    std::string command = "gcloud pubsub subscriptions create " + q.name;
    KeyLines lines;
    for (const Flag& f : flags) {
      command += " " + f.flag + "=" + f.value;
      lines.emplace_back(f.flag, f.at);
    }
    for (const auto& [field, flag] :
         std::vector<std::pair<const char*, const char*>>{{"maxAttempts", "--max-delivery-attempts"},
                                                          {"leaseMs", "--ack-deadline"},
                                                          {"backoff.baseMs", "--min-retry-delay"},
                                                          {"backoff.capMs", "--max-retry-delay"},
                                                          {"messageRetentionMs", "--message-retention-duration"},
                                                          {"deadLetterTopic", "--dead-letter-topic"}}) {
      for (const Flag& f : flags) {
        if (f.flag == flag) lines.emplace_back(field, f.at);
      }
    }
    const config::ImportResult read = config::ReadConfig(command, nullptr);
    RETURN_IF_ERROR(ApplyImport(read, lines, q.at, &q));
    if (const Node* retention = v != nullptr ? v->Get("message_retention_duration") : nullptr) {
      q.retention_at = where(v, "message_retention_duration");
      (void)retention;
    } else {
      q.retention_at = q.at;
    }
    q.retention_ms = q.policy.message_retention_ms;
    if (dead_letter == nullptr) {
      q.bounded = false;
      q.unbounded_because =
          "no dead_letter_policy: Pub/Sub redelivers a failing message until its "
          "message_retention_duration ends";
      q.terminal = Terminal::kDropped;
      q.drop_cause = "no dead_letter_policy (deleted when its message_retention_duration ends)";
    } else {
      q.terminal = Terminal::kDeadLetter;
      q.pubsub_dead_letter_topic = topic;
      for (const PlanResource* other : subscriptions) {  // the DLQ: the subscription on the dead-letter topic
        const std::string other_topic = TextOf(other->values != nullptr ? other->values->Get("topic") : nullptr);
        if (other != r && SameResource(other_topic, topic)) {
          q.dead_letter_to = other->address;
          break;
        }
      }
      if (q.dead_letter_to.empty()) q.dead_letter_to = topic;  // a topic with no subscription of the plan
      q.pubsub_publisher_granted = Granted(topic_grants, topic, "roles/pubsub.publisher", &q.pubsub_publisher_at);
      q.pubsub_subscriber_granted =
          Granted(subscription_grants, q.name, "roles/pubsub.subscriber", &q.pubsub_subscriber_at);
    }
    out->queues.push_back(std::move(q));
  }
  return Status::Ok();
}

}  // namespace dlq::check
