// The lesson's contract, one named test per rule.
#include "test_util.h"
#include "queue_cost.h"  // white-box: the heap-budget cost table (internal)

using namespace dlq;
using namespace dlq::test;

TEST_SUITE("policy") {
  TEST_CASE("maxAttempts outside 1..1000000 is refused with a message naming it") {
    for (const int64_t bad : {int64_t{0}, int64_t{-1}, int64_t{1'000'001}, INT64_MIN, INT64_MAX}) {
      Result<Queue> made = Queue::Create(Policy{bad});
      REQUIRE_FALSE(made.ok());
      CHECK(made.status().code() == Code::kOutOfRange);
      CHECK(made.status().message() == "maxAttempts must be an integer from 1 to 1000000, got " + std::to_string(bad));
    }
    CHECK(Queue::Create(Policy{1}).ok());
    CHECK(Queue::Create(Policy{1'000'000}).ok());
  }

  TEST_CASE("the double overload refuses fractions, NaN and infinities") {
    CHECK(Policy::CheckMaxAttempts(3.0).ok());
    CHECK(Policy::CheckMaxAttempts(2.5).message() == "maxAttempts must be an integer from 1 to 1000000, got 2.5");
    CHECK(Policy::CheckMaxAttempts(std::nan("")).message() ==
          "maxAttempts must be an integer from 1 to 1000000, got NaN");
    CHECK(Policy::CheckMaxAttempts(HUGE_VAL).message() ==
          "maxAttempts must be an integer from 1 to 1000000, got Infinity");
    CHECK(Policy::CheckMaxAttempts(-0.0).message() == "maxAttempts must be an integer from 1 to 1000000, got 0");
  }
}

TEST_SUITE("lesson") {
  TEST_CASE("a/b example: a's transient failure lets b run next") {
    Queue q = MakeQueue(3);
    REQUIRE(q.Enqueue("a", "A").ok());
    REQUIRE(q.Enqueue("b", "B").ok());
    Attempt first = MustProcess(q, "transient", "db timeout");
    CHECK(first.processed);
    CHECK(first.id == "a");
    CHECK(first.attempt == 1);
    CHECK(first.disposition == Disposition::kRequeued);
    CHECK(Ids(q.view().Ready()) == Strings{"b", "a"});
    Attempt second = MustProcess(q, "success");
    CHECK(second.id == "b");
    CHECK(second.disposition == Disposition::kCompleted);
    CHECK(Ids(q.view().Completed()) == Strings{"b"});
    CHECK(Ids(q.view().Ready()) == Strings{"a"});
    CHECK(q.view().Ready()[0].attempts == 1);
  }

  TEST_CASE("exact budgets: transient on attempt == maxAttempts quarantines as exhausted") {
    for (const int64_t budget : {1, 2, 3}) {
      CAPTURE(budget);
      Queue q = MakeQueue(budget);
      REQUIRE(q.Enqueue("j", "payload").ok());
      for (int64_t n = 1; n < budget; ++n) {
        Attempt a = MustProcess(q, "transient");
        CHECK(a.attempt == n);
        CHECK(a.disposition == Disposition::kRequeued);
        CHECK(q.stats().quarantined == 0);
      }
      Attempt last = MustProcess(q, "transient", "still down");
      CHECK(last.attempt == budget);
      CHECK(last.disposition == Disposition::kQuarantined);
      CHECK(last.reason == Reason::kExhausted);
      CHECK(q.stats().ready == 0);
      auto entries = q.view().Quarantined();
      REQUIRE(entries.size() == 1);
      CHECK(entries[0].attempts == budget);
      CHECK(entries[0].reason == Reason::kExhausted);
      CHECK(entries[0].last_error == "still down");
      CHECK(entries[0].payload == "payload");
      CHECK(entries[0].step == static_cast<uint64_t>(budget));
    }
  }

  TEST_CASE("success on the last allowed attempt completes") {
    Queue q = MakeQueue(2);
    REQUIRE(q.Enqueue("j", "").ok());
    MustProcess(q, "transient");
    Attempt a = MustProcess(q, "success");
    CHECK(a.attempt == 2);
    CHECK(a.disposition == Disposition::kCompleted);
    CHECK(q.view().Completed()[0].attempts == 2);
  }

  TEST_CASE("permanent failure quarantines at once with budget left") {
    Queue q = MakeQueue(5);
    REQUIRE(q.Enqueue("poison", "{not json").ok());
    REQUIRE(q.Enqueue("good", "{}").ok());
    Attempt a = MustProcess(q, "permanent", "parse error at byte 1");
    CHECK(a.attempt == 1);
    CHECK(a.disposition == Disposition::kQuarantined);
    CHECK(a.reason == Reason::kPermanent);
    auto entries = q.view().Quarantined();
    REQUIRE(entries.size() == 1);
    CHECK(entries[0].id == "poison");
    CHECK(entries[0].payload == "{not json");
    CHECK(entries[0].attempts == 1);
    CHECK(entries[0].reason == Reason::kPermanent);
    CHECK(entries[0].last_error == "parse error at byte 1");
    CHECK(Ids(q.view().Ready()) == Strings{"good"});
  }

  TEST_CASE("invalid outcome is refused first, on an empty queue too, and nothing moves") {
    Queue empty = MakeQueue(3);
    Result<Attempt> r = empty.Process("retry");
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == Code::kInvalidArgument);
    CHECK(r.status().message() ==
          "outcome must be one of \"success\", \"transient\", \"permanent\", \"undeserializable\", \"unknown-schema\", "
          "\"precondition\", got \"retry\"");
    CHECK(empty.view().event_count() == 0);

    Queue q = MakeQueue(3);
    REQUIRE(q.Enqueue("a", "A").ok());
    const size_t events = q.view().event_count();
    for (const char* bad : {"", "Success", "TRANSIENT", "permanent ", "ok"}) {
      CAPTURE(bad);
      CHECK_FALSE(q.Process(bad).ok());
    }
    CHECK(q.view().event_count() == events);
    CHECK(q.stats().step == 0);
    REQUIRE(q.view().Ready().size() == 1);
    CHECK(q.view().Ready()[0].attempts == 0);
  }

  TEST_CASE("nothing ready is an answer, not an error") {
    Queue q = MakeQueue(3);
    Result<Attempt> r = q.Process("success");
    REQUIRE(r.ok());
    CHECK_FALSE(r.value().processed);
    CHECK(q.view().event_count() == 0);
    CHECK(q.stats().step == 0);
  }

  TEST_CASE("duplicate ids are refused whether ready, completed or quarantined") {
    Queue q = MakeQueue(1);
    REQUIRE(q.Enqueue("done", "1").ok());
    REQUIRE(q.Enqueue("dead", "2").ok());
    REQUIRE(q.Enqueue("waiting", "3").ok());
    MustProcess(q, "success");
    MustProcess(q, "transient");
    REQUIRE(q.stats().completed == 1);
    REQUIRE(q.stats().quarantined == 1);
    const size_t events = q.view().event_count();
    for (const char* id : {"done", "dead", "waiting"}) {
      CAPTURE(id);
      Status s = q.Enqueue(id, "other");
      CHECK(s.code() == Code::kAlreadyExists);
      CHECK(s.message() == std::string("id \"") + id + "\" was already given to this queue; ids must be unique");
    }
    CHECK(q.view().event_count() == events);
    CHECK(Ids(q.view().Ready()) == Strings{"waiting"});
    CHECK(q.view().Ready()[0].payload == "3");
  }

  TEST_CASE("empty id is refused") {
    Queue q = MakeQueue(3);
    Status s = q.Enqueue("", "x");
    CHECK(s.code() == Code::kInvalidArgument);
    CHECK(s.message() == "id must be a non-empty string, got \"\"");
    CHECK(q.view().event_count() == 0);
  }

  TEST_CASE("replay resets attempts, appends at the tail, and a second replay answers false") {
    Queue q = MakeQueue(2);
    REQUIRE(q.Enqueue("x", "X").ok());
    REQUIRE(q.Enqueue("y", "Y").ok());
    MustProcess(q, "transient");  // x -> tail
    MustProcess(q, "transient");  // y -> tail
    MustProcess(q, "transient");  // x exhausted
    REQUIRE(Ids(q.view().Quarantined()) == Strings{"x"});
    CHECK(q.Replay("x"));
    CHECK(Ids(q.view().Ready()) == Strings{"y", "x"});
    CHECK(q.view().Ready()[1].attempts == 0);
    CHECK(q.stats().quarantined == 0);
    const size_t events = q.view().event_count();
    CHECK_FALSE(q.Replay("x"));
    CHECK_FALSE(q.Replay("y"));        // ready, not quarantined
    CHECK_FALSE(q.Replay("missing"));  // never given
    CHECK(q.view().event_count() == events);
    // A replayed job gets its whole budget back.
    MustProcess(q, "success");  // y
    Attempt again = MustProcess(q, "transient");
    CHECK(again.id == "x");
    CHECK(again.attempt == 1);
    CHECK(again.disposition == Disposition::kRequeued);
  }

  TEST_CASE("normal processing never moves a quarantined job back") {
    Queue q = MakeQueue(1);
    REQUIRE(q.Enqueue("p", "").ok());
    MustProcess(q, "permanent");
    for (int i = 0; i < 5; ++i) CHECK_FALSE(MustProcess(q, "success").processed);
    CHECK(q.stats().quarantined == 1);
    CHECK(q.stats().completed == 0);
  }

  TEST_CASE("views are copies") {
    Queue q = MakeQueue(1);
    REQUIRE(q.Enqueue("a", "A").ok());
    REQUIRE(q.Enqueue("b", "B").ok());
    REQUIRE(q.Enqueue("c", "C").ok());
    MustProcess(q, "permanent", "bad");
    MustProcess(q, "success");
    auto ready = q.view().Ready();
    auto completed = q.view().Completed();
    auto quarantined = q.view().Quarantined();
    ready[0].id = "changed";
    ready[0].attempts = 99;
    completed[0].payload = "changed";
    quarantined[0].reason = Reason::kExhausted;
    quarantined[0].last_error = "changed";
    quarantined.clear();
    CHECK(q.view().Ready()[0].id == "c");
    CHECK(q.view().Ready()[0].attempts == 0);
    CHECK(q.view().Completed()[0].payload == "B");
    REQUIRE(q.view().Quarantined().size() == 1);
    CHECK(q.view().Quarantined()[0].reason == Reason::kPermanent);
    CHECK(q.view().Quarantined()[0].last_error == "bad");
  }

  TEST_CASE("payloads are kept byte for byte: emoji, NUL, invalid UTF-8, 1 MB") {
    Queue q = MakeQueue(1);
    const std::string emoji = "order 🧾 for Zoë — ✓";
    const std::string with_nul("a\0b\0", 4);
    const std::string invalid = "\xff\xfe\xc3";
    std::string big(1 << 20, '\0');
    for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>((i * 131) & 0xFF);
    REQUIRE(q.Enqueue("emoji", emoji).ok());
    REQUIRE(q.Enqueue("nul", with_nul).ok());
    REQUIRE(q.Enqueue("invalid", invalid).ok());
    REQUIRE(q.Enqueue("big", big).ok());
    auto ready = q.view().Ready();
    CHECK(ready[0].payload == emoji);
    CHECK(ready[1].payload == with_nul);
    CHECK(ready[1].payload.size() == 4);
    CHECK(ready[2].payload == invalid);
    CHECK(ready[3].payload == big);
    MustProcess(q, "success");
    MustProcess(q, "permanent");
    MustProcess(q, "transient");
    MustProcess(q, "permanent");
    CHECK(q.view().Completed()[0].payload == emoji);
    CHECK(q.view().Quarantined()[0].payload == with_nul);
    CHECK(q.view().Quarantined()[1].payload == invalid);
    CHECK(q.view().Quarantined()[2].payload == big);
  }

  TEST_CASE("ids with emoji, NUL and quotes are ids like any other") {
    Queue q = MakeQueue(3);
    const std::string nul_id("x\0y", 3);
    REQUIRE(q.Enqueue("🧾", "").ok());
    REQUIRE(q.Enqueue(nul_id, "").ok());
    REQUIRE(q.Enqueue("x", "").ok());  // a prefix of nul_id, still distinct
    CHECK(q.Enqueue(nul_id, "").code() == Code::kAlreadyExists);
    CHECK(Ids(q.view().Ready()) == Strings{"🧾", nul_id, "x"});
  }
}

TEST_SUITE("batches") {
  TEST_CASE("EnqueueMany is all or nothing") {
    Queue q = MakeQueue(3);
    REQUIRE(q.Enqueue("a", "").ok());
    Status dup_in_queue = q.EnqueueMany({{"b", ""}, {"a", ""}});
    CHECK(dup_in_queue.code() == Code::kAlreadyExists);
    CHECK(dup_in_queue.message() == "jobs[1].id \"a\" was already given to this queue; ids must be unique");
    Status dup_in_batch = q.EnqueueMany({{"b", ""}, {"c", ""}, {"b", ""}});
    CHECK(dup_in_batch.message() == "jobs[2].id \"b\" appears twice in this batch; ids must be unique");
    Status empty = q.EnqueueMany({{"b", ""}, {"", ""}});
    CHECK(empty.message() == "jobs[1].id must be a non-empty string, got \"\"");
    CHECK(Ids(q.view().Ready()) == Strings{"a"});
    CHECK(q.view().event_count() == 1);
    REQUIRE(q.EnqueueMany({{"b", "B"}, {"c", "C"}}).ok());
    CHECK(Ids(q.view().Ready()) == Strings{"a", "b", "c"});
  }

  TEST_CASE("ProcessMany validates every letter before anything moves, stops when nothing is ready") {
    Queue q = MakeQueue(2);
    REQUIRE(q.EnqueueMany({{"a", ""}, {"b", ""}}).ok());
    Result<uint64_t> bad = q.ProcessMany("tsx");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.status().message() == "outcomes[2] must be 's' (success), 't' (transient) or 'p' (permanent), got \"x\"");
    CHECK(q.stats().step == 0);
    // A bad letter is shown whole and named by its JavaScript (UTF-16) index.
    CHECK(q.ProcessMany("t\xC3\xA9").status().message() ==
          "outcomes[1] must be 's' (success), 't' (transient) or 'p' (permanent), got \"\xC3\xA9\"");
    CHECK(q.ProcessMany("\xF0\x9F\x98\x80x").status().message() ==
          "outcomes[0] must be 's' (success), 't' (transient) or 'p' (permanent), got \"\xF0\x9F\x98\x80\"");
    CHECK(q.ProcessMany("s\xFF").status().message() ==
          "outcomes[1] must be 's' (success), 't' (transient) or 'p' (permanent), got \"\\xFF\"");
    CHECK(q.view().event_count() == 2);
    Result<uint64_t> made = q.ProcessMany("tstsssss");
    REQUIRE(made.ok());
    CHECK(made.value() == 3);  // a:t b:s a:t (2 of 2: exhausted), then nothing is ready
    CHECK(Ids(q.view().Completed()) == Strings{"b"});
    CHECK(Ids(q.view().Quarantined()) == Strings{"a"});
  }
}

TEST_SUITE("timeline") {
  TEST_CASE("every change appends events with dense sequence numbers, refusals append nothing") {
    Queue q = MakeQueue(2);
    REQUIRE(q.Enqueue("a", "xyz").ok());
    CHECK_FALSE(q.Enqueue("a", "").ok());
    CHECK_FALSE(q.Process("nope").ok());
    MustProcess(q, "transient", "timeout");
    MustProcess(q, "transient", "timeout");
    CHECK(q.Replay("a"));
    CHECK_FALSE(q.Replay("a"));
    MustProcess(q, "success");
    auto events = q.view().Timeline();
    REQUIRE(events.size() == 8);
    for (size_t i = 0; i < events.size(); ++i) CHECK(events[i].seq == i + 1);
    CHECK(events[0].kind == EventKind::kEnqueued);
    CHECK(events[0].step == 0);
    CHECK(events[0].payload_bytes == 3);
    CHECK(events[1].kind == EventKind::kAttempt);
    CHECK(events[1].outcome == Outcome::kTransient);
    CHECK(events[1].error == "timeout");
    CHECK(events[2].kind == EventKind::kRequeued);
    CHECK(events[4].kind == EventKind::kQuarantined);
    CHECK(events[4].reason == Reason::kExhausted);
    CHECK(events[5].kind == EventKind::kReplayed);
    CHECK(events[5].attempts == 2);
    CHECK(events[5].step == 3);
    CHECK(events[7].kind == EventKind::kCompleted);
    CHECK(events[7].attempts == 1);
    // Incremental reads return the same events.
    auto tail = q.view().Timeline(6, 10);
    REQUIRE(tail.size() == 2);
    CHECK(tail[0].seq == 7);
    CHECK(q.view().Timeline(8).empty());
  }

  TEST_CASE("explanations state the rule that was applied") {
    Queue q = MakeQueue(3);
    REQUIRE(q.EnqueueMany({{"a", ""}, {"p", ""}}).ok());
    MustProcess(q, "transient");
    MustProcess(q, "permanent");
    MustProcess(q, "transient");
    MustProcess(q, "transient");
    auto events = q.view().Timeline();
    std::vector<std::string> attempts;
    for (const Event& e : events) {
      if (e.kind == EventKind::kAttempt) attempts.push_back(ExplainEvent(e));
    }
    CHECK(attempts ==
          Strings{
              "attempt 1 of 3 failed transiently: 2 attempts left → requeue at the tail",
              "attempt 1 of 3 failed permanently: retrying cannot help → quarantine at once (2 attempts unused)",
              "attempt 2 of 3 failed transiently: 1 attempt left → requeue at the tail",
              "attempt 3 of 3 failed transiently: budget used up → quarantine",
          });
  }
}

TEST_CASE("a queue moved into a new one keeps its jobs, its ids and its timeline") {
  Queue a = MakeQueue(2);
  REQUIRE(a.Enqueue("x", "X").ok());
  MustProcess(a, "transient", "boom");
  Queue b = std::move(a);
  CHECK(b.Enqueue("x", "").code() == Code::kAlreadyExists);  // the id index survived the move
  REQUIRE(b.Enqueue("y", "Y").ok());
  MustProcess(b, "transient", "boom");
  MustProcess(b, "permanent", "bad");
  CHECK(b.view().Quarantined()[0].last_error == "boom");  // x, exhausted
  CHECK(b.view().Quarantined()[1].last_error == "bad");   // y, permanent
  CHECK(b.view().Timeline()[1].error == "boom");
  CHECK(b.view().TimelineText().find("error \"boom\"") != std::string::npos);
}

TEST_CASE("views can be read in slices, clamped to what is there") {
  Queue q = MakeQueue(1);
  REQUIRE(q.EnqueueMany({{"a", ""}, {"b", ""}, {"c", ""}, {"d", ""}, {"e", ""}}).ok());
  MustProcess(q, "permanent");  // a
  MustProcess(q, "success");    // b
  MustProcess(q, "transient");  // c
  CHECK(Ids(q.view().Ready(1, 1)) == Strings{"e"});
  CHECK(Ids(q.view().Ready(0, 99)) == Strings{"d", "e"});
  CHECK(q.view().Ready(2).empty());
  CHECK(q.view().Ready(SIZE_MAX, SIZE_MAX).empty());
  CHECK(Ids(q.view().Completed(0, 1)) == Strings{"b"});
  CHECK(Ids(q.view().Quarantined(1)) == Strings{"c"});
  CHECK(q.view().Quarantined(1)[0].reason == Reason::kExhausted);
  CHECK(q.view().Timeline(SIZE_MAX, 3).empty());
  CHECK(q.view().Timeline(2, SIZE_MAX).size() == q.view().event_count() - 2);
}

TEST_CASE("ids, payloads and error texts past their limits are refused whole") {
  Queue q = MakeQueue(3);
  const std::string long_id(kMaxIdBytes + 1, 'i');
  const std::string big_payload(kMaxPayloadBytes + 1, 'p');
  const std::string long_error(kMaxErrorTextBytes + 1, 'e');
  Status id = q.Enqueue(long_id, "");
  CHECK(id.code() == Code::kTooLarge);
  CHECK(id.message() == "id must be at most 1024 bytes, got 1025 bytes");
  CHECK(q.Enqueue("p", big_payload).message() == "payload must be at most 16777216 bytes, got 16777217 bytes");
  CHECK(q.EnqueueMany({{"a", ""}, {"b", big_payload}}).message() ==
        "jobs[1].payload must be at most 16777216 bytes, got 16777217 bytes");
  CHECK(q.EnqueueMany({{"a", ""}, {long_id, ""}}).message() == "jobs[1].id must be at most 1024 bytes, got 1025 bytes");
  CHECK(q.view().event_count() == 0);
  REQUIRE(q.Enqueue(std::string(kMaxIdBytes, 'i'), std::string(kMaxPayloadBytes, 'p')).ok());  // exactly at the limits
  CHECK(q.Process("transient", long_error).status().message() ==
        "errorText must be at most 65536 bytes, got 65537 bytes");
  CHECK(q.ProcessMany("t", long_error).status().code() == Code::kTooLarge);
  CHECK(q.stats().step == 0);
  CHECK(q.Process("transient", std::string(kMaxErrorTextBytes, 'e')).ok());
  CHECK(q.Process(std::string(kMaxOutcomeBytes + 1, 's')).status().message() ==
        "outcome must be at most 64 bytes, got 65 bytes");
  CHECK(q.ProcessMany(std::string(kMaxOutcomeLetters + 1, 's')).status().message() ==
        "outcomes must be at most 4194304 bytes, got 4194305 bytes");
}

// The heap budget is process-wide: each test sets it and puts it back.
struct BudgetScope {
  size_t saved = HeapBudget::limit();
  explicit BudgetScope(size_t limit) { HeapBudget::set_limit(limit); }
  ~BudgetScope() { HeapBudget::set_limit(saved); }
};

TEST_CASE("the heap budget refuses what would not fit, with nothing changed, and gets every byte back") {
  const size_t before = HeapBudget::used();
  {
    Queue q = MakeQueue(2);
    REQUIRE(q.Enqueue("a", "x").ok());
    const size_t one_job = HeapBudget::used() - before;
    CHECK(one_job >= 2);
    BudgetScope scope(HeapBudget::used() + 3 * one_job + 200);
    REQUIRE(q.Enqueue("b", "x").ok());
    const std::string big(4 * one_job, 'p');
    Status refused = q.Enqueue("c", big);
    CHECK(refused.code() == Code::kResourceExhausted);
    CHECK(refused.message().rfind("enqueue needs ", 0) == 0);
    CHECK(refused.message().find("are free (dispose of queues that are no longer needed)") != std::string::npos);
    const std::string timeline = q.view().TimelineText();
    const size_t used = HeapBudget::used();
    CHECK(q.EnqueueMany({{"c", ""}, {"d", big}}).code() == Code::kResourceExhausted);
    CHECK(q.Process("transient", std::string(1000, 'e')).status().code() == Code::kResourceExhausted);
    CHECK(q.ProcessMany(std::string(100, 't')).status().code() == Code::kResourceExhausted);
    CHECK(q.view().TimelineText() == timeline);
    CHECK(HeapBudget::used() == used);
    CHECK(q.Process("success").ok());  // small calls still fit
    // A refused batch gives back what it appended before the bad job.
    BudgetScope wide(SIZE_MAX);
    const size_t used_before_batch = HeapBudget::used();
    CHECK(q.EnqueueMany({{"x", big}, {"a", ""}}).code() == Code::kAlreadyExists);
    CHECK(HeapBudget::used() == used_before_batch);
    Queue moved = std::move(q);  // the charge moves with the queue
    CHECK(HeapBudget::used() == used_before_batch);
  }
  CHECK(HeapBudget::used() == before);
}

TEST_CASE("without a journal, a batch is charged no journal records: enqueueMany fits where the jobs fit") {
  std::vector<std::string> ids;
  for (int i = 0; i < 1000; ++i) ids.push_back("j" + std::to_string(i));
  std::vector<JobRef> jobs;
  for (const std::string& id : ids) jobs.push_back({id, ""});
  for (const bool journal : {false, true}) {
    Policy policy;
    policy.max_attempts = 2;
    policy.journal = journal;
    Result<Queue> made = Queue::Create(policy);
    REQUIRE(made.ok());
    Queue q = std::move(made).value();
    // About 1 KiB a job: room for the jobs (a few hundred bytes each), not for 2 KiB of journal headroom each.
    BudgetScope scope(HeapBudget::used() + 1000 * 1000);
    const Status s = q.EnqueueMany(jobs);
    INFO(s.message());
    CHECK(s.ok() == !journal);
    CHECK(q.stats().ready == (journal ? 0u : 1000u));
  }
}

TEST_CASE("a batch is refused whole past its job count or total bytes") {
  Queue q = MakeQueue(2);
  std::vector<JobRef> many(kMaxBatchJobs + 1, JobRef{"a", ""});
  CHECK(q.EnqueueMany(many).message() == "jobs must be at most 16777216 items, got 16777217 items");
  const std::string big(kMaxPayloadBytes, 'p');
  std::vector<std::string> ids;
  for (int i = 0; i < 17; ++i) ids.push_back("j" + std::to_string(i));
  std::vector<JobRef> heavy;
  for (const std::string& id : ids) heavy.push_back({id, big});
  CHECK(q.EnqueueMany(heavy).message() ==
        "jobs (ids and payloads together) must be at most 268435456 bytes, got 285212713 bytes");
  CHECK(q.view().event_count() == 0);
}

// Issue 20, item 7 / issue 19: the heap budget charged 64 bytes an event while
// the event log packs one into 2 to 4 bytes. It now charges what the log takes.
TEST_CASE("the heap budget charges an event what the event log really takes") {
  const size_t before = HeapBudget::used();
  {
    Policy policy;
    policy.max_attempts = 3;
    policy.journal = false;  // the journal's records are charged on their own
    Queue q = Queue::Create(policy).value();
    std::vector<std::string> ids;
    for (int i = 0; i < 100'000; ++i) ids.push_back("j" + std::to_string(i));
    std::vector<JobRef> jobs;
    for (const std::string& id : ids) jobs.push_back({id, ""});
    REQUIRE(q.EnqueueMany(jobs).ok());
    const size_t enqueued = HeapBudget::used();
    const size_t events_before = q.view().event_count();
    // Each success is an attempt and a completion: two events and nothing else kept.
    REQUIRE(q.ProcessMany(std::string(100'000, 's')).value() == 100'000);
    const size_t events = q.view().event_count() - events_before;
    CHECK(events == 200'000);
    const size_t charged = HeapBudget::used() - enqueued;
    INFO("charged " << charged << " bytes for " << events << " events");
    CHECK(charged >= 2 * events);  // at least a packed record's two header bytes
    CHECK(charged <= 6 * events);  // far from 64 a record: packed, a checkpoint every 64th
    // A room check still asks for the most one event can take.
    CHECK(cost::kEventAtMost == EventLog::kMaxBytesPerRecord);
    CHECK(cost::Bytes({.events = 1}, false) == cost::kEventAtMost);
  }
  CHECK(HeapBudget::used() == before);  // every byte given back
}

TEST_CASE("the cost table: one expression for every call's room") {
  using cost::Bytes;
  using cost::Need;
  // A journal doubles the strings a write copies and adds each move's records.
  const Need enqueue{.jobs = 1, .job_strings = 10, .events = 1, .moves = 1};
  CHECK(Bytes(enqueue, false) == cost::kJobRecord + 10 + cost::kEventAtMost);
  CHECK(Bytes(enqueue, true) == cost::kJobRecord + 20 + cost::kEventAtMost + cost::kJournalMove);
  const Need attempt{.events = 3, .timers = 1, .error_text = 5, .error = true, .moves = 1};
  CHECK(Bytes(attempt, false) == 3 * cost::kEventAtMost + cost::kTimer + cost::ErrorText(5));
  CHECK(Bytes(attempt, true) == 3 * cost::kEventAtMost + cost::kTimer + cost::ErrorText(10) + cost::kJournalMove);
  CHECK(cost::Job("ab", "cde", "f") == 6 + cost::kJobRecord);
}
