#include "internal/pretty_json.h"

namespace dlq::config {
namespace {

void AppendPretty(std::string& out, const JsValue& v, const std::string& indent) {
  const std::string inner = indent + "  ";
  switch (v.kind) {
    case JsValue::Kind::kArray: {
      if (v.items.empty()) {
        out += "[]";
        return;
      }
      out += "[\n";
      for (size_t i = 0; i < v.items.size(); ++i) {
        out += inner;
        AppendPretty(out, v.items[i], inner);
        out += i + 1 < v.items.size() ? ",\n" : "\n";
      }
      out += indent + "]";
      return;
    }
    case JsValue::Kind::kObject: {
      std::vector<const JsMember*> members = v.Entries();
      if (members.empty()) {
        out += "{}";
        return;
      }
      out += "{\n";
      for (size_t i = 0; i < members.size(); ++i) {
        out += inner + JsonString(members[i]->first) + ": ";
        AppendPretty(out, members[i]->second, inner);
        out += i + 1 < members.size() ? ",\n" : "\n";
      }
      out += indent + "}";
      return;
    }
    default: out += JsonText(v); return;  // a scalar prints as the compact form does
  }
}

}  // namespace

std::string PrettyJson(const JsValue& value) {
  std::string out;
  AppendPretty(out, value, "");
  return out;
}

JsValue JsObject(std::initializer_list<std::pair<std::string, JsValue>> members) {
  JsValue v;
  v.kind = JsValue::Kind::kObject;
  for (const auto& [key, value] : members) v.Set(key, value);
  return v;
}

JsValue JsArray(std::initializer_list<JsValue> items) {
  JsValue v;
  v.kind = JsValue::Kind::kArray;
  v.items.assign(items.begin(), items.end());
  return v;
}

JsValue JsStrings(const std::vector<std::string>& items) {
  JsValue v;
  v.kind = JsValue::Kind::kArray;
  for (const std::string& item : items) v.items.push_back(JsValue::String(item));
  return v;
}

}  // namespace dlq::config
