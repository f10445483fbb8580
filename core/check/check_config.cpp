// ReadCheckConfig (check.h): `.dlq-lab.yml` (YAML, or JSON when the file ends in .json).
//
//   goals:                      # each optional; stating one makes its rule an error
//     outage: 15m               # a duration: "500ms", "90s", "15m", "24h", or a number of ms
//     outageProbability: 0.99   # in (0, 1]
//     maxTimeToDlq: 24h
//     maxDelay: 1h
//   skip:
//     - rule: DLQ-EXISTS        # one of RuleIds()
//       queue: audit            # a queue name or a glob (* and ?); absent: every queue
//       reason: audit events are best-effort   # required
//
// Any other key, a value of another form, a skip without a reason: an error naming the file,
// the line, the setting, what was expected and what was given.
#include <algorithm>
#include <string>
#include <string_view>

#include "check.h"
#include "text.h"
#include "tree_builder.h"

namespace dlq::check {
namespace {

// The longest duration a goal may state: 365 days, in ms (far above any retry budget).
constexpr int64_t kMaxDurationMs = int64_t{365} * 24 * 60 * 60 * 1000;

std::string Shown(const Node& n) {
  if (n.IsMap()) return "a map";
  if (n.IsList()) return "a list";
  if (n.IsNull()) return "nothing";
  return QuoteShort(n.scalar);
}

Status Wrong(std::string_view file, int line, std::string_view setting, std::string_view expected, const Node& got) {
  return Status::InvalidArgument(At(file, line) + std::string(setting) + ": expected " + std::string(expected) +
                                 ", got " + Shown(got));
}

// Every key of `map` is one of `known`; otherwise an error naming the first that is not.
Status KnownKeys(std::string_view file, const Node& map, std::string_view where,
                 std::initializer_list<std::string_view> known) {
  for (size_t i = 0; i < map.keys.size(); ++i) {
    if (std::find(known.begin(), known.end(), map.keys[i]) != known.end()) continue;
    std::string list;
    for (const std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    return Status::InvalidArgument(At(file, map.key_lines[i]) + std::string(where) + ": unknown key " +
                                   QuoteShort(map.keys[i]) + ", expected one of " + list);
  }
  return Status::Ok();
}

constexpr std::string_view kDuration = "a duration (\"500ms\", \"90s\", \"15m\", \"24h\" or a number of milliseconds)";
constexpr std::string_view kDurationInRange =
    "a duration above 0 and at most 365 days (\"500ms\", \"90s\", \"15m\", \"24h\" or a number of milliseconds)";

// "15m", "24h", "90s", "500ms", 900000 (ms): a whole number of a unit, above 0, at most 365 days.
Result<int64_t> Duration(std::string_view file, const Node& map, std::string_view key, std::string_view setting) {
  const Node& n = *map.Get(key);
  const int line = n.line;
  if (n.kind == Node::Kind::kNumber) {
    const std::optional<int64_t> ms = AsInteger(n);
    if (!ms || *ms <= 0 || *ms > kMaxDurationMs) return Wrong(file, line, setting, kDurationInRange, n);
    return *ms;
  }
  if (n.kind != Node::Kind::kString) return Wrong(file, line, setting, kDuration, n);
  const std::string_view s = n.scalar;
  const size_t digits = std::min(s.find_first_not_of("0123456789"), s.size());
  const std::string_view unit = s.substr(digits);
  int64_t scale = 0;
  if (unit == "ms") scale = 1;
  else if (unit == "s") scale = 1000;
  else if (unit == "m") scale = 60'000;
  else if (unit == "h") scale = 3'600'000;
  if (digits == 0 || digits > 12 || scale == 0) return Wrong(file, line, setting, kDuration, n);
  int64_t amount = 0;
  for (const char c : s.substr(0, digits)) amount = amount * 10 + (c - '0');
  if (amount <= 0 || amount > kMaxDurationMs / scale) {
    return Wrong(file, line, setting, kDurationInRange, n);
  }
  return amount * scale;
}

Status ReadGoals(std::string_view file, const Node& goals, Goals& out) {
  if (!goals.IsMap()) return Wrong(file, goals.line, "goals", "a map of goals", goals);
  RETURN_IF_ERROR(KnownKeys(file, goals, "goals", {"outage", "outageProbability", "maxTimeToDlq", "maxDelay"}));
  if (goals.Get("outage") != nullptr) {
    Result<int64_t> ms = Duration(file, goals, "outage", "goals.outage");
    RETURN_IF_ERROR(ms.status());
    out.outage_ms = ms.value();
    out.outage_stated = true;
  }
  if (const Node* p = goals.Get("outageProbability")) {
    const std::optional<double> value = p->kind == Node::Kind::kNumber ? AsNumber(*p) : std::nullopt;
    if (!value || !(*value > 0 && *value <= 1)) {
      return Wrong(file, p->line, "goals.outageProbability", "a number above 0 and at most 1", *p);
    }
    out.outage_probability = *value;
    out.outage_stated = true;
  }
  if (goals.Get("maxTimeToDlq") != nullptr) {
    Result<int64_t> ms = Duration(file, goals, "maxTimeToDlq", "goals.maxTimeToDlq");
    RETURN_IF_ERROR(ms.status());
    out.max_time_to_dlq_ms = ms.value();
  }
  if (goals.Get("maxDelay") != nullptr) {
    Result<int64_t> ms = Duration(file, goals, "maxDelay", "goals.maxDelay");
    RETURN_IF_ERROR(ms.status());
    out.max_delay_ms = ms.value();
    out.max_delay_stated = true;
  }
  return Status::Ok();
}

// A scalar's text, trimmed; "" for null.
std::string Trimmed(const Node& n) {
  const std::string& s = n.scalar;
  const size_t first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

Status ReadSkip(std::string_view file, const Node& entry, size_t index, Skip& out) {
  const std::string where = "skip[" + std::to_string(index) + "]";
  if (!entry.IsMap()) return Wrong(file, entry.line, where, "a map with rule, queue and reason", entry);
  RETURN_IF_ERROR(KnownKeys(file, entry, where, {"rule", "queue", "reason"}));
  out.at = Location{std::string(file), entry.line, entry.column};
  const Node* rule = entry.Get("rule");
  std::string ids;
  for (const char* id : RuleIds()) ids += (ids.empty() ? "" : ", ") + std::string(id);
  if (rule == nullptr) {
    return Status::InvalidArgument(At(file, entry.line) + where + ": expected a rule (" + ids + "), got none");
  }
  const std::vector<const char*> known(RuleIds().begin(), RuleIds().end());
  const bool is_rule = rule->kind == Node::Kind::kString &&
                       std::any_of(known.begin(), known.end(), [&](const char* id) { return rule->scalar == id; });
  if (!is_rule) return Wrong(file, rule->line, where + ".rule", "a rule id (" + ids + ")", *rule);
  out.rule = rule->scalar;
  if (const Node* queue = entry.Get("queue")) {
    if (!queue->IsScalar() || Trimmed(*queue).empty()) {
      return Wrong(file, queue->line, where + ".queue", "a queue name or a pattern (* and ?)", *queue);
    }
    out.queue = Trimmed(*queue);
  } else {
    out.queue = std::string("*");  // every queue (a string, not a char*: g++ 12 -Wrestrict false alarm, GCC bug 105329)
  }
  const Node* reason = entry.Get("reason");
  if (reason == nullptr) {
    return Status::InvalidArgument(At(file, entry.line) + where + ": a skip of " + out.rule +
                                   " needs a reason (reason: why the rule does not apply), got none");
  }
  if (!reason->IsScalar() || Trimmed(*reason).empty()) {
    return Wrong(file, reason->line, where + ".reason", "a reason (why the rule does not apply)", *reason);
  }
  out.reason = Trimmed(*reason);
  return Status::Ok();
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

Result<CheckConfig> ReadCheckConfig(std::string_view file, std::string_view text) {
  Result<Document> doc = EndsWith(file, ".json") ? ParseJson(file, text) : ParseYaml(file, text);
  RETURN_IF_ERROR(doc.status());
  CheckConfig config;
  if (!doc->more_roots.empty()) {
    return Status::InvalidArgument(At(file, doc->more_roots[0].line) +
                                   "expected one document (goals and skip), got a second after ---");
  }
  const Node& root = doc->root;
  if (root.IsNull()) return config;  // an empty file: the defaults
  if (!root.IsMap()) return Wrong(file, root.line, "the configuration", "a map with goals and skip", root);
  RETURN_IF_ERROR(KnownKeys(file, root, "the configuration", {"goals", "skip"}));
  if (const Node* goals = root.Get("goals")) RETURN_IF_ERROR(ReadGoals(file, *goals, config.goals));
  if (const Node* skips = root.Get("skip")) {
    if (!skips->IsList()) return Wrong(file, skips->line, "skip", "a list of skips", *skips);
    for (size_t i = 0; i < skips->items.size(); ++i) {
      Skip skip;
      RETURN_IF_ERROR(ReadSkip(file, skips->items[i], i, skip));
      config.skips.push_back(std::move(skip));
    }
  }
  return config;
}

}  // namespace dlq::check
