// Internal to the core (durable/ only): the policy group of the snapshot and of a create record,
// "policy ..." and six "class ..." groups (docs/snapshot-format.md).
#pragma once

#include "policy.h"
#include "registry.h"
#include "schema.h"
#include "status.h"
#include "text_lines.h"

namespace dlq::durable::text_lines {

// A teaching switch on (policy.h: side effects and anti-patterns).
bool HasTeachingSwitch(const Policy& p);

// "policy ..." and six "class ..." groups; `newline` ends each as a line.
void PutPolicy(Out& o, const Policy& p, bool newline);

// An optional member of the policy group if its name is next (PutMember): a
// boolean's name alone is on; a value equal to the default is refused (the
// default is written as nothing).
Status GetMember(In& in, const Field<Policy>& row, Policy* p);

// The policy group and six class groups; `lines` reads each from its own line.
template <typename NextIn>
Status GetPolicy(NextIn next, Policy* p) {
  In* in = next();
  RETURN_IF_ERROR(in->Word("policy"));
  RETURN_IF_ERROR(in->Int("maxAttempts", &p->max_attempts));
  RETURN_IF_ERROR(GetBackoff(*in, &p->backoff));
  RETURN_IF_ERROR(in->Int("leaseMs", &p->lease_ms));
  RETURN_IF_ERROR(in->Int("seed", &p->seed));
  RETURN_IF_ERROR(in->Name("an ordering", kOrderingCount, OrderingName, &p->ordering));
  RETURN_IF_ERROR(in->Int("retentionMs", &p->retention_ms));
  RETURN_IF_ERROR(in->Int("alarmDepth", &p->alarm_depth));
  RETURN_IF_ERROR(in->Bool("unsafeQuarantineOrder", &p->unsafe_quarantine_order));
  RETURN_IF_ERROR(in->Bool("journal", &p->journal));
  if (in->Peek() == "system") {
    in->Next();
    RETURN_IF_ERROR(in->Name("a system other than lab", kSystemCount, SystemName, &p->system));
    if (p->system == Policy{}.system) return in->Error("a system other than lab (lab is written as nothing)", "lab");
  }
  for (const Field<Policy>& row : PolicyFields()) {
    if (IsModeSetting(row.spec)) RETURN_IF_ERROR(GetMember(*in, row, p));
  }
  if (in->Peek() == "switches") {
    in->Next();
    for (const Field<Policy>& row : PolicyFields()) {
      if (!IsTeachingSwitch(row.spec)) continue;
      bool on = false;
      RETURN_IF_ERROR(in->Bool(row.spec.snapshot, &on));
      row.set(*p, on);
    }
    if (!HasTeachingSwitch(*p)) return in->Error("a switch on (none on is written as nothing)", "all off");
  }
  for (int i = 0; i < kFailureClassCount; ++i) {
    in = next();
    ClassRule& r = p->classes.rules[i];
    RETURN_IF_ERROR(in->Word("class"));
    RETURN_IF_ERROR(in->Word(ClassName(static_cast<FailureClass>(i))));
    RETURN_IF_ERROR(in->Bool("retry", &r.retry));
    RETURN_IF_ERROR(in->Int("maxAttempts", &r.max_attempts));
    RETURN_IF_ERROR(in->Bool("ownBackoff", &r.own_backoff));
    RETURN_IF_ERROR(GetBackoff(*in, &r.backoff));
    if (!r.own_backoff && !(r.backoff == Backoff{}))
      return in->Error("the default backoff (none is in use)", "another");
    RETURN_IF_ERROR(in->Bool("alert", &r.alert));
  }
  if (Status s = Policy::Check(*p); !s.ok()) {
    return Status::Error(Code::kInvalidSnapshot, "the snapshot's policy is refused: " + s.message());
  }
  return Status::Ok();
}

}  // namespace dlq::durable::text_lines
