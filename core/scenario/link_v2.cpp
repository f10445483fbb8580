// Link format v2: the whole policy and every action kind (docs/scenario-format.md).
//
//   v2;m<maxAttempts>[;b<backoff>][;l<leaseMs>];s<seed>[;f<row>,…][;o<ordering>][;r<system>]
//     [;q<retentionMs>.<alarmDepth>[u]][;t<switches>][;y<world>][;h<behaviour>,…][;j<job>,…][;a<action>,…][;c<cursor>]
//
//   job     <id>:<payload>[:<key>]  the key (its ordering key) only when not empty
//
//   backoff <kind><baseMs>.<capMs><jitter>
//   kind    f fixed | x exponential | n none (written only when baseMs or capMs
//           differs from the default, so that every policy round-trips)
//   jitter  n none | f full | e equal | d decorrelated | b<jitterPermille> bullmq
//   row     <class><n|b><maxAttempts>[.<backoff>][!]   one failure class's rule:
//           retry n never | b bounded; maxAttempts 0 = the policy's; .<backoff>
//           its own backoff (absent: the policy's); ! raises an alert. Rows come
//           in class order, each at most once; only rows that differ from the
//           default ClassTable are written, each one whole.
//   class   t transient | p permanent | u undeserializable | v unknown-schema |
//           q precondition | c crash
//   outcome s success | t transient | p permanent | u undeserializable |
//           v unknown-schema | q precondition
//   ordering k key | s stall (o is left out for none; n none is read too)
//   system  q rabbitmq-quorum | b bullmq | k sidekiq | s sqs (r is left out for lab;
//           l lab is read too), then the mode's own settings, each only when not its
//           default: s<maxStalledCount> (bullmq), d<deadMaxJobs> (sidekiq), j retryInJitter and e retryEveryError
//           (sidekiq), u3 | u4 | uc deliveryLimit unset-3.x | unset-4.x | classic-queue (rabbitmq-quorum), n
//           deadLetterExchange none (rabbitmq-quorum), f<removeOnFailCount> (bullmq), m<dlqMaxLength>
//           (rabbitmq-quorum), x removeOnFail (bullmq), o skipDeadSet (sidekiq), g<maxLength> (rabbitmq-quorum),
//           t<messageTtlMs> (rabbitmq-quorum),
//           L<defaultMessageTtlMs> and E deadLetterOnExpiry (service-bus),
//           c | q delayAt consumer-sleep | retry-queue (lab, written as rl; broker is
//           left out)
//   q       quarantine.retentionMs and quarantine.alarmDepth, then u for the teaching
//           switch unsafeQuarantineOrder; left out when all three are off
//   t       teaching switches, each a letter, in this order, at least one: c
//           effects.charge, k effects.idempotencyKey, b antiPatterns.countInBody,
//           d antiPatterns.decideBeforeCount, l antiPatterns.dlqToSource; left out
//           when all are off
//   world   <workers>.<workMs>[.<outageStartMs>.<outageEndMs>]   (world.h), left out for
//           one worker, 100 ms and no outage
//   behaviour <id>:<kind>[-]   kind h healthy | p<outcome> poison | f<count> flaky |
//           q<untilMs> precondition | c<count> crashes | x<letters> script (s t p u v q, c crash) |
//           m malformed (undeserializable until patched);
//           '-' when the job does not need the dependency; only jobs that are not
//           plain healthy are written, in the world's order
//   action  <outcome>[:<error>] | r<id> | e<id>:<payload>[:<key>]
//           y<id>                   replay(id, { resetAttempts: false }) (bullmq only)
//           l                       lease()
//           k<n><outcome>[:<error>] settle("lease-<n>", outcome, error)
//           w<ms>                   advance(ms)
//           n                       advanceToNext()
//           x<key>                  releaseKey(key); the key is not empty
//           f<id>:<payload>          patch(id, payload): a quarantined job's payload fixed
//           d<max>[k<class>][r<p|e>] redrive({ max, class, reason }): k only entries of
//                                   that class, r of reason p permanent or e exhausted
//
// The seed is always written: a v2 link names its PRNG explicitly. The mode's
// settings (r) and the switches (t) are their policy rows' link columns
// (core/policy/schema.cpp), read and written by ReadMember and AppendMember.
#include <algorithm>
#include <iterator>
#include <limits>
#include <type_traits>

#include "link.h"
#include "schema.h"

namespace dlq::link {
namespace {

// Fields in the only order a v2 link may have them, each at most once.
constexpr std::string_view kFieldOrder = "mblsforqtyhjac";

// What may follow field `last` (the seed is required, so nothing after it may
// come before it); the error text when something else does.
const char* FieldsAfter(char last) {
  switch (last) {
    case 'm': return "a field in order: b (backoff), l (leaseMs), s (seed)";
    case 'b': return "a field in order: l (leaseMs), s (seed)";
    case 'l': return "the field s (seed)";
    case 's':
      return "a field in order: f (failure classes), o (ordering), r (system), q (quarantine), t (switches), "
             "y (world), h (behaviours), j (jobs), a (actions), c (cursor)";
    case 'f':
      return "a field in order: o (ordering), r (system), q (quarantine), t (switches), y (world), h (behaviours), "
             "j (jobs), a (actions), c (cursor)";
    case 'o':
      return "a field in order: r (system), q (quarantine), t (switches), y (world), h (behaviours), j (jobs), "
             "a (actions), c (cursor)";
    case 'r':
      return "a field in order: q (quarantine), t (switches), y (world), h (behaviours), j (jobs), a (actions), "
             "c (cursor)";
    case 'q': return "a field in order: t (switches), y (world), h (behaviours), j (jobs), a (actions), c (cursor)";
    case 't': return "a field in order: y (world), h (behaviours), j (jobs), a (actions), c (cursor)";
    case 'y': return "a field in order: h (behaviours), j (jobs), a (actions), c (cursor)";
    case 'h': return "a field in order: j (jobs), a (actions), c (cursor)";
    case 'j': return "a field in order: a (actions), c (cursor)";
    case 'a': return "the field c (cursor)";
    default: return "the end of the link";
  }
}

// The policy so far through Policy::Check: fields not read yet hold their
// defaults, so the first refusal is about the field just read (or a pair it
// completes, such as capMs below baseMs).
Status CheckPolicy(const Policy& policy) {
  if (Status s = Policy::Check(policy); !s.ok()) return Status::Error(s.code(), "scenario link: " + s.message());
  return Status::Ok();
}

// ---- a field's optional members, from the policy's rows (schema.cpp) -----------
//
// A mode's own settings (after the system's code in r) and the teaching switches
// (t) are each written only when not the default, as the row's link_code and
// then its value: an integer's digits, nothing for a boolean (on), a choice's
// own code. They are read in table order, each at most once.

// The digits an integer row's largest value has: the most a link may give it.
size_t Digits(int64_t max) {
  size_t n = 1;
  for (; max >= 10; max /= 10) ++n;
  return n;
}

// A choice row's codes other than the default's, as an error lists them:
// "u3 unset-3.x, u4 unset-4.x, uc classic-queue".
std::string ChoiceCodes(const FieldSpec& spec, int64_t default_index) {
  std::string out;
  for (int i = 0; i < spec.choices->count; ++i) {
    if (i == default_index) continue;
    if (!out.empty()) out += ", ";
    out.append(spec.link_code).append(spec.choices->items[i].link).append(" ").append(spec.choices->items[i].name);
  }
  return out;
}

// The row's value after its code, if its code is next. `check`: through
// CheckPolicy as soon as it is read (a mode's settings are refused by the rule
// that owns them; the switches are checked with the policy).
Status ReadMember(Reader& in, const Field<Policy>& row, Policy* policy, bool check) {
  const FieldSpec& spec = row.spec;
  const int64_t fallback = row.get(Policy{});
  const auto set = [&](int64_t v) {
    row.set(*policy, v);
    return check ? CheckPolicy(*policy) : Status::Ok();
  };
  if (spec.link_code[0] == '\0') {  // a choice told by its own code alone
    if (spec.kind != FieldKind::kChoice) return Status::Ok();
    for (int i = 0; i < spec.choices->count; ++i) {
      const char* code = spec.choices->items[i].link;
      if (i == fallback || code == nullptr || in.done() || in.peek() != code[0]) continue;
      in.Accept(in.peek());
      return set(i);
    }
    return Status::Ok();
  }
  if (!in.Accept(spec.link_code[0])) return Status::Ok();
  switch (spec.kind) {
    case FieldKind::kInteger: {
      uint64_t n = 0;
      RETURN_IF_ERROR(in.Number(spec.name, Digits(spec.range->max), &n));
      RETURN_IF_ERROR(set(static_cast<int64_t>(n)));
      if (static_cast<int64_t>(n) == fallback) {
        return in.Error(std::string("a ") + spec.name + " other than " + std::to_string(fallback));
      }
      return Status::Ok();
    }
    case FieldKind::kBoolean: return set(1);
    case FieldKind::kChoice:
      for (int i = 0; i < spec.choices->count; ++i) {
        const char* code = spec.choices->items[i].link;
        if (i == fallback || code == nullptr || in.done() || in.peek() != code[0]) continue;
        in.Accept(in.peek());
        return set(i);
      }
      return in.Error(std::string(spec.name) + " (" + ChoiceCodes(spec, fallback) + ")");
  }
  return Status::Ok();
}

void AppendMember(std::string& out, const Field<Policy>& row, const Policy& policy) {
  const int64_t v = row.get(policy);
  if (v == row.get(Policy{})) return;
  out += row.spec.link_code;
  switch (row.spec.kind) {
    case FieldKind::kInteger: out += std::to_string(v); break;
    case FieldKind::kBoolean: break;
    case FieldKind::kChoice: out += row.spec.choices->items[v].link; break;
  }
}

Status ReadSwitches(Reader& in, Policy* policy) {
  const Policy before = *policy;
  std::string listed;
  for (const Field<Policy>& row : PolicyFields()) {
    if (!IsTeachingSwitch(row.spec)) continue;
    RETURN_IF_ERROR(ReadMember(in, row, policy, false));
    listed.append(listed.empty() ? "" : ", ").append(row.spec.link_code).append(" ").append(row.spec.name);
  }
  if (*policy == before) return in.Error("a teaching switch (" + listed + "), in that order");
  return Status::Ok();
}

void AppendSwitches(std::string& out, const Policy& policy) {
  std::string letters;
  for (const Field<Policy>& row : PolicyFields()) {
    if (IsTeachingSwitch(row.spec)) AppendMember(letters, row, policy);
  }
  if (!letters.empty()) out.append(1, ';').append(1, kSwitchLinkField).append(letters);
}

// The system's code, then the mode's own settings: the r field's body.
Status ReadSystem(Reader& in, Policy* policy) {
  int found = -1;
  for (int i = 0; i < kSystemChoices.count && found < 0; ++i) {
    if (!in.done() && in.peek() == kSystemChoices.items[i].link[0]) found = i;
  }
  if (found < 0) {
    // The letters with their names from the system choice list, the default (lab) last.
    std::string letters;
    for (int k = 1; k <= kSystemChoices.count; ++k) {
      const Choice& c = kSystemChoices.items[k % kSystemChoices.count];
      letters.append(letters.empty() ? "" : ", ").append(c.link).append(" ").append(c.name);
    }
    return in.Error("system (" + letters + ")");
  }
  policy->system = static_cast<System>(found);
  in.Accept(in.peek());
  RETURN_IF_ERROR(CheckPolicy(*policy));
  for (const Field<Policy>& row : PolicyFields()) {
    if (!IsModeSetting(row.spec)) continue;
    RETURN_IF_ERROR(ReadMember(in, row, policy, true));
  }
  return Status::Ok();
}

// ";r<system>" and the mode's settings, when the system or a setting is not the default.
void AppendSystem(std::string& out, const Policy& policy) {
  std::string settings;
  for (const Field<Policy>& row : PolicyFields()) {
    if (IsModeSetting(row.spec)) AppendMember(settings, row, policy);
  }
  if (policy.system == Policy{}.system && settings.empty()) return;
  out.append(1, ';').append(1, kModeLinkField).append(kSystemChoices.items[static_cast<int>(policy.system)].link);
  out += settings;
}

// A choice's code in a link (schema.h: each choice's link column).
char Code(const Choices& choices, int index) { return choices.items[index].link[0]; }

// <kind><baseMs>.<capMs><jitter>: the b field's body, and a class row's own
// backoff; `prefix` names it ("backoff", "classes.precondition.backoff").
Status ReadBackoff(Reader& in, const std::string& prefix, Backoff* backoff) {
  switch (in.peek()) {
    case 'n': backoff->kind = BackoffKind::kNone; break;
    case 'f': backoff->kind = BackoffKind::kFixed; break;
    case 'x': backoff->kind = BackoffKind::kExponential; break;
    default: return in.Error(prefix + ".kind (f fixed, x exponential, n none)");
  }
  in.Accept(in.peek());
  // Up to 8 digits: every value in range (at most kMaxDelayMs) has them.
  uint64_t base = 0;
  uint64_t cap = 0;
  RETURN_IF_ERROR(in.Number(prefix + ".baseMs", 8, &base));
  if (!in.Accept('.')) return in.Error("'.' between " + prefix + ".baseMs and " + prefix + ".capMs");
  RETURN_IF_ERROR(in.Number(prefix + ".capMs", 8, &cap));
  backoff->base_ms = static_cast<int64_t>(base);
  backoff->cap_ms = static_cast<int64_t>(cap);
  switch (in.peek()) {
    case 'n': backoff->jitter = Jitter::kNone; break;
    case 'f': backoff->jitter = Jitter::kFull; break;
    case 'e': backoff->jitter = Jitter::kEqual; break;
    case 'd': backoff->jitter = Jitter::kDecorrelated; break;
    case 'b': backoff->jitter = Jitter::kBullMq; break;
    default: return in.Error(prefix + ".jitter (n none, f full, e equal, d decorrelated, b bullmq)");
  }
  in.Accept(in.peek());
  if (backoff->jitter == Jitter::kBullMq) {  // its fraction follows: 1 to 1000 has at most 4 digits
    uint64_t permille = 0;
    RETURN_IF_ERROR(in.Number(prefix + ".jitterPermille", 4, &permille));
    backoff->jitter_permille = static_cast<int64_t>(permille);
  }
  return Status::Ok();
}

void AppendBackoff(std::string& out, const Backoff& backoff) {
  out.append(1, Code(kBackoffKindChoices, static_cast<int>(backoff.kind))).append(std::to_string(backoff.base_ms));
  out.append(".")
      .append(std::to_string(backoff.cap_ms))
      .append(1, Code(kJitterChoices, static_cast<int>(backoff.jitter)));
  if (backoff.jitter == Jitter::kBullMq) out.append(std::to_string(backoff.jitter_permille));
}

// A failure class's letter in the f field; outcomes' classes share their outcome's
// letter, and c is crash.
constexpr std::string_view kClassLetters = "tpuvqc";
static_assert(kClassLetters.size() == kFailureClassCount);

constexpr const char* kClassLetterList =
    "t transient, p permanent, u undeserializable, v unknown-schema, q precondition, c crash";

// The f field's body: <class><n|b><maxAttempts>[.<backoff>][!],… in class order,
// each class at most once. A row replaces its class's default rule whole; every
// row goes through Policy::Check as soon as it is read.
Status ReadClasses(Reader& in, Policy* policy) {
  int last = -1;
  do {
    const size_t found = in.done() ? std::string_view::npos : kClassLetters.find(in.peek());
    if (found == std::string_view::npos || static_cast<int>(found) <= last) {
      if (last < 0) return in.Error(std::string("a failure class (") + kClassLetterList + ")");
      return in.Error(std::string("a failure class after ") + ClassName(static_cast<FailureClass>(last)) + " (" +
                      kClassLetterList + "; each at most once, in this order)");
    }
    const int index = static_cast<int>(found);
    in.Accept(in.peek());
    const std::string prefix = std::string("classes.") + ClassName(static_cast<FailureClass>(index));
    ClassRule rule;
    switch (in.peek()) {
      case 'n': rule.retry = false; break;
      case 'b': rule.retry = true; break;
      default: return in.Error(prefix + ".retry (n never, b bounded)");
    }
    in.Accept(in.peek());
    uint64_t max_attempts = 0;
    // 7 digits hold every value in range (at most 1000000).
    RETURN_IF_ERROR(in.Number(prefix + ".maxAttempts", 7, &max_attempts));
    rule.max_attempts = static_cast<int64_t>(max_attempts);
    if (in.Accept('.')) {
      rule.own_backoff = true;
      RETURN_IF_ERROR(ReadBackoff(in, prefix + ".backoff", &rule.backoff));
    }
    rule.alert = in.Accept('!');
    policy->classes.rules[index] = rule;
    RETURN_IF_ERROR(CheckPolicy(*policy));
    if (!in.done() && in.peek() != ',' && in.peek() != ';') {
      std::string expected;
      if (!rule.own_backoff && !rule.alert) expected += "'.' and " + prefix + ".backoff, ";
      if (!rule.alert) expected += "'!' (alert), ";
      return in.Error(expected + "',' before the next class row, ';' or the end of the link");
    }
    last = index;
  } while (in.Accept(','));
  return Status::Ok();
}

// The rows of `classes` that differ from the default table, in class order.
void AppendClasses(std::string& out, const ClassTable& classes) {
  const ClassTable defaults;
  bool first = true;
  for (int i = 0; i < kFailureClassCount; ++i) {
    const ClassRule& rule = classes.rules[i];
    if (rule == defaults.rules[i]) continue;
    out += first ? ";f" : ",";
    first = false;
    out.append(1, kClassLetters[i]).append(1, rule.retry ? 'b' : 'n').append(std::to_string(rule.max_attempts));
    if (rule.own_backoff) {
      out += '.';
      AppendBackoff(out, rule.backoff);
    }
    if (rule.alert) out += '!';
  }
}

// A percent-encoded ordering key (the jobs' third part, enqueue's, releaseKey's);
// TooLarge past kMaxKeyBytes once decoded, as the queue would refuse it.
Status ReadKey(Reader& in, const std::string& what, std::string* key) {
  const std::string at = in.Position();
  RETURN_IF_ERROR(in.String(what, key));
  return CheckSize("scenario link: " + what + " at character " + at, kMaxKeyBytes, key->size());
}

// ":<key>" if present, into *key (an empty key after the ':' is read as none).
Status ReadOptionalKey(Reader& in, const std::string& what, std::string* key) {
  if (!in.Accept(':')) return Status::Ok();
  return ReadKey(in, what, key);
}

// The j field's body: <id>:<payload>[:<key>],… (one or more jobs). v1's reader
// (link_text.h) stays as released; v2's jobs may carry a key.
Status ReadKeyedJobs(Reader& in, std::vector<JobSpec>* jobs) {
  do {
    JobSpec& job = jobs->emplace_back();
    const std::string n = "job " + std::to_string(jobs->size());
    RETURN_IF_ERROR(in.String(n + " id", &job.id));
    if (!in.Accept(':')) return in.Error("':' between " + n + "'s id and payload");
    RETURN_IF_ERROR(in.String(n + " payload", &job.payload));
    RETURN_IF_ERROR(ReadOptionalKey(in, n + " key", &job.key));
    if (!in.done() && in.peek() != ',' && in.peek() != ';') {
      return in.Error("',' before the next job, ';' or the end of the link");
    }
  } while (in.Accept(','));
  return Status::Ok();
}

// ":<key>" when the key is not empty.
void AppendKey(std::string& out, const std::string& key) {
  if (key.empty()) return;
  out += ':';
  AppendEncoded(out, key);
}

void AppendKeyedJobs(std::string& out, const std::vector<JobSpec>& jobs) {
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (i > 0) out += ',';
    AppendEncoded(out, jobs[i].id);
    out += ':';
    AppendEncoded(out, jobs[i].payload);
    AppendKey(out, jobs[i].key);
  }
}

// ":<error>" if present, into *error.
Status ReadError(Reader& in, const std::string& n, std::string* error) {
  if (!in.Accept(':')) return Status::Ok();
  return in.String(n + " error text", error);
}

// k<n><outcome>[:<error>]: settle("lease-<n>", outcome, error), past its letter.
Status ReadSettle(Reader& in, const std::string& n, std::vector<Action>* actions) {
  uint64_t lease = 0;
  RETURN_IF_ERROR(in.Number(n + " lease number", 10, &lease));
  if (lease < 1 || lease > std::numeric_limits<uint32_t>::max()) {
    return Status::OutOfRange("scenario link: " + n + ": the lease number must be an integer from 1 to " +
                              std::to_string(std::numeric_limits<uint32_t>::max()) + ", got " + std::to_string(lease));
  }
  Outcome outcome = Outcome::kSuccess;
  if (!ParseOutcomeLetter(in.peek(), &outcome, true)) {
    return in.Error(n +
                    "'s outcome after the lease number (s success, t transient, p permanent, u "
                    "undeserializable, v unknown-schema, q precondition)");
  }
  in.Accept(in.peek());
  auto& settle =
      std::get<action::Settle>(actions->emplace_back(action::Settle{static_cast<uint32_t>(lease), outcome, {}}));
  return ReadError(in, n, &settle.error);
}

// A number of `digits` at most that `range` admits (OutOfRange naming the action otherwise).
Status ReadActionNumber(Reader& in, const std::string& n, const std::string& what, size_t digits,
                        const IntegerField& range, int64_t* out) {
  uint64_t number = 0;
  RETURN_IF_ERROR(in.Number(n + " " + what, digits, &number));
  if (Status s = range.Check(static_cast<int64_t>(number)); !s.ok()) {
    return Status::OutOfRange("scenario link: " + n + ": " + s.message());
  }
  *out = static_cast<int64_t>(number);
  return Status::Ok();
}

// d<max>[k<class>][r<p|e>]: redrive({ max, class, reason }), past its letter.
Status ReadRedrive(Reader& in, const std::string& n, std::vector<Action>* actions) {
  action::Redrive redrive;
  // 10 digits hold every value up to kRedriveMaxField.max (1000000000).
  RETURN_IF_ERROR(ReadActionNumber(in, n, "max", 10, kRedriveMaxField, &redrive.max));
  if (in.Accept('k')) {  // only entries of one failure class
    const size_t at = kClassLetters.find(in.peek());
    if (in.peek() == '\0' || at == std::string_view::npos) return in.Error(n + " class (t, p, u, v, q or c)");
    in.Accept(in.peek());
    redrive.only.failure_class = static_cast<FailureClass>(at);
  }
  if (in.Accept('r')) {  // only entries of one reason
    if (in.Accept('p')) redrive.only.reason = Reason::kPermanent;
    else if (in.Accept('e')) redrive.only.reason = Reason::kExhausted;
    else return in.Error(n + " reason (p permanent, e exhausted)");
  }
  actions->emplace_back(std::move(redrive));
  return Status::Ok();
}

// <id>:<payload>[:<key>] of an enqueue (`keyed`) or a patch, past its letter.
template <class A>
Status ReadIdPayload(Reader& in, const std::string& n, bool keyed, std::vector<Action>* actions) {
  auto& a = std::get<A>(actions->emplace_back(A{}));
  RETURN_IF_ERROR(in.String(n + " id", &a.id));
  if (!in.Accept(':')) return in.Error("':' between " + n + "'s id and payload");
  RETURN_IF_ERROR(in.String(n + " payload", &a.payload));
  if constexpr (std::is_same_v<A, action::Enqueue>) {
    if (keyed) return ReadOptionalKey(in, n + " key", &a.key);
  }
  return Status::Ok();
}

// One action, its letter next; `n` names it ("action 3").
Status ReadAction(Reader& in, const std::string& n, std::vector<Action>* actions) {
  const char letter = in.peek();
  Outcome outcome = Outcome::kSuccess;
  // Built in place: GCC 12 warns (falsely) about moving a whole variant in.
  if (ParseOutcomeLetter(letter, &outcome, true)) {
    in.Accept(letter);
    auto& process = std::get<action::Process>(actions->emplace_back(action::Process{outcome, {}}));
    return ReadError(in, n, &process.error);
  }
  const std::string_view letters = "ryelkwnxdfc";
  if (letter == '\0' || letters.find(letter) == std::string_view::npos) {
    return in.Error(
        n +
        " (s, t, p, u, v or q to process, r to replay, e to enqueue, l to lease, k to settle, w to advance, "
        "n to advance to the next timer, x to release a key, d to redrive, f to patch, c to crash)");
  }
  in.Accept(letter);
  switch (letter) {
    case 'r':
    case 'y': {
      auto& replay = std::get<action::Replay>(actions->emplace_back(action::Replay{}));
      replay.keep_attempts = letter == 'y';
      return in.String(n + " id", &replay.id);
    }
    case 'e': return ReadIdPayload<action::Enqueue>(in, n, true, actions);
    case 'f': return ReadIdPayload<action::Patch>(in, n, false, actions);
    case 'l': actions->emplace_back(action::Lease{}); return Status::Ok();
    case 'k': return ReadSettle(in, n, actions);
    case 'w': {
      int64_t ms = 0;
      // 16 digits hold every value up to kMaxTimeMs (2^53 - 1).
      RETURN_IF_ERROR(ReadActionNumber(in, n, "ms", 16, kAdvanceMsField, &ms));
      actions->emplace_back(action::Advance{ms});
      return Status::Ok();
    }
    case 'n': actions->emplace_back(action::AdvanceToNext{}); return Status::Ok();
    case 'x': {
      auto& release = std::get<action::ReleaseKey>(actions->emplace_back(action::ReleaseKey{}));
      RETURN_IF_ERROR(ReadKey(in, n + " key", &release.key));
      if (release.key.empty()) return in.Error(n + " key (releaseKey names the key to release; it cannot be empty)");
      return Status::Ok();
    }
    case 'd': return ReadRedrive(in, n, actions);
    default: {  // 'c'
      int64_t after = 0;
      // 9 digits hold every value up to kCrashAfterField.max (1,572,864).
      RETURN_IF_ERROR(ReadActionNumber(in, n, "write", 9, kCrashAfterField, &after));
      actions->emplace_back(action::Crash{after, in.Accept('t')});
      return Status::Ok();
    }
  }
}

Status ReadActionsV2(Reader& in, std::vector<Action>* actions) {
  do {
    RETURN_IF_ERROR(ReadAction(in, "action " + std::to_string(actions->size() + 1), actions));
    if (!in.done() && in.peek() != ',' && in.peek() != ';') {
      return in.Error("',' before the next action, ';' or the end of the link");
    }
  } while (in.Accept(','));
  return Status::Ok();
}

// A field that is one integer row of the policy (m, l, s): its digits, through CheckPolicy.
Status ReadNumberField(Reader& in, char field, Policy* policy) {
  for (const Field<Policy>& row : PolicyFields()) {
    if (row.spec.link_field != field || row.spec.kind != FieldKind::kInteger) continue;
    uint64_t n = 0;
    RETURN_IF_ERROR(in.Number(row.spec.name, Digits(row.spec.range->max), &n));
    row.set(*policy, static_cast<int64_t>(n));
    return CheckPolicy(*policy);
  }
  return in.Error(FieldsAfter(field));  // no such row: not a field that reader takes
}

// The o field's body: k key | s stall | n none.
Status ReadOrdering(Reader& in, Policy* policy) {
  for (int i = 0; i < kOrderingChoices.count; ++i) {
    if (in.done() || in.peek() != Code(kOrderingChoices, i)) continue;
    in.Accept(in.peek());
    policy->ordering = static_cast<Ordering>(i);
    return CheckPolicy(*policy);
  }
  return in.Error("ordering (k key, s stall, n none)");
}

// The q field's body: <retentionMs>.<alarmDepth>[u].
Status ReadQuarantine(Reader& in, Policy* policy) {
  uint64_t retention_ms = 0;
  uint64_t alarm_depth = 0;
  // 16 digits hold every retention up to kMaxTimeMs (2^53 - 1); 10 every
  // alarm depth up to 1000000000.
  RETURN_IF_ERROR(in.Number("quarantine.retentionMs", 16, &retention_ms));
  policy->retention_ms = static_cast<int64_t>(retention_ms);
  RETURN_IF_ERROR(CheckPolicy(*policy));
  if (!in.Accept('.')) return in.Error("'.' between quarantine.retentionMs and quarantine.alarmDepth");
  RETURN_IF_ERROR(in.Number("quarantine.alarmDepth", 10, &alarm_depth));
  policy->alarm_depth = static_cast<int64_t>(alarm_depth);
  policy->unsafe_quarantine_order = in.Accept('u');
  return CheckPolicy(*policy);
}

// The c field's body: the cursor, within the script read so far.
Status ReadCursor(Reader& in, Scenario* scenario) {
  uint64_t cursor = 0;
  RETURN_IF_ERROR(in.Number("the cursor", 9, &cursor));
  if (Status s = CheckCursor(cursor, scenario->actions.size()); !s.ok()) {
    return Status::OutOfRange("scenario link: " + s.message());
  }
  scenario->cursor = static_cast<size_t>(cursor);
  return Status::Ok();
}

// The body of field `field` (its letter just read), into *scenario.
Status ReadField(Reader& in, char field, Scenario* scenario) {
  Policy& policy = scenario->policy;
  switch (field) {
    case 'b': RETURN_IF_ERROR(ReadBackoff(in, "backoff", &policy.backoff)); return CheckPolicy(policy);
    case 'l':
    case 's': return ReadNumberField(in, field, &policy);
    case 'f': return ReadClasses(in, &policy);
    case 'o': return ReadOrdering(in, &policy);
    case kModeLinkField: return ReadSystem(in, &policy);
    case 'q': return ReadQuarantine(in, &policy);
    case kSwitchLinkField: return ReadSwitches(in, &policy);
    case 'y': return ReadWorld(in, &scenario->world);
    case 'h': return ReadBehaviours(in, &scenario->world);
    case 'j': return ReadKeyedJobs(in, &scenario->jobs);
    case 'a': return ReadActionsV2(in, &scenario->actions);
    case 'c': return ReadCursor(in, scenario);
    default: return in.Error(FieldsAfter(field));
  }
}

void AppendAction(std::string& out, const Action& action) {
  const auto append_error = [&out](const std::string& error) {
    if (error.empty()) return;
    out += ':';
    AppendEncoded(out, error);
  };
  const auto append_id_payload = [&out](char letter, const std::string& id, const std::string& payload) {
    out += letter;
    AppendEncoded(out, id);
    out += ':';
    AppendEncoded(out, payload);
  };
  std::visit(Overloaded{
                 [&](const action::Process& a) {
                   out += OutcomeLetter(a.outcome);
                   append_error(a.error);
                 },
                 [&](const action::Replay& a) {
                   out += a.keep_attempts ? 'y' : 'r';
                   AppendEncoded(out, a.id);
                 },
                 [&](const action::Enqueue& a) {
                   append_id_payload('e', a.id, a.payload);
                   AppendKey(out, a.key);
                 },
                 [&](const action::Lease&) { out += 'l'; },
                 [&](const action::Settle& a) {
                   out.append(1, 'k').append(std::to_string(a.lease)).append(1, OutcomeLetter(a.outcome));
                   append_error(a.error);
                 },
                 [&](const action::Advance& a) { out += 'w' + std::to_string(a.ms); },
                 [&](const action::AdvanceToNext&) { out += 'n'; },
                 [&](const action::ReleaseKey& a) {
                   out += 'x';
                   AppendEncoded(out, a.key);
                 },
                 [&](const action::Redrive& a) {
                   out += 'd' + std::to_string(a.max);
                   if (a.only.failure_class) {
                     out.append(1, 'k').append(1, kClassLetters[static_cast<int>(*a.only.failure_class)]);
                   }
                   if (a.only.reason == Reason::kPermanent) out += "rp";
                   if (a.only.reason == Reason::kExhausted) out += "re";
                 },
                 [&](const action::Crash& a) {
                   out += 'c' + std::to_string(a.after);
                   if (a.torn) out += 't';
                 },
                 [&](const action::Patch& a) { append_id_payload('f', a.id, a.payload); },
             },
             action);
}

}  // namespace

Result<Scenario> ReadV2(Reader& in) {
  Scenario scenario;
  if (!in.Accept(';') || !in.Accept('m')) return in.Error("';m' and the policy's maxAttempts");
  RETURN_IF_ERROR(ReadNumberField(in, 'm', &scenario.policy));
  bool has_seed = false;
  bool has_cursor = false;
  char last_field = 'm';
  while (in.Accept(';')) {
    const char field = in.peek();
    const size_t order = kFieldOrder.find(field);
    const bool in_order = field != '\0' && order != std::string_view::npos && order > kFieldOrder.find(last_field) &&
                          (has_seed || order <= kFieldOrder.find('s'));
    if (!in_order) return in.Error(FieldsAfter(last_field));
    in.Accept(field);
    RETURN_IF_ERROR(ReadField(in, field, &scenario));
    has_seed = has_seed || field == 's';
    has_cursor = has_cursor || field == 'c';
    last_field = field;
  }
  if (!in.done()) return in.Error("';' or the end of the link");
  if (!has_seed) return in.Error("';s' and the policy's seed (a v2 link always carries it)");
  if (!has_cursor) scenario.cursor = scenario.actions.size();
  // The behaviours come before the jobs and the script: only now can each be
  // matched with a job.
  if (Status s = CheckScenario(scenario); !s.ok()) return Status::Error(s.code(), "scenario link: " + s.message());
  // What the writer leaves out (an empty outage, a default behaviour) reads as
  // absent, so a parsed scenario formats back to itself.
  scenario.world = CanonicalWorld(std::move(scenario.world));
  return scenario;
}

std::string WriteV2(const Scenario& scenario) {
  const Policy& policy = scenario.policy;
  std::string out = "v2;m" + std::to_string(policy.max_attempts);
  if (!(policy.backoff == Backoff{})) {
    out += ";b";
    AppendBackoff(out, policy.backoff);
  }
  if (policy.lease_ms != Policy{}.lease_ms) out += ";l" + std::to_string(policy.lease_ms);
  out += ";s" + std::to_string(policy.seed);
  AppendClasses(out, policy.classes);
  if (policy.ordering != Ordering::kNone) {
    out.append(";o").append(1, Code(kOrderingChoices, static_cast<int>(policy.ordering)));
  }
  AppendSystem(out, policy);
  if (policy.retention_ms != 0 || policy.alarm_depth != 0 || policy.unsafe_quarantine_order) {
    out.append(";q").append(std::to_string(policy.retention_ms)).append(".").append(std::to_string(policy.alarm_depth));
    if (policy.unsafe_quarantine_order) out += 'u';
  }
  AppendSwitches(out, policy);
  AppendWorld(out, scenario.world);
  AppendBehaviours(out, scenario.world.behaviours);
  if (!scenario.jobs.empty()) {
    out += ";j";
    AppendKeyedJobs(out, scenario.jobs);
  }
  for (size_t i = 0; i < scenario.actions.size(); ++i) {
    out += i == 0 ? ";a" : ",";
    AppendAction(out, scenario.actions[i]);
  }
  if (scenario.cursor != scenario.actions.size()) out += ";c" + std::to_string(scenario.cursor);
  return out;
}

}  // namespace dlq::link
