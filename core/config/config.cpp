// Which format was pasted, told apart by its shape; each system's own file reads it.
#include "config.h"

#include <vector>

#include "internal/object_text.h"
#include "internal/translation.h"

namespace dlq::config {
namespace {

constexpr std::string_view kExpected =
    "BullMQ job options (JSON or a JavaScript object literal), SQS queue attributes (JSON), a sidekiq_options line "
    "or a RabbitMQ policy definition (JSON)";
// An Azure Service Bus ARM template or resource is told by its shape (a resource of its type)
// before the keys are counted; kExpected stays as the import baseline pins it.

// A dead-letter queue's retention given with another broker's config: refused (it would be dropped silently).
bool OnlySqsRetention(const std::string& format, const JsValue* dlq, ImportResult& out) {
  if (dlq == nullptr) return false;
  out = Refused(format, Refusal("DLQ MessageRetentionPeriod",
                                "it empty (it is an SQS setting; this is " + std::string(FormatName(format)) + ")",
                                Quoted(*dlq), "applies only to SQS queue attributes"));
  return true;
}

ImportResult ReadSidekiqLine(std::string_view trimmed, const JsValue* dlq) {
  if (trimmed.find('\n') != std::string_view::npos) {
    size_t lines = 1;
    for (char c : trimmed) lines += c == '\n' ? 1 : 0;
    return Refused("sidekiq", Refusal("sidekiq_options", "one line", std::to_string(lines) + " lines"));
  }
  size_t length = Utf16Length(trimmed);
  if (length > kMaxSidekiqChars) {
    return Refused("sidekiq", Refusal("sidekiq_options",
                                      "one line of at most " + GroupedWhole(static_cast<long long>(kMaxSidekiqChars)) +
                                          " characters",
                                      GroupedWhole(static_cast<long long>(length)) + " characters", "is too long"));
  }
  ImportResult out;
  if (OnlySqsRetention("sidekiq", dlq, out)) return out;
  return ReadSidekiq(trimmed);
}

// "an object with keys a, b, c, d, …" or "keys of BullMQ job options and … together".
std::string NotOneBroker(const JsValue& json, const std::vector<std::string>& kinds) {
  if (!kinds.empty()) {
    std::string out = "keys of ";
    for (size_t i = 0; i < kinds.size(); ++i) out += (i > 0 ? " and " : "") + std::string(FormatName(kinds[i]));
    return out + " together";
  }
  auto entries = json.Entries();
  if (entries.empty()) return "an object with no keys";
  std::string out = "an object with keys ";
  for (size_t i = 0; i < entries.size() && i < 4; ++i) out += (i > 0 ? ", " : "") + Isolated(entries[i]->first);
  return out + (entries.size() > 4 ? ", …" : "");
}

ImportResult ReadObject(const JsValue& json, const JsValue* dlq) {
  const JsValue* attributes = json.Find("Attributes");
  if (attributes != nullptr && attributes->IsObject() && json.members.size() == 1) return ReadSqs(*attributes, dlq);
  ImportResult out;
  if (IsKafkaConnectConfig(json)) {  // an errors.* or connector.class key: no other format has one
    if (OnlySqsRetention("kafka-connect", dlq, out)) return out;
    return ReadKafkaConnect(json);
  }
  if (IsServiceBusConfig(json)) {  // an ARM template or resource: its shape, not its keys, says so
    if (OnlySqsRetention("servicebus", dlq, out)) return out;
    return ReadServiceBus(json);
  }
  if (json.Has("definition")) {  // a whole policy: its priority is not BullMQ's
    if (OnlySqsRetention("rabbitmq", dlq, out)) return out;
    return ReadRabbitmq(json);
  }
  bool bullmq = false, sqs = false, rabbitmq = false;
  for (const auto& m : json.members) {
    bullmq = bullmq || IsBullmqKey(m.first);
    sqs = sqs || IsSqsKey(m.first);
    rabbitmq = rabbitmq || IsRabbitmqKey(m.first);
  }
  std::vector<std::string> kinds;
  if (bullmq) kinds.push_back("bullmq");
  if (sqs) kinds.push_back("sqs");
  if (rabbitmq) kinds.push_back("rabbitmq");
  if (kinds.size() != 1) {
    return Refused("",
                   Refusal("config", std::string(kExpected), NotOneBroker(json, kinds), "is not one broker's config"));
  }
  if (sqs) return ReadSqs(json, dlq);
  if (OnlySqsRetention(kinds[0], dlq, out)) return out;
  return bullmq ? ReadBullmq(json) : ReadRabbitmq(json);
}

}  // namespace

std::string_view FormatName(std::string_view format) {
  if (format == "bullmq") return "BullMQ job options";
  if (format == "sqs") return "Amazon SQS queue attributes";
  if (format == "sidekiq") return "Sidekiq sidekiq_options";
  if (format == "rabbitmq") return "RabbitMQ policy definition";
  if (format == "pubsub") return "gcloud pubsub commands";
  if (format == "servicebus") return "Azure Service Bus queue properties";
  if (format == "spring-kafka") return "Spring Kafka Java (@RetryableTopic or DefaultErrorHandler)";
  if (format == "kafka-connect") return "Kafka Connect connector config (errors.*)";
  return "";
}

ImportResult RefuseLength(size_t utf16_length) {
  return Refused("",
                 Refusal("config", "at most " + GroupedWhole(static_cast<long long>(kMaxImportChars)) + " characters",
                         GroupedWhole(static_cast<long long>(utf16_length))));
}

ImportResult ReadConfig(std::string_view text, const JsValue* dlq_retention) {
  size_t length = Utf16Length(text);
  if (length > kMaxImportChars) return RefuseLength(length);
  const JsValue* dlq = dlq_retention != nullptr && dlq_retention->IsString() && JsTrim(dlq_retention->text).empty()
                           ? nullptr
                           : dlq_retention;
  std::string_view trimmed = JsTrim(text);
  if (trimmed.empty()) return Refused("", Refusal("config", std::string(kExpected), "nothing", "is empty"));
  constexpr std::string_view kSidekiq = "sidekiq_options";
  if (trimmed.substr(0, kSidekiq.size()) == kSidekiq) {
    char next = trimmed.size() > kSidekiq.size() ? trimmed[kSidekiq.size()] : ' ';
    bool word =
        (next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') || (next >= '0' && next <= '9') || next == '_';
    if (!word) return ReadSidekiqLine(trimmed, dlq);
  }
  if (IsGcloudPubsub(trimmed)) {
    ImportResult out;
    if (OnlySqsRetention("pubsub", dlq, out)) return out;
    return ReadPubsub(trimmed);
  }
  // Java is never JSON: a text naming Spring Kafka's retry calls and not starting an object.
  if (trimmed.front() != '{' && IsSpringKafkaText(trimmed)) return ReadSpringKafka(trimmed);
  // A .properties file (key=value lines, an errors.* key among them) is never JSON either.
  if (trimmed.front() != '{') {
    if (std::optional<JsValue> properties = KafkaConnectProperties(trimmed)) {
      ImportResult out;
      if (OnlySqsRetention("kafka-connect", dlq, out)) return out;
      return ReadKafkaConnect(*properties);
    }
  }
  ObjectTextRead read = ReadObjectText(trimmed, "config");
  if (!read.ok) {
    if (read.why != "is not JSON") return Refused("", Refusal(read.key, read.expected, read.given, read.why));
    return Refused("", Refusal("config", std::string(kExpected), Quoted(JsValue::String(std::string(trimmed))),
                               "is not JSON nor a sidekiq_options line (" + read.detail + ")"));
  }
  if (!read.value.IsObject()) {
    return Refused("", Refusal("config", std::string(kExpected) + ": a JSON object", Quoted(read.value)));
  }
  return ReadObject(read.value, dlq);
}

}  // namespace dlq::config
