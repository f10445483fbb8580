// The one generic converter between a core options struct and the plain object
// index.mjs builds, driven by the struct's field table (core/base/field.h). A
// field's path "a.b" is in["a"]["b"]; the bindings of every options object
// (policy, backoff, class rule, world, storm) read and write their scalar
// fields here and keep only their structure (lists, maps, nullable groups).
// Scripted actions go through the same converter, by their type's rows
// (core/scenario/action_schema.h): ActionFromValue, ActionValue and
// RedriveFilterFromValue (values.h) are defined in schema_value.cpp.
#pragma once

#include <emscripten/val.h>

#include <span>
#include <string>
#include <string_view>

#include "dlq.h"
#include "values.h"

namespace dlq_wasm {

// The value at `path` of `in` ("a.b": in["a"]["b"]); undefined where a group is
// absent. A present group that is not an object is refused by its name; a group
// named in `nullable` may also be null, which reads as absent.
dlq::Status ValueAt(const val& in, std::string_view path, const std::string& name, std::string_view nullable, val* out);

// Reads one field's value `v` (undefined: keep, unless required) into *out.
// Messages name the field `owner` + its path, with `prefix` ("scenario.") in
// front of type messages, as Policy::Check and index.mjs name it.
template <class T>
dlq::Status ReadField(const val& v, const dlq::Field<T>& row, const std::string& owner, const std::string& prefix,
                      T* out) {
  const std::string name = owner + row.spec.name;
  if (v.isUndefined() && !row.spec.required) return dlq::Status::Ok();  // a required one is refused below
  switch (row.spec.kind) {
    case dlq::FieldKind::kInteger: {
      double number = 0;
      if (dlq::Status s = ReadNumber(v, prefix + name, &number); !s.ok()) return s;
      if (dlq::Status s = dlq::IntegerField{name.c_str(), row.spec.range->min, row.spec.range->max}.Check(number);
          !s.ok()) {
        return s;
      }
      row.set(*out, static_cast<int64_t>(number));
      return dlq::Status::Ok();
    }
    case dlq::FieldKind::kBoolean:
      if (!v.isTrue() && !v.isFalse()) return NotA(prefix + name, "a boolean");
      row.set(*out, v.isTrue() ? 1 : 0);
      return dlq::Status::Ok();
    case dlq::FieldKind::kChoice: {
      std::string text;
      if (dlq::Status s = ReadString(v, prefix + name, &text); !s.ok()) return s;
      dlq::Result<int> index = row.spec.choices->Parse(text, name);
      if (!index.ok()) return index.status();
      row.set(*out, index.value());
      return dlq::Status::Ok();
    }
  }
  return dlq::Status::Ok();
}

// Reads every field of `rows` from `in` over *out, in table order: absent
// fields keep *out's. `nullable` names a group that may be null (none).
template <class T>
dlq::Status ReadFields(const val& in, std::span<const dlq::Field<T>> rows, const std::string& owner,
                       const std::string& prefix, T* out, std::string_view nullable = {}) {
  for (const dlq::Field<T>& row : rows) {
    val v = val::undefined();
    if (dlq::Status s = ValueAt(in, row.spec.name, prefix + owner, nullable, &v); !s.ok()) return s;
    if (v.isUndefined() && row.spec.required) {
      // A required field inside a group is required only when the group is given.
      const std::string_view path(row.spec.name);
      const size_t dot = path.find('.');
      if (dot != std::string_view::npos) {
        val group = val::undefined();
        if (dlq::Status s = ValueAt(in, path.substr(0, dot), prefix + owner, nullable, &group); !s.ok()) return s;
        if (group.isUndefined() || group.isNull()) continue;  // null only where nullable
      }
    }
    if (dlq::Status s = ReadField(v, row, owner, prefix, out); !s.ok()) return s;
  }
  return dlq::Status::Ok();
}

// One field's value as JS spells it.
template <class T>
val FieldValue(const T& in, const dlq::Field<T>& row) {
  const int64_t v = row.get(in);
  switch (row.spec.kind) {
    case dlq::FieldKind::kInteger: return val(static_cast<double>(v));
    case dlq::FieldKind::kBoolean: return val(v != 0);
    case dlq::FieldKind::kChoice: return val(std::string(row.spec.choices->Name(static_cast<int>(v))));
  }
  return val::undefined();
}

// The object (or group) at `path` of `out`, made if absent.
val GroupAt(val& out, std::string_view path);

// Sets every field of `rows` on `out`, groups made as needed; `keep(spec)` false skips a row.
template <class T, class Keep>
void WriteFields(const T& in, std::span<const dlq::Field<T>> rows, val& out, Keep keep) {
  for (const dlq::Field<T>& row : rows) {
    if (!keep(row.spec)) continue;
    const std::string_view path(row.spec.name);
    const size_t dot = path.rfind('.');
    val owner = dot == std::string_view::npos ? out : GroupAt(out, path.substr(0, dot));
    owner.set(std::string(dot == std::string_view::npos ? path : path.substr(dot + 1)), FieldValue(in, row));
  }
}
template <class T>
void WriteFields(const T& in, std::span<const dlq::Field<T>> rows, val& out) {
  WriteFields(in, rows, out, [](const dlq::FieldSpec&) { return true; });
}

// [{ name, kind, label, description, required, default, scenario, onlyUnder?, group?: { name, example,
// nullable, text? }, onlyWith?, hint?, min?, max?, choices? }] for lab.schema: each row's spec, its
// default read off `defaults`.
val SpecValue(const dlq::FieldSpec& spec, val default_value);
// `scenario(spec)`: whether a scenario (link v2, snapshot) carries the field.
template <class T, class Carried>
val SchemaValue(std::span<const dlq::Field<T>> rows, const T& defaults, Carried scenario) {
  val out = val::array();
  for (const dlq::Field<T>& row : rows) {
    val spec = SpecValue(row.spec, FieldValue(defaults, row));
    spec.set("scenario", scenario(row.spec));
    out.call<void>("push", spec);
  }
  return out;
}
template <class T>
val SchemaValue(std::span<const dlq::Field<T>> rows, const T& defaults) {
  return SchemaValue(rows, defaults, [](const dlq::FieldSpec&) { return true; });
}

// lab.schema.actions: [{ type, description, fields: [{ name, kind, required,
// description, limit?, min?, max?, default?, omitted?, nullIsAbsent? }] }], one
// per action type in the core's order (a refusal lists them in it).
val ActionSchemaValue();

}  // namespace dlq_wasm
