// Amazon SQS: queue attributes as `aws sqs get-queue-attributes` prints them
// ({"Attributes":{…}} or the attributes alone): RedrivePolicy, VisibilityTimeout,
// MessageRetentionPeriod; with the dead-letter queue's MessageRetentionPeriod given, the
// attributes' own retention is the source queue's. Into the sqs mode.
#include <algorithm>
#include <array>
#include <initializer_list>
#include <string_view>

#include "internal/object_text.h"
#include "internal/pretty_json.h"
#include "internal/snippet_text.h"
#include "internal/translation.h"

namespace dlq::config {
namespace {

constexpr std::array<std::string_view, 6> kReadOnly = {"QueueArn",
                                                       "ApproximateNumberOfMessages",
                                                       "ApproximateNumberOfMessagesNotVisible",
                                                       "ApproximateNumberOfMessagesDelayed",
                                                       "CreatedTimestamp",
                                                       "LastModifiedTimestamp"};
constexpr std::array<std::string_view, 7> kSqsNoBearing = {
    "MaximumMessageSize", "ReceiveMessageWaitTimeSeconds", "Policy", "RedriveAllowPolicy", "SqsManagedSseEnabled",
    "KmsMasterKeyId",     "KmsDataKeyReusePeriodSeconds"};
constexpr std::array<std::string_view, 3> kFifo = {"ContentBasedDeduplication", "DeduplicationScope",
                                                   "FifoThroughputLimit"};
constexpr std::array<std::string_view, 5> kSqsSettings = {"RedrivePolicy", "VisibilityTimeout",
                                                          "MessageRetentionPeriod", "DelaySeconds", "FifoQueue"};
// SQS's retention bounds and default, in seconds.
constexpr double kRetentionMin = 60;
constexpr double kRetentionMax = 1209600;
constexpr double kDefaultRetention = 345600;

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
  if (IsOneOf(kReadOnly, key)) {
    t.Ignore(key, "read-only: it reports the queue, it configures nothing");
  } else if (IsOneOf(kSqsNoBearing, key)) {
    t.Ignore(key, "no bearing on retries or the dead-letter queue");
  } else if (IsOneOf(kFifo, key)) {
    t.Refuse(NotModelled(key, Quoted(value), "a FIFO queue's setting; the sqs mode is a standard queue's"));
  } else if (key == "DelaySeconds") {
    std::optional<double> n = WholeOf(&value);
    if (n && *n == 0) t.Ignore(key, "0: a message is visible at once, as in the lab");
    else t.Refuse(NotModelled(key, Quoted(value), "a delivery delay", "it absent or \"0\""));
  } else if (key == "FifoQueue") {
    if (value.IsBool(false) || value.IsStringEq("false")) t.Ignore(key, "false: a standard queue, as the sqs mode is");
    else
      t.Refuse(NotModelled(key, Quoted(value), "a FIFO queue's message groups; the sqs mode is a standard queue's",
                           "it absent or \"false\""));
  } else if (!IsOneOf(kSqsSettings, key)) {
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
    t.Refuse(
        Refusal("RedrivePolicy", "a JSON object {\"deadLetterTargetArn\": …, \"maxReceiveCount\": …}", Quoted(*given)));
    return;
  }
  for (const auto* m : redrive.Entries()) {
    if (m->first == "deadLetterTargetArn") {
      t.Ignore("RedrivePolicy.deadLetterTargetArn",
               Quoted(m->second) + ": the dead-letter queue is the lab's quarantine");
    } else if (m->first != "maxReceiveCount") {
      t.Refuse(Refusal("RedrivePolicy." + m->first, "deadLetterTargetArn or maxReceiveCount", Quoted(m->second),
                       "is unknown"));
    }
  }
  const JsValue* count = redrive.Find("maxReceiveCount");
  std::optional<double> n = WholeOf(count);
  if (!n || *n < 1 || *n > 1000) {
    t.Refuse(Refusal("RedrivePolicy.maxReceiveCount", "a whole number from 1 to 1000", QuotedOrUndefined(count)));
  } else {
    t.ToNumber("maxAttempts", *n,
               "RedrivePolicy.maxReceiveCount " + Num(*n) + " (every receive counts, crashes included)");
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
      t.ToNumber("quarantine.retentionMs", *s * 1000,
                 "MessageRetentionPeriod " + Num(*s) + " s, read as the dead-letter queue's");
    }
    return;
  }
  std::optional<double> d = Seconds(t, "DLQ MessageRetentionPeriod", dlq, kRetentionMin, kRetentionMax);
  std::optional<double> s = source == nullptr
                                ? std::optional<double>(kDefaultRetention)
                                : Seconds(t, "MessageRetentionPeriod", source, kRetentionMin, kRetentionMax);
  if (!d || !s) return;
  t.ToNumber(
      "quarantine.retentionMs", *d * 1000,
      "the dead-letter queue's MessageRetentionPeriod " + Num(*d) + " s, counted from the first enqueue in the source");
  std::string why = Num(*s) + " s" + (source == nullptr ? " (absent: SQS's default 4 days)" : "") +
                    ": the source queue's; the lab's source keeps a message until it is settled";
  if (*d <= *s) {
    why += ". The DLQ keeps no longer than its source (" + Num(*d) + " s ≤ " + Num(*s) +
           " s): a message that waited in the source arrives with that time spent, and can be dropped soon after it "
           "arrives";
  }
  t.Ignore("MessageRetentionPeriod", why);
}

}  // namespace

bool IsSqsKey(std::string_view key) {
  return IsOneOf(kReadOnly, key) || IsOneOf(kSqsNoBearing, key) || IsOneOf(kFifo, key) || IsOneOf(kSqsSettings, key);
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

// ---- the snippet: the policy in force as a CloudFormation template (web/src/shared/snippets.mjs before issue 32) ----

namespace {

constexpr double kSourceRetention = 345600;  // the source queue's MessageRetentionPeriod: SQS's default, 4 days

struct SqsShape {
  bool fifo;
  double receives, visibility, retention, threshold;
};

// The notes on the lease, backoff and classes; `m.visibility` is the lease as SQS can hold it.
void SqsPolicyNotes(const PolicyFacts& n, SqsShape& m, std::vector<std::string>& notes) {
  ClassShape shape = ShapeOf(n);
  if (m.receives != n.max_attempts)
    notes.push_back("maxAttempts " + Num(n.max_attempts) + ": maxReceiveCount stops at 1000, so it is set to 1000");
  if (m.visibility * 1000 != n.lease_ms) {
    notes.push_back("leaseMs " + Num(n.lease_ms) + ": the visibility timeout is whole seconds, rounded up to " +
                    Num(m.visibility));
  }
  if (m.visibility > 43200) {
    m.visibility = 43200;
    notes.push_back("leaseMs " + Num(n.lease_ms) + ": the visibility timeout stops at 12 hours (43200 s)");
  }
  if (n.backoff.kind != "none") {
    notes.push_back("backoff " + BackoffText(n.backoff) +
                    ": no broker backoff in SQS; an unsettled message returns when its visibility "
                    "timeout ends (a consumer can set a per-message delay with ChangeMessageVisibility)");
  }
  if (!shape.never.empty()) {
    notes.push_back(Joined(shape.never) +
                    ": quarantined at once in the lab; SQS has no permanent failure at the broker, "
                    "so the consumer must send such a message to the DLQ itself and delete it");
  }
  if (shape.crash_never)
    notes.push_back(
        "classes.crash never retries in the lab; in SQS every receive that ends unsettled is retried until "
        "maxReceiveCount");
  for (const RuleFacts* r : shape.own) notes.push_back(RuleText(*r) + ": SQS has one receive budget for every failure");
  if (!shape.alerts.empty())
    notes.push_back("alert on " + Joined(shape.alerts) +
                    ": no per-failure alert in SQS (the CloudWatch alarm watches depth only)");
  if (n.ordering == "key") {
    notes.push_back(
        "ordering key: a FIFO queue with one MessageGroupId per key; a group waits only while a message is in flight, "
        "so once one is dead-lettered the rest of its group goes on (the lab holds the key until replay or "
        "releaseKey)");
  }
  if (n.ordering == "stall")
    notes.push_back("ordering stall: a FIFO queue where every message carries the same MessageGroupId");
}

// The notes on the quarantine. A moved message keeps its original enqueue time on a standard queue [A2], so the
// DLQ's retention must cover the time spent in the source queue plus the lab's retention (a FIFO DLQ resets it;
// the margin does no harm).
void SqsQuarantineNotes(const PolicyFacts& n, SqsShape& m, std::vector<std::string>& notes) {
  m.retention = kRetentionMax;
  if (n.retention_ms == 0) {
    notes.push_back(
        "quarantine.retentionMs 0 keeps entries forever; SQS keeps a message at most 14 days, the value used here");
  } else {
    double wanted = kSourceRetention + std::max(kRetentionMin, SecondsUp(n.retention_ms));
    m.retention = std::min(kRetentionMax, wanted);
    notes.push_back("quarantine.retentionMs " + Num(n.retention_ms) + " -> DLQ MessageRetentionPeriod " +
                    Num(m.retention) + " s: the source queue's " + Num(kSourceRetention) +
                    " s plus the lab's retention" + (m.retention != wanted ? ", stopped at the 14-day maximum" : ""));
  }
  if (!m.fifo) {
    notes.push_back(
        "standard queues: a dead-lettered message keeps its original enqueue time, so the DLQ retention counts from "
        "there, "
        "not from arrival in the DLQ as the lab does; that is why the DLQ keeps messages longer than the source");
  }
  m.threshold = n.alarm_depth > 0 ? n.alarm_depth : 1;
  notes.push_back(n.alarm_depth > 0
                      ? "quarantine.alarmDepth " + Num(n.alarm_depth) + " -> the CloudWatch alarm on the DLQ's depth"
                      : "quarantine.alarmDepth 0 (off): the CloudWatch alarm still fires on the first message in the "
                        "DLQ, as AWS advises");
  notes.push_back(
      "replay(id) resets attempts; SQS moves dead letters back in bulk with StartMessageMoveTask (the redrive), no "
      "single-message replay");
  CommonNotes(n, notes);
}

// An AWS::SQS::Queue's properties: its name (".fifo" on a FIFO queue), FifoQueue, then `props`.
JsValue QueueProperties(const SqsShape& m, const std::string& name,
                        std::initializer_list<std::pair<std::string, JsValue>> props) {
  JsValue out = JsObject({{"QueueName", JsValue::String(m.fifo ? name + ".fifo" : name)}});
  if (m.fifo) out.Set("FifoQueue", JsValue::Bool(true));
  for (const auto& [key, value] : props) out.Set(key, value);
  return out;
}

JsValue SqsResources(const PolicyFacts& n, const SqsShape& m) {
  auto num = JsValue::Number;
  auto str = JsValue::String;
  JsValue redrive =
      JsObject({{"deadLetterTargetArn", JsObject({{"Fn::GetAtt", JsArray({str("OrdersDLQ"), str("Arn")})}})},
                {"maxReceiveCount", num(m.receives)}});
  JsValue alarm = JsObject(
      {{"AlarmDescription", str("orders-dlq holds " + Num(m.threshold) + " or more messages (quarantine.alarmDepth " +
                                Num(n.alarm_depth) + ")")},
       {"Namespace", str("AWS/SQS")},
       {"MetricName", str("ApproximateNumberOfMessagesVisible")},
       {"Dimensions",
        JsArray({JsObject({{"Name", str("QueueName")},
                           {"Value", JsObject({{"Fn::GetAtt", JsArray({str("OrdersDLQ"), str("QueueName")})}})}})})},
       {"Statistic", str("Maximum")},
       {"Period", num(60)},
       {"EvaluationPeriods", num(1)},
       {"Threshold", num(m.threshold)},
       {"ComparisonOperator", str("GreaterThanOrEqualToThreshold")},
       {"AlarmActions", JsArray({JsObject({{"Ref", str("OrdersDLQAlarmTopic")}})})}});
  return JsObject(
      {{"OrdersDLQ",
        JsObject({{"Type", str("AWS::SQS::Queue")},
                  {"Properties", QueueProperties(m, "orders-dlq", {{"MessageRetentionPeriod", num(m.retention)}})}})},
       {"OrdersDLQAlarmTopic", JsObject({{"Type", str("AWS::SNS::Topic")},
                                         {"Properties", JsObject({{"TopicName", str("orders-dlq-alarm")}})}})},
       {"OrdersQueue", JsObject({{"Type", str("AWS::SQS::Queue")},
                                 {"Properties", QueueProperties(m, "orders",
                                                                {{"VisibilityTimeout", num(m.visibility)},
                                                                 {"MessageRetentionPeriod", num(kSourceRetention)},
                                                                 {"RedrivePolicy", redrive}})}})},
       {"OrdersDLQDepthAlarm", JsObject({{"Type", str("AWS::CloudWatch::Alarm")}, {"Properties", alarm}})}});
}

}  // namespace

Snippet SqsSnippet(const PolicyFacts& n) {
  SqsShape m{};
  m.fifo = n.ordering != "none";
  m.receives = Clamp(n.max_attempts, 1, 1000);
  m.visibility = SecondsUp(n.lease_ms);
  std::vector<std::string> notes;
  SqsPolicyNotes(n, m, notes);
  SqsQuarantineNotes(n, m, notes);
  JsValue template_ = JsObject(
      {{"AWSTemplateFormatVersion", JsValue::String("2010-09-09")},
       {"Description", JsValue::String("dlq-lab policy as an SQS queue with a redrive policy: maxAttempts " +
                                       Num(n.max_attempts) + " -> maxReceiveCount " + Num(m.receives))},
       {"Metadata",
        JsObject({{"dlq-lab", JsObject({{"policy", JsValue::String(PolicyText(n))}, {"notes", JsStrings(notes)}})}})},
       {"Resources", SqsResources(n, m)}});
  return {"json", PrettyJson(template_) + "\n"};
}

}  // namespace dlq::config
