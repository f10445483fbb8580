// Native half of `npm run bench`: the benchmark workloads run directly on the core.
// Prints one JSON object; scripts/bench.mjs runs the same workload through the JS
// API and compares. Usage: dlq_bench [jobs] [seed]   (lesson 1: process only)
//                          dlq_bench clock [jobs] [seed]   (backoff, leases, expiries)
//                          dlq_bench storm [jobs] [runs]   (core/sim/storm.h: the outage preset, best of runs)
//                          dlq_bench storm-budget [jobs] [runs]   (the gRPC preset at scale: a budget and a failure
//                          rate) dlq_bench yardstick [jobs] [seed]   (lesson 1: the core vs a minimal loop)
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "block_memory.h"
#include "dlq.h"
#include "storm.h"

namespace {

// The clock workload, shared with scripts/bench.mjs (which must make the same
// calls): exponential backoff 100..10,000 ms with full jitter, leases of 1 s,
// maxAttempts 5. Each ready job is leased; 20% of leases are left to expire (the
// worker "crashed"), the rest are settled at once with the next outcome letter;
// when nothing is ready the clock jumps to the next timer.
int ClockWorkload(size_t jobs, uint64_t seed) {
  const std::string outcomes = dlq::RandomOutcomes(seed, jobs * 6, 70, 25).value();
  const std::string settles = dlq::RandomOutcomes(seed + 1, jobs * 6, 80, 20).value();  // 's' settle, else expire
  std::vector<dlq::JobSpec> specs(jobs);
  for (size_t i = 0; i < jobs; ++i) specs[i] = {"job-" + std::to_string(i), "payload " + std::to_string(i)};

  const auto start = std::chrono::steady_clock::now();
  dlq::Policy policy;
  policy.max_attempts = 5;
  policy.backoff = {dlq::BackoffKind::kExponential, 100, 10'000, dlq::Jitter::kFull};
  policy.lease_ms = 1000;
  policy.seed = static_cast<int64_t>(seed);
  policy.journal = false;
  auto queue = dlq::Queue::Create(policy);
  if (!queue.ok()) return 1;
  std::vector<dlq::JobRef> refs;
  refs.reserve(jobs);
  for (const dlq::JobSpec& spec : specs) refs.push_back({spec.id, spec.payload});
  if (!queue->EnqueueMany(refs).ok()) return 1;
  const auto enqueued = std::chrono::steady_clock::now();
  size_t leases = 0, expired = 0;
  static const char* kNames[] = {"success", "transient", "permanent"};
  while (true) {
    if (queue->stats().ready == 0) {
      if (!queue->AdvanceToNext().has_value()) break;
      continue;
    }
    auto grant = queue->Lease();
    if (!grant.ok() || leases >= outcomes.size()) return 1;
    const char letter = outcomes[leases];
    const bool settle = settles[leases] == 's';
    ++leases;
    if (!settle) {
      ++expired;
      continue;
    }
    if (!queue->Settle(grant->token, kNames[letter == 's' ? 0 : letter == 't' ? 1 : 2]).ok()) return 1;
  }
  const auto done = std::chrono::steady_clock::now();
  const double enqueue_s = std::chrono::duration<double>(enqueued - start).count();
  const double process_s = std::chrono::duration<double>(done - enqueued).count();
  std::printf(
      "{\"jobs\":%zu,\"attempts\":%zu,\"expired\":%zu,\"completed\":%zu,\"quarantined\":%zu,\"events\":%zu,"
      "\"now\":%lld,\"enqueueSeconds\":%.6f,\"processSeconds\":%.6f}\n",
      jobs, leases, expired, queue->stats().completed, queue->stats().quarantined, queue->view().event_count(),
      static_cast<long long>(queue->stats().now), enqueue_s, process_s);
  return 0;
}

// Lesson 1's workload twice, journal off then on: what keeping the journal of
// durable writes costs per write, in time and in bytes.
int JournalWorkload(size_t jobs, uint64_t seed) {
  const std::string outcomes = dlq::RandomOutcomes(seed, jobs * 2, 70, 25).value();
  std::vector<dlq::JobSpec> specs(jobs);
  for (size_t i = 0; i < jobs; ++i) specs[i] = {"job-" + std::to_string(i), "payload " + std::to_string(i)};
  std::vector<dlq::JobRef> refs;
  for (const dlq::JobSpec& spec : specs) refs.push_back({spec.id, spec.payload});
  double seconds[2] = {0, 0};
  size_t writes = 0, bytes = 0;
  for (int journal = 0; journal < 2; ++journal) {
    dlq::Policy policy;
    policy.journal = journal == 1;
    const auto start = std::chrono::steady_clock::now();
    auto queue = dlq::Queue::Create(policy);
    if (!queue.ok() || !queue->EnqueueMany(refs).ok() || !queue->ProcessMany(outcomes).ok()) return 1;
    seconds[journal] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (journal == 1) {
      auto records = queue->view().Journal();
      if (!records.ok()) return 1;
      writes = records->size();
      for (const dlq::JournalEntry& r : records.value()) bytes += r.record.size();
    }
  }
  std::printf("{\"jobs\":%zu,\"writes\":%zu,\"recordBytes\":%zu,\"secondsWithout\":%.6f,\"secondsWith\":%.6f}\n", jobs,
              writes, bytes, seconds[0], seconds[1]);
  return 0;
}

// Snapshots and recovery at scale: lesson 1's workload on `jobs` jobs, a snapshot
// half-way, the rest journaled; then restore the snapshot and recover it with the
// whole journal (which must give the live queue's text back).
int DurableWorkload(size_t jobs, uint64_t seed) {
  const std::string outcomes = dlq::RandomOutcomes(seed, jobs * 2, 70, 25).value();
  std::vector<dlq::JobSpec> specs(jobs);
  for (size_t i = 0; i < jobs; ++i) specs[i] = {"job-" + std::to_string(i), "payload " + std::to_string(i)};
  std::vector<dlq::JobRef> refs;
  for (const dlq::JobSpec& spec : specs) refs.push_back({spec.id, spec.payload});
  auto queue = dlq::Queue::Create(dlq::Policy{});
  if (!queue.ok() || !queue->EnqueueMany(refs).ok() || !queue->ProcessMany(outcomes.substr(0, jobs / 2)).ok()) return 1;
  using Clock = std::chrono::steady_clock;
  const auto seconds = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  };
  const auto t0 = Clock::now();
  auto snapshot = queue->Snapshot();
  const auto t1 = Clock::now();
  if (!snapshot.ok() || !queue->ProcessMany(outcomes.substr(jobs / 2)).ok()) return 1;
  auto journal = queue->view().Journal();
  if (!journal.ok()) return 1;
  std::vector<std::string_view> records;
  size_t journal_bytes = 0;
  for (const dlq::JournalEntry& e : journal.value()) {
    records.push_back(e.record);
    journal_bytes += e.record.size();
  }
  const auto t2 = Clock::now();
  auto restored = dlq::Queue::Restore(snapshot.value());
  const auto t3 = Clock::now();
  auto recovered = dlq::Queue::Recover(std::string_view(snapshot.value()), records);
  const auto t4 = Clock::now();
  if (!restored.ok() || !recovered.ok()) return 1;
  const bool equal = recovered->queue.view().SnapshotText().value() == queue->view().SnapshotText().value();
  std::printf(
      "{\"jobs\":%zu,\"snapshotBytes\":%zu,\"snapshotSeconds\":%.6f,\"restoreSeconds\":%.6f,"
      "\"journalWrites\":%zu,\"journalBytes\":%zu,\"recoverSeconds\":%.6f,\"recoveredEqual\":%s}\n",
      jobs, snapshot->size(), seconds(t0, t1), seconds(t2, t3), records.size(), journal_bytes, seconds(t3, t4),
      equal ? "true" : "false");
  return equal ? 0 : 1;
}

// The storm workload, shared with scripts/bench.mjs (lab.runStorm with the same
// options): `jobs` jobs at once, a 5 s outage from 0, 10 attempts, exponential
// backoff 100..10,000 ms with full jitter, 1,000 workers x 10 ms. The best of
// `runs` runs (the machine is shared: the fastest is the least disturbed).
dlq::StormOptions OutageStorm(size_t jobs) {
  dlq::StormOptions o;
  o.jobs = static_cast<int64_t>(jobs);
  o.outage = dlq::StormOutage{0, 5000};
  o.max_attempts = 10;
  o.backoff = {dlq::BackoffKind::kExponential, 100, 10'000, dlq::Jitter::kFull};
  o.workers = 1000;
  o.work_ms = 10;
  return o;
}

// The storm with a budget, shared with scripts/bench.mjs: the gRPC preset at scale. `jobs`
// jobs at 100,000 a second, 5% of attempts failing (the failure stream), 3 attempts, no
// backoff, grpc:10:0.1 (every answer reported to it, every retry asked), 1,000 workers x 10 ms.
dlq::StormOptions BudgetStorm(size_t jobs) {
  dlq::StormOptions o;
  o.jobs = static_cast<int64_t>(jobs);
  o.arrival = {dlq::ArrivalKind::kRate, 100'000, 100};
  o.failure_per_million = 50'000;
  o.max_attempts = 3;
  o.budget = dlq::BudgetOptions{};  // grpc:10:0.1
  o.workers = 1000;
  o.work_ms = 10;
  return o;
}

int StormWorkload(const dlq::StormOptions& o, size_t jobs, int runs) {
  double best = 1e300, best_create = 0, best_cpu = 1e300;
  dlq::StormResult result;
  uint64_t events = 0;
  for (int run = 0; run < runs; ++run) {
    const std::clock_t cpu_start = std::clock();  // this process's CPU time: what a busy machine does not inflate
    const auto start = std::chrono::steady_clock::now();
    auto storm = dlq::Storm::Create(o);
    if (!storm.ok()) return 1;
    const auto created = std::chrono::steady_clock::now();
    storm->Run(UINT64_MAX);
    const auto done = std::chrono::steady_clock::now();
    best_cpu = std::min(best_cpu, static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC);
    const double seconds = std::chrono::duration<double>(done - start).count();
    if (seconds < best) {
      best = seconds;
      best_create = std::chrono::duration<double>(created - start).count();
    }
    result = storm->Result();
    events = storm->events();
  }
  const dlq::StormSummary& s = result.summary;
  std::printf(
      "{\"jobs\":%zu,\"attempts\":%llu,\"events\":%llu,\"outageFailures\":%llu,\"retriesDenied\":%llu,"
      "\"completed\":%llu,\"quarantined\":%llu,\"drainMs\":%lld,\"bucketMs\":%lld,\"createSeconds\":%.6f,"
      "\"seconds\":%.6f,\"cpuSeconds\":%.6f}\n",
      jobs, static_cast<unsigned long long>(s.attempts), static_cast<unsigned long long>(events),
      static_cast<unsigned long long>(s.outage_failures), static_cast<unsigned long long>(s.retries_denied),
      static_cast<unsigned long long>(s.completed), static_cast<unsigned long long>(s.quarantined),
      static_cast<long long>(s.drain_ms), static_cast<long long>(result.series.bucket_ms), best_create, best, best_cpu);
  return 0;
}

// Lesson 1's workload (1,000,000 jobs, 70/25/5, maxAttempts 3, process only) on
// the core, beside the yardstick: a minimal loop applying the same policy to
// 8-byte records { id, attempts } in a ring, with no ids, payloads, events or
// checks. Both draw the same outcome letters, so they must agree on every count.
int YardstickWorkload(size_t jobs, uint64_t seed) {
  const std::string outcomes = dlq::RandomOutcomes(seed, jobs * 2, 70, 25).value();
  std::vector<dlq::JobSpec> specs(jobs);
  for (size_t i = 0; i < jobs; ++i) specs[i] = {"job-" + std::to_string(i), "payload " + std::to_string(i)};
  std::vector<dlq::JobRef> refs;
  refs.reserve(jobs);
  for (const dlq::JobSpec& spec : specs) refs.push_back({spec.id, spec.payload});
  using Clock = std::chrono::steady_clock;
  const auto seconds = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  };

  // The core.
  const auto t0 = Clock::now();
  dlq::Policy policy;
  policy.max_attempts = 3;
  policy.journal = false;
  auto queue = dlq::Queue::Create(policy);
  if (!queue.ok() || !queue->EnqueueMany(refs).ok()) return 1;
  const auto t1 = Clock::now();
  auto attempts = queue->ProcessMany(outcomes);
  const auto t2 = Clock::now();
  if (!attempts.ok() || queue->stats().ready != 0) return 1;

  // The yardstick.
  struct Record {
    uint32_t id;
    uint32_t attempts;
  };
  static_assert(sizeof(Record) == 8);
  const auto t3 = Clock::now();
  std::vector<Record> ring(jobs);
  for (size_t i = 0; i < jobs; ++i) ring[i] = {static_cast<uint32_t>(i), 0};
  const auto t4 = Clock::now();
  size_t head = 0, size = jobs, used = 0, completed = 0, quarantined = 0;
  while (size > 0) {
    Record r = ring[head];
    if (++head == jobs) head = 0;
    --size;
    ++r.attempts;  // count first, decide second
    const char letter = outcomes[used++];
    if (letter == 's') {
      ++completed;
    } else if (letter == 't' && r.attempts < 3) {
      size_t tail = head + size;
      if (tail >= jobs) tail -= jobs;
      ring[tail] = r;
      ++size;
    } else {
      ++quarantined;
    }
  }
  const auto t5 = Clock::now();

  // The yardstick again, keeping a history as the core does: one 16-byte line
  // per event (the attempt, and where it sent the job), written to fresh memory
  // obtained as the core obtains its own (block_memory.h: huge pages where the
  // system offers them). What keeping a timeline costs before any other work.
  struct Line {
    uint32_t id, attempts;
    uint64_t what;
  };
  static_assert(sizeof(Line) == 16);
  for (size_t i = 0; i < jobs; ++i) ring[i] = {static_cast<uint32_t>(i), 0};
  const auto t6 = Clock::now();
  const dlq::BlockPtr memory = dlq::AllocateBlock(2 * outcomes.size() * sizeof(Line));  // room, not yet touched
  Line* const history = reinterpret_cast<Line*>(memory.get());
  size_t kept = 0;
  head = 0, size = jobs, used = 0;
  while (size > 0) {
    Record r = ring[head];
    if (++head == jobs) head = 0;
    --size;
    ++r.attempts;
    const char letter = outcomes[used++];
    history[kept++] = {r.id, r.attempts, static_cast<uint64_t>(letter)};
    if (letter == 't' && r.attempts < 3) {
      size_t tail = head + size;
      if (tail >= jobs) tail -= jobs;
      ring[tail] = r;
      ++size;
      history[kept++] = {r.id, r.attempts, 1};
    } else {
      history[kept++] = {r.id, r.attempts, letter == 's' ? 0u : 2u};
    }
  }
  const auto t7 = Clock::now();
  const bool agree = used == attempts.value() && kept == 2 * used && completed == queue->stats().completed &&
                     quarantined == queue->stats().quarantined;
  std::printf(
      "{\"jobs\":%zu,\"attempts\":%zu,\"completed\":%zu,\"quarantined\":%zu,\"agree\":%s,"
      "\"core\":{\"enqueueSeconds\":%.6f,\"processSeconds\":%.6f},"
      "\"loop\":{\"enqueueSeconds\":%.6f,\"processSeconds\":%.6f},"
      "\"loopWithHistory\":{\"processSeconds\":%.6f,\"lines\":%zu}}\n",
      jobs, used, completed, quarantined, agree ? "true" : "false", seconds(t0, t1), seconds(t1, t2), seconds(t3, t4),
      seconds(t4, t5), seconds(t6, t7), kept);
  return agree ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && (std::string(argv[1]) == "storm" || std::string(argv[1]) == "storm-budget")) {
    const size_t jobs = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1'000'000;
    return StormWorkload(std::string(argv[1]) == "storm" ? OutageStorm(jobs) : BudgetStorm(jobs), jobs,
                         argc > 3 ? std::atoi(argv[3]) : 3);
  }
  if (argc > 1 && std::string(argv[1]) == "yardstick") {
    return YardstickWorkload(argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1'000'000,
                             argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 42);
  }
  if (argc > 1 && std::string(argv[1]) == "durable") {
    return DurableWorkload(argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 20'000,
                           argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 42);
  }
  if (argc > 1 && std::string(argv[1]) == "journal") {
    return JournalWorkload(argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 100'000,
                           argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 42);
  }
  if (argc > 1 && std::string(argv[1]) == "clock") {
    return ClockWorkload(argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 200'000,
                         argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 42);
  }
  const size_t jobs = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1'000'000;
  const uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 42;
  // Every attempt draws one letter; 2x the jobs is more than the workload can use.
  const std::string outcomes = dlq::RandomOutcomes(seed, jobs * 2, 70, 25).value();
  std::vector<dlq::JobSpec> specs(jobs);  // built before the clock starts, as the JS side does
  for (size_t i = 0; i < jobs; ++i) specs[i] = {"job-" + std::to_string(i), "payload " + std::to_string(i)};

  const auto start = std::chrono::steady_clock::now();
  dlq::Policy policy;
  policy.max_attempts = 3;
  policy.journal = false;
  auto queue = dlq::Queue::Create(policy);
  if (!queue.ok()) return 1;
  std::vector<dlq::JobRef> refs;
  refs.reserve(jobs);
  for (const dlq::JobSpec& spec : specs) refs.push_back({spec.id, spec.payload});
  if (!queue->EnqueueMany(refs).ok()) return 1;
  const auto enqueued = std::chrono::steady_clock::now();
  auto attempts = queue->ProcessMany(outcomes);
  const auto done = std::chrono::steady_clock::now();
  if (!attempts.ok() || queue->stats().ready != 0) return 1;

  const double enqueue_s = std::chrono::duration<double>(enqueued - start).count();
  const double process_s = std::chrono::duration<double>(done - enqueued).count();
  std::printf(
      "{\"jobs\":%zu,\"attempts\":%llu,\"completed\":%zu,\"quarantined\":%zu,\"events\":%zu,"
      "\"enqueueSeconds\":%.6f,\"processSeconds\":%.6f}\n",
      jobs, static_cast<unsigned long long>(attempts.value()), queue->stats().completed, queue->stats().quarantined,
      queue->view().event_count(), enqueue_s, process_s);
  return 0;
}
