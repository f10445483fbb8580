#include "world.h"

#include <algorithm>
#include <set>

#include "leases.h"
#include "link_text.h"
#include "text.h"

namespace dlq {

namespace {

const Field<World> kWorldFields[] = {
    {{"workers", FieldKind::kInteger, &kWorkersField, nullptr, "Workers", "How many attempts run at once."},
     [](const World& w) { return w.workers; },
     [](World& w, int64_t v) { w.workers = v; }},
    {{"workMs", FieldKind::kInteger, &kWorkMsField, nullptr, "Work time (ms)",
      "How long one attempt takes, from its lease to its settle."},
     [](const World& w) { return w.work_ms; },
     [](World& w, int64_t v) { w.work_ms = v; }},
    {{"outage.startMs", FieldKind::kInteger, &kOutageStartField, nullptr, "Outage from (ms)",
      "The dependency goes down at this time (with outage.endMs; null: no outage).", true},
     [](const World& w) { return w.outage_start; },
     [](World& w, int64_t v) { w.outage_start = v; }},
    {{"outage.endMs", FieldKind::kInteger, &kOutageEndField, nullptr, "Outage to (ms)",
      "The dependency is back at this time; at least outage.startMs.", true},
     [](const World& w) { return w.outage_end; },
     [](World& w, int64_t v) { w.outage_end = v; }},
};

}  // namespace

std::span<const Field<World>> WorldFields() { return kWorldFields; }

const char* BehaviourKindName(BehaviourKind kind) {
  switch (kind) {
    case BehaviourKind::kHealthy: return "healthy";
    case BehaviourKind::kPoison: return "poison";
    case BehaviourKind::kFlaky: return "flaky";
    case BehaviourKind::kPrecondition: return "precondition";
    case BehaviourKind::kCrashes: return "crashes";
    case BehaviourKind::kScript: return "script";
    case BehaviourKind::kMalformed: return "malformed";
  }
  return "?";
}

Result<BehaviourKind> ParseBehaviourKind(std::string_view text) {
  for (int k = 0; k <= static_cast<int>(kLastBehaviourKind); ++k) {
    if (text == BehaviourKindName(static_cast<BehaviourKind>(k))) return static_cast<BehaviourKind>(k);
  }
  return Status::InvalidArgument(
      "behaviour.kind must be one of \"healthy\", \"poison\", \"flaky\", \"precondition\", \"crashes\", \"script\", "
      "\"malformed\", got " +
      QuoteShort(text));
}

namespace {

// The field `field` of behaviours[i], as messages name it.
std::string Name(size_t i, const char* field) { return "world.behaviours[" + std::to_string(i) + "]." + field; }

Status Renamed(const Status& s, const std::string& name, const char* generic) {
  std::string message = s.message();
  if (message.rfind(generic, 0) == 0) message.replace(0, std::string_view(generic).size(), name);
  return Status::Error(s.code(), message);
}

}  // namespace

Status CheckWorld(const World& w) {
  RETURN_IF_ERROR(kWorkersField.Check(w.workers));
  RETURN_IF_ERROR(kWorkMsField.Check(w.work_ms));
  RETURN_IF_ERROR(kOutageStartField.Check(w.outage_start));
  RETURN_IF_ERROR(kOutageEndField.Check(w.outage_end));
  if (w.outage_end < w.outage_start) {
    return Status::OutOfRange("world.outage.endMs must be an integer from world.outage.startMs (" +
                              std::to_string(w.outage_start) + ") to " + std::to_string(kMaxTimeMs) + ", got " +
                              std::to_string(w.outage_end));
  }
  RETURN_IF_ERROR(CheckSize("world.behaviours", kMaxScenarioItems, w.behaviours.size(), "items"));
  std::set<std::string_view> ids;
  for (size_t i = 0; i < w.behaviours.size(); ++i) {
    const JobBehaviour& jb = w.behaviours[i];
    const Behaviour& b = jb.behaviour;
    if (jb.id.empty()) return Status::InvalidArgument(Name(i, "id") + " must be a non-empty string, got \"\"");
    if (jb.id.size() > kMaxIdBytes) return TooLarge(Name(i, "id"), kMaxIdBytes, jb.id.size());
    if (!ids.insert(jb.id).second) {
      return Status::AlreadyExists(Name(i, "id") + " " + QuoteShort(jb.id) + " has a behaviour already; one per job");
    }
    if (static_cast<int>(b.kind) > static_cast<int>(kLastBehaviourKind)) {
      return Status::InvalidArgument(Name(i, "kind") + " is not a behaviour");
    }
    if (Status s = kBehaviourCountField.Check(b.count); !s.ok()) return Renamed(s, Name(i, "count"), "count");
    if (Status s = kOutageEndField.Check(b.until); !s.ok()) return Renamed(s, Name(i, "until"), "world.outage.endMs");
    if (b.kind == BehaviourKind::kPoison &&
        (b.failure == Outcome::kSuccess || static_cast<int>(b.failure) >= kOutcomeCount)) {
      return Status::InvalidArgument(Name(i, "failure") +
                                     " must be a failing outcome (\"transient\", \"permanent\", "
                                     "\"undeserializable\", \"unknown-schema\", \"precondition\"), got \"" +
                                     OutcomeName(b.failure) + "\"");
    }
    RETURN_IF_ERROR(CheckSize(Name(i, "script"), kMaxScriptLetters, b.script.size()));
    for (size_t k = 0; k < b.script.size(); ++k) {
      Outcome ignored = Outcome::kSuccess;
      if (b.script[k] != 'c' && !link::ParseOutcomeLetter(b.script[k], &ignored, true)) {
        return Status::InvalidArgument(Name(i, "script") + "[" + std::to_string(k) +
                                       "] must be one of s t p u v q (an outcome) or c (the worker crashes), got " +
                                       QuoteShort(b.script.substr(k, 1)));
      }
    }
  }
  return Status::Ok();
}

World CanonicalWorld(World world) {
  if (world.outage_start == world.outage_end) world.outage_start = world.outage_end = 0;
  std::erase_if(world.behaviours, [](const JobBehaviour& jb) { return jb.behaviour == Behaviour{}; });
  return world;
}

const Behaviour& BehaviourOf(const World& world, std::string_view id) {
  static const Behaviour kHealthy;
  for (const JobBehaviour& jb : world.behaviours) {
    if (jb.id == id) return jb.behaviour;
  }
  return kHealthy;
}

Verdict Judge(const Behaviour& b, uint32_t attempt, int64_t at, const World& world, bool patched) {
  const auto fail = [](Outcome o, std::string error) { return Verdict{false, o, std::move(error)}; };
  switch (b.kind) {
    case BehaviourKind::kCrashes:
      if (attempt <= b.count) return Verdict{true, Outcome::kSuccess, ""};
      break;
    case BehaviourKind::kPoison: return fail(b.failure, std::string("poison message: ") + OutcomeName(b.failure));
    case BehaviourKind::kScript: {
      if (attempt == 0 || attempt > b.script.size()) return Verdict{};
      const char letter = b.script[attempt - 1];
      if (letter == 'c') return Verdict{true, Outcome::kSuccess, ""};
      Outcome o = Outcome::kSuccess;
      link::ParseOutcomeLetter(letter, &o, true);
      return o == Outcome::kSuccess ? Verdict{} : fail(o, std::string("scripted ") + OutcomeName(o));
    }
    case BehaviourKind::kMalformed:  // read before anything else; once fixed, a healthy job
      if (!patched) return fail(Outcome::kUndeserializable, "malformed payload: cannot be read until it is patched");
      break;
    case BehaviourKind::kHealthy:
    case BehaviourKind::kFlaky:
    case BehaviourKind::kPrecondition: break;
  }
  if (b.needs_dependency && at >= world.outage_start && at < world.outage_end) {
    return fail(Outcome::kTransient, "dependency down (outage until " + std::to_string(world.outage_end) + " ms)");
  }
  if (b.kind == BehaviourKind::kFlaky && attempt <= b.count)
    return fail(Outcome::kTransient, "flaky: failed this time");
  if (b.kind == BehaviourKind::kPrecondition && at < b.until) {
    return fail(Outcome::kPrecondition, "precondition not met until " + std::to_string(b.until) + " ms");
  }
  return Verdict{};
}

void AddWorldFailures(const World& world, FailureScope* scope) {
  if (world == World{}) return;  // no world: nothing plays by itself
  scope->Add(FailureClass::kCrash);
  if (world.outage_end > world.outage_start) scope->Add(FailureClass::kTransient);
  for (const JobBehaviour& job : world.behaviours) {
    const Behaviour& b = job.behaviour;
    switch (b.kind) {
      case BehaviourKind::kHealthy: break;
      case BehaviourKind::kPoison: scope->Add(ClassOf(b.failure)); break;
      case BehaviourKind::kFlaky: scope->Add(FailureClass::kTransient); break;
      case BehaviourKind::kPrecondition: scope->Add(FailureClass::kPrecondition); break;
      case BehaviourKind::kCrashes: scope->Add(FailureClass::kCrash); break;
      case BehaviourKind::kMalformed: scope->Add(FailureClass::kUndeserializable); break;
      case BehaviourKind::kScript:
        for (char letter : b.script) {
          Outcome o = Outcome::kSuccess;
          if (letter == 'c') scope->Add(FailureClass::kCrash);
          else if (link::ParseOutcomeLetter(letter, &o, true) && o != Outcome::kSuccess) scope->Add(ClassOf(o));
        }
        break;
    }
  }
}

}  // namespace dlq
