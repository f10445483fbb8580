// The reader table (readers.h): the one list of formats. Each reader helper appends its
// row here (one line each, with its file readers/<format>.cpp); the order is the order
// DetectFormat tries them, so a more specific format comes before a more general one.
#include "readers/readers.h"

#include <initializer_list>

#include "readers/aws_readers.h"
#include "readers/broker_readers.h"

namespace dlq::check {

namespace {

constexpr std::initializer_list<Reader> kReaders = {
    {"terraform-plan", "Terraform plan JSON (terraform show -json)", Syntax::kJson, DetectsTerraformPlan,
     ReadTerraformPlan},
    {"cloudformation", "CloudFormation template (YAML or JSON)", Syntax::kJsonOrYaml, DetectsCloudFormation,
     ReadCloudFormation},
    {"rabbitmq-definitions", "RabbitMQ definitions export (definitions.json)", Syntax::kJson,
     DetectsRabbitmqDefinitions, ReadRabbitmqDefinitions},
    {"rabbitmq-topology", "RabbitMQ messaging-topology-operator Queue and Policy (YAML)", Syntax::kText,
     DetectsRabbitmqTopology, ReadRabbitmqTopology},
    {"sidekiq-yml", "Sidekiq config/sidekiq.yml", Syntax::kYaml, DetectsSidekiqYml, ReadSidekiqYml},
    {"sidekiq-ruby", "Sidekiq job classes (sidekiq_options in app/**/*.rb)", Syntax::kText, DetectsSidekiqRuby,
     ReadSidekiqRuby},
    {"kafka-connect", "Kafka Connect connector config (JSON with errors.*)", Syntax::kJson, DetectsKafkaConnect,
     ReadKafkaConnect},
    {"bullmq-options", "BullMQ job options (JSON, alone or as defaultJobOptions)", Syntax::kJson, DetectsBullmq,
     ReadBullmq},
};

}  // namespace

std::span<const Reader> Readers() { return std::span<const Reader>(kReaders.begin(), kReaders.size()); }

void JoinInventory(Inventory* inventory) { JoinSidekiqSettings(inventory); }

}  // namespace dlq::check
