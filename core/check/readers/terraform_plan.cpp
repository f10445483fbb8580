// Terraform plan JSON (`terraform show -json PLAN`; a state's `terraform show -json` too):
// aws_sqs_queue with its inline redrive_policy / redrive_allow_policy (JSON strings inside
// the JSON), the separate aws_sqs_queue_redrive_policy / aws_sqs_queue_redrive_allow_policy
// resources joined to their queue, and aws_cloudwatch_metric_alarm on a queue's depth. A value
// known only after apply is resolved through the configuration's references where they name
// a queue of the plan; otherwise it is an Unknown. Azure Service Bus queues and subscriptions
// (azurerm_servicebus_*) are read by service_bus_plan.cpp. docs/check.md "Formats".
#include <algorithm>
#include <map>
#include <string>
#include <string_view>

#include "aws_readers.h"
#include "plan_index.h"
#include "config_import.h"
#include "service_bus_plan.h"
#include "pubsub_plan.h"
#include "sqs_queue.h"

namespace dlq::check {
namespace {

constexpr std::string_view kPlanQueueType = "aws_sqs_queue";

class PlanReader {
 public:
  PlanReader(const SourceFile& file, const Node& root) : file_(file), plan_(root) {}
  Status Read(Inventory* out);

 private:
  Location Where(const PlanResource& r, std::string_view attribute) const;
  Status ReadQueue(const PlanResource& r);
  Status Seconds(const PlanResource& r, const char* attribute, SqsSetting& s, SqsQueueFacts& f) const;
  Result<const Node*> JsonAttribute(const PlanResource& r, std::string_view attribute, Document& holder) const;
  Status ReadRedrive(const PlanResource& r, SqsQueueFacts& f) const;
  Status ReadRedriveObject(const Node& redrive, const Location& at, SqsQueueFacts& f) const;
  Status ReadRedriveAllow(const PlanResource& r, SqsQueueFacts& f) const;
  SqsQueueFacts* QueueOf(const PlanResource& r);
  void ReadAlarm(const PlanResource& r, Inventory* out) const;
  std::string IdOf(const std::string& arn_url_or_name) const;

  const SourceFile& file_;
  PlanIndex plan_;
  std::vector<SqsQueueFacts> queues_;
  std::map<std::string, size_t, std::less<>> by_id_;
  std::map<std::string, std::string, std::less<>> id_by_key_;  // a queue's id, name, ARN, URL -> its id
};

// Where `attribute` of `r` is set: its key in the planned values, else its expression in the
// configuration, else the resource's address.
Location PlanReader::Where(const PlanResource& r, std::string_view attribute) const {
  if (r.values != nullptr && r.values->Get(attribute) != nullptr) return {file_.path, r.values->KeyLine(attribute)};
  if (r.expressions != nullptr && r.expressions->Get(attribute) != nullptr) {
    return {file_.path, r.expressions->KeyLine(attribute)};
  }
  return {file_.path, r.node->KeyLine("address")};
}

Status PlanReader::Read(Inventory* out) {
  for (const PlanResource& r : plan_.resources()) {
    if (r.type == kPlanQueueType) RETURN_IF_ERROR(ReadQueue(r));
  }
  for (const SqsQueueFacts& f : queues_) {  // the first queue of a name keeps it
    id_by_key_.emplace(f.id, f.id);
    id_by_key_.emplace(f.name, f.id);
    for (const std::string& a : f.aliases) id_by_key_.emplace(a, f.id);
  }
  for (const PlanResource& r : plan_.resources()) {
    const bool redrive = r.type == "aws_sqs_queue_redrive_policy";
    if (!redrive && r.type != "aws_sqs_queue_redrive_allow_policy") continue;
    SqsQueueFacts* q = QueueOf(r);
    if (q == nullptr) continue;  // a queue this plan does not declare: nothing of it to check here
    RETURN_IF_ERROR(redrive ? ReadRedrive(r, *q) : ReadRedriveAllow(r, *q));
  }
  SqsImportCache cache;
  out->queues.reserve(out->queues.size() + queues_.size());
  for (SqsQueueFacts& f : queues_) {  // ARNs of the plan's own queues, as their ids
    if (!f.dead_letter_to.empty()) f.dead_letter_to = IdOf(f.dead_letter_to);
    for (std::string& source : f.dead_letter_sources) source = IdOf(source);
    Result<QueueConfig> q = BuildSqsQueue(f, cache);
    if (!q.ok()) return q.status();
    out->queues.push_back(std::move(q).value());
  }
  for (const PlanResource& r : plan_.resources()) {
    if (r.type == "aws_cloudwatch_metric_alarm") ReadAlarm(r, out);
  }
  for (const PlanResource& r : plan_.resources()) {
    if (IsServiceBusResource(r.type)) RETURN_IF_ERROR(ReadServiceBusResource(file_, r, out));
  }
  return ReadPubSubSubscriptions(file_, plan_, out);
}

Status PlanReader::ReadQueue(const PlanResource& r) {
  SqsQueueFacts f;
  f.id = r.address;
  f.at = {file_.path, r.node->KeyLine("address")};
  const Node* v = r.values;
  f.name = TextOf(v != nullptr ? v->Get("name") : nullptr);
  if (f.name.empty()) f.name = r.address.substr(r.address.rfind(kPlanQueueType) + kPlanQueueType.size() + 1);
  for (const char* alias : {"arn", "url", "id"}) {
    std::string a = TextOf(v != nullptr ? v->Get(alias) : nullptr);
    if (!a.empty() && std::find(f.aliases.begin(), f.aliases.end(), a) == f.aliases.end()) f.aliases.push_back(a);
  }
  if (PlanIndex::IsUnknown(r, "fifo_queue")) {
    f.fifo_unknown = true;
    f.fifo_at = Where(r, "fifo_queue");
    f.unknowns.push_back(SqsUnknown("fifo_queue (known after apply)", f.fifo_at));
  } else if (const Node* fifo = v != nullptr ? v->Get("fifo_queue") : nullptr; fifo != nullptr && !fifo->IsNull()) {
    f.fifo = AsBool(*fifo);
    f.fifo_at = Where(r, "fifo_queue");
    if (!f.fifo) return ErrorAt(f.fifo_at, "fifo_queue: expected true or false, got " + TextOf(fifo));
  }
  RETURN_IF_ERROR(Seconds(r, "visibility_timeout_seconds", f.visibility_timeout, f));
  RETURN_IF_ERROR(Seconds(r, "message_retention_seconds", f.retention, f));
  RETURN_IF_ERROR(Seconds(r, "delay_seconds", f.delay, f));
  RETURN_IF_ERROR(ReadRedrive(r, f));
  RETURN_IF_ERROR(ReadRedriveAllow(r, f));
  by_id_.emplace(f.id, queues_.size());
  queues_.push_back(std::move(f));
  return Status::Ok();
}

// A whole number of seconds: known, known after apply (an Unknown), or absent (SQS's default).
Status PlanReader::Seconds(const PlanResource& r, const char* attribute, SqsSetting& s, SqsQueueFacts& f) const {
  s.key = attribute;
  s.at = Where(r, attribute);
  if (PlanIndex::IsUnknown(r, attribute)) {
    s.unknown = true;
    f.unknowns.push_back(SqsUnknown(std::string(attribute) + " (known after apply)", s.at));
    return Status::Ok();
  }
  const Node* n = r.values != nullptr ? r.values->Get(attribute) : nullptr;
  if (n == nullptr || n->IsNull()) return Status::Ok();
  s.value = AsInteger(*n);
  if (!s.value) return ErrorAt(s.at, std::string(attribute) + ": expected a whole number of seconds, got " + TextOf(n));
  return Status::Ok();
}

// A JSON-string attribute (redrive_policy) read with the checker's JSON parser: its object,
// nullptr when unset or empty, or an error at the attribute's line. `holder` keeps the tree.
Result<const Node*> PlanReader::JsonAttribute(const PlanResource& r, std::string_view attribute,
                                              Document& holder) const {
  const Node* n = r.values != nullptr ? r.values->Get(attribute) : nullptr;
  if (n == nullptr || n->IsNull()) return static_cast<const Node*>(nullptr);
  if (n->IsMap()) return n;
  std::string text = TextOf(n);
  if (n->kind != Node::Kind::kString) {
    return ErrorAt(Where(r, attribute), std::string(attribute) + ": expected a JSON string, got " + text);
  }
  if (text.empty()) return static_cast<const Node*>(nullptr);
  Result<Document> doc = ParseJson(file_.path, text);
  if (!doc.ok()) {
    return ErrorAt(Where(r, attribute),
                   std::string(attribute) + " is not JSON: " + WithoutLocation(doc.status().message(), file_.path));
  }
  holder = std::move(doc).value();
  return &holder.root;
}

Status PlanReader::ReadRedrive(const PlanResource& r, SqsQueueFacts& f) const {
  constexpr std::string_view kAttr = "redrive_policy";
  const Location at = Where(r, kAttr);
  f.max_receive_count = {"redrive_policy.maxReceiveCount", at, std::nullopt, false};
  if (PlanIndex::IsUnknown(r, kAttr)) {
    // Optional and computed in the AWS provider: unknown without an expression is unset.
    if (PlanIndex::Expression(r, kAttr) == nullptr) return Status::Ok();
    f.has_redrive = true;
    f.redrive_at = f.dead_letter_at = at;
    std::vector<const PlanResource*> targets = plan_.References(r, kAttr, kPlanQueueType);
    if (targets.size() == 1) {
      f.dead_letter_to = targets.front()->address;
      f.notes.push_back({"redrive_policy is known after apply: its dead-letter queue is " + targets.front()->address +
                             ", from the configuration's references",
                         at});
    } else {
      f.dead_letter_to.clear();
      f.unknowns.push_back(SqsUnknown("redrive_policy.deadLetterTargetArn (known after apply)", at));
    }
    f.max_receive_count.unknown = true;
    f.unknowns.push_back(SqsUnknown("redrive_policy.maxReceiveCount (known after apply)", at));
    return Status::Ok();
  }
  Document holder;
  Result<const Node*> redrive = JsonAttribute(r, kAttr, holder);
  if (!redrive.ok()) return redrive.status();
  if (redrive.value() == nullptr) return Status::Ok();
  return ReadRedriveObject(*redrive.value(), at, f);
}

// {"deadLetterTargetArn": ARN, "maxReceiveCount": N}: every location is the attribute's line.
Status PlanReader::ReadRedriveObject(const Node& redrive, const Location& at, SqsQueueFacts& f) const {
  if (!redrive.IsMap()) {
    return ErrorAt(at, "redrive_policy: expected a JSON object {\"deadLetterTargetArn\": …, \"maxReceiveCount\": …}");
  }
  const Node* arn = redrive.Get("deadLetterTargetArn");
  if (arn == nullptr || TextOf(arn).empty()) return ErrorAt(at, "redrive_policy: deadLetterTargetArn is missing");
  const Node* count = redrive.Get("maxReceiveCount");
  if (count == nullptr) return ErrorAt(at, "redrive_policy: maxReceiveCount is missing");
  f.max_receive_count.value = AsInteger(*count);
  if (!f.max_receive_count.value) {
    return ErrorAt(
        at, "redrive_policy.maxReceiveCount: expected a whole number from 1 to 1000, got \"" + TextOf(count) + "\"");
  }
  f.has_redrive = true;
  f.redrive_at = f.dead_letter_at = at;
  f.dead_letter_to = TextOf(arn);
  return Status::Ok();
}

// {"redrivePermission": "byQueue", "sourceQueueArns": [...]}: marks a queue meant as a DLQ.
Status PlanReader::ReadRedriveAllow(const PlanResource& r, SqsQueueFacts& f) const {
  constexpr std::string_view kAttr = "redrive_allow_policy";
  if (PlanIndex::IsUnknown(r, kAttr)) {
    if (PlanIndex::Expression(r, kAttr) == nullptr) return Status::Ok();
    // sourceQueueArns is only allowed with byQueue, so a policy that names queues is byQueue.
    for (const PlanResource* source : plan_.References(r, kAttr, kPlanQueueType)) {
      if (source->address != f.id) f.dead_letter_sources.push_back(source->address);
    }
    f.redrive_permission = f.dead_letter_sources.empty() ? "" : "byQueue";
    if (f.dead_letter_sources.empty())
      f.unknowns.push_back(SqsUnknown("redrive_allow_policy (known after apply)", Where(r, kAttr)));
    return Status::Ok();
  }
  Document holder;
  Result<const Node*> allow = JsonAttribute(r, kAttr, holder);
  if (!allow.ok()) return allow.status();
  if (allow.value() == nullptr) return Status::Ok();
  const Node& policy = *allow.value();
  f.redrive_permission = TextOf(policy.Get("redrivePermission"));
  if (f.redrive_permission != "allowAll" && f.redrive_permission != "byQueue" && f.redrive_permission != "denyAll") {
    return ErrorAt(Where(r, kAttr),
                   "redrive_allow_policy.redrivePermission: expected allowAll, byQueue or denyAll, got \"" +
                       f.redrive_permission + "\"");
  }
  if (const Node* sources = policy.Get("sourceQueueArns"); sources != nullptr && sources->IsList()) {
    for (const Node& s : sources->items) f.dead_letter_sources.push_back(TextOf(&s));
  }
  return Status::Ok();
}

// The queue a separate redrive resource's queue_url names: by its URL, else by reference.
SqsQueueFacts* PlanReader::QueueOf(const PlanResource& r) {
  std::string id;
  if (!PlanIndex::IsUnknown(r, "queue_url")) {
    id = IdOf(TextOf(r.values != nullptr ? r.values->Get("queue_url") : nullptr));
  } else if (std::vector<const PlanResource*> q = plan_.References(r, "queue_url", kPlanQueueType); q.size() == 1) {
    id = q.front()->address;
  }
  auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : &queues_[it->second];
}

// An alarm on ApproximateNumberOfMessagesVisible in AWS/SQS, by its QueueName dimension.
void PlanReader::ReadAlarm(const PlanResource& r, Inventory* out) const {
  const Node* v = r.values;
  if (v == nullptr || TextOf(v->Get("metric_name")) != kSqsDepthMetric || TextOf(v->Get("namespace")) != "AWS/SQS")
    return;
  DepthAlarm alarm;
  alarm.at = Where(r, "dimensions");
  if (!PlanIndex::IsUnknown(r, "dimensions.QueueName")) {
    const Node* dimensions = v->Get("dimensions");
    alarm.queue = IdOf(TextOf(dimensions != nullptr ? dimensions->Get("QueueName") : nullptr));
  } else if (std::vector<const PlanResource*> q = plan_.References(r, "dimensions.QueueName", kPlanQueueType);
             q.size() == 1) {
    alarm.queue = q.front()->address;
  }
  if (!alarm.queue.empty()) out->alarms.push_back(std::move(alarm));
}

// The id of the plan's queue with this id, name, ARN or URL (or an ARN or URL ending in its
// name); the text itself for any other.
std::string PlanReader::IdOf(const std::string& key) const {
  auto it = id_by_key_.find(key);
  if (it == id_by_key_.end()) it = id_by_key_.find(SqsQueueNameOf(key));  // an ARN the plan builds from a name
  return it != id_by_key_.end() ? it->second : key;
}

}  // namespace

bool DetectsTerraformPlan(std::string_view path, std::string_view text, const Node* root) {
  (void)path, (void)text;
  return root != nullptr && root->IsMap() && root->Get("format_version") != nullptr &&
         root->Get("terraform_version") != nullptr &&
         (root->Get("planned_values") != nullptr || root->Get("values") != nullptr);
}

Status ReadTerraformPlan(const SourceFile& file, const Document* doc, Inventory* out) {
  if (doc == nullptr) return ErrorAt({file.path, 0}, "a Terraform plan is JSON");
  PlanReader reader(file, doc->root);
  return reader.Read(out);
}

}  // namespace dlq::check
