#include "registry.h"

#include <string>

#include "modules.h"

namespace dlq {
namespace {

// In System's order: the module at index i has id() == System(i) (systems_test checks).
// Built on first use, so a caller's static initialiser may ask too.
std::span<const SystemRules* const> Table() {
  static const SystemRules* const systems[kSystemCount] = {
      &systems::Lab(),    &systems::RabbitMqQuorum(), &systems::BullMq(),      &systems::Sidekiq(),     &systems::Sqs(),
      &systems::PubSub(), &systems::ServiceBus(),     &systems::SpringKafka(), &systems::KafkaConnect()};
  return systems;
}

}  // namespace

const SystemRules& SystemOf(System system) {
  const auto index = static_cast<int>(system);
  return *Table()[index >= 0 && index < kSystemCount ? index : 0];
}

std::span<const SystemRules* const> AllSystems() { return Table(); }

std::optional<System> SystemByLinkLetter(char letter) {
  for (const SystemRules* system : Table()) {
    if (letter != '\0' && system->link_letter() == letter) return system->id();
  }
  return std::nullopt;
}

std::string SystemLetterList() {
  // The other systems first and the default (index 0) last, as link v2's refusal always read.
  std::string out;
  for (int k = 1; k <= kSystemCount; ++k) {
    const SystemRules& system = *Table()[k % kSystemCount];
    if (!out.empty()) out += ", ";
    out.append(1, system.link_letter()).append(" ").append(system.name());
  }
  return out;
}

}  // namespace dlq
