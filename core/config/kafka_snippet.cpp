// Apache Kafka with Spring Kafka: the policy in force as retry topics (@RetryableTopic,
// non-blocking) or a DefaultErrorHandler (blocking, in order). Kafka has no broker-side
// retry setting to paste back, so there is no reader for this format; only the writer
// (web/src/shared/snippets.mjs before issue 32).
#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "config.h"
#include "internal/js_value.h"
#include "internal/snippet_text.h"

namespace dlq::config {
namespace {

constexpr std::string_view kDeserialization = "DeserializationException";

std::string N(double n) { return JsNumberText(n); }

// The exception type a Spring listener would throw for failure class `name`.
std::string JavaException(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kTypes = {{
      {"transient", "TransientFailureException"}, {"permanent", "PermanentFailureException"},
      {"undeserializable", kDeserialization}, {"unknown-schema", "UnknownSchemaException"},
      {"precondition", "PreconditionFailedException"}}};
  for (const auto& [cls, type] : kTypes) {
    if (cls == name) return std::string(type);
  }
  return "undefined";
}

struct KafkaShape {
  ClassShape classes;
  std::vector<std::string> exceptions;  // the never-retried classes' exception types
  bool blocking;
};

bool Deserializes(const KafkaShape& m) {
  return std::find(m.exceptions.begin(), m.exceptions.end(), kDeserialization) != m.exceptions.end();
}

// "A.class, B.class".
std::string ClassList(const std::vector<std::string>& exceptions) {
  std::vector<std::string> out;
  for (const std::string& e : exceptions) out.push_back(e + ".class");
  return Joined(out);
}

std::vector<std::string> KafkaNotes(const PolicyFacts& n, const KafkaShape& m) {
  std::vector<std::string> notes;
  if (n.backoff.jitter != "none") {
    notes.push_back("jitter " + n.backoff.jitter + ": not set; Spring's @BackOff jitter adds or subtracts a fixed number of ms instead");
  }
  for (const RuleFacts* r : m.classes.own) notes.push_back(RuleText(*r) + ": no per-exception budget or delay here");
  if (!m.classes.alerts.empty()) notes.push_back("alert on " + Joined(m.classes.alerts) + ": no equivalent");
  notes.push_back("leaseMs " + N(n.lease_ms) + ": no per-record lease or broker delivery count; Spring counts attempts in the consumer's memory");
  if (m.classes.crash_never) notes.push_back("classes.crash: no equivalent");
  if (RuleOf(n, "undeserializable").retry == "bounded") {
    notes.push_back("classes.undeserializable retries in the lab; Spring does not retry a DeserializationException by default");
  }
  std::vector<std::string> own_types;
  for (const std::string& e : m.exceptions) {
    if (e != kDeserialization) own_types.push_back(e);
  }
  if (!own_types.empty()) notes.push_back(Joined(own_types) + ": your own exception types for those failures");
  if (n.ordering == "key") {
    notes.push_back("ordering key: blocking retries hold the whole partition (every key on it), and after the last attempt the partition "
                    "moves on; the lab holds only the key, until replay or releaseKey");
  }
  notes.push_back(n.retention_ms > 0 ? "quarantine.retentionMs " + N(n.retention_ms) + ": set retention.ms=" + N(n.retention_ms) +
                                           " on the topic orders-dlt"
                                     : "quarantine.retentionMs 0: the DLT keeps records as long as its topic retention allows");
  if (n.alarm_depth > 0) notes.push_back("quarantine.alarmDepth " + N(n.alarm_depth) + ": no equivalent in Spring Kafka");
  notes.push_back("replay(id): no built-in DLT replay; republish the record yourself");
  CommonNotes(n, notes, m.blocking ? "broker" : "retry-queue");  // non-blocking retries are retry topics
  return notes;
}

// Non-blocking retries: a @RetryableTopic listener.
void RetryTopicLines(const PolicyFacts& n, const KafkaShape& m, std::vector<std::string>& lines) {
  const BackoffFacts& b = n.backoff;
  const std::string back_off = b.kind == "none"    ? "@BackOff(delay = 0)"
                               : b.kind == "fixed" ? "@BackOff(delay = " + N(b.base_ms) + ")"
                                                   : "@BackOff(delay = " + N(b.base_ms) + ", multiplier = 2.0, maxDelay = " + N(b.cap_ms) + ")";
  Append(lines, {"import org.springframework.kafka.annotation.BackOff;", "import org.springframework.kafka.annotation.KafkaListener;",
                 "import org.springframework.kafka.annotation.RetryableTopic;"});
  if (Deserializes(m)) lines.push_back("import org.springframework.kafka.support.serializer.DeserializationException;");
  Append(lines, {"import org.springframework.stereotype.Component;", "",
                 "// Non-blocking retries: each retry goes through a retry topic, then the record lands in orders-dlt.",
                 "// This gives up partition order, like the lab's ordering none.", "@Component", "public class OrdersListener {", "",
                 "    // maxAttempts " + N(n.max_attempts) + " -> attempts = \"" + N(n.max_attempts) +
                     "\" (the first delivery counts); backoff " + BackoffText(b),
                 "    @RetryableTopic(", "        attempts = \"" + N(n.max_attempts) + "\",",
                 "        backOff = " + back_off + (m.exceptions.empty() ? ")" : ",")});
  if (!m.exceptions.empty()) {
    lines.push_back("        exclude = { " + ClassList(m.exceptions) + " }) // " + Joined(m.classes.never) + ": straight to the DLT");
  }
  Append(lines, {"    @KafkaListener(topics = \"orders\")", "    public void listen(String order) {",
                 "        // the work; throw to fail the attempt", "    }", "}"});
}

// Blocking retries: a DefaultErrorHandler that seeks back, then publishes to the DLT.
void ErrorHandlerLines(const PolicyFacts& n, const KafkaShape& m, std::vector<std::string>& lines) {
  const BackoffFacts& b = n.backoff;
  const std::string retries = N(n.max_attempts - 1);
  const bool exponential = b.kind == "exponential";
  if (Deserializes(m)) lines.push_back("import org.springframework.kafka.support.serializer.DeserializationException;");
  Append(lines, {"import org.springframework.context.annotation.Bean;", "import org.springframework.context.annotation.Configuration;",
                 "import org.springframework.kafka.core.KafkaOperations;",
                 "import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;",
                 "import org.springframework.kafka.listener.DefaultErrorHandler;",
                 exponential ? "import org.springframework.kafka.support.ExponentialBackOffWithMaxRetries;"
                             : "import org.springframework.util.backoff.FixedBackOff;",
                 "",
                 "// Blocking retries (ordering " + n.ordering + "): the consumer seeks back and retries in place, holding the partition in order;",
                 "// after the last attempt DeadLetterPublishingRecoverer writes the record to orders-dlt.", "@Configuration",
                 "public class OrdersErrorHandling {", "", "    @Bean",
                 "    public DefaultErrorHandler errorHandler(KafkaOperations<Object, Object> template) {",
                 "        // maxAttempts " + N(n.max_attempts) + " -> " + retries + " retries after the first delivery; backoff " + BackoffText(b)});
  if (exponential) {
    Append(lines, {"        ExponentialBackOffWithMaxRetries backOff = new ExponentialBackOffWithMaxRetries(" + retries + ");",
                   "        backOff.setInitialInterval(" + N(b.base_ms) + ");", "        backOff.setMultiplier(2.0);",
                   "        backOff.setMaxInterval(" + N(b.cap_ms) + ");"});
  } else {
    lines.push_back("        FixedBackOff backOff = new FixedBackOff(" + N(b.kind == "fixed" ? b.base_ms : 0) + "L, " + retries + "L);");
  }
  lines.push_back("        DefaultErrorHandler handler = new DefaultErrorHandler(new DeadLetterPublishingRecoverer(template), backOff);");
  if (!m.exceptions.empty()) {
    lines.push_back("        handler.addNotRetryableExceptions(" + ClassList(m.exceptions) + "); // " + Joined(m.classes.never) +
                    ": straight to the DLT");
  }
  Append(lines, {"        return handler;", "    }", "}"});
}

}  // namespace

Snippet KafkaSnippet(const PolicyFacts& n) {
  KafkaShape m{ShapeOf(n), {}, n.ordering != "none"};
  for (const std::string& name : m.classes.never) m.exceptions.push_back(JavaException(name));
  std::vector<std::string> lines = {"// dlq-lab policy -> Spring Kafka 4: " + PolicyText(n)};
  Append(lines, SlashComments(KafkaNotes(n, m)));
  if (m.blocking) ErrorHandlerLines(n, m, lines);
  else RetryTopicLines(n, m, lines);
  return {"java", LinesText(lines)};
}

}  // namespace dlq::config
