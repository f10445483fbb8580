// The broker readers' rows for the reader table (readers.cpp): one per format, each defined
// in its own file (rabbitmq_definitions.cpp, rabbitmq_topology.cpp, sidekiq.cpp, bullmq.cpp).
#pragma once

#include "readers.h"

namespace dlq::check {

extern const Reader kRabbitmqDefinitionsReader;
extern const Reader kRabbitmqTopologyReader;
extern const Reader kSidekiqYmlReader;
extern const Reader kSidekiqRubyReader;
extern const Reader kBullmqReader;

// Sidekiq's config/sidekiq.yml settings onto the job classes that leave them to the default (JoinInventory).
void JoinSidekiqSettings(Inventory* inventory);

}  // namespace dlq::check
