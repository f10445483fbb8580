#include "action_schema.h"

#include <cstdint>

#include "leases.h"
#include "text.h"

namespace dlq {
namespace {

using Value = ActionFieldValue;

const std::string& Text(const Value& v) { return std::get<std::string>(v); }

// Field specs, one line each.
constexpr ActionFieldSpec TextSpec(const char* name, const char* limit, bool required, const char* fallback,
                                   const char* description) {
  return {name, ActionFieldKind::kText, required, limit, nullptr, fallback, nullptr, false, description};
}
constexpr ActionFieldSpec IntegerSpec(const char* name, const IntegerField& range, const char* description) {
  return {name, ActionFieldKind::kInteger, true, nullptr, &range, nullptr, nullptr, false, description};
}
constexpr ActionFieldSpec OutcomeSpec(const char* description) {
  return {"outcome", ActionFieldKind::kOutcome, true, nullptr, nullptr, nullptr, nullptr, false, description};
}
constexpr ActionFieldSpec ErrorSpec() {
  return TextSpec("error", "errorTextBytes", false, "", "The error text the worker reports (default empty).");
}
constexpr ActionFieldSpec IdSpec(const char* description) {
  return TextSpec("id", "idBytes", true, nullptr, description);
}

// An outcome's name, parsed by the core: `name`.outcome must be one of ….
Status SetOutcome(Outcome* out, const Value& v, const std::string& name) {
  Result<Outcome> outcome = ParseOutcome(Text(v));
  if (!outcome.ok()) return Status::InvalidArgument(name + "." + outcome.status().message());
  *out = outcome.value();
  return Status::Ok();
}

// ---- the rows of each type ----

const ActionField kProcessFields[] = {
    {OutcomeSpec("What the attempt reports."),
     [](const Action& a) -> Value { return std::string(OutcomeName(std::get<action::Process>(a).outcome)); },
     [](Action& a, const Value& v, const std::string& n) {
       return SetOutcome(&std::get<action::Process>(a).outcome, v, n);
     }},
    {ErrorSpec(), [](const Action& a) -> Value { return std::get<action::Process>(a).error; },
     [](Action& a, const Value& v, const std::string&) {
       std::get<action::Process>(a).error = Text(v);
       return Status::Ok();
     }},
};

const ActionField kReplayFields[] = {
    {IdSpec("The quarantined job to replay."), [](const Action& a) -> Value { return std::get<action::Replay>(a).id; },
     [](Action& a, const Value& v, const std::string&) {
       std::get<action::Replay>(a).id = Text(v);
       return Status::Ok();
     }},
    {{"resetAttempts", ActionFieldKind::kBoolean, false, nullptr, nullptr, nullptr, "true", false,
      "false: bullmq only, BullMQ's job.retry() without resetAttemptsMade (attempts kept)."},
     [](const Action& a) -> Value {
       if (std::get<action::Replay>(a).keep_attempts) return false;
       return std::monostate{};  // the plain replay: true is written as nothing
     },
     [](Action& a, const Value& v, const std::string&) {
       std::get<action::Replay>(a).keep_attempts = !std::get<bool>(v);
       return Status::Ok();
     }},
};

const ActionField kEnqueueFields[] = {
    {IdSpec("The new job's id."), [](const Action& a) -> Value { return std::get<action::Enqueue>(a).id; },
     [](Action& a, const Value& v, const std::string&) {
       std::get<action::Enqueue>(a).id = Text(v);
       return Status::Ok();
     }},
    {TextSpec("payload", "payloadBytes", false, "", "Its payload (default empty)."),
     [](const Action& a) -> Value { return std::get<action::Enqueue>(a).payload; },
     [](Action& a, const Value& v, const std::string&) {
       std::get<action::Enqueue>(a).payload = Text(v);
       return Status::Ok();
     }},
    {{"key", ActionFieldKind::kKey, false, nullptr, nullptr, nullptr, nullptr, true,
      "Its ordering key; absent (or null) for none."},
     [](const Action& a) -> Value {
       const std::string& key = std::get<action::Enqueue>(a).key;
       if (key.empty()) return std::monostate{};
       return key;
     },
     [](Action& a, const Value& v, const std::string&) {
       std::get<action::Enqueue>(a).key = Text(v);
       return Status::Ok();
     }},
};

const ActionField kSettleFields[] = {
    {TextSpec("token", "idBytes", true, nullptr, "\"lease-<n>\": the n-th lease of the run."),
     [](const Action& a) -> Value { return LeaseTable::Token(std::get<action::Settle>(a).lease); },
     [](Action& a, const Value& v, const std::string& n) {
       const uint32_t lease = LeaseTable::ParseToken(Text(v));
       if (lease == 0) {
         return Status::InvalidArgument(n + ".token must be a lease token \"lease-<n>\" with n from 1 to " +
                                        std::to_string(UINT32_MAX) + ", got " + QuoteShort(Text(v)));
       }
       std::get<action::Settle>(a).lease = lease;
       return Status::Ok();
     }},
    {OutcomeSpec("What the attempt reports."),
     [](const Action& a) -> Value { return std::string(OutcomeName(std::get<action::Settle>(a).outcome)); },
     [](Action& a, const Value& v, const std::string& n) {
       return SetOutcome(&std::get<action::Settle>(a).outcome, v, n);
     }},
    {ErrorSpec(), [](const Action& a) -> Value { return std::get<action::Settle>(a).error; },
     [](Action& a, const Value& v, const std::string&) {
       std::get<action::Settle>(a).error = Text(v);
       return Status::Ok();
     }},
};

const ActionField kAdvanceFields[] = {
    {IntegerSpec("ms", kAdvanceMsField, "How far the clock moves."),
     [](const Action& a) -> Value { return std::get<action::Advance>(a).ms; },
     [](Action& a, const Value& v, const std::string&) {
       std::get<action::Advance>(a).ms = std::get<int64_t>(v);
       return Status::Ok();
     }},
};

const ActionField kReleaseKeyFields[] = {
    {{"key", ActionFieldKind::kKey, true, nullptr, nullptr, nullptr, nullptr, false, "The key to release."},
     [](const Action& a) -> Value { return std::get<action::ReleaseKey>(a).key; },
     [](Action& a, const Value& v, const std::string&) {
       std::get<action::ReleaseKey>(a).key = Text(v);
       return Status::Ok();
     }},
};

const ActionField kRedriveFields[] = {
    {IntegerSpec("max", kRedriveMaxField, "How many of the oldest entries move back to the ready tail."),
     [](const Action& a) -> Value { return std::get<action::Redrive>(a).max; },
     [](Action& a, const Value& v, const std::string&) {
       std::get<action::Redrive>(a).max = std::get<int64_t>(v);
       return Status::Ok();
     }},
    {{"class", ActionFieldKind::kName, false, nullptr, nullptr, nullptr, nullptr, false,
      "Only entries of this failure class."},
     [](const Action& a) -> Value {
       const auto& only = std::get<action::Redrive>(a).only.failure_class;
       if (!only) return std::monostate{};
       return std::string(ClassName(*only));
     },
     [](Action& a, const Value& v, const std::string& n) {
       Result<FailureClass> parsed = ParseClass(Text(v));
       if (!parsed.ok()) return Status::Error(parsed.status().code(), n + ".class: " + parsed.status().message());
       std::get<action::Redrive>(a).only.failure_class = parsed.value();
       return Status::Ok();
     }},
    {{"reason", ActionFieldKind::kName, false, nullptr, nullptr, nullptr, nullptr, false,
      "Only entries of this reason: 'permanent' or 'exhausted'."},
     [](const Action& a) -> Value {
       const Reason reason = std::get<action::Redrive>(a).only.reason;
       if (reason == Reason::kNone) return std::monostate{};
       return std::string(ReasonName(reason));
     },
     [](Action& a, const Value& v, const std::string& n) {
       Reason& reason = std::get<action::Redrive>(a).only.reason;
       if (Text(v) == ReasonName(Reason::kPermanent)) reason = Reason::kPermanent;
       else if (Text(v) == ReasonName(Reason::kExhausted)) reason = Reason::kExhausted;
       else
         return Status::InvalidArgument(n + ".reason must be \"permanent\" or \"exhausted\", got " +
                                        QuoteShort(Text(v)));
       return Status::Ok();
     }},
};

const ActionField kPatchFields[] = {
    {IdSpec("The quarantined job to fix."), [](const Action& a) -> Value { return std::get<action::Patch>(a).id; },
     [](Action& a, const Value& v, const std::string&) {
       std::get<action::Patch>(a).id = Text(v);
       return Status::Ok();
     }},
    {TextSpec("payload", "payloadBytes", true, nullptr, "Its new payload."),
     [](const Action& a) -> Value { return std::get<action::Patch>(a).payload; },
     [](Action& a, const Value& v, const std::string&) {
       std::get<action::Patch>(a).payload = Text(v);
       return Status::Ok();
     }},
};

const ActionField kCrashFields[] = {
    {IntegerSpec("after", kCrashAfterField, "The process dies after this write of the journal."),
     [](const Action& a) -> Value { return std::get<action::Crash>(a).after; },
     [](Action& a, const Value& v, const std::string&) {
       std::get<action::Crash>(a).after = std::get<int64_t>(v);
       return Status::Ok();
     }},
    {{"torn", ActionFieldKind::kBoolean, false, nullptr, nullptr, "false", nullptr, false,
      "The next write is half on disk (default false)."},
     [](const Action& a) -> Value { return std::get<action::Crash>(a).torn; },
     [](Action& a, const Value& v, const std::string&) {
       std::get<action::Crash>(a).torn = std::get<bool>(v);
       return Status::Ok();
     }},
};

template <class A>
Action Make() {
  return Action(A{});
}

// In the order a refusal lists them.
const ActionType kActionTypes[] = {
    {"process", "process(outcome, error): lease the ready head and settle it at one instant.", kProcessFields,
     &Make<action::Process>},
    {"replay", "An operator's replay(id) of a quarantined job.", kReplayFields, &Make<action::Replay>},
    {"enqueue", "A job enqueued mid-run.", kEnqueueFields, &Make<action::Enqueue>},
    {"lease", "lease(): the ready head, its attempt counted now.", {}, &Make<action::Lease>},
    {"settle", "settle(token, outcome, error) of an earlier lease.", kSettleFields, &Make<action::Settle>},
    {"advance", "advance(ms): the clock moves.", kAdvanceFields, &Make<action::Advance>},
    {"advanceToNext", "advanceToNext(): the clock moves to the next timer.", {}, &Make<action::AdvanceToNext>},
    {"releaseKey", "releaseKey(key); refused when the run would release no holder.", kReleaseKeyFields,
     &Make<action::ReleaseKey>},
    {"redrive", "redrive({ max, class, reason }); refused when the quarantine has no such entry.", kRedriveFields,
     &Make<action::Redrive>},
    {"patch", "patch(id, payload): an operator's fix of a quarantined job's payload.", kPatchFields,
     &Make<action::Patch>},
    {"crash", "The process dies after write `after` of the journal and restarts from the disk.", kCrashFields,
     &Make<action::Crash>},
};
static_assert(std::size(kActionTypes) == std::variant_size_v<Action>, "one row per action type");

}  // namespace

const char* ActionFieldKindName(ActionFieldKind kind) {
  switch (kind) {
    case ActionFieldKind::kText: return "text";
    case ActionFieldKind::kKey: return "key";
    case ActionFieldKind::kOutcome: return "outcome";
    case ActionFieldKind::kInteger: return "integer";
    case ActionFieldKind::kBoolean: return "boolean";
    case ActionFieldKind::kName: return "name";
  }
  return "?";
}

std::span<const ActionType> ActionTypes() { return kActionTypes; }

const ActionType* FindActionType(std::string_view type) {
  for (const ActionType& row : kActionTypes) {
    if (type == row.type) return &row;
  }
  return nullptr;
}

const ActionType& ActionTypeOf(const Action& action) {
  for (const ActionType& row : kActionTypes) {
    if (row.make().index() == action.index()) return row;
  }
  return kActionTypes[0];  // unreachable: every alternative has a row (static_assert above)
}

}  // namespace dlq
