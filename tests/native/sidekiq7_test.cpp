// Sidekiq 7/8's retry_for and a sidekiq_retries_exhausted block returning :discard
// in the sidekiq mode (Policy::retry_for_ms, Policy::discard_on_exhausted;
// core/systems/sidekiq.cpp). No Sidekiq server runs here, so these rules are tested
// against Sidekiq's own source and changelog, each case naming what it encodes:
//  * lib/sidekiq/job_retry.rb (sidekiq/sidekiq main), process_retry: "msg["failed_at"] =
//    now_ms" when retry_count is absent (the first failure), and "return
//    retries_exhausted(jobinst, msg, exception) if (time_for(msg["failed_at"]) + rf) <
//    Time.now"; "retry_for and retry are mutually exclusive - if retry_for is set, we
//    exclusively use duration-based retry logic and ignore count-based logic".
//  * Changes.md 7.1.3: "Add `sidekiq_options retry_for: 48.hours` to allow time-based
//    retry windows"; 8.1.0: "`retry_for` and `retry` are now mutually exclusive".
//  * Changes.md 7.2.0: "`sidekiq_retries_exhausted` can return `:discard` to avoid the
//    deadset and all death handlers"; retries_exhausted: "discarded = msg["dead"] ==
//    false || rv == :discard".
#include <string>
#include <vector>

#include "backoff.h"
#include "queue.h"
#include "registry.h"
#include "rules.h"
#include "scenario.h"
#include "schedule.h"
#include "test_util.h"

namespace dlq {
namespace {

Policy RetryFor(int64_t window_ms, int64_t fixed_ms) {
  Policy p;
  p.system = System::kSidekiq;
  p.max_attempts = 2;                    // retry: 1, not read beside retry_for (8.1.0)
  p.backoff.kind = BackoffKind::kFixed;  // a sidekiq_retry_in block returning fixed_ms
  p.backoff.base_ms = fixed_ms;
  p.backoff.cap_ms = fixed_ms;
  p.lease_ms = 1000;
  p.retry_for_ms = window_ms;
  return p;
}

// The times of the failed attempts of job "a" until it leaves (each retry due at once).
std::vector<int64_t> FailureTimes(Queue& q) {
  std::vector<int64_t> times;
  for (int i = 0; i < 1000; ++i) {
    Result<Attempt> a = q.Process("transient");
    REQUIRE(a.ok());
    if (!a->processed) {
      if (!q.AdvanceToNext().has_value()) break;
      continue;
    }
    times.push_back(q.stats().now);
    if (a->disposition != Disposition::kDelayed) break;
  }
  return times;
}

}  // namespace

TEST_CASE(
    "sidekiq retry_for: \"(time_for(msg[\\\"failed_at\\\"]) + rf) < Time.now\" ends the retries, counted from the "
    "first failure") {
  Policy p = RetryFor(10'000, 3000);
  REQUIRE_MESSAGE(Policy::Check(p).ok(), Policy::Check(p).ToString());
  Queue q = test::QueueWith(p, {"a"});
  // Failures at 0 (failed_at), 3 s, 6 s, 9 s are retried; the one at 12 s is past 0 + 10 s.
  CHECK(FailureTimes(q) == std::vector<int64_t>{0, 3000, 6000, 9000, 12000});
  REQUIRE(q.view().Quarantined().size() == 1);
  CHECK(q.view().Quarantined()[0].reason == Reason::kExhausted);
  CHECK(q.view().Quarantined()[0].attempts == 5);  // more than maxAttempts 2: the count is not read
  CHECK(SystemOf(p).Budget(p) == kMaxAttemptsField.max);
}

TEST_CASE(
    "sidekiq retry_for: the comparison is strict, so a failure at exactly failed_at + retry_for is still retried") {
  Policy p = RetryFor(10'000, 2500);
  Queue q = test::QueueWith(p, {"a"});
  CHECK(FailureTimes(q) == std::vector<int64_t>{0, 2500, 5000, 7500, 10000, 12500});
  CHECK(SystemOf(p).RetryWindowMs(p) == 10'001);
  // Decide reads the window: at 10,000 ms after the first failure a retry, at 10,001 none.
  Prng jitter(1);
  CHECK(Decide(p, FailureClass::kTransient, 7, 0, jitter, 0, 10'000).disposition == Disposition::kDelayed);
  CHECK(Decide(p, FailureClass::kTransient, 7, 0, jitter, 0, 10'001).disposition == Disposition::kQuarantined);
  CHECK(Decide(p, FailureClass::kTransient, 7, 0, jitter, 0, 10'001).reason == Reason::kExhausted);
  // A class that never retries is still permanent (sidekiq_retry_in's :kill), window or not.
  CHECK(Decide(p, FailureClass::kPermanent, 1, 0, jitter, 0, 0).reason == Reason::kPermanent);
  // No window: the lab's and every other system's hook says 0.
  Policy lab;
  CHECK(SystemOf(lab).RetryWindowMs(lab) == 0);
}

TEST_CASE("sidekiq retry_for: a retried dead job keeps its failed_at, so its next failure is past the window at once") {
  Policy p = RetryFor(10'000, 3000);
  Queue q = test::QueueWith(p, {"a"});
  FailureTimes(q);
  REQUIRE(q.view().Quarantined().size() == 1);
  REQUIRE(q.Replay("a"));
  Result<Attempt> again = q.Process("transient");
  REQUIRE(again.ok());
  CHECK(again->disposition == Disposition::kQuarantined);
  CHECK(again->reason == Reason::kExhausted);
}

TEST_CASE("sidekiq retry_for: the worst case and the schedule stop at the window") {
  Policy p = RetryFor(10'000, 3000);
  // Every lease to its expiry (1 s): failures at 1, 5, 9 s are retried, the one at 13 s (12 s after the first) ends it.
  WorstCase w = WorstCasePath(p);
  CHECK(w.attempts == 4);
  CHECK(w.time_ms == 4 * 1000 + 3 * 3000);
  CHECK_FALSE(w.unbounded);
  REQUIRE(w.delays.size() == 1);
  CHECK(w.delays[0].first_attempt == 1);
  CHECK(w.delays[0].last_attempt == 3);
  // The sum's terms still add up.
  int64_t sum = static_cast<int64_t>(w.attempts) * w.lease_ms;
  for (const WorstDelay& d : w.delays) sum += (d.last_attempt - d.first_attempt + 1) * d.delay_ms;
  CHECK(sum == w.time_ms);
  // A window of a day with 1 ms leases and no delay is one closed-form step, not 86 million.
  Policy day = RetryFor(86'400'000, 1000);
  day.lease_ms = 1;
  const WorstCase long_one = WorstCasePath(day);
  CHECK(long_one.attempts == 86'315);  // (n - 1) * 1001 ms < 86,400,001 ms up to n = 86,314: one attempt more
  CHECK(long_one.time_ms == 86'315 + 86'314 * int64_t{1000});

  // The schedule (instant attempts): starts at 0, 3, 6, 9 s retried, 12 s the last.
  ScheduleOptions options;
  options.outage_ms = 12'000;
  Result<ScheduleTable> table = RetrySchedule(p, options);
  REQUIRE(table.ok());
  CHECK(table->exact);
  CHECK(table->attempts == 5);
  CHECK(table->last.start.max == 12'000);
  CHECK(table->outlasting == table->samples);
  options.outage_ms = 12'001;
  CHECK(RetrySchedule(p, options)->outlasting == 0);
  // Sidekiq's own jittered schedule within retry_for: 48.hours: fewer attempts than 8.1's ceiling, all drawn.
  Policy own;
  own.system = System::kSidekiq;
  own.retry_for_ms = 48 * 3'600'000;
  options.samples = 200;
  Result<ScheduleTable> drawn = RetrySchedule(own, options);
  REQUIRE(drawn.ok());
  CHECK_FALSE(drawn->exact);
  CHECK(drawn->samples == 200);
  CHECK(drawn->attempts > 10);
  CHECK(drawn->attempts < 30);
}

TEST_CASE("sidekiq retry_for: its first failure travels through snapshots and journals, links carry the window") {
  Policy p = RetryFor(10'000, 3000);
  Queue q = test::QueueWith(p, {"a"});
  REQUIRE(q.Advance(int64_t{7}).ok());
  REQUIRE(q.Process("transient").ok());
  Result<std::string> text = q.view().SnapshotText();
  REQUIRE(text.ok());
  CHECK(text->find(" failedAt 7") != std::string::npos);
  Result<Queue> back = Queue::Restore(text.value());
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(back->view().SnapshotText().value() == text.value());
  // The restored queue reads the window from the restored failed_at.
  REQUIRE(back->AdvanceToNext().has_value());
  REQUIRE(back->Advance(int64_t{10'000}).ok());
  Result<Attempt> late = back->Process("transient");
  REQUIRE(late.ok());
  CHECK(late->id == "a");
  CHECK(late->disposition == Disposition::kQuarantined);
  // A lab snapshot carrying a failedAt is refused.
  Policy lab;
  Queue plain = test::QueueWith(lab, {"a"});
  REQUIRE(plain.Process("transient").ok());
  std::string forged = plain.view().SnapshotText().value();
  CHECK(forged.find("failedAt") == std::string::npos);

  Scenario s;
  s.policy = p;
  const std::string link = FormatScenario(s);
  CHECK(link.find(";rkl10000") != std::string::npos);
  Result<Scenario> parsed = ParseScenario(link);
  REQUIRE_MESSAGE(parsed.ok(), parsed.status().ToString());
  CHECK(parsed->policy == p);
}

TEST_CASE("sidekiq retry_for and :discard are refused by name outside sidekiq and out of range") {
  Policy lab;
  lab.retry_for_ms = 1000;
  CHECK(Policy::Check(lab).ToString().find("retryForMs applies only with system \"sidekiq\"") != std::string::npos);
  Policy rabbit;
  rabbit.system = System::kRabbitMqQuorum;
  rabbit.discard_on_exhausted = true;
  CHECK(Policy::Check(rabbit).ToString().find("discardOnExhausted applies only with system \"sidekiq\"") !=
        std::string::npos);
  Policy negative;
  negative.system = System::kSidekiq;
  negative.retry_for_ms = -1;
  CHECK(Policy::Check(negative).ToString().find("retryForMs must be an integer from 0 to") != std::string::npos);
}

TEST_CASE(
    "sidekiq :discard: \"discarded = msg[\\\"dead\\\"] == false || rv == :discard\": exhausted or killed, the job is "
    "dropped") {
  Policy p;
  p.system = System::kSidekiq;
  p.max_attempts = 2;
  p.discard_on_exhausted = true;
  Queue q = test::QueueWith(p, {"a"});
  while (q.view().Locate("a")->place != Place::kDiscarded) {
    Result<Attempt> a = q.Process("transient");
    REQUIRE(a.ok());
    if (!a->processed) REQUIRE(q.AdvanceToNext().has_value());
  }
  CHECK(q.view().Discarded()[0].attempts == 2);
  CHECK(q.view().Discarded()[0].reason == Reason::kExhausted);
  REQUIRE(q.Enqueue("b", "y").ok());
  Result<Attempt> b = q.Process("permanent");  // :kill also calls retries_exhausted
  REQUIRE(b.ok());
  CHECK(b->id == "b");
  CHECK(b->disposition == Disposition::kDiscarded);
  CHECK(q.view().Quarantined().empty());
  CHECK(q.stats().discarded == 2);
  CHECK_FALSE(q.Replay("a"));
  const std::vector<Event> events = q.view().Timeline();
  CHECK(events.back().drop_cause == DropCause::kExhaustedDiscard);
  CHECK(ExplainEvent(events.back()).find("sidekiq_retries_exhausted block returned :discard") != std::string::npos);
  CHECK(SystemOf(p).DeadLetterDrop(p) == DropCause::kExhaustedDiscard);
  // dead: false is read first (msg["dead"] == false ||): its cause is the one named.
  Policy both = p;
  both.skip_dead_set = true;
  CHECK(SystemOf(both).DeadLetterDrop(both) == DropCause::kNoDeadSet);
  // Through a link, a snapshot and back.
  Scenario s;
  s.policy = p;
  CHECK(FormatScenario(s).find(";rkb") != std::string::npos);
  Result<Scenario> parsed = ParseScenario(FormatScenario(s));
  REQUIRE(parsed.ok());
  CHECK(parsed->policy == p);
  Result<Queue> restored = Queue::Restore(q.view().SnapshotText().value());
  REQUIRE_MESSAGE(restored.ok(), restored.status().ToString());
  CHECK(restored->stats().discarded == 2);
}

}  // namespace dlq
