#include "storm.h"

#include <algorithm>
#include <string>

#include "rules.h"
#include "text.h"
#include "timers.h"

namespace dlq {

namespace {

constexpr int64_t kNotYetArrived = INT64_MAX;  // a closed-loop job's arrival time before a client sends it

// Adds one to a series count, stopping at 2^32 - 1.
inline void Bump(uint32_t& count) { count += count != UINT32_MAX ? 1u : 0u; }

inline uint32_t SaturatedSum(uint64_t sum) { return sum > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(sum); }

// The first set bit of `bits` at or after `from`, below `end`; or `end`.
size_t NextSetBit(const std::vector<uint64_t>& bits, size_t from, size_t end) {
  while (from < end) {
    const uint64_t word = bits[from >> 6] >> (from & 63);
    if (word != 0) return std::min(end, from + static_cast<size_t>(__builtin_ctzll(word)));
    from = (from | 63) + 1;
  }
  return end;
}

size_t RoundUpToPowerOfTwo(size_t n) {
  size_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

}  // namespace

namespace {

// The chunks a wheel can need at once: every delayed job in a full chunk, plus a
// part-filled tail chunk per slot, plus a chunk being read (its jobs already moved on).
size_t ChunksFor(size_t jobs, size_t level1_slots, size_t per_chunk, size_t level0_slots) {
  return jobs / per_chunk + level0_slots + level1_slots + 2;
}

}  // namespace

Storm::Storm(const StormOptions& options)
    : options_(options),
      policy_(StormPolicy(options)),
      decide_(policy_),
      jitter_(static_cast<uint64_t>(options.seed), PrngStream::kJitter),
      failure_(static_cast<uint64_t>(options.seed), PrngStream::kStormFailure) {
  if (options.budget) budget_ = MakeBudget(*options.budget);
  if (options.server) server_.emplace(*options.server);
  if (options.outage) {
    outage_start_ = options.outage->start_ms;
    outage_end_ = options.outage->start_ms + options.outage->duration_ms;
  }
  jobs_ = static_cast<size_t>(options.jobs);
  ready_.resize(jobs_);
  flight_.resize(std::min<size_t>(jobs_, static_cast<size_t>(options.workers)));
  level0_.assign(kBlockSlots, Slot{});
  level0_bits_.assign(kBlockSlots / 64, 0);
  const size_t blocks = Level1Slots(options);
  level1_.assign(blocks, Slot{});
  level1_bits_.assign((blocks + 63) / 64, 0);
  level1_mask_ = static_cast<uint32_t>(blocks - 1);
  // Every chunk on the free list, lowest first.
  chunks_.resize(ChunksFor(jobs_, blocks, kChunkJobs, kBlockSlots));
  for (size_t i = 0; i < chunks_.size(); ++i) {
    chunks_[i].next = i + 1 < chunks_.size() ? static_cast<uint32_t>(i + 1) : kNone;
    chunks_[i].count = 0;
  }
  free_chunk_ = 0;
  auto_width_ = options.bucket_ms == 0;
  cell_ms_ = auto_width_ ? 10 : options.bucket_ms;
  // Auto: ten cells per bucket of the finest width that could still be chosen.
  max_cells_ = auto_width_ ? 10 * kStormAutoBuckets : kMaxStormBuckets;
  for (auto& cells : cell_counts_) cells.reserve(max_cells_);
  for (auto& cells : cell_depths_) cells.reserve(max_cells_);
  CellOf(0);
}

size_t Storm::Level1Slots(const StormOptions& options) {
  // A delay of d ms sets a due time at most (d >> kBlockBits) + 1 blocks ahead; the
  // ring has room for that and the current block, so no two pending blocks share a slot.
  const int64_t max_delay =
      options.backoff.kind == BackoffKind::kNone ? 0 : std::max(options.backoff.base_ms, options.backoff.cap_ms);
  return RoundUpToPowerOfTwo(static_cast<size_t>(max_delay >> kBlockBits) + 2);
}

dlq::Result<Storm> Storm::Create(const StormOptions& options) {
  RETURN_IF_ERROR(CheckStormOptions(options));
  const auto n = static_cast<size_t>(options.jobs);
  const size_t blocks = Level1Slots(options);
  const size_t cells = options.bucket_ms == 0 ? 10 * kStormAutoBuckets : kMaxStormBuckets;
  // Everything a storm keeps, allocated once here: no event allocates.
  const size_t bytes =
      n * sizeof(Job) + std::min<size_t>(n, static_cast<size_t>(options.workers)) * sizeof(Flight) +
      (kBlockSlots + blocks) * (sizeof(Slot) + 1) + ChunksFor(n, blocks, kChunkJobs, kBlockSlots) * sizeof(Chunk) +
      (cells + kStormAutoBuckets) * kCellSeries * sizeof(uint32_t) + sizeof(Storm) + 256;  // + the budget
  RETURN_IF_ERROR(HeapBudget::CheckRoom(bytes, "createStorm"));
  Storm storm(options);
  storm.charge_.Add(bytes);
  return storm;
}

int64_t Storm::ArrivalTime(uint64_t job) const {
  if (options_.arrival.kind == ArrivalKind::kBurst) return 0;
  // Closed loop: each client's first job at 0; the rest are sent by EndJob().
  if (options_.arrival.kind == ArrivalKind::kClosed)
    return job < static_cast<uint64_t>(options_.arrival.clients) ? 0 : kNotYetArrived;
  // job < 10^6, so job * 1000 is exact: integer ms, evenly spaced.
  return static_cast<int64_t>(job) * 1000 / options_.arrival.per_second;
}

uint32_t Storm::CellOf(int64_t time) {
  // In 64 bits until it is known to fit (size_t is 32 bits in WebAssembly).
  while (time / cell_ms_ >= static_cast<int64_t>(max_cells_)) Coarsen();
  const auto cell = static_cast<size_t>(time / cell_ms_);
  if (cell >= cell_counts_[0].size()) {
    for (auto& cells : cell_counts_) cells.resize(cell + 1, 0);
    for (auto& cells : cell_depths_) cells.resize(cell + 1, 0);
  }
  return static_cast<uint32_t>(cell);
}

void Storm::Coarsen() {
  // Auto widths are 1, 2 or 5 times a power of ten from 10 ms: cells of a power
  // of ten merge by ten into cells every larger candidate is a multiple of. A
  // width given stays a divisor of the new one when doubled.
  const size_t factor = auto_width_ ? 10 : 2;
  const size_t old_size = cell_counts_[0].size();
  const size_t new_size = (old_size + factor - 1) / factor;
  for (auto& cells : cell_counts_) {
    for (size_t i = 0; i < new_size; ++i) {
      uint64_t sum = 0;
      for (size_t k = i * factor; k < std::min(old_size, (i + 1) * factor); ++k) sum += cells[k];
      cells[i] = SaturatedSum(sum);
    }
    cells.resize(new_size);
  }
  // A merged cell ends where its last cell ended: its depths are that cell's, when sampled.
  const size_t sampled = sampled_ / factor;
  for (auto& cells : cell_depths_) {
    for (size_t i = 0; i < sampled; ++i) cells[i] = cells[(i + 1) * factor - 1];
    cells.resize(new_size);
  }
  sampled_ = sampled;
  cell_ms_ *= static_cast<int64_t>(factor);
}

void Storm::SampleDepths(size_t cell) {
  cell_depths_[kReady][cell] = static_cast<uint32_t>(ready_size_);
  cell_depths_[kDelayed][cell] = static_cast<uint32_t>(delayed_);
  cell_depths_[kInFlight][cell] = static_cast<uint32_t>(flight_size_);
  cell_depths_[kQuarantine][cell] = static_cast<uint32_t>(quarantined_);
  const int64_t cell_end = (static_cast<int64_t>(cell) + 1) * cell_ms_ - 1;
  cell_depths_[kServerQueue][cell] = server_ ? SaturatedSum(server_->Backlog(cell_end)) : 0;
}

void Storm::Append(std::vector<Slot>& level, std::vector<uint64_t>& bits, size_t slot, Job job) {
  Slot& s = level[slot];
  if (s.tail == kNone || chunks_[s.tail].count == kChunkJobs) {
    const uint32_t fresh = free_chunk_;  // the pool is sized so that it never runs dry
    free_chunk_ = chunks_[fresh].next;
    chunks_[fresh].next = kNone;
    chunks_[fresh].count = 0;
    if (s.tail == kNone) {
      s.head = fresh;
      bits[slot >> 6] |= uint64_t{1} << (slot & 63);
    } else {
      chunks_[s.tail].next = fresh;
    }
    s.tail = fresh;
  }
  Chunk& tail = chunks_[s.tail];
  tail.jobs[tail.count++] = job;
}

void Storm::SetTimer(Job job, int64_t due) {
  ++delayed_;
  if ((due >> kBlockBits) == (now_ >> kBlockBits)) {
    Append(level0_, level0_bits_, static_cast<size_t>(due) & (kBlockSlots - 1), job);
  } else {
    job.attempts |= (static_cast<uint32_t>(due) & (kBlockSlots - 1)) << kAttemptBits;
    Append(level1_, level1_bits_, static_cast<size_t>(due >> kBlockBits) & level1_mask_, job);
  }
}

int64_t Storm::NextTime() const {
  int64_t best = -1;
  const auto consider = [&best](int64_t t) {
    if (best < 0 || t < best) best = t;
  };
  if (flight_size_ > 0) consider(flight_[flight_head_].finish);
  if (arrived_ < jobs_ && ArrivalTime(arrived_) != kNotYetArrived) consider(ArrivalTime(arrived_));
  if (delayed_ > 0) {
    const int64_t block = now_ >> kBlockBits;
    const size_t in_block = NextSetBit(level0_bits_, static_cast<size_t>(now_) & (kBlockSlots - 1), kBlockSlots);
    if (in_block < kBlockSlots) {
      consider((block << kBlockBits) + static_cast<int64_t>(in_block));
    } else {
      // The next block with timers: moving the clock to its start moves them to level 0.
      const size_t ring = level1_.size();
      const size_t from = static_cast<size_t>(block + 1) & level1_mask_;
      size_t found = NextSetBit(level1_bits_, from, ring);
      size_t ahead = found - from;
      if (found == ring) {
        found = NextSetBit(level1_bits_, 0, from);
        ahead = ring - from + found;
      }
      if (found < ring) consider((block + 1 + static_cast<int64_t>(ahead)) << kBlockBits);
    }
  }
  return best;
}

void Storm::MoveClock(int64_t time) {
  const size_t cell = CellOf(time);
  // Cells that end at or before `time` are over: sample them as things stand.
  for (; sampled_ < cell; ++sampled_) SampleDepths(sampled_);
  const int64_t block = time >> kBlockBits;
  const bool new_block = block != (now_ >> kBlockBits);
  now_ = time;
  if (!new_block) return;
  // Entering a block: its level-1 slot joins level 0 in order, before any timer is set in it.
  const size_t slot = static_cast<size_t>(block) & level1_mask_;
  Slot& s = level1_[slot];
  if (s.head == kNone) return;
  level1_bits_[slot >> 6] &= ~(uint64_t{1} << (slot & 63));
  for (uint32_t chunk = s.head; chunk != kNone;) {
    Chunk& c = chunks_[chunk];
    for (uint32_t i = 0; i < c.count; ++i) {
      Job job = c.jobs[i];
      const uint32_t low = job.attempts >> kAttemptBits;
      job.attempts &= (1u << kAttemptBits) - 1;
      Append(level0_, level0_bits_, low, job);
    }
    const uint32_t next = c.next;
    c.next = free_chunk_;  // read whole: back to the pool
    free_chunk_ = chunk;
    chunk = next;
  }
  s = Slot{};
}

void Storm::EndJob() {
  drain_ms_ = now_;
  if (options_.arrival.kind == ArrivalKind::kClosed && arrived_ < jobs_) {
    ++arrived_;
    PushReady(Job{0, 0});
  }
}

void Storm::Settle(Job job, bool timed_out) {
  const size_t cell = static_cast<size_t>(now_ / cell_ms_);
  CellCount result = kSuccess;
  if (timed_out) {
    result = kTimedOut;
  } else if (now_ >= outage_start_ && now_ < outage_end_) {
    result = kOutage;
  } else if (options_.failure_per_million > 0 &&
             failure_.Below(1'000'000) < static_cast<uint32_t>(options_.failure_per_million)) {
    result = kFailed;
  } else if (options_.capacity && options_.capacity->per_window > 0) {
    const int64_t window = now_ / options_.capacity->window_ms;
    if (window != window_) {
      window_ = window;
      window_successes_ = 0;
    }
    if (window_successes_ < options_.capacity->per_window) {
      ++window_successes_;
    } else {
      result = kThrottled;
    }
  }
  Bump(cell_counts_[result][cell]);
  if (job.attempts >= 2) Bump(cell_counts_[kRetries][cell]);
  switch (result) {
    case kSuccess: ++successes_; break;
    case kOutage: ++outage_failures_; break;
    case kThrottled: ++throttled_; break;
    case kFailed: ++random_failures_; break;
    default: ++timed_out_; break;
  }
  if (result != kSuccess) ++failures_;
  if (budget_) budget_->OnAnswer(now_, result == kSuccess, job.attempts >= 2);
  const std::optional<FailureClass> failure =
      result == kSuccess ? std::nullopt : std::optional<FailureClass>(FailureClass::kTransient);
  const Decision d = Decide(policy_, decide_, failure, job.attempts, job.last_delay, jitter_);
  const bool retry = d.disposition == Disposition::kRequeued || d.disposition == Disposition::kDelayed;
  if (retry && budget_ && !budget_->TryRetry(now_)) {
    ++retries_denied_;
    Bump(cell_counts_[kDenied][cell]);
    if (options_.refused_retry == RefusedRetry::kQuarantine) {
      ++quarantined_;
      ++quarantined_by_budget_;
    } else {
      ++failed_jobs_;
    }
    EndJob();
    return;
  }
  switch (d.disposition) {
    case Disposition::kCompleted:
      ++completed_;
      Bump(cell_counts_[kCompleted][cell]);
      EndJob();
      break;
    case Disposition::kQuarantined:
    case Disposition::kDiscarded:  // not reached: Decide never discards (the queue does, without a DLX)
      ++quarantined_;
      EndJob();
      break;
    case Disposition::kRequeued:
      job.last_delay = 0;
      PushReady(job);
      break;
    case Disposition::kDelayed:
      job.last_delay = static_cast<uint32_t>(d.delay_ms);  // at most a day
      SetTimer(job, Later(now_, d.delay_ms));
      break;
  }
}

bool Storm::MoveDue(uint64_t* budget) {  // delayed jobs due now join the ready tail, in the order set
  const size_t slot = static_cast<size_t>(now_) & (kBlockSlots - 1);
  Slot& s = level0_[slot];
  while (s.head != kNone) {
    Chunk& c = chunks_[s.head];
    while (due_read_ < c.count) {
      if (*budget == 0) return false;
      --*budget;
      ++events_;
      --delayed_;
      PushReady(c.jobs[due_read_++]);
    }
    const uint32_t next = c.next;
    c.next = free_chunk_;
    free_chunk_ = s.head;
    s.head = next;
    due_read_ = 0;
  }
  s.tail = kNone;
  level0_bits_[slot >> 6] &= ~(uint64_t{1} << (slot & 63));
  return true;
}

bool Storm::Arrive(uint64_t* budget) {
  while (arrived_ < jobs_ && ArrivalTime(arrived_) <= now_) {
    if (*budget == 0) return false;
    --*budget;
    ++events_;
    ++arrived_;
    PushReady(Job{0, 0});
  }
  return true;
}

bool Storm::SettleFinished(uint64_t* budget) {  // attempts finishing now, in the order they started
  while (flight_size_ > 0 && flight_[flight_head_].finish == now_) {
    if (*budget == 0) return false;
    --*budget;
    ++events_;
    const Flight flight = flight_[flight_head_];
    if (++flight_head_ == flight_.size()) flight_head_ = 0;
    --flight_size_;
    Settle(flight.job, flight.timed_out);
  }
  return true;
}

bool Storm::LeaseReady(uint64_t* budget) {  // free workers take the ready head; the attempt counts now
  const auto workers = static_cast<size_t>(options_.workers);
  while (flight_size_ < workers && ready_size_ > 0) {
    if (*budget == 0) return false;
    --*budget;
    ++events_;
    Job job = ready_[ready_head_];
    if (++ready_head_ == ready_.size()) ready_head_ = 0;
    --ready_size_;
    StartAttempt(job);
  }
  return true;
}

void Storm::StartAttempt(Job job) {
  ++job.attempts;
  if (budget_ && job.attempts == 1) budget_->OnRequest(now_);
  // Without a server the work starts now; with one, when the server takes it up. Either
  // way attempts are decided in start order: take-ups are in send order, and the
  // timeout is the same for all.
  int64_t finish = Later(now_, options_.work_ms);
  bool timed_out = false;
  if (server_) {
    const int64_t answer = Later(server_->TakeUp(now_), options_.work_ms);
    const int64_t give_up = Later(now_, options_.server->timeout_ms);
    timed_out = answer > give_up;
    finish = timed_out ? give_up : answer;
  }
  size_t tail = flight_head_ + flight_size_;
  if (tail >= flight_.size()) tail -= flight_.size();
  flight_[tail] = {job, finish, timed_out};
  ++flight_size_;
}

bool Storm::Run(uint64_t max_events) {
  uint64_t budget = max_events;
  while (phase_ != Phase::kDone) {
    switch (phase_) {
      case Phase::kDue:
        if (!MoveDue(&budget)) return false;
        phase_ = Phase::kArrive;
        [[fallthrough]];
      case Phase::kArrive:
        if (!Arrive(&budget)) return false;
        phase_ = Phase::kSettle;
        [[fallthrough]];
      case Phase::kSettle:
        if (!SettleFinished(&budget)) return false;
        phase_ = Phase::kLease;
        [[fallthrough]];
      case Phase::kLease:
        if (!LeaseReady(&budget)) return false;
        phase_ = Phase::kNext;
        [[fallthrough]];
      case Phase::kNext: {
        const int64_t next = NextTime();
        if (next < 0) {
          phase_ = Phase::kDone;
          break;
        }
        MoveClock(next);
        phase_ = Phase::kDue;
        break;
      }
      case Phase::kDone: break;
    }
  }
  return true;
}

double Storm::Progress() const {
  return static_cast<double>(completed_ + quarantined_ + failed_jobs_) / static_cast<double>(jobs_);
}

void Storm::Finalize(int64_t end, StormResult* out) const {
  out->finished = finished();
  StormSummary& s = out->summary;
  s.jobs = jobs_;
  s.successes = successes_;
  s.outage_failures = outage_failures_;
  s.throttled = throttled_;
  s.random_failures = random_failures_;
  s.timed_out = timed_out_;
  s.failures = failures_;
  s.attempts = s.successes + s.failures;
  s.wasted_attempts = s.failures;
  s.retries_denied = retries_denied_;
  s.completed = completed_;
  s.quarantined = quarantined_;
  s.quarantined_by_budget = quarantined_by_budget_;
  s.failed_jobs = failed_jobs_;
  s.goodput = drain_ms_ > 0 ? static_cast<double>(completed_) * 1000.0 / static_cast<double>(drain_ms_) : 0;
  s.amplification = static_cast<double>(s.attempts) / static_cast<double>(jobs_);
  s.drain_ms = drain_ms_;
  s.worst_case = WorstCasePath(policy_);

  FillSeries(end, BucketWidth(end), out);
}

int64_t Storm::BucketWidth(int64_t end) const {
  // The width: the one given (or the doubling it took), or the smallest candidate
  // (1, 2, 5 x 10^k from 10 ms, a multiple of the cells) that fits the run.
  if (!auto_width_) return cell_ms_;
  for (int64_t decade = 10;; decade *= 10) {
    for (const int64_t m : {1, 2, 5}) {
      const int64_t w = m * decade;
      if (w >= cell_ms_ && w % cell_ms_ == 0 && static_cast<uint64_t>(end / w) + 1 <= kStormAutoBuckets) return w;
    }
  }
}

void Storm::FillSeries(int64_t end, int64_t width, StormResult* out) const {
  StormSummary& s = out->summary;
  const auto merge = static_cast<size_t>(width / cell_ms_);
  const size_t cells = static_cast<size_t>(end / cell_ms_) + 1;
  const size_t length = static_cast<size_t>(end / width) + 1;
  StormSeries& series = out->series;
  series.bucket_ms = width;
  std::vector<uint32_t>* counts[kCountSeries] = {&series.success, &series.outage,    &series.throttled, &series.retries,
                                                 &series.failed,  &series.timed_out, &series.completed, &series.denied};
  std::vector<uint32_t>* depths[kDepthSeries] = {&series.ready, &series.delayed, &series.in_flight, &series.quarantine,
                                                 &series.server_queue};
  const uint32_t now_depths[kDepthSeries] = {static_cast<uint32_t>(ready_size_), static_cast<uint32_t>(delayed_),
                                             static_cast<uint32_t>(flight_size_), static_cast<uint32_t>(quarantined_),
                                             server_ ? SaturatedSum(server_->Backlog(now_)) : 0};
  for (int k = 0; k < kCountSeries; ++k) {
    std::vector<uint32_t>& c = *counts[k];
    c.assign(length, 0);
    for (size_t b = 0; b < length; ++b) {
      uint64_t sum = 0;
      for (size_t i = b * merge; i < std::min(cells, (b + 1) * merge); ++i) sum += cell_counts_[k][i];
      c[b] = SaturatedSum(sum);
    }
  }
  for (int k = 0; k < kDepthSeries; ++k) {
    std::vector<uint32_t>& d = *depths[k];
    d.assign(length, 0);
    for (size_t b = 0; b < length; ++b) {
      // A bucket ends where its last cell ends; one that ends after `end` has the depths now.
      const size_t last = (b + 1) * merge - 1;
      d[b] = last < sampled_ ? cell_depths_[k][last] : now_depths[k];
    }
  }
  s.peak_retry_rate = 0;
  s.peak_rate_after_recovery = 0;
  for (size_t b = 0; b < length; ++b) {
    const double per_second = 1000.0 / static_cast<double>(width);
    s.peak_retry_rate = std::max(s.peak_retry_rate, series.retries[b] * per_second);
    if (static_cast<int64_t>(b) * width >= outage_end_) {
      const uint64_t attempts =
          uint64_t{series.success[b]} + series.outage[b] + series.throttled[b] + series.failed[b] + series.timed_out[b];
      s.peak_rate_after_recovery = std::max(s.peak_rate_after_recovery, static_cast<double>(attempts) * per_second);
    }
  }
}

const StormResult& Storm::Result() {
  // Built once when finished; before that, each call shows the storm as it is now.
  if (!result_.finished) Finalize(finished() ? drain_ms_ : now_, &result_);
  return result_;
}

Result<StormResult> RunStorm(const StormOptions& options) {
  dlq::Result<Storm> storm = Storm::Create(options);
  if (!storm.ok()) return storm.status();
  storm->Run(UINT64_MAX);
  return storm->Result();
}

const std::vector<uint32_t>& StormSeries::Drawn(size_t which) const {
  const std::vector<uint32_t>* drawn[] = {&success,    &outage, &throttled, &ready,     &delayed, &in_flight,
                                          &quarantine, &failed, &timed_out, &completed, &denied,  &server_queue};
  static_assert(std::size(drawn) == kStormSeriesCount);
  return *drawn[std::min(which, kStormSeriesCount - 1)];
}

Result<StormSet> StormSet::Create(std::vector<StormOptions> runs, size_t* refused) {
  for (size_t i = 0; i < runs.size(); ++i) {
    if (Status s = CheckStormOptions(runs[i]); !s.ok()) {
      if (refused != nullptr) *refused = i;
      return s;
    }
  }
  return StormSet(std::move(runs));
}

Result<bool> StormSet::Run(uint64_t max_events) {
  while (current() < runs_.size()) {
    if (!running_) {
      StormOptions options = runs_[current()];
      if (current() > 0) options.bucket_ms = results_.front().series.bucket_ms;
      Result<Storm> made = Storm::Create(options);
      if (!made.ok()) return made.status();
      running_.emplace(std::move(made.value()));
    }
    if (!running_->Run(max_events)) return false;
    results_.push_back(running_->Result());
    running_.reset();
    if (max_events != UINT64_MAX) return current() == runs_.size();
  }
  return true;
}

Result<StormCost> EstimateStormCost(const StormOptions& o) {
  RETURN_IF_ERROR(CheckStormOptions(o));
  StormCost cost;
  // jobs and maxAttempts are at most 10^6 each (their fields' ranges): no overflow.
  cost.attempts = static_cast<uint64_t>(o.jobs) * static_cast<uint64_t>(o.max_attempts);
  // Failures that outlast the outage, a server's queue, and clients that send on answers leave the time open.
  if ((o.capacity && o.capacity->per_window > 0) || o.failure_per_million > 0 || o.server ||
      o.arrival.kind == ArrivalKind::kClosed) {
    return cost;
  }
  const int64_t outage_end = o.outage ? o.outage->start_ms + o.outage->duration_ms : 0;
  const int64_t last_arrival = o.arrival.kind == ArrivalKind::kRate ? (o.jobs - 1) * 1000 / o.arrival.per_second : 0;
  const int64_t longest_delay =
      o.backoff.kind == BackoffKind::kNone ? 0 : std::max(o.backoff.base_ms, o.backoff.cap_ms);
  const int64_t rounds = (o.jobs + o.workers - 1) / o.workers;
  // At most 2 days + 10^9 ms + 1 day + a day × 10^6: far inside int64.
  const int64_t horizon = std::max(outage_end, last_arrival) + longest_delay + o.work_ms * (rounds + 1);
  cost.horizon_ms = horizon;
  const uint64_t by_time = static_cast<uint64_t>(o.workers) * static_cast<uint64_t>(horizon / o.work_ms + 1);
  cost.attempts = std::min(cost.attempts, by_time);
  return cost;
}

}  // namespace dlq
