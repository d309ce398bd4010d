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
  EXPECT_EQ(r.status().message(), "/dev/zero: not a regular file");
}

}  // namespace
}  // namespace regrapht
