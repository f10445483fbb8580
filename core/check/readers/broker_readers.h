// The broker readers (readers.h's contract), one format per file: each file's detects/read
// pair, for the reader table (readers.cpp).
#pragma once

#include <string_view>

#include "readers/readers.h"

namespace dlq::check {

// rabbitmq_definitions.cpp: a definitions.json export.
bool DetectsRabbitmqDefinitions(std::string_view path, std::string_view text, const Node* root);
Status ReadRabbitmqDefinitions(const SourceFile& file, const Document* doc, Inventory* out);
// rabbitmq_topology.cpp: the messaging-topology-operator's resources (YAML, several documents).
bool DetectsRabbitmqTopology(std::string_view path, std::string_view text, const Node* root);
Status ReadRabbitmqTopology(const SourceFile& file, const Document* doc, Inventory* out);
// sidekiq.cpp: config/sidekiq.yml, and job classes (Ruby, read as text).
bool DetectsSidekiqYml(std::string_view path, std::string_view text, const Node* root);
Status ReadSidekiqYml(const SourceFile& file, const Document* doc, Inventory* out);
bool DetectsSidekiqRuby(std::string_view path, std::string_view text, const Node* root);
Status ReadSidekiqRuby(const SourceFile& file, const Document* doc, Inventory* out);
// bullmq.cpp: BullMQ job options JSON.
bool DetectsBullmq(std::string_view path, std::string_view text, const Node* root);
Status ReadBullmq(const SourceFile& file, const Document* doc, Inventory* out);

// kafka_connect.cpp: a Kafka Connect sink connector's JSON (errors.*).
bool DetectsKafkaConnect(std::string_view path, std::string_view text, const Node* root);
Status ReadKafkaConnect(const SourceFile& file, const Document* doc, Inventory* out);

// sidekiq.cpp: config/sidekiq.yml's settings onto the job classes that leave them to the
// default (JoinInventory, readers.h).
void JoinSidekiqSettings(Inventory* inventory);

}  // namespace dlq::check
