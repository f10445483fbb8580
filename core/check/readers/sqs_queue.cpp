#include "sqs_queue.h"

#include <initializer_list>
#include <string_view>
#include <utility>

#include "config.h"
#include "config_import.h"
#include "policy.h"
#include "schema.h"

namespace dlq::check {
namespace {

// Where the import's refusal of `key` ("RedrivePolicy.maxReceiveCount") points in the file.
const SqsSetting* SettingOf(const SqsQueueFacts& f, std::string_view key) {
  if (key.find("maxReceiveCount") != std::string_view::npos) return &f.max_receive_count;
  if (key.find("VisibilityTimeout") != std::string_view::npos) return &f.visibility_timeout;
  if (key.find("MessageRetentionPeriod") != std::string_view::npos) return &f.retention;
  return nullptr;
}

// The attributes as `aws sqs get-queue-attributes` would print them, for the SQS import.
// Without a known count the redrive's placeholder count is read and its maxAttempts dropped.
config::JsValue Attributes(const SqsQueueFacts& f) {
  config::JsValue redrive;
  redrive.kind = config::JsValue::Kind::kObject;
  redrive.Set("maxReceiveCount", config::JsValue::Number(static_cast<double>(f.max_receive_count.value.value_or(1))));
  config::JsValue attributes;
  attributes.kind = config::JsValue::Kind::kObject;
  attributes.Set("RedrivePolicy", std::move(redrive));
  if (f.visibility_timeout.value) {
    attributes.Set("VisibilityTimeout", config::JsValue::Number(static_cast<double>(*f.visibility_timeout.value)));
  }
  if (f.retention.value) {
    attributes.Set("MessageRetentionPeriod", config::JsValue::Number(static_cast<double>(*f.retention.value)));
  }
  config::JsValue outer;
  outer.kind = config::JsValue::Kind::kObject;
  outer.Set("Attributes", std::move(attributes));
  return outer;
}

// The sqs mode's policy for the queue: the import's fields, each applied through the schema.
// The import's quarantine.retentionMs (the queue's own retention, read as a DLQ's) is left to
// the join: a source's quarantine keeps for its DLQ's retention_ms, not its own.
Status ReadPolicy(const SqsQueueFacts& f, QueueConfig& q, SqsImportCache& cache) {
  const config::ImportResult& read = cache.Read(config::JsonText(Attributes(f)));
  if (!read.ok) {
    const config::ConfigRefusal& r = read.refusals.front();
    const SqsSetting* s = SettingOf(f, r.key);
    if (s == nullptr) return ErrorAt(f.at, r.message);
    return ErrorAt(s->at, s->key + ": expected " + r.expected + ", got " + r.given);
  }
  Result<System> system = ParseSystem(read.system);
  if (!system.ok()) return system.status();
  q.policy.system = system.value();
  for (const config::SetField& set : read.set) {
    if (set.field == "quarantine.retentionMs") continue;
    if (set.field == "maxAttempts" && !f.max_receive_count.value) continue;
    const SqsSetting* s = set.field == "maxAttempts" ? &f.max_receive_count
                          : set.field == "leaseMs"   ? &f.visibility_timeout
                                                     : nullptr;
    if (Status st = ApplyField(set, &q.policy); !st.ok()) {
      return ErrorAt(s != nullptr ? s->at : f.at, (s != nullptr ? s->key + ": " : "") + st.message());
    }
    if (s != nullptr && s->value) q.settings.emplace_back(set.field, s->at);
  }
  return Status::Ok();
}

}  // namespace

Unknown SqsUnknown(std::string what, const Location& at) {
  auto names = [&what](std::initializer_list<std::string_view> parts) {
    for (std::string_view p : parts) {
      if (what.find(p) != std::string::npos) return true;
    }
    return false;
  };
  const char* field =
      names({"deadLetterTargetArn"}) ? "dead_letter_to"
      : names({"maxReceiveCount", "visibility_timeout", "VisibilityTimeout", "delay_seconds", "DelaySeconds"})
          ? "policy"
      : names({"message_retention", "MessageRetentionPeriod"}) ? "retention_ms"
      : names({"fifo_queue", "FifoQueue"})                     ? "fifo"
      : names({"redrive_allow_policy", "RedriveAllowPolicy"})  ? "dead_letter_sources"
                                                               : "";
  return {std::move(what), at, field};
}

std::string WithoutLocation(const std::string& message, const std::string& file) {
  if (!message.starts_with(file + ":")) return message;
  size_t at = message.find(": ", file.size() + 1);
  return at == std::string::npos ? message : message.substr(at + 2);
}

std::string SqsQueueNameOf(const std::string& s) {
  if (s.starts_with("arn:") && s.find(":sqs:") != std::string::npos) return s.substr(s.rfind(':') + 1);
  if (s.starts_with("https://") && s.find("sqs") != std::string::npos) return s.substr(s.rfind('/') + 1);
  return "";
}

const config::ImportResult& SqsImportCache::Read(const std::string& attributes_json) {
  auto it = answers_.find(attributes_json);
  if (it == answers_.end()) it = answers_.emplace(attributes_json, config::ReadConfig(attributes_json, nullptr)).first;
  return it->second;
}

Result<QueueConfig> BuildSqsQueue(const SqsQueueFacts& f, SqsImportCache& cache) {
  QueueConfig q;
  q.id = f.id;
  q.name = f.name;
  q.system = "sqs";
  q.at = f.at;
  q.aliases = f.aliases;
  RETURN_IF_ERROR(ReadPolicy(f, q, cache));
  q.fifo = f.fifo.value_or(false);
  // SQS standard queues keep a message's original enqueue time when it moves to a DLQ;
  // FIFO queues reset it (docs/check.md "Formats").
  q.retention_from_first_enqueue = !*q.fifo && !f.fifo_unknown;
  if (f.fifo_unknown) q.fifo.reset();
  if (!f.retention.unknown) q.retention_ms = f.retention.value.value_or(kSqsDefaultRetentionS) * 1000;
  q.retention_at = f.retention.value ? f.retention.at : f.at;
  q.bounded = f.has_redrive;
  if (!f.has_redrive) {
    q.unbounded_because = "no redrive policy: SQS delivers a failing message again until its retention period ends";
    q.terminal = Terminal::kDropped;
    q.drop_cause = "no redrive policy (deleted when its retention period ends)";
  } else if (f.dead_letter_to.empty()) {
    q.terminal = Terminal::kUnknown;
    q.dead_letter_at = f.dead_letter_at;
  } else {
    q.terminal = Terminal::kDeadLetter;
    q.dead_letter_to = f.dead_letter_to;
    q.dead_letter_at = f.dead_letter_at;
    // A queue's own redrive is where it sends messages back into (a DLQ redriving into its source).
    q.routes_back_to.push_back(f.dead_letter_to);
  }
  q.dead_letter_sources = f.dead_letter_sources;
  q.redrive_permission = f.redrive_permission;
  q.unknowns = f.unknowns;
  q.notes = f.notes;
  if (f.delay.value.value_or(0) > 0) {
    q.notes.push_back({f.delay.key + " " + std::to_string(*f.delay.value) + " s: each message's first delivery waits " +
                           std::to_string(*f.delay.value) + " s, which the lab does not play",
                       f.delay.at});
  }
  return q;
}

}  // namespace dlq::check
