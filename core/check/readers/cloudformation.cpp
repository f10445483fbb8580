// CloudFormation templates, YAML or JSON: AWS::SQS::Queue (RedrivePolicy, RedriveAllowPolicy,
// VisibilityTimeout, MessageRetentionPeriod, FifoQueue, QueueName) and AWS::CloudWatch::Alarm
// on a queue's depth. Intrinsics in both forms: `!GetAtt X.Arn`, `!GetAtt [X, Arn]`,
// {"Fn::GetAtt": ["X", "Arn"]}, `!Ref X` / {"Ref": "X"}; a parameter is read from its Default
// (with a note: a deploy may override it), and what the template cannot tell (`!Sub` with a
// variable, `!ImportValue`, a parameter without Default, a pseudo parameter) is an Unknown.
// docs/check.md "Formats".
#include <algorithm>
#include <climits>
#include <map>
#include <string>
#include <string_view>

#include "aws_readers.h"
#include "config_import.h"
#include "sqs_queue.h"

namespace dlq::check {
namespace {

constexpr std::string_view kCfnQueueType = "AWS::SQS::Queue";

// A property's value with its intrinsics resolved as far as the template tells.
struct Value {
  enum class Kind { kLiteral, kResource, kUnknown };
  Kind kind = Kind::kUnknown;
  const Node* literal = nullptr;  // kLiteral: the scalar (a parameter's Default included)
  std::string resource;           // kResource: the logical id
  std::string attribute;          // kResource: "Arn", "QueueName", "Ref"
  std::string what;               // kUnknown: what it is ("!Sub ${Env}-orders"); kLiteral from a parameter: its name
};

class TemplateReader {
 public:
  TemplateReader(const SourceFile& file, const Node& root)
      : file_(file), root_(root), resources_(root.Get("Resources")), parameters_(root.Get("Parameters")) {}
  Status Read(Inventory* out);

 private:
  Location At(const Node& n) const { return {file_.path, n.line, n.column}; }
  Location KeyAt(const Node& map, std::string_view key) const { return {file_.path, map.KeyLine(key)}; }
  std::string TypeOf(std::string_view logical_id) const;
  Result<Value> Resolve(const Node& n, std::string_view setting) const;
  Result<Value> Ref(const Node& n, const std::string& name, std::string_view setting) const;
  Result<Value> GetAtt(const Node& n, const Node& arg, std::string_view setting) const;
  Status Seconds(const Node& props, const char* key, SqsSetting& s, SqsQueueFacts& f) const;
  Result<std::string> QueueRef(const Node& n, std::string_view setting, SqsQueueFacts& f, const Location& at) const;
  Status ReadQueue(const std::string& id, const Node& resource, SqsQueueFacts& f) const;
  Status ReadRedrive(const Node& props, SqsQueueFacts& f) const;
  Status ReadRedriveAllow(const Node& props, SqsQueueFacts& f) const;
  Status ReadAlarm(const Node& resource, Inventory* out) const;

  const SourceFile& file_;
  const Node& root_;
  const Node* resources_;
  const Node* parameters_;
};

std::string TemplateReader::TypeOf(std::string_view logical_id) const {
  const Node* r = resources_ != nullptr ? resources_->Get(logical_id) : nullptr;
  return r != nullptr ? TextOf(r->Get("Type")) : "";
}

// An intrinsic function in its long form: {"Ref": …} or {"Fn::GetAtt": …}.
bool IsFunctionMap(const Node& n) {
  return n.IsMap() && n.keys.size() == 1 && (n.keys[0] == "Ref" || n.keys[0].starts_with("Fn::"));
}

Result<Value> TemplateReader::Resolve(const Node& n, std::string_view setting) const {
  std::string tag = n.tag;
  const Node* arg = &n;
  if (tag.empty() && IsFunctionMap(n)) {
    tag = n.keys[0] == "Ref" ? "!Ref" : "!" + n.keys[0].substr(4);
    arg = &n.items[0];
  }
  Value v;
  if (tag.empty()) {
    if (!n.IsScalar())
      return ErrorAt(At(n), std::string(setting) + ": expected a value, got a " +
                                (n.IsMap()    ? "map"
                                 : n.IsList() ? "list"
                                              : "null"));
    v.kind = Value::Kind::kLiteral;
    v.literal = &n;
    return v;
  }
  if (tag == "!Ref") return Ref(n, TextOf(arg), setting);
  if (tag == "!GetAtt") return GetAtt(n, *arg, setting);
  if (tag == "!Sub" && arg->IsScalar() && TextOf(arg).find("${") == std::string::npos) {
    v.kind = Value::Kind::kLiteral;
    v.literal = arg;
    return v;
  }
  v.what = tag + (arg->IsScalar() ? " " + TextOf(arg) : "");
  return v;
}

Result<Value> TemplateReader::Ref(const Node& n, const std::string& name, std::string_view setting) const {
  Value v;
  if (const Node* p = parameters_ != nullptr ? parameters_->Get(name) : nullptr) {
    const Node* given = p->Get("Default");
    if (given != nullptr && given->IsScalar()) {
      v.kind = Value::Kind::kLiteral;
      v.literal = given;
    }
    v.what = "parameter " + name;
    return v;
  }
  if (!TypeOf(name).empty()) {
    v.kind = Value::Kind::kResource;
    v.resource = name;
    v.attribute = "Ref";
    return v;
  }
  if (name.starts_with("AWS::")) {
    v.what = "pseudo parameter " + name;
    return v;
  }
  return ErrorAt(At(n), std::string(setting) + ": !Ref names " + name +
                            ", which the template declares neither as a parameter nor as a resource");
}

Result<Value> TemplateReader::GetAtt(const Node& n, const Node& arg, std::string_view setting) const {
  std::string id, attribute;
  if (arg.IsScalar()) {
    std::string text = TextOf(&arg);
    size_t dot = text.find('.');
    id = text.substr(0, dot);
    attribute = dot == std::string::npos ? "" : text.substr(dot + 1);
  } else if (arg.IsList() && arg.items.size() == 2) {
    id = TextOf(&arg.items[0]);
    attribute = TextOf(&arg.items[1]);
  }
  if (id.empty() || attribute.empty()) {
    return ErrorAt(At(n), std::string(setting) + ": expected !GetAtt Resource.Attribute, got " + TextOf(&arg));
  }
  if (TypeOf(id).empty()) {
    return ErrorAt(At(n), std::string(setting) + ": !GetAtt names " + id + ", which the template does not declare");
  }
  Value v;
  v.kind = Value::Kind::kResource;
  v.resource = id;
  v.attribute = attribute;
  return v;
}

// A property naming a queue (deadLetterTargetArn, a source's ARN): a queue of the template (its
// logical id), a literal ARN, or "" with an Unknown.
Result<std::string> TemplateReader::QueueRef(const Node& n, std::string_view setting, SqsQueueFacts& f,
                                             const Location& at) const {
  Result<Value> v = Resolve(n, setting);
  if (!v.ok()) return v.status();
  if (v->kind == Value::Kind::kResource) {
    if (TypeOf(v->resource) != kCfnQueueType) {
      return ErrorAt(at, std::string(setting) + ": expected a queue (" + std::string(kCfnQueueType) + "), got " +
                             v->resource + ", a " + TypeOf(v->resource));
    }
    return v->resource;
  }
  if (v->kind == Value::Kind::kLiteral) return TextOf(v->literal);
  f.unknowns.push_back(SqsUnknown(std::string(setting) + " (" + v->what + ")", at));
  return std::string();
}

Status TemplateReader::Seconds(const Node& props, const char* key, SqsSetting& s, SqsQueueFacts& f) const {
  s.key = key;
  s.at = f.at;
  const Node* n = props.Get(key);
  if (n == nullptr) return Status::Ok();
  s.at = KeyAt(props, key);
  Result<Value> v = Resolve(*n, key);
  if (!v.ok()) return v.status();
  if (v->kind != Value::Kind::kLiteral) {
    s.unknown = true;
    f.unknowns.push_back(SqsUnknown(std::string(key) + " (" + v->what + ")", s.at));
    return Status::Ok();
  }
  s.value = AsInteger(*v->literal);
  if (!s.value) {
    return ErrorAt(s.at, std::string(key) + ": expected a whole number of seconds, got \"" + TextOf(v->literal) + "\"");
  }
  if (!v->what.empty())
    f.notes.push_back({std::string(key) + " from " + v->what + "'s Default (a deploy may override it)", s.at});
  return Status::Ok();
}

Status TemplateReader::ReadQueue(const std::string& id, const Node& resource, SqsQueueFacts& f) const {
  f.id = f.name = id;
  f.at = KeyAt(*resources_, id);
  const Node* props = resource.Get("Properties");
  if (props == nullptr || !props->IsMap()) return Status::Ok();
  if (const Node* name = props->Get("QueueName")) {
    Result<Value> v = Resolve(*name, "QueueName");
    if (!v.ok()) return v.status();
    if (v->kind == Value::Kind::kLiteral) {
      f.name = TextOf(v->literal);
      // An empty name would name no queue (AWS needs 1 to 80 characters): refused, not read as "".
      if (f.name.empty()) return ErrorAt(KeyAt(*props, "QueueName"), "QueueName: expected a queue name, got \"\"");
    }
  }
  if (const Node* fifo = props->Get("FifoQueue")) {
    f.fifo_at = KeyAt(*props, "FifoQueue");
    Result<Value> v = Resolve(*fifo, "FifoQueue");
    if (!v.ok()) return v.status();
    if (v->kind != Value::Kind::kLiteral) {
      f.fifo_unknown = true;
      f.unknowns.push_back(SqsUnknown("FifoQueue (" + v->what + ")", f.fifo_at));
    } else {
      std::string text = TextOf(v->literal);  // a boolean, or "true"/"false" as JSON templates often write it
      if (text != "true" && text != "false")
        return ErrorAt(f.fifo_at, "FifoQueue: expected true or false, got \"" + text + "\"");
      f.fifo = text == "true";
    }
  }
  RETURN_IF_ERROR(Seconds(*props, "VisibilityTimeout", f.visibility_timeout, f));
  RETURN_IF_ERROR(Seconds(*props, "MessageRetentionPeriod", f.retention, f));
  RETURN_IF_ERROR(Seconds(*props, "DelaySeconds", f.delay, f));
  RETURN_IF_ERROR(ReadRedrive(*props, f));
  return ReadRedriveAllow(*props, f);
}

Status TemplateReader::ReadRedrive(const Node& props, SqsQueueFacts& f) const {
  f.max_receive_count = {"RedrivePolicy.maxReceiveCount", f.at, std::nullopt, false};
  const Node* redrive = props.Get("RedrivePolicy");
  if (redrive == nullptr || redrive->IsNull()) return Status::Ok();
  f.has_redrive = true;
  f.redrive_at = f.dead_letter_at = KeyAt(props, "RedrivePolicy");
  if (!redrive->tag.empty() || IsFunctionMap(*redrive)) {  // !If, !FindInMap, !Sub…: known at deploy
    Result<Value> v = Resolve(*redrive, "RedrivePolicy");
    if (!v.ok()) return v.status();
    if (v->kind != Value::Kind::kLiteral) {
      const std::string what = v->kind == Value::Kind::kUnknown ? v->what : "!GetAtt " + v->resource;
      f.unknowns.push_back(SqsUnknown("RedrivePolicy.deadLetterTargetArn (" + what + ")", f.redrive_at));
      f.unknowns.push_back(SqsUnknown("RedrivePolicy.maxReceiveCount (" + what + ")", f.redrive_at));
      f.max_receive_count.unknown = true;
      return Status::Ok();
    }
    redrive = v->literal;  // a !Sub without variables, or a parameter's Default: a JSON string
  }
  Document holder;
  if (redrive->kind == Node::Kind::kString) {  // the policy as a JSON string
    Result<Document> doc = ParseJson(file_.path, redrive->scalar);
    if (!doc.ok()) {
      return ErrorAt(f.redrive_at, "RedrivePolicy is not JSON: " + WithoutLocation(doc.status().message(), file_.path));
    }
    holder = std::move(doc).value();
    redrive = &holder.root;
  }
  if (!redrive->IsMap()) {
    return ErrorAt(f.redrive_at, "RedrivePolicy: expected {deadLetterTargetArn: …, maxReceiveCount: …}");
  }
  const bool inline_json = !holder.root.IsNull();
  auto line_of = [&](std::string_view key) { return inline_json ? f.redrive_at : KeyAt(*redrive, key); };
  const Node* target = redrive->Get("deadLetterTargetArn");
  if (target == nullptr) return ErrorAt(f.redrive_at, "RedrivePolicy: deadLetterTargetArn is missing");
  f.dead_letter_at = line_of("deadLetterTargetArn");
  Result<std::string> dlq = QueueRef(*target, "RedrivePolicy.deadLetterTargetArn", f, f.dead_letter_at);
  if (!dlq.ok()) return dlq.status();
  f.dead_letter_to = dlq.value();
  const Node* count = redrive->Get("maxReceiveCount");
  if (count == nullptr) return ErrorAt(f.redrive_at, "RedrivePolicy: maxReceiveCount is missing");
  f.max_receive_count.at = line_of("maxReceiveCount");
  Result<Value> v = Resolve(*count, "RedrivePolicy.maxReceiveCount");
  if (!v.ok()) return v.status();
  if (v->kind != Value::Kind::kLiteral) {
    f.max_receive_count.unknown = true;
    f.unknowns.push_back(SqsUnknown("RedrivePolicy.maxReceiveCount (" + v->what + ")", f.max_receive_count.at));
    return Status::Ok();
  }
  f.max_receive_count.value = AsInteger(*v->literal);
  if (!f.max_receive_count.value) {
    return ErrorAt(
        f.max_receive_count.at,
        "RedrivePolicy.maxReceiveCount: expected a whole number from 1 to 1000, got \"" + TextOf(v->literal) + "\"");
  }
  if (!v->what.empty()) {
    f.notes.push_back(
        {"maxReceiveCount from " + v->what + "'s Default (a deploy may override it)", f.max_receive_count.at});
  }
  return Status::Ok();
}

Status TemplateReader::ReadRedriveAllow(const Node& props, SqsQueueFacts& f) const {
  const Node* allow = props.Get("RedriveAllowPolicy");
  if (allow == nullptr || !allow->IsMap()) return Status::Ok();
  const Location at = KeyAt(props, "RedriveAllowPolicy");
  f.redrive_permission = TextOf(allow->Get("redrivePermission"));
  if (f.redrive_permission != "allowAll" && f.redrive_permission != "byQueue" && f.redrive_permission != "denyAll") {
    return ErrorAt(at, "RedriveAllowPolicy.redrivePermission: expected allowAll, byQueue or denyAll, got \"" +
                           f.redrive_permission + "\"");
  }
  if (const Node* sources = allow->Get("sourceQueueArns"); sources != nullptr && sources->IsList()) {
    for (const Node& s : sources->items) {
      Result<std::string> id = QueueRef(s, "RedriveAllowPolicy.sourceQueueArns", f, At(s));
      if (!id.ok()) return id.status();
      if (!id.value().empty()) f.dead_letter_sources.push_back(id.value());
    }
  }
  return Status::Ok();
}

// An alarm on ApproximateNumberOfMessagesVisible (AWS/SQS) with a QueueName dimension.
Status TemplateReader::ReadAlarm(const Node& resource, Inventory* out) const {
  const Node* props = resource.Get("Properties");
  if (props == nullptr || TextOf(props->Get("MetricName")) != kSqsDepthMetric ||
      TextOf(props->Get("Namespace")) != "AWS/SQS") {
    return Status::Ok();
  }
  const Node* dimensions = props->Get("Dimensions");
  if (dimensions == nullptr || !dimensions->IsList()) return Status::Ok();
  for (const Node& d : dimensions->items) {
    const Node* value = d.Get("Value");
    if (TextOf(d.Get("Name")) != "QueueName" || value == nullptr) continue;
    Result<Value> v = Resolve(*value, "Dimensions.QueueName");
    if (!v.ok()) return v.status();
    DepthAlarm alarm;
    alarm.at = At(d);
    if (v->kind == Value::Kind::kResource) alarm.queue = v->resource;
    if (v->kind == Value::Kind::kLiteral) alarm.queue = TextOf(v->literal);
    if (!alarm.queue.empty()) out->alarms.push_back(std::move(alarm));
  }
  return Status::Ok();
}

Status TemplateReader::Read(Inventory* out) {
  // Detection lets a template with AWSTemplateFormatVersion and no Resources through: the
  // error points at the line Resources is on, or at the template's first line without it.
  if (resources_ == nullptr) {
    return ErrorAt({file_.path, std::max(root_.line, 1)},
                   "Resources: expected a map of resources, got no Resources key");
  }
  if (!resources_->IsMap()) {
    return ErrorAt(KeyAt(root_, "Resources"),
                   std::string("Resources: expected a map of resources, got a ") + (resources_->IsList()   ? "list"
                                                                                    : resources_->IsNull() ? "null"
                                                                                                           : "value"));
  }
  std::vector<SqsQueueFacts> queues;
  for (size_t i = 0; i < resources_->keys.size(); ++i) {
    const std::string type = TypeOf(resources_->keys[i]);
    if (type == kCfnQueueType) {
      RETURN_IF_ERROR(ReadQueue(resources_->keys[i], resources_->items[i], queues.emplace_back()));
    } else if (type == "AWS::CloudWatch::Alarm") {
      RETURN_IF_ERROR(ReadAlarm(resources_->items[i], out));
    }
  }
  std::map<std::string, std::string, std::less<>> id_by_name;  // the first queue of a name keeps it
  for (const SqsQueueFacts& f : queues) id_by_name.emplace(f.name, f.id);
  // A literal ARN (or URL) of a queue of this template, by the name at its end.
  auto id_of = [&id_by_name](std::string& ref) {
    auto it = id_by_name.find(SqsQueueNameOf(ref));
    if (it != id_by_name.end()) ref = it->second;
  };
  SqsImportCache cache;
  const std::vector<SkipComment> skips = FindSkipComments(file_.text);
  for (SqsQueueFacts& f : queues) {
    id_of(f.dead_letter_to);
    for (std::string& source : f.dead_letter_sources) id_of(source);
    Result<QueueConfig> q = BuildSqsQueue(f, cache);
    if (!q.ok()) return q.status();
    // A skip comment belongs to the resource whose lines hold it (up to the next resource's key).
    int end = INT_MAX;
    for (int line : resources_->key_lines) {
      if (line > f.at.line) end = std::min(end, line);
    }
    for (const SkipComment& s : skips) {
      if (s.line >= f.at.line && s.line < end) q->skips.push_back(s);
    }
    out->queues.push_back(std::move(q).value());
  }
  for (DepthAlarm& a : out->alarms) {  // an alarm of this file naming a queue by its QueueName
    auto it = id_by_name.find(a.queue);
    if (it != id_by_name.end() && a.at.file == file_.path) a.queue = it->second;
  }
  return Status::Ok();
}

}  // namespace

bool DetectsCloudFormation(std::string_view path, std::string_view text, const Node* root) {
  (void)path, (void)text;
  if (root == nullptr || !root->IsMap()) return false;
  if (root->Get("AWSTemplateFormatVersion") != nullptr) return true;
  const Node* resources = root->Get("Resources");
  if (resources == nullptr || !resources->IsMap()) return false;
  for (const Node& r : resources->items) {
    if (TextOf(r.Get("Type")).starts_with("AWS::")) return true;
  }
  return false;
}

Status ReadCloudFormation(const SourceFile& file, const Document* doc, Inventory* out) {
  if (doc == nullptr) return ErrorAt({file.path, 0}, "a CloudFormation template is YAML or JSON");
  TemplateReader reader(file, doc->root);
  return reader.Read(out);
}

}  // namespace dlq::check
