// dlq_storm: runs one storm (core/sim/storm.h) per jitter strategy, same seed, and
// prints one summary row each (or, with --json, the summaries as JSON; with
// --series, the series too). `npm run storm -- <options>` builds and runs it.
// A bad flag is refused with a message naming it and exit status 2; the core's
// range checks name the flag and the option.
#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "contention.h"
#include "storm.h"
#include "text.h"

namespace {

constexpr const char* kUsage =
    "usage: dlq_storm [--jobs N] [--arrival burst|rate:PER_SECOND|closed:CLIENTS] [--outage "
    "START_MS:DURATION_MS|none]\n"
    "                 [--capacity PER_WINDOW:WINDOW_MS|none] [--failure-rate P] [--workers N] [--work-ms N]\n"
    "                 [--lease-ms N] [--attempts N] [--backoff "
    "none|fixed:BASE_MS[:CAP_MS]|exponential:BASE_MS:CAP_MS]\n"
    "                 [--budget grpc:MAX_TOKENS:TOKEN_RATIO|aws-standard|finagle:PERCENT:MIN_PER_S:WINDOW_MS|none]\n"
    "                 [--refused-retry quarantine|fail] [--server CAPACITY_PER_S:TIMEOUT_MS|none]\n"
    "                 [--drop START_MS:DURATION_MS:PER_S] [--jitter none,full,equal,decorrelated] [--seed N]\n"
    "                 [--bucket-ms N] [--json] [--series]\n"
    "  one row per jitter strategy (default: all four, or none without a backoff), the same seed for each;\n"
    "  --json prints the summaries as JSON, --series adds each run's series (implies --json)\n"
    "       dlq_storm --contention [--clients N,N,...] [--runs R] [--seed N]\n"
    "  the contention experiment's table (docs/contention.md): calls and completion ms per strategy;\n"
    "  default 10, 20, ..., 190 clients, 100 runs, seed 1\n";

// A refusal: the message on stderr, exit status 2.
struct Refusal {
  std::string message;
};

// The flag a core option's name belongs to: its messages start with the option.
std::string FlagOf(const std::string& message) {
  static const std::pair<const char*, const char*> kFlags[] = {
      {"jobs", "--jobs"},
      {"arrival.", "--arrival"},
      {"outage.", "--outage"},
      {"failurePerMillion", "--failure-rate"},
      {"budget.", "--budget"},
      {"refusedRetry", "--refused-retry"},
      {"server.drop", "--drop"},
      {"server.", "--server"},
      {"capacity.", "--capacity"},
      {"workers", "--workers"},
      {"workMs", "--work-ms"},
      {"leaseMs", "--lease-ms"},
      {"maxAttempts", "--attempts"},
      {"backoff.jitter", "--jitter"},
      {"backoff.", "--backoff"},
      {"seed", "--seed"},
      {"bucketMs", "--bucket-ms"},
  };
  for (const auto& [option, flag] : kFlags) {
    const size_t n = std::strlen(option);
    if (message.compare(0, n, option) == 0 && (option[n - 1] == '.' || message.size() == n || message[n] == ' ')) {
      return flag;
    }
  }
  return "options";
}

bool ParseInteger(std::string_view text, int64_t* out) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, *out);
  return ec == std::errc() && ptr == end;
}

int64_t Integer(const std::string& flag, std::string_view text, const char* what = "an integer") {
  int64_t value = 0;
  if (!ParseInteger(text, &value)) {
    throw Refusal{flag + " must be " + what + ", got " + dlq::QuoteShort(text)};
  }
  return value;
}

// "A:B" as two integers.
std::pair<int64_t, int64_t> Pair(const std::string& flag, std::string_view text, const char* shape) {
  const size_t colon = text.find(':');
  int64_t a = 0, b = 0;
  if (colon == std::string_view::npos || !ParseInteger(text.substr(0, colon), &a) ||
      !ParseInteger(text.substr(colon + 1), &b)) {
    throw Refusal{flag + " must be " + shape + ", got " + dlq::QuoteShort(text)};
  }
  return {a, b};
}

std::vector<std::string_view> Split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  size_t at = 0;
  while (true) {
    const size_t end = text.find(sep, at);
    parts.push_back(text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
    if (end == std::string_view::npos) return parts;
    at = end + 1;
  }
}

// "0.05" -> 50000: a probability from 0 to 1 with at most 6 decimals, in millionths.
int64_t PerMillion(const std::string& flag, std::string_view text) {
  const char* what = "a probability from 0 to 1 with at most 6 decimals";
  const size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  int64_t value = 0, digits = 0;
  const bool ok =
      (whole == "0" || whole == "1") &&
      (dot == std::string_view::npos || (!fraction.empty() && fraction.size() <= 6 && ParseInteger(fraction, &digits) &&
                                         fraction.find_first_not_of("0123456789") == std::string_view::npos));
  if (!ok) throw Refusal{flag + " must be " + what + ", got " + dlq::QuoteShort(text)};
  value = (whole == "1" ? 1'000'000 : 0);
  if (dot != std::string_view::npos) {
    int64_t scale = 100'000;
    for (const char c : fraction) {
      value += (c - '0') * scale;
      scale /= 10;
    }
  }
  if (value > 1'000'000) throw Refusal{flag + " must be " + what + ", got " + dlq::QuoteShort(text)};
  return value;
}

struct Args {
  dlq::StormOptions options;
  std::vector<dlq::Jitter> jitters;
  bool jitter_given = false;
  bool json = false;
  bool series = false;
};

Args Parse(int argc, char** argv) {
  Args args;
  dlq::StormOptions& o = args.options;
  std::optional<std::array<int64_t, 3>> drop;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    std::string value;
    bool inline_value = false;
    if (const size_t eq = flag.find('='); flag.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag.resize(eq);
      inline_value = true;
    }
    if (flag == "--json" || flag == "--series" || flag == "--help" || flag == "-h") {
      if (inline_value) throw Refusal{flag + " takes no value, got " + dlq::QuoteShort(value)};
      if (flag == "--help" || flag == "-h") {
        std::fputs(kUsage, stdout);
        std::exit(0);
      }
      args.json = true;
      if (flag == "--series") args.series = true;
      continue;
    }
    static const char* kValued[] = {"--jobs",    "--arrival",   "--outage",       "--capacity", "--workers",
                                    "--work-ms", "--lease-ms",  "--attempts",     "--backoff",  "--jitter",
                                    "--seed",    "--bucket-ms", "--failure-rate", "--budget",   "--refused-retry",
                                    "--server",  "--drop"};
    bool known = false;
    for (const char* k : kValued) known = known || flag == k;
    if (!known) throw Refusal{"unknown flag " + dlq::QuoteShort(flag) + " (see --help)"};
    if (!inline_value) {
      if (i + 1 >= argc) throw Refusal{flag + " needs a value"};
      value = argv[++i];
    }
    if (flag == "--jobs") {
      o.jobs = Integer(flag, value);
    } else if (flag == "--arrival") {
      if (value == "burst") {
        o.arrival = {dlq::ArrivalKind::kBurst, o.arrival.per_second};
      } else if (int64_t per_second = 0;
                 value.rfind("rate:", 0) == 0 && ParseInteger(std::string_view(value).substr(5), &per_second)) {
        o.arrival = {dlq::ArrivalKind::kRate, per_second, o.arrival.clients};
      } else if (int64_t clients = 0;
                 value.rfind("closed:", 0) == 0 && ParseInteger(std::string_view(value).substr(7), &clients)) {
        o.arrival = {dlq::ArrivalKind::kClosed, o.arrival.per_second, clients};
      } else {
        throw Refusal{flag + " must be burst, rate:PER_SECOND or closed:CLIENTS, got " + dlq::QuoteShort(value)};
      }
    } else if (flag == "--failure-rate") {
      o.failure_per_million = PerMillion(flag, value);
    } else if (flag == "--budget") {
      if (value == "none") {
        o.budget.reset();
      } else {
        dlq::Result<dlq::BudgetOptions> budget = dlq::ParseBudget(value, flag);  // names the flag itself
        if (!budget.ok()) throw Refusal{budget.status().message()};
        o.budget = budget.value();
      }
    } else if (flag == "--refused-retry") {
      if (value != "quarantine" && value != "fail") {
        throw Refusal{flag + " must be quarantine or fail, got " + dlq::QuoteShort(value)};
      }
      o.refused_retry = value == "fail" ? dlq::RefusedRetry::kFail : dlq::RefusedRetry::kQuarantine;
    } else if (flag == "--server") {
      if (value == "none") {
        o.server.reset();
      } else {
        const auto [per_second, timeout_ms] = Pair(flag, value, "CAPACITY_PER_S:TIMEOUT_MS or none");
        dlq::StormServer server = o.server.value_or(dlq::StormServer{});
        server.per_second = per_second;
        server.timeout_ms = timeout_ms;
        o.server = server;
      }
    } else if (flag == "--drop") {
      const std::vector<std::string_view> parts = Split(value, ':');
      const char* shape = "START_MS:DURATION_MS:PER_S (the server's capacity drop; needs --server)";
      int64_t start = 0, duration = 0, per_second = 0;
      if (parts.size() != 3 || !ParseInteger(parts[0], &start) || !ParseInteger(parts[1], &duration) ||
          !ParseInteger(parts[2], &per_second)) {
        throw Refusal{flag + " must be " + shape + ", got " + dlq::QuoteShort(value)};
      }
      drop = {start, duration, per_second};
    } else if (flag == "--outage") {
      if (value == "none") {
        o.outage.reset();
      } else {
        const auto [start, duration] = Pair(flag, value, "START_MS:DURATION_MS or none");
        o.outage = dlq::StormOutage{start, duration};
      }
    } else if (flag == "--capacity") {
      if (value == "none") {
        o.capacity.reset();
      } else {
        const auto [per_window, window_ms] = Pair(flag, value, "PER_WINDOW:WINDOW_MS or none");
        o.capacity = dlq::StormCapacity{per_window, window_ms};
      }
    } else if (flag == "--workers") {
      o.workers = Integer(flag, value);
    } else if (flag == "--work-ms") {
      o.work_ms = Integer(flag, value);
    } else if (flag == "--lease-ms") {
      o.lease_ms = Integer(flag, value);
    } else if (flag == "--attempts") {
      o.max_attempts = Integer(flag, value);
    } else if (flag == "--backoff") {
      const std::vector<std::string_view> parts = Split(value, ':');
      // As the API takes it: a fixed backoff's cap is optional (default 60000 ms, and at least the base).
      const char* shape = "none, fixed:BASE_MS[:CAP_MS] or exponential:BASE_MS:CAP_MS";
      dlq::Result<dlq::BackoffKind> kind = dlq::ParseBackoffKind(parts[0]);
      const bool fits =
          kind.ok() && (kind.value() == dlq::BackoffKind::kNone    ? parts.size() == 1
                        : kind.value() == dlq::BackoffKind::kFixed ? parts.size() == 2 || parts.size() == 3
                                                                   : parts.size() == 3);
      if (!fits) throw Refusal{flag + " must be " + shape + ", got " + dlq::QuoteShort(value)};
      o.backoff.kind = kind.value();
      if (parts.size() >= 2) o.backoff.base_ms = Integer(flag, parts[1], shape);
      if (parts.size() == 3) o.backoff.cap_ms = Integer(flag, parts[2], shape);
    } else if (flag == "--jitter") {
      args.jitters.clear();
      args.jitter_given = true;
      for (std::string_view name : Split(value, ',')) {
        dlq::Result<dlq::Jitter> jitter = dlq::ParseJitter(name);
        if (!jitter.ok()) {
          throw Refusal{flag + " must be a comma-separated list of none, full, equal, decorrelated, got " +
                        dlq::QuoteShort(name)};
        }
        args.jitters.push_back(jitter.value());
      }
    } else if (flag == "--seed") {
      o.seed = Integer(flag, value);
    } else if (flag == "--bucket-ms") {
      o.bucket_ms = Integer(flag, value);
    }
  }
  if (drop) {
    if (!o.server) throw Refusal{"--drop needs --server (a drop is the server's capacity dropping), got no --server"};
    o.server->drop_start_ms = (*drop)[0];
    o.server->drop_ms = (*drop)[1];
    o.server->drop_per_second = (*drop)[2];
  }
  if (!args.jitter_given) {
    if (o.backoff.kind == dlq::BackoffKind::kNone) {
      args.jitters = {dlq::Jitter::kNone};
    } else {
      args.jitters = {dlq::Jitter::kNone, dlq::Jitter::kFull, dlq::Jitter::kEqual};
      if (o.backoff.kind == dlq::BackoffKind::kExponential) args.jitters.push_back(dlq::Jitter::kDecorrelated);
    }
  }
  // Every run's options, checked before any runs: a refusal names the flag.
  for (const dlq::Jitter jitter : args.jitters) {
    dlq::StormOptions run = o;
    run.backoff.jitter = jitter;
    if (dlq::Status s = dlq::CheckStormOptions(run); !s.ok()) throw Refusal{FlagOf(s.message()) + ": " + s.message()};
  }
  return args;
}

std::string Number(double value) { return dlq::DescribeNumber(value); }
std::string Number(uint64_t value) { return std::to_string(value); }
std::string Number(int64_t value) { return std::to_string(value); }

std::string SummaryJson(const dlq::StormSummary& s) {
  std::string out = "{";
  const auto field = [&out](const char* name, const std::string& value) {
    if (out.size() > 1) out += ',';
    out += '"';
    out += name;
    out += "\":";
    out += value;
  };
  field("jobs", Number(s.jobs));
  field("attempts", Number(s.attempts));
  field("successes", Number(s.successes));
  field("failures", Number(s.failures));
  field("outageFailures", Number(s.outage_failures));
  field("throttled", Number(s.throttled));
  field("randomFailures", Number(s.random_failures));
  field("timedOut", Number(s.timed_out));
  field("wastedAttempts", Number(s.wasted_attempts));
  field("retriesDenied", Number(s.retries_denied));
  field("goodput", Number(s.goodput));
  field("amplification", Number(s.amplification));
  field("peakRetryRate", Number(s.peak_retry_rate));
  field("peakRateAfterRecovery", Number(s.peak_rate_after_recovery));
  field("drainMs", Number(s.drain_ms));
  field("completed", Number(s.completed));
  field("quarantined", Number(s.quarantined));
  field("quarantinedByBudget", Number(s.quarantined_by_budget));
  field("failedJobs", Number(s.failed_jobs));
  field("worstCase", "{\"attempts\":" + std::to_string(s.worst_case.attempts) +
                         ",\"timeMs\":" + std::to_string(s.worst_case.time_ms) + "}");
  return out + "}";
}

std::string ArrayJson(const std::vector<uint32_t>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(values[i]);
  }
  return out + "]";
}

std::string SeriesJson(const dlq::StormSeries& s) {
  return "{\"bucketMs\":" + std::to_string(s.bucket_ms) + ",\"length\":" + std::to_string(s.length()) +
         ",\"success\":" + ArrayJson(s.success) + ",\"outage\":" + ArrayJson(s.outage) +
         ",\"throttled\":" + ArrayJson(s.throttled) + ",\"ready\":" + ArrayJson(s.ready) +
         ",\"delayed\":" + ArrayJson(s.delayed) + ",\"inFlight\":" + ArrayJson(s.in_flight) +
         ",\"quarantine\":" + ArrayJson(s.quarantine) + ",\"failed\":" + ArrayJson(s.failed) +
         ",\"timedOut\":" + ArrayJson(s.timed_out) + ",\"completed\":" + ArrayJson(s.completed) +
         ",\"denied\":" + ArrayJson(s.denied) + ",\"serverQueue\":" + ArrayJson(s.server_queue) + "}";
}

std::string Grouped(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// --contention [--clients N,N,...] [--runs R] [--seed N]: the contention
// experiment's table (core/sim/contention.h) instead of a storm; by default the
// published experiment's 10, 20, ..., 190 clients and 100 runs, seed 1. A bad
// flag or value is refused naming it, exit status 2.
int ContentionMain(int argc, char** argv) {
  std::vector<int64_t> clients;
  for (int64_t n = 10; n <= 190; n += 10) clients.push_back(n);
  int64_t runs = 100, seed = 1;
  try {
    for (int i = 1; i < argc; ++i) {
      std::string flag = argv[i], value;
      const size_t eq = flag.find('=');
      const bool inline_value = flag.rfind("--", 0) == 0 && eq != std::string::npos;
      if (inline_value) {
        value = flag.substr(eq + 1);
        flag.resize(eq);
      }
      if (flag == "--contention") {
        if (inline_value) throw Refusal{"--contention takes no value, got " + dlq::QuoteShort(value)};
        continue;
      }
      if (flag != "--clients" && flag != "--runs" && flag != "--seed") {
        throw Refusal{"with --contention, a flag must be --clients, --runs or --seed, got " + dlq::QuoteShort(flag)};
      }
      if (!inline_value) {
        if (i + 1 >= argc) throw Refusal{flag + " needs a value"};
        value = argv[++i];
      }
      if (flag == "--runs") {
        runs = Integer(flag, value);
      } else if (flag == "--seed") {
        seed = Integer(flag, value);
      } else {
        clients.clear();
        for (std::string_view part : Split(value, ',')) {
          clients.push_back(Integer(flag, part, "a comma-separated list of client counts"));
        }
      }
    }
  } catch (const Refusal& refusal) {
    std::fprintf(stderr, "dlq_storm: %s\n", refusal.message.c_str());
    return 2;
  }
  dlq::Result<std::string> table = dlq::ContentionTable(clients, runs, seed);
  if (!table.ok()) {  // the core names clientCounts[i], runs or seed
    const std::string& m = table.status().message();
    const char* flag = m.rfind("runs", 0) == 0 ? "--runs" : m.rfind("seed", 0) == 0 ? "--seed" : "--clients";
    std::fprintf(stderr, "dlq_storm: %s: %s\n", flag, m.c_str());
    return 2;
  }
  std::fputs(table.value().c_str(), stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--contention" || std::string_view(argv[i]).rfind("--contention=", 0) == 0) {
      return ContentionMain(argc, argv);
    }
  }
  Args args;
  try {
    args = Parse(argc, argv);
  } catch (const Refusal& refusal) {
    std::fprintf(stderr, "dlq_storm: %s\n", refusal.message.c_str());
    return 2;
  }
  const dlq::StormOptions& o = args.options;
  if (!args.json) {
    std::printf(
        "storm: %s jobs (%s), outage %s, capacity %s, %s workers x %lld ms, lease %lld ms, %lld attempts, "
        "backoff %s %lld..%lld ms, seed %lld\n\n",
        Grouped(static_cast<uint64_t>(o.jobs)).c_str(),
        o.arrival.kind == dlq::ArrivalKind::kBurst
            ? "burst"
            : ("rate " + Grouped(static_cast<uint64_t>(o.arrival.per_second)) + "/s").c_str(),
        o.outage ? (std::to_string(o.outage->start_ms) + "+" + std::to_string(o.outage->duration_ms) + " ms").c_str()
                 : "none",
        o.capacity
            ? (std::to_string(o.capacity->per_window) + " per " + std::to_string(o.capacity->window_ms) + " ms").c_str()
            : "none",
        Grouped(static_cast<uint64_t>(o.workers)).c_str(), static_cast<long long>(o.work_ms),
        static_cast<long long>(o.lease_ms), static_cast<long long>(o.max_attempts),
        dlq::BackoffKindName(o.backoff.kind), static_cast<long long>(o.backoff.base_ms),
        static_cast<long long>(o.backoff.cap_ms), static_cast<long long>(o.seed));
    std::string more;
    if (o.arrival.kind == dlq::ArrivalKind::kClosed)
      more += "closed loop: " + Grouped(static_cast<uint64_t>(o.arrival.clients)) + " clients; ";
    if (o.failure_per_million > 0)
      more += "failure rate " + Number(static_cast<double>(o.failure_per_million) / 1e6) + "; ";
    if (o.budget)
      more += std::string("budget ") + dlq::FormatBudget(*o.budget) +
              " (a refused retry: " + dlq::RefusedRetryName(o.refused_retry) + "); ";
    if (o.server) {
      more += "server " + Grouped(static_cast<uint64_t>(o.server->per_second)) + "/s, client timeout " +
              std::to_string(o.server->timeout_ms) + " ms";
      if (o.server->drop_ms > 0) {
        more += ", drop to " + Grouped(static_cast<uint64_t>(o.server->drop_per_second)) + "/s at " +
                std::to_string(o.server->drop_start_ms) + "+" + std::to_string(o.server->drop_ms) + " ms";
      }
      more += "; ";
    }
    if (!more.empty()) std::printf("%s\n\n", more.substr(0, more.size() - 2).c_str());
    std::printf("%-13s %11s %11s %10s %10s %10s %10s %13s %13s %9s %10s %11s %9s %10s %7s %14s %8s\n", "jitter",
                "attempts", "wasted", "outage", "throttled", "failed", "timed out", "peak retry/s", "peak after/s",
                "drain ms", "completed", "quarantined", "denied", "goodput/s", "ampl.", "worst case", "run ms");
  } else {
    std::printf("[");
  }
  bool first = true;
  for (const dlq::Jitter jitter : args.jitters) {
    dlq::StormOptions run = o;
    run.backoff.jitter = jitter;
    const auto start = std::chrono::steady_clock::now();
    dlq::Result<dlq::StormResult> result = dlq::RunStorm(run);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!result.ok()) {  // checked above; the heap budget is off natively
      std::fprintf(stderr, "dlq_storm: %s\n", result.status().ToString().c_str());
      return 1;
    }
    const dlq::StormSummary& s = result->summary;
    if (args.json) {
      std::printf("%s{\"jitter\":\"%s\",\"summary\":%s", first ? "" : ",", dlq::JitterName(jitter),
                  SummaryJson(s).c_str());
      if (args.series) std::printf(",\"series\":%s", SeriesJson(result->series).c_str());
      std::printf("}");
    } else {
      const std::string worst =
          std::to_string(s.worst_case.attempts) + " / " + Grouped(static_cast<uint64_t>(s.worst_case.time_ms)) + " ms";
      std::printf("%-13s %11s %11s %10s %10s %10s %10s %13s %13s %9s %10s %11s %9s %10.0f %7.2f %14s %8.0f\n",
                  dlq::JitterName(jitter), Grouped(s.attempts).c_str(), Grouped(s.wasted_attempts).c_str(),
                  Grouped(s.outage_failures).c_str(), Grouped(s.throttled).c_str(), Grouped(s.random_failures).c_str(),
                  Grouped(s.timed_out).c_str(), Number(s.peak_retry_rate).c_str(),
                  Number(s.peak_rate_after_recovery).c_str(), Grouped(static_cast<uint64_t>(s.drain_ms)).c_str(),
                  Grouped(s.completed).c_str(), Grouped(s.quarantined).c_str(), Grouped(s.retries_denied).c_str(),
                  s.goodput, s.amplification, worst.c_str(), ms);
    }
    first = false;
  }
  std::printf(args.json ? "]\n"
                        : "\n(bucket width: the series' own, chosen per run; peaks in attempts per second; "
                          "denied: retries the budget refused; goodput: completed per second of the run; "
                          "ampl.: attempts per job; worst case: attempts / ms of the policy's bounded path; "
                          "run ms: wall time)\n");
  return 0;
}
