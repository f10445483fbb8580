// The scenario text form (playground links) and deterministic replay.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_util.h"

using namespace dlq;
using namespace dlq::test;

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
    s.actions = {action::Process{Outcome::kTransient, "db timeout"}, action::Process{Outcome::kSuccess},
                 action::Process{Outcome::kTransient, "db timeout"}, action::Process{Outcome::kTransient},
                 action::Replay{"a"}, action::Process{Outcome::kSuccess}, action::Enqueue{"c", "late"},
                 action::Process{Outcome::kPermanent, "bad schema"}, action::Replay{"c"},
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
         "scenario link is malformed at character 1: expected a format version such as 'v1' at the start, got the end of the link"},
        {"hello", Code::kInvalidArgument,
         "scenario link is malformed at character 1: expected a format version such as 'v1' at the start, got 'h'"},
        {"v1", Code::kInvalidArgument,
         "scenario link is malformed at character 3: expected ';m' and the policy's maxAttempts, got the end of the link"},
        {"v1;m0", Code::kOutOfRange, "scenario link: maxAttempts must be an integer from 1 to 1000000, got 0"},
        {"v1;m12345678", Code::kOutOfRange, "scenario link: maxAttempts at character 5 has more than 7 digits"},
        {"v1;m00012345678", Code::kOutOfRange, "scenario link: maxAttempts at character 5 has more than 7 digits"},
        {"v0000002;m3", Code::kUnsupportedVersion,
         "scenario link is format v2; this build of dlq-lab reads v1 (the link needs a newer dlq-lab)"},
        {"v1;m3;ja", Code::kInvalidArgument,
         "scenario link is malformed at character 9: expected ':' between job 1's id and payload, got the end of the link"},
        {"v1;m3;ja:%zz", Code::kInvalidArgument,
         "scenario link is malformed at character 10: '%' in job 1 payload must be followed by two hex digits"},
        {"v1;m3;ja:;ax", Code::kInvalidArgument,
         "scenario link is malformed at character 12: expected action 1 (s, t or p to process, r to replay, e to enqueue), got 'x'"},
        {"v1;m3;ja:;as;c2", Code::kOutOfRange,
         "scenario link: the cursor must be from 0 to 1 (the number of actions), got 2"},
        {"v1;m3;as;ja:", Code::kInvalidArgument,
         "scenario link is malformed at character 10: expected a field in order: j (jobs), a (actions), c (cursor), got 'j'"},
        {"v1;m3;ja:<b>", Code::kInvalidArgument,
         "scenario link is malformed at character 10: expected job 1 payload characters (letters, digits, -_.~!$'()*+=@/? or %HH escapes), got \"<\""},
        {"v2;m3", Code::kUnsupportedVersion,
         "scenario link is format v2; this build of dlq-lab reads v1 (the link needs a newer dlq-lab)"},
        {"v0;m3", Code::kUnsupportedVersion, "scenario link is format v0; this build of dlq-lab reads v1"},
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
    CHECK(r.status().message() == "scenario link must be at most 8192 bytes, got " + std::to_string(text.size()) +
                                      " bytes");
    CHECK(ParseScenario(text.substr(0, kMaxScenarioTextBytes)).ok());
  }

  TEST_CASE("running a scenario replays the cursor's actions deterministically") {
    Scenario s = MustParse("v1;m2;ja:,b:;at,s,t,ra,s;c3");
    Result<Queue> at3 = RunScenario(s);
    REQUIRE(at3.ok());
    CHECK(Ids(at3->Quarantined()) == Strings{"a"});
    CHECK(at3->step() == 3);
    s.cursor = 5;
    Result<Queue> at5 = RunScenario(s);
    REQUIRE(at5.ok());
    CHECK(Ids(at5->Completed()) == Strings{"b", "a"});
    // Same scenario, same bytes.
    Result<Queue> again = RunScenario(s);
    CHECK(again->TimelineText() == at5->TimelineText());
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
    size_t count = 0;
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
      CHECK(q->TimelineText() == ReadFile(expected));
      ++count;
    }
    CHECK(count >= 3);
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
