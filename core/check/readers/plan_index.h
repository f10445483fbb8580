// A Terraform plan (`terraform show -json PLAN`, or a state's `terraform show -json`) as
// the plan reader walks it: every resource of planned_values (or values), root and child
// modules, with its change's after_unknown and its configuration's expressions, and the
// references of an expression resolved to the resources they name.
//
// The plan's shape (https://developer.hashicorp.com/terraform/internals/json-format):
//   planned_values.root_module.{resources[], child_modules[]}: resources[].{address, type, values}
//   resource_changes[].{address, change.{after, after_unknown}}
//   configuration.root_module.{resources[].{address, expressions}, module_calls.NAME.{expressions, module}}
// An expression is {"constant_value": V} or {"references": ["aws_sqs_queue.dlq.arn", "aws_sqs_queue.dlq"]};
// inside a module, references are the module's own ("var.dlq_arn" names its call's expression).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "document.h"

namespace dlq::check {

struct PlanResource {
  std::string address;                  // "module.billing.aws_sqs_queue.orders"
  std::string module;                   // its module instance's address ("" at the root)
  std::string type;                     // "aws_sqs_queue"
  const Node* node = nullptr;           // the planned_values resource object
  const Node* values = nullptr;         // its values (nullptr: none)
  const Node* after_unknown = nullptr;  // its change's after_unknown (nullptr: none)
  const Node* expressions = nullptr;    // its configuration's expressions (nullptr: none)
};

class PlanIndex {
 public:
  // Indexes `root` (the plan's root object); the resources keep pointers into it.
  explicit PlanIndex(const Node& root);

  const std::vector<PlanResource>& resources() const { return resources_; }
  const PlanResource* Find(std::string_view address) const;

  // True when `attribute` of `r` is known only after apply.
  static bool IsUnknown(const PlanResource& r, std::string_view attribute);
  // The configuration's expression of `attribute`, or nullptr.
  static const Node* Expression(const PlanResource& r, std::string_view attribute);
  // The resources of `type` an expression of `r` references, in the order the plan lists
  // them, following a module's `var.X` to its call's expression. `attribute` may be
  // nested: "dimensions.QueueName" (a map-valued expression's key).
  std::vector<const PlanResource*> References(const PlanResource& r, std::string_view attribute,
                                              std::string_view type) const;

 private:
  void Walk(const Node& module, const std::string& module_address);
  void IndexConfiguration(const Node& module, const std::string& prefix);
  // `budget`: the references still to be looked at (a hostile plan's var chains fan out).
  std::vector<const PlanResource*> Resolve(const Node* expression, const std::string& module, std::string_view type,
                                           int depth, int& budget) const;
  const PlanResource* Named(const std::string& module, std::string_view reference, std::string_view type) const;

  std::vector<PlanResource> resources_;
  std::map<std::string, size_t, std::less<>> by_address_;
  // "<module instance>\n<address without instance keys>" -> the resources it names (count, for_each)
  std::map<std::string, std::vector<size_t>, std::less<>> by_bare_address_;
  std::map<std::string, const Node*, std::less<>> expressions_;   // config key -> expressions
  std::map<std::string, const Node*, std::less<>> module_calls_;  // "module.a.module.b" -> the call
};

// `address` without its instance keys: module.a["x"].aws_sqs_queue.q[0] -> module.a.aws_sqs_queue.q
std::string WithoutInstanceKeys(std::string_view address);

}  // namespace dlq::check
