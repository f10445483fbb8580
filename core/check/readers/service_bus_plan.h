// Azure Service Bus in a Terraform plan: azurerm_servicebus_queue and
// azurerm_servicebus_subscription, read by terraform_plan.cpp's walk (service_bus_plan.cpp).
#pragma once

#include <string_view>

#include "model.h"
#include "plan_index.h"
#include "readers.h"

namespace dlq::check {

// True for the resource types this reads.
bool IsServiceBusResource(std::string_view type);
// `r` as a queue of the service-bus mode: its settings go through the core's Service Bus
// config reader (core/config/service_bus_config.cpp), so a setting means what the
// playground's import says it means; its dead letters stay in its own $DeadLetterQueue.
Status ReadServiceBusResource(const SourceFile& file, const PlanResource& r, Inventory* out);

}  // namespace dlq::check
