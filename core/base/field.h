// A configurable field, described once: its name as JS spells it, its kind and
// range (or its choices), a label for forms and a one-line description. Every
// options object the lab takes (policy, class rule, world, storm, contention) is
// a table of these rows (core/policy/schema.h and beside each options struct);
// the bindings convert objects with them, the JS API validates and copies with
// them (lab.schema), and the Advanced set-up form is built from them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "status.h"

namespace dlq {

// An integer setting with its range: the one table both the core and the JS API
// check numbers against (the JS layer reads it; it copies no range or message).
struct IntegerField {
  const char* name;  // as JS spells it, e.g. "backoff.baseMs"
  int64_t min;
  int64_t max;
  // OK, or OutOfRange: "<name> must be an integer from <min> to <max>, got <value>".
  // The double overload serves JavaScript numbers (fractions, NaN, Infinity).
  Status Check(int64_t value) const;
  Status Check(double value) const;
  // The message for a value of the wrong type, described by the caller ("\"3\" (a string)").
  std::string Message(std::string_view given) const;
};

enum class FieldKind : uint8_t { kInteger, kBoolean, kChoice };
const char* FieldKindName(FieldKind kind);  // "integer" | "boolean" | "choice"

// One value a choice field may take: its name (as JS and snapshots spell it), a
// short label for a form, and its code in link v2 ("" or nullptr: none; the
// default value of a field written only when it differs has none).
struct Choice {
  const char* name;
  const char* label;
  const char* link = nullptr;
};

// A list of choices, in the order of the enum they name (index = enum value).
struct Choices {
  const Choice* items;
  int count;
  const char* Name(int index) const { return index >= 0 && index < count ? items[index].name : "?"; }
  // The index of `text` (exact match), or InvalidArgument
  // "<name> must be one of \"a\", \"b\", got <text quoted short>".
  Result<int> Parse(std::string_view text, std::string_view name) const;
};

// A group of rows: "outage" for "outage.startMs" and "outage.durationMs". What a
// refusal of a group that is not an object shows (an example, in JS's spelling),
// and what else the group may be. A row names its group only where a table gives
// these facts (the storm's); the other tables' groups are plain objects.
struct FieldGroup {
  const char* name;
  const char* example;         // "{ startMs: 0, durationMs: 5000 }"
  bool nullable = false;       // null: none (the options' group is left empty)
  const char* text = nullptr;  // a text the core parses in the object's place ("'grpc:10:0.1'"); nullptr: none
};

struct FieldSpec {
  const char* name;  // its path inside its object, as JS spells it: "backoff.baseMs"
  FieldKind kind;
  const IntegerField* range;  // kInteger: the range (its name is the one messages use)
  const Choices* choices;     // kChoice
  const char* label;          // a form's label
  const char* description;    // one line
  bool required = false;      // the object must give it (no default applies)
  // The one system whose setting it is ("bullmq"; nullptr: every system's): under any
  // other system it must keep its default (Policy::Check refuses it, an import resets it).
  const char* only_under = nullptr;
  // Where a scenario's formats carry it (docs/scenario-format.md): link v2's field
  // letter ('\0': no link carries it) and the code that marks it inside that field
  // ("": its place alone says which, or its choice's code does), and its name in
  // the snapshot text (nullptr: not there). link_v2.cpp and durable_text.cpp
  // read and write the optional members of a field (a mode's own settings, the
  // teaching switches) from these columns alone.
  char link_field = '\0';
  const char* link_code = "";
  const char* snapshot = nullptr;
  // Its group's facts (nullptr: none given), and the group's `kind` under which
  // alone it is read, and then required ("rate" for arrival.perSecond; nullptr:
  // under every kind). A field of another kind is ignored, whatever its value.
  const FieldGroup* group = nullptr;
  const char* only_with = nullptr;
  // A form's short hint under the field (nullptr: none; the description is the API's line).
  const char* hint = nullptr;

  // This spec with its formats' columns.
  constexpr FieldSpec Carried(char field, const char* code, const char* snapshot_name) const {
    FieldSpec out = *this;
    out.link_field = field;
    out.link_code = code;
    out.snapshot = snapshot_name;
    return out;
  }
  // This spec in `of` (with its facts), read only under its group's kind `kind` (nullptr: any).
  constexpr FieldSpec In(const FieldGroup& of, const char* kind = nullptr) const {
    FieldSpec out = *this;
    out.group = &of;
    out.only_with = kind;
    return out;
  }
  // This spec with a form's hint.
  constexpr FieldSpec Hinted(const char* text) const {
    FieldSpec out = *this;
    out.hint = text;
    return out;
  }
};

// A row of a struct's table: the spec, and how to read and write the field on a
// T as an integer (a boolean as 0/1, a choice as its index). `set` is given only
// values the spec admits.
template <class T>
struct Field {
  FieldSpec spec;
  int64_t (*get)(const T&);
  void (*set)(T&, int64_t);
};

}  // namespace dlq
