#include "schema_value.h"

#include "text.h"

namespace dlq_wasm {

dlq::Status ValueAt(const val& in, std::string_view path, const std::string& name, std::string_view nullable,
                    val* out) {
  val at = in;
  size_t from = 0;
  std::string walked;
  for (;;) {
    const size_t dot = path.find('.', from);
    const std::string part(path.substr(from, dot == std::string_view::npos ? std::string_view::npos : dot - from));
    at = at[part];
    if (dot == std::string_view::npos) break;
    walked.append(part);
    if (at.isUndefined() || (at.isNull() && walked == nullable)) {
      *out = val::undefined();
      return dlq::Status::Ok();
    }
    if (!IsObject(at)) return NotA(name + walked, walked == nullable ? "an object or null" : "an object");
    walked.push_back('.');
    from = dot + 1;
  }
  *out = at;
  return dlq::Status::Ok();
}

val GroupAt(val& out, std::string_view path) {
  val at = out;
  size_t from = 0;
  for (;;) {
    const size_t dot = path.find('.', from);
    const std::string part(path.substr(from, dot == std::string_view::npos ? std::string_view::npos : dot - from));
    val next = at[part];
    if (next.isUndefined()) {
      next = val::object();
      at.set(part, next);
    }
    at = next;
    if (dot == std::string_view::npos) return at;
    from = dot + 1;
  }
}

val SpecValue(const dlq::FieldSpec& spec, val default_value) {
  val out = val::object();
  out.set("name", std::string(spec.name));
  out.set("kind", std::string(dlq::FieldKindName(spec.kind)));
  out.set("label", std::string(spec.label));
  out.set("description", std::string(spec.description));
  out.set("required", spec.required);
  out.set("default", default_value);
  if (spec.only_under != nullptr) out.set("onlyUnder", std::string(spec.only_under));
  if (spec.group != nullptr) {
    val group = val::object();
    group.set("name", std::string(spec.group->name));
    group.set("example", std::string(spec.group->example));
    group.set("nullable", spec.group->nullable);
    if (spec.group->text != nullptr) group.set("text", std::string(spec.group->text));
    out.set("group", group);
  }
  if (spec.only_with != nullptr) out.set("onlyWith", std::string(spec.only_with));
  if (spec.hint != nullptr) out.set("hint", std::string(spec.hint));
  if (spec.kind == dlq::FieldKind::kInteger) {
    out.set("min", static_cast<double>(spec.range->min));
    out.set("max", static_cast<double>(spec.range->max));
  }
  if (spec.kind == dlq::FieldKind::kChoice) {
    val choices = val::array();
    for (int i = 0; i < spec.choices->count; ++i) {
      val choice = val::object();
      choice.set("name", std::string(spec.choices->items[i].name));
      choice.set("label", std::string(spec.choices->items[i].label));
      choices.call<void>("push", choice);
    }
    out.set("choices", choices);
  }
  return out;
}

// ---- scripted actions (core/scenario/action_schema.h) ----

namespace {

// A field's value as JS gives it, read by the field's kind (its type checked
// before any as<T>()); an integer is checked against its range, named as the
// action's field ("scenario.actions[0].ms must be …").
dlq::Status ReadActionField(const val& v, const dlq::ActionFieldSpec& spec, const std::string& name,
                            dlq::ActionFieldValue* out) {
  const std::string at = name + "." + spec.name;
  switch (spec.kind) {
    case dlq::ActionFieldKind::kInteger: {
      double number = 0;
      if (dlq::Status s = ReadNumber(v, at, &number); !s.ok()) return s;
      if (dlq::Status s = spec.range->Check(number); !s.ok())
        return dlq::Status::Error(s.code(), name + "." + s.message());
      *out = static_cast<int64_t>(number);
      return dlq::Status::Ok();
    }
    case dlq::ActionFieldKind::kBoolean: {
      bool flag = false;
      if (dlq::Status s = ReadBoolean(v, at, &flag); !s.ok()) return s;
      *out = flag;
      return dlq::Status::Ok();
    }
    default: {
      std::string text;
      if (dlq::Status s = ReadString(v, at, &text); !s.ok()) return s;
      *out = std::move(text);
      return dlq::Status::Ok();
    }
  }
}

// The fields of `type` from `in` onto *action, in table order; an absent
// optional field (or a null one that reads as absent) keeps the action's value.
dlq::Status ReadActionFields(const val& in, const dlq::ActionType& type, const std::string& name, dlq::Action* action) {
  for (const dlq::ActionField& field : type.fields) {
    const val v = in[field.spec.name];
    if (!field.spec.required && (v.isUndefined() || (v.isNull() && field.spec.null_is_absent))) continue;
    dlq::ActionFieldValue value;
    if (dlq::Status s = ReadActionField(v, field.spec, name, &value); !s.ok()) return s;
    if (dlq::Status s = field.set(*action, value, name); !s.ok()) return s;
  }
  return dlq::Status::Ok();
}

// A field's fallback or omitted value ("", "false", "true") as JS spells it for its kind.
val SpelledValue(const dlq::ActionFieldSpec& spec, const char* text) {
  if (spec.kind == dlq::ActionFieldKind::kBoolean) return val(std::string_view(text) == "true");
  return val(std::string(text));
}

}  // namespace

dlq::Result<dlq::Action> ActionFromValue(const val& in, const std::string& name) {
  if (!IsObject(in)) return NotA(name, "an object");
  std::string type;
  if (dlq::Status s = ReadString(in["type"], name + ".type", &type); !s.ok()) return s;
  const dlq::ActionType* row = dlq::FindActionType(type);
  if (row == nullptr)
    return dlq::Status::InvalidArgument(name + ".type " + dlq::QuoteShort(type) + " is not an action type");
  dlq::Action action = row->make();
  if (dlq::Status s = ReadActionFields(in, *row, name, &action); !s.ok()) return s;
  return action;
}

val ActionValue(const dlq::Action& action) {
  const dlq::ActionType& row = dlq::ActionTypeOf(action);
  val out = val::object();
  out.set("type", std::string(row.type));
  for (const dlq::ActionField& field : row.fields) {
    const dlq::ActionFieldValue v = field.get(action);
    if (const auto* text = std::get_if<std::string>(&v)) out.set(std::string(field.spec.name), *text);
    if (const auto* number = std::get_if<int64_t>(&v))
      out.set(std::string(field.spec.name), static_cast<double>(*number));
    if (const auto* flag = std::get_if<bool>(&v)) out.set(std::string(field.spec.name), *flag);
  }
  return out;
}

// A redrive's filter is the redrive action's optional fields (class, reason), read by their rows.
dlq::Result<dlq::RedriveFilter> RedriveFilterFromValue(const val& in, const std::string& name) {
  const dlq::ActionType& redrive = *dlq::FindActionType("redrive");
  dlq::Action action = redrive.make();
  for (const dlq::ActionField& field : redrive.fields) {
    if (field.spec.required) continue;  // max is the caller's
    const val v = in[field.spec.name];
    if (v.isUndefined()) continue;
    dlq::ActionFieldValue value;
    if (dlq::Status s = ReadActionField(v, field.spec, name, &value); !s.ok()) return s;
    if (dlq::Status s = field.set(action, value, name); !s.ok()) return s;
  }
  return std::get<dlq::action::Redrive>(action).only;
}

val ActionSchemaValue() {
  val out = val::array();
  for (const dlq::ActionType& type : dlq::ActionTypes()) {
    val fields = val::array();
    for (const dlq::ActionField& field : type.fields) {
      const dlq::ActionFieldSpec& spec = field.spec;
      val f = val::object();
      f.set("name", std::string(spec.name));
      f.set("kind", std::string(dlq::ActionFieldKindName(spec.kind)));
      f.set("required", spec.required);
      f.set("description", std::string(spec.description));
      if (spec.limit != nullptr) f.set("limit", std::string(spec.limit));
      if (spec.range != nullptr) {
        f.set("min", static_cast<double>(spec.range->min));
        f.set("max", static_cast<double>(spec.range->max));
      }
      if (spec.fallback != nullptr) f.set("default", SpelledValue(spec, spec.fallback));
      if (spec.omitted != nullptr) f.set("omitted", SpelledValue(spec, spec.omitted));
      if (spec.null_is_absent) f.set("nullIsAbsent", true);
      fields.call<void>("push", f);
    }
    val t = val::object();
    t.set("type", std::string(type.type));
    t.set("description", std::string(type.description));
    t.set("fields", fields);
    out.call<void>("push", t);
  }
  return out;
}

}  // namespace dlq_wasm
