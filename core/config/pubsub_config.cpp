// Google Cloud Pub/Sub, both directions of its gcloud commands (the pubsub mode):
//   reader  the `gcloud pubsub subscriptions create` commands the writer prints (and
//           hand-written ones like them) into the lab's fields: the source subscription's
//           --max-delivery-attempts, --ack-deadline, --min/--max-retry-delay,
//           --message-retention-duration, --dead-letter-topic; the dead-letter topic's
//           subscription's retention as quarantine.retentionMs. Other commands (topics,
//           IAM bindings, shell variables) are skipped; an unknown flag is refused by name.
//   writer  the policy in force as those commands, with the IAM grants dead-lettering needs.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config.h"
#include "internal/js_value.h"
#include "internal/snippet_text.h"
#include "internal/translation.h"

namespace dlq::config {
namespace {

constexpr std::string_view kCreate = "gcloud pubsub subscriptions create";

// ---- the reader ----

struct Command {
  std::string name;                                        // the subscription's
  std::vector<std::pair<std::string, std::string>> flags;  // --flag=value (value "" for a bare flag)
  const std::string* Flag(std::string_view key) const {
    for (const auto& f : flags) {
      if (f.first == key) return &f.second;
    }
    return nullptr;
  }
};

// The text's shell lines: comments dropped, a trailing backslash joined to the next line.
std::vector<std::string> ShellLines(std::string_view text) {
  std::vector<std::string> lines;
  std::string current;
  size_t at = 0;
  while (at <= text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = JsTrim(text.substr(at, end - at));
    at = end + 1;
    if (line.empty() || line[0] == '#') {
      if (!current.empty() && line.empty()) lines.push_back(std::move(current)), current.clear();
      continue;
    }
    const bool continued = line.back() == '\\';
    if (continued) line = JsTrim(line.substr(0, line.size() - 1));
    if (!current.empty()) current += ' ';
    current += line;
    if (!continued) lines.push_back(std::move(current)), current.clear();
  }
  if (!current.empty()) lines.push_back(std::move(current));
  return lines;
}

std::vector<std::string> Words(std::string_view line) {
  std::vector<std::string> words;
  size_t at = 0;
  while (at < line.size()) {
    while (at < line.size() && line[at] == ' ') ++at;
    size_t end = line.find(' ', at);
    if (end == std::string_view::npos) end = line.size();
    if (end > at) words.emplace_back(line.substr(at, end - at));
    at = end;
  }
  return words;
}

// A gcloud duration ("600s", "10m", "7d", "1h", or bare seconds) in seconds, or nullopt.
std::optional<double> DurationSeconds(std::string_view text) {
  if (text.empty()) return std::nullopt;
  double unit = 1;
  const char last = text.back();
  if (last == 's' || last == 'm' || last == 'h' || last == 'd') {
    unit = last == 's' ? 1 : last == 'm' ? 60 : last == 'h' ? 3600 : 86400;
    text.remove_suffix(1);
  }
  const JsValue number = JsValue::String(std::string(text));
  std::optional<double> n = WholeOf(&number);
  if (!n || *n < 0) return std::nullopt;
  return *n * unit;
}

// Reads flag `key`'s duration into seconds within [min, max]; refuses it by name otherwise.
std::optional<double> Duration(Translation& t, const Command& c, std::string_view key, double min, double max,
                               const std::string& range) {
  const std::string* v = c.Flag(key);
  if (v == nullptr) return std::nullopt;
  std::optional<double> s = DurationSeconds(*v);
  if (!s || *s < min || *s > max) {
    t.Refuse(Refusal(std::string(key), "a duration " + range, Quoted(JsValue::String(*v))));
    return std::nullopt;
  }
  return s;
}

std::optional<double> Whole(Translation& t, const Command& c, std::string_view key, double min, double max) {
  const std::string* v = c.Flag(key);
  if (v == nullptr) return std::nullopt;
  const JsValue value = JsValue::String(*v);
  std::optional<double> n = WholeOf(&value);
  if (!n || *n < min || *n > max) {
    t.Refuse(Refusal(std::string(key), "an integer from " + Num(min) + " to " + Num(max), Quoted(value)));
    return std::nullopt;
  }
  return n;
}

constexpr std::string_view kKnownFlags[] = {
    "--topic",           "--ack-deadline",    "--dead-letter-topic",          "--max-delivery-attempts",
    "--min-retry-delay", "--max-retry-delay", "--message-retention-duration", "--enable-message-ordering",
    "--project"};

void Source(Translation& t, const Command& c) {
  for (const auto& f : c.flags) {
    bool known = false;
    for (std::string_view k : kKnownFlags) known = known || f.first == k;
    if (!known) t.Refuse(NotModelled(f.first, Quoted(JsValue::String(f.second)), "a flag the lab has no setting for"));
  }
  if (const std::string* topic = c.Flag("--dead-letter-topic")) {
    t.ToText("deadLetterTopic", "set", "--dead-letter-topic=" + *topic);
    if (std::optional<double> n = Whole(t, c, "--max-delivery-attempts", 0, 100)) {
      if (*n != 0 && *n < 5) {
        t.Refuse(Refusal("--max-delivery-attempts", "an integer from 5 to 100 (0 means 5)", Num(*n)));
      } else {
        t.ToNumber("maxAttempts", *n == 0 ? 5 : *n,
                   "--max-delivery-attempts=" + Num(*n) + (*n == 0 ? " (0 means 5)" : ""));
      }
    } else if (c.Flag("--max-delivery-attempts") == nullptr) {
      t.ToNumber("maxAttempts", 5, "--max-delivery-attempts absent (Pub/Sub's default 5)");
    }
  } else {
    if (c.Flag("--max-delivery-attempts") != nullptr) {
      t.Refuse(Refusal("--max-delivery-attempts", "it with a --dead-letter-topic",
                       Quoted(JsValue::String(*c.Flag("--max-delivery-attempts"))), "means nothing alone"));
    }
    t.ToText("deadLetterTopic", "none", "no --dead-letter-topic: redelivered until its retention expires");
  }
  if (std::optional<double> s = Whole(t, c, "--ack-deadline", 10, 600)) {
    t.ToNumber("leaseMs", *s * 1000, "--ack-deadline=" + Num(*s) + " s");
  } else if (c.Flag("--ack-deadline") == nullptr) {
    t.ToNumber("leaseMs", 10000, "--ack-deadline absent (Pub/Sub's default 10 s)");
  }
  const bool min_given = c.Flag("--min-retry-delay") != nullptr, max_given = c.Flag("--max-retry-delay") != nullptr;
  if (min_given || max_given) {
    const double min = Duration(t, c, "--min-retry-delay", 1, 600, "from 1s to 600s").value_or(10);
    const double max = Duration(t, c, "--max-retry-delay", 1, 600, "from 1s to 600s").value_or(600);
    if (max < min) {
      t.Refuse(Refusal("--max-retry-delay", "at least --min-retry-delay (" + Num(min) + "s)", Num(max) + "s"));
    }
    t.ToText("backoff.kind", "exponential", "a retry policy: exponential between its two delays");
    t.ToNumber("backoff.baseMs", min * 1000, "--min-retry-delay " + Num(min) + " s" + (min_given ? "" : " (default)"));
    t.ToNumber("backoff.capMs", max * 1000, "--max-retry-delay " + Num(max) + " s" + (max_given ? "" : " (default)"));
    t.ToText("backoff.jitter", "none", "Pub/Sub's retry policy has no jitter setting");
  } else {
    t.NoBackoff("no retry policy: a nacked message is redelivered at once");
  }
  if (std::optional<double> s = Duration(t, c, "--message-retention-duration", 600, 31 * 86400, "from 10m to 31d")) {
    t.ToNumber("messageRetentionMs", *s * 1000, "--message-retention-duration " + Num(*s) + " s");
  } else if (c.Flag("--message-retention-duration") == nullptr) {
    t.ToNumber("messageRetentionMs", 7 * 86400000.0, "--message-retention-duration absent (Pub/Sub's default 7 days)");
  }
  t.ToText("ordering", c.Flag("--enable-message-ordering") != nullptr ? "key" : "none",
           c.Flag("--enable-message-ordering") != nullptr ? "--enable-message-ordering: ordering keys"
                                                          : "no --enable-message-ordering");
}

}  // namespace

bool IsGcloudPubsub(std::string_view trimmed) { return trimmed.find(kCreate) != std::string_view::npos; }

ImportResult ReadPubsub(std::string_view text) {
  Translation t("pubsub", "pubsub");
  std::vector<Command> creates;
  for (const std::string& line : ShellLines(text)) {
    if (line.rfind(kCreate, 0) != 0) continue;  // topics, IAM bindings, variables: not the subscription's settings
    std::vector<std::string> words = Words(std::string_view(line).substr(kCreate.size()));
    Command c;
    for (const std::string& w : words) {
      if (w.rfind("--", 0) == 0) {
        const size_t eq = w.find('=');
        c.flags.emplace_back(w.substr(0, eq), eq == std::string::npos ? "" : w.substr(eq + 1));
      } else if (c.name.empty()) {
        c.name = w;
      }
    }
    creates.push_back(std::move(c));
  }
  // The source is the subscription that is not on the dead-letter topic of another.
  std::vector<const Command*> sources;
  const Command* dead_letter_sub = nullptr;
  for (const Command& c : creates) {
    bool on_dlt = false;
    for (const Command& other : creates) {
      const std::string* dlt = other.Flag("--dead-letter-topic");
      const std::string* topic = c.Flag("--topic");
      if (&other != &c && dlt != nullptr && topic != nullptr && *dlt == *topic) on_dlt = true;
    }
    if (on_dlt) dead_letter_sub = &c;
    else sources.push_back(&c);
  }
  if (sources.size() != 1) {
    return Refused("pubsub",
                   Refusal("gcloud pubsub subscriptions create", "one source subscription",
                           std::to_string(sources.size()) + " (" + std::to_string(creates.size()) + " subscriptions, " +
                               (dead_letter_sub ? "one" : "none") + " on a dead-letter topic)"));
  }
  Source(t, *sources[0]);
  if (dead_letter_sub != nullptr) {
    if (std::optional<double> s =
            Duration(t, *dead_letter_sub, "--message-retention-duration", 600, 31 * 86400, "from 10m to 31d")) {
      t.ToNumber("quarantine.retentionMs", *s * 1000,
                 dead_letter_sub->name + " --message-retention-duration " + Num(*s) + " s");
    } else if (dead_letter_sub->Flag("--message-retention-duration") == nullptr) {
      t.ToNumber("quarantine.retentionMs", 0,
                 dead_letter_sub->name + " has no retention given (the lab keeps entries)");
    }
  }
  return std::move(t).Result();
}

namespace {

// ---- the writer ----

// The notes on the budget, lease, backoff and classes; the subscription's flags as they are set.
std::vector<std::string> SubscriptionNotes(const PolicyFacts& n, std::vector<std::string>& flags) {
  std::vector<std::string> notes;
  const BackoffFacts& b = n.backoff;
  const double attempts = Clamp(n.max_attempts, 5, 100);
  if (attempts != n.max_attempts)
    notes.push_back("maxAttempts " + Num(n.max_attempts) + ": max-delivery-attempts must be 5 to 100, set to " +
                    Num(attempts));
  const double ack = Clamp(SecondsUp(n.lease_ms), 10, 600);
  if (ack * 1000 != n.lease_ms)
    notes.push_back("leaseMs " + Num(n.lease_ms) + ": the ack deadline is whole seconds within 10..600, set to " +
                    Num(ack));
  const bool no_topic = n.system == "pubsub" && n.dead_letter_topic == "none";
  flags = {"--topic=orders", "--ack-deadline=" + Num(ack)};
  if (no_topic) {
    notes.push_back(
        "deadLetterTopic none: no dead-letter policy, so a failing message is redelivered until its retention expires, "
        "then deleted");
  } else {
    Append(flags, {"--dead-letter-topic=orders-dlt", "--max-delivery-attempts=" + Num(attempts)});
  }
  if (n.system == "pubsub" && n.message_retention_ms > 0) {
    flags.push_back("--message-retention-duration=" + Num(Clamp(SecondsUp(n.message_retention_ms), 600, 31 * 86400)) +
                    "s");
  }
  if (b.kind != "none") {
    const double min = Clamp(SecondsUp(b.base_ms), 0, 600);
    const double max = Clamp(SecondsUp(b.kind == "fixed" ? b.base_ms : b.cap_ms), min, 600);
    flags.push_back("--min-retry-delay=" + Num(min) + "s");
    flags.push_back("--max-retry-delay=" + Num(max) + "s");
    if (b.kind == "exponential")
      notes.push_back("backoff exponential: Pub/Sub grows the delay between the two bounds its own way, best effort");
    if (min * 1000 != b.base_ms || (b.kind == "exponential" && max * 1000 != b.cap_ms)) {
      notes.push_back("backoff " + BackoffText(b) + ": retry delays are whole seconds up to 600 s, set to " + Num(min) +
                      "s.." + Num(max) + "s");
    }
  } else {
    notes.push_back("backoff none: no retry policy, so a nacked message is redelivered at once");
  }
  if (b.jitter != "none") notes.push_back("jitter " + b.jitter + ": no equivalent");
  return notes;
}

void ClassNotes(const PolicyFacts& n, std::vector<std::string>& flags, std::vector<std::string>& notes) {
  ClassShape shape = ShapeOf(n);
  if (!shape.never.empty()) {
    notes.push_back(
        Joined(shape.never) +
        ": quarantined at once in the lab; Pub/Sub has no permanent failure, so such a message is "
        "redelivered until max-delivery-attempts (or the subscriber publishes it to orders-dlt and acks it)");
  }
  for (const RuleFacts* r : shape.own) notes.push_back(RuleText(*r) + ": one delivery budget for every failure");
  if (shape.crash_never)
    notes.push_back("classes.crash never retries in the lab; an expired ack deadline is a redelivery in Pub/Sub");
  if (!shape.alerts.empty()) notes.push_back("alert on " + Joined(shape.alerts) + ": no equivalent");
  if (n.ordering == "key") {
    flags.push_back("--enable-message-ordering");
    notes.push_back(
        "ordering key: ordering keys, enabled per subscription; how they interact with dead-lettering is not "
        "documented in the reference");
  }
  if (n.ordering == "stall") notes.push_back("ordering stall: no equivalent (ordering is per ordering key)");
  if (n.alarm_depth > 0) notes.push_back("quarantine.alarmDepth " + Num(n.alarm_depth) + ": no alarm configured here");
  notes.push_back("dead-lettering is best effort: a message may reach orders-dlt more than once");
  notes.push_back("replay(id): no built-in replay; republish from orders-dlt-sub");
  CommonNotes(n, notes);
}

// The dead-letter topic's subscription, which keeps what is dead-lettered (quarantine.retentionMs as its retention).
void DeadLetterSubscription(const PolicyFacts& n, std::vector<std::string>& lines) {
  if (n.retention_ms > 0) {
    const double keep = Clamp(SecondsUp(n.retention_ms), 600, 604800);
    if (keep * 1000 != n.retention_ms) {
      lines.push_back("# quarantine.retentionMs " + Num(n.retention_ms) +
                      ": subscription retention is 10 minutes to 7 days, set to " + Num(keep) + "s");
    }
    lines.push_back(
        "gcloud pubsub subscriptions create orders-dlt-sub --topic=orders-dlt --message-retention-duration=" +
        Num(keep) + "s");
  } else {
    Append(lines, {"# quarantine.retentionMs 0 (forever): no equivalent; the subscription keeps unacked messages for "
                   "its retention duration",
                   "gcloud pubsub subscriptions create orders-dlt-sub --topic=orders-dlt"});
  }
}

}  // namespace

Snippet PubSubSnippet(const PolicyFacts& n) {
  std::vector<std::string> flags;
  std::vector<std::string> notes = SubscriptionNotes(n, flags);
  ClassNotes(n, flags, notes);
  const bool no_topic = n.system == "pubsub" && n.dead_letter_topic == "none";
  std::vector<std::string> lines = {std::string("# dlq-lab policy -> Google Cloud Pub/Sub subscription ") +
                                    (no_topic ? "with no dead-letter topic: " : "with a dead-letter topic: ") +
                                    PolicyText(n)};
  Append(lines, HashComments(notes));
  if (!no_topic) {
    Append(lines, {"# The dead-letter topic needs a subscription: messages sent to a topic without one are lost.",
                   "gcloud pubsub topics create orders-dlt"});
    DeadLetterSubscription(n, lines);
  }
  Append(lines, {"# maxAttempts " + Num(n.max_attempts) + " -> --max-delivery-attempts=" +
                     Num(Clamp(n.max_attempts, 5, 100)) + "; leaseMs -> --ack-deadline (seconds)",
                 "gcloud pubsub subscriptions create orders-sub \\"});
  for (size_t i = 0; i < flags.size(); ++i) lines.push_back("  " + flags[i] + (i + 1 < flags.size() ? " \\" : ""));
  if (no_topic) return {"shell", LinesText(lines)};
  const std::string service_account =
      "--member=\"serviceAccount:service-${PROJECT_NUMBER}@gcp-sa-pubsub.iam.gserviceaccount.com\"";
  Append(lines, {"# Dead-lettering works only when the project's Pub/Sub service account may publish to the",
                 "# dead-letter topic and subscribe to (acknowledge on) the source subscription.",
                 "PROJECT_NUMBER=$(gcloud projects describe \"$(gcloud config get-value project)\" "
                 "--format='value(projectNumber)')",
                 "gcloud pubsub topics add-iam-policy-binding orders-dlt \\", "  " + service_account + " \\",
                 "  --role=roles/pubsub.publisher", "gcloud pubsub subscriptions add-iam-policy-binding orders-sub \\",
                 "  " + service_account + " \\", "  --role=roles/pubsub.subscriber"});
  return {"shell", LinesText(lines)};
}

}  // namespace dlq::config
