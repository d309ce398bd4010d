#include "bench/report.h"

#include <gtest/gtest.h>

#include <map>

#include "bench/coverage.h"
#include "core/fs.h"
#include "regrapht/verify.h"
#include "store/results_store.h"
#include "verify/test_util.h"

namespace regrapht::bench {
namespace {

std::vector<ResultRow> FixedRows() {
  std::vector<ResultRow> rows;
  auto add = [&](const std::string& method, const std::string& p, const std::string& tier, int s,
                 const std::string& v, double speedup) {
    ResultRow r;
    r.key = {"cudaeval", p, method, method == "reference" ? "" : "qwen2.5-coder-7b", "0123456789abcdef", s};
    r.tier = tier;
    r.verdict = v;
    r.speedup = speedup;
    r.reference_ms = 12;
    r.candidate_ms = speedup > 0 ? 12 / speedup : 0;
    r.tokens_prompt = 1000;
    r.tokens_generated = 300;
    r.generations = 3;
    r.verifications = 3;
    r.config_json = R"({"budget": 3})";
    if (v != "compiled_only") r.env_json = R"({"gpu_name": "NVIDIA H200"})";
    rows.push_back(r);
  };
  add("reference", "a", "easy", 0, "correct", 10);
  add("reference", "b", "medium", 0, "correct", 4);
  add("reference", "c", "hard", 0, "correct", 2.5);
  add("regrapht-mcgs", "a", "easy", 0, "correct", 8);
  add("regrapht-mcgs", "a", "easy", 1, "correct", 6);
  add("regrapht-mcgs", "b", "medium", 0, "wrong_answer", 0);
  add("regrapht-mcgs", "b", "medium", 1, "correct", 1.5);
  add("regrapht-mcgs", "c", "hard", 0, "compile_error", 0);
  add("regrapht-mcgs", "c", "hard", 1, "timeout", 0);
  // regrapht-mcgs's answers were re-verified on held-out inputs: a#0 kept
  // 8x (10x at search time), a#1 kept 6x (6x), b#0 was correct at search time
  // and wrong on held-out inputs.
  rows[3].search_verdict = rows[4].search_verdict = rows[5].search_verdict = "correct";
  rows[3].search_speedup = 10;
  rows[4].search_speedup = 6;
  rows[5].search_speedup = 3;
  add("standard", "a", "easy", 0, "correct", 0.5);
  add("standard", "b", "medium", 0, "compiled_only", 0);
  add("standard", "c", "hard", 0, "static_reject", 0);
  // Kernel-only time (CUPTI) for regrapht-mcgs's a#0 (1 ms: 12x) and b#1
  // (2 ms: 6x); a#1 has none (absent, not zero).
  rows[3].result_json = R"({"kernel_timing": {"median_ms": 1.0}, "kernel_speedup": 12.0})";
  rows[6].result_json = R"({"kernel_timing": {"median_ms": 2.0}, "kernel_speedup": 6.0})";
  return rows;
}

// What the runs planned: the reference's plan is complete, regrapht-mcgs's
// names a fourth problem with no rows yet, standard has none (a database
// made before plans were recorded).
std::vector<PlanEntry> FixedPlan() {
  std::vector<PlanEntry> plan;
  for (const char* p : {"a", "b", "c"}) plan.push_back({"cudaeval", p, "", "reference", "", "0123456789abcdef", 1});
  for (const char* p : {"a", "b", "c", "d"}) {
    plan.push_back({"cudaeval", p, "", "regrapht-mcgs", "qwen2.5-coder-7b", "0123456789abcdef", 2});
  }
  return plan;
}

// The report's text is pinned by golden files in tests/golden/; regenerate
// with REGRAPHT_UPDATE_GOLDEN=1 after an intended change, and review the diff.
void CheckGolden(const std::string& format, const std::string& file) {
  MetricsOptions o;
  o.ks = {1, 2};
  o.bootstrap = 200;
  auto groups = ComputeMetrics(FixedRows(), o);
  AddCoverage(FixedRows(), FixedPlan(), nullptr, &groups);
  SortForDisplay(&groups);
  auto printer = NewReportPrinter(format);
  ASSERT_TRUE(printer);
  std::string text = printer->Print(groups, o.ks);
  fs::path golden = testing_util::SourceDir() / "tests" / "golden" / file;
  if (std::getenv("REGRAPHT_UPDATE_GOLDEN")) {
    ASSERT_TRUE(WriteFile(golden, text).ok());
  }
  auto want = ReadFile(golden);
  ASSERT_TRUE(want.ok()) << want.status().ToString();
  EXPECT_EQ(text, *want);
}

// One name and one unit per figure in every format (issue 34): pass@1 is a
// fraction in md, csv, json and html alike (md printed it as a percentage
// once), and the geometric mean is geomean_speedup everywhere.
TEST(ReportTest, OneNameAndOneUnitPerFigureInEveryFormat) {
  MetricsOptions o;
  o.ks = {1};
  o.bootstrap = 50;
  auto groups = ComputeMetrics(FixedRows(), o);
  SortForDisplay(&groups);
  std::map<std::string, std::string> text;
  for (const char* f : {"md", "csv", "json"}) text[f] = NewReportPrinter(f)->Print(groups, o.ks);
  text["html"] = RenderHtmlReport({groups, o.ks, FixedRows(), {"r.db"}});
  for (const auto& [format, t] : text) {
    EXPECT_NE(t.find("geomean_speedup"), std::string::npos) << format;
    EXPECT_EQ(t.find("pass@1 %"), std::string::npos) << format;
  }
  EXPECT_EQ(text["csv"].find(",geomean,"), std::string::npos);
  // The reference row's pass@1 is 1: "1.000" in md, 1.000000 in csv, 1.0 in json; never 100.
  const GroupMetrics* ref = nullptr;
  for (const auto& g : groups) {
    if (g.method == "reference") ref = &g;
  }
  ASSERT_NE(ref, nullptr);
  ASSERT_DOUBLE_EQ(ref->overall.pass_at.at(1), 1.0);
  EXPECT_NE(text["md"].find("| reference | - | 3 | 3 | 3 | 1.000 |"), std::string::npos) << text["md"];
  EXPECT_NE(text["csv"].find("cudaeval,reference,,0123456789abcdef,all,3,3,3,0,0,3,1.000000,"), std::string::npos)
      << text["csv"];
  EXPECT_EQ(text["md"].find("100.0"), std::string::npos);
  EXPECT_EQ(text["html"].find(">100.0<"), std::string::npos);
}

TEST(ReportTest, MarkdownGolden) { CheckGolden("md", "report.md"); }
TEST(ReportTest, CsvGolden) { CheckGolden("csv", "report.csv"); }
TEST(ReportTest, JsonGolden) { CheckGolden("json", "report.json"); }
// The ParEval suite in both forms: two benchmarks ("pareval" and
// "pareval/kernel"), each with one row per problem type.
std::vector<ResultRow> ParEvalRows() {
  std::vector<ResultRow> rows;
  auto add = [&](const std::string& suite, const std::string& p, const std::string& type, int s,
                 const std::string& v, double speedup) {
    ResultRow r;
    r.key = {suite, p, "regrapht-mcgs", "deepseek-coder-v2-lite", "fedcba9876543210", s};
    r.tier = type;
    r.verdict = v;
    r.speedup = speedup;
    r.reference_ms = 20;
    r.candidate_ms = speedup > 0 ? 20 / speedup : 0;
    r.generations = 4;
    r.verifications = 4;
    r.config_json = R"({"budget": 4, "form": ")" + std::string(suite == "pareval" ? "dropin" : "kernel") + R"("})";
    rows.push_back(r);
  };
  for (const std::string suite : {"pareval", "pareval/kernel"}) {
    const double k = suite == "pareval" ? 1.0 : 3.0;  // kernel-only speedups are larger
    add(suite, "03_dense_la_axpy", "dense_la", 0, "correct", 0.8 * k);
    add(suite, "03_dense_la_axpy", "dense_la", 1, "correct", 1.2 * k);
    add(suite, "02_dense_la_gemm", "dense_la", 0, "wrong_answer", 0);
    add(suite, "02_dense_la_gemm", "dense_la", 1, "correct", 9 * k);
    add(suite, "41_sort_k-th_smallest_element", "sort", 0, "compile_error", 0);
    add(suite, "41_sort_k-th_smallest_element", "sort", 1, suite == "pareval" ? "race" : "correct", 2 * k);
  }
  return rows;
}

TEST(ReportTest, ParEvalBothFormsGolden) {
  MetricsOptions o;
  o.ks = {1, 2};
  o.bootstrap = 200;
  auto groups = ComputeMetrics(ParEvalRows(), o);
  std::vector<PlanEntry> plan;
  for (const auto& r : ParEvalRows()) {
    plan.push_back({r.key.suite, r.key.problem, r.tier, r.key.method, r.key.model, r.key.config_hash, 2});
  }
  AddCoverage(ParEvalRows(), plan, nullptr, &groups);
  SortForDisplay(&groups);
  std::string text = NewReportPrinter("md")->Print(groups, o.ks);
  fs::path golden = testing_util::SourceDir() / "tests" / "golden" / "report_pareval.md";
  if (std::getenv("REGRAPHT_UPDATE_GOLDEN")) {
    ASSERT_TRUE(WriteFile(golden, text).ok());
  }
  auto want = ReadFile(golden);
  ASSERT_TRUE(want.ok()) << want.status().ToString();
  EXPECT_EQ(text, *want);
}

TEST(ReportTest, UnknownFormat) { EXPECT_EQ(NewReportPrinter("xml"), nullptr); }

// Samples run with --unsafe-no-sandbox are counted and the report says so.
TEST(ReportTest, UnsandboxedSamplesAreCalledOut) {
  auto rows = FixedRows();
  rows[3].env_json = R"({"sandbox": "UNSANDBOXED(--unsafe-no-sandbox)+rlimits+pgroup"})";
  MetricsOptions o;
  o.bootstrap = 10;
  auto groups = ComputeMetrics(rows, o);
  SortForDisplay(&groups);
  std::string md = NewReportPrinter("md")->Print(groups, o.ks);
  EXPECT_NE(md.find("**UNSANDBOXED:** 1 sample ran with"), std::string::npos) << md;
  std::string json = NewReportPrinter("json")->Print(groups, o.ks);
  EXPECT_NE(json.find("\"unsandboxed\": 1"), std::string::npos) << json;
}

}  // namespace
}  // namespace regrapht::bench

namespace regrapht {
namespace {

// The store refuses rows whose verdict it does not know; it keeps its own
// list (it does not depend on verify): every verdict the harness gives must
// be in it, and nothing else.
TEST(ReportTest, StoreKnowsEveryVerdict) {
  int known = 0;
  for (int v = 0;; ++v) {
    std::string_view name = VerdictName(static_cast<Verdict>(v));
    if (name == "?") break;
    EXPECT_TRUE(ResultsStore::IsKnownVerdict(name)) << name;
    EXPECT_EQ(ParseVerdict(name), static_cast<Verdict>(v));
    ++known;
  }
  EXPECT_EQ(known, 12);
  EXPECT_FALSE(ResultsStore::IsKnownVerdict("banana"));
  EXPECT_FALSE(ResultsStore::IsKnownVerdict(""));
}

}  // namespace
}  // namespace regrapht
