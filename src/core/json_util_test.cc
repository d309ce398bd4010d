#include "core/json_util.h"

#include <gtest/gtest.h>

namespace regrapht {
namespace {

TEST(JsonUtilTest, ParseErrorNamesLineAndColumn) {
  auto r = ParseJson("{\n  \"a\": 1,\n  \"b\": ]\n}", "spec.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind("spec.json:3:", 0), 0u) << r.status().message();
}

TEST(JsonUtilTest, FieldErrorsNamePath) {
  Json j = Json::parse(R"({"args":[{"name":"x","len":"n"},{"name":3}]})");
  JsonPath root(j, "p/problem.json");
  auto arg = root["args"][1];
  auto name = arg.GetString("name");
  ASSERT_FALSE(name.ok());
  EXPECT_EQ(name.status().message(), "p/problem.json: args[1].name: expected a string, got number");
  auto missing = root["args"][0].GetString("type");
  EXPECT_EQ(missing.status().message(), "p/problem.json: args[0].type: required field is missing");
  Status keys = root["args"][0].CheckKeys({"name", "length"});
  EXPECT_EQ(keys.message(), "p/problem.json: args[0].len: unknown field (allowed: name, length)");
}

TEST(JsonUtilTest, Getters) {
  Json j = Json::parse(R"({"i":3,"f":2.0,"b":true,"s":["a","b"]})");
  JsonPath p(j, "f");
  EXPECT_EQ(*p.GetInt("i"), 3);
  EXPECT_EQ(*p.GetInt("f"), 2);
  EXPECT_EQ(*p.GetInt("zz", 9), 9);
  EXPECT_TRUE(*p.GetBool("b", false));
  EXPECT_EQ(p.GetStringList("s")->size(), 2u);
  EXPECT_FALSE(p.GetBool("i", false).ok());
}

}  // namespace
}  // namespace regrapht

namespace regrapht {
namespace {

TEST(JsonUtilTest, DuplicateKeysAreRefusedWithTheirPath) {
  auto r = ParseJson(R"({"spec": {"tests": [{"n": 1, "n": 2}]}})", "p.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "p.json: JSON key \"n\" given twice in spec.tests.[]");
  auto top = ParseJson(R"({"a": 1, "a": 1})", "q.json");
  ASSERT_FALSE(top.ok());
  EXPECT_EQ(top.status().message(), "q.json: JSON key \"a\" given twice in (top level)");
  EXPECT_TRUE(ParseJson(R"({"a": {"x": 1}, "b": {"x": 2}})", "ok.json").ok());
}

TEST(JsonUtilTest, DeepNestingIsRefusedNotACrash) {
  std::string deep = "{\"free_text\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  auto r = ParseJson(deep, "deep.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("nesting deeper than 256 levels at free_text"), std::string::npos)
      << r.status().message();
}

TEST(JsonUtilTest, DevicesAreNotReadAsJson) {
  auto r = ReadJsonFile("/dev/zero");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "/dev/zero: a character device, not a regular file");
}

}  // namespace
}  // namespace regrapht

namespace regrapht {
namespace {

TEST(JsonUtilTest, NamesRefuseControlCharacters) {
  auto j = ParseJson(
      "{\"name\": \"ab\\u0000c\", \"nl\": \"x\\ny\", \"ok\": \"52_stencil_1d-jacobi\", \"e\": "
      "\"\", "
      "\"long\": \"" +
          std::string(300, 'a') + "\", \"n\": 3}",
      "p.json");
  ASSERT_TRUE(j.ok()) << j.status().ToString();
  JsonPath root(*j, "p.json");
  auto nul = root.GetName("name");
  ASSERT_FALSE(nul.ok());
  EXPECT_EQ(nul.status().message(),
            "p.json: name: control character U+0000 at byte 2 (names are printable text)");
  EXPECT_EQ(root.GetName("nl").status().message(),
            "p.json: nl: control character U+000A at byte 1 (names are printable text)");
  EXPECT_EQ(*root.GetName("ok"), "52_stencil_1d-jacobi");
  EXPECT_EQ(root.GetName("e").status().message(), "p.json: e: must not be empty");
  EXPECT_EQ(root.GetName("long").status().message(),
            "p.json: long: 300 bytes, longer than the 256-byte limit on names");
  EXPECT_EQ(root.GetName("n").status().message(), "p.json: n: expected a string, got number");
}

TEST(JsonUtilTest, IntegersPastInt64AreOutOfRange) {
  auto j = ParseJson(R"({"seed": 18446744073709551615, "ok": 9223372036854775807})", "p.json");
  JsonPath root(*j, "p.json");
  EXPECT_EQ(root.GetInt("seed").status().message(),
            "p.json: seed: 18446744073709551615 is out of range (at most 9223372036854775807)");
  EXPECT_EQ(*root.GetInt("ok"), INT64_MAX);
}

}  // namespace
}  // namespace regrapht

namespace regrapht {
namespace {

// Found by tests/faults/fuzz.py: a number past double's range was an
// uncaught exception ("internal error").
TEST(JsonUtilTest, NumbersPastDoubleAreRefusedWithTheirPlace) {
  auto r = ParseJson("{\n  \"min\": 1e999\n}", "p.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "p.json:2:10: JSON number overflow parsing '1e999'");
}

}  // namespace
}  // namespace regrapht
