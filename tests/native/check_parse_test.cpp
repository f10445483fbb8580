// The checker's parsers (core/check/internal/): ParseJson and ParseYaml build the located
// tree of document.h, every value on its line, tags and numbers as written; the As*
// conversions; inline skip comments; and every hostile input of issue 33 refused as a parse
// error naming the file and line, within the bounds of parse_limits.h.
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "document.h"
#include "parse_limits.h"

using namespace dlq;
using namespace dlq::check;

namespace {

Document Json(std::string_view text) {
  Result<Document> doc = ParseJson("plan.json", text);
  REQUIRE_MESSAGE(doc.ok(), doc.status().ToString());
  return std::move(doc).value();
}

Document Yaml(std::string_view text) {
  Result<Document> doc = ParseYaml("template.yaml", text);
  REQUIRE_MESSAGE(doc.ok(), doc.status().ToString());
  return std::move(doc).value();
}

// The refusal's message (the parse must fail).
std::string JsonError(std::string_view text) {
  Result<Document> doc = ParseJson("plan.json", text);
  REQUIRE(!doc.ok());
  return doc.status().message();
}

std::string YamlError(std::string_view text) {
  Result<Document> doc = ParseYaml("template.yaml", text);
  REQUIRE(!doc.ok());
  return doc.status().message();
}

const Node& At(const Node& n, std::string_view key) {
  const Node* v = n.Get(key);
  REQUIRE_MESSAGE(v != nullptr, std::string(key));
  return *v;
}

}  // namespace

TEST_CASE("ParseJson: a value's line and column, keys' lines, numbers as written") {
  const Document doc = Json(
      "{\n"
      "  \"resource_changes\": [\n"
      "    {\"address\": \"aws_sqs_queue.orders\",\n"
      "     \"change\": {\"after\": {\"visibility_timeout_seconds\": 30,\n"
      "                            \"message_retention_seconds\": 3e2, \"fifo_queue\": false,\n"
      "                            \"big\": 18446744073709551616, \"name\": \"a \\\"q\\\" \\u00e9\", \"tags\": null}}}\n"
      "  ]\n"
      "}\n");
  CHECK(doc.file == "plan.json");
  CHECK(doc.root.IsMap());
  CHECK(doc.root.line == 1);
  CHECK(doc.root.column == 1);
  const Node& changes = At(doc.root, "resource_changes");
  CHECK(changes.IsList());
  CHECK(changes.line == 2);
  CHECK(changes.column == 23);
  CHECK(doc.root.KeyLine("resource_changes") == 2);
  const Node& change = changes.items.at(0);
  CHECK(change.line == 3);
  CHECK(change.column == 5);
  CHECK(At(change, "address").scalar == "aws_sqs_queue.orders");
  CHECK(At(change, "address").column == 17);
  const Node& after = At(At(change, "change"), "after");
  CHECK(after.line == 4);
  const Node& timeout = At(after, "visibility_timeout_seconds");
  CHECK(timeout.kind == Node::Kind::kNumber);
  CHECK(timeout.scalar == "30");
  CHECK(timeout.line == 4);
  CHECK(timeout.column == 57);
  CHECK(after.KeyLine("message_retention_seconds") == 5);
  CHECK(At(after, "message_retention_seconds").scalar == "3e2");
  CHECK(At(after, "fifo_queue").kind == Node::Kind::kBool);
  CHECK(At(after, "fifo_queue").scalar == "false");
  CHECK(At(after, "big").scalar == "18446744073709551616");
  CHECK(At(after, "big").line == 6);
  CHECK(At(after, "name").kind == Node::Kind::kString);
  CHECK(At(after, "name").scalar == "a \"q\" \xC3\xA9");
  CHECK(At(after, "name").column == 66);
  CHECK(At(after, "tags").IsNull());
  CHECK(after.keys == std::vector<std::string>{"visibility_timeout_seconds", "message_retention_seconds", "fifo_queue",
                                               "big", "name", "tags"});
  CHECK(doc.root.tag.empty());
}

TEST_CASE("ParseJson: syntax errors name the file, the line and what was found") {
  CHECK(JsonError("{\n  \"a\": 1,\n  \"b\" 2\n}\n") ==
        "plan.json:3: expected JSON, got \"2\" (Missing a colon after a name of object member)");
  CHECK(JsonError("{\"a\": [1, 2}\n") ==
        "plan.json:1: expected JSON, got \"}\" (Missing a comma or ']' after an array element)");
  CHECK(JsonError("") == "plan.json:1: expected JSON, got the end of the file (The document is empty)");
  CHECK(JsonError("{\"a\": 1}\n{\"b\": 2}") ==
        "plan.json:2: expected JSON, got \"{\\\"b\\\": 2}\" (The document root must not be followed by other values)");
}

TEST_CASE("ParseYaml: CloudFormation's short-form tags, lines of keys and values, scalar kinds") {
  const Document doc = Yaml(
      "AWSTemplateFormatVersion: '2010-09-09'\n"
      "Resources:\n"
      "  OrdersQueue:\n"
      "    Type: AWS::SQS::Queue\n"
      "    Properties:\n"
      "      VisibilityTimeout: 300\n"
      "      MessageRetentionPeriod: \"345600\"\n"
      "      FifoQueue: true\n"
      "      RedrivePolicy:\n"
      "        deadLetterTargetArn: !GetAtt OrdersDLQ.Arn\n"
      "        maxReceiveCount: 5\n"
      "      QueueName: !Sub '${AWS::StackName}-orders'\n"
      "      Tags: !GetAtt [OrdersDLQ, Arn]\n"
      "      Empty: ~\n");
  const Node& props = At(At(At(doc.root, "Resources"), "OrdersQueue"), "Properties");
  CHECK(props.IsMap());
  CHECK(props.line == 6);
  CHECK(props.column == 7);
  CHECK(At(doc.root, "AWSTemplateFormatVersion").kind == Node::Kind::kString);
  const Node& timeout = At(props, "VisibilityTimeout");
  CHECK(timeout.kind == Node::Kind::kNumber);
  CHECK(timeout.line == 6);
  CHECK(timeout.column == 26);
  CHECK(At(props, "MessageRetentionPeriod").kind == Node::Kind::kString);
  CHECK(At(props, "MessageRetentionPeriod").scalar == "345600");
  CHECK(At(props, "FifoQueue").kind == Node::Kind::kBool);
  const Node& redrive = At(props, "RedrivePolicy");
  CHECK(props.KeyLine("RedrivePolicy") == 9);
  CHECK(redrive.line == 10);
  const Node& arn = At(redrive, "deadLetterTargetArn");
  CHECK(arn.tag == "!GetAtt");
  CHECK(arn.kind == Node::Kind::kString);
  CHECK(arn.scalar == "OrdersDLQ.Arn");
  CHECK(arn.line == 10);
  CHECK(At(props, "QueueName").tag == "!Sub");
  CHECK(At(props, "QueueName").scalar == "${AWS::StackName}-orders");
  const Node& tags = At(props, "Tags");
  CHECK(tags.IsList());
  CHECK(tags.tag == "!GetAtt");
  CHECK(tags.items.size() == 2);
  CHECK(tags.items[1].scalar == "Arn");
  CHECK(tags.line == 13);
  CHECK(At(props, "Empty").IsNull());
}

TEST_CASE("ParseYaml: several documents, flow style, block scalars, anchors and aliases") {
  const Document doc = Yaml(
      "apiVersion: rabbitmq.com/v1beta1\n"
      "kind: Policy\n"
      "---\n"
      "defaults: &retry {max: 5, backoff: [1, 2]}\n"
      "job:\n"
      "  retry: *retry\n"
      "  text: |\n"
      "    two\n"
      "    lines\n"
      "  sidekiq: {:max_retries: 3}\n");
  CHECK(At(doc.root, "kind").scalar == "Policy");
  REQUIRE(doc.more_roots.size() == 1);
  const Node& second = doc.more_roots[0];
  const Node& retry = At(At(second, "job"), "retry");
  CHECK(retry.IsMap());
  CHECK(retry.line == 6);  // the alias's line: the value is used there
  CHECK(At(retry, "max").scalar == "5");
  CHECK(At(retry, "backoff").items.size() == 2);
  CHECK(At(At(second, "job"), "text").scalar == "two\nlines\n");
  CHECK(At(At(At(second, "job"), "sidekiq"), ":max_retries").scalar == "3");
}

TEST_CASE("ParseYaml: an empty file is a null document; syntax errors name file and line") {
  CHECK(Yaml("").root.IsNull());
  CHECK(Yaml("# only a comment\n").root.IsNull());
  CHECK(YamlError("a: 1\nb: [1, 2\nc: 3\n") ==
        "template.yaml:4: expected YAML, got the end of the file at column 1 "
        "(flow sequence without a closing bracket)");
  CHECK(YamlError("a:\n  b: 1\n c: 2\n") ==
        "template.yaml:3: expected YAML, got \"c: 2\" at column 2 (invalid indentation in mapping)");
}
