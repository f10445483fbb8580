// The field tables (core/base/field.h, core/policy/schema.h and beside each
// options struct) against the rules and the formats: every row's range is the
// one its checks enforce, named as the row names it, and every field a scenario
// carries survives link v2 and the snapshot text, set to any value its rules admit.
#include <type_traits>
#include <string>
#include <vector>

#include "action_schema.h"
#include "contention.h"
#include "queue.h"
#include "scenario.h"
#include "schema.h"
#include "storm.h"
#include "test_util.h"
#include "world.h"

namespace dlq::schema_test {
namespace {

// Values of a row's kind worth trying, the default excluded: the ends of an
// integer's range and its neighbours of the default; every other choice; the
// other boolean.
template <class T>
std::vector<int64_t> Candidates(const Field<T>& row, const T& base) {
  const int64_t now = row.get(base);
  std::vector<int64_t> all;
  switch (row.spec.kind) {
    case FieldKind::kInteger: all = {row.spec.range->min, row.spec.range->max, now + 1, now - 1}; break;
    case FieldKind::kBoolean: all = {0, 1}; break;
    case FieldKind::kChoice:
      for (int i = 0; i < row.spec.choices->count; ++i) all.push_back(i);
      break;
  }
  std::vector<int64_t> out;
  for (int64_t v : all) {
    if (v == now) continue;
    if (row.spec.kind == FieldKind::kInteger && (v < row.spec.range->min || v > row.spec.range->max)) continue;
    out.push_back(v);
  }
  return out;
}

// A policy whose pairs let every field move: an exponential backoff with room
// between its base and its cap, and an outage in the world.
Scenario Base() {
  Scenario s;
  s.policy.backoff = {BackoffKind::kExponential, 100, 10'000, Jitter::kNone};
  s.world.outage_start = 100;
  s.world.outage_end = 200;
  return s;
}

// The scenario back from its link v2 text and, for its policy, from a queue's snapshot text.
void CheckCarried(const Scenario& s, const std::string& what) {
  INFO(what);
  const std::string link = FormatScenario(s);
  Result<Scenario> back = ParseScenario(link);
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(back->policy == s.policy);
  CHECK(back->world == s.world);
  Result<Queue> q = Queue::Create(s.policy);
  REQUIRE(q.ok());
  Result<std::string> snapshot = q->Snapshot();
  REQUIRE(snapshot.ok());
  Result<Queue> restored = Queue::Restore(snapshot.value());
  REQUIRE_MESSAGE(restored.ok(), restored.status().ToString());
  CHECK(restored->policy() == s.policy);
}

// Moves each row of `rows` (reached on the scenario by `part`) to every value its
// rules admit and checks the formats carry it; at least one value must be admitted.
template <class T, class Part, class Check>
void EveryValueCarried(std::span<const Field<T>> rows, const std::string& owner, Part part, Check check) {
  for (const Field<T>& row : rows) {
    if (!IsScenarioField(row.spec)) continue;
    int admitted = 0;
    Scenario base = Base();
    for (int64_t v : Candidates(row, part(base))) {
      Scenario s = Base();
      row.set(part(s), v);
      // A mode's own setting is admitted only in its mode: try each system.
      const int64_t attempts = s.policy.max_attempts;
      for (int system = 0; system < kSystemChoices.count && !check(s).ok(); ++system) {
        s.policy.system = static_cast<System>(system);
        // Pub/Sub's max_delivery_attempts is 5..100 (Policy::Check): its own rows need one.
        if (s.policy.system == System::kPubSub && attempts < 5) s.policy.max_attempts = 5;
        // Service Bus has no retry delay (Policy::Check refuses a backoff): its own rows need none.
        if constexpr (std::is_same_v<T, Policy>) {
          s.policy.backoff.kind =
              s.policy.system == System::kServiceBus ? BackoffKind::kNone : Base().policy.backoff.kind;
        }
      }
      if (!check(s).ok()) {  // no system admits it alone: back to the lab's, for the next try
        s.policy.system = System::kLab;
        s.policy.max_attempts = attempts;
      }
      if (!check(s).ok())
        s.policy.system = Base().policy.system;  // no mode admits it: the next try starts from the lab
      // A jitter's own setting (jitterPermille) is admitted only with its jitter.
      if constexpr (std::is_same_v<T, Backoff>) {
        if (!check(s).ok()) {
          part(s).jitter = Jitter::kBullMq;
          // a jitter is refused under some systems (spring-kafka): try each again
          for (int system = 0; system < kSystemChoices.count && !check(s).ok(); ++system) {
            s.policy.system = static_cast<System>(system);
          }
        }
      }
      if (!check(s).ok()) continue;
      ++admitted;
      CheckCarried(s, owner + row.spec.name + " = " + std::to_string(v));
    }
    const std::string name = owner + row.spec.name;
    CHECK_MESSAGE(admitted > 0, name << ": no value but the default is admitted");
  }
}

Status CheckAll(const Scenario& s) {
  if (Status st = Policy::Check(s.policy); !st.ok()) return st;
  return CheckWorld(s.world);
}

TEST_CASE("schema: link v2 and the snapshot text carry every field of the policy, its classes and the world") {
  EveryValueCarried<Policy>(
      PolicyFields(), "", [](Scenario& s) -> Policy& { return s.policy; }, CheckAll);
  EveryValueCarried<Backoff>(
      BackoffFields(), "backoff.", [](Scenario& s) -> Backoff& { return s.policy.backoff; }, CheckAll);
  for (int c = 0; c < kFailureClassCount; ++c) {
    const auto cls = static_cast<FailureClass>(c);
    const std::string owner = std::string("classes.") + ClassName(cls) + ".";
    EveryValueCarried<ClassRule>(
        ClassRuleFields(), owner, [cls](Scenario& s) -> ClassRule& { return s.policy.classes[cls]; }, CheckAll);
    // Its own backoff, once it has one.
    EveryValueCarried<Backoff>(
        BackoffFields(), owner + "backoff.",
        [cls](Scenario& s) -> Backoff& {
          ClassRule& rule = s.policy.classes[cls];
          if (!rule.own_backoff) rule.backoff = s.policy.backoff;  // an exponential one: every field may move
          rule.own_backoff = true;
          return rule.backoff;
        },
        CheckAll);
  }
  EveryValueCarried<World>(
      WorldFields(), "world.", [](Scenario& s) -> World& { return s.world; }, CheckAll);
}

// Each integer row: one past either end is refused by the rule that owns the
// object, naming the field as the row does (owner + name).
template <class T, class Check>
void RangesEnforced(std::span<const Field<T>> rows, const T& base, const std::string& owner, Check check) {
  for (const Field<T>& row : rows) {
    if (row.spec.kind != FieldKind::kInteger) continue;
    const std::string name = owner + row.spec.name;
    for (int64_t v : {row.spec.range->min - 1, row.spec.range->max + 1}) {
      if (v < row.spec.range->min && row.spec.range->min == INT64_MIN) continue;
      T t = base;
      row.set(t, v);
      const Status s = check(t);
      INFO(name << " = " << v);
      CHECK_FALSE(s.ok());
      CHECK_MESSAGE(s.message().rfind(name + " must be", 0) == 0, s.message());
    }
  }
}

TEST_CASE("schema: every integer row's range is the one its object's check enforces, by the row's name") {
  Policy policy;
  policy.backoff = {BackoffKind::kExponential, 100, 10'000, Jitter::kNone};
  RangesEnforced<Policy>(PolicyFields(), policy, "", [](const Policy& p) { return Policy::Check(p); });
  RangesEnforced<Backoff>(BackoffFields(), policy.backoff, "backoff.", [&](const Backoff& b) {
    Policy p = policy;
    p.backoff = b;
    return Policy::Check(p);
  });
  RangesEnforced<ClassRule>(ClassRuleFields(), ClassRule{}, "classes.transient.", [&](const ClassRule& r) {
    Policy p = policy;
    p.classes[FailureClass::kTransient] = r;
    return Policy::Check(p);
  });
  World world;
  world.outage_start = 100;
  world.outage_end = 200;
  RangesEnforced<World>(WorldFields(), world, "world.", [](const World& w) { return CheckWorld(w); });
  StormOptions storm;
  storm.arrival.kind = ArrivalKind::kRate;  // perSecond counts only then
  storm.outage = StormOutage{0, 100};
  storm.capacity = StormCapacity{10, 100};
  RangesEnforced<StormOptions>(StormFields(), storm, "", [](const StormOptions& o) { return CheckStormOptions(o); });
  RangesEnforced<ContentionOptions>(ContentionFields(), ContentionOptions{}, "",
                                    [](const ContentionOptions& o) { return CheckContentionOptions(o); });
}

// A value of `row` other than its default that the row admits.
int64_t OtherValue(const Field<Policy>& row) {
  const int64_t def = row.get(Policy{});
  switch (row.spec.kind) {
    case FieldKind::kBoolean: return def == 0 ? 1 : 0;
    case FieldKind::kInteger: return def == row.spec.range->max ? row.spec.range->min : row.spec.range->max;
    case FieldKind::kChoice: return def == 0 ? 1 : 0;
  }
  return def;
}

TEST_CASE(
    "schema: a row's only_under is the rule Policy::Check keeps: a mode's own field, refused under every other "
    "system") {
  int marked = 0;
  for (const Field<Policy>& row : PolicyFields()) {
    for (int system = 0; system < kSystemChoices.count; ++system) {
      Policy p;
      p.system = static_cast<System>(system);
      if (p.system == System::kPubSub) p.max_attempts = 5;  // Pub/Sub's max_delivery_attempts is 5..100
      row.set(p, OtherValue(row));
      const Status s = Policy::Check(p);
      const bool own =
          row.spec.only_under != nullptr && std::string(row.spec.only_under) == kSystemChoices.items[system].name;
      if (row.spec.only_under == nullptr) {
        CHECK_MESSAGE(s.message().find("applies only with system") == std::string::npos, row.spec.name, ": ",
                      s.message());
      } else if (own) {
        CHECK_MESSAGE(s.ok(), row.spec.name, " under ", kSystemChoices.items[system].name, ": ", s.message());
      } else {
        const std::string want =
            std::string(row.spec.name) + " applies only with system \"" + row.spec.only_under + "\"";
        CHECK_MESSAGE(s.message().rfind(want, 0) == 0, s.message());
      }
    }
    if (row.spec.only_under != nullptr) ++marked;
  }
  CHECK(marked == 32);
}

TEST_CASE("schema: a choice's names are its enum's, in order, and parse back") {
  for (const Choices* choices : {&kBackoffKindChoices, &kJitterChoices, &kOrderingChoices, &kRetryChoices}) {
    for (int i = 0; i < choices->count; ++i) {
      Result<int> back = choices->Parse(choices->items[i].name, "x");
      REQUIRE(back.ok());
      CHECK(back.value() == i);
    }
    Result<int> bad = choices->Parse("nope", "field");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.status().message().rfind("field must be one of \"", 0) == 0);
  }
  CHECK(std::string(BackoffKindName(BackoffKind::kExponential)) == "exponential");
  CHECK(std::string(JitterName(Jitter::kDecorrelated)) == "decorrelated");
  CHECK(std::string(OrderingName(Ordering::kStall)) == "stall");
}

TEST_CASE(
    "schema: every scenario field names its link v2 field and its snapshot name, a link code is unique in its field") {
  for (const Field<Policy>& row : PolicyFields()) {
    INFO(row.spec.name);
    CHECK(row.spec.snapshot != nullptr);
    if (!IsScenarioField(row.spec)) {
      CHECK(row.spec.link_field == '\0');
      continue;
    }
    CHECK(row.spec.link_field != '\0');
    // A choice told by its own code alone (an empty link_code) has a code for every value but the default.
    if (row.spec.kind == FieldKind::kChoice && row.spec.link_code[0] == '\0' && IsModeSetting(row.spec)) {
      const int64_t fallback = row.get(Policy{});
      for (int i = 0; i < row.spec.choices->count; ++i) {
        if (i != fallback) CHECK(row.spec.choices->items[i].link != nullptr);
      }
    }
  }
  // The optional members of a field (r: after the system's code; t) never share a first letter.
  for (const char field : {kModeLinkField, kSwitchLinkField}) {
    std::string seen;
    for (const Field<Policy>& row : PolicyFields()) {
      if (row.spec.link_field != field || !(IsModeSetting(row.spec) || IsTeachingSwitch(row.spec))) continue;
      std::string codes = row.spec.link_code;
      if (codes.empty()) {
        for (int i = 0; i < row.spec.choices->count; ++i) {
          if (row.spec.choices->items[i].link != nullptr) codes += row.spec.choices->items[i].link;
        }
      }
      for (const char c : codes.substr(0, row.spec.link_code[0] == '\0' ? codes.size() : 1)) {
        INFO(row.spec.name << " code " << c);
        CHECK(seen.find(c) == std::string::npos);
        seen += c;
      }
    }
  }
  for (const Field<Backoff>& row : BackoffFields()) CHECK(row.spec.link_field == 'b');
  for (const Field<ClassRule>& row : ClassRuleFields()) CHECK(row.spec.link_field == 'f');
}

TEST_CASE("schema: a mode's settings and the switches are written by their rows' columns") {
  Scenario s;
  s.policy.system = System::kRabbitMqQuorum;
  s.policy.delivery_limit = DeliveryLimit::kClassicQueue;
  s.policy.dead_letter_exchange = DeadLetterExchange::kNone;
  s.policy.max_length = 5;
  s.policy.effect_charge = true;
  s.policy.count_in_body = true;
  CHECK(FormatScenario(s) == "v2;m3;s1;rqucng5;tcb");
  Result<Queue> q = Queue::Create(s.policy);
  REQUIRE(q.ok());
  Result<std::string> snapshot = q->Snapshot();
  REQUIRE(snapshot.ok());
  CHECK(snapshot->find("system rabbitmq-quorum deliveryLimit classic-queue deadLetterExchange none maxLength 5 "
                       "switches 1 0 1 0 0") != std::string::npos);
  // Read back in table order; a code out of its order, or a default value written, is refused.
  Result<Scenario> back = ParseScenario("v2;m3;s1;rqucng5;tcb");
  REQUIRE(back.ok());
  CHECK(back->policy == s.policy);
  CHECK(ParseScenario("v2;m3;s1;rqg5uc").status().message() ==
        "scenario link is malformed at character 14: expected ';' or the end of the link, got 'u'");
  CHECK(ParseScenario("v2;m3;s1;rqux").status().message() ==
        "scenario link is malformed at character 13: expected deliveryLimit (u3 unset-3.x, u4 unset-4.x, uc "
        "classic-queue), got 'x'");
  CHECK(ParseScenario("v2;m3;s1;t").status().message() ==
        "scenario link is malformed at character 11: expected a teaching switch (c effects.charge, k "
        "effects.idempotencyKey, b antiPatterns.countInBody, d antiPatterns.decideBeforeCount, l "
        "antiPatterns.dlqToSource), in that order, got the end of the link");
}

// An action rebuilt from its type's rows alone: a blank of its type, each field set from what get gives.
Action Rebuilt(const Action& original) {
  const ActionType& type = ActionTypeOf(original);
  Action out = type.make();
  for (const ActionField& field : type.fields) {
    const ActionFieldValue v = field.get(original);
    if (std::holds_alternative<std::monostate>(v)) continue;
    const Status s = field.set(out, v, "a");
    REQUIRE_MESSAGE(s.ok(), s.ToString());
  }
  return out;
}

TEST_CASE("schema: every action type is a row, and its rows carry every field of its actions") {
  CHECK(ActionTypes().size() == std::variant_size_v<Action>);
  const std::vector<Action> actions = {
      action::Process{Outcome::kPrecondition, "db down"},
      action::Process{Outcome::kSuccess, ""},
      action::Replay{"a", false},
      action::Replay{"a", true},
      action::Enqueue{"b", "{}", ""},
      action::Enqueue{"b", "", "k1"},
      action::Lease{},
      action::Settle{7, Outcome::kTransient, "timeout"},
      action::Advance{1500},
      action::AdvanceToNext{},
      action::ReleaseKey{"k1"},
      action::Redrive{3, RedriveFilter{}},
      action::Redrive{1, RedriveFilter{FailureClass::kPrecondition, Reason::kExhausted}},
      action::Crash{4, true},
      action::Patch{"a", "fixed"},
  };
  for (const Action& a : actions) {
    INFO(ActionTypeOf(a).type);
    CHECK(FindActionType(ActionTypeOf(a).type) == &ActionTypeOf(a));
    CHECK(Rebuilt(a) == a);
  }
  CHECK(FindActionType("explode") == nullptr);
}

TEST_CASE("schema: an action field the core parses is refused by name, as the bindings always said it") {
  Action settle = FindActionType("settle")->make();
  const ActionField& token = FindActionType("settle")->fields[0];
  CHECK(token.set(settle, std::string("lease-0"), "scenario.actions[2]").message() ==
        "scenario.actions[2].token must be a lease token \"lease-<n>\" with n from 1 to 4294967295, got \"lease-0\"");
  const ActionField& outcome = FindActionType("process")->fields[0];
  Action process = FindActionType("process")->make();
  CHECK(outcome.set(process, std::string("fine"), "a").message().rfind("a.outcome", 0) == 0);
  const ActionType& redrive = *FindActionType("redrive");
  Action r = redrive.make();
  CHECK(redrive.fields[2].set(r, std::string("stalled"), "a").message() ==
        "a.reason must be \"permanent\" or \"exhausted\", got \"stalled\"");
  CHECK(redrive.fields[1].set(r, std::string("nope"), "a").message().rfind("a.class: ", 0) == 0);
  CHECK(r == redrive.make());  // refused: nothing changed
}

}  // namespace
}  // namespace dlq::schema_test
