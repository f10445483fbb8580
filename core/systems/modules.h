// Each system's module, one per file (system.h lists them). Internal to this
// layer: only the registry (and the systems' own test) take them by name.
#pragma once

#include "system.h"

namespace dlq::systems {

const SystemRules& Lab();
const SystemRules& RabbitMqQuorum();
const SystemRules& BullMq();
const SystemRules& Sidekiq();
const SystemRules& Sqs();

}  // namespace dlq::systems
