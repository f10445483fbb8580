#include "plan_index.h"

#include <algorithm>

namespace dlq::check {
namespace {

// Modules nest; a `var.X` chain climbs at most this many calls (a plan's modules are a tree,
// so a deeper chain is a malformed plan, refused by stopping).
constexpr int kMaxModuleDepth = 64;
// The most references one expression's resolution looks at, its module chain included: a real
// expression names a handful; past this the rest stay unresolved (an Unknown, never a guess).
constexpr int kMaxReferencesLookedAt = 4096;

// The node at a dotted path of map keys ("dimensions.QueueName"), or nullptr.
const Node* At(const Node* n, std::string_view path) {
  while (n != nullptr && !path.empty()) {
    size_t dot = path.find('.');
    n = n->Get(path.substr(0, dot));
    path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
  }
  return n;
}

// The module instance a module's call sits in: module.a["x"].module.b -> module.a["x"].
std::string ParentModule(const std::string& module) {
  size_t at = module.rfind(".module.");
  return at == std::string::npos ? "" : module.substr(0, at);
}

// The end of the first dotted segment of `s`, brackets (instance keys) included.
size_t SegmentEnd(std::string_view s) {
  bool quoted = false;
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quoted) {
      if (c == '\\') ++i;
      else if (c == '"') quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == '[') {
      ++depth;
    } else if (c == ']') {
      --depth;
    } else if (c == '.' && depth == 0) {
      return i;
    }
  }
  return s.size();
}

}  // namespace

std::string WithoutInstanceKeys(std::string_view address) {
  std::string out;
  bool quoted = false;
  int depth = 0;
  for (size_t i = 0; i < address.size(); ++i) {
    char c = address[i];
    if (depth > 0) {
      if (quoted && c == '\\') ++i;
      else if (c == '"') quoted = !quoted;
      else if (!quoted && c == ']') --depth;
      else if (!quoted && c == '[') ++depth;
    } else if (c == '[') {
      ++depth;
    } else {
      out += c;
    }
  }
  return out;
}

PlanIndex::PlanIndex(const Node& root) {
  const Node* values = root.Get("planned_values");
  if (values == nullptr) values = root.Get("values");  // a state's `terraform show -json`
  if (const Node* module = values != nullptr ? values->Get("root_module") : nullptr) Walk(*module, "");
  if (const Node* changes = root.Get("resource_changes"); changes != nullptr && changes->IsList()) {
    for (const Node& change : changes->items) {
      auto it = by_address_.find(TextOf(change.Get("address")));
      if (it == by_address_.end()) continue;
      resources_[it->second].after_unknown = At(&change, "change.after_unknown");
    }
  }
  const Node* configuration = root.Get("configuration");
  if (const Node* module = configuration != nullptr ? configuration->Get("root_module") : nullptr) {
    IndexConfiguration(*module, "");
  }
  for (PlanResource& r : resources_) {
    auto it = expressions_.find(WithoutInstanceKeys(r.address));
    if (it != expressions_.end()) r.expressions = it->second;
  }
}

void PlanIndex::Walk(const Node& module, const std::string& module_address) {
  if (const Node* list = module.Get("resources"); list != nullptr && list->IsList()) {
    for (const Node& r : list->items) {
      if (!r.IsMap() || TextOf(r.Get("mode")) == "data") continue;
      PlanResource entry{TextOf(r.Get("address")), module_address, TextOf(r.Get("type")), &r, r.Get("values")};
      if (entry.address.empty() || by_address_.count(entry.address) > 0) continue;
      by_address_.emplace(entry.address, resources_.size());
      by_bare_address_[module_address + "\n" + WithoutInstanceKeys(entry.address)].push_back(resources_.size());
      resources_.push_back(std::move(entry));
    }
  }
  if (const Node* children = module.Get("child_modules"); children != nullptr && children->IsList()) {
    for (const Node& child : children->items) {
      if (child.IsMap()) Walk(child, TextOf(child.Get("address")));
    }
  }
}

void PlanIndex::IndexConfiguration(const Node& module, const std::string& prefix) {
  if (const Node* list = module.Get("resources"); list != nullptr && list->IsList()) {
    for (const Node& r : list->items) {
      if (const Node* e = r.Get("expressions")) expressions_.emplace(prefix + TextOf(r.Get("address")), e);
    }
  }
  if (prefix.size() > 8 * kMaxModuleDepth) return;
  if (const Node* calls = module.Get("module_calls"); calls != nullptr && calls->IsMap()) {
    for (size_t i = 0; i < calls->keys.size(); ++i) {
      std::string key = prefix + "module." + calls->keys[i];
      module_calls_.emplace(key, &calls->items[i]);
      if (const Node* inner = calls->items[i].Get("module")) IndexConfiguration(*inner, key + ".");
    }
  }
}

const PlanResource* PlanIndex::Find(std::string_view address) const {
  auto it = by_address_.find(address);
  return it == by_address_.end() ? nullptr : &resources_[it->second];
}

bool PlanIndex::IsUnknown(const PlanResource& r, std::string_view attribute) {
  const Node* n = r.after_unknown;
  while (n != nullptr && !attribute.empty()) {
    if (std::optional<bool> whole = AsBool(*n); whole) return *whole;
    size_t dot = attribute.find('.');
    n = n->Get(attribute.substr(0, dot));
    attribute = dot == std::string_view::npos ? std::string_view() : attribute.substr(dot + 1);
  }
  std::optional<bool> unknown = n != nullptr ? AsBool(*n) : std::nullopt;
  return unknown.value_or(false);
}

const Node* PlanIndex::Expression(const PlanResource& r, std::string_view attribute) {
  const Node* e = At(r.expressions, attribute);
  if (e == nullptr) {  // a map-valued argument's expression is the whole map's
    size_t dot = attribute.find('.');
    if (dot != std::string_view::npos) e = At(r.expressions, attribute.substr(0, dot));
  }
  return e;
}

std::vector<const PlanResource*> PlanIndex::References(const PlanResource& r, std::string_view attribute,
                                                       std::string_view type) const {
  int budget = kMaxReferencesLookedAt;
  return Resolve(Expression(r, attribute), r.module, type, 0, budget);
}

std::vector<const PlanResource*> PlanIndex::Resolve(const Node* expression, const std::string& module,
                                                    std::string_view type, int depth, int& budget) const {
  std::vector<const PlanResource*> out;
  const Node* refs = expression != nullptr ? expression->Get("references") : nullptr;
  if (refs == nullptr || !refs->IsList() || depth > kMaxModuleDepth) return out;
  for (const Node& ref : refs->items) {
    if (--budget < 0) break;
    std::string text = TextOf(&ref);
    std::vector<const PlanResource*> found;
    if (text.starts_with("var.") && !module.empty()) {
      auto call = module_calls_.find(WithoutInstanceKeys(module));
      std::string var = text.substr(4, SegmentEnd(std::string_view(text).substr(4)));
      const Node* given = call == module_calls_.end() ? nullptr : At(call->second, "expressions");
      if (given != nullptr) found = Resolve(given->Get(var), ParentModule(module), type, depth + 1, budget);
    } else if (const PlanResource* named = Named(module, text, type)) {
      found.push_back(named);
    }
    for (const PlanResource* f : found) {
      if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
    }
  }
  return out;
}

const PlanResource* PlanIndex::Named(const std::string& module, std::string_view reference,
                                     std::string_view type) const {
  if (!reference.starts_with(type) || reference.size() <= type.size() || reference[type.size()] != '.') return nullptr;
  std::string_view rest = reference.substr(type.size() + 1);
  std::string candidate =
      (module.empty() ? "" : module + ".") + std::string(type) + "." + std::string(rest.substr(0, SegmentEnd(rest)));
  if (const PlanResource* exact = Find(candidate)) return exact;
  // "aws_sqs_queue.dlq" for a resource with count or for_each: the one instance, if one.
  auto it = by_bare_address_.find(module + "\n" + WithoutInstanceKeys(candidate));
  return it != by_bare_address_.end() && it->second.size() == 1 ? &resources_[it->second.front()] : nullptr;
}

}  // namespace dlq::check
