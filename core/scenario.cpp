#include "scenario.h"


#include "text.h"

namespace dlq {
namespace {

// ASCII only, whatever the C locale says.
bool IsSafe(unsigned char c) {
  if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) return true;
  switch (c) {
    case '-': case '_': case '.': case '~': case '!': case '$': case '\'': case '(': case ')':
    case '*': case '+': case '=': case '@': case '/': case '?':
      return true;
    default:
      return false;
  }
}

void AppendEncoded(std::string& out, std::string_view s) {
  static const char kHex[] = "0123456789ABCDEF";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (IsSafe(c)) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// std::visit over an overload set: no default branch, so a new Action kind
// fails to compile until every visitor handles it.
template <typename... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <typename... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

char OutcomeLetter(Outcome outcome) {
  switch (outcome) {
    case Outcome::kSuccess: return 's';
    case Outcome::kTransient: return 't';
    case Outcome::kPermanent: return 'p';
  }
  return '?';
}

// A one-pass reader over the text; every error names the 1-based character position.
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  bool done() const { return pos_ >= text_.size(); }
  char peek() const { return done() ? '\0' : text_[pos_]; }
  bool Accept(char c) {
    if (peek() != c || done()) return false;
    ++pos_;
    return true;
  }

  Status Error(const std::string& expected) const {
    std::string got = "the end of the link";
    if (!done()) {
      const auto c = static_cast<unsigned char>(text_[pos_]);
      if (IsSafe(c) || c == ';' || c == ',' || c == ':' || c == '%') {
        got = std::string("'").append(1, text_[pos_]).append("'");
      } else {
        size_t end = pos_ + 1;  // the whole UTF-8 character, not one byte of it
        while (end < text_.size() && (static_cast<unsigned char>(text_[end]) & 0xC0) == 0x80) ++end;
        got = Quote(text_.substr(pos_, end - pos_));
      }
    }
    return Status::InvalidArgument("scenario link is malformed at character " + Position() + ": expected " +
                                   expected + ", got " + got);
  }

  // 1-based position of the current character, counting UTF-8 characters, not bytes.
  std::string Position() const { return Position(pos_); }
  std::string Position(size_t byte) const {
    size_t characters = 1;
    for (size_t i = 0; i < byte && i < text_.size(); ++i) {
      if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) ++characters;
    }
    return std::to_string(characters);
  }

  // Digits into *out; at most `max_digits` of them after any leading zeros
  // (which are read leniently, as the format document says).
  Status Number(const std::string& what, size_t max_digits, uint64_t* out) {
    const size_t start = pos_;
    while (pos_ + 1 < text_.size() && peek() == '0' && text_[pos_ + 1] >= '0' && text_[pos_ + 1] <= '9') ++pos_;
    const size_t significant = pos_;
    uint64_t value = 0;
    while (!done() && peek() >= '0' && peek() <= '9') {
      if (pos_ - significant == max_digits) {
        return Status::OutOfRange("scenario link: " + what + " at character " + Position(start) +
                                  " has more than " + std::to_string(max_digits) + " digits");
      }
      value = value * 10 + static_cast<uint64_t>(peek() - '0');
      ++pos_;
    }
    if (pos_ == start) return Error(what + " (digits)");
    *out = value;
    return Status::Ok();
  }

  // A percent-encoded string, up to (not including) ';', ',', ':' or the end.
  Status String(const std::string& what, std::string* out) {
    out->clear();
    while (!done()) {
      const char c = peek();
      if (c == ';' || c == ',' || c == ':') break;
      if (c == '%') {
        const int hi = pos_ + 1 < text_.size() ? HexValue(text_[pos_ + 1]) : -1;
        const int lo = pos_ + 2 < text_.size() ? HexValue(text_[pos_ + 2]) : -1;
        if (hi < 0 || lo < 0) {
          return Status::InvalidArgument("scenario link is malformed at character " + Position() + ": '%' in " +
                                         what + " must be followed by two hex digits");
        }
        *out += static_cast<char>(hi * 16 + lo);
        pos_ += 3;
      } else if (IsSafe(static_cast<unsigned char>(c))) {
        *out += c;
        ++pos_;
      } else {
        return Error(what + " characters (letters, digits, -_.~!$'()*+=@/? or %HH escapes)");
      }
    }
    if (!IsValidUtf8(*out)) {
      return Status::InvalidArgument("scenario link: " + what + " ending at character " + Position(pos_ - 1) +
                                     " is not UTF-8 once its %HH escapes are decoded");
    }
    return Status::Ok();
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

Status ParseJobs(Reader& in, std::vector<JobSpec>* jobs) {
  do {
    JobSpec job;
    const std::string n = std::to_string(jobs->size() + 1);
    if (Status s = in.String("job " + n + " id", &job.id); !s.ok()) return s;
    if (!in.Accept(':')) return in.Error("':' between job " + n + "'s id and payload");
    if (Status s = in.String("job " + n + " payload", &job.payload); !s.ok()) return s;
    jobs->push_back(std::move(job));
  } while (in.Accept(','));
  return Status::Ok();
}

Status ParseActions(Reader& in, std::vector<Action>* actions) {
  do {
    const std::string n = "action " + std::to_string(actions->size() + 1);
    const char letter = in.peek();
    if (letter == 's' || letter == 't' || letter == 'p') {
      in.Accept(letter);
      action::Process process;
      process.outcome = letter == 's' ? Outcome::kSuccess : letter == 't' ? Outcome::kTransient : Outcome::kPermanent;
      if (in.Accept(':')) {
        if (Status s = in.String(n + " error text", &process.error); !s.ok()) return s;
      }
      actions->push_back(std::move(process));
    } else if (letter == 'r') {
      in.Accept(letter);
      action::Replay replay;
      if (Status s = in.String(n + " id", &replay.id); !s.ok()) return s;
      actions->push_back(std::move(replay));
    } else if (letter == 'e') {
      in.Accept(letter);
      action::Enqueue enqueue;
      if (Status s = in.String(n + " id", &enqueue.id); !s.ok()) return s;
      if (!in.Accept(':')) return in.Error("':' between " + n + "'s id and payload");
      if (Status s = in.String(n + " payload", &enqueue.payload); !s.ok()) return s;
      actions->push_back(std::move(enqueue));
    } else {
      return in.Error(n + " (s, t or p to process, r to replay, e to enqueue)");
    }
  } while (in.Accept(','));
  return Status::Ok();
}

}  // namespace

bool IsLessonOneAction(const Action& action) {
  return std::visit(Overloaded{
                        [](const action::Process&) { return true; },
                        [](const action::Replay&) { return true; },
                        [](const action::Enqueue&) { return true; },
                        [](const action::Lease&) { return false; },
                        [](const action::Settle&) { return false; },
                        [](const action::Advance&) { return false; },
                        [](const action::AdvanceToNext&) { return false; },
                    },
                    action);
}

Result<Scenario> ParseScenario(std::string_view text) {
  if (Status s = CheckSize("scenario link", kMaxScenarioTextBytes, text.size()); !s.ok()) return s;
  Reader in(text);
  if (!in.Accept('v')) return in.Error("a format version such as 'v1' at the start");
  uint64_t version = 0;
  if (Status s = in.Number("the format version", 6, &version); !s.ok()) {
    return s.code() == Code::kOutOfRange ? Status::Error(Code::kUnsupportedVersion, s.message()) : s;
  }
  if (version != kScenarioFormatVersion) {
    return Status::Error(Code::kUnsupportedVersion,
                         "scenario link is format v" + std::to_string(version) + "; this build of dlq-lab reads v" +
                             std::to_string(kScenarioFormatVersion) + (version > kScenarioFormatVersion
                                                                          ? " (the link needs a newer dlq-lab)"
                                                                          : ""));
  }

  Scenario scenario;
  if (!in.Accept(';') || !in.Accept('m')) return in.Error("';m' and the policy's maxAttempts");
  uint64_t max_attempts = 0;
  if (Status s = in.Number("maxAttempts", 7, &max_attempts); !s.ok()) return s;
  if (Status s = Policy::CheckMaxAttempts(static_cast<int64_t>(max_attempts)); !s.ok()) {
    return Status::OutOfRange("scenario link: " + s.message());
  }
  scenario.policy.max_attempts = static_cast<int64_t>(max_attempts);

  bool has_cursor = false;
  char last_field = 'm';
  while (in.Accept(';')) {
    const char field = in.peek();
    if (field == 'j' && last_field == 'm') {
      in.Accept('j');
      if (Status s = ParseJobs(in, &scenario.jobs); !s.ok()) return s;
    } else if (field == 'a' && (last_field == 'm' || last_field == 'j')) {
      in.Accept('a');
      if (Status s = ParseActions(in, &scenario.actions); !s.ok()) return s;
    } else if (field == 'c' && last_field != 'c') {
      in.Accept('c');
      uint64_t cursor = 0;
      if (Status s = in.Number("the cursor", 9, &cursor); !s.ok()) return s;
      if (Status s = CheckCursor(cursor, scenario.actions.size()); !s.ok()) {
        return Status::OutOfRange("scenario link: " + s.message());
      }
      scenario.cursor = static_cast<size_t>(cursor);
      has_cursor = true;
    } else {
      return in.Error(last_field == 'c' ? "the end of the link"
                                        : "a field in order: j (jobs), a (actions), c (cursor)");
    }
    last_field = field;
  }
  if (!in.done()) return in.Error("';' or the end of the link");
  if (!has_cursor) scenario.cursor = scenario.actions.size();
  return scenario;
}

std::string FormatScenario(const Scenario& scenario) {
  std::string out = "v";
  out.append(std::to_string(kScenarioFormatVersion)).append(";m").append(std::to_string(scenario.policy.max_attempts));
  if (!scenario.jobs.empty()) {
    out += ";j";
    for (size_t i = 0; i < scenario.jobs.size(); ++i) {
      if (i > 0) out += ',';
      AppendEncoded(out, scenario.jobs[i].id);
      out += ':';
      AppendEncoded(out, scenario.jobs[i].payload);
    }
  }
  if (!scenario.actions.empty()) {
    out += ";a";
    for (size_t i = 0; i < scenario.actions.size(); ++i) {
      if (i > 0) out += ',';
      std::visit(Overloaded{
                     [&](const action::Process& a) {
                       out += OutcomeLetter(a.outcome);
                       if (!a.error.empty()) {
                         out += ':';
                         AppendEncoded(out, a.error);
                       }
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
                       out += 'k';
                       out += std::to_string(a.lease);
                       out += OutcomeLetter(a.outcome);
                       if (!a.error.empty()) {
                         out += ':';
                         AppendEncoded(out, a.error);
                       }
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

Status CheckCursor(uint64_t cursor, size_t actions) {
  if (cursor > actions) {
    return Status::OutOfRange("the cursor must be from 0 to " + std::to_string(actions) +
                              " (the number of actions), got " + std::to_string(cursor));
  }
  return Status::Ok();
}

Result<std::string> ShareScenario(const Scenario& scenario) {
  std::string text = FormatScenario(scenario);
  Result<Scenario> back = ParseScenario(text);
  if (!back.ok()) return back.status();
  if (Result<Queue> run = RunScenario(back.value()); !run.ok()) return run.status();
  return text;
}

namespace {

// Applies actions[i] to the queue; the Status names the action when refused.
Status ApplyAction(Queue& queue, const Action& action, size_t i) {
  const std::string where = "scenario action " + std::to_string(i + 1) + ": ";
  const auto prefixed = [&where](const Status& s) { return Status::Error(s.code(), where + s.message()); };
  return std::visit(
      Overloaded{
          [&](const action::Process& a) -> Status {
            Result<Attempt> attempt = queue.Process(a.outcome, a.error);
            if (!attempt.ok()) return prefixed(attempt.status());
            if (!attempt->processed) {
              return Status::FailedPrecondition(where + "process(" + OutcomeName(a.outcome) + ") found nothing ready");
            }
            return Status::Ok();
          },
          [&](const action::Replay& a) -> Status {
            if (!queue.Replay(a.id)) {
              return Status::NotFound(where + "replay(" + QuoteShort(a.id) + ") found no such job in quarantine");
            }
            return Status::Ok();
          },
          [&](const action::Enqueue& a) -> Status {
            if (Status s = queue.Enqueue(a.id, a.payload); !s.ok()) return prefixed(s);
            return Status::Ok();
          },
          [&](const action::Lease&) -> Status {
            Result<LeaseGrant> grant = queue.Lease();
            if (!grant.ok()) return prefixed(grant.status());
            if (!grant->leased) return Status::FailedPrecondition(where + "lease() found nothing ready");
            return Status::Ok();
          },
          [&](const action::Settle& a) -> Status {
            Result<Attempt> attempt = queue.Settle("lease-" + std::to_string(a.lease), OutcomeName(a.outcome), a.error);
            if (!attempt.ok()) return prefixed(attempt.status());
            return Status::Ok();
          },
          [&](const action::Advance& a) -> Status {
            if (Status s = queue.Advance(a.ms); !s.ok()) return prefixed(s);
            return Status::Ok();
          },
          [&](const action::AdvanceToNext&) -> Status {
            if (!queue.AdvanceToNext().has_value()) {
              return Status::FailedPrecondition(where + "advanceToNext() found no pending timer");
            }
            return Status::Ok();
          },
      },
      action);
}

// A queue with the policy and the set-up jobs, before any action.
Result<Queue> SetUp(const Scenario& scenario) {
  Result<Queue> made = Queue::Create(scenario.policy);
  if (!made.ok()) return made.status();
  for (size_t i = 0; i < scenario.jobs.size(); ++i) {
    if (Status s = made->Enqueue(scenario.jobs[i].id, scenario.jobs[i].payload); !s.ok()) {
      return Status::Error(s.code(), "scenario job " + std::to_string(i + 1) + ": " + s.message());
    }
  }
  return made;
}

}  // namespace

Result<Queue> RunScenario(const Scenario& scenario) {
  if (Status s = CheckCursor(scenario.cursor, scenario.actions.size()); !s.ok()) {
    return Status::OutOfRange("scenario: " + s.message());
  }
  Result<Queue> made = SetUp(scenario);
  if (!made.ok()) return made.status();
  for (size_t i = 0; i < scenario.cursor; ++i) {
    if (Status s = ApplyAction(made.value(), scenario.actions[i], i); !s.ok()) return s;
  }
  return made;
}

ScenarioReach PlayableActions(const Scenario& scenario) {
  ScenarioReach reach;
  Result<Queue> made = SetUp(scenario);
  if (!made.ok()) {
    reach.stopped = made.status();
    return reach;
  }
  for (; reach.playable < scenario.actions.size(); ++reach.playable) {
    reach.stopped = ApplyAction(made.value(), scenario.actions[reach.playable], reach.playable);
    if (!reach.stopped.ok()) break;
  }
  return reach;
}

}  // namespace dlq
