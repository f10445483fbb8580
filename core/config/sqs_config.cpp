// Amazon SQS: queue attributes as `aws sqs get-queue-attributes` prints them
// ({"Attributes":{…}} or the attributes alone): RedrivePolicy, VisibilityTimeout,
// MessageRetentionPeriod; with the dead-letter queue's MessageRetentionPeriod given, the
// attributes' own retention is the source queue's. Into the sqs mode.
#include <array>
#include <string_view>

#include "internal/object_text.h"
#include "internal/translation.h"

namespace dlq::config {
namespace {

constexpr std::array<std::string_view, 6> kReadOnly = {
    "QueueArn", "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible",
    "ApproximateNumberOfMessagesDelayed", "CreatedTimestamp", "LastModifiedTimestamp"};
constexpr std::array<std::string_view, 7> kNoBearing = {
    "MaximumMessageSize", "ReceiveMessageWaitTimeSeconds", "Policy", "RedriveAllowPolicy", "SqsManagedSseEnabled",
    "KmsMasterKeyId", "KmsDataKeyReusePeriodSeconds"};
constexpr std::array<std::string_view, 3> kFifo = {"ContentBasedDeduplication", "DeduplicationScope", "FifoThroughputLimit"};
constexpr std::array<std::string_view, 5> kSettings = {"RedrivePolicy", "VisibilityTimeout", "MessageRetentionPeriod",
                                                       "DelaySeconds", "FifoQueue"};
// SQS's retention bounds and default, in seconds.
constexpr double kRetentionMin = 60;
constexpr double kRetentionMax = 1209600;
constexpr double kDefaultRetention = 345600;

template <size_t N>
bool In(const std::array<std::string_view, N>& set, std::string_view key) {
  for (std::string_view k : set) {
    if (k == key) return true;
  }
  return false;
}

// A whole number of seconds in [lo, hi] from an SQS attribute, or a refusal (nullopt).
std::optional<double> Seconds(Translation& t, const std::string& key, const JsValue* value, double lo, double hi) {
  std::optional<double> n = WholeOf(value);
  if (!n || *n < lo || *n > hi) {
    t.Refuse(Refusal(key, "whole seconds from " + Num(lo) + " to " + Num(hi), QuotedOrUndefined(value)));
    return std::nullopt;
  }
  return n;
}

void Attribute(Translation& t, const std::string& key, const JsValue& value) {
  if (In(kReadOnly, key)) {
    t.Ignore(key, "read-only: it reports the queue, it configures nothing");
  } else if (In(kNoBearing, key)) {
    t.Ignore(key, "no bearing on retries or the dead-letter queue");
  } else if (In(kFifo, key)) {
    t.Refuse(NotModelled(key, Quoted(value), "a FIFO queue's setting; the sqs mode is a standard queue's"));
  } else if (key == "DelaySeconds") {
    std::optional<double> n = WholeOf(&value);
    if (n && *n == 0) t.Ignore(key, "0: a message is visible at once, as in the lab");
    else t.Refuse(NotModelled(key, Quoted(value), "a delivery delay", "it absent or \"0\""));
  } else if (key == "FifoQueue") {
    if (value.IsBool(false) || value.IsStringEq("false")) t.Ignore(key, "false: a standard queue, as the sqs mode is");
    else t.Refuse(NotModelled(key, Quoted(value), "a FIFO queue's message groups; the sqs mode is a standard queue's", "it absent or \"false\""));
  } else if (!In(kSettings, key)) {
    t.Refuse(Refusal(key, "an SQS queue attribute (RedrivePolicy, VisibilityTimeout, MessageRetentionPeriod, …)",
                     Quoted(value), "is unknown"));
  }
}

// RedrivePolicy: a JSON string as the CLI prints it, or the object.
void Redrive(Translation& t, const JsValue* given) {
  if (given == nullptr) {
    t.Refuse(Refusal("RedrivePolicy", "a redrive policy with maxReceiveCount", "none",
                     "is missing: without it SQS has no dead-letter queue and keeps a failing message until its "
                     "retention ends, which the lab cannot express"));
    return;
  }
  JsValue redrive = *given;
  if (given->IsString()) {
    ObjectTextRead read = ReadObjectText(given->text, "RedrivePolicy");
    if (!read.ok && read.why != "is not JSON") {  // a duplicate key or too deep a nesting inside the string
      std::string key = read.key == "RedrivePolicy" ? read.key : "RedrivePolicy." + read.key;
      t.Refuse(Refusal(key, read.expected, read.given, read.why));
      return;
    }
    redrive = read.ok ? std::move(read.value) : JsValue::Null();
  }
  if (!redrive.IsObject()) {
    t.Refuse(Refusal("RedrivePolicy", "a JSON object {\"deadLetterTargetArn\": …, \"maxReceiveCount\": …}", Quoted(*given)));
    return;
  }
  for (const auto* m : redrive.Entries()) {
    if (m->first == "deadLetterTargetArn") {
      t.Ignore("RedrivePolicy.deadLetterTargetArn", Quoted(m->second) + ": the dead-letter queue is the lab's quarantine");
    } else if (m->first != "maxReceiveCount") {
      t.Refuse(Refusal("RedrivePolicy." + m->first, "deadLetterTargetArn or maxReceiveCount", Quoted(m->second), "is unknown"));
    }
  }
  const JsValue* count = redrive.Find("maxReceiveCount");
  std::optional<double> n = WholeOf(count);
  if (!n || *n < 1 || *n > 1000) {
    t.Refuse(Refusal("RedrivePolicy.maxReceiveCount", "a whole number from 1 to 1000", QuotedOrUndefined(count)));
  } else {
    t.ToNumber("maxAttempts", *n, "RedrivePolicy.maxReceiveCount " + Num(*n) + " (every receive counts, crashes included)");
  }
}

// SQS's retention, as the sqs mode plays it: the dead-letter queue's MessageRetentionPeriod is the
// quarantine's retention, counted from the message's first enqueue in the source (a standard queue
// keeps that timestamp when it moves a message), so a DLQ that keeps no longer than its source can
// drop a message soon after it arrives. The source queue's own retention has no counterpart: the
// lab's source keeps a message until it is settled.
void Retention(Translation& t, const JsValue* source, const JsValue* dlq) {
  if (dlq == nullptr) {  // one queue's attributes: its retention is read as the dead-letter queue's
    if (source == nullptr) {
      t.ToNumber("quarantine.retentionMs", kDefaultRetention * 1000,
                 "MessageRetentionPeriod absent (SQS's default 4 days), read as the dead-letter queue's");
    } else if (std::optional<double> s = Seconds(t, "MessageRetentionPeriod", source, kRetentionMin, kRetentionMax)) {
      t.ToNumber("quarantine.retentionMs", *s * 1000, "MessageRetentionPeriod " + Num(*s) + " s, read as the dead-letter queue's");
    }
    return;
  }
  std::optional<double> d = Seconds(t, "DLQ MessageRetentionPeriod", dlq, kRetentionMin, kRetentionMax);
  std::optional<double> s = source == nullptr ? std::optional<double>(kDefaultRetention)
                                              : Seconds(t, "MessageRetentionPeriod", source, kRetentionMin, kRetentionMax);
  if (!d || !s) return;
  t.ToNumber("quarantine.retentionMs", *d * 1000,
             "the dead-letter queue's MessageRetentionPeriod " + Num(*d) + " s, counted from the first enqueue in the source");
  std::string why = Num(*s) + " s" + (source == nullptr ? " (absent: SQS's default 4 days)" : "") +
                    ": the source queue's; the lab's source keeps a message until it is settled";
  if (*d <= *s) {
    why += ". The DLQ keeps no longer than its source (" + Num(*d) + " s ≤ " + Num(*s) +
           " s): a message that waited in the source arrives with that time spent, and can be dropped soon after it arrives";
  }
  t.Ignore("MessageRetentionPeriod", why);
}

}  // namespace

bool IsSqsKey(std::string_view key) {
  return In(kReadOnly, key) || In(kNoBearing, key) || In(kFifo, key) || In(kSettings, key);
}

ImportResult ReadSqs(const JsValue& attributes, const JsValue* dlq_retention) {
  Translation t("sqs", "sqs");
  for (const auto* m : attributes.Entries()) Attribute(t, m->first, m->second);
  Redrive(t, attributes.Find("RedrivePolicy"));
  const JsValue* visibility = attributes.Find("VisibilityTimeout");
  if (visibility == nullptr) {
    t.ToNumber("leaseMs", 30000, "VisibilityTimeout absent (SQS's default 30 s)");
  } else if (std::optional<double> s = Seconds(t, "VisibilityTimeout", visibility, 0, 43200)) {
    t.ToNumber("leaseMs", *s * 1000, "VisibilityTimeout " + Num(*s) + " s");
  }
  t.NoBackoff("SQS has no backoff: a failed message is back when its visibility timeout ends");
  Retention(t, attributes.Find("MessageRetentionPeriod"), dlq_retention);
  return std::move(t).Result();
}

}  // namespace dlq::config
