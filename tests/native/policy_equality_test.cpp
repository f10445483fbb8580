// Policy's operator== (policy.cpp) is written out member by member; these tests tie it to
// the field tables (schema.cpp), so a new row whose member the comparison forgets fails
// here: for every row of the policy, its backoff and each class rule, two policies that
// differ only in that field compare unequal (and a copy compares equal).
#include <string>

#include "schema.h"
#include "test_util.h"

namespace dlq::policy_equality_test {
namespace {

// Another value the row admits, different from `now`.
template <class T>
int64_t OtherValue(const Field<T>& row, int64_t now) {
  switch (row.spec.kind) {
    case FieldKind::kBoolean: return now == 0 ? 1 : 0;
    case FieldKind::kChoice: return (now + 1) % row.spec.choices->count;
    case FieldKind::kInteger: return now < row.spec.range->max ? now + 1 : now - 1;
  }
  return now;
}

TEST_CASE("Policy's operator== sees every field of the policy's table") {
  const Policy base;
  CHECK(base == Policy{});
  int rows = 0;
  for (const Field<Policy>& row : PolicyFields()) {
    Policy other = base;
    row.set(other, OtherValue(row, row.get(base)));
    REQUIRE_MESSAGE(row.get(other) != row.get(base), row.spec.name);
    CHECK_MESSAGE(!(other == base), row.spec.name);
    CHECK_MESSAGE(!(base == other), row.spec.name);
    ++rows;
  }
  CHECK(rows > 0);
}

TEST_CASE("Policy's operator== sees every field of its backoff and of each class rule") {
  const Policy base;
  for (const Field<Backoff>& row : BackoffFields()) {
    Policy other = base;
    row.set(other.backoff, OtherValue(row, row.get(base.backoff)));
    REQUIRE_MESSAGE(row.get(other.backoff) != row.get(base.backoff), row.spec.name);
    CHECK_MESSAGE(!(other == base), (std::string("backoff.") + row.spec.name));
  }
  for (int c = 0; c < kFailureClassCount; ++c) {
    const std::string cls = ClassName(static_cast<FailureClass>(c));
    for (const Field<ClassRule>& row : ClassRuleFields()) {
      Policy other = base;
      row.set(other.classes.rules[c], OtherValue(row, row.get(base.classes.rules[c])));
      if (row.get(other.classes.rules[c]) == row.get(base.classes.rules[c])) continue;  // a row with one value here
      CHECK_MESSAGE(!(other == base), ("classes." + cls + "." + row.spec.name));
    }
    // A class's own backoff (own_backoff true): each of its fields counts too.
    for (const Field<Backoff>& row : BackoffFields()) {
      Policy one = base;
      one.classes.rules[c].own_backoff = true;
      Policy other = one;
      row.set(other.classes.rules[c].backoff, OtherValue(row, row.get(one.classes.rules[c].backoff)));
      CHECK_MESSAGE(!(other == one), ("classes." + cls + ".backoff." + row.spec.name));
    }
  }
}

}  // namespace
}  // namespace dlq::policy_equality_test
