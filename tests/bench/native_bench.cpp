// Native half of `npm run bench`: the benchmark workload run directly on the core.
// Prints one JSON object; scripts/bench.mjs runs the same workload through the JS
// API and compares. Usage: dlq_bench [jobs] [seed]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "dlq.h"

int main(int argc, char** argv) {
  const size_t jobs = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1'000'000;
  const uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 42;
  // Every attempt draws one letter; 2x the jobs is more than the workload can use.
  const std::string outcomes = dlq::RandomOutcomes(seed, jobs * 2, 70, 25).value();
  std::vector<dlq::JobSpec> specs(jobs);  // built before the clock starts, as the JS side does
  for (size_t i = 0; i < jobs; ++i) specs[i] = {"job-" + std::to_string(i), "payload " + std::to_string(i)};

  const auto start = std::chrono::steady_clock::now();
  auto queue = dlq::Queue::Create({.max_attempts = 3});
  if (!queue.ok()) return 1;
  std::vector<dlq::JobRef> refs;
  refs.reserve(jobs);
  for (const dlq::JobSpec& spec : specs) refs.push_back({spec.id, spec.payload});
  if (!queue->EnqueueMany(refs).ok()) return 1;
  const auto enqueued = std::chrono::steady_clock::now();
  auto attempts = queue->ProcessMany(outcomes);
  const auto done = std::chrono::steady_clock::now();
  if (!attempts.ok() || queue->ready_size() != 0) return 1;

  const double enqueue_s = std::chrono::duration<double>(enqueued - start).count();
  const double process_s = std::chrono::duration<double>(done - enqueued).count();
  std::printf(
      "{\"jobs\":%zu,\"attempts\":%llu,\"completed\":%zu,\"quarantined\":%zu,\"events\":%zu,"
      "\"enqueueSeconds\":%.6f,\"processSeconds\":%.6f}\n",
      jobs, static_cast<unsigned long long>(attempts.value()), queue->completed_size(), queue->quarantine_size(),
      queue->event_count(), enqueue_s, process_s);
  return 0;
}
