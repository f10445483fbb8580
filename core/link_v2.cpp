// Link format v2: the whole policy and every action kind (docs/scenario-format.md).
//
//   v2;m<maxAttempts>[;b<kind><baseMs>.<capMs><jitter>][;l<leaseMs>];s<seed>
//     [;j<id>:<payload>,…][;a<action>,…][;c<cursor>]
//
//   kind    f fixed | x exponential | n none (written only when baseMs or capMs
//           differs from the default, so that every policy round-trips)
//   jitter  n none | f full | e equal | d decorrelated
//   action  s[:<error>] | t[:<error>] | p[:<error>] | r<id> | e<id>:<payload>
//           l                     lease()
//           k<n><s|t|p>[:<error>] settle("lease-<n>", outcome, error)
//           w<ms>                 advance(ms)
//           n                     advanceToNext()
//
// The seed is always written: a v2 link names its PRNG explicitly.
#include <limits>

#include "link.h"

namespace dlq::link {
namespace {

// Fields in the only order a v2 link may have them, each at most once.
constexpr std::string_view kFieldOrder = "mblsjac";

// What may follow field `last` (the seed is required, so nothing after it may
// come before it); the error text when something else does.
const char* FieldsAfter(char last) {
  switch (last) {
    case 'm': return "a field in order: b (backoff), l (leaseMs), s (seed)";
    case 'b': return "a field in order: l (leaseMs), s (seed)";
    case 'l': return "the field s (seed)";
    case 's': return "a field in order: j (jobs), a (actions), c (cursor)";
    case 'j': return "a field in order: a (actions), c (cursor)";
    case 'a': return "the field c (cursor)";
    default: return "the end of the link";
  }
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

// b<kind><baseMs>.<capMs><jitter>, past the 'b'.
Status ReadBackoff(Reader& in, Backoff* backoff) {
  switch (in.peek()) {
    case 'n': backoff->kind = BackoffKind::kNone; break;
    case 'f': backoff->kind = BackoffKind::kFixed; break;
    case 'x': backoff->kind = BackoffKind::kExponential; break;
    default: return in.Error("backoff.kind (f fixed, x exponential, n none)");
  }
  in.Accept(in.peek());
  // Up to 8 digits: every value in range (at most kMaxDelayMs) has them.
  uint64_t base = 0;
  uint64_t cap = 0;
  if (Status s = in.Number("backoff.baseMs", 8, &base); !s.ok()) return s;
  if (!in.Accept('.')) return in.Error("'.' between backoff.baseMs and backoff.capMs");
  if (Status s = in.Number("backoff.capMs", 8, &cap); !s.ok()) return s;
  backoff->base_ms = static_cast<int64_t>(base);
  backoff->cap_ms = static_cast<int64_t>(cap);
  switch (in.peek()) {
    case 'n': backoff->jitter = Jitter::kNone; break;
    case 'f': backoff->jitter = Jitter::kFull; break;
    case 'e': backoff->jitter = Jitter::kEqual; break;
    case 'd': backoff->jitter = Jitter::kDecorrelated; break;
    default: return in.Error("backoff.jitter (n none, f full, e equal, d decorrelated)");
  }
  in.Accept(in.peek());
  return Status::Ok();
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
    } else if (letter == 'r') {
      in.Accept(letter);
      auto& replay = std::get<action::Replay>(actions->emplace_back(action::Replay{}));
      if (Status s = in.String(n + " id", &replay.id); !s.ok()) return s;
    } else if (letter == 'e') {
      in.Accept(letter);
      auto& enqueue = std::get<action::Enqueue>(actions->emplace_back(action::Enqueue{}));
      if (Status s = in.String(n + " id", &enqueue.id); !s.ok()) return s;
      if (!in.Accept(':')) return in.Error("':' between " + n + "'s id and payload");
      if (Status s = in.String(n + " payload", &enqueue.payload); !s.ok()) return s;
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
        return in.Error(n + "'s outcome after the lease number (s success, t transient, p permanent)");
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
    } else {
      return in.Error(n +
                      " (s, t or p to process, r to replay, e to enqueue, l to lease, k to settle, w to advance, "
                      "n to advance to the next timer)");
    }
    if (!in.done() && in.peek() != ',' && in.peek() != ';') {
      return in.Error("',' before the next action, ';' or the end of the link");
    }
  } while (in.Accept(','));
  return Status::Ok();
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
        if (Status s = ReadBackoff(in, &scenario.policy.backoff); !s.ok()) return s;
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
      case 'j':
        if (Status s = ReadJobs(in, &scenario.jobs); !s.ok()) return s;
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
  return scenario;
}

std::string WriteV2(const Scenario& scenario) {
  const Policy& policy = scenario.policy;
  std::string out = "v2;m" + std::to_string(policy.max_attempts);
  if (!(policy.backoff == Backoff{})) {
    out.append(";b").append(1, KindLetter(policy.backoff.kind)).append(std::to_string(policy.backoff.base_ms));
    out.append(".").append(std::to_string(policy.backoff.cap_ms)).append(1, JitterLetter(policy.backoff.jitter));
  }
  if (policy.lease_ms != Policy{}.lease_ms) out += ";l" + std::to_string(policy.lease_ms);
  out += ";s" + std::to_string(policy.seed);
  if (!scenario.jobs.empty()) {
    out += ";j";
    AppendJobs(out, scenario.jobs);
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
                       out += 'r';
                       AppendEncoded(out, a.id);
                     },
                     [&](const action::Enqueue& a) {
                       out += 'e';
                       AppendEncoded(out, a.id);
                       out += ':';
                       AppendEncoded(out, a.payload);
                     },
                     [&](const action::Lease&) { out += 'l'; },
                     [&](const action::Settle& a) {
                       out.append(1, 'k').append(std::to_string(a.lease)).append(1, OutcomeLetter(a.outcome));
                       append_error(a.error);
                     },
                     [&](const action::Advance& a) { out += 'w' + std::to_string(a.ms); },
                     [&](const action::AdvanceToNext&) { out += 'n'; },
                 },
                 scenario.actions[i]);
    }
  }
  if (scenario.cursor != scenario.actions.size()) out += ";c" + std::to_string(scenario.cursor);
  return out;
}

}  // namespace dlq::link
