// azurerm_servicebus_queue / azurerm_servicebus_subscription (registry.terraform.io/providers/
// hashicorp/azurerm: max_delivery_count, lock_duration, default_message_ttl,
// dead_lettering_on_message_expiration, requires_session, forward_to,
// forward_dead_lettered_messages_to). Each attribute is handed to the core's Service Bus
// reader under its ARM name; a refusal names the Terraform attribute at its line.
#include "service_bus_plan.h"

#include <array>
#include <string>
#include <utility>

#include "config_import.h"
#include "internal/translation.h"

namespace dlq::check {
namespace {

struct Attribute {
  std::string_view terraform, arm;
};
constexpr std::array<Attribute, 7> kAttributes = {
    {{"max_delivery_count", "maxDeliveryCount"},
     {"lock_duration", "lockDuration"},
     {"default_message_ttl", "defaultMessageTimeToLive"},
     {"dead_lettering_on_message_expiration", "deadLetteringOnMessageExpiration"},
     {"requires_session", "requiresSession"},
     {"forward_to", "forwardTo"},
     {"forward_dead_lettered_messages_to", "forwardDeadLetteredMessagesTo"}}};

// Where `attribute` of `r` is set: its planned value, else its expression, else the address.
Location Where(const SourceFile& file, const PlanResource& r, std::string_view attribute) {
  if (r.values != nullptr && r.values->Get(attribute) != nullptr) return {file.path, r.values->KeyLine(attribute)};
  if (r.expressions != nullptr && r.expressions->Get(attribute) != nullptr) {
    return {file.path, r.expressions->KeyLine(attribute)};
  }
  return {file.path, r.node->KeyLine("address")};
}

// The reader's message with the ARM name it starts with spelled as Terraform spells it.
std::string InTerraformNames(std::string message) {
  for (const Attribute& a : kAttributes) {
    if (message.starts_with(a.arm)) return std::string(a.terraform) + message.substr(a.arm.size());
  }
  return message;
}

}  // namespace

bool IsServiceBusResource(std::string_view type) {
  return type == "azurerm_servicebus_queue" || type == "azurerm_servicebus_subscription";
}

Status ReadServiceBusResource(const SourceFile& file, const PlanResource& r, Inventory* out) {
  QueueConfig q;
  q.id = r.address;
  q.system = SystemName(System::kServiceBus);
  q.at = {file.path, r.node->KeyLine("address")};
  q.name = TextOf(r.values != nullptr ? r.values->Get("name") : nullptr);
  if (q.name.empty()) q.name = r.address.substr(r.address.rfind('.') + 1);
  config::JsValue properties;
  properties.kind = config::JsValue::Kind::kObject;
  KeyLines lines;
  for (const Attribute& a : kAttributes) {
    const Location at = Where(file, r, a.terraform);
    lines.emplace_back(std::string(a.arm), at);
    if (PlanIndex::IsUnknown(r, a.terraform)) {
      // Optional and computed in the provider: unknown with no expression is the provider's default.
      if (PlanIndex::Expression(r, a.terraform) == nullptr) continue;
      q.unknowns.push_back({std::string(a.terraform) + " (known after apply)", at, "policy"});
      continue;
    }
    const Node* n = r.values != nullptr ? r.values->Get(a.terraform) : nullptr;
    if (n == nullptr || n->IsNull()) continue;
    properties.Set(std::string(a.arm), ToJsValue(*n));
  }
  config::ImportResult import = config::ReadServiceBusProperties(properties);
  for (config::ConfigRefusal& refusal : import.refusals) refusal.message = InTerraformNames(refusal.message);
  // The fields set name where they came from: ApplyImport looks the policy field up.
  lines.emplace_back("maxAttempts", Where(file, r, "max_delivery_count"));
  lines.emplace_back("leaseMs", Where(file, r, "lock_duration"));
  lines.emplace_back("ordering", Where(file, r, "requires_session"));
  lines.emplace_back("defaultMessageTtlMs", Where(file, r, "default_message_ttl"));
  lines.emplace_back("deadLetterOnExpiry", Where(file, r, "dead_lettering_on_message_expiration"));
  RETURN_IF_ERROR(ApplyImport(import, lines, q.at, &q));
  // Every queue and subscription has its own $DeadLetterQueue, which cannot be deleted.
  q.terminal = Terminal::kKeptHere;
  q.kept_in = q.name + "/$deadletterqueue";
  q.bounded = true;
  out->queues.push_back(std::move(q));
  return Status::Ok();
}

}  // namespace dlq::check
