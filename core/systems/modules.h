// Each system's module, one per file (system.h lists them). Internal to this
// layer: only the registry (and the systems' own test) take them by name.
#pragma once

#include "system.h"

namespace dlq {

// One system's own constants, kept beside its module (and read by its test).
// RabbitMQ 4.0's default delivery-limit (rabbitmq_quorum.cpp).
constexpr int64_t kRabbitMq4DeliveryLimit = 20;
// Service Bus's DeadLetterErrorDescription for MaxDeliveryCountExceeded (service_bus.cpp).
inline constexpr const char* kServiceBusMaxDeliveryDescription =
    "Message couldn't be consumed after maximum delivery attempts.";
// Its DeadLetterErrorDescription for TTLExpiredException (service_bus.cpp; [Z1]'s table).
inline constexpr const char* kServiceBusExpiredDescription = "The message expired and was dead lettered.";
// BullMQ's failedReason for a job failed by its stall budget (bullmq.cpp).
inline constexpr const char* kBullMqStalledError = "job stalled more than allowable limit";
// Sidekiq's default dead_timeout_in_seconds: 180 days (sidekiq.cpp).
constexpr int64_t kSidekiqDeadTimeoutMs = int64_t{180} * 86'400'000;

}  // namespace dlq

namespace dlq::systems {

const SystemRules& Lab();
const SystemRules& RabbitMqQuorum();
const SystemRules& BullMq();
const SystemRules& Sidekiq();
const SystemRules& Sqs();
const SystemRules& PubSub();
const SystemRules& ServiceBus();
const SystemRules& SpringKafka();
const SystemRules& KafkaConnect();

}  // namespace dlq::systems
