#include "config_import.h"

#include <cmath>
#include <string>

#include "internal/quote.h"
#include "schema.h"

namespace dlq::check {
namespace {

const Location& LineOf(const KeyLines& lines, std::string_view key, const Location& fallback) {
  for (const auto& [name, at] : lines) {
    if (name == key) return at;
  }
  return fallback;
}

// The integer a field takes from `value`: a number, a flag (0/1) or a choice's index.
Result<int64_t> FieldValue(const FieldSpec& spec, const config::ConfigValue& value) {
  switch (spec.kind) {
    case FieldKind::kInteger:
      if (value.kind != config::ConfigValue::Kind::kNumber) break;
      RETURN_IF_ERROR(spec.range->Check(value.number));
      return static_cast<int64_t>(value.number);
    case FieldKind::kBoolean:
      if (value.kind != config::ConfigValue::Kind::kFlag) break;
      return int64_t{value.flag ? 1 : 0};
    case FieldKind::kChoice: {
      if (value.kind != config::ConfigValue::Kind::kText) break;
      Result<int> index = spec.choices->Parse(value.text, spec.name);
      if (!index.ok()) return index.status();
      return int64_t{index.value()};
    }
  }
  return Status::FailedPrecondition(std::string("a config reader set ") + spec.name +
                                    " with a value of the wrong kind");
}

template <class T>
Result<bool> SetIn(std::span<const Field<T>> rows, std::string_view name, const config::ConfigValue& value, T* target) {
  for (const Field<T>& row : rows) {
    if (name != row.spec.name) continue;
    Result<int64_t> v = FieldValue(row.spec, value);
    if (!v.ok()) return v.status();
    row.set(*target, v.value());
    return true;
  }
  return false;
}

}  // namespace

Status ErrorAt(const Location& at, std::string_view message) {
  return Status::InvalidArgument(at.file + ":" + std::to_string(at.line) + ": " + std::string(message));
}

config::JsValue ToJsValue(const Node& node) {
  using config::JsValue;
  switch (node.kind) {
    case Node::Kind::kNull: return JsValue::Null();
    case Node::Kind::kBool: return JsValue::Bool(AsBool(node).value_or(false));
    case Node::Kind::kNumber: {
      std::optional<double> n = AsNumber(node);
      return n ? JsValue::Number(*n) : JsValue::String(node.scalar);
    }
    case Node::Kind::kString: return JsValue::String(node.scalar);
    case Node::Kind::kList: {
      JsValue out;
      out.kind = JsValue::Kind::kArray;
      for (const Node& item : node.items) out.items.push_back(ToJsValue(item));
      return out;
    }
    case Node::Kind::kMap: {
      JsValue out;
      out.kind = JsValue::Kind::kObject;
      for (size_t i = 0; i < node.keys.size() && i < node.items.size(); ++i)
        out.Set(node.keys[i], ToJsValue(node.items[i]));
      return out;
    }
  }
  return JsValue::Null();
}

std::string QuotedNode(const Node& node) { return config::Quoted(ToJsValue(node)); }

Status ApplyField(const config::SetField& set, Policy* policy) {
  std::string_view name = set.field;
  Result<bool> done = name.starts_with("backoff.") ? SetIn(BackoffFields(), name.substr(8), set.value, &policy->backoff)
                                                   : SetIn(PolicyFields(), name, set.value, policy);
  if (!done.ok()) return done.status();
  if (!done.value()) return Status::FailedPrecondition("a config reader set an unknown policy field " + set.field);
  return Status::Ok();
}

Status ApplyImport(const config::ImportResult& import, const KeyLines& lines, const Location& fallback,
                   QueueConfig* queue) {
  if (!import.refusals.empty()) {
    const config::ConfigRefusal& first = import.refusals.front();
    return ErrorAt(LineOf(lines, first.key, fallback), first.message);
  }
  Result<System> system = ParseSystem(import.system);
  if (!system.ok()) return Status::FailedPrecondition("a config reader named no system: " + import.system);
  queue->policy.system = system.value();
  queue->system = import.system;
  for (const config::SetField& set : import.set) {
    if (Status st = ApplyField(set, &queue->policy); !st.ok()) {
      if (st.code() == Code::kFailedPrecondition) return st;
      return ErrorAt(LineOf(lines, set.field, fallback), st.message());
    }
    queue->settings.emplace_back(set.field, LineOf(lines, set.field, fallback));
  }
  return Status::Ok();
}

std::string FileStem(std::string_view path) {
  size_t slash = path.find_last_of("/\\");
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  size_t dot = name.find('.');
  return std::string(dot == std::string_view::npos ? name : name.substr(0, dot));
}

}  // namespace dlq::check
