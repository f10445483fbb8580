#include "schedule.h"

#include <algorithm>
#include <string>

#include "backoff.h"
#include "prng.h"
#include "registry.h"

namespace dlq {
namespace {

const Field<ScheduleOptions> kScheduleFields[] = {
    {{"samples", FieldKind::kInteger, &kScheduleSamplesField, nullptr, "Samples",
      "How many seeded runs the statistics are taken over."},
     [](const ScheduleOptions& o) { return o.samples; },
     [](ScheduleOptions& o, int64_t v) { o.samples = v; }},
    {{"outageMs", FieldKind::kInteger, &kScheduleOutageMsField, nullptr, "Outage (ms)",
      "How long the dependency is down, from the first attempt."},
     [](const ScheduleOptions& o) { return o.outage_ms; },
     [](ScheduleOptions& o, int64_t v) { o.outage_ms = v; }},
    {{"workMs", FieldKind::kInteger, &kScheduleWorkMsField, nullptr, "Attempt time (ms)",
      "How long one attempt takes before it fails."},
     [](const ScheduleOptions& o) { return o.work_ms; },
     [](ScheduleOptions& o, int64_t v) { o.work_ms = v; }},
    {{"leases", FieldKind::kBoolean, nullptr, nullptr, "Leases run out",
      "Each attempt holds its lease until it expires (leaseMs), as when nobody settles it."},
     [](const ScheduleOptions& o) { return int64_t{o.leases}; },
     [](ScheduleOptions& o, int64_t v) { o.leases = v != 0; }},
};

// Nearest rank: the value of rank ceil(p * n / 100) in ascending order.
int64_t Rank(const std::vector<int64_t>& sorted, int64_t p) {
  const int64_t n = static_cast<int64_t>(sorted.size());
  const int64_t rank = std::max<int64_t>(1, (p * n + 99) / 100);
  return sorted[static_cast<size_t>(rank - 1)];
}

Spread SpreadOf(std::vector<int64_t>& values) {
  std::sort(values.begin(), values.end());
  return {values.front(), Rank(values, 50), Rank(values, 99), values.back()};
}

}  // namespace

std::span<const Field<ScheduleOptions>> ScheduleFields() { return kScheduleFields; }

Status CheckScheduleOptions(const ScheduleOptions& o) {
  RETURN_IF_ERROR(kScheduleSamplesField.Check(o.samples));
  RETURN_IF_ERROR(kScheduleOutageMsField.Check(o.outage_ms));
  return kScheduleWorkMsField.Check(o.work_ms);
}

int64_t ScheduleAttemptMs(const Policy& policy, const ScheduleOptions& options) {
  return options.leases ? policy.lease_ms : std::min(options.work_ms, policy.lease_ms);
}

Result<ScheduleTable> RetrySchedule(const Policy& policy, const ScheduleOptions& options) {
  RETURN_IF_ERROR(Policy::Check(policy));
  RETURN_IF_ERROR(CheckScheduleOptions(options));
  const ClassRule rule = policy.RuleFor(FailureClass::kTransient);
  ScheduleTable out;
  out.attempts = static_cast<uint32_t>(rule.retry ? std::max<int64_t>(1, rule.max_attempts) : 1);
  out.outage_ms = options.outage_ms;
  const int64_t attempt_ms = ScheduleAttemptMs(policy, options);
  out.attempt_ms = attempt_ms;
  const uint32_t attempts = out.attempts;
  const size_t shown = std::min<size_t>(attempts, kScheduleRows);
  const int64_t retries = static_cast<int64_t>(attempts) - 1;
  // Under a retry window (SystemRules::RetryWindowMs) attempt n is the last once it starts at or
  // past the window (its failure is then that far from the first's: both take attempt_ms), so
  // a sample's attempts vary: the samples run until kScheduleDraws delays are drawn.
  const int64_t window = SystemOf(policy).RetryWindowMs(policy);
  int64_t samples = retries == 0 ? 1
                    : window > 0 ? options.samples
                                 : std::min(options.samples, std::max<int64_t>(1, kScheduleDraws / retries));
  int64_t drawn = 0;
  uint32_t reached = 0;  // the most attempts any sample made

  // starts[r][k], delays[r][k]: row r's start and delay in sample k; lasts[k]: the last attempt's start.
  std::vector<std::vector<int64_t>> starts(shown), delays(shown);
  std::vector<int64_t> lasts;
  Prng prng(static_cast<uint64_t>(policy.seed), PrngStream::kSchedule);
  int64_t k = 0;
  for (; k < samples && drawn < kScheduleDraws; ++k) {
    const Prng::State before = prng.state();
    int64_t start = 0;
    int64_t previous = 0;
    for (uint32_t n = 1; n <= attempts; ++n) {
      const bool last = n == attempts || (window > 0 && start >= window);
      const int64_t delay = last ? 0 : RetryDelay(policy, rule.backoff, n, previous, prng);
      if (options.until_draw && prng.state() != before) return out;  // exact false, nothing else filled
      if (n <= shown) {
        starts[n - 1].push_back(start);
        delays[n - 1].push_back(delay);
      }
      if (last) {
        lasts.push_back(start);
        reached = std::max(reached, n);
        break;
      }
      ++drawn;
      previous = delay;
      start += attempt_ms + delay;
    }
    if (k == 0 && prng.state() == before) {  // nothing drawn: every sample would be this one
      out.exact = true;
      samples = 1;
    }
  }
  samples = std::min(samples, k);
  out.samples = samples;
  if (window > 0) out.attempts = reached;  // the rows a window's samples reached
  for (size_t r = 0; r < std::min<size_t>(shown, out.attempts); ++r) {
    ScheduleRow row;
    row.attempt = static_cast<uint32_t>(r + 1);
    row.start = SpreadOf(starts[r]);
    row.retried = row.attempt < out.attempts;
    row.delay = SpreadOf(delays[r]);
    out.rows.push_back(row);
  }
  for (int64_t start : lasts) {
    if (start + attempt_ms >= options.outage_ms) out.outlasting += 1;
  }
  out.last.attempt = out.attempts;
  out.last.start = SpreadOf(lasts);
  out.total = {out.last.start.min + attempt_ms, out.last.start.median + attempt_ms, out.last.start.p99 + attempt_ms,
               out.last.start.max + attempt_ms};
  return out;
}

}  // namespace dlq
