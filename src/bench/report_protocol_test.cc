// The report's protocol views (report_protocol.h): budget use, the spread
// across seeds, the paper's tables.
#include "bench/report_protocol.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "bench/metrics.h"
#include "core/fs.h"

namespace regrapht::bench {
namespace {

ResultRow SeedRow(const std::string& method, uint64_t seed, const std::string& problem, const std::string& verdict,
                  double speedup, const std::string& stop) {
  ResultRow r;
  std::string cfg = "{\"method\": \"" + method + "\", \"budget\": 200, \"rollouts\": 10, \"q\": \"max\", "
                    "\"close_failed_edges\": false, \"heldout\": false, \"protocol\": \"paper\"";
  if (seed != 1) cfg += ", \"seed\": " + std::to_string(seed);
  cfg += "}";
  r.key = {"pareval", problem, method, "DeepSeek-Coder-V2-Lite-Instruct.Q4", "cfg" + std::to_string(seed), 0};
  r.tier = "dense_la";
  r.config_json = cfg;
  r.verdict = verdict;
  r.speedup = speedup;
  r.reference_ms = 10;
  r.candidate_ms = speedup > 0 ? 10 / speedup : 0;
  r.env_json = R"({"gpu_name": "NVIDIA H200"})";
  r.generations = stop.empty() ? 200 : 120;
  r.verifications = stop.empty() ? 190 : 100;
  r.search_json = "{\"method\": \"" + method + "\", \"stop_reason\": \"" +
                  (stop.empty() ? std::string("budget: 200 generations") : stop) + "\"}";
  return r;
}

std::vector<ResultRow> ThreeSeeds() {
  std::vector<ResultRow> rows;
  // Seed 1: 2 of 2 solved; seed 2: 1 of 2; seed 3: 1 of 2 (one search stopped early).
  rows.push_back(SeedRow("regrapht-mcgs", 1, "a", "correct", 4, ""));
  rows.push_back(SeedRow("regrapht-mcgs", 1, "b", "correct", 2, ""));
  rows.push_back(SeedRow("regrapht-mcgs", 2, "a", "correct", 6, ""));
  rows.push_back(SeedRow("regrapht-mcgs", 2, "b", "wrong_answer", 0, ""));
  rows.push_back(SeedRow("regrapht-mcgs", 3, "a", "correct", 2, ""));
  rows.push_back(SeedRow("regrapht-mcgs", 3, "b", "wrong_answer", 0, "search space exhausted"));
  return rows;
}

TEST(ReportProtocolTest, BudgetUsePerSampleAndEarlyStops) {
  auto use = SummarizeBudgetUse(ThreeSeeds());
  ASSERT_EQ(use.size(), 3u);  // one experiment per seed
  EXPECT_EQ(use[2].budget, 200);
  EXPECT_EQ(use[2].samples, 2);
  EXPECT_DOUBLE_EQ(use[2].generations_per_sample, 160);
  EXPECT_DOUBLE_EQ(use[2].verifications_per_sample, 145);
  ASSERT_EQ(use[2].early_stops.size(), 1u);
  EXPECT_EQ(use[2].early_stops.at("search space exhausted"), 1);
  EXPECT_TRUE(use[0].early_stops.empty());
  std::string md = PrintBudgetAndSeeds(use, {});
  EXPECT_NE(md.find("| 200 | 2 | 160.0 | 145.0 | search space exhausted x1 |"), std::string::npos) << md;
}

TEST(ReportProtocolTest, SpreadAcrossSeedsBesideTheBootstrapCis) {
  MetricsOptions mo;
  mo.bootstrap = 200;
  auto groups = ComputeMetrics(ThreeSeeds(), mo);
  auto seeds = SummarizeSeeds(groups);
  ASSERT_EQ(seeds.size(), 1u);
  EXPECT_EQ(seeds[0].seeds, (std::vector<uint64_t>{1, 2, 3}));
  // pass@1 per seed: 1, 0.5, 0.5.
  EXPECT_NEAR(seeds[0].pass_at_1.mean, 2.0 / 3, 1e-12);
  EXPECT_NEAR(seeds[0].pass_at_1.sd, std::sqrt(1.0 / 12), 1e-12);
  EXPECT_DOUBLE_EQ(seeds[0].pass_at_1.min, 0.5);
  EXPECT_DOUBLE_EQ(seeds[0].pass_at_1.max, 1.0);
  // speedup@1 per seed: 3, 6, 2.
  EXPECT_NEAR(seeds[0].speedup_at_1.mean, 11.0 / 3, 1e-12);
  EXPECT_EQ(seeds[0].timed_seeds, 3);
  EXPECT_LE(seeds[0].pass_at_1.ci_mean.lo, seeds[0].pass_at_1.ci_mean.hi);
  std::string md = PrintBudgetAndSeeds(SummarizeBudgetUse(ThreeSeeds()), seeds);
  EXPECT_NE(md.find("### Across seeds"), std::string::npos);
  EXPECT_NE(md.find("| 1,2,3 | 0.667 ± 0.289 [0.500, 1.000] |"), std::string::npos) << md;
  // One seed alone has no spread.
  std::vector<ResultRow> all = ThreeSeeds();
  std::vector<ResultRow> one(all.begin(), all.begin() + 2);
  EXPECT_TRUE(SummarizeSeeds(ComputeMetrics(one, mo)).empty());
}

TEST(ReportProtocolTest, PaperTablesSayWhatIsComparable) {
  const char* src = std::getenv("REGRAPHT_SOURCE_DIR");
  ASSERT_NE(src, nullptr);
  auto paper = LoadPaperData((fs::path(src) / "data" / "paper" / "regrapht-2510.19873.json").string());
  ASSERT_TRUE(paper.ok()) << paper.status().ToString();
  EXPECT_EQ(paper->arxiv, "2510.19873");
  EXPECT_EQ(paper->rows.size(), 27u);
  MetricsOptions mo;
  mo.bootstrap = 100;
  std::vector<ResultRow> rows = {SeedRow("regrapht-mcgs", 1, "a", "correct", 4, "")};
  ResultRow ours_not_paper = SeedRow("rag", 1, "a", "correct", 2, "");
  ours_not_paper.key.suite = "cudaeval";
  ours_not_paper.config_json = R"({"method": "rag", "budget": 200, "heldout": true})";
  rows.push_back(ours_not_paper);
  std::string md = PrintPaperTables(ComputeMetrics(rows, mo), *paper);
  // ParEval, the paper's protocol, GPU-timed, the same backbone: comparable.
  EXPECT_NE(md.find("| DeepSeek-Coder-V2-Lite-Instruct / DeepSeek-Coder-V2-Lite-Instruct.Q4 | regrapht-mcgs | 0.550 | "
                    "1.000"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| pn | yes |"), std::string::npos);
  // Our CUDAEval-style suite is never the paper's; held-out re-timing is named.
  EXPECT_NE(md.find("not the paper's 313 (not public); held-out re-timing on"), std::string::npos) << md;
  // A published row we have not run says so.
  EXPECT_NE(md.find("| DeepSeek-R1 | cot | 0.821 | - | 19.14x | - | pn | no row of ours |"), std::string::npos);
  // Tier tables (Table 2) carry the published per-tier numbers.
  EXPECT_NE(md.find("## Table 2: cudaeval, tier hard"), std::string::npos);
  EXPECT_NE(md.find("| 0.549 |"), std::string::npos);
}

TEST(ReportProtocolTest, BadPaperDataNamesTheFileAndField) {
  auto tmp = TempDir::Create("paper-data");
  ASSERT_TRUE(tmp.ok());
  const fs::path f = tmp->path() / "p.json";
  ASSERT_TRUE(WriteFileAtomic(f, R"({"format": "regrapht-paper-results", "arxiv": "x", "title": "t",
    "protocol_note": "n", "rows": [{"table": "1", "backbone": "b", "method": "m", "benchmark": "cudaeval",
    "source": "s", "pass_at_1": "high", "speedup_at_1": 2}]})")
                  .ok());
  auto d = LoadPaperData(f.string());
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().ToString().find("p.json: rows[0].pass_at_1: a number is required"), std::string::npos)
      << d.status().ToString();
}

}  // namespace
}  // namespace regrapht::bench
