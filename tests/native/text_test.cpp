#include "test_util.h"
#include "text.h"

using namespace dlq;

TEST_CASE("Quote escapes quotes, control bytes and invalid UTF-8, keeps valid UTF-8") {
  CHECK(Quote("plain") == "\"plain\"");
  CHECK(Quote("say \"hi\"\\") == "\"say \\\"hi\\\"\\\\\"");
  CHECK(Quote("a\nb\tc\r") == "\"a\\nb\\tc\\r\"");
  CHECK(Quote(std::string("x\0y", 3)) == "\"x\\x00y\"");
  CHECK(Quote("🧾 Zoë") == "\"🧾 Zoë\"");
  CHECK(Quote("\xff\xc3") == "\"\\xFF\\xC3\"");
  CHECK(Quote("\xed\xa0\x80") == "\"\\xED\\xA0\\x80\"");  // an encoded surrogate is not UTF-8
  CHECK(Quote("<img src=x onerror=alert(1)>") == "\"<img src=x onerror=alert(1)>\"");
}

TEST_CASE("QuoteShort cuts long input on a character boundary") {
  const std::string s(100, 'x');
  CHECK(QuoteShort(s, 10) == "\"xxxxxxxxxx\"… (100 bytes)");
  CHECK(QuoteShort("ab🧾🧾", 4) == "\"ab\"… (10 bytes)");
}

TEST_CASE("DescribeNumber prints numbers as JavaScript does") {
  CHECK(DescribeNumber(3) == "3");
  CHECK(DescribeNumber(-1) == "-1");
  CHECK(DescribeNumber(2.5) == "2.5");
  CHECK(DescribeNumber(0.1) == "0.1");
  CHECK(DescribeNumber(1e21) == "1e+21");
  CHECK(DescribeNumber(std::nan("")) == "NaN");
  CHECK(DescribeNumber(-HUGE_VAL) == "-Infinity");
  CHECK(DescribeNumber(18446744073709551616.0) == "18446744073709552000");
  CHECK(DescribeNumber(1.5e-7) == "1.5e-7");
  CHECK(DescribeNumber(0.000001) == "0.000001");
  CHECK(DescribeNumber(123.456) == "123.456");
  CHECK(DescribeNumber(-2.5e30) == "-2.5e+30");
  CHECK(DescribeNumber(9007199254740993.0) == "9007199254740992");
}

TEST_CASE("Prng is deterministic and RandomOutcomes follows its percentages") {
  Prng a(42), b(42), c(43);
  for (int i = 0; i < 100; ++i) {
    const uint64_t x = a.Next();
    CHECK(x == b.Next());
    CHECK(x != c.Next());
  }
  CHECK(Prng(1).Next() == 0xB3F2AF6D0FC710C5ULL);  // pinned: native and wasm must agree
  // Pinned too: tests/node checks the WebAssembly build draws the same letters.
  CHECK(RandomOutcomes(42, 48, 70, 25).value() == "stsstsssssstsssssstssssssttstsssttttstsssptsssss");
  CHECK(RandomOutcomes(1, kMaxRandomOutcomes + 1, 70, 25).status().message() ==
        "count must be at most 4194304, got 4194305");
  CHECK(RandomOutcomes(1, 1, 80, 30).status().message() ==
        "successPercent + transientPercent must be at most 100, got 80 + 30");
  const std::string script = RandomOutcomes(7, 100000, 70, 25).value();
  const auto count = [&](char ch) { return std::count(script.begin(), script.end(), ch); };
  CHECK(count('s') > 69000);
  CHECK(count('s') < 71000);
  CHECK(count('t') > 24000);
  CHECK(count('t') < 26000);
  CHECK(count('p') > 4500);
  CHECK(count('p') < 5500);
}
