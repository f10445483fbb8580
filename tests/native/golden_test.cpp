// The lesson run, call by call, against a golden timeline file. The WebAssembly
// suite (tests/node) replays the same calls through the JS API against the same
// file, so both builds are held to one text.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_util.h"

using namespace dlq;
using namespace dlq::test;

TEST_CASE("golden timeline: the lesson run renders byte for byte") {
  Queue q = MakeQueue(3);
  REQUIRE(q.Enqueue("a", "charge order 1").ok());
  REQUIRE(q.Enqueue("b", "charge order 2").ok());
  REQUIRE(q.Enqueue("poison", "{\"amount\": \"twelve\"").ok());
  MustProcess(q, "transient", "db timeout");              // a -> tail, b runs next
  MustProcess(q, "success");                              // b
  MustProcess(q, "permanent", "amount is not a number");  // poison, 2 attempts unused
  MustProcess(q, "transient", "db timeout");              // a: 2 of 3
  MustProcess(q, "transient", "db \"still\" down\n");     // a: exhausted
  CHECK(q.Replay("a"));
  CHECK_FALSE(q.Replay("a"));
  MustProcess(q, "success");  // a, after the fix
  CHECK(q.Enqueue("🧾", "").ok());
  MustProcess(q, "success");

  const std::filesystem::path path = std::filesystem::path(DLQ_SOURCE_DIR) / "tests/golden/lesson.timeline.txt";
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "missing golden file " << path.string() << "; the run renders:\n"
                                                    << q.view().TimelineText());
  std::ostringstream golden;
  golden << in.rdbuf();
  CHECK(q.view().TimelineText() == golden.str());
}
