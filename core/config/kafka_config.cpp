// Apache Kafka with Spring Kafka, both directions: the writer gives the policy in force as
// retry topics (@RetryableTopic, non-blocking) or a DefaultErrorHandler (blocking, in order);
// the reader (ReadSpringKafka) takes that Java text back into the spring-kafka mode. The
// reader reads the calls and annotation arguments the writer writes, not Java at large.
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config.h"
#include "internal/js_value.h"
#include "internal/snippet_text.h"
#include "internal/translation.h"

namespace dlq::config {
namespace {

constexpr std::string_view kDeserialization = "DeserializationException";

// The exponential backoff's multiplier as Java writes it: the spring-kafka mode's own
// (multiplierPermille), else the lab's doubling.
std::string Multiplier(const PolicyFacts& n) {
  const double m = n.system == "spring-kafka" ? n.multiplier_permille / 1000 : 2;
  std::string text = Num(m);
  return text.find('.') == std::string::npos ? text + ".0" : text;
}

// The exception type a Spring listener would throw for failure class `name`.
std::string JavaException(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kTypes = {
      {{"transient", "TransientFailureException"},
       {"permanent", "PermanentFailureException"},
       {"undeserializable", kDeserialization},
       {"unknown-schema", "UnknownSchemaException"},
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
    notes.push_back("jitter " + n.backoff.jitter +
                    ": not set; Spring's @BackOff jitter adds or subtracts a fixed number of ms instead");
  }
  for (const RuleFacts* r : m.classes.own) notes.push_back(RuleText(*r) + ": no per-exception budget or delay here");
  if (!m.classes.alerts.empty()) notes.push_back("alert on " + Joined(m.classes.alerts) + ": no equivalent");
  notes.push_back("leaseMs " + Num(n.lease_ms) +
                  ": no per-record lease or broker delivery count; Spring counts attempts in the consumer's memory");
  if (m.classes.crash_never) notes.push_back("classes.crash: no equivalent");
  if (RuleOf(n, "undeserializable").retry == "bounded") {
    notes.push_back(
        "classes.undeserializable retries in the lab; Spring does not retry a DeserializationException by default");
  }
  std::vector<std::string> own_types;
  for (const std::string& e : m.exceptions) {
    if (e != kDeserialization) own_types.push_back(e);
  }
  if (!own_types.empty()) notes.push_back(Joined(own_types) + ": your own exception types for those failures");
  if (n.ordering == "key") {
    notes.push_back(
        "ordering key: blocking retries hold the whole partition (every key on it), and after the last attempt the "
        "partition "
        "moves on; the lab holds only the key, until replay or releaseKey");
  }
  notes.push_back(n.retention_ms > 0
                      ? "quarantine.retentionMs " + Num(n.retention_ms) + ": set retention.ms=" + Num(n.retention_ms) +
                            " on the topic orders-dlt"
                      : "quarantine.retentionMs 0: the DLT keeps records as long as its topic retention allows");
  if (n.alarm_depth > 0)
    notes.push_back("quarantine.alarmDepth " + Num(n.alarm_depth) + ": no equivalent in Spring Kafka");
  notes.push_back("replay(id): no built-in DLT replay; republish the record yourself");
  CommonNotes(n, notes, m.blocking ? "broker" : "retry-queue");  // non-blocking retries are retry topics
  return notes;
}

// Non-blocking retries: a @RetryableTopic listener.
void RetryTopicLines(const PolicyFacts& n, const KafkaShape& m, std::vector<std::string>& lines) {
  const BackoffFacts& b = n.backoff;
  const std::string back_off = b.kind == "none" ? "@BackOff(delay = 0)"
                               : b.kind == "fixed"
                                   ? "@BackOff(delay = " + Num(b.base_ms) + ")"
                                   : "@BackOff(delay = " + Num(b.base_ms) + ", multiplier = " + Multiplier(n) +
                                         ", maxDelay = " + Num(b.cap_ms) + ")";
  Append(lines, {"import org.springframework.kafka.annotation.BackOff;",
                 "import org.springframework.kafka.annotation.KafkaListener;",
                 "import org.springframework.kafka.annotation.RetryableTopic;"});
  if (Deserializes(m)) lines.push_back("import org.springframework.kafka.support.serializer.DeserializationException;");
  Append(lines, {"import org.springframework.stereotype.Component;", "",
                 "// Non-blocking retries: each retry goes through a retry topic, then the record lands in orders-dlt.",
                 "// This gives up partition order, like the lab's ordering none.", "@Component",
                 "public class OrdersListener {", "",
                 "    // maxAttempts " + Num(n.max_attempts) + " -> attempts = \"" + Num(n.max_attempts) +
                     "\" (the first delivery counts); backoff " + BackoffText(b),
                 "    @RetryableTopic(", "        attempts = \"" + Num(n.max_attempts) + "\",",
                 "        backOff = " + back_off + (m.exceptions.empty() ? ")" : ",")});
  if (!m.exceptions.empty()) {
    lines.push_back("        exclude = { " + ClassList(m.exceptions) + " }) // " + Joined(m.classes.never) +
                    ": straight to the DLT");
  }
  Append(lines, {"    @KafkaListener(topics = \"orders\")", "    public void listen(String order) {",
                 "        // the work; throw to fail the attempt", "    }", "}"});
}

// Blocking retries: a DefaultErrorHandler that seeks back, then publishes to the DLT.
void ErrorHandlerLines(const PolicyFacts& n, const KafkaShape& m, std::vector<std::string>& lines) {
  const BackoffFacts& b = n.backoff;
  const std::string retries = Num(n.max_attempts - 1);
  const bool exponential = b.kind == "exponential";
  if (Deserializes(m)) lines.push_back("import org.springframework.kafka.support.serializer.DeserializationException;");
  Append(lines,
         {"import org.springframework.context.annotation.Bean;",
          "import org.springframework.context.annotation.Configuration;",
          "import org.springframework.kafka.core.KafkaOperations;",
          "import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;",
          "import org.springframework.kafka.listener.DefaultErrorHandler;",
          exponential ? "import org.springframework.kafka.support.ExponentialBackOffWithMaxRetries;"
                      : "import org.springframework.util.backoff.FixedBackOff;",
          "",
          "// Blocking retries (ordering " + n.ordering +
              "): the consumer seeks back and retries in place, holding the partition in order;",
          n.no_recoverer ? "// after the last attempt, with no recoverer, the record is logged and skipped."
                         : "// after the last attempt DeadLetterPublishingRecoverer writes the record to orders-dlt.",
          "@Configuration", "public class OrdersErrorHandling {", "", "    @Bean",
          "    public DefaultErrorHandler errorHandler(KafkaOperations<Object, Object> template) {",
          "        // maxAttempts " + Num(n.max_attempts) + " -> " + retries +
              " retries after the first delivery; backoff " + BackoffText(b)});
  if (exponential) {
    Append(lines,
           {"        ExponentialBackOffWithMaxRetries backOff = new ExponentialBackOffWithMaxRetries(" + retries + ");",
            "        backOff.setInitialInterval(" + Num(b.base_ms) + ");",
            "        backOff.setMultiplier(" + Multiplier(n) + ");",
            "        backOff.setMaxInterval(" + Num(b.cap_ms) + ");"});
  } else {
    lines.push_back("        FixedBackOff backOff = new FixedBackOff(" + Num(b.kind == "fixed" ? b.base_ms : 0) +
                    "L, " + retries + "L);");
  }
  if (n.no_recoverer) {
    lines.push_back(
        "        DefaultErrorHandler handler = new DefaultErrorHandler(backOff); // no recoverer: logged and skipped");
  } else {
    lines.push_back(
        "        DefaultErrorHandler handler = new DefaultErrorHandler(new DeadLetterPublishingRecoverer(template), "
        "backOff);");
  }
  if (!m.exceptions.empty()) {
    lines.push_back("        handler.addNotRetryableExceptions(" + ClassList(m.exceptions) + "); // " +
                    Joined(m.classes.never) + ": straight to the DLT");
  }
  Append(lines, {"        return handler;", "    }", "}"});
}

}  // namespace

Snippet KafkaSnippet(const PolicyFacts& n) {
  // Under the spring-kafka mode its own switch says which; otherwise the lab's ordering does.
  const bool blocking = n.system == "spring-kafka" ? !n.retry_topics : n.ordering != "none";
  KafkaShape m{ShapeOf(n), {}, blocking};
  for (const std::string& name : m.classes.never) m.exceptions.push_back(JavaException(name));
  std::vector<std::string> lines = {"// dlq-lab policy -> Spring Kafka 4: " + PolicyText(n)};
  Append(lines, SlashComments(KafkaNotes(n, m)));
  if (m.blocking) ErrorHandlerLines(n, m, lines);
  else RetryTopicLines(n, m, lines);
  return {"java", LinesText(lines)};
}

}  // namespace dlq::config

// ---- the reader: Spring Kafka Java text into the spring-kafka mode ----

namespace dlq::config {
namespace {

constexpr double kMaxDelayFieldMs = 86'400'000;  // backoff.baseMs / capMs's top (policy.h, kMaxDelayMs)

// `text` without its // and /* */ comments (string literals kept as they are): the
// writer's comments name the calls too. One pass: linear.
std::string WithoutComments(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {  // a string literal, to its closing quote
      size_t j = i + 1;
      while (j < text.size() && text[j] != '"' && text[j] != '\n') j += text[j] == '\\' ? 2 : 1;
      j = std::min(j, text.size() - 1);
      out.append(text.substr(i, j - i + 1));
      i = j;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
      out += '\n';
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      const size_t end = text.find("*/", i + 2);
      i = end == std::string_view::npos ? text.size() : end + 1;
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

// The text between the parenthesis that follows `call` (its first occurrence) and the one
// that closes it, or nullopt when `call` is absent or unclosed.
std::optional<std::string> ArgumentsOf(const std::string& code, std::string_view call) {
  const size_t at = code.find(call);
  if (at == std::string::npos) return std::nullopt;
  size_t open = at + call.size();
  while (open < code.size() && (code[open] == ' ' || code[open] == '\n' || code[open] == '\t')) ++open;
  if (open >= code.size() || code[open] != '(') return std::nullopt;
  int depth = 0;
  for (size_t i = open; i < code.size(); ++i) {
    if (code[i] == '(') ++depth;
    if (code[i] == ')' && --depth == 0) return code.substr(open + 1, i - open - 1);
  }
  return std::nullopt;
}

std::string Trimmed(std::string_view s) { return std::string(JsTrim(s)); }

// A Java number literal ("1000", "1000L", "1.5", "\"3\"" for attempts' string), or nullopt.
std::optional<double> JavaNumber(std::string_view text) {
  std::string t = Trimmed(text);
  if (t.size() >= 2 && t.front() == '"' && t.back() == '"') t = t.substr(1, t.size() - 2);
  if (!t.empty() && (t.back() == 'L' || t.back() == 'l' || t.back() == 'd' || t.back() == 'D')) t.pop_back();
  if (t.empty()) return std::nullopt;
  bool dot = false;
  for (char c : t) {
    if (c == '.' && !dot) dot = true;
    else if (c < '0' || c > '9') return std::nullopt;
  }
  return std::strtod(t.c_str(), nullptr);
}

// `name = value` in an annotation's arguments (top level or nested), its value text, or "".
std::string NamedArgument(const std::string& args, std::string_view name) {
  for (size_t at = args.find(name); at != std::string::npos; at = args.find(name, at + 1)) {
    const bool starts = at == 0 || !(std::isalnum(static_cast<unsigned char>(args[at - 1])) || args[at - 1] == '_');
    size_t eq = at + name.size();
    while (eq < args.size() && args[eq] == ' ') ++eq;
    if (!starts || eq >= args.size() || args[eq] != '=') continue;
    size_t end = eq + 1;
    while (end < args.size() && args[end] != ',' && args[end] != ')') ++end;
    return Trimmed(std::string_view(args).substr(eq + 1, end - eq - 1));
  }
  return "";
}

// A whole number of ms or attempts in `range`, set as `field`; refused by `key` otherwise.
void WholeTo(Translation& t, const std::string& field, const std::string& key, const std::string& text, double lo,
             double hi, const std::string& from) {
  const std::optional<double> v = JavaNumber(text);
  if (!v || *v != std::floor(*v) || *v < lo || *v > hi) {
    t.Refuse(Refusal(key, "a whole number from " + Num(lo) + " to " + Num(hi), text.empty() ? "nothing" : text));
    return;
  }
  t.ToNumber(field, *v, from);
}

// The multiplier (1.0 to 10.0, in thousandths) as multiplierPermille.
void MultiplierTo(Translation& t, const std::string& key, const std::string& text) {
  const std::optional<double> v = JavaNumber(text);
  const double permille = v ? std::round(*v * 1000) : -1;
  if (!v || permille < 1000 || permille > 10000 || std::fabs(permille - *v * 1000) > 1e-6) {
    t.Refuse(Refusal(key, "a multiplier from 1.0 to 10.0 in steps of 0.001", text.empty() ? "nothing" : text));
    return;
  }
  t.ToNumber("multiplierPermille", permille, key + " " + text);
}

void ReadRetryTopic(const std::string& code, Translation& t) {
  const std::string args = ArgumentsOf(code, "@RetryableTopic").value_or("");
  t.ToFlag("retryTopics", true, "@RetryableTopic (non-blocking retry topics)");
  t.ToText("ordering", "none", "@RetryableTopic (a retry topic keeps no partition order)");
  const std::string attempts = NamedArgument(args, "attempts");
  if (attempts.empty())
    t.ToNumber("maxAttempts", 3, "attempts absent (Spring's default: 3, the first delivery counted)");
  else
    WholeTo(t, "maxAttempts", "attempts", attempts, 1, 1'000'000,
            "attempts " + attempts + " (the first delivery counts)");
  const std::string back_off = ArgumentsOf(args, "@BackOff").value_or("");
  const std::string delay = NamedArgument(back_off, "delay"), multiplier = NamedArgument(back_off, "multiplier");
  const std::string max_delay = NamedArgument(back_off, "maxDelay");
  const std::optional<double> delay_ms = JavaNumber(delay), m = JavaNumber(multiplier);
  if (back_off.empty() && args.find("backOff") == std::string::npos) {
    t.ToText("backoff.kind", "fixed", "backOff absent (Spring's default @BackOff: 1000 ms)");
    t.ToNumber("backoff.baseMs", 1000, "backOff absent (1000 ms)");
  } else if (delay_ms && *delay_ms == 0) {
    t.NoBackoff("@BackOff(delay = 0)");
  } else if (!m || *m == 0) {
    t.ToText("backoff.kind", "fixed", "@BackOff(delay = " + delay + ")");
    WholeTo(t, "backoff.baseMs", "@BackOff delay", delay, 1, kMaxDelayFieldMs, "@BackOff delay " + delay + " ms");
  } else {
    t.ToText("backoff.kind", "exponential", "@BackOff multiplier " + multiplier);
    WholeTo(t, "backoff.baseMs", "@BackOff delay", delay, 1, kMaxDelayFieldMs, "@BackOff delay " + delay + " ms");
    if (!max_delay.empty())
      WholeTo(t, "backoff.capMs", "@BackOff maxDelay", max_delay, 1, kMaxDelayFieldMs,
              "@BackOff maxDelay " + max_delay + " ms");
    MultiplierTo(t, "@BackOff multiplier", multiplier);
  }
  if (!back_off.empty() || delay_ms) t.ToText("backoff.jitter", "none", "@BackOff (Spring draws no jitter)");
  if (!NamedArgument(args, "exclude").empty()) {
    t.Ignore("exclude", "the never-retried exceptions: the lab's classes say which failures never retry");
  }
}

void ReadErrorHandler(const std::string& code, Translation& t) {
  t.ToFlag("retryTopics", false, "DefaultErrorHandler (blocking: it seeks the partition back)");
  t.ToText("ordering", "stall", "DefaultErrorHandler (the partition is held while a record retries)");
  const std::string handler = ArgumentsOf(code, "new DefaultErrorHandler").value_or("");
  t.ToFlag("noRecoverer", handler.find("DeadLetterPublishingRecoverer") == std::string::npos,
           handler.find("DeadLetterPublishingRecoverer") == std::string::npos
               ? "DefaultErrorHandler without a recoverer (a record that fails for good is logged and skipped)"
               : "DeadLetterPublishingRecoverer (to the dead-letter topic)");
  if (const std::optional<std::string> fixed = ArgumentsOf(code, "new FixedBackOff")) {
    const size_t comma = fixed->find(',');
    const std::string interval = Trimmed(fixed->substr(0, comma));
    const std::string retries = comma == std::string::npos ? "" : Trimmed(fixed->substr(comma + 1));
    const std::optional<double> r = JavaNumber(retries);
    if (!r || *r != std::floor(*r) || *r < 0 || *r > 999'999) {
      t.Refuse(Refusal("FixedBackOff maxAttempts", "a whole number from 0 to 999999",
                       retries.empty() ? "nothing" : retries));
    } else {
      t.ToNumber("maxAttempts", *r + 1,
                 "FixedBackOff(" + interval + ", " + retries + "): " + Num(*r) + " retries after the first delivery");
    }
    const std::optional<double> i = JavaNumber(interval);
    if (i && *i == 0) {
      t.NoBackoff("FixedBackOff interval 0");
    } else {
      t.ToText("backoff.kind", "fixed", "FixedBackOff interval " + interval);
      t.ToText("backoff.jitter", "none", "FixedBackOff (no jitter)");
      WholeTo(t, "backoff.baseMs", "FixedBackOff interval", interval, 1, kMaxDelayFieldMs,
              "FixedBackOff interval " + interval + " ms");
    }
  } else if (const std::optional<std::string> retries = ArgumentsOf(code, "new ExponentialBackOffWithMaxRetries")) {
    const std::optional<double> r = JavaNumber(*retries);
    if (!r || *r != std::floor(*r) || *r < 0 || *r > 999'999) {
      t.Refuse(
          Refusal("ExponentialBackOffWithMaxRetries maxRetries", "a whole number from 0 to 999999", Trimmed(*retries)));
    } else {
      t.ToNumber("maxAttempts", *r + 1,
                 "ExponentialBackOffWithMaxRetries(" + Trimmed(*retries) + "): retries after the first delivery");
    }
    t.ToText("backoff.kind", "exponential", "ExponentialBackOffWithMaxRetries");
    t.ToText("backoff.jitter", "none", "ExponentialBackOff (no jitter)");
    const std::string initial = Trimmed(ArgumentsOf(code, "setInitialInterval").value_or("2000"));
    const std::string max = Trimmed(ArgumentsOf(code, "setMaxInterval").value_or("30000"));
    const std::string multiplier = Trimmed(ArgumentsOf(code, "setMultiplier").value_or("1.5"));
    WholeTo(t, "backoff.baseMs", "setInitialInterval", initial, 1, kMaxDelayFieldMs,
            "initial interval " + initial + " ms");
    WholeTo(t, "backoff.capMs", "setMaxInterval", max, 1, kMaxDelayFieldMs, "max interval " + max + " ms");
    MultiplierTo(t, "setMultiplier", multiplier);
  } else if (handler.find("backOff") == std::string::npos && handler.find("BackOff") == std::string::npos) {
    t.ToNumber("maxAttempts", 10, "no BackOff: Spring's default FixedBackOff(0, 9), ten deliveries");
    t.NoBackoff("no BackOff: FixedBackOff(0, 9), no delay");
  } else {
    t.Refuse(Refusal("BackOff",
                     "new FixedBackOff(interval, maxAttempts) or new ExponentialBackOffWithMaxRetries(maxRetries)",
                     Trimmed(handler)));
  }
  if (code.find("addNotRetryableExceptions") != std::string::npos) {
    t.Ignore("addNotRetryableExceptions",
             "the never-retried exceptions: the lab's classes say which failures never retry");
  }
}

}  // namespace

bool IsSpringKafkaText(std::string_view text) {
  return text.find("@RetryableTopic") != std::string_view::npos ||
         text.find("DefaultErrorHandler") != std::string_view::npos;
}

ImportResult ReadSpringKafka(std::string_view text) {
  const std::string code = WithoutComments(text);
  Translation t("spring-kafka", "spring-kafka");
  const bool topics = code.find("@RetryableTopic") != std::string::npos;
  const bool handler = code.find("new DefaultErrorHandler") != std::string::npos;
  if (topics == handler) {
    return Refused("spring-kafka", Refusal("config", "one @RetryableTopic listener or one new DefaultErrorHandler(…)",
                                           topics ? "both" : "neither (outside comments)"));
  }
  if (topics) ReadRetryTopic(code, t);
  else ReadErrorHandler(code, t);
  return std::move(t).Result();
}

}  // namespace dlq::config
