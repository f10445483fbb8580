// One Amazon SQS queue as the Terraform plan and CloudFormation readers find it: the
// settings each format gives, in SQS's own terms, turned into a QueueConfig (model.h) the
// one way for both formats. The policy comes from the playground's SQS import
// (core/config/sqs_config.cpp, through config::ReadConfig), so the checker plays a queue
// exactly as an import of its attributes would: maxReceiveCount -> maxAttempts,
// VisibilityTimeout -> leaseMs (absent: 30 s), no backoff.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config.h"
#include "model.h"
#include "status.h"

namespace dlq::check {

// SQS's defaults, in seconds (docs/check.md "Formats" cites each).
inline constexpr int64_t kSqsDefaultRetentionS = 345'600;  // 4 days
inline constexpr int64_t kSqsDefaultVisibilityS = 30;
// The CloudWatch metric of a queue's depth, the one a DLQ alarm watches (AWS/SQS namespace).
inline constexpr std::string_view kSqsDepthMetric = "ApproximateNumberOfMessagesVisible";

// A setting as a format spells it ("visibility_timeout_seconds", "VisibilityTimeout"),
// where it is, and its value when the file gives it.
struct SqsSetting {
  std::string key;
  Location at;
  std::optional<int64_t> value;
  bool unknown = false;  // set, but known only after apply (the reader lists it in `unknowns`)
};

struct SqsQueueFacts {
  std::string id;    // Terraform: the resource address; CloudFormation: the logical id
  std::string name;  // the queue's name (QueueName / name), or the id when the file gives none
  Location at;
  std::vector<std::string> aliases;  // its ARN and URL, where known

  // The redrive policy: present (even when a part of it is unknown), its target (a queue
  // id of the same file, or an ARN the file does not declare; "" when unknown) and its count.
  bool has_redrive = false;
  Location redrive_at;
  std::string dead_letter_to;
  Location dead_letter_at;
  SqsSetting max_receive_count;  // value: nullopt when absent or unknown
  SqsSetting visibility_timeout;
  SqsSetting retention;
  SqsSetting delay;          // DelaySeconds: a first-delivery delay the lab does not play (a note)
  std::optional<bool> fifo;  // nullopt: the format's default (standard)
  Location fifo_at;
  bool fifo_unknown = false;
  std::vector<std::string> dead_letter_sources;  // its redrive allow policy's byQueue sources (ids)
  std::string redrive_permission;                // "allowAll", "byQueue", "denyAll", "" when none

  std::vector<Unknown> unknowns;
  std::vector<ReaderNote> notes;
};

// The SQS import's answers by the attributes asked (a file's queues share a few settings, and
// an import reads a pasted text, so each distinct set of attributes is read once per file).
class SqsImportCache {
 public:
  const config::ImportResult& Read(const std::string& attributes_json);

 private:
  std::map<std::string, config::ImportResult, std::less<>> answers_;
};

// The queue as the model holds it, or an error naming the file, the line and the setting
// (a maxReceiveCount outside 1..1000, a VisibilityTimeout past 12 hours, a retention outside
// 60 s..14 days: SQS's ranges as the import checks them).
Result<QueueConfig> BuildSqsQueue(const SqsQueueFacts& facts, SqsImportCache& cache);

// An Unknown naming an SQS setting as the formats spell it ("redrive_policy.maxReceiveCount
// (known after apply)", "MessageRetentionPeriod (!Sub …)"), with the model fact it leaves
// unknown (model.h, Unknown::field): dead_letter_to, policy, retention_ms, fifo, dead_letter_sources.
Unknown SqsUnknown(std::string what, const Location& at);

// A parser's message (document.h: "<file>:<line>: …") without its location, for an error about
// a JSON string inside a file, which is reported at the line of the setting that holds it.
std::string WithoutLocation(const std::string& message, const std::string& file);

// The queue name at the end of an SQS ARN ("arn:aws:sqs:us-east-1:123456789012:orders-dlq")
// or URL ("https://sqs.us-east-1.amazonaws.com/123456789012/orders-dlq"); "" for neither.
std::string SqsQueueNameOf(const std::string& arn_or_url);

}  // namespace dlq::check
