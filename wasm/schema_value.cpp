#include "schema_value.h"

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

}  // namespace dlq_wasm
