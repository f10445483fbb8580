// Embind binding of the config readers (core/config/config.h): a pasted config in, the
// import's answer out as plain objects. Conversion only: which format, what it sets and
// every refusal's words are the core's. wasm/config.mjs is the JavaScript half.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "config.h"
#include "internal/object_text.h"
#include "values.h"

namespace dlq_wasm {
namespace {

using emscripten::val;

val FieldValue(const dlq::config::ConfigValue& v) {
  switch (v.kind) {
    case dlq::config::ConfigValue::Kind::kNumber: return val(v.number);
    case dlq::config::ConfigValue::Kind::kText: return val(v.text);
    case dlq::config::ConfigValue::Kind::kFlag: return val(v.flag);
  }
  return val::null();
}

// { ok: true, format, system, policy, set, ignored } or { ok: false, format, refusals }.
val ResultValue(const dlq::config::ImportResult& r) {
  val out = val::object();
  out.set("ok", r.ok);
  out.set("format", r.format.empty() ? val::null() : val(r.format));
  if (!r.ok) {
    val refusals = val::array();
    for (const auto& x : r.refusals) {
      val item = val::object();
      item.set("key", x.key);
      item.set("expected", x.expected);
      item.set("given", x.given);
      item.set("message", x.message);
      refusals.call<void>("push", item);
    }
    out.set("refusals", refusals);
    return out;
  }
  out.set("system", r.system);
  // The policy: each field set, "backoff.kind" as { backoff: { kind } }, the last setting winning.
  val policy = val::object();
  val set = val::array();
  for (const auto& s : r.set) {
    size_t dot = s.field.find('.');
    if (dot == std::string::npos) {
      policy.set(s.field, FieldValue(s.value));
    } else {
      std::string group = s.field.substr(0, dot);
      if (!policy.hasOwnProperty(group.c_str())) policy.set(group, val::object());
      policy[group].set(s.field.substr(dot + 1), FieldValue(s.value));
    }
    val item = val::object();
    item.set("field", s.field);
    item.set("value", FieldValue(s.value));
    item.set("from", s.from);
    set.call<void>("push", item);
  }
  out.set("policy", policy);
  out.set("set", set);
  val ignored = val::array();
  for (const auto& i : r.ignored) {
    val item = val::object();
    item.set("key", i.key);
    item.set("why", i.why);
    ignored.call<void>("push", item);
  }
  out.set("ignored", ignored);
  return out;
}

// A value read by the object-text reader, as JSON.parse would give it.
val JsValueOf(const dlq::config::JsValue& v) {
  using Kind = dlq::config::JsValue::Kind;
  switch (v.kind) {
    case Kind::kNull: return val::null();
    case Kind::kBool: return val(v.flag);
    case Kind::kNumber: return val(v.number);
    case Kind::kString: return val(v.text);
    case Kind::kArray: {
      val out = val::array();
      for (const auto& item : v.items) out.call<void>("push", JsValueOf(item));
      return out;
    }
    case Kind::kObject: {
      val out = val::object();
      for (const auto& m : v.members) out.set(m.first, JsValueOf(m.second));
      return out;
    }
  }
  return val::null();
}

// readObjectText(text, name): { ok: true, value } or { ok: false, refusal: { key, why, detail } } for
// a text json5 cannot read, { key, expected, given, why } for a duplicate key or too deep a nesting.
val ReadObjectTextValue(const std::string& text, const std::string& name) {
  dlq::config::ObjectTextRead read = dlq::config::ReadObjectText(text, name);
  val out = val::object();
  out.set("ok", read.ok);
  if (read.ok) {
    out.set("value", JsValueOf(read.value));
    return out;
  }
  val refusal = val::object();
  refusal.set("key", read.key);
  if (read.why == "is not JSON") {
    refusal.set("why", read.why);
    refusal.set("detail", read.detail);
  } else {
    refusal.set("expected", read.expected);
    refusal.set("given", read.given);
    refusal.set("why", read.why);
  }
  out.set("refusal", refusal);
  return out;
}

// importConfig(text, dlqRetention): `dlqRetention` is the value given as JSON text ("" when none).
val ImportConfigValue(const std::string& text, const std::string& dlq_retention) {
  if (dlq_retention.empty()) return ResultValue(dlq::config::ReadConfig(text, nullptr));
  dlq::config::ObjectTextRead dlq = dlq::config::ReadObjectText(dlq_retention, "dlqRetention");
  if (!dlq.ok) dlq.value = dlq::config::JsValue::Null();
  return ResultValue(dlq::config::ReadConfig(text, &dlq.value));
}

val ImportTooLong(double utf16_length) {
  return ResultValue(dlq::config::RefuseLength(static_cast<size_t>(utf16_length)));
}

// { formats: { bullmq: 'BullMQ job options', … }, maxImportChars, maxSidekiqChars }.
val ConfigFacts() {
  val formats = val::object();
  for (const char* key :
       {"bullmq", "sqs", "sidekiq", "rabbitmq", "pubsub", "servicebus", "spring-kafka", "kafka-connect"}) {
    formats.set(key, std::string(dlq::config::FormatName(key)));
  }
  val out = val::object();
  out.set("formats", formats);
  out.set("maxImportChars", static_cast<double>(dlq::config::kMaxImportChars));
  out.set("maxSidekiqChars", static_cast<double>(dlq::config::kMaxSidekiqChars));
  return out;
}

// writeSnippet(key, inForce): `key`'s snippet of the policy in force (policyInForce's object, as JSON
// text) as { language, text }; an error value for a key no writer has, or an inForce that is not JSON.
val WriteSnippetValue(const std::string& key, const std::string& in_force) {
  dlq::config::ObjectTextRead read = dlq::config::ReadObjectText(in_force, "inForce");
  if (!read.ok) {
    return ErrorValue(
        dlq::Status::InvalidArgument("writeSnippet: inForce: expected a policy in force (policyInForce's object); it " +
                                     read.why + (read.detail.empty() ? "" : ": " + read.detail)));
  }
  dlq::Result<dlq::config::Snippet> snippet = dlq::config::WriteSnippet(key, dlq::config::PolicyFactsOf(read.value));
  if (!snippet.ok()) return ErrorValue(snippet.status());
  val out = val::object();
  out.set("language", snippet.value().language);
  out.set("text", snippet.value().text);
  return out;
}

}  // namespace
}  // namespace dlq_wasm

EMSCRIPTEN_BINDINGS(dlq_config) {
  emscripten::function("importConfig", &dlq_wasm::ImportConfigValue);
  emscripten::function("importConfigTooLong", &dlq_wasm::ImportTooLong);
  emscripten::function("configFacts", &dlq_wasm::ConfigFacts);
  emscripten::function("readObjectText", &dlq_wasm::ReadObjectTextValue);
  emscripten::function("writeSnippet", &dlq_wasm::WriteSnippetValue);
}
