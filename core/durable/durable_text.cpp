#include "durable_text.h"

#include <charconv>
#include <limits>

#include "crc32.h"
#include "link_text.h"
#include "schema.h"
#include "registry.h"
#include "size_limits.h"
#include "text.h"

namespace dlq::durable {

const char* WriteOpName(WriteOp op) {
  switch (op) {
    case WriteOp::kCreate: return "create";
    case WriteOp::kEnqueue: return "enqueue";
    case WriteOp::kPutReady: return "put-ready";
    case WriteOp::kRemoveReady: return "remove-ready";
    case WriteOp::kPutDelayed: return "put-delayed";
    case WriteOp::kRemoveDelayed: return "remove-delayed";
    case WriteOp::kPutLease: return "put-lease";
    case WriteOp::kEndLease: return "end-lease";
    case WriteOp::kPutCompleted: return "put-completed";
    case WriteOp::kPutQuarantine: return "put-quarantine";
    case WriteOp::kRemoveQuarantine: return "remove-quarantine";
    case WriteOp::kReleaseKey: return "release-key";
    case WriteOp::kClock: return "clock";
    case WriteOp::kSetPayload: return "set-payload";
  }
  return "?";
}

namespace {

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

// ---- writing -------------------------------------------------------------------

class Out {
 public:
  explicit Out(std::string& s) : s_(s) {}
  Out& Word(std::string_view w) {
    Sep();
    s_.append(w);
    return *this;
  }
  Out& U(uint64_t v) { return Number(v); }
  Out& I(int64_t v) { return Number(v); }
  Out& B(bool v) { return Word(v ? "1" : "0"); }
  Out& Str(std::string_view v) {
    Sep();
    s_.push_back('"');
    link::AppendEncoded(s_, v);
    s_.push_back('"');
    return *this;
  }
  void Line() {
    s_.push_back('\n');
    first_ = true;
  }

 private:
  template <typename T>
  Out& Number(T v) {
    char digits[24];
    const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, v);
    (void)ec;  // 24 characters hold every 64-bit integer
    return Word(std::string_view(digits, static_cast<size_t>(end - digits)));
  }
  void Sep() {
    if (!first_) s_.push_back(' ');
    first_ = false;
  }
  std::string& s_;
  bool first_ = true;
};

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
}

void PutEnds(Out& o, const Entry& e) {
  o.U(e.ends_lease).Word(e.ends_lease == 0 ? "-" : LeaseStateName(e.ends_as));
}

void PutBackoff(Out& o, const Backoff& b) {
  o.Word(BackoffKindName(b.kind)).I(b.base_ms).I(b.cap_ms).Word(JitterName(b.jitter));
  if (b.jitter == Jitter::kBullMq) o.I(b.jitter_permille);  // its fraction: only BullMQ's jitter has one
}

// A teaching switch on (policy.h: side effects and anti-patterns).
bool HasTeachingSwitch(const Policy& p) {
  for (const Field<Policy>& row : PolicyFields()) {
    if (IsTeachingSwitch(row.spec) && row.get(p) != 0) return true;
  }
  return false;
}

// An optional member of the policy group, when not its default: its snapshot name
// alone (a boolean on), or with its value (an integer, a choice's name).
void PutMember(Out& o, const Field<Policy>& row, const Policy& p) {
  const int64_t v = row.get(p);
  if (v == row.get(Policy{})) return;
  o.Word(row.spec.snapshot);
  if (row.spec.kind == FieldKind::kInteger) o.I(v);
  if (row.spec.kind == FieldKind::kChoice) o.Word(row.spec.choices->Name(static_cast<int>(v)));
}

// "policy ..." and six "class ..." groups; `newline` ends each as a line.

void PutPolicy(Out& o, const Policy& p, bool newline) {
  o.Word("policy").I(p.max_attempts);
  PutBackoff(o, p.backoff);
  o.I(p.lease_ms).I(p.seed).Word(OrderingName(p.ordering)).I(p.retention_ms).I(p.alarm_depth);
  o.B(p.unsafe_quarantine_order).B(p.journal);
  // "system <name>" only when it is not the lab's, so every earlier text stays as written.
  if (p.system != Policy{}.system) o.Word("system").Word(SystemName(p.system));
  // A mode's own settings, each only when not its default (Policy::Check: only in its mode),
  // as its row's snapshot name and value, in table order (schema.cpp).
  for (const Field<Policy>& row : PolicyFields()) {
    if (IsModeSetting(row.spec)) PutMember(o, row, p);
  }
  // "switches" and the teaching switches' booleans in table order (charge, idempotency
  // key, count in body, decide before count, dead letters to the source) only when one is on, likewise.
  if (HasTeachingSwitch(p)) {
    o.Word("switches");
    for (const Field<Policy>& row : PolicyFields()) {
      if (IsTeachingSwitch(row.spec)) o.B(row.get(p) != 0);
    }
  }
  if (newline) o.Line();
  for (int i = 0; i < kFailureClassCount; ++i) {
    const ClassRule& r = p.classes.rules[i];
    o.Word("class").Word(ClassName(static_cast<FailureClass>(i))).B(r.retry).I(r.max_attempts).B(r.own_backoff);
    PutBackoff(o, r.own_backoff ? r.backoff : Backoff{});  // an unused backoff is not state
    o.B(r.alert);
    if (newline) o.Line();
  }
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

// ---- reading -------------------------------------------------------------------

// A strict reader over space-separated words; every error names where it is.
class In {
 public:
  In(std::string_view text, std::string where) : text_(text), where_(std::move(where)) {}
  bool done() const { return pos_ >= text_.size(); }
  // The next word (up to a space or the end); empty at the end.
  std::string_view Peek() const {
    size_t end = pos_;
    while (end < text_.size() && text_[end] != ' ') ++end;
    return text_.substr(pos_, end - pos_);
  }
  std::string_view Next() {
    const std::string_view w = Peek();
    pos_ += w.size();
    if (pos_ < text_.size()) {
      ++pos_;  // the space
      if (pos_ == text_.size()) trailing_space_ = true;  // a separator with nothing after it
    }
    return w;
  }
  // True at the end of the text with no trailing separator (the writer never writes one).
  bool clean_end() const { return done() && !trailing_space_; }
  Status Error(const std::string& what, std::string_view got) const {
    return Status::Error(Code::kInvalidSnapshot, where_ + ": expected " + what + ", got " +
                                                     (got.empty() ? std::string("nothing") : QuoteShort(got, 32)));
  }
  Status Word(std::string_view expected) {
    const std::string_view w = Next();
    if (w != expected) return Error(std::string(1, '"').append(expected).append(1, '"'), w);
    return Status::Ok();
  }
  template <typename T>
  Status Int(const char* what, T* out, T min = std::numeric_limits<T>::min(), T max = std::numeric_limits<T>::max()) {
    const std::string_view w = Next();
    T v{};
    const bool canonical = !w.empty() && (w == "0" || (w[0] != '0' && !(w[0] == '-' && (w.size() < 2 || w[1] == '0'))));
    const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
    if (!canonical || ec != std::errc() || end != w.data() + w.size() || v < min || v > max) {
      return Error(std::string(what) + " (an integer from " + std::to_string(min) + " to " + std::to_string(max) + ")", w);
    }
    *out = v;
    return Status::Ok();
  }
  Status Bool(const char* what, bool* out) {
    const std::string_view w = Next();
    if (w != "0" && w != "1") return Error(std::string(what) + " (0 or 1)", w);
    *out = w == "1";
    return Status::Ok();
  }
  Status Str(const char* what, std::string* out) {
    const std::string_view w = Next();
    if (w.size() < 2 || w.front() != '"' || w.back() != '"') return Error(std::string(what) + " (a quoted string)", w);
    out->clear();
    for (size_t i = 1; i + 1 < w.size(); ++i) {
      const auto c = static_cast<unsigned char>(w[i]);
      if (c == '%') {
        const int hi = i + 3 < w.size() ? Hex(w[i + 1]) : -1, lo = i + 3 < w.size() ? Hex(w[i + 2]) : -1;
        const auto decoded = static_cast<unsigned char>(hi * 16 + lo);
        if (hi < 0 || lo < 0 || link::IsSafe(decoded)) return Error(std::string(what) + " (canonical %HH escapes)", w);
        out->push_back(static_cast<char>(decoded));
        i += 2;
      } else if (link::IsSafe(c)) {
        out->push_back(static_cast<char>(c));
      } else {
        return Error(std::string(what) + " (percent-encoded)", w);
      }
    }
    return Status::Ok();
  }
  // One of the `count` names `name(k)` gives, as the enum value k.
  template <typename E, typename NameOf>
  Status Name(const char* what, int count, NameOf name, E* out, bool dash_is_zero = false) {
    const std::string_view w = Next();
    if (dash_is_zero && w == "-") {
      *out = static_cast<E>(0);
      return Status::Ok();
    }
    for (int k = dash_is_zero ? 1 : 0; k < count; ++k) {
      if (w == name(static_cast<E>(k))) {
        *out = static_cast<E>(k);
        return Status::Ok();
      }
    }
    return Error(what, w);
  }

 private:
  static int Hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;  // lower case is not canonical
  }
  std::string_view text_;
  size_t pos_ = 0;
  bool trailing_space_ = false;
  std::string where_;
};

constexpr int kReasonCount = 6;
constexpr int kDispositionCount = 5;
constexpr int kBackoffKindCount = 3;
constexpr int kJitterCount = 5;
constexpr int kOrderingCount = 3;
constexpr int kDeliveryLimitCount = 4;
constexpr int kDeadLetterExchangeCount = 2;
constexpr int kDelayAtCount = 3;
constexpr int kLeaseStateCount = 3;
constexpr int kFateCount = 4;

Status GetRow(In& in, JobRow* r) {
  RETURN_IF_ERROR(in.Int("attempts", &r->attempts));
  RETURN_IF_ERROR(in.Int("firstAttemptAt", &r->first_attempt_at, int64_t{0}, kMaxTimeMs));
  RETURN_IF_ERROR(in.Int("lastDelay", &r->last_delay, int64_t{0}, kMaxSidekiqDelayMs));  // Sidekiq's schedule's ceiling is the largest
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

// An optional member of the policy group if its name is next (PutMember): a
// boolean's name alone is on; a value equal to the default is refused (the
// default is written as nothing).
Status GetMember(In& in, const Field<Policy>& row, Policy* p) {
  const FieldSpec& spec = row.spec;
  if (in.Peek() != spec.snapshot) return Status::Ok();
  in.Next();
  const int64_t fallback = row.get(Policy{});
  switch (spec.kind) {
    case FieldKind::kBoolean: row.set(*p, 1); return Status::Ok();
    case FieldKind::kInteger: {
      int64_t v = 0;
      RETURN_IF_ERROR(in.Int(spec.snapshot, &v));
      if (v == fallback) {
        return in.Error(std::string("a ") + spec.snapshot + " other than its default", std::to_string(fallback));
      }
      row.set(*p, v);
      return Status::Ok();
    }
    case FieldKind::kChoice: {
      std::string others;  // the names but the default's: "unset-3.x, unset-4.x or classic-queue"
      const int count = spec.choices->count - 1;
      for (int i = 0, listed = 0; i < spec.choices->count; ++i) {
        if (i == fallback) continue;
        others.append(listed == 0 ? "" : listed + 1 == count ? " or " : ", ").append(spec.choices->items[i].name);
        ++listed;
      }
      int v = 0;
      RETURN_IF_ERROR(in.Name(others.c_str(), spec.choices->count, [&](int i) { return spec.choices->Name(i); }, &v));
      if (v == fallback) {
        return in.Error(others + " (" + spec.choices->Name(static_cast<int>(fallback)) + " is written as nothing)",
                        spec.choices->Name(static_cast<int>(fallback)));
      }
      row.set(*p, v);
      return Status::Ok();
    }
  }
  return Status::Ok();
}

// The policy group and six class groups; `lines` reads each from its own line.
template <typename NextIn>
Status GetPolicy(NextIn next, Policy* p) {
  In* in = next();
  RETURN_IF_ERROR(in->Word("policy"));
  RETURN_IF_ERROR(in->Int("maxAttempts", &p->max_attempts));
  RETURN_IF_ERROR(GetBackoff(*in, &p->backoff));
  RETURN_IF_ERROR(in->Int("leaseMs", &p->lease_ms));
  RETURN_IF_ERROR(in->Int("seed", &p->seed));
  RETURN_IF_ERROR(in->Name("an ordering", kOrderingCount, OrderingName, &p->ordering));
  RETURN_IF_ERROR(in->Int("retentionMs", &p->retention_ms));
  RETURN_IF_ERROR(in->Int("alarmDepth", &p->alarm_depth));
  RETURN_IF_ERROR(in->Bool("unsafeQuarantineOrder", &p->unsafe_quarantine_order));
  RETURN_IF_ERROR(in->Bool("journal", &p->journal));
  if (in->Peek() == "system") {
    in->Next();
    RETURN_IF_ERROR(in->Name("a system other than lab", kSystemCount, SystemName, &p->system));
    if (p->system == Policy{}.system) return in->Error("a system other than lab (lab is written as nothing)", "lab");
  }
  for (const Field<Policy>& row : PolicyFields()) {
    if (IsModeSetting(row.spec)) RETURN_IF_ERROR(GetMember(*in, row, p));
  }
  if (in->Peek() == "switches") {
    in->Next();
    for (const Field<Policy>& row : PolicyFields()) {
      if (!IsTeachingSwitch(row.spec)) continue;
      bool on = false;
      RETURN_IF_ERROR(in->Bool(row.spec.snapshot, &on));
      row.set(*p, on);
    }
    if (!HasTeachingSwitch(*p)) return in->Error("a switch on (none on is written as nothing)", "all off");
  }
  for (int i = 0; i < kFailureClassCount; ++i) {
    in = next();
    ClassRule& r = p->classes.rules[i];
    RETURN_IF_ERROR(in->Word("class"));
    RETURN_IF_ERROR(in->Word(ClassName(static_cast<FailureClass>(i))));
    RETURN_IF_ERROR(in->Bool("retry", &r.retry));
    RETURN_IF_ERROR(in->Int("maxAttempts", &r.max_attempts));
    RETURN_IF_ERROR(in->Bool("ownBackoff", &r.own_backoff));
    RETURN_IF_ERROR(GetBackoff(*in, &r.backoff));
    if (!r.own_backoff && !(r.backoff == Backoff{})) return in->Error("the default backoff (none is in use)", "another");
    RETURN_IF_ERROR(in->Bool("alert", &r.alert));
  }
  if (Status s = Policy::Check(*p); !s.ok()) {
    return Status::Error(Code::kInvalidSnapshot, "the snapshot's policy is refused: " + s.message());
  }
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

}  // namespace

// ---- snapshots -----------------------------------------------------------------

Result<std::string> EncodeSnapshot(const Image& image, size_t limit) {
  std::string text;
  Out o(text);
  const auto over = [&] { return text.size() > limit; };
  const auto refuse = [&] {
    return TooLarge("snapshot", limit, text.size()) ;
  };
  o.Word("dlq-snapshot").U(kSnapshotVersion).Line();
  PutPolicy(o, image.policy, true);
  PutMeta(o, image.meta);
  o.Line();
  for (const std::string& e : image.errors) {
    o.Word("error").Str(e).Line();
    if (over()) return refuse();
  }
  for (const ImageJob& j : image.jobs) {
    o.Word("job").Str(j.id).Str(j.payload).Str(j.key).Word(FateName(j.fate)).B(j.released);
    if (j.fate != Fate::kLive) PutRow(o, j.row);
    o.Line();
    if (over()) return refuse();
  }
  for (const auto& [pos, e] : image.ready) {
    o.Word("ready").I(pos).U(e.job);
    PutRow(o, e.row);
    o.Line();
    if (over()) return refuse();
  }
  for (const auto& [seq, e] : image.delayed) {
    o.Word("delayed").U(seq).I(e.due_at).U(e.job);
    PutRow(o, e.row);
    o.Line();
    if (over()) return refuse();
  }
  for (const Lease& l : image.leases) {
    const LeaseRecord& r = l.record;
    o.Word("lease").U(r.job).I(r.leased_at).I(r.expires_at).U(r.timer).Word(LeaseStateName(r.state));
    if (r.state == LeaseState::kActive) PutRow(o, l.entry.row);
    o.Line();
    if (over()) return refuse();
  }
  for (const Entry& e : image.completed) {
    o.Word("completed").U(e.job);
    PutRow(o, e.row);
    o.Line();
    if (over()) return refuse();
  }
  for (const auto& [arrival, e] : image.quarantine) {
    o.Word("quarantine").U(arrival).U(e.timer).U(e.job);
    PutRow(o, e.row);
    o.Line();
    if (over()) return refuse();
  }
  for (const Reorder& r : image.reorders) {
    PutReorder(o, r);
    o.Line();
    if (over()) return refuse();
  }
  for (const EventRecord& e : image.events) {
    PutEvent(o, e);
    o.Line();
    if (over()) return refuse();
  }
  const std::string check = Hex8(Crc32(text));  // of everything before the end line
  o.Word("end").Word(check).Line();
  if (over()) return refuse();
  return text;
}

namespace {

// A snapshot's first line and its end line: what it is and its version (before
// the checksum, so that a newer snapshot says so), then whole and unaltered (the
// last line is "end <crc32 of everything before it>"). *first_end is the first
// line's end, *body everything before the end line.
Status CheckSnapshotFrame(std::string_view text, size_t* first_end, std::string_view* body) {
  const auto invalid = [](const std::string& why) { return Status::Error(Code::kInvalidSnapshot, why); };
  if (text.substr(0, kSnapshotMagic.size()) != kSnapshotMagic) {
    return invalid("snapshot is not a dlq-lab snapshot: it must start with \"dlq-snapshot <version>\", got " +
                   QuoteShort(text.substr(0, 24)));
  }
  *first_end = text.find('\n');
  if (*first_end == std::string_view::npos) return invalid("snapshot is truncated: it ends inside its first line");
  {
    In in(text.substr(kSnapshotMagic.size(), *first_end - kSnapshotMagic.size()), "snapshot line 1");
    uint64_t version = 0;
    if (Status s = in.Int("a format version", &version, uint64_t{1}); !s.ok() || !in.clean_end()) {
      return invalid("snapshot line 1 must be \"dlq-snapshot <version>\", got " +
                     QuoteShort(text.substr(0, *first_end)));
    }
    if (version > kSnapshotVersion) {
      return Status::Error(Code::kUnsupportedVersion,
                           "snapshot is format version " + std::to_string(version) + "; this build reads version " +
                               std::to_string(kSnapshotVersion) + " and older");
    }
  }
  if (text.size() < 2 || text.back() != '\n') return invalid("snapshot is truncated: it does not end with its end line");
  const size_t last_start = text.rfind('\n', text.size() - 2) + 1;
  *body = text.substr(0, last_start);
  const std::string_view last = text.substr(last_start, text.size() - 1 - last_start);
  if (last.substr(0, 4) != "end ") return invalid("snapshot is truncated: its last line is not its end line");
  if (last.substr(4) != Hex8(Crc32(*body))) {
    return invalid("snapshot is damaged: its checksum does not match its text (truncated or altered)");
  }
  return Status::Ok();
}

// The sections after the policy and the meta line, each optional, in this order.
enum Section { kError, kJob, kReady, kDelayed, kLease, kCompleted, kQuarantine, kReorder, kEvent };
constexpr const char* kSectionHeads[] = {"error", "job", "ready", "delayed", "lease", "completed", "quarantine",
                                         "reorder", "event"};

// A place's entry: a position (ready), a timer (delayed), an arrival (quarantine) keys it.
Status GetKeyedEntry(In& in, Section section, Image* image) {
  Entry e;
  if (section == kReady) {
    int64_t p = 0;
    RETURN_IF_ERROR(in.Int("a position", &p));
    RETURN_IF_ERROR(in.Int("job", &e.job));
    RETURN_IF_ERROR(GetRow(in, &e.row));
    if (!image->ready.emplace(p, e).second) return in.Error("a position not used before", std::to_string(p));
  } else if (section == kDelayed) {
    uint64_t seq = 0;
    RETURN_IF_ERROR(in.Int("a timer sequence", &seq));
    RETURN_IF_ERROR(in.Int("dueAt", &e.due_at, int64_t{0}, kMaxTimeMs));
    RETURN_IF_ERROR(in.Int("job", &e.job));
    RETURN_IF_ERROR(GetRow(in, &e.row));
    e.timer = seq;
    if (!image->delayed.emplace(seq, e).second) return in.Error("a timer not used before", std::to_string(seq));
  } else {
    uint64_t arrival = 0;
    RETURN_IF_ERROR(in.Int("an arrival", &arrival));
    RETURN_IF_ERROR(in.Int("a timer sequence", &e.timer));
    RETURN_IF_ERROR(in.Int("job", &e.job));
    RETURN_IF_ERROR(GetRow(in, &e.row));
    if (!image->quarantine.emplace(arrival, e).second) return in.Error("an arrival not used before", std::to_string(arrival));
  }
  return Status::Ok();
}

// One line of section `section`, its head read.
Status GetSectionLine(In& in, Section section, Image* image) {
  switch (section) {
    case kError: {
      std::string& e = image->errors.emplace_back();
      RETURN_IF_ERROR(in.Str("an error text", &e));
      if (e.empty()) return in.Error("a non-empty error text", "\"\"");
      return Status::Ok();
    }
    case kJob: {
      ImageJob& j = image->jobs.emplace_back();
      RETURN_IF_ERROR(in.Str("an id", &j.id));
      RETURN_IF_ERROR(in.Str("a payload", &j.payload));
      RETURN_IF_ERROR(in.Str("a key", &j.key));
      RETURN_IF_ERROR(in.Name("live, dropped, lost or discarded", kFateCount, FateName, &j.fate));
      RETURN_IF_ERROR(in.Bool("released", &j.released));
      if (j.fate != Fate::kLive) RETURN_IF_ERROR(GetRow(in, &j.row));
      return Status::Ok();
    }
    case kReady:
    case kDelayed:
    case kQuarantine: return GetKeyedEntry(in, section, image);
    case kLease: {
      Lease& l = image->leases.emplace_back();
      LeaseRecord& r = l.record;
      RETURN_IF_ERROR(in.Int("job", &r.job));
      RETURN_IF_ERROR(in.Int("leasedAt", &r.leased_at, int64_t{0}, kMaxTimeMs));
      RETURN_IF_ERROR(in.Int("expiresAt", &r.expires_at, int64_t{0}, kMaxTimeMs));
      RETURN_IF_ERROR(in.Int("a timer sequence", &r.timer));
      RETURN_IF_ERROR(in.Name("active, settled or expired", kLeaseStateCount, LeaseStateName, &r.state));
      l.entry.job = r.job;
      if (r.state == LeaseState::kActive) RETURN_IF_ERROR(GetRow(in, &l.entry.row));
      return Status::Ok();
    }
    case kCompleted: {
      Entry& e = image->completed.emplace_back();
      RETURN_IF_ERROR(in.Int("job", &e.job));
      return GetRow(in, &e.row);
    }
    case kReorder: return GetReorder(in, &image->reorders.emplace_back());
    case kEvent: return GetEvent(in, &image->events.emplace_back());
  }
  return Status::Ok();
}

}  // namespace

Result<Image> DecodeSnapshot(std::string_view text) {
  size_t first_end = 0;
  std::string_view body;
  RETURN_IF_ERROR(CheckSnapshotFrame(text, &first_end, &body));
  // Line by line.
  Image image;
  size_t pos = first_end + 1, line_no = 1;
  In current("", "");
  const auto next_line = [&]() -> In* {
    ++line_no;
    const size_t end = pos < body.size() ? body.find('\n', pos) : std::string_view::npos;
    const std::string_view line = end == std::string_view::npos ? std::string_view() : body.substr(pos, end - pos);
    pos = end == std::string_view::npos ? body.size() : end + 1;
    current = In(line, std::string("snapshot line ").append(std::to_string(line_no)));
    return &current;
  };
  RETURN_IF_ERROR(GetPolicy([&] { return next_line(); }, &image.policy));
  RETURN_IF_ERROR(GetMeta(*next_line(), &image.meta));
  RETURN_IF_ERROR(End(current));
  int section = kError;
  while (pos < body.size()) {
    In& in = *next_line();
    const std::string_view head = in.Next();
    int found = -1;
    for (int k = section; k <= kEvent; ++k) {
      if (head == kSectionHeads[k]) found = k;
    }
    if (found < 0) return in.Error("a line of a later section (error, job, ready, delayed, lease, completed, quarantine, reorder, event, in this order)", head);
    section = found;
    RETURN_IF_ERROR(GetSectionLine(in, static_cast<Section>(section), &image));
    RETURN_IF_ERROR(End(in));
  }
  return image;
}

// ---- journal records -----------------------------------------------------------

std::string EncodeWrite(const Write& w, uint32_t* check) {
  std::string text;
  text.reserve(256);
  Out o(text);
  o.U(w.seq).Word(Hex8(w.prev)).Word(WriteOpName(w.op));
  const Entry& e = w.entry;
  switch (w.op) {
    case WriteOp::kCreate:
      PutPolicy(o, w.policy, false);
      break;
    case WriteOp::kEnqueue:
      o.Str(w.job.id).Str(w.job.payload).Str(w.job.key).I(w.position);
      PutRow(o, e.row);
      break;
    case WriteOp::kPutReady:
      o.I(w.position).U(e.job);
      PutRow(o, e.row);
      PutEnds(o, e);
      break;
    case WriteOp::kPutDelayed:
      o.I(w.position).I(e.due_at).U(e.job);
      PutRow(o, e.row);
      PutEnds(o, e);
      break;
    case WriteOp::kPutLease:
      o.U(w.lease_number).U(w.lease.job).I(w.lease.leased_at).I(w.lease.expires_at).U(w.lease.timer);
      PutRow(o, e.row);
      break;
    case WriteOp::kPutCompleted:
      o.U(e.job);
      PutRow(o, e.row);
      PutEnds(o, e);
      break;
    case WriteOp::kPutQuarantine:
      o.I(w.position).U(e.timer).U(e.job);
      PutRow(o, e.row);
      PutEnds(o, e);
      break;
    case WriteOp::kRemoveReady:
    case WriteOp::kRemoveDelayed:
      o.I(w.position);
      if (w.discarded) {  // only when it happened, so earlier journals read as written
        o.Word("discarded");
        PutRow(o, e.row);  // the job as it left (its attempt counted)
      }
      break;
    case WriteOp::kEndLease:
      o.U(w.lease_number).Word(LeaseStateName(w.ended_as));
      if (w.discarded) {
        o.Word("discarded");
        PutRow(o, e.row);
      }
      break;
    case WriteOp::kRemoveQuarantine:
      o.I(w.position).Word(w.dropped ? "dropped" : "replayed");
      break;
    case WriteOp::kReleaseKey:
      o.U(w.job_number);
      break;
    case WriteOp::kSetPayload:
      o.U(w.job_number).Str(w.job.payload);
      break;
    case WriteOp::kClock:
      break;
  }
  PutMeta(o, w.meta);
  for (const std::string& t : w.errors) o.Word("error").Str(t);
  for (const EventRecord& ev : w.events) PutEvent(o, ev);
  for (const Reorder& r : w.reorders) PutReorder(o, r);
  *check = Crc32(text);
  o.Word("check").Word(Hex8(*check));
  return text;
}

namespace {

// A removal's fields (or a key's release, a payload's fix), after its op.
Status GetRemoveOp(In& in, Write* w) {
  Entry& e = w->entry;
  switch (w->op) {
    case WriteOp::kRemoveReady:
      RETURN_IF_ERROR(in.Int("a position", &w->position));
      if (in.Peek() == "discarded") {
        in.Next();
        w->discarded = true;
        RETURN_IF_ERROR(GetRow(in, &e.row));
      }
      break;
    case WriteOp::kRemoveDelayed:
      RETURN_IF_ERROR(in.Int("a timer sequence", &w->position, int64_t{0}));
      break;
    case WriteOp::kEndLease:
      RETURN_IF_ERROR(in.Int("a lease number", &w->lease_number, uint32_t{1}));
      RETURN_IF_ERROR(in.Name("settled or expired", kLeaseStateCount, LeaseStateName, &w->ended_as));
      if (w->ended_as == LeaseState::kActive) return in.Error("settled or expired", "active");
      if (in.Peek() == "discarded") {
        in.Next();
        w->discarded = true;
        RETURN_IF_ERROR(GetRow(in, &e.row));
      }
      break;
    case WriteOp::kRemoveQuarantine: {
      RETURN_IF_ERROR(in.Int("an arrival", &w->position, int64_t{0}));
      const std::string_view how = in.Next();
      if (how != "dropped" && how != "replayed") return in.Error("replayed or dropped", how);
      w->dropped = how == "dropped";
      break;
    }
    case WriteOp::kReleaseKey:
      RETURN_IF_ERROR(in.Int("job", &w->job_number));
      break;
    case WriteOp::kSetPayload:
      RETURN_IF_ERROR(in.Int("job", &w->job_number));
      RETURN_IF_ERROR(in.Str("a payload", &w->job.payload));
      break;
    default:
      break;
  }
  return Status::Ok();
}

// A write's own fields, after its op: what each op carries (EncodeWrite).
Status GetWriteOp(In& in, Write* w) {
  Entry& e = w->entry;
  switch (w->op) {
    case WriteOp::kCreate: {
      RETURN_IF_ERROR(GetPolicy([&] { return &in; }, &w->policy));
      break;
    }
    case WriteOp::kEnqueue:
      RETURN_IF_ERROR(in.Str("an id", &w->job.id));
      RETURN_IF_ERROR(in.Str("a payload", &w->job.payload));
      RETURN_IF_ERROR(in.Str("a key", &w->job.key));
      RETURN_IF_ERROR(in.Int("a position", &w->position));
      RETURN_IF_ERROR(GetRow(in, &e.row));
      break;
    case WriteOp::kPutReady:
      RETURN_IF_ERROR(in.Int("a position", &w->position));
      RETURN_IF_ERROR(in.Int("job", &e.job));
      RETURN_IF_ERROR(GetRow(in, &e.row));
      RETURN_IF_ERROR(GetEnds(in, &e));
      break;
    case WriteOp::kPutDelayed:
      RETURN_IF_ERROR(in.Int("a timer sequence", &w->position, int64_t{0}));
      RETURN_IF_ERROR(in.Int("dueAt", &e.due_at, int64_t{0}, kMaxTimeMs));
      RETURN_IF_ERROR(in.Int("job", &e.job));
      RETURN_IF_ERROR(GetRow(in, &e.row));
      RETURN_IF_ERROR(GetEnds(in, &e));
      e.timer = static_cast<uint64_t>(w->position);
      break;
    case WriteOp::kPutLease:
      RETURN_IF_ERROR(in.Int("a lease number", &w->lease_number, uint32_t{1}));
      RETURN_IF_ERROR(in.Int("job", &w->lease.job));
      RETURN_IF_ERROR(in.Int("leasedAt", &w->lease.leased_at, int64_t{0}, kMaxTimeMs));
      RETURN_IF_ERROR(in.Int("expiresAt", &w->lease.expires_at, int64_t{0}, kMaxTimeMs));
      RETURN_IF_ERROR(in.Int("a timer sequence", &w->lease.timer));
      RETURN_IF_ERROR(GetRow(in, &e.row));
      w->lease.state = LeaseState::kActive;
      e.job = w->lease.job;
      break;
    case WriteOp::kPutCompleted:
      RETURN_IF_ERROR(in.Int("job", &e.job));
      RETURN_IF_ERROR(GetRow(in, &e.row));
      RETURN_IF_ERROR(GetEnds(in, &e));
      break;
    case WriteOp::kPutQuarantine:
      RETURN_IF_ERROR(in.Int("an arrival", &w->position, int64_t{0}));
      RETURN_IF_ERROR(in.Int("a timer sequence", &e.timer));
      RETURN_IF_ERROR(in.Int("job", &e.job));
      RETURN_IF_ERROR(GetRow(in, &e.row));
      RETURN_IF_ERROR(GetEnds(in, &e));
      break;
    case WriteOp::kRemoveReady:
    case WriteOp::kRemoveDelayed:
    case WriteOp::kEndLease:
    case WriteOp::kRemoveQuarantine:
    case WriteOp::kReleaseKey:
    case WriteOp::kSetPayload:
      return GetRemoveOp(in, w);
    case WriteOp::kClock:
      break;
  }
  return Status::Ok();
}

// The meta line's fields, then the write's errors, events and reorders (in this order).
Status GetWriteTail(In& in, Write* w) {
  RETURN_IF_ERROR(GetMeta(in, &w->meta));
  while (!in.done()) {
    const std::string_view head = in.Next();
    if (head == "error" && w->events.empty() && w->reorders.empty()) {
      std::string& t = w->errors.emplace_back();
      RETURN_IF_ERROR(in.Str("an error text", &t));
      if (t.empty()) return in.Error("a non-empty error text", "\"\"");
    } else if (head == "event" && w->reorders.empty()) {
      RETURN_IF_ERROR(GetEvent(in, &w->events.emplace_back()));
    } else if (head == "reorder") {
      RETURN_IF_ERROR(GetReorder(in, &w->reorders.emplace_back()));
    } else {
      return in.Error("error, event or reorder (in this order) or the check", head);
    }
  }
  return Status::Ok();
}

}  // namespace

Result<Write> DecodeWrite(std::string_view record, const std::string& argument) {
  const auto damaged = [&](const std::string& why) {
    return Status::InvalidArgument(argument + " must be a journal record of this lab, " + why);
  };
  const size_t at = record.rfind(" check ");
  if (at == std::string_view::npos || record.size() != at + 7 + 8) {
    return damaged("ending \"check <crc32>\"; it is cut short or not a record");
  }
  const uint32_t check = Crc32(record.substr(0, at));
  if (record.substr(at + 7) != Hex8(check)) return damaged("whose check matches its text; it is torn or altered");
  Write w;
  w.check = check;
  In in(record.substr(0, at), argument);
  const auto fail = [&](const Status& s) { return Status::InvalidArgument(s.message()); };
  const auto run = [&]() -> Status {
    RETURN_IF_ERROR(in.Int("a sequence number", &w.seq, uint64_t{1}));
    const std::string_view prev = in.Next();
    if (prev.size() != 8) return in.Error("the previous record's check (8 hex digits)", prev);
    for (const char c : prev) {
      const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (d < 0) return in.Error("the previous record's check (8 hex digits)", prev);
      w.prev = w.prev * 16 + static_cast<uint32_t>(d);
    }
    RETURN_IF_ERROR(in.Name("a write", kWriteOpCount, WriteOpName, &w.op));
    RETURN_IF_ERROR(GetWriteOp(in, &w));
    RETURN_IF_ERROR(GetWriteTail(in, &w));
    return Status::Ok();
  };
  if (Status s = run(); !s.ok()) return fail(s);
  return w;
}

}  // namespace dlq::durable
