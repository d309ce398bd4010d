#include "llm/extract.h"

#include <gtest/gtest.h>

#include <map>

#include "core/fs.h"
#include "core/rng.h"
#include "core/strings.h"

namespace regrapht::llm {
namespace {

// testdata/replies/NAME.reply.txt is a model reply; NAME.expected.txt holds
// "key: value" lines (found, format, language, function, steps, reason: a
// substring of Extraction::reason), "---", then the exact expected code.
struct Case {
  std::string name;
  std::string reply;
  std::map<std::string, std::string> expect;
  std::string code;
};

std::vector<Case> LoadCases() {
  std::vector<Case> cases;
  fs::path dir = REGRAPHT_REPLIES_DIR;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string file = e.path().filename().string();
    if (!EndsWith(file, ".reply.txt")) continue;
    Case c;
    c.name = file.substr(0, file.size() - std::string(".reply.txt").size());
    c.reply = *ReadFile(e.path());
    std::string expected = *ReadFile(dir / (c.name + ".expected.txt"));
    size_t sep = expected.find("\n---\n");
    EXPECT_NE(sep, std::string::npos) << c.name;
    for (const auto& line : SplitLines(expected.substr(0, sep))) {
      size_t colon = line.find(':');
      c.expect[std::string(Trim(line.substr(0, colon)))] = std::string(Trim(line.substr(colon + 1)));
    }
    c.code = expected.substr(sep + 5);
    cases.push_back(std::move(c));
  }
  std::sort(cases.begin(), cases.end(), [](auto& a, auto& b) { return a.name < b.name; });
  return cases;
}

TEST(ExtractTest, CorpusOfRealWorldShapedReplies) {
  auto cases = LoadCases();
  ASSERT_GE(cases.size(), 30u);
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    ExtractOptions options;
    if (c.expect.count("function")) options.function_name = c.expect.at("function");
    Extraction ex = ExtractCode(c.reply, options);
    EXPECT_EQ(ex.found(), c.expect.at("found") == "yes") << ex.reason;
    EXPECT_EQ(ExtractFormatName(ex.format), c.expect.at("format")) << ex.reason;
    if (c.expect.count("language")) {
      EXPECT_EQ(ex.language, c.expect.at("language"));
    }
    if (c.expect.count("steps")) {
      EXPECT_EQ(std::to_string(ex.steps.size()), c.expect.at("steps"));
    }
    if (c.expect.count("reason")) {
      EXPECT_NE(ex.reason.find(c.expect.at("reason")), std::string::npos) << ex.reason;
    }
    EXPECT_EQ(ex.code, c.code);
    if (!ex.found()) {
      EXPECT_FALSE(ex.reason.empty());
    }
  }
}

TEST(ExtractTest, JsonFromProseFencesAndBrokenJson) {
  auto plain = ExtractJson("[{\"existed\": \"yes\", \"method\": \"Loop unrolling\"}]");
  ASSERT_TRUE(plain.found) << plain.reason;
  EXPECT_EQ(plain.value[0]["method"], "Loop unrolling");
  EXPECT_EQ(plain.reason, "");

  auto fenced = ExtractJson("Here you go:\n```json\n[{\"existed\": \"no\", \"method\": \"x\"},]\n```\nDone.");
  ASSERT_TRUE(fenced.found) << fenced.reason;
  EXPECT_EQ(fenced.value.size(), 1u);
  EXPECT_NE(fenced.reason.find("repaired JSON"), std::string::npos);

  auto prose = ExtractJson("The labels are {\"a\": 1} as asked.");
  ASSERT_TRUE(prose.found);
  EXPECT_EQ(prose.value["a"], 1);

  EXPECT_EQ(ExtractJson("").reason, "empty reply");
  EXPECT_EQ(ExtractJson("no data here").reason, "no JSON in the reply");
  auto cut = ExtractJson("[{\"existed\": \"yes\", \"meth");
  EXPECT_FALSE(cut.found);
  EXPECT_EQ(cut.reason.rfind("the JSON could not be read: ", 0), 0u) << cut.reason;
}

TEST(ExtractTest, StepsKeepEveryField) {
  std::string reply = R"([
    {"think": "t1", "method": "m1", "detail": "d1", "code": "int a;"},
    {"think": "t2", "method": "m2", "detail": "d2", "code": "int b;"}
  ])";
  Extraction ex = ExtractCode(reply);
  ASSERT_EQ(ex.steps.size(), 2u);
  EXPECT_EQ(ex.steps[0].method, "m1");
  EXPECT_EQ(ex.steps[1].detail, "d2");
  EXPECT_EQ(ex.steps[0].code, "int a;");
  EXPECT_EQ(ex.code, "int b;");
  EXPECT_EQ(ex.think, "t1");
}

TEST(ExtractTest, ThinkFieldIsReturned) {
  Extraction ex = ExtractCode(R"({"think": "why", "code": "int x = 1;"})");
  EXPECT_EQ(ex.think, "why");
  EXPECT_EQ(ex.code, "int x = 1;");
}

// Whatever bytes arrive, extraction returns (no crash, no throw, no hang).
TEST(ExtractTest, SurvivesRandomAndTruncatedInput) {
  std::vector<std::string> seeds;
  fs::path dir = REGRAPHT_REPLIES_DIR;
  for (const auto& e : fs::directory_iterator(dir)) seeds.push_back(*ReadFile(e.path()));
  Rng rng(123);
  const std::string alphabet = "{}[]\"':,\\n`~ \nabc__global__();0123456789\\u00";
  for (int i = 0; i < 3000; ++i) {
    std::string s = seeds[rng.Below(seeds.size())];
    switch (rng.Below(3)) {
      case 0: s = s.substr(0, rng.Below(s.size() + 1)); break;  // truncation
      case 1:
        for (int k = 0; k < 5 && !s.empty(); ++k) s[rng.Below(s.size())] = alphabet[rng.Below(alphabet.size())];
        break;
      default: {
        std::string r;
        for (size_t k = rng.Below(200); k > 0; --k) r += alphabet[rng.Below(alphabet.size())];
        s = r;
      }
    }
    Extraction ex = ExtractCode(s);
    if (!ex.found()) {
      EXPECT_FALSE(ex.reason.empty());
    }
  }
  std::string deep(100000, '[');
  EXPECT_FALSE(ExtractCode(deep).found());
}

}  // namespace
}  // namespace regrapht::llm
