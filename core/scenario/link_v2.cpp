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
//           default: s<maxStalledCount> (bullmq), d<deadMaxJobs> (sidekiq), j retryInJitter and e retryEveryError (sidekiq),
//           u3 | u4 | uc deliveryLimit unset-3.x | unset-4.x | classic-queue (rabbitmq-quorum), n deadLetterExchange none (rabbitmq-quorum),
//           f<removeOnFailCount> (bullmq), m<dlqMaxLength> (rabbitmq-quorum),
//           x removeOnFail (bullmq), o skipDeadSet (sidekiq), g<maxLength> (rabbitmq-quorum),
//           t<messageTtlMs> (rabbitmq-quorum),
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
// The seed is always written: a v2 link names its PRNG explicitly.
#include <algorithm>
#include <iterator>
#include <limits>

#include "link.h"
#include "registry.h"

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
    case 'q':
      return "a field in order: t (switches), y (world), h (behaviours), j (jobs), a (actions), c (cursor)";
    case 't': return "a field in order: y (world), h (behaviours), j (jobs), a (actions), c (cursor)";
    case 'y': return "a field in order: h (behaviours), j (jobs), a (actions), c (cursor)";
    case 'h': return "a field in order: j (jobs), a (actions), c (cursor)";
    case 'j': return "a field in order: a (actions), c (cursor)";
    case 'a': return "the field c (cursor)";
    default: return "the end of the link";
  }
}

// The teaching switches' letters, in the order a link writes them.
struct SwitchLetter {
  char letter;
  bool Policy::*flag;
};
constexpr SwitchLetter kSwitchLetters[] = {{'c', &Policy::effect_charge},
                                           {'k', &Policy::effect_idempotency_key},
                                           {'b', &Policy::count_in_body},
                                           {'d', &Policy::decide_before_count},
                                           {'l', &Policy::dlq_to_source}};

Status ReadSwitches(Reader& in, Policy* policy) {
  size_t next = 0;  // letters come in order, each at most once
  bool any = false;
  for (;;) {
    size_t k = next;
    while (k < std::size(kSwitchLetters) && kSwitchLetters[k].letter != in.peek()) ++k;
    if (in.peek() == '\0' || k == std::size(kSwitchLetters)) break;
    in.Accept(in.peek());
    policy->*kSwitchLetters[k].flag = true;
    any = true;
    next = k + 1;
  }
  if (!any) {
    return in.Error("a teaching switch (c effects.charge, k effects.idempotencyKey, b antiPatterns.countInBody, "
                    "d antiPatterns.decideBeforeCount, l antiPatterns.dlqToSource), in that order");
  }
  return Status::Ok();
}

void AppendSwitches(std::string& out, const Policy& policy) {
  std::string letters;
  for (const SwitchLetter& s : kSwitchLetters) {
    if (policy.*s.flag) letters += s.letter;
  }
  if (!letters.empty()) out.append(";t").append(letters);
}

char KindLetter(BackoffKind kind) {
  switch (kind) {
    case BackoffKind::kNone: return 'n';
    case BackoffKind::kFixed: return 'f';
    case BackoffKind::kExponential: return 'x';
  }
  return '?';
}

char JitterLetter(Jitter jitter) {
  switch (jitter) {
    case Jitter::kNone: return 'n';
    case Jitter::kFull: return 'f';
    case Jitter::kEqual: return 'e';
    case Jitter::kDecorrelated: return 'd';
    case Jitter::kBullMq: return 'b';
  }
  return '?';
}

// The system's letter (lab has one only for reading).

char OrderingLetter(Ordering ordering) {
  switch (ordering) {
    case Ordering::kNone: return 'n';
    case Ordering::kKey: return 'k';
    case Ordering::kStall: return 's';
  }
  return '?';
}

// The policy so far through Policy::Check: fields not read yet hold their
// defaults, so the first refusal is about the field just read (or a pair it
// completes, such as capMs below baseMs).
Status CheckPolicy(const Policy& policy) {
  if (Status s = Policy::Check(policy); !s.ok()) return Status::Error(s.code(), "scenario link: " + s.message());
  return Status::Ok();
}

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
  if (Status s = in.Number(prefix + ".baseMs", 8, &base); !s.ok()) return s;
  if (!in.Accept('.')) return in.Error("'.' between " + prefix + ".baseMs and " + prefix + ".capMs");
  if (Status s = in.Number(prefix + ".capMs", 8, &cap); !s.ok()) return s;
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
    if (Status s = in.Number(prefix + ".jitterPermille", 4, &permille); !s.ok()) return s;
    backoff->jitter_permille = static_cast<int64_t>(permille);
  }
  return Status::Ok();
}

void AppendBackoff(std::string& out, const Backoff& backoff) {
  out.append(1, KindLetter(backoff.kind)).append(std::to_string(backoff.base_ms));
  out.append(".").append(std::to_string(backoff.cap_ms)).append(1, JitterLetter(backoff.jitter));
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
    if (Status s = in.Number(prefix + ".maxAttempts", 7, &max_attempts); !s.ok()) return s;
    rule.max_attempts = static_cast<int64_t>(max_attempts);
    if (in.Accept('.')) {
      rule.own_backoff = true;
      if (Status s = ReadBackoff(in, prefix + ".backoff", &rule.backoff); !s.ok()) return s;
    }
    rule.alert = in.Accept('!');
    policy->classes.rules[index] = rule;
    if (Status s = CheckPolicy(*policy); !s.ok()) return s;
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
  if (Status s = in.String(what, key); !s.ok()) return s;
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
    if (Status s = in.String(n + " id", &job.id); !s.ok()) return s;
    if (!in.Accept(':')) return in.Error("':' between " + n + "'s id and payload");
    if (Status s = in.String(n + " payload", &job.payload); !s.ok()) return s;
    if (Status s = ReadOptionalKey(in, n + " key", &job.key); !s.ok()) return s;
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

// The y field's body: <workers>.<workMs>[.<outageStartMs>.<outageEndMs>].
Status ReadWorld(Reader& in, World* world) {
  uint64_t workers = 0, work_ms = 0, start = 0, end = 0;
  if (Status s = in.Number("world.workers", 2, &workers); !s.ok()) return s;
  if (!in.Accept('.')) return in.Error("'.' between world.workers and world.workMs");
  if (Status s = in.Number("world.workMs", 8, &work_ms); !s.ok()) return s;
  world->workers = static_cast<int64_t>(workers);
  world->work_ms = static_cast<int64_t>(work_ms);
  if (in.Accept('.')) {
    if (Status s = in.Number("world.outage.startMs", 16, &start); !s.ok()) return s;
    if (!in.Accept('.')) return in.Error("'.' between world.outage.startMs and world.outage.endMs");
    if (Status s = in.Number("world.outage.endMs", 16, &end); !s.ok()) return s;
    world->outage_start = static_cast<int64_t>(start);
    world->outage_end = static_cast<int64_t>(end);
  }
  if (Status s = CheckWorld(*world); !s.ok()) return Status::Error(s.code(), "scenario link: " + s.message());
  return Status::Ok();
}

void AppendWorld(std::string& out, const World& w) {
  const World plain;
  if (w.workers == plain.workers && w.work_ms == plain.work_ms && w.outage_start == w.outage_end) return;
  out.append(";y").append(std::to_string(w.workers)).append(".").append(std::to_string(w.work_ms));
  if (w.outage_start != w.outage_end) {
    out.append(".").append(std::to_string(w.outage_start)).append(".").append(std::to_string(w.outage_end));
  }
}

// The h field's body: <id>:<kind>[-],… (one or more).
Status ReadBehaviours(Reader& in, World* world) {
  do {
    JobBehaviour& jb = world->behaviours.emplace_back();
    Behaviour& b = jb.behaviour;
    const std::string n = "behaviour " + std::to_string(world->behaviours.size());
    if (Status s = in.String(n + " id", &jb.id); !s.ok()) return s;
    if (!in.Accept(':')) return in.Error("':' between " + n + "'s id and kind");
    const char kind = in.peek();
    uint64_t number = 0;
    if (kind == 'h') {
      in.Accept(kind);
    } else if (kind == 'p') {
      in.Accept(kind);
      b.kind = BehaviourKind::kPoison;
      if (!ParseOutcomeLetter(in.peek(), &b.failure, true) || b.failure == Outcome::kSuccess) {
        return in.Error("a failing outcome letter (t, p, u, v, q) for " + n);
      }
      in.Accept(in.peek());
    } else if (kind == 'f' || kind == 'c' || kind == 'q') {
      in.Accept(kind);
      b.kind = kind == 'f' ? BehaviourKind::kFlaky : kind == 'c' ? BehaviourKind::kCrashes : BehaviourKind::kPrecondition;
      if (Status s = in.Number(n + (kind == 'q' ? " until" : " count"), kind == 'q' ? 16 : 7, &number); !s.ok()) return s;
      (kind == 'q' ? b.until : b.count) = static_cast<int64_t>(number);
    } else if (kind == 'm') {
      in.Accept(kind);
      b.kind = BehaviourKind::kMalformed;
    } else if (kind == 'x') {
      in.Accept(kind);
      b.kind = BehaviourKind::kScript;
      while (!in.done() && std::string_view("stpuvqc").find(in.peek()) != std::string_view::npos) {
        b.script += in.peek();
        in.Accept(in.peek());
      }
    } else {
      return in.Error("a behaviour for " + n + " (h, p<outcome>, f<count>, q<untilMs>, c<count>, x<letters>, m)");
    }
    b.needs_dependency = !in.Accept('-');
    if (!in.done() && in.peek() != ',' && in.peek() != ';') {
      return in.Error("',' before the next behaviour, ';' or the end of the link");
    }
  } while (in.Accept(','));
  if (Status s = CheckWorld(*world); !s.ok()) return Status::Error(s.code(), "scenario link: " + s.message());
  return Status::Ok();
}

void AppendBehaviours(std::string& out, const std::vector<JobBehaviour>& behaviours) {
  bool first = true;
  for (const JobBehaviour& jb : behaviours) {
    const Behaviour& b = jb.behaviour;
    if (b == Behaviour{}) continue;
    out += first ? ";h" : ",";
    first = false;
    AppendEncoded(out, jb.id);
    out += ':';
    switch (b.kind) {
      case BehaviourKind::kHealthy: out += 'h'; break;
      case BehaviourKind::kPoison: out.append(1, 'p').append(1, OutcomeLetter(b.failure)); break;
      case BehaviourKind::kFlaky: out += 'f' + std::to_string(b.count); break;
      case BehaviourKind::kPrecondition: out += 'q' + std::to_string(b.until); break;
      case BehaviourKind::kCrashes: out += 'c' + std::to_string(b.count); break;
      case BehaviourKind::kScript: out += 'x' + b.script; break;
      case BehaviourKind::kMalformed: out += 'm'; break;
    }
    if (!b.needs_dependency) out += '-';
  }
}

// ":<error>" if present, into *error.
Status ReadError(Reader& in, const std::string& n, std::string* error) {
  if (!in.Accept(':')) return Status::Ok();
  return in.String(n + " error text", error);
}

Status ReadActions(Reader& in, std::vector<Action>* actions) {
  do {
    const std::string n = "action " + std::to_string(actions->size() + 1);
    const char letter = in.peek();
    Outcome outcome = Outcome::kSuccess;
    // Built in place: GCC 12 warns (falsely) about moving a whole variant in.
    if (ParseOutcomeLetter(letter, &outcome, true)) {
      in.Accept(letter);
      auto& process = std::get<action::Process>(actions->emplace_back(action::Process{outcome, {}}));
      if (Status s = ReadError(in, n, &process.error); !s.ok()) return s;
    } else if (letter == 'r' || letter == 'y') {
      in.Accept(letter);
      auto& replay = std::get<action::Replay>(actions->emplace_back(action::Replay{}));
      replay.keep_attempts = letter == 'y';
      if (Status s = in.String(n + " id", &replay.id); !s.ok()) return s;
    } else if (letter == 'e') {
      in.Accept(letter);
      auto& enqueue = std::get<action::Enqueue>(actions->emplace_back(action::Enqueue{}));
      if (Status s = in.String(n + " id", &enqueue.id); !s.ok()) return s;
      if (!in.Accept(':')) return in.Error("':' between " + n + "'s id and payload");
      if (Status s = in.String(n + " payload", &enqueue.payload); !s.ok()) return s;
      if (Status s = ReadOptionalKey(in, n + " key", &enqueue.key); !s.ok()) return s;
    } else if (letter == 'l') {
      in.Accept(letter);
      actions->emplace_back(action::Lease{});
    } else if (letter == 'k') {
      in.Accept(letter);
      uint64_t lease = 0;
      if (Status s = in.Number(n + " lease number", 10, &lease); !s.ok()) return s;
      if (lease < 1 || lease > std::numeric_limits<uint32_t>::max()) {
        return Status::OutOfRange("scenario link: " + n + ": the lease number must be an integer from 1 to " +
                                  std::to_string(std::numeric_limits<uint32_t>::max()) + ", got " +
                                  std::to_string(lease));
      }
      if (!ParseOutcomeLetter(in.peek(), &outcome, true)) {
        return in.Error(n + "'s outcome after the lease number (s success, t transient, p permanent, u "
                                "undeserializable, v unknown-schema, q precondition)");
      }
      in.Accept(in.peek());
      auto& settle =
          std::get<action::Settle>(actions->emplace_back(action::Settle{static_cast<uint32_t>(lease), outcome, {}}));
      if (Status s = ReadError(in, n, &settle.error); !s.ok()) return s;
    } else if (letter == 'w') {
      in.Accept(letter);
      uint64_t ms = 0;
      // 16 digits hold every value up to kMaxTimeMs (2^53 - 1).
      if (Status s = in.Number(n + " ms", 16, &ms); !s.ok()) return s;
      if (Status s = kAdvanceMsField.Check(static_cast<int64_t>(ms)); !s.ok()) {
        return Status::OutOfRange("scenario link: " + n + ": " + s.message());
      }
      actions->emplace_back(action::Advance{static_cast<int64_t>(ms)});
    } else if (letter == 'n') {
      in.Accept(letter);
      actions->emplace_back(action::AdvanceToNext{});
    } else if (letter == 'x') {
      in.Accept(letter);
      auto& release = std::get<action::ReleaseKey>(actions->emplace_back(action::ReleaseKey{}));
      if (Status s = ReadKey(in, n + " key", &release.key); !s.ok()) return s;
      if (release.key.empty()) return in.Error(n + " key (releaseKey names the key to release; it cannot be empty)");
    } else if (letter == 'd') {
      in.Accept(letter);
      uint64_t max = 0;
      // 10 digits hold every value up to kRedriveMaxField.max (1000000000).
      if (Status s = in.Number(n + " max", 10, &max); !s.ok()) return s;
      if (Status s = kRedriveMaxField.Check(static_cast<int64_t>(max)); !s.ok()) {
        return Status::OutOfRange("scenario link: " + n + ": " + s.message());
      }
      action::Redrive redrive{static_cast<int64_t>(max)};
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
    } else if (letter == 'f') {
      in.Accept(letter);
      auto& patch = std::get<action::Patch>(actions->emplace_back(action::Patch{}));
      if (Status s = in.String(n + " id", &patch.id); !s.ok()) return s;
      if (!in.Accept(':')) return in.Error("':' between " + n + "'s id and payload");
      if (Status s = in.String(n + " payload", &patch.payload); !s.ok()) return s;
    } else if (letter == 'c') {
      in.Accept(letter);
      uint64_t after = 0;
      // 9 digits hold every value up to kCrashAfterField.max (1,572,864).
      if (Status s = in.Number(n + " write", 9, &after); !s.ok()) return s;
      if (Status s = kCrashAfterField.Check(static_cast<int64_t>(after)); !s.ok()) {
        return Status::OutOfRange("scenario link: " + n + ": " + s.message());
      }
      actions->emplace_back(action::Crash{static_cast<int64_t>(after), in.Accept('t')});
    } else {
      return in.Error(n +
                      " (s, t, p, u, v or q to process, r to replay, e to enqueue, l to lease, k to settle, w to advance, "
                      "n to advance to the next timer, x to release a key, d to redrive, f to patch, c to crash)");
    }
    if (!in.done() && in.peek() != ',' && in.peek() != ';') {
      return in.Error("',' before the next action, ';' or the end of the link");
    }
  } while (in.Accept(','));
  return Status::Ok();
}

// The ";r" group's settings after deliveryLimit, in the order AppendSystemGroup writes them.
Status ReadSystemGroupRest(Reader& in, Policy* policy) {
  const Policy defaults;
  if (in.Accept('n')) {
    policy->dead_letter_exchange = DeadLetterExchange::kNone;
    if (Status s = CheckPolicy(*policy); !s.ok()) return s;
  }
  if (in.Accept('f')) {
    uint64_t n = 0;
    if (Status s = in.Number("removeOnFailCount", 10, &n); !s.ok()) return s;
    policy->remove_on_fail_count = static_cast<int64_t>(n);
    if (Status s = CheckPolicy(*policy); !s.ok()) return s;
    if (n == 0) return in.Error("a removeOnFailCount other than 0");
  }
  if (in.Accept('m')) {
    uint64_t n = 0;
    if (Status s = in.Number("dlqMaxLength", 10, &n); !s.ok()) return s;
    policy->dlq_max_length = static_cast<int64_t>(n);
    if (Status s = CheckPolicy(*policy); !s.ok()) return s;
    if (n == 0) return in.Error("a dlqMaxLength other than 0");
  }
  if (in.Accept('x')) {
    policy->remove_on_fail = true;
    if (Status s = CheckPolicy(*policy); !s.ok()) return s;
  }
  if (in.Accept('o')) {
    policy->skip_dead_set = true;
    if (Status s = CheckPolicy(*policy); !s.ok()) return s;
  }
  if (in.Accept('g')) {
    uint64_t n = 0;
    if (Status s = in.Number("maxLength", 10, &n); !s.ok()) return s;
    policy->max_length = static_cast<int64_t>(n);
    if (Status s = CheckPolicy(*policy); !s.ok()) return s;
    if (n == 0) return in.Error("a maxLength other than 0");
  }
  if (in.Accept('t')) {
    uint64_t n = 0;
    // 16 digits hold every TTL up to kMaxTimeMs (2^53 - 1).
    if (Status s = in.Number("messageTtlMs", 16, &n); !s.ok()) return s;
    policy->message_ttl_ms = static_cast<int64_t>(n);
    if (Status s = CheckPolicy(*policy); !s.ok()) return s;
    if (n == 0) return in.Error("a messageTtlMs other than 0");
  }
  if (in.peek() == 'c' || in.peek() == 'q') {
    policy->delay_at = in.peek() == 'c' ? DelayAt::kConsumerSleep : DelayAt::kRetryQueue;
    in.Accept(in.peek());
    if (Status s = CheckPolicy(*policy); !s.ok()) return s;
  }
  return Status::Ok();
}

// A v2 link's ";r" group: the system's letter (each module's, registry.h), then each
// of its own settings that is not its default, each checked as it is read.
Status ReadSystemGroup(Reader& in, Policy* policy) {
  const std::optional<System> system = SystemByLinkLetter(in.peek());  // each module's letter
  if (!system) return in.Error("system (" + SystemLetterList() + ")");
  policy->system = *system;
  in.Accept(in.peek());
  if (Status s = CheckPolicy(*policy); !s.ok()) return s;
  const Policy defaults;
  if (in.Accept('s')) {
    uint64_t n = 0;
    if (Status s = in.Number("maxStalledCount", 4, &n); !s.ok()) return s;
    policy->max_stalled_count = static_cast<int64_t>(n);
    if (Status s = CheckPolicy(*policy); !s.ok()) return s;
    if (n == static_cast<uint64_t>(defaults.max_stalled_count)) return in.Error("a maxStalledCount other than 1");
  }
  if (in.Accept('d')) {
    uint64_t n = 0;
    if (Status s = in.Number("deadMaxJobs", 10, &n); !s.ok()) return s;
    policy->dead_max_jobs = static_cast<int64_t>(n);
    if (Status s = CheckPolicy(*policy); !s.ok()) return s;
    if (n == static_cast<uint64_t>(defaults.dead_max_jobs)) return in.Error("a deadMaxJobs other than 10000");
  }
  if (in.Accept('j')) {
    policy->retry_in_jitter = true;
    if (Status s = CheckPolicy(*policy); !s.ok()) return s;
  }
  if (in.Accept('e')) {
    policy->retry_every_error = true;
    if (Status s = CheckPolicy(*policy); !s.ok()) return s;
  }
  if (in.Accept('u')) {
    if (in.Accept('3')) {
      policy->delivery_limit = DeliveryLimit::kUnset3;
    } else if (in.Accept('4')) {
      policy->delivery_limit = DeliveryLimit::kUnset4;
    } else if (in.Accept('c')) {
      policy->delivery_limit = DeliveryLimit::kClassicQueue;
    } else {
      return in.Error("deliveryLimit (u3 unset-3.x, u4 unset-4.x, uc classic-queue)");
    }
    if (Status s = CheckPolicy(*policy); !s.ok()) return s;
  }
  return ReadSystemGroupRest(in, policy);
}

// The ";r" group ReadSystemGroup reads: written when the system or delayAt is not its default.
void AppendSystemGroup(std::string& out, const Policy& policy) {
  const Policy defaults;
  if (policy.system != defaults.system || policy.delay_at != defaults.delay_at) {
    out.append(";r").append(1, SystemOf(policy).link_letter());
    if (policy.max_stalled_count != defaults.max_stalled_count) out += "s" + std::to_string(policy.max_stalled_count);
    if (policy.dead_max_jobs != defaults.dead_max_jobs) out += "d" + std::to_string(policy.dead_max_jobs);
    if (policy.retry_in_jitter) out += 'j';
    if (policy.retry_every_error) out += 'e';
    if (policy.delivery_limit == DeliveryLimit::kUnset3) out += "u3";
    if (policy.delivery_limit == DeliveryLimit::kUnset4) out += "u4";
    if (policy.delivery_limit == DeliveryLimit::kClassicQueue) out += "uc";
    if (policy.dead_letter_exchange == DeadLetterExchange::kNone) out += "n";
    if (policy.remove_on_fail_count != defaults.remove_on_fail_count) out += "f" + std::to_string(policy.remove_on_fail_count);
    if (policy.dlq_max_length != defaults.dlq_max_length) out += "m" + std::to_string(policy.dlq_max_length);
    if (policy.remove_on_fail) out += 'x';
    if (policy.skip_dead_set) out += 'o';
    if (policy.max_length != defaults.max_length) out += "g" + std::to_string(policy.max_length);
    if (policy.message_ttl_ms != defaults.message_ttl_ms) out += "t" + std::to_string(policy.message_ttl_ms);
    if (policy.delay_at == DelayAt::kConsumerSleep) out += 'c';
    if (policy.delay_at == DelayAt::kRetryQueue) out += 'q';
  }
}

}  // namespace

Result<Scenario> ReadV2(Reader& in) {
  Scenario scenario;
  if (!in.Accept(';') || !in.Accept('m')) return in.Error("';m' and the policy's maxAttempts");
  uint64_t max_attempts = 0;
  if (Status s = in.Number("maxAttempts", 7, &max_attempts); !s.ok()) return s;
  scenario.policy.max_attempts = static_cast<int64_t>(max_attempts);
  if (Status s = CheckPolicy(scenario.policy); !s.ok()) return s;

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
    switch (field) {
      case 'b':
        if (Status s = ReadBackoff(in, "backoff", &scenario.policy.backoff); !s.ok()) return s;
        if (Status s = CheckPolicy(scenario.policy); !s.ok()) return s;
        break;
      case 'l': {
        uint64_t lease_ms = 0;
        if (Status s = in.Number("leaseMs", 8, &lease_ms); !s.ok()) return s;
        scenario.policy.lease_ms = static_cast<int64_t>(lease_ms);
        if (Status s = CheckPolicy(scenario.policy); !s.ok()) return s;
        break;
      }
      case 's': {
        uint64_t seed = 0;
        if (Status s = in.Number("seed", 10, &seed); !s.ok()) return s;
        scenario.policy.seed = static_cast<int64_t>(seed);
        if (Status s = CheckPolicy(scenario.policy); !s.ok()) return s;
        has_seed = true;
        break;
      }
      case 'f':
        if (Status s = ReadClasses(in, &scenario.policy); !s.ok()) return s;
        break;
      case 'o':
        switch (in.peek()) {
          case 'n': scenario.policy.ordering = Ordering::kNone; break;
          case 'k': scenario.policy.ordering = Ordering::kKey; break;
          case 's': scenario.policy.ordering = Ordering::kStall; break;
          default: return in.Error("ordering (k key, s stall, n none)");
        }
        in.Accept(in.peek());
        if (Status s = CheckPolicy(scenario.policy); !s.ok()) return s;
        break;
      case 'r':
        if (Status s = ReadSystemGroup(in, &scenario.policy); !s.ok()) return s;
        break;
      case 'q': {
        uint64_t retention_ms = 0;
        uint64_t alarm_depth = 0;
        // 16 digits hold every retention up to kMaxTimeMs (2^53 - 1); 10 every
        // alarm depth up to 1000000000.
        if (Status s = in.Number("quarantine.retentionMs", 16, &retention_ms); !s.ok()) return s;
        scenario.policy.retention_ms = static_cast<int64_t>(retention_ms);
        if (Status s = CheckPolicy(scenario.policy); !s.ok()) return s;
        if (!in.Accept('.')) return in.Error("'.' between quarantine.retentionMs and quarantine.alarmDepth");
        if (Status s = in.Number("quarantine.alarmDepth", 10, &alarm_depth); !s.ok()) return s;
        scenario.policy.alarm_depth = static_cast<int64_t>(alarm_depth);
        scenario.policy.unsafe_quarantine_order = in.Accept('u');
        if (Status s = CheckPolicy(scenario.policy); !s.ok()) return s;
        break;
      }
      case 't':
        if (Status s = ReadSwitches(in, &scenario.policy); !s.ok()) return s;
        break;
      case 'y':
        if (Status s = ReadWorld(in, &scenario.world); !s.ok()) return s;
        break;
      case 'h':
        if (Status s = ReadBehaviours(in, &scenario.world); !s.ok()) return s;
        break;
      case 'j':
        if (Status s = ReadKeyedJobs(in, &scenario.jobs); !s.ok()) return s;
        break;
      case 'a':
        if (Status s = ReadActions(in, &scenario.actions); !s.ok()) return s;
        break;
      case 'c': {
        uint64_t cursor = 0;
        if (Status s = in.Number("the cursor", 9, &cursor); !s.ok()) return s;
        if (Status s = CheckCursor(cursor, scenario.actions.size()); !s.ok()) {
          return Status::OutOfRange("scenario link: " + s.message());
        }
        scenario.cursor = static_cast<size_t>(cursor);
        has_cursor = true;
        break;
      }
    }
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
  if (policy.ordering != Ordering::kNone) out.append(";o").append(1, OrderingLetter(policy.ordering));
  AppendSystemGroup(out, policy);
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
  const auto append_error = [&out](const std::string& error) {
    if (error.empty()) return;
    out += ':';
    AppendEncoded(out, error);
  };
  if (!scenario.actions.empty()) {
    out += ";a";
    for (size_t i = 0; i < scenario.actions.size(); ++i) {
      if (i > 0) out += ',';
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
                       out += 'e';
                       AppendEncoded(out, a.id);
                       out += ':';
                       AppendEncoded(out, a.payload);
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
                       if (a.only.failure_class) out.append(1, 'k').append(1, kClassLetters[static_cast<int>(*a.only.failure_class)]);
                       if (a.only.reason == Reason::kPermanent) out += "rp";
                       if (a.only.reason == Reason::kExhausted) out += "re";
                     },
                     [&](const action::Crash& a) {
                       out += 'c' + std::to_string(a.after);
                       if (a.torn) out += 't';
                     },
                     [&](const action::Patch& a) {
                       out += 'f';
                       AppendEncoded(out, a.id);
                       out += ':';
                       AppendEncoded(out, a.payload);
                     },
                 },
                 scenario.actions[i]);
    }
  }
  if (scenario.cursor != scenario.actions.size()) out += ";c" + std::to_string(scenario.cursor);
  return out;
}

}  // namespace dlq::link
