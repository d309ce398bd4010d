#include "bench/shard.h"

#include <gtest/gtest.h>

#include <map>

namespace regrapht::bench {
namespace {

EnvLookup Env(std::map<std::string, std::string> vars) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

std::map<std::string, std::string> Array(const std::string& id, const std::string& count, const std::string& min,
                                         const std::string& max) {
  return {{"SLURM_ARRAY_TASK_ID", id},
          {"SLURM_ARRAY_TASK_COUNT", count},
          {"SLURM_ARRAY_TASK_MIN", min},
          {"SLURM_ARRAY_TASK_MAX", max}};
}

TEST(ShardTest, ParsesIndexOverCount) {
  auto s = ParseShard("2/5", Env({}));
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->index, 2);
  EXPECT_EQ(s->count, 5);
  EXPECT_FALSE(ParseShard("5/5", Env({})).ok());
  EXPECT_FALSE(ParseShard("-1/5", Env({})).ok());
  EXPECT_FALSE(ParseShard("1/0", Env({})).ok());
  auto bad = ParseShard("two", Env({}));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("expected i/n or auto"), std::string::npos);
}

TEST(ShardTest, AutoReadsTheSlurmArray) {
  auto s = ParseShard("auto", Env(Array("2", "3", "0", "2")));
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->index, 2);
  EXPECT_EQ(s->count, 3);
  // Arrays need not start at 0.
  s = ParseShard("auto", Env(Array("11", "4", "10", "13")));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->index, 1);
  EXPECT_EQ(s->count, 4);
}

TEST(ShardTest, AutoFollowsAStep) {
  auto vars = Array("5", "3", "1", "5");  // --array=1-5:2: tasks 1, 3, 5
  vars["SLURM_ARRAY_TASK_STEP"] = "2";
  auto s = ShardFromSlurm(Env(vars));
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->index, 2);
  EXPECT_EQ(s->count, 3);
}

TEST(ShardTest, AutoNamesTheMissingVariable) {
  for (const char* missing : {"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN",
                              "SLURM_ARRAY_TASK_MAX"}) {
    auto vars = Array("0", "2", "0", "1");
    vars.erase(missing);
    auto s = ShardFromSlurm(Env(vars));
    ASSERT_FALSE(s.ok()) << missing;
    EXPECT_EQ(s.status().code(), Status::Code::kInvalidArgument);
    EXPECT_NE(s.status().message().find(std::string(missing) + " is not set"), std::string::npos)
        << s.status().message();
  }
  auto junk = ShardFromSlurm(Env(Array("x1", "2", "0", "1")));
  ASSERT_FALSE(junk.ok());
  EXPECT_NE(junk.status().message().find("SLURM_ARRAY_TASK_ID=\"x1\" is not an integer"), std::string::npos);
}

TEST(ShardTest, AutoRefusesInconsistentArrays) {
  // A list such as --array=0,3,9: the count disagrees with MIN..MAX.
  auto list = ShardFromSlurm(Env(Array("3", "3", "0", "9")));
  ASSERT_FALSE(list.ok());
  EXPECT_NE(list.status().message().find("SLURM_ARRAY_TASK_COUNT=3 does not match SLURM_ARRAY_TASK_MIN=0, "
                                         "SLURM_ARRAY_TASK_MAX=9"),
            std::string::npos)
      << list.status().message();
  auto outside = ShardFromSlurm(Env(Array("7", "3", "0", "2")));
  ASSERT_FALSE(outside.ok());
  EXPECT_NE(outside.status().message().find("SLURM_ARRAY_TASK_ID=7 is not in the array"), std::string::npos);
  EXPECT_FALSE(ShardFromSlurm(Env(Array("0", "0", "0", "0"))).ok());
  EXPECT_FALSE(ShardFromSlurm(Env(Array("0", "1", "2", "1"))).ok());
}

TEST(ShardTest, ExpandsPlaceholders) {
  EXPECT_EQ(ExpandShardPath("r/shard-{shard}-of-{shards}.sqlite", Shard{2, 8}), "r/shard-2-of-8.sqlite");
  EXPECT_EQ(ExpandShardPath("plain.sqlite", Shard{2, 8}), "plain.sqlite");
}

}  // namespace
}  // namespace regrapht::bench
