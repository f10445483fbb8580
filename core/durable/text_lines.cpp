#include "text_lines.h"

#include <charconv>
#include <limits>

#include "crc32.h"
#include "link_text.h"
#include "schema.h"
#include "registry.h"
#include "size_limits.h"
#include "text.h"

namespace dlq::durable::text_lines {

const char* LeaseStateName(LeaseState s) {
  switch (s) {
    case LeaseState::kActive: return "active";
    case LeaseState::kSettled: return "settled";
    case LeaseState::kExpired: return "expired";
  }
  return "?";
}

const char* FateName(Fate f) {
  switch (f) {
    case Fate::kLive: return "live";
    case Fate::kDropped: return "dropped";
    case Fate::kLost: return "lost";
    case Fate::kDiscarded: return "discarded";
  }
  return "?";
}

std::string Hex8(uint32_t v) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out(8, '0');
  for (int i = 7; i >= 0; --i, v >>= 4) out[static_cast<size_t>(i)] = kDigits[v & 0xF];
  return out;
}

void PutRow(Out& o, const JobRow& r) {
  o.U(r.attempts).I(r.first_attempt_at).I(r.last_delay);
  o.Word(r.reason == Reason::kNone ? "-" : ReasonName(r.reason));
  o.Word(ClassName(r.failure_class)).B(r.alert).U(r.last_error).U(r.quarantine_step).I(r.arrived_at);
  // The modes' own fields, each only when set (so every lab row is as it was written).
  if (r.stalls != 0) o.Word("stalls").U(r.stalls);
  if (r.enqueued_at != 0) o.Word("enqueued").I(r.enqueued_at);
  if (!r.x_death.empty()) {
    o.Word("x-death").Word(ReasonName(r.x_death.first)).Word(ReasonName(r.x_death.newest));
    o.U(r.x_death.count[0]).I(r.x_death.time[0]).U(r.x_death.count[1]).I(r.x_death.time[1]);
    // The later slots, each only when it has a count (so every earlier row stays as written),
    // then the order of the entries after the newest: with them it is not the legacy two's.
    if (r.x_death.count[2] != 0) o.Word("maxlen").U(r.x_death.count[2]).I(r.x_death.time[2]);
    if (r.x_death.count[3] != 0) o.Word("expired").U(r.x_death.count[3]).I(r.x_death.time[3]);
    if (r.x_death.count[2] != 0 || r.x_death.count[3] != 0) {
      int n = 0;
      while (n < XDeath::kSlots - 1 && r.x_death.after[n] != Reason::kNone) ++n;
      o.Word("after").I(n);
      for (int i = 0; i < n; ++i) o.Word(ReasonName(r.x_death.after[i]));
    }
  }
  if (r.ttl_from != 0) o.Word("ttlFrom").I(r.ttl_from);
  if (r.failed_at >= 0) o.Word("failedAt").I(r.failed_at);
  if (r.moves != 0) o.Word("moves").U(r.moves);
}

void PutEnds(Out& o, const Entry& e) { o.U(e.ends_lease).Word(e.ends_lease == 0 ? "-" : LeaseStateName(e.ends_as)); }

void PutBackoff(Out& o, const Backoff& b) {
  o.Word(BackoffKindName(b.kind)).I(b.base_ms).I(b.cap_ms).Word(JitterName(b.jitter));
  if (b.jitter == Jitter::kBullMq) o.I(b.jitter_permille);  // its fraction: only BullMQ's jitter has one
}

void PutMeta(Out& o, const Meta& m) {
  o.Word("meta").I(m.now).U(m.step).U(m.actions).U(m.timer_seq).I(m.ready_head).I(m.ready_tail).U(m.arrivals);
  o.B(m.alarm_raised).U(m.expired);
  for (const uint64_t w : m.jitter) o.U(w);
}

void PutEvent(Out& o, const EventRecord& e) {
  o.Word("event").Word(EventKindName(e.kind)).U(e.step).U(e.action).I(e.time).U(e.job).U(e.attempts);
  o.U(e.max_attempts).Word(ClassName(e.failure_class)).Word(OutcomeName(e.outcome));
  o.Word(DispositionName(e.disposition)).Word(e.reason == Reason::kNone ? "-" : ReasonName(e.reason));
  o.U(e.error).U(e.lease).I(e.until).U(e.ref);
}

void PutReorder(Out& o, const Reorder& r) {
  o.Word("reorder").U(r.job).U(r.overtook.size());
  for (const uint32_t j : r.overtook) o.U(j);
}

Status GetRow(In& in, JobRow* r) {
  RETURN_IF_ERROR(in.Int("attempts", &r->attempts));
  RETURN_IF_ERROR(in.Int("firstAttemptAt", &r->first_attempt_at, int64_t{0}, kMaxTimeMs));
  RETURN_IF_ERROR(in.Int("lastDelay", &r->last_delay, int64_t{0},
                         kMaxSidekiqDelayMs));  // Sidekiq's schedule's ceiling is the largest
  RETURN_IF_ERROR(in.Name("a reason", kReasonCount, ReasonName, &r->reason, true));
  RETURN_IF_ERROR(in.Name("a failure class", kFailureClassCount, ClassName, &r->failure_class));
  RETURN_IF_ERROR(in.Bool("alert", &r->alert));
  RETURN_IF_ERROR(in.Int("lastError", &r->last_error));
  RETURN_IF_ERROR(in.Int("quarantineStep", &r->quarantine_step));
  RETURN_IF_ERROR(in.Int("arrivedAt", &r->arrived_at, int64_t{0}, kMaxTimeMs));
  if (in.Peek() == "stalls") {
    in.Next();
    RETURN_IF_ERROR(in.Int("stalls", &r->stalls, uint32_t{1}, uint32_t{UINT16_MAX}));
  }
  if (in.Peek() == "enqueued") {
    in.Next();
    RETURN_IF_ERROR(in.Int("enqueued", &r->enqueued_at, int64_t{1}, kMaxTimeMs));
  }
  if (in.Peek() == "x-death") {
    in.Next();
    XDeath& x = r->x_death;
    RETURN_IF_ERROR(in.Name("an x-death reason", kReasonCount, ReasonName, &x.first, true));
    RETURN_IF_ERROR(in.Name("an x-death reason", kReasonCount, ReasonName, &x.newest, true));
    for (int slot = 0; slot < 2; ++slot) {
      RETURN_IF_ERROR(in.Int("an x-death count", &x.count[slot]));
      RETURN_IF_ERROR(in.Int("an x-death time", &x.time[slot], int64_t{0}, kMaxTimeMs));
      if (x.count[slot] == 0 && x.time[slot] != 0) return in.Error("an x-death time of 0 for a count of 0", "another");
    }
    const char* const kLater[] = {"maxlen", "expired"};  // slots 2 and 3
    for (int slot = 2; slot < XDeath::kSlots; ++slot) {
      if (in.Peek() != kLater[slot - 2]) continue;
      in.Next();
      RETURN_IF_ERROR(in.Int("an x-death count", &x.count[slot], uint32_t{1}, UINT32_MAX));
      RETURN_IF_ERROR(in.Int("an x-death time", &x.time[slot], int64_t{0}, kMaxTimeMs));
    }
    const int first = XDeathSlot(x.first), newest = XDeathSlot(x.newest);
    if (first < 0 || newest < 0 || x.count[first] == 0 || x.count[newest] == 0) {
      return in.Error("x-death reasons exhausted, permanent, max-length or expired, each with a count",
                      ReasonName(x.first));
    }
    int counted = 0;
    for (int slot = 0; slot < XDeath::kSlots; ++slot) counted += x.count[slot] != 0 ? 1 : 0;
    if (x.count[2] == 0 && x.count[3] == 0) {
      // The legacy two slots: the entry after the newest is the other one, if it has a count.
      const int other = 1 - newest;
      if (x.count[other] != 0) x.after[0] = XDeathReason(other);
    } else {
      // The entries after the newest, in order: each other reason with a count, once.
      RETURN_IF_ERROR(in.Word("after"));
      int n = 0;
      RETURN_IF_ERROR(in.Int("the x-death entries after the newest", &n, counted - 1, counted - 1));
      bool seen[XDeath::kSlots] = {};
      seen[newest] = true;
      for (int i = 0; i < n; ++i) {
        RETURN_IF_ERROR(in.Name("an x-death reason", kReasonCount, ReasonName, &x.after[i]));
        const int slot = XDeathSlot(x.after[i]);
        if (slot < 0 || x.count[slot] == 0 || seen[slot]) {
          return in.Error("an x-death reason with a count, not listed before", ReasonName(x.after[i]));
        }
        seen[slot] = true;
      }
    }
  }
  if (in.Peek() == "ttlFrom") {
    in.Next();
    RETURN_IF_ERROR(in.Int("ttlFrom", &r->ttl_from, int64_t{1}, kMaxTimeMs));
  }
  if (in.Peek() == "failedAt") {
    in.Next();
    RETURN_IF_ERROR(in.Int("failedAt", &r->failed_at, int64_t{0}, kMaxTimeMs));
  }
  if (in.Peek() == "moves") {
    in.Next();
    RETURN_IF_ERROR(in.Int("moves", &r->moves, uint32_t{1}, UINT32_MAX));
  }
  return Status::Ok();
}

Status GetEnds(In& in, Entry* e) {
  RETURN_IF_ERROR(in.Int("endsLease", &e->ends_lease));
  if (e->ends_lease == 0) return in.Word("-");
  RETURN_IF_ERROR(in.Name("settled or expired", kLeaseStateCount, LeaseStateName, &e->ends_as));
  if (e->ends_as == LeaseState::kActive) return in.Error("settled or expired", "active");
  return Status::Ok();
}

Status GetBackoff(In& in, Backoff* b) {
  RETURN_IF_ERROR(in.Name("a backoff kind", kBackoffKindCount, BackoffKindName, &b->kind));
  RETURN_IF_ERROR(in.Int("baseMs", &b->base_ms));
  RETURN_IF_ERROR(in.Int("capMs", &b->cap_ms));
  RETURN_IF_ERROR(in.Name("a jitter", kJitterCount, JitterName, &b->jitter));
  if (b->jitter == Jitter::kBullMq) RETURN_IF_ERROR(in.Int("jitterPermille", &b->jitter_permille));
  return Status::Ok();
}

Status GetMeta(In& in, Meta* m) {
  RETURN_IF_ERROR(in.Word("meta"));
  RETURN_IF_ERROR(in.Int("now", &m->now, int64_t{0}, kMaxTimeMs));
  // Counters stay far below where an increment could wrap (a live queue would
  // need 2^53 calls to get there), so a restored queue can never overflow one.
  constexpr auto kCount = static_cast<uint64_t>(kMaxTimeMs);
  RETURN_IF_ERROR(in.Int("step", &m->step, uint64_t{0}, kCount));
  RETURN_IF_ERROR(in.Int("actions", &m->actions, uint64_t{0}, kCount));
  RETURN_IF_ERROR(in.Int("timerSeq", &m->timer_seq, uint64_t{0}, kCount));
  RETURN_IF_ERROR(in.Int("readyHead", &m->ready_head, -kMaxTimeMs, int64_t{0}));
  RETURN_IF_ERROR(in.Int("readyTail", &m->ready_tail, int64_t{0}, kMaxTimeMs));
  RETURN_IF_ERROR(in.Int("arrivals", &m->arrivals, uint64_t{0}, kCount));
  RETURN_IF_ERROR(in.Bool("alarmRaised", &m->alarm_raised));
  RETURN_IF_ERROR(in.Int("expired", &m->expired, uint64_t{0}, kCount));
  for (uint64_t& w : m->jitter) RETURN_IF_ERROR(in.Int("a PRNG state word", &w));
  return Status::Ok();
}

Status GetEvent(In& in, EventRecord* e) {
  RETURN_IF_ERROR(in.Name("an event kind", kEventKindCount, EventKindName, &e->kind));
  RETURN_IF_ERROR(in.Int("step", &e->step));
  RETURN_IF_ERROR(in.Int("action", &e->action));
  RETURN_IF_ERROR(in.Int("time", &e->time, int64_t{0}, kMaxTimeMs));
  RETURN_IF_ERROR(in.Int("job", &e->job));
  RETURN_IF_ERROR(in.Int("attempts", &e->attempts));
  RETURN_IF_ERROR(in.Int("maxAttempts", &e->max_attempts));
  RETURN_IF_ERROR(in.Name("a failure class", kFailureClassCount, ClassName, &e->failure_class));
  RETURN_IF_ERROR(in.Name("an outcome", kOutcomeCount, OutcomeName, &e->outcome));
  RETURN_IF_ERROR(in.Name("a disposition", kDispositionCount, DispositionName, &e->disposition));
  RETURN_IF_ERROR(in.Name("a reason", kReasonCount, ReasonName, &e->reason, true));
  RETURN_IF_ERROR(in.Int("error", &e->error));
  RETURN_IF_ERROR(in.Int("lease", &e->lease));
  RETURN_IF_ERROR(in.Int("until", &e->until, int64_t{0}, kMaxTimeMs));
  RETURN_IF_ERROR(in.Int("ref", &e->ref));
  return Status::Ok();
}

Status GetReorder(In& in, Reorder* r) {
  RETURN_IF_ERROR(in.Int("job", &r->job));
  uint32_t n = 0;
  RETURN_IF_ERROR(in.Int("count", &n));
  for (uint32_t k = 0; k < n; ++k) {
    if (in.done()) return in.Error("a job", "");
    uint32_t j = 0;
    RETURN_IF_ERROR(in.Int("job", &j));
    r->overtook.push_back(j);
  }
  return Status::Ok();
}

Status End(In& in) {
  if (!in.clean_end()) return in.Error("the end of the line", in.done() ? std::string_view(" ") : in.Peek());
  return Status::Ok();
}

}  // namespace dlq::durable::text_lines
