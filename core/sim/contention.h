// The classic contention experiment (Brooker, "Exponential Backoff and Jitter",
// AWS Architecture Blog, 2015; the published simulator is aws-samples/
// aws-arch-backoff-simulator, src/backoff_simulator.py), reproduced in the core so
// that the lab's numbers can be set beside the published ones. docs/contention.md
// has the model, its differences from the simulator and the numbers it gives.
//
// The model (times in integer microseconds, µs):
//  * One row on a server, its version starting at 0. write(v) succeeds only if v
//    equals the current version, which then goes up by one; every write is a call.
//  * N clients start at t = 0; each wants one successful update: read request →
//    read response (carrying the version at the instant the server reads) →
//    write(the version read) → write response. Each hop takes
//    |normal(10 ms, 2 ms)| rounded to the nearest µs.
//  * After a failed write the client increments its attempt number n (the first
//    retry has n = 1) and sends its next read after one hop plus backoff(n):
//      none          0
//      exponential   min(cap, base·2^n)                     (the simulator's exponent;
//                                                            the queue's is 2^(n−1))
//      equal         h + U[0, v − h], v = the above, h = floor(v/2)
//      full          U[0, v]
//      decorrelated  sleep = min(cap, U[base, 3·sleep]), sleep starting at base,
//                    kept per client
//    with U[a, b] a uniform integer number of µs (backoff.h's NextDelay, in µs).
//  * Messages are delivered in time order; messages due at the same µs in the
//    order they were sent (seq), so a tie is decided the same way every time.
//  * Randomness: stream 2 of prng.h's scheme (Prng(seed, PrngStream{2})) is the
//    master; for each run in turn and, within it, each client 0..N−1 in turn it
//    gives two words, which seed that client's network stream and then its jitter
//    stream (Prng(word)). A hop draws one normal from its client's network stream
//    (the server's replies included); a jittered backoff draws once from the
//    client's jitter stream. The normal draws are Marsaglia's polar form of
//    Box–Muller with this file's own logarithm (only +, −, ×, ÷ and sqrt, built
//    with -ffp-contract=off), so native and WebAssembly builds give the same
//    numbers; the second normal of each pair is kept for the client's next hop.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <span>
#include <vector>

#include "policy.h"
#include "status.h"

namespace dlq {

enum class ContentionStrategy : uint8_t { kNone, kExponential, kEqual, kFull, kDecorrelated };
constexpr int kContentionStrategyCount = 5;

// "none" | "exponential" | "equal" | "full" | "decorrelated", and back (exact;
// InvalidArgument naming strategy otherwise).
const char* ContentionStrategyName(ContentionStrategy strategy);
Result<ContentionStrategy> ParseContentionStrategy(std::string_view text);

// The ranges of the options (the names as JS spells them). capMs must also be at
// least baseMs; its maximum keeps 3·cap in µs within the PRNG's 32-bit draws.
constexpr IntegerField kContentionClientsField{"clients", 1, 10'000};
constexpr IntegerField kContentionBaseMsField{"baseMs", 1, 100'000};  // base·2^36 µs stays within int64
constexpr IntegerField kContentionCapMsField{"capMs", 1, 1'000'000};  // and at least baseMs
constexpr IntegerField kContentionSeedField{"seed", 0, 4'294'967'295};
constexpr IntegerField kContentionRunsField{"runs", 1, 1'000};
constexpr const IntegerField* kContentionIntegerFields[] = {&kContentionClientsField, &kContentionBaseMsField,
                                                            &kContentionCapMsField, &kContentionSeedField,
                                                            &kContentionRunsField};

// The published experiment's settings are the defaults, but for runs (the
// simulator repeats each point 100 times; one run here unless asked).
struct ContentionOptions {
  int64_t clients = 1;
  ContentionStrategy strategy = ContentionStrategy::kNone;
  int64_t base_ms = 5;
  int64_t cap_ms = 2'000;
  int64_t seed = 1;
  int64_t runs = 1;
};

// The options (field.h), in the order the bindings read them.
std::span<const Field<ContentionOptions>> ContentionFields();

// The first option out of range, named; or OK.
Status CheckContentionOptions(const ContentionOptions& options);

// Averages over the runs, and the totals they come from.
struct ContentionResult {
  double mean_calls = 0;          // write calls per run (successful and failed)
  double mean_completion_ms = 0;  // when the last client learns it succeeded, per run
  int64_t total_calls = 0;        // over all runs
  int64_t total_successes = 0;    // successful writes over all runs: clients · runs
  int64_t total_completion_us = 0;
};

// Runs the experiment `options.runs` times and averages. The cost grows with the
// number of calls: clients²/6 to clients²/4 a run for "none" (10,000 clients:
// 15.8 million, 9 s natively), about 9–13·clients with jitter (at 190). OutOfRange
// or InvalidArgument naming the option if CheckContentionOptions refuses it.
Result<ContentionResult> RunContention(const ContentionOptions& options);

// One delivered message of the first run, for tests and docs.
enum class ContentionStep : uint8_t { kRead, kReadResponse, kWrite, kWriteResponse };
struct ContentionEvent {
  int64_t time_us = 0;  // when the message arrives
  int64_t client = 0;   // 0..clients−1
  ContentionStep step = ContentionStep::kRead;
  int64_t version = 0;     // read response: the version read; write, write response: the version written
  bool ok = false;         // write, write response: whether the write succeeded
  int64_t sent_us = 0;     // when it was sent: when the client's previous message arrived (a retry's
                           // read: the failed write's response; its hop and then its backoff follow)
  int64_t attempt = 0;     // the client's attempt number when it was sent (0 before any failure)
  int64_t backoff_us = 0;  // a retry's read: the backoff drawn for it; else 0
};

// Every message of the first run, in delivery order (options.runs is ignored:
// one run). At most `max_events` are kept; FailedPrecondition naming max_events
// if the run needs more.
Result<std::vector<ContentionEvent>> TraceContention(const ContentionOptions& options, size_t max_events);

// A text table of the experiment: one row per client count, for each strategy
// its mean calls and mean completion ms (one decimal), all with base 5 ms, cap
// 2000 ms, `runs` runs from `seed`. Client counts are refused like `clients`
// (naming clientCounts[i]), at most 100 of them; runs and seed as above.
Result<std::string> ContentionTable(const std::vector<int64_t>& client_counts, int64_t runs, int64_t seed);

// ---- what the lab's experiment costs (core/sim/contention.cpp, at the end) ----

// The experiment as the storm lab runs it: these client counts, each with every
// strategy, at the published base and cap (ContentionOptions' defaults).
constexpr int64_t kContentionGridClients[] = {10, 30, 50, 70, 90, 110, 130, 150, 170, 190};
// Calls one run of that whole grid makes, rounded up: measured through
// RunContention, one run made 79,521 to 81,817 calls for seeds 1 to 10, and the
// mean of 20 runs 80,083 to 80,290. The grid's cost is about this times the runs.
constexpr int64_t kContentionGridCallsPerRun = 82'000;

struct ContentionCost {
  int64_t runs = 0;   // runs a point
  int64_t calls = 0;  // about kContentionGridCallsPerRun × runs
};

// What running the grid with `options`' seed and runs will cost (its clients and
// strategy are the grid's, so they are not read). The seed's or runs' refusal,
// named as CheckContentionOptions names it; or the cost.
Result<ContentionCost> EstimateContentionGridCost(const ContentionOptions& options);

}  // namespace dlq
