// Failure classes: the class table's defaults row by row, overrides, one
// attempt count per job across classes, and the context a quarantine entry keeps.
#include "rules.h"
#include "test_util.h"

using namespace dlq;
using namespace dlq::test;

namespace classes_test {

namespace {

Queue Make(const Policy& p) {
  Result<Queue> made = Queue::Create(p);
  REQUIRE(made.ok());
  return std::move(made).value();
}

Policy WithBudget(int64_t max_attempts) {
  Policy p;
  p.max_attempts = max_attempts;
  return p;
}

}  // namespace

TEST_SUITE("failure classes") {
  TEST_CASE("the class table's defaults, row by row") {
    const ClassTable table;
    CHECK(table[FailureClass::kTransient].retry);
    CHECK(table[FailureClass::kTransient].max_attempts == 0);
    CHECK_FALSE(table[FailureClass::kTransient].own_backoff);
    CHECK_FALSE(table[FailureClass::kPermanent].retry);
    CHECK_FALSE(table[FailureClass::kUndeserializable].retry);
    CHECK_FALSE(table[FailureClass::kUndeserializable].alert);
    CHECK_FALSE(table[FailureClass::kUnknownSchema].retry);
    CHECK(table[FailureClass::kUnknownSchema].alert);
    CHECK(table[FailureClass::kPrecondition].retry);
    CHECK(table[FailureClass::kPrecondition].max_attempts == 2);
    CHECK(table[FailureClass::kPrecondition].backoff == Backoff{BackoffKind::kFixed, 1000, 1000, Jitter::kNone});
    CHECK(table[FailureClass::kCrash].retry);
    CHECK(table[FailureClass::kCrash].max_attempts == 0);
    for (int i = 0; i < kFailureClassCount; ++i) {
      CHECK(ParseClass(ClassName(static_cast<FailureClass>(i))).value() == static_cast<FailureClass>(i));
    }
  }

  TEST_CASE("undeserializable and unknown-schema are quarantined at once, unknown-schema raises an alert") {
    Queue q = Make(WithBudget(5));
    REQUIRE(q.EnqueueMany({{"bad", ""}, {"v9", ""}}).ok());
    Attempt bad = MustProcess(q, "undeserializable", "not JSON");
    CHECK(bad.disposition == Disposition::kQuarantined);
    CHECK(bad.reason == Reason::kPermanent);
    Attempt v9 = MustProcess(q, "unknown-schema");
    CHECK(v9.reason == Reason::kPermanent);
    const auto entries = q.view().Quarantined();
    REQUIRE(entries.size() == 2);
    CHECK(entries[0].failure_class == FailureClass::kUndeserializable);
    CHECK_FALSE(entries[0].alert);
    CHECK(entries[1].failure_class == FailureClass::kUnknownSchema);
    CHECK(entries[1].alert);
    const Event alert = q.view().EventAt(q.view().event_count() - 1);
    CHECK(alert.kind == EventKind::kAlert);
    CHECK(RenderEvent(alert) == "#7 step 2 alert \"v9\" class unknown-schema");
    CHECK(RenderEvent(q.view().EventAt(2)) ==
          "#3 step 1 attempt \"bad\" 1/5 undeserializable error \"not JSON\" -> quarantined");
    CHECK(ExplainEvent(q.view().EventAt(2)) ==
          "attempt 1 of 5 could not read the payload (undeserializable): retrying cannot help → quarantine at once "
          "(4 attempts unused)");
  }

  TEST_CASE("precondition retries twice, after exactly 1000 ms and no jitter, whatever the policy's backoff") {
    Policy p = WithBudget(5);
    p.backoff = {BackoffKind::kExponential, 100, 5000, Jitter::kFull};
    Queue q = Make(p);
    REQUIRE(q.Enqueue("a", "").ok());
    Attempt first = MustProcess(q, "precondition");
    CHECK(first.disposition == Disposition::kDelayed);
    CHECK(first.delay_ms == 1000);
    CHECK(q.view().EventAt(1).max_attempts == 2);  // the class's budget is the one in force
    REQUIRE(q.AdvanceToNext().value() == 1000);
    Attempt second = MustProcess(q, "precondition");
    CHECK(second.disposition == Disposition::kQuarantined);
    CHECK(second.reason == Reason::kExhausted);
    CHECK(q.view().Quarantined()[0].failure_class == FailureClass::kPrecondition);
    CHECK(q.view().Quarantined()[0].attempts == 2);
  }

  TEST_CASE("a class's maxAttempts is capped by the policy's, 0 means the policy's") {
    Policy p = WithBudget(2);
    p.classes[FailureClass::kPrecondition].max_attempts = 10;
    CHECK(p.RuleFor(FailureClass::kPrecondition).max_attempts == 2);
    CHECK(p.RuleFor(FailureClass::kTransient).max_attempts == 2);
    p.classes[FailureClass::kPrecondition].max_attempts = 1;
    CHECK(p.RuleFor(FailureClass::kPrecondition).max_attempts == 1);
    Queue q = Make(p);
    REQUIRE(q.Enqueue("a", "").ok());
    CHECK(MustProcess(q, "precondition").reason == Reason::kExhausted);
  }

  TEST_CASE("attempts are one count per job, whatever the classes of its failures") {
    Queue q = Make(WithBudget(3));
    REQUIRE(q.Enqueue("a", "").ok());
    MustProcess(q, "precondition");  // 1 of 2 for precondition: retry after 1 s
    REQUIRE(q.AdvanceToNext().has_value());
    MustProcess(q, "transient");                  // 2 of 3
    Attempt third = MustProcess(q, "transient");  // 3 of 3: exhausted
    CHECK(third.attempt == 3);
    CHECK(third.reason == Reason::kExhausted);
    CHECK(q.view().Quarantined()[0].failure_class == FailureClass::kTransient);
  }

  TEST_CASE("a crash (a lease that expired) is bounded by the policy's budget and says so") {
    Policy p = WithBudget(2);
    p.lease_ms = 100;
    Queue q = Make(p);
    REQUIRE(q.Enqueue("a", "").ok());
    REQUIRE(q.Lease().ok());
    REQUIRE(q.AdvanceToNext().has_value());  // expired: crash, 1 of 2 → requeued
    REQUIRE(q.Lease().ok());
    REQUIRE(q.AdvanceToNext().has_value());  // expired again: exhausted
    const auto entries = q.view().Quarantined();
    REQUIRE(entries.size() == 1);
    CHECK(entries[0].failure_class == FailureClass::kCrash);
    CHECK(entries[0].arrived_at == 200);  // the second lease's expiresAt
    CHECK(entries[0].first_attempt_at == 0);
    CHECK(q.Process("crash").status().code() == Code::kInvalidArgument);  // not an outcome a worker reports
  }

  TEST_CASE("overrides: a class may retry where the default does not, with its own backoff, or raise an alert") {
    Policy p = WithBudget(3);
    p.classes[FailureClass::kUndeserializable] =
        ClassRule{true, 2, true, {BackoffKind::kFixed, 50, 50, Jitter::kNone}, true};
    Queue q = Make(p);
    REQUIRE(q.Enqueue("a", "").ok());
    Attempt first = MustProcess(q, "undeserializable");
    CHECK(first.disposition == Disposition::kDelayed);
    CHECK(first.delay_ms == 50);
    REQUIRE(q.AdvanceToNext().has_value());
    CHECK(MustProcess(q, "undeserializable").reason == Reason::kExhausted);
    CHECK(q.view().Quarantined()[0].alert);
    CHECK(q.view().EventAt(q.view().event_count() - 1).kind == EventKind::kAlert);
  }

  TEST_CASE("class rules are checked by name") {
    Policy p;
    p.classes[FailureClass::kPrecondition].max_attempts = -1;
    CHECK(Policy::Check(p).message() ==
          "classes.precondition.maxAttempts must be an integer from 0 to 1000000, got -1");
    p = Policy{};
    p.classes[FailureClass::kCrash].own_backoff = true;
    p.classes[FailureClass::kCrash].backoff = {BackoffKind::kFixed, 500, 100, Jitter::kNone};
    CHECK(
        Policy::Check(p).message() ==
        "classes.crash.backoff.capMs must be an integer from classes.crash.backoff.baseMs (500) to 86400000, got 100");
    CHECK(Queue::Create(p).status().code() == Code::kOutOfRange);
  }

  TEST_CASE("the quarantine entry keeps its context, firstAttemptAt and attempts restart on replay") {
    Queue q = Make(WithBudget(3));
    REQUIRE(q.Enqueue("a", "pay").ok());
    REQUIRE(q.Advance(int64_t{10}).ok());
    MustProcess(q, "transient", "db down");
    REQUIRE(q.Advance(int64_t{5}).ok());
    MustProcess(q, "permanent", "bad schema");
    QuarantineEntry e = q.view().Quarantined()[0];
    CHECK(e.first_attempt_at == 10);
    CHECK(e.arrived_at == 15);
    CHECK(e.last_error == "bad schema");
    CHECK(e.failure_class == FailureClass::kPermanent);
    REQUIRE(q.Replay("a"));
    REQUIRE(q.Advance(int64_t{100}).ok());
    MustProcess(q, "undeserializable");
    e = q.view().Quarantined()[0];
    CHECK(e.attempts == 1);
    CHECK(e.first_attempt_at == 115);
    CHECK(e.arrived_at == 115);
  }
}

}  // namespace classes_test
