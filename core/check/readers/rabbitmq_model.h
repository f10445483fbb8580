// What the two RabbitMQ formats (a definitions.json export, the messaging-topology-operator's
// Queue and Policy resources) say, before it is judged: queues with their arguments, policies,
// exchanges and bindings, each located. One resolver (rabbitmq_model.cpp) turns it into
// QueueConfigs: the policy in force per queue, the settings in force (argument over policy),
// the dead-letter exchange resolved to the queues it reaches, and the version's defaults.
#pragma once

#include <string>
#include <vector>

#include "document.h"
#include "model.h"
#include "status.h"

namespace dlq::check {

// One setting, by its policy name: a queue argument "x-dead-letter-exchange" is
// "dead-letter-exchange" here (RabbitMQ's own naming; the x- prefix is dropped).
struct RmqSetting {
  std::string key;
  const Node* value = nullptr;
  Location at;
};

struct RmqQueue {
  std::string vhost, name;
  std::string type;  // x-queue-type as written, "" when absent
  Location at;
  std::vector<RmqSetting> arguments;
};

struct RmqPolicy {
  std::string vhost, name, pattern, apply_to = "all";
  int64_t priority = 0;
  Location at, pattern_at;
  std::vector<RmqSetting> definition;
};

struct RmqExchange {
  std::string vhost, name, type;
  std::string alternate;  // its alternate-exchange argument, "" for none
  Location at;
};

struct RmqBinding {
  std::string vhost, source, destination, destination_type, routing_key;
  Location at;
};

struct RmqTopology {
  int major = 0;  // rabbit_version's major (3, 4, …); 0: not given
  int minor = 0;  // its minor (4.3: 3)
  std::string version;
  Location version_at;
  std::vector<std::pair<std::string, std::string>> default_queue_types;  // vhost -> type
  std::vector<RmqQueue> queues;
  std::vector<RmqPolicy> policies;
  std::vector<RmqExchange> exchanges;
  std::vector<RmqBinding> bindings;
  // The operator's resources name no version; nor does a queue say where its DLX lives
  // outside the file: dead-letter exchanges are only resolved when the file declares
  // exchanges or bindings (a definitions export), otherwise they are Unknowns.
  bool has_routing = true;
};

// Every queue of `topology` (streams aside: they dead-letter nothing) as QueueConfigs appended
// to `out`, ids "vhost/name" ("/orders" in the default vhost "/", "billing/invoices" elsewhere). A bad setting (a
// delivery-limit of "x", an unknown overflow, a pattern that does not compile) is an error naming the file and line.
Status ResolveRabbitQueues(const RmqTopology& topology, Inventory* out);

// The x-argument / policy keys the resolver reads; others are kept by RabbitMQ but change
// nothing the rules judge.
bool IsRabbitRetryKey(std::string_view key);

}  // namespace dlq::check
