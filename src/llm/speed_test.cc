#include "llm/speed.h"

#include <gtest/gtest.h>

#include "core/fs.h"

namespace regrapht::llm {
namespace {

class SpeedCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto dir = MakeTempDir("speed-test");
    ASSERT_TRUE(dir.ok());
    dir_ = *dir;
  }
  void TearDown() override { (void)RemoveAll(dir_); }
  fs::path dir_;
};

TEST_F(SpeedCacheTest, FiguresAreKeptPerModelAndMachineAndMerged) {
  SpeedCache cache(dir_ / "speed.json");
  EXPECT_FALSE(cache.FindModel("m.gguf:1", "box").has_value());  // no file yet
  ModelSpeed bench{"m.gguf:1", "box", 400, 50, 0, 0, "bench-llm", "2026-12-04T00:00:00Z"};
  ASSERT_TRUE(cache.PutModel(bench).ok());
  ModelSpeed other = bench;
  other.machine = "other box";
  other.generate_tok_s = 5;
  ASSERT_TRUE(cache.PutModel(other).ok());
  // A search's figures merge into bench-llm's: what it did not measure stays.
  ModelSpeed seen;
  seen.model = "m.gguf:1";
  seen.machine = "box";
  seen.search_generate_tok_s = 40;
  seen.prompt_tokens = 1500;
  seen.measured_by = "optimize";
  ASSERT_TRUE(cache.PutModel(seen).ok());
  auto s = SpeedCache(dir_ / "speed.json").FindModel("m.gguf:1", "box");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->prompt_tok_s, 400);
  EXPECT_EQ(s->generate_tok_s, 50);
  EXPECT_EQ(s->search_generate_tok_s, 40);
  EXPECT_EQ(s->prompt_tokens, 1500);
  EXPECT_EQ(s->measured_by, "optimize");
  EXPECT_EQ(cache.FindModel("m.gguf:1", "other box")->generate_tok_s, 5);
  EXPECT_FALSE(cache.FindModel("n.gguf:2", "box").has_value());

  ASSERT_TRUE(cache.PutCheck({"box", "emulate", 12.5, 4, "t"}).ok());
  ASSERT_TRUE(cache.PutCheck({"box", "emulate", 10, 6, "t2"}).ok());  // replaced
  auto c = cache.FindCheck("box", "emulate");
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->seconds, 10);
  EXPECT_EQ(c->count, 6);
  EXPECT_FALSE(cache.FindCheck("box", "gpu").has_value());
}

TEST_F(SpeedCacheTest, AnUnreadableFileIsEmptyAndIsReplacedByTheNextWrite) {
  ASSERT_TRUE(WriteFile(dir_ / "speed.json", "{not json").ok());
  SpeedCache cache(dir_ / "speed.json");
  EXPECT_FALSE(cache.FindModel("m", "box").has_value());
  ASSERT_TRUE(cache.PutModel({"m", "box", 1, 2, 0, 0, "x", "t"}).ok());
  EXPECT_EQ(cache.FindModel("m", "box")->generate_tok_s, 2);
}

TEST(MedianTest, MiddleValueOrMeanOfTheMiddleTwo) {
  EXPECT_EQ(Median({}), 0);
  EXPECT_EQ(Median({5}), 5);
  EXPECT_EQ(Median({9, 1, 5}), 5);
  EXPECT_EQ(Median({4, 1, 3, 2}), 2.5);
}

TEST(EstimateSearchTest, PromptReplyAndCheckPerGeneration) {
  ModelSpeed s;
  s.prompt_tok_s = 500;
  s.generate_tok_s = 64;
  s.prompt_tokens = 1000;
  auto e = EstimateSearch(s, std::nullopt, 8, 512);
  EXPECT_DOUBLE_EQ(e.per_generation_s, 2 + 8);
  EXPECT_DOUBLE_EQ(e.seconds, 80);
  EXPECT_EQ(e.check_s, 0);
  // The search's own generation speed wins over bench-llm's; checks add up.
  s.search_generate_tok_s = 32;
  e = EstimateSearch(s, CheckSpeed{"box", "emulate", 5, 3, ""}, 200, 2048);
  EXPECT_DOUBLE_EQ(e.per_generation_s, 2 + 64);
  EXPECT_DOUBLE_EQ(e.seconds, 200 * (66 + 5));
  // No prompt speed: the reply alone; no prompt size: the default.
  s.prompt_tok_s = 0;
  s.prompt_tokens = 0;
  e = EstimateSearch(s, std::nullopt, 1, 32);
  EXPECT_DOUBLE_EQ(e.seconds, 1);
  EXPECT_EQ(e.prompt_tokens, kDefaultPromptTokens);
}

TEST(MachineIdTest, NamesHostCpuAndCount) {
  std::string id = MachineId();
  EXPECT_NE(id.find(" / "), std::string::npos);
  EXPECT_NE(id.find(" CPUs"), std::string::npos);
}

}  // namespace
}  // namespace regrapht::llm
