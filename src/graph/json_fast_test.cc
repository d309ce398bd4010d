#include "graph/json_fast.h"

#include <gtest/gtest.h>

#include "core/rng.h"
#include "graph/test_util.h"

namespace regrapht {
namespace {

void ExpectSameAsNlohmann(const std::string& text) {
  auto fast = ParseJsonFast(text, "x.json");
  auto slow = ParseJson(text, "x.json");
  ASSERT_EQ(fast.ok(), slow.ok()) << text;
  // The fast path itself decided, without falling back.
  EXPECT_EQ(TryParseJsonFast(text).has_value(), slow.ok()) << text;
  if (!slow.ok()) {
    EXPECT_EQ(fast.status().message(), slow.status().message());
    return;
  }
  EXPECT_EQ(*fast, *slow) << text;
  EXPECT_EQ(fast->dump(), slow->dump()) << text;
}

TEST(JsonFastTest, AgreesWithNlohmannOnValidDocuments) {
  const char* docs[] = {
      "{}", "[]", " [ ] ", "0", "-0", "1", "-1", "3.25", "1e5", "1E-5", "-2.5e+3",
      "12345678901234567890", "18446744073709551615", "18446744073709551616",
      "-9223372036854775808", "-9223372036854775809", "true", "false", "null",
      R"("plain")", R"("esc \" \\ \/ \b \f \n \r \t")", R"("\u00b5s \u2713 \ud83d\ude00 \u0000")",
      "\"raw utf-8: \xc2\xb5s \xe2\x9c\x93 \xf0\x9f\x98\x80\"",
      R"({"b":[1,{"c":null}],"a":{}})",
      "\t{\n\"k\" :\r\n [ true , false ] }\n",
  };
  for (const char* d : docs) ExpectSameAsNlohmann(d);
}

TEST(JsonFastTest, ErrorsAreNlohmannsErrors) {
  const char* bad[] = {"", "[1,]", R"({"a":1,})", R"("\ud800")", R"("\udc00x")", "\"\x01\"",
                       "[01]", "tru", "\"\xff\"", "1 2", "{\"a\" 1}", "[1 2]", "-", "+1", "1.",
                       "1e", R"("\x")", "\"open", "{\"k\":", "[\n  1,\n  ]",
                       R"({"a":1,"a":2})", R"({"x":{"a":1,"b":{"a":1},"a":2}})"};
  for (const char* d : bad) ExpectSameAsNlohmann(d);
}

TEST(JsonFastTest, AgreesOnFilesInTheRepository) {
  fs::path root = testing_util::SourceDir();
  for (const fs::path& p :
       {root / "data" / "taxonomy.json", root / "tests" / "golden" / "graph_small.json",
        root / "src" / "graph" / "testdata" / "trajectories" / "good" / "dot_product" /
            "trajectory.json"}) {
    auto text = ReadFile(p);
    ASSERT_TRUE(text.ok()) << p;
    ExpectSameAsNlohmann(*text);
  }
}

// Random documents written by nlohmann (with and without \u escapes) read
// back identically.
TEST(JsonFastTest, RandomDocumentsRoundTrip) {
  Rng rng(2024);
  const char* pieces[] = {"a", "\"", "\\", "\n", "\t", "\x01", "\x1f", "/", " ", "\xc2\xb5",
                          "\xe2\x9c\x93", "\xf0\x9f\x98\x80", "{", "}", "[", "]", ","};
  auto random_string = [&] {
    std::string s;
    int n = static_cast<int>(rng.Below(40));
    for (int i = 0; i < n; ++i) s += pieces[rng.Below(std::size(pieces))];
    return s;
  };
  std::function<Json(int)> random_value = [&](int depth) -> Json {
    switch (depth > 3 ? rng.Below(4) : rng.Below(7)) {
      case 0:
        return random_string();
      case 1:
        return static_cast<int64_t>(rng.Next()) >> rng.Below(64);
      case 2:
        return rng.Uniform() * 1e6 - 5e5;
      case 3:
        return rng.Below(2) == 0;
      case 4: {
        Json a = Json::array();
        for (int i = static_cast<int>(rng.Below(5)); i > 0; --i) a.push_back(random_value(depth + 1));
        return a;
      }
      default: {
        Json o = Json::object();
        for (int i = static_cast<int>(rng.Below(5)); i > 0; --i) o[random_string()] = random_value(depth + 1);
        return o;
      }
    }
  };
  for (int i = 0; i < 300; ++i) {
    Json j = random_value(0);
    ExpectSameAsNlohmann(j.dump());
    ExpectSameAsNlohmann(j.dump(2, ' ', /*ensure_ascii=*/true));
  }
}

}  // namespace
}  // namespace regrapht
