// The scripted actions' types, described once (as field.h describes options):
// one row per type of Action (scenario.h), in the variant's order, each with
// the rows of its fields. The bindings read and write action objects with these
// rows alone (wasm/schema_value.h), index.mjs checks and copies them with
// lab.schema.actions, and scripts/gen-types.mjs writes the ScenarioAction type
// of wasm/index.d.ts from them. Adding an action type: its struct and the
// variant (scenario.h), its row here, its link letter (link_v2.cpp), ApplyAction.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "scenario.h"
#include "status.h"

namespace dlq {

// How JS gives an action field, and so how both sides check it:
//   text     a string within the size limit `limit` names (lab.limits)
//   key      an ordering key: a non-empty string within keyBytes
//   outcome  an outcome's name (lab.outcomes); the core parses it
//   integer  an integer within `range`
//   boolean  true or false
//   name     a short name the core parses (a failure class, a reason)
enum class ActionFieldKind : uint8_t { kText, kKey, kOutcome, kInteger, kBoolean, kName };
const char* ActionFieldKindName(ActionFieldKind kind);

// A field's value as JS spells it: absent, a string, an integer, or a boolean.
using ActionFieldValue = std::variant<std::monostate, std::string, int64_t, bool>;

struct ActionFieldSpec {
  const char* name;  // as JS spells it: "id", "outcome", "resetAttempts"
  ActionFieldKind kind;
  bool required;                        // the object must give it
  const char* limit = nullptr;          // kText: the size limit's name in lab.limits ("idBytes")
  const IntegerField* range = nullptr;  // kInteger
  // Its value when absent (or null), as JS writes it back: "" (text), "false" or
  // "true" (boolean); nullptr: none, so an absent field stays absent.
  const char* fallback = nullptr;
  // A value written back as nothing ("true": resetAttempts true is the plain
  // replay); nullptr: written whenever present.
  const char* omitted = nullptr;
  // null reads as absent (an enqueue's key, as views report "no key").
  bool null_is_absent = false;
  const char* description = "";  // one line, for forms and types
};

// A row of an action type: the spec, and how to read and write the field on an
// Action of that type. `get` gives the value JS sees (absent when the field is
// omitted); `set` is given a value of the spec's kind and refuses what the core
// cannot parse, naming the field as `name` + "." + its name.
struct ActionField {
  ActionFieldSpec spec;
  ActionFieldValue (*get)(const Action&);
  Status (*set)(Action&, const ActionFieldValue&, const std::string& name);
};

struct ActionType {
  const char* type;         // as JS spells it: "process"
  const char* description;  // one line
  std::span<const ActionField> fields;
  Action (*make)();  // a blank action of this type
};

// Every action type, in the order of Action's alternatives (ActionTypes()[a.index()]).
std::span<const ActionType> ActionTypes();
// The row of `type`, or nullptr.
const ActionType* FindActionType(std::string_view type);
// The row of `action`'s type.
const ActionType& ActionTypeOf(const Action& action);

}  // namespace dlq
