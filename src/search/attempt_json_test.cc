// The one serializer of attempts and trees (attempt_json.h): round trips and
// errors that name the field.
#include "search/attempt_json.h"

#include <gtest/gtest.h>

namespace regrapht::search {
namespace {

std::vector<Attempt> SomeAttempts() {
  std::vector<Attempt> v(3);
  v[0].id = 0;
  v[0].action = "standard";
  v[0].verdict = Verdict::kCorrect;
  v[0].detail = "ok \"quoted\"\nline";
  v[0].speedup = 2.5;
  v[0].reward = 2.5;
  v[0].code = "__global__ void k() {}\n";
  v[0].code_hash = "abc123";
  v[0].tokens_prompt = 100;
  v[0].tokens_generated = 42;
  v[0].reply_cached = true;
  v[1].id = 1;
  v[1].parent = 0;
  v[1].action = "thread_mapping";
  v[1].verdict = Verdict::kWrongAnswer;
  v[1].reward = -1;
  v[1].reused = true;
  v[2].id = 2;
  v[2].parent = 0;
  v[2].action = "tiling";
  v[2].verdict = Verdict::kCompileError;
  v[2].endpoint_error = true;
  v[2].detail = "the model request failed";
  return v;
}

Result<std::vector<Attempt>> Parse(const std::string& text) {
  auto j = ParseJson(text, "r.json");
  if (!j.ok()) return j.status();
  static Json keep;
  keep = *j;
  return AttemptsFromJson(JsonPath(keep, "r.json", "attempts"));
}

TEST(AttemptJsonTest, FullRoundTrip) {
  auto in = SomeAttempts();
  auto out = Parse(AttemptsToJson(in, AttemptDetail::kFull).dump(1));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_EQ(out->size(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const Attempt &a = in[i], &b = (*out)[i];
    EXPECT_EQ(a.id, b.id);
    EXPECT_EQ(a.parent, b.parent);
    EXPECT_EQ(a.action, b.action);
    EXPECT_EQ(a.verdict, b.verdict);
    EXPECT_EQ(a.endpoint_error, b.endpoint_error);
    EXPECT_EQ(a.detail, b.detail);
    EXPECT_EQ(a.speedup, b.speedup);
    EXPECT_EQ(a.reward, b.reward);
    EXPECT_EQ(a.reused, b.reused);
    EXPECT_EQ(a.code_hash, b.code_hash);
    EXPECT_EQ(a.tokens_prompt, b.tokens_prompt);
    EXPECT_EQ(a.tokens_generated, b.tokens_generated);
    EXPECT_EQ(a.reply_cached, b.reply_cached);
    EXPECT_EQ(a.code, b.code);
  }
  // Written again, the same text.
  EXPECT_EQ(AttemptsToJson(*out, AttemptDetail::kFull).dump(1),
            AttemptsToJson(in, AttemptDetail::kFull).dump(1));
}

TEST(AttemptJsonTest, AnInterruptedAttemptIsWrittenAsInterruptedNotAVerdict) {
  auto in = SomeAttempts();
  in[2].endpoint_error = false;
  in[2].interrupted = true;
  OrderedJson j = AttemptsToJson(in, AttemptDetail::kFull);
  EXPECT_EQ(j[2]["verdict"], "interrupted");
  auto out = Parse(j.dump());
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE((*out)[2].interrupted);
  EXPECT_FALSE((*out)[1].interrupted);
  EXPECT_EQ(AttemptsToJson(*out, AttemptDetail::kFull).dump(), j.dump());
}

TEST(AttemptJsonTest, TheReportFieldsInTheirOrder) {
  OrderedJson j = AttemptToJson(SomeAttempts()[0], AttemptDetail::kFull);
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"id", "parent", "action", "verdict", "endpoint_error",
                                            "detail", "speedup", "reward", "reused", "code_hash",
                                            "tokens_prompt", "tokens_generated", "reply_cached", "code"}));
}

TEST(AttemptJsonTest, BriefRoundTripKeepsItsFields) {
  auto in = SomeAttempts();
  std::string text = AttemptListJson("best-of-n", in);
  auto j = ParseJson(text, "t.json");
  ASSERT_TRUE(j.ok());
  EXPECT_EQ((*j)["method"], "best-of-n");
  EXPECT_EQ((*j)["attempts"][1].size(), 5u);  // id, parent, action, verdict, reward
  auto out = AttemptsFromJson(JsonPath(*j, "t.json")["attempts"]);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[1].verdict, Verdict::kWrongAnswer);
  EXPECT_EQ((*out)[1].parent, 0);
  EXPECT_EQ((*out)[2].action, "tiling");
  EXPECT_EQ((*out)[2].code, "");  // not in the brief form
}

TEST(AttemptJsonTest, ErrorsNameTheField) {
  auto bad_verdict = Parse(R"([{"id": 0, "verdict": "great"}])");
  ASSERT_FALSE(bad_verdict.ok());
  EXPECT_NE(
      bad_verdict.status().message().find("r.json: attempts[0].verdict: unknown verdict \"great\""),
      std::string::npos)
      << bad_verdict.status().ToString();
  auto twice = Parse(R"([{"id": 0, "verdict": "correct"}, {"id": 0, "verdict": "correct"}])");
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.status().message().find("attempts[1].id: id 0 is used twice"), std::string::npos);
  auto later =
      Parse(R"([{"id": 0, "parent": 1, "verdict": "correct"}, {"id": 1, "verdict": "correct"}])");
  ASSERT_FALSE(later.ok());
  EXPECT_NE(later.status().message().find("attempts[0].parent"), std::string::npos);
  auto no_id = Parse(R"([{"verdict": "correct"}])");
  ASSERT_FALSE(no_id.ok());
  EXPECT_NE(no_id.status().message().find("attempts[0].id"), std::string::npos);
  auto wrong_type = Parse(R"([{"id": 0, "verdict": "correct", "speedup": "fast"}])");
  ASSERT_FALSE(wrong_type.ok());
  EXPECT_NE(wrong_type.status().message().find("attempts[0].speedup"), std::string::npos);
  EXPECT_FALSE(Parse(R"({"id": 0})").ok());  // not an array
}

TEST(AttemptJsonTest, TreeNodes) {
  SearchTree t;
  t.Reset("seq");
  TreeNode c;
  c.attempt = 0;
  c.depth = 1;
  c.reward = 2;
  c.stats.Add(2);
  c.stats.Add(1);
  int id = t.Add(c);
  TreeEdge e;
  e.action = 4;
  e.child = id;
  e.visits = 2;
  t.node(0).edges.push_back(e);
  OrderedJson j = TreeNodesJson(
      t, "technique", [](const TreeNode& n) { return n.id == 0 ? std::string("init") : "tile"; },
      [](const TreeEdge& x) { return "action " + std::to_string(x.action); });
  EXPECT_EQ(
      j.dump(),
      "[{\"id\":0,\"technique\":\"init\",\"attempt\":-1,\"depth\":0,\"reward\":0.0,\"failed\":"
      "false,"
      "\"closed\":false,\"visits\":0,\"q\":\"0.000000\",\"edges\":[{\"technique\":\"action "
      "4\",\"child\":1,"
      "\"visits\":2,\"failures\":0}]},"
      "{\"id\":1,\"technique\":\"tile\",\"attempt\":0,\"depth\":1,\"reward\":2.0,\"failed\":false,"
      "\"closed\":false,\"visits\":2,\"q\":\"1.500000\",\"edges\":[]}]");
}

}  // namespace
}  // namespace regrapht::search
