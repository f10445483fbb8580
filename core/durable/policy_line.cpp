#include "policy_line.h"

#include <charconv>
#include <limits>

#include "crc32.h"
#include "link_text.h"
#include "schema.h"
#include "registry.h"
#include "size_limits.h"
#include "text.h"

namespace dlq::durable::text_lines {

// A teaching switch on (policy.h: side effects and anti-patterns).
bool HasTeachingSwitch(const Policy& p) {
  for (const Field<Policy>& row : PolicyFields()) {
    if (IsTeachingSwitch(row.spec) && row.get(p) != 0) return true;
  }
  return false;
}

// An optional member of the policy group, when not its default: its snapshot name
// alone (a boolean on), or with its value (an integer, a choice's name).
void PutMember(Out& o, const Field<Policy>& row, const Policy& p) {
  const int64_t v = row.get(p);
  if (v == row.get(Policy{})) return;
  o.Word(row.spec.snapshot);
  if (row.spec.kind == FieldKind::kInteger) o.I(v);
  if (row.spec.kind == FieldKind::kChoice) o.Word(row.spec.choices->Name(static_cast<int>(v)));
}

// "policy ..." and six "class ..." groups; `newline` ends each as a line.

void PutPolicy(Out& o, const Policy& p, bool newline) {
  o.Word("policy").I(p.max_attempts);
  PutBackoff(o, p.backoff);
  o.I(p.lease_ms).I(p.seed).Word(OrderingName(p.ordering)).I(p.retention_ms).I(p.alarm_depth);
  o.B(p.unsafe_quarantine_order).B(p.journal);
  // "system <name>" only when it is not the lab's, so every earlier text stays as written.
  if (p.system != Policy{}.system) o.Word("system").Word(SystemName(p.system));
  // A mode's own settings, each only when not its default (Policy::Check: only in its mode),
  // as its row's snapshot name and value, in table order (schema.cpp).
  for (const Field<Policy>& row : PolicyFields()) {
    if (IsModeSetting(row.spec)) PutMember(o, row, p);
  }
  // "switches" and the teaching switches' booleans in table order (charge, idempotency
  // key, count in body, decide before count, dead letters to the source) only when one is on, likewise.
  if (HasTeachingSwitch(p)) {
    o.Word("switches");
    for (const Field<Policy>& row : PolicyFields()) {
      if (IsTeachingSwitch(row.spec)) o.B(row.get(p) != 0);
    }
  }
  if (newline) o.Line();
  for (int i = 0; i < kFailureClassCount; ++i) {
    const ClassRule& r = p.classes.rules[i];
    o.Word("class").Word(ClassName(static_cast<FailureClass>(i))).B(r.retry).I(r.max_attempts).B(r.own_backoff);
    PutBackoff(o, r.own_backoff ? r.backoff : Backoff{});  // an unused backoff is not state
    o.B(r.alert);
    if (newline) o.Line();
  }
}

// An optional member of the policy group if its name is next (PutMember): a
// boolean's name alone is on; a value equal to the default is refused (the
// default is written as nothing).
Status GetMember(In& in, const Field<Policy>& row, Policy* p) {
  const FieldSpec& spec = row.spec;
  if (in.Peek() != spec.snapshot) return Status::Ok();
  in.Next();
  const int64_t fallback = row.get(Policy{});
  switch (spec.kind) {
    case FieldKind::kBoolean: row.set(*p, 1); return Status::Ok();
    case FieldKind::kInteger: {
      int64_t v = 0;
      RETURN_IF_ERROR(in.Int(spec.snapshot, &v));
      if (v == fallback) {
        return in.Error(std::string("a ") + spec.snapshot + " other than its default", std::to_string(fallback));
      }
      row.set(*p, v);
      return Status::Ok();
    }
    case FieldKind::kChoice: {
      std::string others;  // the names but the default's: "unset-3.x, unset-4.x or classic-queue"
      const int count = spec.choices->count - 1;
      for (int i = 0, listed = 0; i < spec.choices->count; ++i) {
        if (i == fallback) continue;
        others.append(listed == 0 ? "" : listed + 1 == count ? " or " : ", ").append(spec.choices->items[i].name);
        ++listed;
      }
      int v = 0;
      RETURN_IF_ERROR(in.Name(
          others.c_str(), spec.choices->count, [&](int i) { return spec.choices->Name(i); }, &v));
      if (v == fallback) {
        return in.Error(others + " (" + spec.choices->Name(static_cast<int>(fallback)) + " is written as nothing)",
                        spec.choices->Name(static_cast<int>(fallback)));
      }
      row.set(*p, v);
      return Status::Ok();
    }
  }
  return Status::Ok();
}

}  // namespace dlq::durable::text_lines
