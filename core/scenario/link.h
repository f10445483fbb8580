// The link format's versions, one reader and one writer each (docs/scenario-format.md).
// ParseScenario reads "v<n>" and hands the rest of the text to version n's reader;
// FormatScenario writes with the lowest version that can express the scenario.
// Internal to the core: callers use scenario.h.
//
// v1 (link_v1.cpp) is FROZEN: every released v1 link must keep reading to the
// same scenario and timeline (tests/fixtures/links/v1-*). A new action kind or
// policy field goes into the newest version only.
#pragma once

#include <string>

#include "link_text.h"
#include "scenario.h"
#include "status.h"

namespace dlq::link {

// True if v1 can carry `scenario`: lesson 1's policy (Policy::IsLessonOne: no
// ordering, no quarantine retention or alarm), only the kinds IsLessonOneAction
// accepts (no releaseKey, no redrive), and no ordering key on any job or enqueue.
bool FitsV1(const Scenario& scenario);

// The readers take `in` just past "v<n>" and read to the end of the text; their
// Status is ParseScenario's (scenario.h).
Result<Scenario> ReadV1(Reader& in);
Result<Scenario> ReadV2(Reader& in);

// The canonical text in that version. WriteV1's precondition: FitsV1(scenario).
std::string WriteV1(const Scenario& scenario);
std::string WriteV2(const Scenario& scenario);

// Link v2's world fields (link_v2_world.cpp): y, the world's workers, work time
// and outage, and h, the behaviours; each reader takes the field's body and
// checks the world (CheckWorld), each writer appends ";y…" / ";h…" unless plain.
Status ReadWorld(Reader& in, World* world);
void AppendWorld(std::string& out, const World& world);
Status ReadBehaviours(Reader& in, World* world);
void AppendBehaviours(std::string& out, const std::vector<JobBehaviour>& behaviours);

}  // namespace dlq::link
