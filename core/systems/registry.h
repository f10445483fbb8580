// The list of systems: the enum's value and its module, in System's order (each
// one's name and link letter are the system choice list's, schema.h). The one place beside the system files that names
// them; everything else asks SystemOf(policy) what the system in force does.
#pragma once

#include <optional>
#include <span>

#include "policy.h"
#include "system.h"

namespace dlq {

// How many systems there are (System's values are 0 .. kSystemCount - 1).
inline constexpr int kSystemCount = 9;

// The module of `system` (every value of System has one).
const SystemRules& SystemOf(System system);
// The module of the policy's system.
inline const SystemRules& SystemOf(const Policy& policy) { return SystemOf(policy.system); }
// Every module, in System's order.
std::span<const SystemRules* const> AllSystems();
// The system whose v2 link letter is `letter`, or nullopt.
std::optional<System> SystemByLinkLetter(char letter);
// The letters with their names, for a refusal: "q rabbitmq-quorum, …, l lab" (the default last).
std::string SystemLetterList();

}  // namespace dlq
