#include "store/results_store.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/fs.h"

namespace regrapht {
namespace {

ResultRow Row(const std::string& problem, int sample, const std::string& verdict, double speedup) {
  ResultRow r;
  r.key = {"s", problem, "reference", "", "cfg", sample};
  r.verdict = verdict;
  r.speedup = speedup;
  r.tier = "easy";
  r.candidate_source = "__global__ void k() {}";
  return r;
}

TEST(ResultsStoreTest, PutHasQuery) {
  auto store = ResultsStore::Open(":memory:");
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  ASSERT_TRUE((*store)->Put(Row("b", 0, "correct", 2.5)).ok());
  ASSERT_TRUE((*store)->Put(Row("a", 1, "wrong_answer", 0)).ok());
  EXPECT_TRUE(*(*store)->Has({"s", "b", "reference", "", "cfg", 0}));
  EXPECT_FALSE(*(*store)->Has({"s", "b", "reference", "", "cfg", 1}));
  EXPECT_FALSE(*(*store)->Has({"s", "b", "reference", "", "other", 0}));
  auto rows = (*store)->Query();
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].key.problem, "a");
  EXPECT_EQ((*rows)[1].speedup, 2.5);
  EXPECT_FALSE((*rows)[1].created_at.empty());
  // Same key replaces.
  ASSERT_TRUE((*store)->Put(Row("b", 0, "correct", 3.0)).ok());
  rows = (*store)->Query("s", "reference");
  EXPECT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[1].speedup, 3.0);
  EXPECT_TRUE((*store)->Query("other")->empty());
}

// A writer killed with SIGKILL mid-run loses no committed row, and the file
// stays readable.
TEST(ResultsStoreTest, SurvivesKillNine) {
  auto dir = TempDir::Create("rgstore");
  fs::path db = dir->path() / "r.sqlite";
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    auto s = ResultsStore::Open(db);
    if (!s.ok()) _exit(2);
    for (int i = 0;; ++i) {
      if (!(*s)->Put(Row("p", i, "correct", 1.0 + i)).ok()) _exit(3);
    }
  }
  // Let it write for a while, then kill it without warning.
  for (int tries = 0; tries < 200; ++tries) {
    usleep(20 * 1000);
    auto s = ResultsStore::Open(db);
    if (s.ok()) {
      auto rows = (*s)->Query();
      if (rows.ok() && rows->size() >= 20) break;
    }
  }
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  auto s = ResultsStore::Open(db);
  ASSERT_TRUE(s.ok());
  auto rows = (*s)->Query();
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_GE(rows->size(), 20u);
  // Every committed row is complete, and samples are contiguous from 0.
  std::vector<bool> seen(rows->size(), false);
  for (const auto& r : *rows) {
    ASSERT_LT(static_cast<size_t>(r.key.sample), rows->size());
    seen[r.key.sample] = true;
    EXPECT_EQ(r.speedup, 1.0 + r.key.sample);
    EXPECT_EQ(r.verdict, "correct");
  }
  for (bool b : seen) EXPECT_TRUE(b);
}

}  // namespace
}  // namespace regrapht
