#include "bench/suite.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "bench/overlap.h"
#include "core/fs.h"
#include "core/json_util.h"
#include "regrapht/retrieval.h"
#include "verify/test_util.h"

namespace regrapht::bench {
namespace {

// A suite folder made of copies of bundled problems.
class SuiteTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_.emplace(std::move(*TempDir::Create("rgsuite")));
    root_ = dir_->path();
    ASSERT_TRUE(WriteFile(root_ / "suite.json",
                          R"({"format": "regrapht-suite", "version": 1, "name": "mini", "tiered": true})").ok());
    for (const char* n : {"saxpy", "spmv_csr"}) {
      fs::copy(testing_util::SourceDir() / "problems" / n, root_ / n, fs::copy_options::recursive);
    }
    Expert("saxpy", "easy", {"thread_mapping"});
    Expert("spmv_csr", "medium", {"thread_mapping", "warp_shuffle_reduction", "read_only_cache"});
  }
  void Expert(const std::string& p, const std::string& tier, const std::vector<std::string>& traj) {
    Json j = {{"format", "regrapht-expert"}, {"version", 1}, {"tier", tier}, {"domain", "x"}, {"trajectory", traj}};
    ASSERT_TRUE(WriteFile(root_ / p / "expert.json", j.dump()).ok());
  }
  std::optional<TempDir> dir_;
  fs::path root_;
};

TEST_F(SuiteTest, Loads) {
  auto s = LoadSuite(root_);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->name, "mini");
  ASSERT_EQ(s->problems.size(), 2u);
  EXPECT_EQ(s->problems[0].problem.spec.name, "saxpy");
  EXPECT_EQ(s->problems[1].tier, "medium");
  EXPECT_EQ(TierForSteps(1), "easy");
  EXPECT_EQ(TierForSteps(5), "medium");
  EXPECT_EQ(TierForSteps(6), "hard");
}

TEST_F(SuiteTest, TierMustMatchTrajectory) {
  Expert("saxpy", "hard", {"thread_mapping"});
  auto s = LoadSuite(root_);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(), (root_ / "saxpy" / "expert.json").string() +
                                      ": tier: \"hard\" but the trajectory has 1 steps, which makes it \"easy\" "
                                      "(easy 1-2, medium 3-5, hard 6+)");
}

TEST_F(SuiteTest, UnknownTechniqueIsNamed) {
  auto s = LoadSuite(root_, {"thread_mapping", "read_only_cache"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(), (root_ / "spmv_csr" / "expert.json").string() +
                                      ": trajectory[1]: unknown technique id \"warp_shuffle_reduction\" (see "
                                      "data/taxonomy.json)");
}

TEST_F(SuiteTest, OverlapFindsNameFunctionAndSource) {
  auto bench = CollectItems(root_, "bench");
  ASSERT_TRUE(bench.ok());
  ASSERT_EQ(bench->size(), 2u);
  auto corpus_dir = *TempDir::Create("rgcorpus");
  // Same source under another name and function name: caught by the hash.
  fs::create_directories(corpus_dir.path() / "k1");
  auto ref = *ReadFile(root_ / "saxpy" / "reference.cpp");
  ASSERT_TRUE(WriteFile(corpus_dir.path() / "k1" / "problem.json", R"({"name": "other", "function": "other_fn"})").ok());
  ASSERT_TRUE(WriteFile(corpus_dir.path() / "k1" / "reference.cpp", "// reformatted\n" + ref + "\n\n").ok());
  fs::create_directories(corpus_dir.path() / "k2");
  ASSERT_TRUE(WriteFile(corpus_dir.path() / "k2" / "problem.json", R"({"name": "k2", "function": "spmv_csr"})").ok());
  ASSERT_TRUE(WriteFile(corpus_dir.path() / "k2" / "reference.cpp", "int spmv_csr() { return 1; }").ok());
  fs::create_directories(corpus_dir.path() / "k3");
  ASSERT_TRUE(WriteFile(corpus_dir.path() / "k3" / "problem.json", R"({"name": "relu_map", "function": "relu"})").ok());
  auto corpus = CollectItems(corpus_dir.path(), "corpus");
  ASSERT_TRUE(corpus.ok());
  auto o = FindOverlaps(*bench, *corpus);
  ASSERT_EQ(o.size(), 2u);
  EXPECT_EQ(o[0].reason, "source");
  EXPECT_EQ(o[1].reason, "function");
  auto named = FindNamed(*corpus, {"55_transform_relu", "relu"});
  ASSERT_EQ(named.size(), 1u);
  EXPECT_EQ(named[0].a.name, "relu_map");
}


// EvaluateSuiteRetrieval (regrapht/retrieval.h), BM25 only: the shipped suite's
// problems with an expert trajectory against the shipped graph.
TEST(SuiteRetrievalTest, Bm25OverTheShippedSuite) {
  const char* src = std::getenv("REGRAPHT_SOURCE_DIR");
  ASSERT_NE(src, nullptr);
  RetrievalEvalOptions o;
  o.graph = fs::path(src) / "data" / "graph" / "regrapht.json";
  o.suite = fs::path(src) / "suites" / "cudaeval";
  o.embeddings = false;
  auto r = EvaluateSuiteRetrieval(o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->runs.size(), 1u);
  EXPECT_EQ(r->runs[0].name, "bm25");
  EXPECT_GT(r->problems, 0u);
  EXPECT_EQ(r->runs[0].hits.size(), r->problems);
  EXPECT_GT(r->corpus_kernels, 0u);
  EXPECT_GE(r->runs[0].first_match, 0.0);
  EXPECT_LE(r->runs[0].first_match, 1.0);
  o.bm25 = false;
  EXPECT_EQ(EvaluateSuiteRetrieval(o).status().code(), Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace regrapht::bench
