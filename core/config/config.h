// Reading a broker's configuration into the lab's policy (the playground's "Import a
// broker's config…", and "Apply to playground" from an edited snippet): one reader per
// real system, each in its own file (<system>_config.cpp), behind this one call that
// tells which format was pasted. docs/playground.md, "Import", says what each reads.
//
// The contract (the page's importConfig, web/src/playground/import.mjs, passes it on):
// an accepted import lists every policy field it sets, leaf by leaf ("backoff.kind"),
// with the broker's setting it came from, and the keys read that change nothing; a
// refused one lists every key the lab cannot express, by name (key, expected, given,
// and the message that says them). A refusal sets nothing. Every value a message echoes
// is quoted (internal/quote.h). Every reader is linear in the text.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "status.h"
#include "internal/js_value.h"

namespace dlq::config {

// The most text read: a queue's attributes or a policy are a few hundred bytes (UTF-16 units, as the page counts).
inline constexpr size_t kMaxImportChars = 65536;
// The longest sidekiq_options line read (refused by its length before it is read).
inline constexpr size_t kMaxSidekiqChars = 1024;

// One policy field's new value: a whole number, a word ("exponential") or a switch.
struct ConfigValue {
  enum class Kind { kNumber, kText, kFlag };
  Kind kind = Kind::kNumber;
  double number = 0;
  std::string text;
  bool flag = false;
  static ConfigValue Number(double n) {
    ConfigValue v;
    v.number = n;
    return v;
  }
  static ConfigValue Text(std::string s) {
    ConfigValue v;
    v.kind = Kind::kText;
    v.text = std::move(s);
    return v;
  }
  static ConfigValue Flag(bool b) {
    ConfigValue v;
    v.kind = Kind::kFlag;
    v.flag = b;
    return v;
  }
};

struct SetField {
  std::string field;  // "maxAttempts", "backoff.kind"
  ConfigValue value;
  std::string from;  // the broker's setting it came from, in words
};

struct IgnoredKey {
  std::string key;
  std::string why;
};

struct ConfigRefusal {
  std::string key, expected, given, message;
};

struct ImportResult {
  bool ok = false;
  std::string format;  // "bullmq", "sqs", "sidekiq", "rabbitmq"; empty: no format was recognised
  std::string system;  // the policy's system mode (accepted only)
  std::vector<SetField> set;
  std::vector<IgnoredKey> ignored;
  std::vector<ConfigRefusal> refusals;
};

// `text` (a pasted config) as the lab's system and policy fields, or its refusals.
// `dlq_retention`: the SQS dead-letter queue's MessageRetentionPeriod as given (a
// string or a number; nullptr: none given, as is a string of spaces).
ImportResult ReadConfig(std::string_view text, const JsValue* dlq_retention);

// The refusal of a text of `utf16_length` units past kMaxImportChars (ReadConfig's own first
// check), for a caller that measures a text before it copies it.
ImportResult RefuseLength(size_t utf16_length);

// The four formats' names, in words, by key ("bullmq": "BullMQ job options").
std::string_view FormatName(std::string_view format);

// ---- writing a snippet: the policy in force as a system's own configuration ----
//
// What a snippet translates (web/src/shared/snippets.mjs, policyInForce): the core's account
// of a queue's policy, every default filled in, with each failure class's rule in force.
// Nothing is defaulted or decided by a writer; a lab setting the system cannot say is said
// in a comment of the snippet, never dropped.
struct BackoffFacts {
  std::string kind = "none";  // "none", "fixed", "exponential"
  double base_ms = 0, cap_ms = 0;
  std::string jitter = "none";
  double jitter_permille = 0;
};
struct RuleFacts {
  std::string name;   // the failure class, in the core's order
  std::string retry;  // "bounded" or "never"
  double max_attempts = 0;
  BackoffFacts backoff;
  bool alert = false;
  bool own_backoff = false;  // the class has a backoff of its own (not "policy")
};
struct PolicyFacts {
  std::string system = "lab";
  double max_attempts = 1, lease_ms = 0;
  BackoffFacts backoff;
  std::string ordering = "none", delay_at = "broker";
  bool unsafe_quarantine_order = false;
  double retention_ms = 0, alarm_depth = 0;  // quarantine.*
  // The rabbitmq-quorum mode's.
  std::string delivery_limit = "explicit", dead_letter_exchange = "set";
  double max_length = 0, message_ttl_ms = 0, dlq_max_length = 0;
  std::string delayed_retry_type = "disabled";  // RabbitMQ 4.3's delayed retry
  double delayed_retry_min_ms = 0, delayed_retry_max_ms = 0;
  // The pubsub mode's (read only with system "pubsub": the snippet of any other system is unchanged).
  std::string dead_letter_topic = "set";
  double message_retention_ms = 0;  // 0: not given
  // The service-bus mode's (read only with system "service-bus").
  double default_message_ttl_ms = 0;  // 0: none (TimeSpan.MaxValue)
  bool dead_letter_on_expiry = false;
  std::string requeue_with = "reject";   // RabbitMQ 4.3: basic.nack is not counted
  std::string delivery_time = "broker";  // RabbitMQ 4.3: "backoff", the consumer sets x-opt-delivery-time
  // The sidekiq mode's.
  bool retry_in_jitter = false, retry_every_error = false, skip_dead_set = false;
  double dead_max_jobs = 10000;
  double retry_for_ms = 0;            // retry_for (7.1.3+)
  bool discard_on_exhausted = false;  // sidekiq_retries_exhausted returning :discard (7.2+)
  // The bullmq mode's.
  bool remove_on_fail = false;
  double remove_on_fail_count = 0, max_stalled_count = 1;
  // The spring-kafka mode's.
  bool retry_topics = false, no_recoverer = false;
  double multiplier_permille = 2000;
  // The kafka-connect mode's (retry_timeout_ms: kMaxTimeMs is Connect's -1, forever).
  bool tolerance_all = false, dlq_topic = false, context_headers = false;
  double retry_timeout_ms = 0;
  std::vector<RuleFacts> rules;
};
struct Snippet {
  std::string language;  // "json", "shell", "ruby", "typescript", "java"
  std::string text;
};

// `facts` read from the policy in force as JSON holds it (policyInForce's object).
PolicyFacts PolicyFactsOf(const JsValue& in_force);
// `key`'s snippet of `facts` ("sqs", "rabbitmq", "sidekiq", "bullmq", "temporal", "kafka", "pubsub",
// "servicebus"), or InvalidArgument naming the key, the keys expected and the key given.
Result<Snippet> WriteSnippet(std::string_view key, const PolicyFacts& facts);

}  // namespace dlq::config
