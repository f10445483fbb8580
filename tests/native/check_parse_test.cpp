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

namespace check_parse_test {

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
      "                            \"big\": 18446744073709551616, \"name\": \"a \\\"q\\\" \\u00e9\", \"tags\": "
      "null}}}\n"
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

TEST_CASE("ParseYaml: an empty file is a null document, syntax errors name file and line") {
  CHECK(Yaml("").root.IsNull());
  CHECK(Yaml("# only a comment\n").root.IsNull());
  CHECK(YamlError("a: 1\nb: [1, 2\nc: 3\n") ==
        "template.yaml:4: expected YAML, got the end of the file at column 1 "
        "(flow sequence without a closing bracket)");
  CHECK(YamlError("a:\n  b: 1\n c: 2\n") ==
        "template.yaml:3: expected YAML, got \"c: 2\" at column 2 (invalid indentation in mapping)");
}

TEST_CASE("AsInteger, AsNumber, AsBool, AsText: what each reads and what it refuses") {
  const Document doc = Json(
      "[300, \"300\", \"3e2\", 3e2, 9223372036854775807, 9223372036854775808, -9223372036854775808,"
      " -9223372036854775809, 18446744073709551616, true, \"true\", 1.5, \"x\", null, {}, -0, \"\", \"1e999\"]");
  const std::vector<Node>& v = doc.root.items;
  REQUIRE(v.size() == 18);
  CHECK(AsInteger(v[0]) == 300);
  CHECK(AsInteger(v[1]) == 300);  // CloudFormation quotes numbers
  CHECK(!AsInteger(v[2]));
  CHECK(!AsInteger(v[3]));  // "3e2 is not an integer"
  CHECK(AsNumber(v[3]) == 300.0);
  CHECK(AsInteger(v[4]) == INT64_MAX);
  CHECK(!AsInteger(v[5]));  // 2^63: past int64, kept as text
  CHECK(v[5].scalar == "9223372036854775808");
  CHECK(AsInteger(v[6]) == INT64_MIN);
  CHECK(!AsInteger(v[7]));
  CHECK(!AsInteger(v[8]));
  CHECK(AsNumber(v[8]) == 18446744073709551616.0);
  CHECK(AsBool(v[9]) == true);
  CHECK(AsBool(v[10]) == true);
  CHECK(!AsBool(v[0]));
  CHECK(!AsInteger(v[9]));
  CHECK(AsNumber(v[11]) == 1.5);
  CHECK(!AsInteger(v[11]));
  CHECK(!AsNumber(v[12]));
  CHECK(AsText(v[12]) == "x");
  CHECK(!AsText(v[13]));
  CHECK(!AsText(v[14]));
  CHECK(!AsInteger(v[13]));
  CHECK(AsInteger(v[15]) == 0);
  CHECK(!AsInteger(v[16]));
  CHECK(AsText(v[16]) == "");
  CHECK(!AsNumber(v[17]));  // out of a double's range
  // RapidJSON refuses such a number outright (as a number, not as text).
  CHECK(JsonError("[1e999]") == "plan.json:1: expected JSON, got \"1e999]\" (Number too big to be stored in double)");
  const Document yaml = Yaml("[yes, True, FALSE, 0x1F, .inf, +12, ~, !!str 12, '12']");
  const std::vector<Node>& y = yaml.root.items;
  CHECK(y[0].kind == Node::Kind::kString);  // YAML 1.2: yes is text
  CHECK(!AsBool(y[0]));
  CHECK(AsBool(y[1]) == true);
  CHECK(AsBool(y[2]) == false);
  CHECK(y[3].kind == Node::Kind::kNumber);
  CHECK(!AsInteger(y[3]));  // decimal only
  CHECK(y[4].kind == Node::Kind::kNumber);
  CHECK(!AsNumber(y[4]));
  CHECK(AsInteger(y[5]) == 12);
  CHECK(y[6].IsNull());
  CHECK(y[7].kind == Node::Kind::kString);
  CHECK(y[7].tag == "!!str");
  CHECK(y[8].kind == Node::Kind::kString);
  CHECK(AsInteger(y[8]) == 12);
}

TEST_CASE("FindSkipComments: the rule, the reason, the line, in YAML and Ruby") {
  const std::vector<SkipComment> skips = FindSkipComments(
      "Resources:\n"
      "  AuditQueue:  # dlq-lab:skip=DLQ-EXISTS audit events are best-effort  \n"
      "    Type: AWS::SQS::Queue\n"
      "#dlq-lab:skip=JITTER\n"
      "  sidekiq_options retry: false # note # dlq-lab:skip=DLQ-EXISTS\treplayed from S3\r\n"
      "  # dlq-lab:skipped=JITTER not a skip\n"
      "# dlq-lab:skip=");
  REQUIRE(skips.size() == 4);
  CHECK(skips[0].rule == "DLQ-EXISTS");
  CHECK(skips[0].reason == "audit events are best-effort");
  CHECK(skips[0].line == 2);
  CHECK(skips[1].rule == "JITTER");
  CHECK(skips[1].reason.empty());  // a configuration error, reported by the judge
  CHECK(skips[1].line == 4);
  CHECK(skips[2].reason == "replayed from S3");
  CHECK(skips[2].line == 5);
  CHECK(skips[3].rule.empty());
  CHECK(skips[3].line == 7);
  CHECK(FindSkipComments("").empty());
}

// ---- hostile input (issue 33): a parse error naming file and line, never a crash or hang ----

TEST_CASE("hostile: a YAML alias bomb (billion laughs) is refused by its expansion") {
  const std::string bomb =
      "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
      "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
      "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
      "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
      "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
      "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
      "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
      "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
      "i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n";
  const Result<Document> doc = ParseYaml("bomb.yaml", bomb);
  REQUIRE(!doc.ok());
  CHECK(doc.status().code() == Code::kTooLarge);
  CHECK(doc.status().message() ==
        "bomb.yaml:6: aliases may copy at most 100000 values in a file, got more at *e (an alias bomb?)");
  // A few small aliases, as real files use them, are fine.
  CHECK(Yaml("x: &x {a: 1}\ny: *x\nz: [*x, *x]\n").root.Get("z")->items.size() == 2);
}

TEST_CASE("hostile: 10,000-deep nesting is refused at kMaxDepth, in JSON and YAML") {
  const std::string json = std::string(10'000, '[') + std::string(10'000, ']');
  CHECK(JsonError(json) == "plan.json:1: maps and lists may nest at most 256 deep, got deeper");
  std::string objects;
  for (int i = 0; i < 10'000; ++i) objects += "{\"a\":\n";
  CHECK(JsonError(objects) == "plan.json:257: maps and lists may nest at most 256 deep, got deeper");
  CHECK(YamlError(std::string(10'000, '[') + std::string(10'000, ']')) ==
        "template.yaml:1: maps and lists may nest at most 256 deep, got deeper");
  std::string dashes;
  for (int i = 0; i < 10'000; ++i) dashes += "- ";
  CHECK(YamlError(dashes + "x\n") == "template.yaml:1: maps and lists may nest at most 256 deep, got deeper");
  std::string block;
  for (int i = 0; i < 300; ++i) block += std::string(static_cast<size_t>(i), ' ') + "a:\n";
  CHECK(YamlError(block) == "template.yaml:257: maps and lists may nest at most 256 deep, got deeper");
  // At the limit it parses.
  CHECK(Json(std::string(256, '[') + std::string(256, ']')).root.IsList());
}

TEST_CASE("hostile: invalid UTF-8 is refused with its byte offset and line") {
  CHECK(JsonError("{\n  \"name\": \"caf\xE9\"\n}") ==
        "plan.json:2: expected UTF-8 text, got the byte 0xE9 at byte offset 16 that is not well-formed UTF-8");
  CHECK(YamlError("a: 1\nb: \xC0\xAF\n") ==  // an overlong '/'
        "template.yaml:2: expected UTF-8 text, got the byte 0xC0 at byte offset 8 that is not well-formed UTF-8");
  CHECK(YamlError("a: \xED\xA0\x80\n").find("got the byte 0xED at byte offset 3") != std::string::npos);  // a surrogate
  // An escape naming a lone surrogate decodes to no character.
  CHECK(JsonError("[\n\"\\uDC00\"]") ==
        "plan.json:2: expected a value of Unicode characters, got an escape that names none (a lone surrogate such "
        "as \\uDC00)");
  // A byte order mark is not content.
  CHECK(Json("\xEF\xBB\xBF{\"a\": 1}").root.Get("a")->scalar == "1");
}

TEST_CASE("hostile: a 100 MB file is refused by its size before it is parsed") {
  const std::string huge(size_t{100} << 20, ' ');
  for (const bool json : {true, false}) {
    const Result<Document> doc = json ? ParseJson("big.json", huge) : ParseYaml("big.json", huge);
    REQUIRE(!doc.ok());
    CHECK(doc.status().code() == Code::kTooLarge);
    CHECK(doc.status().message() == "big.json: a file must be at most 67108864 bytes (64 MiB), got 104857600 bytes");
  }
  CHECK(kMaxFileBytes == 64u << 20);
}

TEST_CASE("hostile: duplicate keys are refused, naming both lines") {
  CHECK(JsonError("{\n \"a\": 1,\n \"b\": 2,\n \"a\": 3\n}") ==
        "plan.json:4: expected each key once in a map, got \"a\" again (first on line 2)");
  CHECK(YamlError("Resources:\n  Q:\n    Type: x\n  R: {}\n  Q: {}\n") ==
        "template.yaml:5: expected each key once in a map, got \"Q\" again (first on line 2)");
  // Equal keys in different maps are fine; a large map is checked as fast as a small one.
  CHECK(Yaml("a: {x: 1}\nb: {x: 2}\n").root.keys.size() == 2);
  std::string many = "{";
  for (int i = 0; i < 50'000; ++i) many += "\"k" + std::to_string(i) + "\": 0,";
  many += "\"k17\": 1}";
  CHECK(JsonError(many) == "plan.json:1: expected each key once in a map, got \"k17\" again (first on line 1)");
}

TEST_CASE("hostile: too many values, a huge scalar, a map as a key, an alias to nothing") {
  std::string zeros = "[";
  for (size_t i = 0; i <= kMaxNodes; ++i) zeros += "0,";
  zeros += "0]";
  const Result<Document> many = ParseJson("plan.json", zeros);
  REQUIRE(!many.ok());
  CHECK(many.status().message() ==
        "plan.json:1: a file may hold at most 4194304 values (maps, lists and scalars), "
        "got more");
  const std::string big = "a: " + std::string(kMaxScalarBytes + 1, 'x') + "\n";
  CHECK(YamlError(big) == "template.yaml:1: a value must be at most 1048576 bytes, got 1048577 bytes");
  CHECK(YamlError("? {a: 1}\n: 2\n") == "template.yaml:1: expected a map key to be a scalar (a name), got a map");
  CHECK(YamlError("a: *nowhere\n").find("template.yaml:1:") == 0);
  // Anchors at every level of a deep nesting do not multiply what is kept.
  std::string anchored;
  for (int i = 0; i < 250; ++i) anchored += "&a" + std::to_string(i) + " [";
  CHECK(Yaml(anchored + "x" + std::string(250, ']')).root.IsList());
}

TEST_CASE("ParseYaml: the merge key << (Sidekiq's and Rails' environments)") {
  const Document doc = Yaml(
      "default: &default\n"
      "  :concurrency: 5\n"
      "  :max_retries: 8\n"
      "extra: &extra {:timeout: 25, :max_retries: 3}\n"
      "production:\n"
      "  <<: [*default, *extra]\n"
      "  :concurrency: 10\n");
  const Node& production = At(doc.root, "production");
  CHECK(production.keys == std::vector<std::string>{":concurrency", ":max_retries", ":timeout"});
  CHECK(At(production, ":concurrency").scalar == "10");  // its own key wins
  CHECK(At(production, ":max_retries").scalar == "8");   // the first map given wins
  CHECK(production.KeyLine(":max_retries") == 3);        // where the merged setting is written
  CHECK(production.KeyLine(":concurrency") == 7);
  // Anything else leaves << an ordinary key, as Ruby's Psych does (its test_merge_keys.rb).
  CHECK(At(At(Yaml("a: &a [1]\nb:\n  <<: *a\n").root, "b"), "<<").items.size() == 1);
  CHECK(At(At(Yaml("d: &d {x: 1}\nb:\n  <<: [*d, 2]\n").root, "b"), "<<").IsList());
  CHECK(At(At(Yaml("b:\n  <<:\n").root, "b"), "<<").IsNull());
}

TEST_CASE("ParseYaml: an empty value sits on its key's line") {
  const Document doc = Yaml("goals:\n  \n:concurrency: 10\n");
  CHECK(At(doc.root, "goals").IsNull());
  CHECK(At(doc.root, "goals").line == 1);
}

// libfyaml 0.7.12 read a run of escaped quotes ('' each) as one quote too many; the upstream fix
// (c0a716e) is carried in third_party/patches/libfyaml/ and applied by the set-up.
TEST_CASE("ParseYaml: '' in a single-quoted scalar is one quote, however many follow") {
  const Document doc = Yaml("two: ''''''\none: ''''\nmid: 'it''s'\nfour: ''''''''''\n");
  CHECK(At(doc.root, "two").scalar == "''");
  CHECK(At(doc.root, "one").scalar == "'");
  CHECK(At(doc.root, "mid").scalar == "it's");
  CHECK(At(doc.root, "four").scalar == "''''");
}

}  // namespace check_parse_test
