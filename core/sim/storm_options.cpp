// A storm's options: their rows (the one converter reads and writes them; the storm
// form is drawn from them), their choice lists and Check. The engine is storm.cpp.
#include "storm.h"

#include <string>

#include "rules.h"
#include "text.h"

namespace dlq {

namespace {

constexpr Choice kArrivalItems[] = {{"burst", "Burst: every job at t = 0"},
                                    {"rate", "Rate: jobs per second (open loop)"},
                                    {"closed", "Closed loop: clients that wait for their answer"}};
constexpr Choices kArrivalChoices{kArrivalItems, 3};
constexpr Choice kRefusedItems[] = {{"quarantine", "Quarantine the job (reason budget)"},
                                    {"fail", "Fail the job back to its caller"}};
constexpr Choices kRefusedChoices{kRefusedItems, 2};

// An optional group's field: absent reads as the group's default, and setting
// one makes the group.
template <class Group>
Group Or(const std::optional<Group>& group) {
  return group.value_or(Group{});
}

// The groups: their example in a refusal, and what else each may be (null: none;
// a budget's command-line text).
constexpr FieldGroup kArrivalGroup{"arrival", "{ kind: 'burst' } or { kind: 'rate', perSecond: 1000 }"};
constexpr FieldGroup kOutageGroup{"outage", "{ startMs: 0, durationMs: 5000 }", true};
constexpr FieldGroup kCapacityGroup{"capacity", "{ perWindow: 500, windowMs: 100 }", true};
constexpr FieldGroup kBudgetGroup{"budget", "{ kind: 'grpc', maxTokens: 10, tokenRatioPerMille: 100 }", true,
                                  "'grpc:10:0.1'"};
constexpr FieldGroup kServerGroup{"server", "{ capacityPerSecond: 1000, timeoutMs: 500 }", true};

// Labels and hints are the storm lab's form's (web/storm.html draws it from these rows).
const Field<StormOptions> kStormFields[] = {
    {{"jobs", FieldKind::kInteger, &kStormJobsField, nullptr, "Jobs", "How many jobs go through the storm.", true},
     [](const StormOptions& o) { return o.jobs; },
     [](StormOptions& o, int64_t v) { o.jobs = v; }},
    {FieldSpec{"arrival.kind", FieldKind::kChoice, nullptr, &kArrivalChoices, "Arrival",
               "All jobs at once, or a steady rate that does not listen to answers.", true}
         .In(kArrivalGroup),
     [](const StormOptions& o) -> int64_t { return static_cast<int64_t>(o.arrival.kind); },
     [](StormOptions& o, int64_t v) { o.arrival.kind = static_cast<ArrivalKind>(v); }},
    {FieldSpec{"arrival.perSecond", FieldKind::kInteger, &kStormPerSecondField, nullptr, "Jobs per second",
               "The arrival rate (rate only)."}
         .In(kArrivalGroup, "rate")
         .Hinted("used when jobs arrive at a rate (open loop)"),
     [](const StormOptions& o) { return o.arrival.per_second; },
     [](StormOptions& o, int64_t v) { o.arrival.per_second = v; }},
    {FieldSpec{"outage.startMs", FieldKind::kInteger, &kStormOutageStartField, nullptr, "Outage start (ms)",
               "The dependency goes down at this time (null outage: none).", true}
         .In(kOutageGroup),
     [](const StormOptions& o) { return Or(o.outage).start_ms; },
     [](StormOptions& o, int64_t v) {
       o.outage = Or(o.outage);
       o.outage->start_ms = v;
     }},
    {FieldSpec{"outage.durationMs", FieldKind::kInteger, &kStormOutageDurationField, nullptr, "Outage length (ms)",
               "How long the dependency stays down.", true}
         .In(kOutageGroup),
     [](const StormOptions& o) { return Or(o.outage).duration_ms; },
     [](StormOptions& o, int64_t v) {
       o.outage = Or(o.outage);
       o.outage->duration_ms = v;
     }},
    {FieldSpec{"capacity.perWindow", FieldKind::kInteger, &kStormPerWindowField, nullptr, "Successes per window",
               "At most this many successful attempts per window (null capacity, or 0: unlimited).", true}
         .In(kCapacityGroup),
     [](const StormOptions& o) { return Or(o.capacity).per_window; },
     [](StormOptions& o, int64_t v) {
       o.capacity = Or(o.capacity);
       o.capacity->per_window = v;
     }},
    {FieldSpec{"capacity.windowMs", FieldKind::kInteger, &kStormWindowMsField, nullptr, "Window (ms)",
               "The capacity's fixed window.", true}
         .In(kCapacityGroup),
     [](const StormOptions& o) { return Or(o.capacity).window_ms; },
     [](StormOptions& o, int64_t v) {
       o.capacity = Or(o.capacity);
       o.capacity->window_ms = v;
     }},
    {FieldSpec{"arrival.clients", FieldKind::kInteger, &kStormClientsField, nullptr, "Clients",
               "Closed loop: clients that each send their next job once the previous one is over (closed only)."}
         .In(kArrivalGroup, "closed")
         .Hinted("closed loop: each sends its next job once the last is over"),
     [](const StormOptions& o) { return o.arrival.clients; },
     [](StormOptions& o, int64_t v) { o.arrival.clients = v; }},
    {FieldSpec{"failurePerMillion", FieldKind::kInteger, &kStormFailureField, nullptr, "Failures per million attempts",
               "Each attempt outside the outage fails with this probability, in millionths (a seeded draw)."}
         .Hinted("Outside the outage each attempt fails with this chance, seeded: 50000 is 5%. Blank or 0: none."),
     [](const StormOptions& o) { return o.failure_per_million; },
     [](StormOptions& o, int64_t v) { o.failure_per_million = v; }},
    {FieldSpec{"budget.kind", FieldKind::kChoice, nullptr, &BudgetKindChoices(), "Retry budget",
               "Who may refuse a retry: gRPC's token bucket, the AWS SDKs' retry quota or Finagle's RetryBudget (null: "
               "none).",
               true}
         .In(kBudgetGroup),
     [](const StormOptions& o) -> int64_t { return static_cast<int64_t>(Or(o.budget).kind); },
     [](StormOptions& o, int64_t v) {
       o.budget = Or(o.budget);
       o.budget->kind = static_cast<BudgetKind>(v);
     }},
    {FieldSpec{"budget.maxTokens", FieldKind::kInteger, &kBudgetMaxTokensField, nullptr, "Max tokens",
               "gRPC: the bucket's size; retries stop at half of it."}
         .In(kBudgetGroup),
     [](const StormOptions& o) { return Or(o.budget).max_tokens; },
     [](StormOptions& o, int64_t v) {
       o.budget = Or(o.budget);
       o.budget->max_tokens = v;
     }},
    {FieldSpec{"budget.tokenRatioPerMille", FieldKind::kInteger, &kBudgetTokenRatioField, nullptr,
               "Token ratio (thousandths)", "gRPC: what a success gives back, in thousandths of a token (100: 0.1)."}
         .In(kBudgetGroup),
     [](const StormOptions& o) { return Or(o.budget).token_ratio_per_mille; },
     [](StormOptions& o, int64_t v) {
       o.budget = Or(o.budget);
       o.budget->token_ratio_per_mille = v;
     }},
    {FieldSpec{"budget.percent", FieldKind::kInteger, &kBudgetPercentField, nullptr, "Retry percent",
               "Finagle: retries allowed as a percentage of recent requests."}
         .In(kBudgetGroup),
     [](const StormOptions& o) { return Or(o.budget).percent; },
     [](StormOptions& o, int64_t v) {
       o.budget = Or(o.budget);
       o.budget->percent = v;
     }},
    {FieldSpec{"budget.minPerSecond", FieldKind::kInteger, &kBudgetMinPerSecondField, nullptr,
               "Retries per second floor", "Finagle: retries always allowed per second of the window."}
         .In(kBudgetGroup),
     [](const StormOptions& o) { return Or(o.budget).min_per_second; },
     [](StormOptions& o, int64_t v) {
       o.budget = Or(o.budget);
       o.budget->min_per_second = v;
     }},
    {FieldSpec{"budget.windowMs", FieldKind::kInteger, &kBudgetWindowMsField, nullptr, "Budget window (ms)",
               "Finagle: how long a request's deposit counts (a multiple of 10)."}
         .In(kBudgetGroup),
     [](const StormOptions& o) { return Or(o.budget).window_ms; },
     [](StormOptions& o, int64_t v) {
       o.budget = Or(o.budget);
       o.budget->window_ms = v;
     }},
    {{"refusedRetry", FieldKind::kChoice, nullptr, &kRefusedChoices, "A refused retry",
      "What a retry the budget refuses does to its job."},
     [](const StormOptions& o) -> int64_t { return static_cast<int64_t>(o.refused_retry); },
     [](StormOptions& o, int64_t v) { o.refused_retry = static_cast<RefusedRetry>(v); }},
    {FieldSpec{
         "server.capacityPerSecond", FieldKind::kInteger, &kStormServerRateField, nullptr,
         "Server capacity (attempts per s)",
         "The server takes up at most this many attempts a second; the rest wait in its queue (null server: none).",
         true}
         .In(kServerGroup),
     [](const StormOptions& o) { return Or(o.server).per_second; },
     [](StormOptions& o, int64_t v) {
       o.server = Or(o.server);
       o.server->per_second = v;
     }},
    {FieldSpec{"server.timeoutMs", FieldKind::kInteger, &kStormServerTimeoutField, nullptr, "Client timeout (ms)",
               "A client gives up on an attempt after this long; the server still does the work.", true}
         .In(kServerGroup),
     [](const StormOptions& o) { return Or(o.server).timeout_ms; },
     [](StormOptions& o, int64_t v) {
       o.server = Or(o.server);
       o.server->timeout_ms = v;
     }},
    {FieldSpec{"server.dropStartMs", FieldKind::kInteger, &kStormServerDropStartField, nullptr,
               "Capacity drop from (ms)", "The trigger: the server's capacity drops at this time."}
         .In(kServerGroup),
     [](const StormOptions& o) { return Or(o.server).drop_start_ms; },
     [](StormOptions& o, int64_t v) {
       o.server = Or(o.server);
       o.server->drop_start_ms = v;
     }},
    {FieldSpec{"server.dropMs", FieldKind::kInteger, &kStormServerDropField, nullptr, "Drop length (ms)",
               "How long the drop lasts (0: none)."}
         .In(kServerGroup),
     [](const StormOptions& o) { return Or(o.server).drop_ms; },
     [](StormOptions& o, int64_t v) {
       o.server = Or(o.server);
       o.server->drop_ms = v;
     }},
    {FieldSpec{"server.dropPerSecond", FieldKind::kInteger, &kStormServerDropRateField, nullptr,
               "Capacity in the drop (per s)", "Attempts a second the server takes up during the drop."}
         .In(kServerGroup),
     [](const StormOptions& o) { return Or(o.server).drop_per_second; },
     [](StormOptions& o, int64_t v) {
       o.server = Or(o.server);
       o.server->drop_per_second = v;
     }},
    {{"workers", FieldKind::kInteger, &kStormWorkersField, nullptr, "Workers", "How many attempts run at once."},
     [](const StormOptions& o) { return o.workers; },
     [](StormOptions& o, int64_t v) { o.workers = v; }},
    {{"workMs", FieldKind::kInteger, &kStormWorkMsField, nullptr, "Work time (ms)",
      "How long one attempt takes; below the lease."},
     [](const StormOptions& o) { return o.work_ms; },
     [](StormOptions& o, int64_t v) { o.work_ms = v; }},
    {{"leaseMs", FieldKind::kInteger, &kLeaseMsField, nullptr, "Lease time (ms)",
      "How long a lease lasts, as a queue's."},
     [](const StormOptions& o) { return o.lease_ms; },
     [](StormOptions& o, int64_t v) { o.lease_ms = v; }},
    {{"maxAttempts", FieldKind::kInteger, &kMaxAttemptsField, nullptr, "Max attempts",
      "Total attempts a job gets, as a queue's.", true},
     [](const StormOptions& o) { return o.max_attempts; },
     [](StormOptions& o, int64_t v) { o.max_attempts = v; }},
    {{"seed", FieldKind::kInteger, &kSeedField, nullptr, "Seed", "Seeds the storm's jitter, so a run repeats exactly."},
     [](const StormOptions& o) { return o.seed; },
     [](StormOptions& o, int64_t v) { o.seed = v; }},
    {{"bucketMs", FieldKind::kInteger, &kStormBucketMsField, nullptr, "Bucket (ms)",
      "The series' bucket width; 0 chooses it after the run."},
     [](const StormOptions& o) { return o.bucket_ms; },
     [](StormOptions& o, int64_t v) { o.bucket_ms = v; }},
};

}  // namespace

std::span<const Field<StormOptions>> StormFields() { return kStormFields; }

const char* ArrivalKindName(ArrivalKind kind) { return kArrivalChoices.Name(static_cast<int>(kind)); }

const char* RefusedRetryName(RefusedRetry refused) { return kRefusedChoices.Name(static_cast<int>(refused)); }

Result<ArrivalKind> ParseArrivalKind(std::string_view text) {
  Result<int> index = kArrivalChoices.Parse(text, "arrival.kind");
  if (!index.ok()) return index.status();
  return static_cast<ArrivalKind>(index.value());
}

Policy StormPolicy(const StormOptions& o) {
  Policy p;
  p.max_attempts = o.max_attempts;
  p.backoff = o.backoff;
  p.lease_ms = o.lease_ms;
  p.seed = o.seed;
  p.journal = false;
  return p;
}

Status CheckStormOptions(const StormOptions& o) {
  RETURN_IF_ERROR(kStormJobsField.Check(o.jobs));
  if (static_cast<int>(o.arrival.kind) >= kArrivalChoices.count) {
    return Status::InvalidArgument("arrival.kind must be one of \"burst\", \"rate\", \"closed\", got " +
                                   std::to_string(static_cast<int>(o.arrival.kind)));
  }
  if (o.arrival.kind == ArrivalKind::kRate) {
    RETURN_IF_ERROR(kStormPerSecondField.Check(o.arrival.per_second));
  }
  // Checked whatever the kind (a closed loop reads it), as a group's fields are.
  RETURN_IF_ERROR(kStormClientsField.Check(o.arrival.clients));
  RETURN_IF_ERROR(kStormFailureField.Check(o.failure_per_million));
  if (o.budget) {
    RETURN_IF_ERROR(CheckBudget(*o.budget));
  }
  if (static_cast<int>(o.refused_retry) >= kRefusedChoices.count) {
    return Status::InvalidArgument("refusedRetry must be one of \"quarantine\", \"fail\", got " +
                                   std::to_string(static_cast<int>(o.refused_retry)));
  }
  if (o.server) {
    RETURN_IF_ERROR(kStormServerRateField.Check(o.server->per_second));
    RETURN_IF_ERROR(kStormServerTimeoutField.Check(o.server->timeout_ms));
    RETURN_IF_ERROR(kStormServerDropStartField.Check(o.server->drop_start_ms));
    RETURN_IF_ERROR(kStormServerDropField.Check(o.server->drop_ms));
    RETURN_IF_ERROR(kStormServerDropRateField.Check(o.server->drop_per_second));
  }
  if (o.outage) {
    RETURN_IF_ERROR(kStormOutageStartField.Check(o.outage->start_ms));
    RETURN_IF_ERROR(kStormOutageDurationField.Check(o.outage->duration_ms));
  }
  if (o.capacity) {
    RETURN_IF_ERROR(kStormPerWindowField.Check(o.capacity->per_window));
    RETURN_IF_ERROR(kStormWindowMsField.Check(o.capacity->window_ms));
  }
  RETURN_IF_ERROR(kStormWorkersField.Check(o.workers));
  RETURN_IF_ERROR(kStormWorkMsField.Check(o.work_ms));
  RETURN_IF_ERROR(Policy::Check(StormPolicy(o)));
  if (o.lease_ms <= o.work_ms) {
    // A lease that ran out before its work finished would be a crash, and a storm has none.
    return Status::OutOfRange("leaseMs must be an integer from workMs + 1 (" + std::to_string(o.work_ms + 1) + ") to " +
                              std::to_string(kLeaseMsField.max) + " (an attempt ends before its lease), got " +
                              std::to_string(o.lease_ms));
  }
  RETURN_IF_ERROR(kStormBucketMsField.Check(o.bucket_ms));
  return Status::Ok();
}

}  // namespace dlq
