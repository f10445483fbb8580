// The contention experiment (contention.h has the model). Built with
// -ffp-contract=off (CMakeLists.txt): the normal draws use only +, −, ×, ÷ and
// sqrt, each rounded once as IEEE 754 says, so every build gives the same bits.
#include "contention.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <queue>
#include <string>
#include <vector>

#include "backoff.h"
#include "prng.h"
#include "text.h"

namespace dlq {
namespace {

// prng.h's stream scheme: this experiment's master stream.
constexpr uint64_t kContentionStream = 2;
constexpr double kHopMeanUs = 10'000.0;
constexpr double kHopSdUs = 2'000.0;
constexpr int64_t kUsPerMs = 1'000;
constexpr size_t kMaxTableRows = 100;

// Uniform in [0, 1) on the 2^-53 grid: exact in a double.
double Unit(Prng& prng) { return static_cast<double>(prng.Next() >> 11) * 0x1p-53; }

// ln(x) for a finite x > 0 with no libm call but frexp (exact by definition):
// x = m·2^e with m in [√½, √2), ln m = 2·atanh(t) = 2(t + t³/3 + … + t²³/23),
// t = (m−1)/(m+1), |t| <= 0.1716, so the series' remainder is below 2^-60.
double Ln(double x) {
  int e = 0;
  double m = std::frexp(x, &e);  // m in [0.5, 1)
  if (m < 0.70710678118654752440) {
    m *= 2.0;
    e -= 1;
  }
  const double t = (m - 1.0) / (m + 1.0);
  const double t2 = t * t;
  double p = 1.0 / 23.0;
  for (int k = 21; k >= 1; k -= 2) p = p * t2 + 1.0 / static_cast<double>(k);
  return static_cast<double>(e) * 0.69314718055994530942 + 2.0 * t * p;
}

struct Client {
  Client(uint64_t net_seed, uint64_t jitter_seed) : net(net_seed), jitter(jitter_seed) {}
  Prng net;
  Prng jitter;
  bool has_spare = false;
  double spare = 0;
  int64_t attempt = 0;   // failed writes so far
  int64_t sleep_us = 0;  // the previous backoff (decorrelated's state; 0: none yet, then baseMs)
};

// A standard normal: Marsaglia's polar method; the pair's second value is kept
// for the next call.
double Normal(Client& c) {
  if (c.has_spare) {
    c.has_spare = false;
    return c.spare;
  }
  while (true) {
    const double u = 2.0 * Unit(c.net) - 1.0;
    const double v = 2.0 * Unit(c.net) - 1.0;
    const double s = u * u + v * v;
    if (s >= 1.0 || s == 0.0) continue;
    const double f = std::sqrt(-2.0 * Ln(s) / s);
    c.spare = v * f;
    c.has_spare = true;
    return u * f;
  }
}

// One hop: |normal(10 ms, 2 ms)| in whole µs (rounded half up).
int64_t Hop(Client& c) {
  const double d = std::fabs(kHopMeanUs + kHopSdUs * Normal(c));
  return static_cast<int64_t>(d + 0.5);
}

// backoff(n) in µs after the client's n-th failed write (n = c.attempt >= 1).
int64_t BackoffUs(const ContentionOptions& o, Client& c) {
  if (o.strategy == ContentionStrategy::kNone) return 0;
  Backoff b;
  b.kind = BackoffKind::kExponential;
  b.base_ms = o.base_ms * kUsPerMs;  // NextDelay's unit is ours here: µs
  b.cap_ms = o.cap_ms * kUsPerMs;
  switch (o.strategy) {
    case ContentionStrategy::kExponential: b.jitter = Jitter::kNone; break;
    case ContentionStrategy::kEqual: b.jitter = Jitter::kEqual; break;
    case ContentionStrategy::kFull: b.jitter = Jitter::kFull; break;
    case ContentionStrategy::kDecorrelated: b.jitter = Jitter::kDecorrelated; break;
    case ContentionStrategy::kNone: break;
  }
  // The simulator's exponent is n where the queue's is n − 1: attempt n + 1 here.
  const auto attempt = static_cast<uint32_t>(std::min<int64_t>(c.attempt + 1, std::numeric_limits<uint32_t>::max()));
  c.sleep_us = NextDelay(b, attempt, c.sleep_us, c.jitter);
  return c.sleep_us;
}

struct Message {
  ContentionEvent event;
  uint64_t seq = 0;
};

struct Later {
  bool operator()(const Message& a, const Message& b) const {
    return a.event.time_us != b.event.time_us ? a.event.time_us > b.event.time_us : a.seq > b.seq;
  }
};

struct RunTotals {
  int64_t calls = 0;
  int64_t successes = 0;
  int64_t completion_us = 0;
};

// One run. Each client's two streams are seeded from `master` first, in client
// order. With `trace`, every delivered message is appended until `max_events`;
// past that `*overflow` is set and the run goes on untraced.
RunTotals SimulateRun(const ContentionOptions& o, Prng& master, std::vector<ContentionEvent>* trace, size_t max_events,
                      bool* overflow) {
  std::vector<Client> clients;
  clients.reserve(static_cast<size_t>(o.clients));
  for (int64_t i = 0; i < o.clients; ++i) {
    const uint64_t net_seed = master.Next();
    const uint64_t jitter_seed = master.Next();
    clients.emplace_back(net_seed, jitter_seed);
  }
  std::priority_queue<Message, std::vector<Message>, Later> network;
  uint64_t seq = 0;
  auto send = [&](ContentionEvent e) { network.push(Message{e, seq++}); };
  for (int64_t i = 0; i < o.clients; ++i) {
    ContentionEvent read;
    read.client = i;
    read.step = ContentionStep::kRead;
    read.time_us = Hop(clients[static_cast<size_t>(i)]);
    send(read);
  }

  int64_t version = 0;
  RunTotals totals;
  while (!network.empty()) {
    ContentionEvent e = network.top().event;
    network.pop();
    Client& c = clients[static_cast<size_t>(e.client)];
    ContentionEvent next;
    next.client = e.client;
    next.sent_us = e.time_us;
    next.attempt = c.attempt;
    switch (e.step) {
      case ContentionStep::kRead:
        next.step = ContentionStep::kReadResponse;
        next.version = version;
        next.time_us = e.time_us + Hop(c);
        break;
      case ContentionStep::kReadResponse:
        next.step = ContentionStep::kWrite;
        next.version = e.version;
        next.time_us = e.time_us + Hop(c);
        break;
      case ContentionStep::kWrite:
        ++totals.calls;
        e.ok = e.version == version;
        if (e.ok) ++version;
        next.step = ContentionStep::kWriteResponse;
        next.version = e.version;
        next.ok = e.ok;
        next.time_us = e.time_us + Hop(c);
        break;
      case ContentionStep::kWriteResponse:
        if (e.ok) {
          ++totals.successes;
          totals.completion_us = e.time_us;  // delivery times never decrease: the last is the latest
        } else {
          ++c.attempt;
          next.step = ContentionStep::kRead;
          next.attempt = c.attempt;
          const int64_t hop = Hop(c);  // the simulator's order: the network delay, then the backoff
          next.backoff_us = BackoffUs(o, c);
          next.time_us = e.time_us + hop + next.backoff_us;
        }
        break;
    }
    if (trace != nullptr) {
      if (trace->size() < max_events) {
        trace->push_back(e);
      } else {
        *overflow = true;
      }
    }
    if (e.step != ContentionStep::kWriteResponse || !e.ok) send(next);
  }
  return totals;
}

Prng Master(const ContentionOptions& o) {
  return Prng(static_cast<uint64_t>(o.seed), static_cast<PrngStream>(kContentionStream));
}

// A non-negative value with one decimal: "12.3".
std::string OneDecimal(double value) {
  const auto tenths = static_cast<int64_t>(std::floor(value * 10.0 + 0.5));
  return std::to_string(tenths / 10).append(".").append(std::to_string(tenths % 10));
}

std::string PadLeft(const std::string& s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ').append(s);
}

}  // namespace

namespace {

constexpr Choice kStrategyItems[] = {{"none", "No backoff"},
                                     {"exponential", "Exponential"},
                                     {"equal", "Equal jitter"},
                                     {"full", "Full jitter"},
                                     {"decorrelated", "Decorrelated jitter"}};
constexpr Choices kStrategyChoices{kStrategyItems, kContentionStrategyCount};

const Field<ContentionOptions> kContentionFields[] = {
    {{"clients", FieldKind::kInteger, &kContentionClientsField, nullptr, "Clients",
      "How many clients each want one successful write.", true},
     [](const ContentionOptions& o) { return o.clients; },
     [](ContentionOptions& o, int64_t v) { o.clients = v; }},
    {{"strategy", FieldKind::kChoice, nullptr, &kStrategyChoices, "Strategy",
      "How a client waits after a failed write.", true},
     [](const ContentionOptions& o) -> int64_t { return static_cast<int64_t>(o.strategy); },
     [](ContentionOptions& o, int64_t v) { o.strategy = static_cast<ContentionStrategy>(v); }},
    {{"baseMs", FieldKind::kInteger, &kContentionBaseMsField, nullptr, "Base (ms)", "The first backoff."},
     [](const ContentionOptions& o) { return o.base_ms; },
     [](ContentionOptions& o, int64_t v) { o.base_ms = v; }},
    {{"capMs", FieldKind::kInteger, &kContentionCapMsField, nullptr, "Cap (ms)",
      "No backoff is longer; at least the base."},
     [](const ContentionOptions& o) { return o.cap_ms; },
     [](ContentionOptions& o, int64_t v) { o.cap_ms = v; }},
    {{"seed", FieldKind::kInteger, &kContentionSeedField, nullptr, "Seed", "Seeds the run, so it repeats exactly."},
     [](const ContentionOptions& o) { return o.seed; },
     [](ContentionOptions& o, int64_t v) { o.seed = v; }},
    {{"runs", FieldKind::kInteger, &kContentionRunsField, nullptr, "Runs", "How many runs are averaged."},
     [](const ContentionOptions& o) { return o.runs; },
     [](ContentionOptions& o, int64_t v) { o.runs = v; }},
};

}  // namespace

std::span<const Field<ContentionOptions>> ContentionFields() { return kContentionFields; }

const char* ContentionStrategyName(ContentionStrategy strategy) {
  return kStrategyChoices.Name(static_cast<int>(strategy));
}

Result<ContentionStrategy> ParseContentionStrategy(std::string_view text) {
  Result<int> index = kStrategyChoices.Parse(text, "strategy");
  if (!index.ok()) return index.status();
  return static_cast<ContentionStrategy>(index.value());
}

Status CheckContentionOptions(const ContentionOptions& o) {
  RETURN_IF_ERROR(kContentionClientsField.Check(o.clients));
  if (static_cast<int>(o.strategy) >= kContentionStrategyCount) {
    return Status::InvalidArgument(std::string("strategy must be one of \"none\", \"exponential\", \"equal\", "
                                               "\"full\", \"decorrelated\", got the value ")
                                       .append(std::to_string(static_cast<int>(o.strategy))));
  }
  RETURN_IF_ERROR(kContentionBaseMsField.Check(o.base_ms));
  RETURN_IF_ERROR(kContentionCapMsField.Check(o.cap_ms));
  if (o.cap_ms < o.base_ms) {
    return Status::OutOfRange(std::string("capMs must be an integer from baseMs (")
                                  .append(std::to_string(o.base_ms))
                                  .append(") to ")
                                  .append(std::to_string(kContentionCapMsField.max))
                                  .append(", got ")
                                  .append(std::to_string(o.cap_ms)));
  }
  RETURN_IF_ERROR(kContentionSeedField.Check(o.seed));
  return kContentionRunsField.Check(o.runs);
}

Result<ContentionResult> RunContention(const ContentionOptions& options) {
  RETURN_IF_ERROR(CheckContentionOptions(options));
  Prng master = Master(options);
  ContentionResult result;
  for (int64_t r = 0; r < options.runs; ++r) {
    const RunTotals run = SimulateRun(options, master, nullptr, 0, nullptr);
    result.total_calls += run.calls;
    result.total_successes += run.successes;
    result.total_completion_us += run.completion_us;
  }
  const auto runs = static_cast<double>(options.runs);
  result.mean_calls = static_cast<double>(result.total_calls) / runs;
  result.mean_completion_ms = static_cast<double>(result.total_completion_us) / (1000.0 * runs);
  return result;
}

Result<std::vector<ContentionEvent>> TraceContention(const ContentionOptions& options, size_t max_events) {
  RETURN_IF_ERROR(CheckContentionOptions(options));
  Prng master = Master(options);
  std::vector<ContentionEvent> trace;
  bool overflow = false;
  (void)SimulateRun(options, master, &trace, max_events, &overflow);
  if (overflow) {
    return Status::FailedPrecondition(
        std::string("max_events must be at least the run's message count, got ").append(std::to_string(max_events)));
  }
  return trace;
}

Result<std::string> ContentionTable(const std::vector<int64_t>& client_counts, int64_t runs, int64_t seed) {
  if (client_counts.empty() || client_counts.size() > kMaxTableRows) {
    return Status::OutOfRange(std::string("clientCounts must hold 1 to ")
                                  .append(std::to_string(kMaxTableRows))
                                  .append(" client counts, got ")
                                  .append(std::to_string(client_counts.size())));
  }
  for (size_t i = 0; i < client_counts.size(); ++i) {
    const std::string name = std::string("clientCounts[").append(std::to_string(i)).append("]");
    const IntegerField field{name.c_str(), kContentionClientsField.min, kContentionClientsField.max};
    RETURN_IF_ERROR(field.Check(client_counts[i]));
  }
  RETURN_IF_ERROR(kContentionRunsField.Check(runs));
  RETURN_IF_ERROR(kContentionSeedField.Check(seed));

  const ContentionOptions defaults;
  std::string out("Contention on one row (docs/contention.md): mean write calls and mean completion ms per run; base ");
  out.append(std::to_string(defaults.base_ms)).append(" ms, cap ").append(std::to_string(defaults.cap_ms));
  out.append(" ms, ").append(std::to_string(runs)).append(runs == 1 ? " run" : " runs");
  out.append(", seed ").append(std::to_string(seed)).append("\n\n");
  // Columns: "clients", then per strategy "<name> calls" and "<name> ms", each at
  // least kWidth wide, right-aligned (a Markdown table).
  constexpr size_t kWidth = 9;
  std::vector<std::string> headers;
  for (int s = 0; s < kContentionStrategyCount; ++s) {
    const std::string name = ContentionStrategyName(static_cast<ContentionStrategy>(s));
    headers.push_back(name + " calls");
    headers.push_back(name + " ms");
  }
  const auto cell = [&out](const std::string& text, size_t width) {
    out.append(" ").append(PadLeft(text, width)).append(" |");
  };
  out.append("|");
  cell("clients", 7);
  for (const std::string& h : headers) cell(h, std::max(kWidth, h.size()));
  out.append("\n|");
  cell(std::string(6, '-').append(":"), 7);
  for (const std::string& h : headers) cell(std::string(std::max(kWidth, h.size()) - 1, '-').append(":"), 0);
  out.append("\n");
  for (int64_t clients : client_counts) {
    out.append("|");
    cell(std::to_string(clients), 7);
    for (int s = 0; s < kContentionStrategyCount; ++s) {
      ContentionOptions o;
      o.clients = clients;
      o.strategy = static_cast<ContentionStrategy>(s);
      o.runs = runs;
      o.seed = seed;
      Result<ContentionResult> r = RunContention(o);
      if (!r.ok()) return r.status();
      const size_t column = 2 * static_cast<size_t>(s);
      cell(OneDecimal(r->mean_calls), std::max(kWidth, headers[column].size()));
      cell(OneDecimal(r->mean_completion_ms), std::max(kWidth, headers[column + 1].size()));
    }
    out.append("\n");
  }
  return out;
}

Result<ContentionCost> EstimateContentionGridCost(const ContentionOptions& options) {
  RETURN_IF_ERROR(kContentionSeedField.Check(options.seed));
  RETURN_IF_ERROR(kContentionRunsField.Check(options.runs));
  return ContentionCost{options.runs, options.runs * kContentionGridCallsPerRun};
}

}  // namespace dlq
