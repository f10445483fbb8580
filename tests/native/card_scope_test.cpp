// What the playground's cards count agrees with what its run counts, and a term
// shows only where it applies: the retry schedule counts leases where attempts
// hold them (schedule.h, ScheduleOptions::leases), and the bounded path counts
// only the failures a playground can meet (backoff.h, FailureScope;
// Session::FailureScopeFor).
#include "test_util.h"

namespace dlq {
namespace {

using test::ParseOrDie;
using test::SessionOrDie;

bool HasTermOf(const WorstCase& w, FailureClass c) {
  return std::any_of(w.delays.begin(), w.delays.end(), [c](const WorstDelay& d) { return d.failure_class == c; });
}

TEST_CASE("the schedule counts each lease to its expiry where attempts hold leases, as the lease level's run does") {
  // Lesson 2's lease level: 2 attempts, 1 s leases, no backoff; its run quarantines a at 2,000 ms.
  Session s =
      SessionOrDie(ParseOrDie("v2;m2;l1000;s1;ja:resize%20image%207,b:resize%20image%208;al,w1000,l,k2s,l,w1000"));
  REQUIRE(s.queue().stats().quarantined == 1);
  int64_t quarantined_at = -1;
  for (const Event& e : s.events()) {
    if (e.kind == EventKind::kQuarantined) quarantined_at = e.time;
  }
  CHECK(quarantined_at == 2000);
  // Its script leases, so the page asks for leases (view.leases); before any action it held none.
  CHECK(s.HoldsLeases());
  CHECK_FALSE(SessionOrDie(ParseOrDie("v2;m2;l1000;s1;ja:resize%20image%207")).HoldsLeases());
  CHECK(SessionOrDie(ParseOrDie("v2;m2;s1;y2.100.0.0;ja:")).HoldsLeases());  // a world's workers lease
  ScheduleOptions o;
  o.leases = s.HoldsLeases();
  Result<ScheduleTable> t = RetrySchedule(s.queue().policy(), o);
  REQUIRE_MESSAGE(t.ok(), t.status().ToString());
  CHECK(t->attempt_ms == 1000);
  CHECK(t->rows.at(1).start.median == 1000);
  CHECK(t->total.median == quarantined_at);
  // Without leases the attempt takes workMs, never past the lease: the queue expires it first.
  o.leases = false;
  o.work_ms = 5000;
  CHECK(RetrySchedule(s.queue().policy(), o)->total.median == 2000);
  o.work_ms = 100;
  CHECK(RetrySchedule(s.queue().policy(), o)->total.median == 200);
}

TEST_CASE("the bounded path counts only the failures a playground can meet") {
  // Lesson 2's first level: exponential 100 ms capped at 400 ms, 5 attempts, the default class table
  // (precondition: 2 attempts, its own fixed 1 s), and a picker with lesson 1's three outcomes.
  Session s = SessionOrDie(ParseOrDie("v2;m5;bx100.400n;s1;ja:sync%20crm%20contact%2012"));
  const Outcome lesson_one[] = {Outcome::kSuccess, Outcome::kTransient, Outcome::kPermanent};
  const WorstCase everything = WorstCasePath(s.queue().policy());
  REQUIRE(HasTermOf(everything, FailureClass::kPrecondition));  // the "Wait after attempt 1 (precondition…)"
  const WorstCase here = WorstCasePath(s.queue().policy(), s.FailureScopeFor(lesson_one, true));
  CHECK_FALSE(HasTermOf(here, FailureClass::kPrecondition));
  REQUIRE(here.delays.size() == 3);
  CHECK(here.delays[0] == WorstDelay{1, 1, 100, FailureClass::kTransient, false});
  CHECK(here.delays[1] == WorstDelay{2, 2, 200, FailureClass::kTransient, false});
  CHECK(here.delays[2] == WorstDelay{3, 4, 400, FailureClass::kTransient, false});
  CHECK(here.time_ms == 5 * 30'000 + 100 + 200 + 400 + 400);  // the total is still its terms
  // Offering the precondition outcome, or a world that produces it, brings its term back.
  const Outcome all[] = {Outcome::kSuccess, Outcome::kTransient, Outcome::kPermanent, Outcome::kPrecondition};
  CHECK(HasTermOf(WorstCasePath(s.queue().policy(), s.FailureScopeFor(all, true)), FailureClass::kPrecondition));
  Session world = SessionOrDie(ParseOrDie("v2;m5;bx100.400n;s1;ha:q2000;ja:sync%20crm%20contact%2012"));
  CHECK(HasTermOf(WorstCasePath(world.queue().policy(), world.FailureScopeFor(lesson_one, false)),
                  FailureClass::kPrecondition));
}

TEST_CASE("a crash counts only where attempts hold leases: no stall term and no crash loop without them") {
  Session s = SessionOrDie(ParseOrDie("v2;m3;s1;ja:"));
  Policy bullmq = s.queue().policy();
  bullmq.system = System::kBullMq;
  const Outcome lesson_one[] = {Outcome::kSuccess, Outcome::kTransient, Outcome::kPermanent};
  CHECK(WorstCasePath(bullmq, s.FailureScopeFor(lesson_one, true)).stalls == 1);
  CHECK(WorstCasePath(bullmq, s.FailureScopeFor(lesson_one, false)).stalls == 0);
  Policy body = s.queue().policy();
  body.count_in_body = true;
  CHECK(WorstCasePath(body, s.FailureScopeFor(lesson_one, true)).unbounded);
  CHECK_FALSE(WorstCasePath(body, s.FailureScopeFor(lesson_one, false)).unbounded);
}

}  // namespace
}  // namespace dlq
