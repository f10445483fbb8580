// The checker's model: what a team's configuration says about its queues, read from any
// format (readers/), judged by the rules (rules/). A reader fills an Inventory from one
// document; the inventories of every file are joined (a DLQ declared in another file, an
// alarm in a third) before any rule runs. Readers decide nothing about good or bad: they
// record what the configuration says, where it says it, and what they could not know.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "document.h"
#include "policy.h"

namespace dlq::check {

// A value the file does not give (a Terraform value "known after apply" that no
// configuration reference resolves, a Ruby block that is not evaluated). A rule that
// needs it says so in a note naming it, never guesses and never passes.
struct Unknown {
  std::string what;  // "redrive_policy.deadLetterTargetArn (known after apply)"
  Location at;
  // The QueueConfig fact it leaves unknown, by member name ("dead_letter_to", "retention_ms",
  // "fifo", "policy", "terminal"), so the rule that needs that fact names it; "": any fact
  // the queue leaves unset.
  std::string field;
};

// A note a reader attaches to a queue ("custom schedule, not read": sidekiq_retry_in).
struct ReaderNote {
  std::string text;
  Location at;
};

// Where a terminal failure (budget spent, or a failure that is never retried) goes.
enum class Terminal : uint8_t {
  kDeadLetter,  // to another queue or place that keeps it: dead_letter_to names it
  kKeptHere,    // kept by the system itself: Sidekiq's Dead set, BullMQ's failed set
  kDropped,     // discarded: drop_cause says by which setting
  kUnknown,     // depends on an Unknown
};

struct QueueConfig {
  // Identity. `id` is unique in the joined inventory and is what dead_letter_to refers to
  // (an SQS queue's ARN or resource address, "vhost/name" for RabbitMQ, a Sidekiq job class);
  // `name` is what people call it (its queue name) and what skips match.
  std::string id;
  std::string name;
  std::string system;  // SystemName(): "sqs", "rabbitmq-quorum", "sidekiq", "bullmq"
  Location at;         // where the queue (resource, job class, options object) is declared
  // Other ids that name the same queue in other files (an SQS queue's ARN and URL, where the
  // file knows them): the join resolves a dead_letter_to that names one of these to `id`.
  std::vector<std::string> aliases;

  // What the lab plays for it: the system mode with the budget, backoff, lease and the
  // system's settings as read (SetField by name through the policy's schema). When
  // `bounded` is false, policy.max_attempts is meaningless: nothing ends the retries
  // (SQS without a redrive policy, a 3.x quorum queue without a delivery-limit).
  Policy policy;
  bool bounded = true;
  std::string unbounded_because;                           // the setting (or its absence) that makes it so
  std::vector<std::pair<std::string, Location>> settings;  // policy field -> where it was set

  Terminal terminal = Terminal::kDeadLetter;
  std::string dead_letter_to;  // kDeadLetter: the id of the queue it reaches ("" when it reaches none)
  Location dead_letter_at;     // the setting that names it
  std::string drop_cause;      // kDropped: "retry: false", "removeOnFail: true", "no dead-letter-exchange"
  std::string kept_in;  // kKeptHere: the place by its own name ("orders/$deadletterqueue"); "": its dead or failed set

  // Facts some rules read; nullopt where the format does not say (the system default applies,
  // as the reader fills it when the default is documented).
  std::optional<bool> fifo;             // SQS FifoQueue
  std::optional<int64_t> retention_ms;  // how long the broker keeps a message (SQS MessageRetentionPeriod)
  Location retention_at;
  bool retention_from_first_enqueue = false;  // SQS standard: a DLQ counts from the original enqueue
  // RabbitMQ: the dead-letter exchange by name, whether it exists, and the queues it reaches.
  std::optional<std::string> dead_letter_exchange;
  bool dead_letter_exchange_exists = false;
  std::vector<std::string> dead_letter_reaches;  // queue ids
  std::string dead_letter_strategy;              // "at-most-once" (default) or "at-least-once"
  std::string overflow;                          // "drop-head" (default), "reject-publish", "reject-publish-dlx"
  // Queues this one sends back into (SQS redrive allowed back, a DLX that routes back): ids.
  // SQS: the queue its own redrive policy names (a DLQ with a redrive into its source loops).
  std::vector<std::string> routes_back_to;
  // SQS: its redrive allow policy (RedriveAllowPolicy / redrive_allow_policy), which marks a
  // queue meant as a DLQ: "allowAll", "byQueue" (the sources listed, as ids), "denyAll"; "" none.
  std::string redrive_permission;
  std::vector<std::string> dead_letter_sources;

  // Sidekiq: retry true or absent, so the process's max_retries (config/sidekiq.yml) applies;
  // retry_for (Sidekiq 7.1+): retries stop this long after the first failure, whatever the count.
  bool default_retries = false;
  std::optional<int64_t> retry_for_ms;
  Location retry_for_at;

  // Pub/Sub: its dead-letter topic as the plan names it, and whether the plan grants the Pub/Sub
  // service account roles/pubsub.publisher on it and roles/pubsub.subscriber on this subscription
  // (the grants dead-lettering needs: PUBSUB-DLQ-GRANT), with where each grant is.
  std::string pubsub_dead_letter_topic;
  bool pubsub_publisher_granted = false, pubsub_subscriber_granted = false;
  Location pubsub_publisher_at, pubsub_subscriber_at;

  std::vector<Unknown> unknowns;
  std::vector<ReaderNote> notes;
  std::vector<SkipComment> skips;  // inline skip comments inside its declaration
};

// Something that alarms on a queue's depth (SQS: a CloudWatch alarm on
// ApproximateNumberOfMessagesVisible with the queue as its QueueName dimension).
struct DepthAlarm {
  std::string queue;  // the queue's id or name as the alarm names it
  Location at;
};

// Sidekiq's process-wide settings (config/sidekiq.yml), for every job class that leaves them to
// the default: JoinInventory (readers.h) applies them once every file is read.
struct SidekiqSettings {
  std::optional<int64_t> max_retries, dead_max_jobs, dead_timeout_s;
  Location max_retries_at, dead_max_jobs_at, dead_timeout_at;
  std::vector<Unknown> unknowns;  // a value set through ERB (<%= ENV[...] %>)
  Location at;                    // the file
};

struct Inventory {
  std::vector<QueueConfig> queues;
  std::vector<DepthAlarm> alarms;
  std::vector<SidekiqSettings> sidekiq_settings;
};

}  // namespace dlq::check
