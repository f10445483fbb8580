// The scenario text form (playground links) and deterministic replay.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_util.h"

using namespace dlq;
using namespace dlq::test;

namespace scenario_test {

namespace {

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

Scenario MustParse(std::string_view text) {
  Result<Scenario> r = ParseScenario(text);
  INFO(r.status().ToString());
  REQUIRE(r.ok());
  return r.value();
}

}  // namespace

TEST_SUITE("scenario") {
  TEST_CASE("the a/b example with ten actions fits well under 200 characters") {
    Scenario s;
    s.policy.max_attempts = 3;
    s.jobs = {{"a", "charge order 1"}, {"b", "charge order 2"}};
    s.actions = {action::Process{Outcome::kTransient, "db timeout"},
                 action::Process{Outcome::kSuccess},
                 action::Process{Outcome::kTransient, "db timeout"},
                 action::Process{Outcome::kTransient},
                 action::Replay{"a"},
                 action::Process{Outcome::kSuccess},
                 action::Enqueue{"c", "late"},
                 action::Process{Outcome::kPermanent, "bad schema"},
                 action::Replay{"c"},
                 action::Process{Outcome::kSuccess}};
    s.cursor = 7;
    const std::string text = FormatScenario(s);
    CHECK(text ==
          "v1;m3;ja:charge%20order%201,b:charge%20order%202;at:db%20timeout,s,t:db%20timeout,t,ra,s,ec:late,"
          "p:bad%20schema,rc,s;c7");
    CHECK(text.size() < 200);
    Scenario back = MustParse(text);
    CHECK(FormatScenario(back) == text);
    CHECK(back.cursor == 7);
    CHECK(back.actions.size() == 10);
    CHECK(std::get<action::Process>(back.actions[0]).error == "db timeout");
    CHECK(std::get<action::Enqueue>(back.actions[6]).payload == "late");
  }

  TEST_CASE("round trip keeps any bytes in ids, payloads and error texts") {
    Scenario s;
    s.policy.max_attempts = 1'000'000;
    s.jobs = {{"<img src=x onerror=alert(1)>", std::string("nul\0;,:%#&\n", 11)}, {"🧾", "Zoë"}};
    s.actions = {action::Process{Outcome::kPermanent, "a;b,c:d%e"}, action::Replay{"<img src=x onerror=alert(1)>"}};
    s.cursor = 2;
    const std::string text = FormatScenario(s);
    const std::string_view allowed = ";,:%-_.~!$'()*+=@/?";
    for (const char c : text) {
      const bool ok = std::isalnum(static_cast<unsigned char>(c)) || allowed.find(c) != std::string_view::npos;
      CHECK(ok);
    }
    Scenario back = MustParse(text);
    CHECK(back.jobs[0].id == s.jobs[0].id);
    CHECK(back.jobs[0].payload == s.jobs[0].payload);
    CHECK(back.jobs[1].id == "🧾");
    CHECK(back.jobs[1].payload == "Zoë");
    CHECK(std::get<action::Process>(back.actions[0]).error == "a;b,c:d%e");
    CHECK(back.policy.max_attempts == 1'000'000);
    CHECK(FormatScenario(back) == text);
  }

  TEST_CASE("minimal links parse: no jobs, no actions, explicit cursor 0") {
    CHECK(MustParse("v1;m3").jobs.empty());
    CHECK(MustParse("v1;m3;ja:").jobs.size() == 1);
    Scenario s = MustParse("v1;m2;ja:;at,t;c0");
    CHECK(s.cursor == 0);
    CHECK(FormatScenario(s) == "v1;m2;ja:;at,t;c0");
    CHECK(MustParse("v1;m2;ja:%c3%a9").jobs[0].payload == "é");  // lower-case hex is read too
  }

  TEST_CASE("malformed links name the position and what was expected") {
    struct Case {
      const char* text;
      Code code;
      const char* message;
    };
    const Case cases[] = {
        {"", Code::kInvalidArgument,
         "scenario link is malformed at character 1: expected a format version such as 'v1' at the start, got the end "
         "of the link"},
        {"hello", Code::kInvalidArgument,
         "scenario link is malformed at character 1: expected a format version such as 'v1' at the start, got 'h'"},
        {"v1", Code::kInvalidArgument,
         "scenario link is malformed at character 3: expected ';m' and the policy's maxAttempts, got the end of the "
         "link"},
        {"v1;m0", Code::kOutOfRange, "scenario link: maxAttempts must be an integer from 1 to 1000000, got 0"},
        {"v1;m12345678", Code::kOutOfRange, "scenario link: maxAttempts at character 5 has more than 7 digits"},
        {"v1;m00012345678", Code::kOutOfRange, "scenario link: maxAttempts at character 5 has more than 7 digits"},
        {"v0000003;m3", Code::kUnsupportedVersion,
         "scenario link is format v3; this build of dlq-lab reads v1 and v2 (the link needs a newer dlq-lab)"},
        {"v1;m3;ja", Code::kInvalidArgument,
         "scenario link is malformed at character 9: expected ':' between job 1's id and payload, got the end of the "
         "link"},
        {"v1;m3;ja:%zz", Code::kInvalidArgument,
         "scenario link is malformed at character 10: '%' in job 1 payload must be followed by two hex digits"},
        {"v1;m3;ja:;ax", Code::kInvalidArgument,
         "scenario link is malformed at character 12: expected action 1 (s, t or p to process, r to replay, e to "
         "enqueue), got 'x'"},
        {"v1;m3;ja:;as;c2", Code::kOutOfRange,
         "scenario link: the cursor must be from 0 to 1 (the number of actions), got 2"},
        {"v1;m3;as;ja:", Code::kInvalidArgument,
         "scenario link is malformed at character 10: expected a field in order: j (jobs), a (actions), c (cursor), "
         "got 'j'"},
        {"v1;m3;ja:<b>", Code::kInvalidArgument,
         "scenario link is malformed at character 10: expected job 1 payload characters (letters, digits, "
         "-_.~!$'()*+=@/? or %HH escapes), got \"<\""},
        {"v3;m3", Code::kUnsupportedVersion,
         "scenario link is format v3; this build of dlq-lab reads v1 and v2 (the link needs a newer dlq-lab)"},
        {"v0;m3", Code::kUnsupportedVersion, "scenario link is format v0; this build of dlq-lab reads v1 and v2"},
        {"v1234567;m3", Code::kUnsupportedVersion,
         "scenario link: the format version at character 2 has more than 6 digits"},
        // v1 is frozen: the kinds v2 added are not v1 actions.
        {"v1;m3;ja:;al", Code::kInvalidArgument,
         "scenario link is malformed at character 12: expected action 1 (s, t or p to process, r to replay, e to "
         "enqueue), got 'l'"},
        {"v1;m3;s1", Code::kInvalidArgument,
         "scenario link is malformed at character 7: expected a field in order: j (jobs), a (actions), c (cursor), got "
         "'s'"},
        {"v1;m3;ja:%FF%FE", Code::kInvalidArgument,
         "scenario link: job 1 payload ending at character 15 is not UTF-8 once its %HH escapes are decoded"},
    };
    for (const Case& c : cases) {
      CAPTURE(c.text);
      Result<Scenario> r = ParseScenario(c.text);
      REQUIRE_FALSE(r.ok());
      CHECK(r.status().code() == c.code);
      CHECK(r.status().message() == c.message);
    }
  }

  TEST_CASE("leading zeros are read leniently, as the format document says") {
    Result<Scenario> r = ParseScenario("v0000001;m00000003;ja:;as,s;c0000001");
    REQUIRE(r.ok());
    CHECK(r->policy.max_attempts == 3);
    CHECK(r->cursor == 1);
    CHECK(FormatScenario(r.value()) == "v1;m3;ja:;as,s;c1");
  }

  TEST_CASE("links over 8 KB are refused before parsing") {
    std::string text = "v1;m3;ja:" + std::string(kMaxScenarioTextBytes, 'x');
    Result<Scenario> r = ParseScenario(text);
    CHECK(r.status().code() == Code::kTooLarge);
    CHECK(r.status().message() ==
          "scenario link must be at most 8192 bytes, got " + std::to_string(text.size()) + " bytes");
    CHECK(ParseScenario(text.substr(0, kMaxScenarioTextBytes)).ok());
  }

  TEST_CASE("running a scenario replays the cursor's actions deterministically") {
    Scenario s = MustParse("v1;m2;ja:,b:;at,s,t,ra,s;c3");
    Result<Queue> at3 = RunScenario(s);
    REQUIRE(at3.ok());
    CHECK(Ids(at3->view().Quarantined()) == Strings{"a"});
    CHECK(at3->stats().step == 3);
    s.cursor = 5;
    Result<Queue> at5 = RunScenario(s);
    REQUIRE(at5.ok());
    CHECK(Ids(at5->view().Completed()) == Strings{"b", "a"});
    // Same scenario, same bytes.
    Result<Queue> again = RunScenario(s);
    CHECK(again->view().TimelineText() == at5->view().TimelineText());
  }

  TEST_CASE("a scenario whose actions the queue would refuse is an error naming the action") {
    struct Case {
      const char* text;
      const char* message;
    };
    const Case cases[] = {
        {"v1;m3;ja:,a:", "scenario job 2: id \"a\" was already given to this queue; ids must be unique"},
        {"v1;m3;j:x", "scenario job 1: id must be a non-empty string, got \"\""},
        {"v1;m3;ja:;as,s", "scenario action 2: process(success) found nothing ready"},
        {"v1;m3;ja:;ara", "scenario action 1: replay(\"a\") found no such job in quarantine"},
        {"v1;m3;ja:;aea:", "scenario action 1: id \"a\" was already given to this queue; ids must be unique"},
    };
    for (const Case& c : cases) {
      CAPTURE(c.text);
      Scenario s = MustParse(c.text);
      Result<Queue> r = RunScenario(s);
      REQUIRE_FALSE(r.ok());
      CHECK(r.status().message() == c.message);
    }
    // Actions past the cursor are not run, so they cannot fail.
    CHECK(RunScenario(MustParse("v1;m3;ja:;as,s;c1")).ok());
  }

  TEST_CASE("every released link fixture still loads and gives its recorded timeline") {
    const std::filesystem::path dir = std::filesystem::path(DLQ_SOURCE_DIR) / "tests/fixtures/links";
    size_t count[2] = {0, 0};
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() != ".link") continue;
      CAPTURE(entry.path().string());
      std::string text = ReadFile(entry.path());
      while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
      Scenario s = MustParse(text);
      Result<Queue> q = RunScenario(s);
      REQUIRE(q.ok());
      std::filesystem::path expected = entry.path();
      expected.replace_extension(".timeline.txt");
      CHECK(q->view().TimelineText() == ReadFile(expected));
      // Written again (some released links are not canonical: %3D for '='), it reads the same.
      CHECK(MustParse(FormatScenario(s)) == s);
      ++count[text.rfind("v1;", 0) == 0 ? 0 : 1];
    }
    CHECK(count[0] >= 4);  // v1
    CHECK(count[1] >= 4);  // v2
  }
}

TEST_CASE("ShareScenario gives only links that load") {
  Scenario ok;
  ok.jobs = {{"a", ""}};
  ok.actions = {action::Process{Outcome::kSuccess}};
  ok.cursor = 1;
  Result<std::string> text = ShareScenario(ok);
  REQUIRE(text.ok());
  CHECK(text.value() == "v1;m3;ja:;as");

  Scenario replay_nothing = ok;
  replay_nothing.actions = {action::Replay{"a"}};
  CHECK(ShareScenario(replay_nothing).status().message() ==
        "scenario action 1: replay(\"a\") found no such job in quarantine");

  Scenario empty_id;
  empty_id.jobs = {{"", "x"}};
  CHECK(ShareScenario(empty_id).status().code() == Code::kInvalidArgument);

  Scenario big;
  big.jobs = {{"a", std::string(kMaxScenarioTextBytes, 'x')}};
  CHECK(ShareScenario(big).status().code() == Code::kTooLarge);

  Scenario not_utf8;
  not_utf8.jobs = {{"a", "\xff"}};
  CHECK(ShareScenario(not_utf8).status().code() == Code::kInvalidArgument);

  Scenario cursor_past_end = ok;
  cursor_past_end.cursor = 2;
  CHECK(ShareScenario(cursor_past_end).status().code() == Code::kOutOfRange);
  CHECK(RunScenario(cursor_past_end).status().message() ==
        "scenario: the cursor must be from 0 to 1 (the number of actions), got 2");
}

TEST_CASE("link errors count characters, not bytes, and show a whole character") {
  Result<Scenario> r = ParseScenario("v1;m3;jé:");
  CHECK(r.status().message() ==
        "scenario link is malformed at character 8: expected job 1 id characters (letters, digits, -_.~!$'()*+=@/? or "
        "%HH escapes), got \"é\"");
  Result<Scenario> later = ParseScenario("v1;m3;ja:;aé");
  CHECK(later.status().message() ==
        "scenario link is malformed at character 12: expected action 1 (s, t or p to process, r to replay, e to "
        "enqueue), got \"é\"");
}

TEST_CASE("PlayableActions says how far a script plays, whatever its cursor") {
  Scenario s = MustParse("v1;m2;ja:;at,t,ra,s,s;c1");  // the second 's' finds nothing ready
  ScenarioReach reach = PlayableActions(s);
  CHECK(reach.playable == 4);
  CHECK(reach.stopped.message() == "scenario action 5: process(success) found nothing ready");
  s.policy.max_attempts = 3;  // a is no longer exhausted after two failures, so the replay fails
  reach = PlayableActions(s);
  CHECK(reach.playable == 2);
  CHECK(reach.stopped.code() == Code::kNotFound);
  Scenario all = MustParse("v1;m2;ja:;at,s");
  CHECK(PlayableActions(all).playable == 2);
  CHECK(PlayableActions(all).stopped.ok());
  Scenario bad_setup = MustParse("v1;m2;ja:,a:;as");
  CHECK(PlayableActions(bad_setup).playable == 0);
  CHECK(PlayableActions(bad_setup).stopped.code() == Code::kAlreadyExists);
}

TEST_SUITE("scenario v2") {
  // Every policy field off its default and every action kind, errors included.
  Scenario EveryKind() {
    Scenario s;
    s.policy.max_attempts = 5;
    s.policy.backoff = {BackoffKind::kExponential, 100, 5000, Jitter::kFull};
    s.policy.lease_ms = 2000;
    s.policy.seed = 4'294'967'295;
    s.jobs = {{"a", "charge order 1"}, {"b", "Zoë;,:%"}};
    s.actions = {action::Lease{},
                 action::Settle{1, Outcome::kTransient, "db timeout"},
                 action::AdvanceToNext{},
                 action::Advance{150},
                 action::Process{Outcome::kSuccess, ""},
                 action::Lease{},
                 action::Settle{2, Outcome::kPermanent, ""},
                 action::Replay{"a"},
                 action::Enqueue{"🧾", "late"},
                 action::Process{Outcome::kPermanent, "bad schema"},
                 action::Lease{},
                 action::Advance{2000}};
    s.cursor = 7;
    return s;
  }

  TEST_CASE("every action kind and policy field round-trips through one canonical text") {
    const Scenario s = EveryKind();
    const std::string text = FormatScenario(s);
    CHECK(text ==
          "v2;m5;bx100.5000f;l2000;s4294967295;ja:charge%20order%201,b:Zo%C3%AB%3B%2C%3A%25;al,k1t:db%20timeout,n,w150,"
          "s,l,k2p,ra,e%F0%9F%A7%BE:late,p:bad%20schema,l,w2000;c7");
    Scenario back = MustParse(text);
    CHECK(back == s);
    CHECK(FormatScenario(back) == text);
    CHECK(std::get<action::Settle>(back.actions[1]).lease == 1);
    CHECK(std::get<action::Advance>(back.actions[11]).ms == 2000);
  }

  TEST_CASE("every backoff kind and jitter Policy::Check accepts round-trips") {
    const std::pair<BackoffKind, Jitter> pairs[] = {
        {BackoffKind::kFixed, Jitter::kNone},
        {BackoffKind::kFixed, Jitter::kFull},
        {BackoffKind::kFixed, Jitter::kEqual},
        {BackoffKind::kExponential, Jitter::kNone},
        {BackoffKind::kExponential, Jitter::kFull},
        {BackoffKind::kExponential, Jitter::kEqual},
        {BackoffKind::kExponential, Jitter::kDecorrelated},
    };
    const char* const texts[] = {"v2;m3;bf1.1n;s0", "v2;m3;bf1.1f;s0", "v2;m3;bf1.1e;s0", "v2;m3;bx1.1n;s0",
                                 "v2;m3;bx1.1f;s0", "v2;m3;bx1.1e;s0", "v2;m3;bx1.1d;s0"};
    for (size_t i = 0; i < std::size(pairs); ++i) {
      Scenario s;
      s.policy.backoff = {pairs[i].first, 1, 1, pairs[i].second};
      s.policy.seed = 0;
      REQUIRE(Policy::Check(s.policy).ok());
      CAPTURE(texts[i]);
      CHECK(FormatScenario(s) == texts[i]);
      CHECK(MustParse(texts[i]) == s);
    }
    // The largest values, and kind none with a base and cap of its own (kept, so
    // that a policy edited back to "none" still round-trips).
    Scenario big;
    big.policy = {1'000'000, {BackoffKind::kExponential, 86'400'000, 86'400'000, Jitter::kEqual}, 86'400'000, 0};
    CHECK(FormatScenario(big) == "v2;m1000000;bx86400000.86400000e;l86400000;s0");
    CHECK(MustParse(FormatScenario(big)) == big);
    Scenario none;
    none.policy.backoff.base_ms = 5;
    CHECK(FormatScenario(none) == "v2;m3;bn5.60000n;s1");
    CHECK(MustParse(FormatScenario(none)) == none);
  }

  TEST_CASE("FormatScenario writes the lowest version that expresses the scenario") {
    Scenario s = MustParse("v2;m3;s1;ja:;at,s");  // lesson 1's policy, lesson 1's actions
    CHECK(FormatScenario(s) == "v1;m3;ja:;at,s");
    CHECK(s == MustParse("v1;m3;ja:;at,s"));
    CHECK(FormatScenario(MustParse("v2;m3;l30000;s1")) == "v1;m3");         // leaseMs 30000 is the default
    CHECK(FormatScenario(MustParse("v2;m3;bn1000.60000n;s1")) == "v1;m3");  // so is this backoff
    CHECK(FormatScenario(MustParse("v2;m3;s2")) == "v2;m3;s2");             // any other seed needs v2
    CHECK(FormatScenario(MustParse("v2;m3;l29999;s1")) == "v2;m3;l29999;s1");
    CHECK(FormatScenario(MustParse("v2;m3;bf1000.60000n;s1")) == "v2;m3;bf1000.60000n;s1");
    // One action v1 cannot carry makes the whole link v2.
    CHECK(FormatScenario(MustParse("v2;m3;s1;ja:;at,s,n;c2")) == "v2;m3;s1;ja:;at,s,n;c2");
    CHECK(IsLessonOneAction(action::Process{}));
    CHECK(IsLessonOneAction(action::Replay{"a"}));
    CHECK(IsLessonOneAction(action::Enqueue{"a", ""}));
    CHECK_FALSE(IsLessonOneAction(action::Lease{}));
    CHECK_FALSE(IsLessonOneAction(action::Settle{1, Outcome::kSuccess, ""}));
    CHECK_FALSE(IsLessonOneAction(action::Advance{0}));
    CHECK_FALSE(IsLessonOneAction(action::AdvanceToNext{}));
  }

  TEST_CASE("the a/b example with exponential backoff and twelve actions stays under 300 characters") {
    // The v1 example's run, with an advanceToNext wherever a waits out its delay.
    Scenario s;
    s.policy.backoff = {BackoffKind::kExponential, 100, 5000, Jitter::kFull};
    s.jobs = {{"a", "charge order 1"}, {"b", "charge order 2"}};
    s.actions = {action::Process{Outcome::kTransient, "db timeout"},
                 action::Process{Outcome::kSuccess},
                 action::AdvanceToNext{},
                 action::Process{Outcome::kTransient, "db timeout"},
                 action::AdvanceToNext{},
                 action::Process{Outcome::kTransient},
                 action::Replay{"a"},
                 action::Process{Outcome::kSuccess},
                 action::Enqueue{"c", "late"},
                 action::Process{Outcome::kPermanent, "bad schema"},
                 action::Replay{"c"},
                 action::Process{Outcome::kSuccess}};
    s.cursor = 8;
    const std::string text = FormatScenario(s);
    CHECK(text ==
          "v2;m3;bx100.5000f;s1;ja:charge%20order%201,b:charge%20order%202;at:db%20timeout,s,n,t:db%20timeout,n,t,"
          "ra,s,ec:late,p:bad%20schema,rc,s;c8");
    CHECK(text.size() < 300);
    CHECK(MustParse(text) == s);
    CHECK(ShareScenario(s).ok());
    CHECK(PlayableActions(s).playable == s.actions.size());
  }

  TEST_CASE("leading zeros are read leniently in v2 too") {
    Scenario s = MustParse("v02;m003;bx0100.05000f;l02000;s007;ja:;al,k01s,w0010,n;c04");
    CHECK(FormatScenario(s) == "v2;m3;bx100.5000f;l2000;s7;ja:;al,k1s,w10,n");
  }

  TEST_CASE("malformed v2 links name the position and what was expected") {
    struct Case {
      const char* text;
      Code code;
      const char* message;
    };
    const Case cases[] = {
        {"v2", Code::kInvalidArgument,
         "scenario link is malformed at character 3: expected ';m' and the policy's maxAttempts, got the end of the "
         "link"},
        {"v2;m3", Code::kInvalidArgument,
         "scenario link is malformed at character 6: expected ';s' and the policy's seed (a v2 link always carries "
         "it), got the end of the link"},
        {"v2;m3;ja:", Code::kInvalidArgument,
         "scenario link is malformed at character 7: expected a field in order: b (backoff), l (leaseMs), s (seed), "
         "got 'j'"},
        {"v2;m3;l100;bx1.2n;s1", Code::kInvalidArgument,
         "scenario link is malformed at character 12: expected the field s (seed), got 'b'"},
        {"v2;m3;s1;s2", Code::kInvalidArgument,
         "scenario link is malformed at character 10: expected a field in order: f (failure classes), o (ordering), r "
         "(system), "
         "q (quarantine), t (switches), y (world), h (behaviours), j (jobs), a (actions), c (cursor), got 's'"},
        {"v2;m3;s1;c0;ax", Code::kInvalidArgument,
         "scenario link is malformed at character 13: expected the end of the link, got 'a'"},
        {"v2;m3;s1;", Code::kInvalidArgument,
         "scenario link is malformed at character 10: expected a field in order: f (failure classes), o (ordering), r "
         "(system), "
         "q (quarantine), t (switches), y (world), h (behaviours), j (jobs), a (actions), c (cursor), got the end of "
         "the link"},
        {"v2;m3;bz1.2n;s1", Code::kInvalidArgument,
         "scenario link is malformed at character 8: expected backoff.kind (f fixed, x exponential, n none), got 'z'"},
        {"v2;m3;bx;s1", Code::kInvalidArgument,
         "scenario link is malformed at character 9: expected backoff.baseMs (digits), got ';'"},
        {"v2;m3;bx100;s1", Code::kInvalidArgument,
         "scenario link is malformed at character 12: expected '.' between backoff.baseMs and backoff.capMs, got ';'"},
        {"v2;m3;bx100.200;s1", Code::kInvalidArgument,
         "scenario link is malformed at character 16: expected backoff.jitter (n none, f full, e equal, d "
         "decorrelated, b bullmq), got ';'"},
        {"v2;m3;bx100.200fx;s1", Code::kInvalidArgument,
         "scenario link is malformed at character 17: expected ';' or the end of the link, got 'x'"},
        {"v2;m3;bx123456789.2n;s1", Code::kOutOfRange,
         "scenario link: backoff.baseMs at character 9 has more than 8 digits"},
        {"v2;m3;s12345678901", Code::kOutOfRange, "scenario link: seed at character 8 has more than 10 digits"},
        {"v2;m3;s1;ja:;az", Code::kInvalidArgument,
         "scenario link is malformed at character 15: expected action 1 (s, t, p, u, v or q to process, r to replay, e "
         "to enqueue, "
         "l to lease, k to settle, w to advance, n to advance to the next timer, x to release a key, d to redrive, f "
         "to patch, c to crash), got 'z'"},
        {"v2;m3;s1;ja:;al5", Code::kInvalidArgument,
         "scenario link is malformed at character 16: expected ',' before the next action, ';' or the end of the link, "
         "got '5'"},
        {"v2;m3;s1;ja:;as,k", Code::kInvalidArgument,
         "scenario link is malformed at character 18: expected action 2 lease number (digits), got the end of the "
         "link"},
        {"v2;m3;s1;ja:;al,k1", Code::kInvalidArgument,
         "scenario link is malformed at character 19: expected action 2's outcome after the lease number (s success, t "
         "transient, p permanent, u undeserializable, v unknown-schema, q precondition), got the end of the link"},
        {"v2;m3;s1;ja:;al,k1x", Code::kInvalidArgument,
         "scenario link is malformed at character 19: expected action 2's outcome after the lease number (s success, t "
         "transient, p permanent, u undeserializable, v unknown-schema, q precondition), got 'x'"},
        {"v2;m3;s1;ja:;al,k1s:%zz", Code::kInvalidArgument,
         "scenario link is malformed at character 21: '%' in action 2 error text must be followed by two hex digits"},
        {"v2;m3;s1;aw", Code::kInvalidArgument,
         "scenario link is malformed at character 12: expected action 1 ms (digits), got the end of the link"},
        {"v2;m3;s1;aw12345678901234567", Code::kOutOfRange,
         "scenario link: action 1 ms at character 12 has more than 16 digits"},
        {"v2;m3;s1;ja:%FF;al", Code::kInvalidArgument,
         "scenario link: job 1 payload ending at character 15 is not UTF-8 once its %HH escapes are decoded"},
        {"v2;m3;s1;ja:;an;c2", Code::kOutOfRange,
         "scenario link: the cursor must be from 0 to 1 (the number of actions), got 2"},
        {"v2;m3;s1;ja:;aé", Code::kInvalidArgument,
         "scenario link is malformed at character 15: expected action 1 (s, t, p, u, v or q to process, r to replay, e "
         "to enqueue, "
         "l to lease, k to settle, w to advance, n to advance to the next timer, x to release a key, d to redrive, f "
         "to patch, c to crash), got \"é\""},
    };
    for (const Case& c : cases) {
      CAPTURE(c.text);
      Result<Scenario> r = ParseScenario(c.text);
      REQUIRE_FALSE(r.ok());
      CHECK(r.status().code() == c.code);
      CHECK(r.status().message() == c.message);
    }
  }

  TEST_CASE("every v2 policy value goes through Policy::Check, actions' numbers are range-checked") {
    struct Case {
      const char* text;
      Code code;
      const char* message;
    };
    const Case cases[] = {
        {"v2;m0;s1", Code::kOutOfRange, "scenario link: maxAttempts must be an integer from 1 to 1000000, got 0"},
        {"v2;m1000001;s1", Code::kOutOfRange,
         "scenario link: maxAttempts must be an integer from 1 to 1000000, got 1000001"},
        {"v2;m3;bx0.5n;s1", Code::kOutOfRange,
         "scenario link: backoff.baseMs must be an integer from 1 to 86400000, got 0"},
        {"v2;m3;bx1.86400001n;s1", Code::kOutOfRange,
         "scenario link: backoff.capMs must be an integer from 1 to 86400000, got 86400001"},
        {"v2;m3;bx100.50n;s1", Code::kOutOfRange,
         "scenario link: backoff.capMs must be an integer from backoff.baseMs (100) to 86400000, got 50"},
        {"v2;m3;bf100.200d;s1", Code::kInvalidArgument,
         "scenario link: backoff.jitter \"decorrelated\" needs backoff.kind \"exponential\", got \"fixed\""},
        {"v2;m3;bn100.200f;s1", Code::kInvalidArgument,
         "scenario link: backoff.jitter must be \"none\" when backoff.kind is \"none\" (there is no delay to jitter), "
         "got \"full\""},
        {"v2;m3;l0;s1", Code::kOutOfRange, "scenario link: leaseMs must be an integer from 1 to 86400000, got 0"},
        {"v2;m3;l86400001;s1", Code::kOutOfRange,
         "scenario link: leaseMs must be an integer from 1 to 86400000, got 86400001"},
        {"v2;m3;s4294967296", Code::kOutOfRange,
         "scenario link: seed must be an integer from 0 to 4294967295, got 4294967296"},
        {"v2;m3;s1;ak0s", Code::kOutOfRange,
         "scenario link: action 1: the lease number must be an integer from 1 to 4294967295, got 0"},
        {"v2;m3;s1;ak4294967296s", Code::kOutOfRange,
         "scenario link: action 1: the lease number must be an integer from 1 to 4294967295, got 4294967296"},
        {"v2;m3;s1;aw9007199254740992", Code::kOutOfRange,
         "scenario link: action 1: ms must be an integer from 0 to 9007199254740991, got 9007199254740992"},
    };
    for (const Case& c : cases) {
      CAPTURE(c.text);
      Result<Scenario> r = ParseScenario(c.text);
      REQUIRE_FALSE(r.ok());
      CHECK(r.status().code() == c.code);
      CHECK(r.status().message() == c.message);
    }
    CHECK(MustParse("v2;m3;s1;ak4294967295s,w9007199254740991").actions.size() == 2);
    CHECK(MustParse("v2;m3;s0").policy.seed == 0);
  }

  TEST_CASE("v2 links over 8 KB are refused before the version is read") {
    const std::string text = "v3;m3;s1;ja:" + std::string(kMaxScenarioTextBytes, 'x');
    CHECK(ParseScenario(text).status().code() == Code::kTooLarge);
    const std::string fits = "v2;m3;s1;ja:" + std::string(kMaxScenarioTextBytes - 12, 'x');
    CHECK(ParseScenario(fits).ok());
  }

  TEST_CASE("leases, an expiry through advance and full-jitter backoff replay deterministically") {
    const Scenario s = MustParse(
        "v2;m4;bx100.5000f;l2000;s7;ja:charge%20order%201,b:charge%20order%202;al,s,w2000,n,l,k2t:db%20timeout,n,"
        "l,k3t:db%20timeout,n,s");
    Result<Queue> q = RunScenario(s);
    REQUIRE(q.ok());
    CHECK(Ids(q->view().Completed()) == Strings{"b", "a"});
    CHECK(q->view().Completed()[1].attempts == 4);
    // Every accepted call is one queue action: 2 set-up enqueues, then the 11 of the script.
    CHECK(q->stats().actions == 2 + 11);
    // The lease expired at 2000 and its retry was delayed by full jitter, within [0, 100].
    const std::vector<Event> events = q->view().Timeline();
    const auto expired =
        std::find_if(events.begin(), events.end(), [](const Event& e) { return e.kind == EventKind::kExpired; });
    REQUIRE(expired != events.end());
    CHECK(expired->time == 2000);
    CHECK(expired->id == "a");
    // Each delay within its exponential bound: 100, 200, 400 ms after attempts 1, 2, 3.
    int64_t bound = 100;
    size_t delays = 0;
    for (const Event& e : events) {
      if (e.kind != EventKind::kDelayed) continue;
      CHECK(e.until - e.time >= 0);
      CHECK(e.until - e.time <= bound);
      bound *= 2;
      ++delays;
    }
    CHECK(delays == 3);
    // The same scenario, the same bytes; another seed draws other delays.
    CHECK(RunScenario(s)->view().TimelineText() == q->view().TimelineText());
    CHECK(RunScenario(MustParse(FormatScenario(s)))->view().TimelineText() == q->view().TimelineText());
    Scenario reseeded = s;
    reseeded.policy.seed = 8;
    Result<Queue> other = RunScenario(reseeded);
    REQUIRE(other.ok());
    CHECK(other->view().TimelineText() != q->view().TimelineText());
  }

  TEST_CASE("the queue's refusals of v2 actions name the action and keep the queue's code") {
    struct Case {
      const char* text;
      Code code;
      const char* message;
    };
    const Case cases[] = {
        {"v2;m3;s1;al", Code::kFailedPrecondition, "scenario action 1: lease() found nothing ready"},
        {"v2;m3;s1;an", Code::kFailedPrecondition, "scenario action 1: advanceToNext() found no pending timer"},
        {"v2;m3;s1;ja:;as,n", Code::kFailedPrecondition, "scenario action 2: advanceToNext() found no pending timer"},
        {"v2;m3;s1;ja:;ak1s", Code::kStaleLease,
         "scenario action 1: token \"lease-1\" names no lease this queue granted"},
        {"v2;m3;s1;ja:;al,k1s,k1t", Code::kStaleLease,
         "scenario action 3: lease lease-1 for job \"a\" was already settled"},
        {"v2;m3;l10;s1;ja:;al,w10,k1s", Code::kStaleLease,
         "scenario action 3: lease lease-1 for job \"a\" expired at 10 ms; its attempt was counted"},
        {"v2;m3;s1;aw9007199254740991,w1", Code::kOutOfRange,
         "scenario action 2: ms must keep the clock at most 9007199254740991 ms; now is 9007199254740991, got 1"},
        {"v2;m3;s1;ja:;as,l", Code::kFailedPrecondition, "scenario action 2: lease() found nothing ready"},
    };
    for (const Case& c : cases) {
      CAPTURE(c.text);
      const Scenario s = MustParse(c.text);
      Result<Queue> r = RunScenario(s);
      REQUIRE_FALSE(r.ok());
      CHECK(r.status().code() == c.code);
      CHECK(r.status().message() == c.message);
      CHECK(ShareScenario(s).status().message() == c.message);
      const ScenarioReach reach = PlayableActions(s);
      CHECK(reach.stopped.message() == c.message);
    }
    // w0 and a settle of the lease just granted are fine; the script's actions follow the set-up's.
    Result<Queue> ok = RunScenario(MustParse("v2;m3;s1;ja:,b:;aw0,l,k1s,l,k2p"));
    REQUIRE(ok.ok());
    CHECK(ok->stats().actions == 2 + 5);
    CHECK(Ids(ok->view().Quarantined()) == Strings{"b"});
  }

  TEST_CASE("ShareScenario and PlayableActions take every action kind") {
    Scenario s = EveryKind();
    Result<std::string> shared = ShareScenario(s);
    INFO(shared.status().ToString());
    REQUIRE(shared.ok());
    CHECK(shared.value() == FormatScenario(s));
    const ScenarioReach reach = PlayableActions(s);
    CHECK(reach.playable == s.actions.size());
    CHECK(reach.stopped.ok());
    Scenario stale = s;
    stale.actions.push_back(action::Settle{1, Outcome::kSuccess, ""});
    stale.cursor = stale.actions.size();
    CHECK(ShareScenario(stale).status().code() == Code::kStaleLease);
    CHECK(PlayableActions(stale).playable == s.actions.size());
    // Values ParseScenario refuses do not make a link.
    Scenario zero_lease = s;
    zero_lease.actions = {action::Settle{0, Outcome::kSuccess, ""}};
    zero_lease.cursor = 0;
    CHECK(ShareScenario(zero_lease).status().code() == Code::kOutOfRange);
  }
}

TEST_SUITE("scenario v2 failure classes") {
  // A policy whose one class rule is `rule`, everything else lesson 1's.
  Scenario WithRule(FailureClass c, const ClassRule& rule) {
    Scenario s;
    s.policy.classes[c] = rule;
    return s;
  }

  TEST_CASE("every class row variant round-trips through one canonical text") {
    const std::pair<BackoffKind, Jitter> own[] = {
        {BackoffKind::kNone, Jitter::kNone},         {BackoffKind::kFixed, Jitter::kNone},
        {BackoffKind::kFixed, Jitter::kFull},        {BackoffKind::kFixed, Jitter::kEqual},
        {BackoffKind::kExponential, Jitter::kNone},  {BackoffKind::kExponential, Jitter::kFull},
        {BackoffKind::kExponential, Jitter::kEqual}, {BackoffKind::kExponential, Jitter::kDecorrelated},
    };
    const ClassTable defaults;
    size_t written = 0;
    size_t left_out = 0;
    for (int i = 0; i < kFailureClassCount; ++i) {
      const auto c = static_cast<FailureClass>(i);
      for (const bool retry : {false, true}) {
        for (const int64_t max_attempts : {int64_t{0}, int64_t{1}, int64_t{2}, int64_t{1'000'000}}) {
          for (int b = -1; b < static_cast<int>(std::size(own)); ++b) {  // -1: the policy's backoff
            for (const bool alert : {false, true}) {
              ClassRule rule{retry, max_attempts, b >= 0, {}, alert};
              if (b >= 0)
                rule.backoff = {own[b].first, 1000, 1000, own[b].second};  // precondition's default among them
              Scenario s = WithRule(c, rule);
              REQUIRE(Policy::Check(s.policy).ok());
              const std::string text = FormatScenario(s);
              CAPTURE(text);
              Scenario back = MustParse(text);
              CHECK(back == s);
              CHECK(back.policy.classes[c] == rule);
              CHECK(FormatScenario(back) == text);
              if (rule == defaults[c]) {
                CHECK(text == "v1;m3");  // a default row is never written
                ++left_out;
              } else {
                CHECK(text.rfind("v2;m3;s1;f", 0) == 0);
                CHECK(text.find(',') == std::string::npos);  // one row only
                ++written;
              }
            }
          }
        }
      }
    }
    CHECK(left_out == 6);  // each class's default appears once among the variants
    CHECK(written == 6 * 2 * 4 * 9 * 2 - 6);
  }

  TEST_CASE("class rows are written whole, in class order, and read back exactly") {
    // The article's table, spelled out (the rows a writer never writes).
    CHECK(FormatScenario(WithRule(FailureClass::kPrecondition,
                                  ClassRule{true, 3, true, {BackoffKind::kFixed, 1000, 1000, Jitter::kNone}, false})) ==
          "v2;m3;s1;fqb3.f1000.1000n");
    CHECK(FormatScenario(WithRule(FailureClass::kUnknownSchema, ClassRule{false, 0, false, {}, false})) ==
          "v2;m3;s1;fvn0");
    CHECK(FormatScenario(WithRule(FailureClass::kPrecondition, ClassRule{true, 2, false, {}, false})) ==
          "v2;m3;s1;fqb2");  // the policy's backoff instead of the class's own
    CHECK(FormatScenario(WithRule(FailureClass::kCrash, ClassRule{false, 0, false, {}, true})) == "v2;m3;s1;fcn0!");
    Scenario all;
    all.policy.max_attempts = 5;
    all.policy.backoff = {BackoffKind::kExponential, 100, 5000, Jitter::kFull};
    all.policy.seed = 9;
    all.policy.classes[FailureClass::kTransient] = {
        true, 4, true, {BackoffKind::kExponential, 50, 800, Jitter::kDecorrelated}, false};
    all.policy.classes[FailureClass::kPermanent] = {false, 0, false, {}, true};
    all.policy.classes[FailureClass::kUndeserializable] = {
        true, 2, true, {BackoffKind::kNone, 1000, 60000, Jitter::kNone}, false};
    all.policy.classes[FailureClass::kUnknownSchema] = {true, 1000000, false, {}, true};
    all.policy.classes[FailureClass::kPrecondition] = {
        true, 3, true, {BackoffKind::kFixed, 1000, 1000, Jitter::kEqual}, true};
    all.policy.classes[FailureClass::kCrash] = {true, 1, false, {}, false};
    all.jobs = {{"a", ""}};
    all.actions = {action::Process{Outcome::kPrecondition, "no customer"}};
    all.cursor = 1;
    const std::string text = FormatScenario(all);
    CHECK(text ==
          "v2;m5;bx100.5000f;s9;ftb4.x50.800d,pn0!,ub2.n1000.60000n,vb1000000!,qb3.f1000.1000e!,cb1;ja:;"
          "aq:no%20customer");
    CHECK(MustParse(text) == all);
    CHECK(ShareScenario(all).value() == text);
    // A rule that keeps the policy's backoff ignores whatever its own backoff holds.
    Scenario stale = WithRule(FailureClass::kPrecondition,
                              ClassRule{true, 3, false, {BackoffKind::kFixed, 5, 5, Jitter::kFull}, false});
    CHECK(FormatScenario(stale) == "v2;m3;s1;fqb3");
    CHECK(MustParse("v2;m3;s1;fqb3") == stale);
    // An own backoff of kind none is kept: no delay, whatever the policy's backoff.
    const Scenario no_delay = MustParse("v2;m3;bf500.500n;s1;ftb0.n1000.60000n;ja:;at");
    CHECK(FormatScenario(no_delay) == "v2;m3;bf500.500n;s1;ftb0.n1000.60000n;ja:;at");
    CHECK(RunScenario(no_delay)->stats().ready == 1);
    CHECK(RunScenario(MustParse("v2;m3;bf500.500n;s1;ja:;at"))->stats().delayed == 1);
    // Precondition gets three attempts.
    const Scenario three = MustParse("v2;m3;s1;fqb3.f1000.1000n;ja:;aq,n,q,n,q");
    Result<Queue> q = RunScenario(three);
    REQUIRE(q.ok());
    REQUIRE(q->view().Quarantined().size() == 1);
    CHECK(q->view().Quarantined()[0].attempts == 3);
    CHECK(q->view().Quarantined()[0].reason == Reason::kExhausted);
    CHECK(q->stats().now == 2000);
  }

  TEST_CASE("random whole tables round-trip: every row Policy::Check accepts, several at once") {
    Prng prng(2024);
    const ClassTable defaults;
    for (int round = 0; round < 500; ++round) {
      Scenario s;
      s.policy.max_attempts = 1 + static_cast<int64_t>(prng.Below(10));
      for (int i = 0; i < kFailureClassCount; ++i) {
        if (prng.Below(2) == 0) continue;  // this row stays the default
        ClassRule& rule = s.policy.classes.rules[i];
        rule.retry = prng.Below(2) == 1;
        rule.max_attempts = static_cast<int64_t>(prng.Below(5));
        rule.own_backoff = prng.Below(2) == 1;
        if (rule.own_backoff) {
          rule.backoff.kind = static_cast<BackoffKind>(prng.Below(3));
          rule.backoff.base_ms = 1 + static_cast<int64_t>(prng.Below(2000));
          rule.backoff.cap_ms = rule.backoff.base_ms + static_cast<int64_t>(prng.Below(2000));
          rule.backoff.jitter = rule.backoff.kind == BackoffKind::kNone    ? Jitter::kNone
                                : rule.backoff.kind == BackoffKind::kFixed ? static_cast<Jitter>(prng.Below(3))
                                                                           : static_cast<Jitter>(prng.Below(4));
        }
        rule.alert = prng.Below(2) == 1;
      }
      REQUIRE(Policy::Check(s.policy).ok());
      const std::string text = FormatScenario(s);
      CAPTURE(text);
      CHECK(MustParse(text) == s);
      CHECK(FormatScenario(MustParse(text)) == text);
      size_t differing = 0;
      for (int i = 0; i < kFailureClassCount; ++i) differing += !(s.policy.classes.rules[i] == defaults.rules[i]);
      CHECK(static_cast<size_t>(std::count(text.begin(), text.end(), ',')) + (text.find(";f") != std::string::npos) ==
            differing);
    }
  }

  TEST_CASE("rows equal to the default are read, leniently, and never written") {
    CHECK(FormatScenario(MustParse("v2;m3;s1;ftb0,pn0,un0,vn0!,qb2.f1000.1000n,cb0")) == "v1;m3");
    CHECK(FormatScenario(MustParse("v2;m3;s1;fqb2.f1000.1000n;ja:;as")) == "v1;m3;ja:;as");
    CHECK(FormatScenario(MustParse("v2;m3;s2;fvn0!,cb1")) == "v2;m3;s2;fcb1");
    CHECK(FormatScenario(MustParse("v2;m3;s1;fqb003.f01000.01000n")) == "v2;m3;s1;fqb3.f1000.1000n");
    // Setting a rule to its default value by hand is the default.
    Scenario s;
    s.policy.classes[FailureClass::kUnknownSchema].alert = false;
    s.policy.classes[FailureClass::kUnknownSchema].alert = true;
    CHECK(FormatScenario(s) == "v1;m3");
  }

  TEST_CASE("outcomes u, v and q round-trip in process and settle actions, and only in v2") {
    Scenario s;
    s.jobs = {{"a", ""}, {"b", ""}, {"c", ""}, {"d", ""}, {"e", ""}, {"f", ""}};
    s.actions = {action::Process{Outcome::kUndeserializable, "not JSON"},
                 action::Process{Outcome::kUnknownSchema, ""},
                 action::Process{Outcome::kPrecondition, "no customer"},
                 action::Lease{},
                 action::Settle{1, Outcome::kUndeserializable, ""},
                 action::Lease{},
                 action::Settle{2, Outcome::kUnknownSchema, "v9"},
                 action::Lease{},
                 action::Settle{3, Outcome::kPrecondition, ""}};
    s.cursor = s.actions.size();
    const std::string text = FormatScenario(s);
    CHECK(text == "v2;m3;s1;ja:,b:,c:,d:,e:,f:;au:not%20JSON,v,q:no%20customer,l,k1u,l,k2v:v9,l,k3q");
    CHECK(MustParse(text) == s);
    CHECK(ShareScenario(s).value() == text);
    // One such outcome in an otherwise lesson-1 script makes the link v2.
    for (const Outcome o : {Outcome::kUndeserializable, Outcome::kUnknownSchema, Outcome::kPrecondition}) {
      CAPTURE(OutcomeName(o));
      CHECK_FALSE(IsLessonOneAction(action::Process{o, ""}));
      Scenario one;
      one.jobs = {{"a", ""}};
      one.actions = {action::Process{Outcome::kSuccess}, action::Process{o, "x"}};
      one.cursor = 1;
      const std::string t = FormatScenario(one);
      CHECK(t == std::string("v2;m3;s1;ja:;as,") +
                     (o == Outcome::kUndeserializable ? 'u'
                      : o == Outcome::kUnknownSchema  ? 'v'
                                                      : 'q') +
                     ":x;c1");
      CHECK(MustParse(t) == one);
    }
    CHECK(IsLessonOneAction(action::Process{Outcome::kTransient, ""}));
    CHECK(IsLessonOneAction(action::Process{Outcome::kPermanent, ""}));
  }

  TEST_CASE("v1 stays frozen: u, v and q are not v1 outcomes, and v1 has no class field") {
    struct Case {
      const char* text;
      const char* message;
    };
    const Case cases[] = {
        {"v1;m3;ja:;au",
         "scenario link is malformed at character 12: expected action 1 (s, t or p to process, r to "
         "replay, e to enqueue), got 'u'"},
        {"v1;m3;ja:;as,v:x",
         "scenario link is malformed at character 14: expected action 2 (s, t or p to process, r "
         "to replay, e to enqueue), got 'v'"},
        {"v1;m3;ja:;aq",
         "scenario link is malformed at character 12: expected action 1 (s, t or p to process, r to "
         "replay, e to enqueue), got 'q'"},
        {"v1;m3;fqb3",
         "scenario link is malformed at character 7: expected a field in order: j (jobs), a (actions), "
         "c (cursor), got 'f'"},
    };
    for (const Case& c : cases) {
      CAPTURE(c.text);
      Result<Scenario> r = ParseScenario(c.text);
      REQUIRE_FALSE(r.ok());
      CHECK(r.status().code() == Code::kInvalidArgument);
      CHECK(r.status().message() == c.message);
    }
  }

  TEST_CASE("malformed class fields name the position and what was expected") {
    struct Case {
      const char* text;
      const char* message;
    };
    const std::string classes =
        "t transient, p permanent, u undeserializable, v unknown-schema, q precondition, c crash";
    const std::string after_q =
        "a failure class after precondition (" + classes + "; each at most once, in this order)";
    const std::string tail = "',' before the next class row, ';' or the end of the link";
    const std::pair<const char*, std::string> cases[] = {
        {"v2;m3;s1;f", "character 11: expected a failure class (" + classes + "), got the end of the link"},
        {"v2;m3;s1;fx", "character 11: expected a failure class (" + classes + "), got 'x'"},
        {"v2;m3;s1;fq",
         "character 12: expected classes.precondition.retry (n never, b bounded), got the end of the link"},
        {"v2;m3;s1;fqr3", "character 12: expected classes.precondition.retry (n never, b bounded), got 'r'"},
        {"v2;m3;s1;fqb", "character 13: expected classes.precondition.maxAttempts (digits), got the end of the link"},
        {"v2;m3;s1;fcn!", "character 13: expected classes.crash.maxAttempts (digits), got '!'"},
        {"v2;m3;s1;fqb3x",
         "character 14: expected '.' and classes.precondition.backoff, '!' (alert), " + tail + ", got 'x'"},
        {"v2;m3;s1;fqb3.",
         "character 15: expected classes.precondition.backoff.kind (f fixed, x exponential, n none), got the end of "
         "the link"},
        {"v2;m3;s1;fqb3.z1.2n",
         "character 15: expected classes.precondition.backoff.kind (f fixed, x exponential, n none), got 'z'"},
        {"v2;m3;s1;fqb3.f",
         "character 16: expected classes.precondition.backoff.baseMs (digits), got the end of the link"},
        {"v2;m3;s1;fqb3.f10",
         "character 18: expected '.' between classes.precondition.backoff.baseMs and "
         "classes.precondition.backoff.capMs, got the end of the link"},
        {"v2;m3;s1;fqb3.f10.",
         "character 19: expected classes.precondition.backoff.capMs (digits), got the end of the link"},
        {"v2;m3;s1;fqb3.f10.20",
         "character 21: expected classes.precondition.backoff.jitter (n none, f full, e equal, d decorrelated, b "
         "bullmq), got the end of the link"},
        {"v2;m3;s1;fqb3.f10.20nx", "character 22: expected '!' (alert), " + tail + ", got 'x'"},
        {"v2;m3;s1;fqb3!!", "character 15: expected " + tail + ", got '!'"},
        {"v2;m3;s1;fqb3.f10.20n!.", "character 23: expected " + tail + ", got '.'"},
        {"v2;m3;s1;fqb3,", "character 15: expected " + after_q + ", got the end of the link"},
        {"v2;m3;s1;fqb3,tb1", "character 15: expected " + after_q + ", got 't'"},
        {"v2;m3;s1;fqb3,qb4", "character 15: expected " + after_q + ", got 'q'"},
        {"v2;m3;s1;fqb3;",
         "character 15: expected a field in order: o (ordering), r (system), q (quarantine), t (switches), y (world), "
         "h (behaviours), j (jobs), a (actions), c (cursor), got the end of the link"},
        {"v2;m3;s1;fqb3;fcb1",
         "character 15: expected a field in order: o (ordering), r (system), q (quarantine), t (switches), y (world), "
         "h (behaviours), j (jobs), a (actions), c (cursor), got 'f'"},
        {"v2;m3;fqb3;s1", "character 7: expected a field in order: b (backoff), l (leaseMs), s (seed), got 'f'"},
        {"v2;m3;s1;ja:;fqb3", "character 14: expected a field in order: a (actions), c (cursor), got 'f'"},
        {"v2;m3;s1;fqé", "character 12: expected classes.precondition.retry (n never, b bounded), got \"é\""},
    };
    for (const auto& entry : cases) {
      // Not structured bindings: clang 14 cannot capture one (CAPTURE is a lambda).
      const auto& text = entry.first;
      const auto& message = entry.second;
      CAPTURE(text);
      Result<Scenario> r = ParseScenario(text);
      REQUIRE_FALSE(r.ok());
      CHECK(r.status().code() == Code::kInvalidArgument);
      CHECK(r.status().message() == "scenario link is malformed at " + message);
    }
  }

  TEST_CASE("class rows go through Policy::Check, named as it names them") {
    struct Case {
      const char* text;
      Code code;
      const char* message;
    };
    const Case cases[] = {
        {"v2;m3;s1;fqb1000001", Code::kOutOfRange,
         "scenario link: classes.precondition.maxAttempts must be an integer from 0 to 1000000, got 1000001"},
        {"v2;m3;s1;fqb12345678", Code::kOutOfRange,
         "scenario link: classes.precondition.maxAttempts at character 13 has more than 7 digits"},
        {"v2;m3;s1;ftb2,cb9999999", Code::kOutOfRange,
         "scenario link: classes.crash.maxAttempts must be an integer from 0 to 1000000, got 9999999"},
        {"v2;m3;s1;fub1.f0.100n", Code::kOutOfRange,
         "scenario link: classes.undeserializable.backoff.baseMs must be an integer from 1 to 86400000, got 0"},
        {"v2;m3;s1;fcb0.f500.100n", Code::kOutOfRange,
         "scenario link: classes.crash.backoff.capMs must be an integer from classes.crash.backoff.baseMs (500) to "
         "86400000, got 100"},
        {"v2;m3;s1;ftb0.x1.86400001n", Code::kOutOfRange,
         "scenario link: classes.transient.backoff.capMs must be an integer from 1 to 86400000, got 86400001"},
        {"v2;m3;s1;fqb3.f123456789.1n", Code::kOutOfRange,
         "scenario link: classes.precondition.backoff.baseMs at character 16 has more than 8 digits"},
        {"v2;m3;s1;fvn0.n10.20f", Code::kInvalidArgument,
         "scenario link: classes.unknown-schema.backoff.jitter must be \"none\" when "
         "classes.unknown-schema.backoff.kind "
         "is \"none\" (there is no delay to jitter), got \"full\""},
        {"v2;m3;s1;fpn0.f10.20d", Code::kInvalidArgument,
         "scenario link: classes.permanent.backoff.jitter \"decorrelated\" needs classes.permanent.backoff.kind "
         "\"exponential\", got \"fixed\""},
    };
    for (const Case& c : cases) {
      CAPTURE(c.text);
      Result<Scenario> r = ParseScenario(c.text);
      REQUIRE_FALSE(r.ok());
      CHECK(r.status().code() == c.code);
      CHECK(r.status().message() == c.message);
    }
    // The extremes are accepted.
    Scenario s = MustParse("v2;m3;s1;ftb1000000.x1.86400000d,qn0.x86400000.86400000e");
    CHECK(s.policy.classes[FailureClass::kTransient].max_attempts == 1'000'000);
    CHECK(s.policy.classes[FailureClass::kPrecondition].backoff.base_ms == 86'400'000);
    CHECK(Policy::Check(s.policy).ok());
  }

  TEST_CASE("the released classes fixture: each class does what the table says") {
    std::string text = ReadFile(std::filesystem::path(DLQ_SOURCE_DIR) / "tests/fixtures/links/v2-classes.link");
    while (!text.empty() && text.back() == '\n') text.pop_back();
    const Scenario s = MustParse(text);
    CHECK(FormatScenario(s) == text);  // released canonical
    ClassTable expected;
    expected[FailureClass::kTransient] = {true, 2, true, {BackoffKind::kFixed, 250, 250, Jitter::kNone}, false};
    expected[FailureClass::kPermanent].alert = true;
    CHECK(s.policy.classes == expected);
    Result<Queue> q = RunScenario(s);
    REQUIRE(q.ok());
    const std::vector<QuarantineEntry> entries = q->view().Quarantined();
    REQUIRE(entries.size() == 6);
    struct Want {
      const char* id;
      FailureClass failure_class;
      Reason reason;
      uint32_t attempts;
      bool alert;
      int64_t arrived_at;
    };
    const Want want[] = {
        {"bad", FailureClass::kUndeserializable, Reason::kPermanent, 1, false, 0},  // at once
        {"v9", FailureClass::kUnknownSchema, Reason::kPermanent, 1, true, 0},       // at once, with an alert
        {"perm", FailureClass::kPermanent, Reason::kPermanent, 1, true, 0},         // the override's alert
        {"db", FailureClass::kTransient, Reason::kExhausted, 2, false, 250},        // the override's 2 attempts
        {"pre", FailureClass::kPrecondition, Reason::kExhausted, 2, false, 1000},   // retried once, 1000 ms later
        {"resize", FailureClass::kCrash, Reason::kExhausted, 3, false, 2000},       // the policy's 3 leases
    };
    for (size_t i = 0; i < std::size(want); ++i) {
      CAPTURE(want[i].id);
      CHECK(entries[i].id == want[i].id);
      CHECK(entries[i].failure_class == want[i].failure_class);
      CHECK(entries[i].reason == want[i].reason);
      CHECK(entries[i].attempts == want[i].attempts);
      CHECK(entries[i].alert == want[i].alert);
      CHECK(entries[i].arrived_at == want[i].arrived_at);
    }
    size_t alerts = 0;
    for (const Event& e : q->view().Timeline()) alerts += e.kind == EventKind::kAlert;
    CHECK(alerts == 2);
  }
}

TEST_SUITE("scenario v2 ordering and quarantine") {
  // Lesson 1's policy and one job, for a field or action at a time.
  Scenario OneJob() {
    Scenario s;
    s.jobs = {{"a", ""}};
    return s;
  }

  TEST_CASE("ordering, quarantine operability, keys, releaseKey and redrive round-trip through one canonical text") {
    Scenario s;
    s.policy.ordering = Ordering::kKey;
    s.policy.retention_ms = 1000;
    s.policy.alarm_depth = 2;
    s.jobs = {{"a", "charge order 1", "acct-7"},
              {"b", "charge order 2", "acct-7"},
              {"c", "", "acct 9;:,%é"},
              {"free", "no key"}};
    s.actions = {action::Process{Outcome::kPermanent, "card declined"},
                 action::ReleaseKey{"acct-7"},
                 action::Enqueue{"d", "refund", "acct-7"},
                 action::Enqueue{"e", "", ""},
                 action::ReleaseKey{"acct 9;:,%é"},
                 action::Redrive{1},
                 action::Redrive{1'000'000'000}};
    s.cursor = 2;
    const std::string text = FormatScenario(s);
    CHECK(
        text ==
        "v2;m3;s1;ok;q1000.2;ja:charge%20order%201:acct-7,b:charge%20order%202:acct-7,c::acct%209%3B%3A%2C%25%C3%A9,"
        "free:no%20key;ap:card%20declined,xacct-7,ed:refund:acct-7,ee:,xacct%209%3B%3A%2C%25%C3%A9,d1,d1000000000;c2");
    const Scenario back = MustParse(text);
    CHECK(back == s);
    CHECK(FormatScenario(back) == text);
    CHECK(back.jobs[2].key == "acct 9;:,%é");
    CHECK(back.jobs[3].key.empty());
    CHECK(std::get<action::Enqueue>(back.actions[2]).key == "acct-7");
    CHECK(std::get<action::ReleaseKey>(back.actions[4]).key == "acct 9;:,%é");
    CHECK(std::get<action::Redrive>(back.actions[6]).max == 1'000'000'000);
    // A key is part of what a scenario is: another key is another scenario.
    Scenario other = s;
    other.jobs[0].key = "acct-8";
    CHECK_FALSE(other == s);
    CHECK(MustParse(FormatScenario(other)) == other);
  }

  TEST_CASE("each ordering and each quarantine setting has one text, the defaults are never written") {
    const std::pair<Ordering, const char*> orderings[] = {
        {Ordering::kNone, "v1;m3"}, {Ordering::kKey, "v2;m3;s1;ok"}, {Ordering::kStall, "v2;m3;s1;os"}};
    for (const auto& entry : orderings) {
      // Not structured bindings: clang 14 cannot capture one (CAPTURE is a lambda).
      const auto& ordering = entry.first;
      const auto& text = entry.second;
      CAPTURE(text);
      Scenario s;
      s.policy.ordering = ordering;
      CHECK(FormatScenario(s) == text);
      CHECK(MustParse(text) == s);
    }
    struct Quarantine {
      int64_t retention_ms;
      int64_t alarm_depth;
      const char* text;
    };
    const Quarantine quarantines[] = {
        {0, 0, "v1;m3"},
        {1, 0, "v2;m3;s1;q1.0"},
        {0, 1, "v2;m3;s1;q0.1"},
        {1000, 2, "v2;m3;s1;q1000.2"},
        {kMaxTimeMs, 1'000'000'000, "v2;m3;s1;q9007199254740991.1000000000"},
    };
    for (const Quarantine& q : quarantines) {
      CAPTURE(q.text);
      Scenario s;
      s.policy.retention_ms = q.retention_ms;
      s.policy.alarm_depth = q.alarm_depth;
      REQUIRE(Policy::Check(s.policy).ok());
      CHECK(FormatScenario(s) == q.text);
      CHECK(MustParse(q.text) == s);
    }
    // Fields in their order, after the class table and before the jobs.
    Scenario all;
    all.policy.backoff = {BackoffKind::kFixed, 100, 100, Jitter::kNone};
    all.policy.lease_ms = 500;
    all.policy.classes[FailureClass::kCrash].alert = true;
    all.policy.ordering = Ordering::kStall;
    all.policy.alarm_depth = 3;
    all.jobs = {{"a", "", "k"}};
    all.actions = {action::Process{}};
    all.cursor = 0;
    CHECK(FormatScenario(all) == "v2;m3;bf100.100n;l500;s1;fcb0!;os;q0.3;ja::k;as;c0");
    CHECK(MustParse(FormatScenario(all)) == all);
    // Explicit defaults are read, leniently, and dropped when written: ordering n,
    // q0.0, an empty key after its ':'; leading zeros as everywhere else.
    CHECK(FormatScenario(MustParse("v2;m3;s1;on;q0.0;ja:x:,b::;aeb:y:")) == "v1;m3;ja:x,b:;aeb:y");
    CHECK(FormatScenario(MustParse("v2;m3;s1;on;q00.000")) == "v1;m3");
    CHECK(FormatScenario(MustParse("v2;m3;s1;ok;q001000.02;ja::k;ad007,xk")) == "v2;m3;s1;ok;q1000.2;ja::k;ad7,xk");
  }

  TEST_CASE(
      "v1 carries none of it: FormatScenario writes v2 for any key, ordering, quarantine setting, releaseKey or "
      "redrive") {
    const auto text_of = [](void (*edit)(Scenario&)) {
      Scenario s;
      s.jobs = {{"a", ""}};
      s.actions = {action::Process{}};
      s.cursor = 1;
      edit(s);
      CHECK(MustParse(FormatScenario(s)) == s);
      return FormatScenario(s);
    };
    CHECK(text_of([](Scenario&) {}) == "v1;m3;ja:;as");
    CHECK(text_of([](Scenario& s) { s.jobs[0].key = "k"; }) == "v2;m3;s1;ja::k;as");
    CHECK(text_of([](Scenario& s) {
            s.actions.push_back(action::Enqueue{"b", "", "k"});
          }) == "v2;m3;s1;ja:;as,eb::k;c1");
    CHECK(text_of([](Scenario& s) { s.actions.push_back(action::Enqueue{"b", "", ""}); }) == "v1;m3;ja:;as,eb:;c1");
    CHECK(text_of([](Scenario& s) { s.policy.ordering = Ordering::kKey; }) == "v2;m3;s1;ok;ja:;as");
    CHECK(text_of([](Scenario& s) { s.policy.ordering = Ordering::kStall; }) == "v2;m3;s1;os;ja:;as");
    CHECK(text_of([](Scenario& s) { s.policy.retention_ms = 1; }) == "v2;m3;s1;q1.0;ja:;as");
    CHECK(text_of([](Scenario& s) { s.policy.alarm_depth = 1; }) == "v2;m3;s1;q0.1;ja:;as");
    CHECK(text_of([](Scenario& s) { s.actions.push_back(action::ReleaseKey{"k"}); }) == "v2;m3;s1;ja:;as,xk;c1");
    CHECK(text_of([](Scenario& s) { s.actions.push_back(action::Redrive{2}); }) == "v2;m3;s1;ja:;as,d2;c1");
    CHECK_FALSE(IsLessonOneAction(action::ReleaseKey{"k"}));
    CHECK_FALSE(IsLessonOneAction(action::Redrive{1}));
  }

  TEST_CASE("v1 stays frozen: a third part, an ordering, a quarantine field, releaseKey and redrive are malformed") {
    const std::pair<const char*, const char*> cases[] = {
        {"v1;m3;ja:x:k", "character 11: expected ';' or the end of the link, got ':'"},
        {"v1;m3;ja::k,b:", "character 10: expected ';' or the end of the link, got ':'"},
        {"v1;m3;ja:;aeb:x:k", "character 16: expected ';' or the end of the link, got ':'"},
        {"v1;m3;ok", "character 7: expected a field in order: j (jobs), a (actions), c (cursor), got 'o'"},
        {"v1;m3;q1000.2", "character 7: expected a field in order: j (jobs), a (actions), c (cursor), got 'q'"},
        {"v1;m3;ja:;axk", "character 12: expected action 1 (s, t or p to process, r to replay, e to enqueue), got 'x'"},
        {"v1;m3;ja:;as,d1",
         "character 14: expected action 2 (s, t or p to process, r to replay, e to enqueue), got 'd'"},
    };
    for (const auto& entry : cases) {
      // Not structured bindings: clang 14 cannot capture one (CAPTURE is a lambda).
      const auto& text = entry.first;
      const auto& message = entry.second;
      CAPTURE(text);
      Result<Scenario> r = ParseScenario(text);
      REQUIRE_FALSE(r.ok());
      CHECK(r.status().code() == Code::kInvalidArgument);
      CHECK(r.status().message() == std::string("scenario link is malformed at ") + message);
    }
  }

  TEST_CASE("malformed ordering, quarantine, key and new action texts name the position and what was expected") {
    const std::string next_action = "',' before the next action, ';' or the end of the link";
    const std::string release = "action 1 key (releaseKey names the key to release; it cannot be empty)";
    const std::string key_chars = "characters (letters, digits, -_.~!$'()*+=@/? or %HH escapes)";
    const std::pair<const char*, std::string> cases[] = {
        {"v2;m3;s1;o", "character 11: expected ordering (k key, s stall, n none), got the end of the link"},
        {"v2;m3;s1;ox", "character 11: expected ordering (k key, s stall, n none), got 'x'"},
        {"v2;m3;s1;oK", "character 11: expected ordering (k key, s stall, n none), got 'K'"},
        {"v2;m3;s1;okk", "character 12: expected ';' or the end of the link, got 'k'"},
        {"v2;m3;s1;ok;os",
         "character 13: expected a field in order: r (system), q (quarantine), t (switches), y (world), h "
         "(behaviours), j (jobs), a (actions), c (cursor), got 'o'"},
        {"v2;m3;ok;s1", "character 7: expected a field in order: b (backoff), l (leaseMs), s (seed), got 'o'"},
        {"v2;m3;s1;q1.2;ok",
         "character 15: expected a field in order: t (switches), y (world), h (behaviours), j (jobs), a (actions), c "
         "(cursor), got 'o'"},
        {"v2;m3;s1;ok;fqb3",
         "character 13: expected a field in order: r (system), q (quarantine), t (switches), y (world), h "
         "(behaviours), j (jobs), a (actions), c (cursor), got 'f'"},
        {"v2;m3;s1;ja:;ok", "character 14: expected a field in order: a (actions), c (cursor), got 'o'"},
        {"v2;m3;s1;q", "character 11: expected quarantine.retentionMs (digits), got the end of the link"},
        {"v2;m3;s1;q.2", "character 11: expected quarantine.retentionMs (digits), got '.'"},
        {"v2;m3;s1;q100",
         "character 14: expected '.' between quarantine.retentionMs and quarantine.alarmDepth, got the end of the "
         "link"},
        {"v2;m3;s1;q100;ok",
         "character 14: expected '.' between quarantine.retentionMs and quarantine.alarmDepth, got ';'"},
        {"v2;m3;s1;q100.", "character 15: expected quarantine.alarmDepth (digits), got the end of the link"},
        {"v2;m3;s1;q1.2x", "character 14: expected ';' or the end of the link, got 'x'"},
        {"v2;m3;s1;q1.2.3", "character 14: expected ';' or the end of the link, got '.'"},
        {"v2;m3;s1;ja:x:k:z", "character 16: expected ',' before the next job, ';' or the end of the link, got ':'"},
        {"v2;m3;s1;ja:x:<", "character 15: expected job 1 key " + key_chars + ", got \"<\""},
        {"v2;m3;s1;ja:,b::é", "character 17: expected job 2 key " + key_chars + ", got \"é\""},
        {"v2;m3;s1;ja:x:%zz", "character 15: '%' in job 1 key must be followed by two hex digits"},
        {"v2;m3;s1;aea:x:k:z", "character 17: expected " + next_action + ", got ':'"},
        {"v2;m3;s1;aea:x:%4", "character 16: '%' in action 1 key must be followed by two hex digits"},
        {"v2;m3;s1;ax", "character 12: expected " + release + ", got the end of the link"},
        {"v2;m3;s1;ax,s", "character 12: expected " + release + ", got ','"},
        {"v2;m3;s1;ax;c0", "character 12: expected " + release + ", got ';'"},
        {"v2;m3;s1;axk:z", "character 13: expected " + next_action + ", got ':'"},
        {"v2;m3;s1;ax<", "character 12: expected action 1 key " + key_chars + ", got \"<\""},
        {"v2;m3;s1;ad", "character 12: expected action 1 max (digits), got the end of the link"},
        {"v2;m3;s1;adx", "character 12: expected action 1 max (digits), got 'x'"},
        {"v2;m3;s1;ad1x", "character 13: expected " + next_action + ", got 'x'"},
        {"v2;m3;s1;as,d-1", "character 14: expected action 2 max (digits), got '-'"},
    };
    for (const auto& entry : cases) {
      // Not structured bindings: clang 14 cannot capture one (CAPTURE is a lambda).
      const auto& text = entry.first;
      const auto& message = entry.second;
      CAPTURE(text);
      Result<Scenario> r = ParseScenario(text);
      REQUIRE_FALSE(r.ok());
      CHECK(r.status().code() == Code::kInvalidArgument);
      CHECK(r.status().message() == "scenario link is malformed at " + message);
    }
    // A key that does not decode to UTF-8 is refused like any other string.
    CHECK(ParseScenario("v2;m3;s1;ja:x:%FF").status().message() ==
          "scenario link: job 1 key ending at character 17 is not UTF-8 once its %HH escapes are decoded");
    CHECK(ParseScenario("v2;m3;s1;ax%C3").status().message() ==
          "scenario link: action 1 key ending at character 14 is not UTF-8 once its %HH escapes are decoded");
  }

  TEST_CASE("the new values out of range are named, keys are held to kMaxKeyBytes") {
    struct Case {
      std::string text;
      Code code;
      std::string message;
    };
    const std::string long_key(kMaxKeyBytes + 1, 'k');
    const Case cases[] = {
        {"v2;m3;s1;q9007199254740992.0", Code::kOutOfRange,
         "scenario link: quarantine.retentionMs must be an integer from 0 to 9007199254740991, got 9007199254740992"},
        {"v2;m3;s1;q0.1000000001", Code::kOutOfRange,
         "scenario link: quarantine.alarmDepth must be an integer from 0 to 1000000000, got 1000000001"},
        {"v2;m3;s1;q99999999999999999.0", Code::kOutOfRange,
         "scenario link: quarantine.retentionMs at character 11 has more than 16 digits"},
        {"v2;m3;s1;q0.12345678901", Code::kOutOfRange,
         "scenario link: quarantine.alarmDepth at character 13 has more than 10 digits"},
        {"v2;m3;s1;q9007199254740992.12345678901", Code::kOutOfRange,  // the first value refused is named
         "scenario link: quarantine.retentionMs must be an integer from 0 to 9007199254740991, got 9007199254740992"},
        {"v2;m3;s1;ad0", Code::kOutOfRange,
         "scenario link: action 1: max must be an integer from 1 to 1000000000, got 0"},
        {"v2;m3;s1;as,d1000000001", Code::kOutOfRange,
         "scenario link: action 2: max must be an integer from 1 to 1000000000, got 1000000001"},
        {"v2;m3;s1;ad12345678901", Code::kOutOfRange,
         "scenario link: action 1 max at character 12 has more than 10 digits"},
        {"v2;m3;s1;ja:x:" + long_key, Code::kTooLarge,
         "scenario link: job 1 key at character 15 must be at most 1024 bytes, got 1025 bytes"},
        {"v2;m3;s1;ja:,b::" + long_key, Code::kTooLarge,
         "scenario link: job 2 key at character 17 must be at most 1024 bytes, got 1025 bytes"},
        {"v2;m3;s1;as,eb::" + long_key, Code::kTooLarge,
         "scenario link: action 2 key at character 17 must be at most 1024 bytes, got 1025 bytes"},
        {"v2;m3;s1;ax" + long_key, Code::kTooLarge,
         "scenario link: action 1 key at character 12 must be at most 1024 bytes, got 1025 bytes"},
    };
    for (const Case& c : cases) {
      CAPTURE(c.text.substr(0, 40));
      Result<Scenario> r = ParseScenario(c.text);
      REQUIRE_FALSE(r.ok());
      CHECK(r.status().code() == c.code);
      CHECK(r.status().message() == c.message);
    }
    // The extremes are accepted; a key's limit counts decoded bytes.
    std::string escaped;
    for (size_t i = 0; i < kMaxKeyBytes; ++i) escaped += "%41";
    const Scenario s = MustParse("v2;m3;s1;q9007199254740991.1000000000;ja::" + escaped + ";ad1000000000,x" + escaped);
    CHECK(s.policy.retention_ms == kMaxTimeMs);
    CHECK(s.policy.alarm_depth == 1'000'000'000);
    CHECK(s.jobs[0].key == std::string(kMaxKeyBytes, 'A'));
    CHECK(std::get<action::Redrive>(s.actions[0]).max == 1'000'000'000);
    CHECK(std::get<action::ReleaseKey>(s.actions[1]).key == std::string(kMaxKeyBytes, 'A'));
    CHECK(FormatScenario(s) == "v2;m3;s1;q9007199254740991.1000000000;ja::" + std::string(kMaxKeyBytes, 'A') +
                                   ";ad1000000000,x" + std::string(kMaxKeyBytes, 'A'));
    // A key the link cannot carry makes no link.
    Scenario too_long = OneJob();
    too_long.jobs[0].key = long_key;
    CHECK(ShareScenario(too_long).status().code() == Code::kTooLarge);
  }

  TEST_CASE("the runner refuses a releaseKey with nothing to release and a redrive of an empty quarantine") {
    struct Case {
      const char* text;
      const char* message;
    };
    const Case cases[] = {
        {"v2;m3;s1;ok;ja::k;axk", "scenario action 1: releaseKey(\"k\") found no quarantined holder of that key"},
        {"v2;m3;s1;ok;ja::k;ap,xother",
         "scenario action 2: releaseKey(\"other\") found no quarantined holder of that key"},
        {"v2;m3;s1;ok;ja::k;ap,xk,xk", "scenario action 3: releaseKey(\"k\") found no quarantined holder of that key"},
        {"v2;m3;s1;ok;ja::k,b::k;al,xk",
         "scenario action 2: releaseKey(\"k\") found no quarantined holder of that key"},
        {"v2;m3;s1;ad1", "scenario action 1: redrive() found the quarantine empty"},
        {"v2;m3;s1;ja:;as,d5", "scenario action 2: redrive() found the quarantine empty"},
        {"v2;m3;s1;ja:,b:;ap,p,d5,d1", "scenario action 4: redrive() found the quarantine empty"},
    };
    for (const Case& c : cases) {
      CAPTURE(c.text);
      const Scenario s = MustParse(c.text);
      Result<Queue> r = RunScenario(s);
      REQUIRE_FALSE(r.ok());
      CHECK(r.status().code() == Code::kFailedPrecondition);
      CHECK(r.status().message() == c.message);
      CHECK(ShareScenario(s).status().message() == c.message);
      const ScenarioReach reach = PlayableActions(s);
      CHECK(reach.playable == s.actions.size() - 1);
      CHECK(reach.stopped.message() == c.message);
    }
    // Each accepted one is one queue action, whatever it moved.
    Result<Queue> ok = RunScenario(MustParse("v2;m3;s1;ok;ja::k,b::k,c:;ap,p,xk,d5"));
    REQUIRE(ok.ok());
    CHECK(ok->stats().actions == 3 + 4);
    CHECK(ok->stats().quarantined == 0);
    // b was held by a, so the second process took c; the redrive moved a then c
    // (oldest arrival first) behind b.
    CHECK(Ids(ok->view().Ready()) == Strings{"b", "a", "c"});
  }

  TEST_CASE("random scenarios with orderings, quarantine settings, keys and the new actions round-trip") {
    Prng prng(77);
    const std::string alphabet[] = {"", "", "acct-7", "acct 9", "k;:,%", "é"};
    for (int round = 0; round < 500; ++round) {
      Scenario s;
      s.policy.ordering = static_cast<Ordering>(prng.Below(3));
      s.policy.retention_ms = prng.Below(3) == 0 ? static_cast<int64_t>(prng.Below(5000)) : 0;
      s.policy.alarm_depth = prng.Below(3) == 0 ? static_cast<int64_t>(prng.Below(4)) : 0;
      const size_t jobs = prng.Below(4);
      for (size_t i = 0; i < jobs; ++i) s.jobs.push_back({"j" + std::to_string(i), "", alphabet[prng.Below(6)]});
      const size_t actions = prng.Below(6);
      bool v2_action = false;
      for (size_t i = 0; i < actions; ++i) {
        switch (prng.Below(4)) {
          case 0: s.actions.push_back(action::Process{}); break;
          case 1: {
            const std::string key = alphabet[prng.Below(6)];
            v2_action |= !key.empty();
            s.actions.push_back(action::Enqueue{"e" + std::to_string(i), "", key});
            break;
          }
          case 2:
            s.actions.push_back(action::ReleaseKey{"acct-" + std::to_string(prng.Below(10))});
            v2_action = true;
            break;
          default:
            s.actions.push_back(action::Redrive{1 + static_cast<int64_t>(prng.Below(1000))});
            v2_action = true;
            break;
        }
      }
      s.cursor = prng.Below(s.actions.size() + 1);
      const bool keyed = std::any_of(s.jobs.begin(), s.jobs.end(), [](const JobSpec& j) { return !j.key.empty(); });
      const bool v2 = keyed || v2_action || !s.policy.IsLessonOne();
      const std::string text = FormatScenario(s);
      CAPTURE(text);
      CHECK(text.rfind(v2 ? "v2;" : "v1;", 0) == 0);
      CHECK(MustParse(text) == s);
      CHECK(FormatScenario(MustParse(text)) == text);
      CHECK((text.find(";o") != std::string::npos) == (s.policy.ordering != Ordering::kNone));
      CHECK((text.find(";q") != std::string::npos) == (s.policy.retention_ms != 0 || s.policy.alarm_depth != 0));
    }
  }

  TEST_CASE(
      "the released ordering fixture: keys hold, a release, a reorder, retention to the millisecond, the alarm, a "
      "redrive") {
    std::string text = ReadFile(std::filesystem::path(DLQ_SOURCE_DIR) / "tests/fixtures/links/v2-ordering.link");
    while (!text.empty() && text.back() == '\n') text.pop_back();
    Scenario s = MustParse(text);
    CHECK(FormatScenario(s) == text);  // released canonical
    CHECK(s.policy.ordering == Ordering::kKey);
    CHECK(s.policy.retention_ms == 1000);
    CHECK(s.policy.alarm_depth == 2);
    REQUIRE(s.jobs.size() == 3);
    CHECK(s.jobs[0].key == "acct-7");
    CHECK(s.jobs[1].key == "acct-7");
    CHECK(s.jobs[2].key == "acct-9");
    REQUIRE(s.actions.size() == 11);
    CHECK(std::get<action::Enqueue>(s.actions[5]).key == "acct-9");
    const auto at = [&s](size_t cursor) {
      Scenario prefix = s;
      prefix.cursor = cursor;
      Result<Queue> q = RunScenario(prefix);
      REQUIRE(q.ok());
      return std::move(q).value();
    };
    // a is quarantined and holds acct-7: c (acct-9) runs past b, which waits.
    Queue q = at(2);
    CHECK(Ids(q.view().Completed()) == Strings{"c"});
    REQUIRE(q.view().Ready().size() == 1);
    CHECK(q.view().Ready()[0].id == "b");
    CHECK(q.view().Ready()[0].held_by == "a");
    // releaseKey lets b run; its completion past a is the one reorder.
    q = at(3);
    CHECK(q.view().Ready()[0].held_by.empty());
    q = at(4);
    CHECK(Ids(q.view().Completed()) == Strings{"c", "b"});
    REQUIRE(q.view().Reorders().size() == 1);
    CHECK(q.view().Reorders()[0].key == "acct-7");
    CHECK(q.view().Reorders()[0].overtook == Strings{"a"});
    // d quarantined at 400 makes two entries: the alarm is raised.
    q = at(7);
    CHECK(Ids(q.view().Quarantined()) == Strings{"a", "d"});
    CHECK(q.view().alarm().raised);
    // a arrived at 0 with retentionMs 1000: still kept at 999, dropped at exactly 1000.
    q = at(8);
    CHECK(q.stats().now == 999);
    CHECK(Ids(q.view().Quarantined()) == Strings{"a", "d"});
    q = at(9);
    CHECK(q.stats().now == 1000);
    CHECK(Ids(q.view().Quarantined()) == Strings{"d"});
    CHECK(q.stats().expired == 1);
    CHECK_FALSE(q.view().alarm().raised);  // the drop cleared it
    // The redrive moves what is left (max 5, one entry); d then completes.
    q = at(11);
    CHECK(q.stats().quarantined == 0);
    CHECK(Ids(q.view().Completed()) == Strings{"c", "b", "d"});
    size_t kinds[3] = {0, 0, 0};  // alarm raised, alarm cleared, evidence expired
    for (const Event& e : q.view().Timeline()) {
      kinds[0] += e.kind == EventKind::kAlarmRaised;
      kinds[1] += e.kind == EventKind::kAlarmCleared;
      kinds[2] += e.kind == EventKind::kEvidenceExpired && e.time == 1000 && e.id == "a";
    }
    CHECK(kinds[0] == 1);
    CHECK(kinds[1] == 1);
    CHECK(kinds[2] == 1);
    // The same script without key ordering runs b second: nothing holds it.
    s.policy.ordering = Ordering::kNone;
    s.cursor = 2;
    Result<Queue> none = RunScenario(s);
    REQUIRE(none.ok());
    CHECK(Ids(none->view().Completed()) == Strings{"b"});
  }
}

}  // namespace scenario_test
