// The HTML report, the per-problem view and the search-tree page: their
// structure (tables, rows, figures), parsed, never compared byte for byte.
#include <gtest/gtest.h>

#include "bench/coverage.h"
#include "bench/html_dom_test_util.h"
#include "bench/report.h"
#include "bench/report_fixture.h"
#include "bench/report_tree.h"
#include "core/fs.h"
#include "core/json_util.h"
#include "core/strings.h"
#include "verify/test_util.h"

namespace regrapht::bench {
namespace {

using testing_util::Element;
using testing_util::ParseHtml;

std::string FixtureHtml() {
  MetricsOptions o;
  o.ks = {1, 2};
  o.bootstrap = 100;
  auto rows = fixture::Rows();
  auto groups = ComputeMetrics(rows, o);
  AddCoverage(rows, fixture::Plan(), nullptr, &groups);
  SortForDisplay(&groups);
  return RenderHtmlReport({groups, o.ks, rows, {"results.db"}});
}

// The texts of a table's header cells and its body rows' cells.
std::vector<std::string> HeaderTexts(const Element& table) {
  std::vector<std::string> out;
  for (const Element* th : table.All("th")) out.push_back(th->AllText());
  return out;
}
std::vector<std::vector<std::string>> BodyRows(const Element& table) {
  std::vector<std::vector<std::string>> out;
  for (const Element* tbody : table.All("tbody")) {
    for (const Element* tr : tbody->All("tr")) {
      std::vector<std::string> cells;
      for (const Element* td : tr->All("td")) cells.push_back(td->AllText());
      out.push_back(cells);
    }
  }
  return out;
}
size_t Column(const std::vector<std::string>& header, const std::string& name) {
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return i;
  }
  ADD_FAILURE() << "no column " << name;
  return 0;
}

TEST(ReportHtmlTest, PageParsesAndIsSelfContained) {
  std::string html = FixtureHtml();
  std::string err;
  auto dom = ParseHtml(html, &err);
  ASSERT_TRUE(dom) << err;
  EXPECT_TRUE(dom->All("script").empty());
  EXPECT_TRUE(dom->All("link").empty());
  EXPECT_TRUE(dom->All("img").empty());
  // Nothing fetched: the only URL is the SVG namespace.
  std::string rest = html;
  for (size_t p; (p = rest.find("http://www.w3.org/2000/svg")) != std::string::npos;)
    rest.erase(p, 26);
  EXPECT_EQ(rest.find("http://"), std::string::npos);
  EXPECT_EQ(rest.find("https://"), std::string::npos);
  EXPECT_EQ(rest.find("src="), std::string::npos);
}

TEST(ReportHtmlTest, MethodsByMetricsTableWithIntervals) {
  std::string err;
  auto dom = ParseHtml(FixtureHtml(), &err);
  ASSERT_TRUE(dom) << err;
  const Element* t = dom->ById("metrics-cudaeval");
  ASSERT_TRUE(t);
  auto header = HeaderTexts(*t);
  for (const char* h :
       {"method", "model", "config", "pass@1 (0-1)", "pass@1 95% CI", "pass@2 (0-1)", "speedup@1 (call)",
        "speedup@1 95% CI", "geomean_speedup (call)", "geomean_speedup 95% CI", "speedup@1 (kernel)",
        "geomean_speedup (kernel)", "fast_1 (0-1)", "evidence"}) {
    EXPECT_NE(std::find(header.begin(), header.end(), h), header.end()) << h;
  }
  auto rows = BodyRows(*t);
  // standard, regrapht-mcgs at two budgets, reference.
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0][Column(header, "method")], "standard");
  EXPECT_EQ(rows[3][Column(header, "method")], "reference");
  EXPECT_EQ(rows[3][Column(header, "pass@1 (0-1)")], "1.000");
  EXPECT_EQ(rows[3][Column(header, "pass@1 95% CI")], " [1.000, 1.000]");
  EXPECT_NE(rows[1][Column(header, "config")].find("budget"), std::string::npos);
  // The pareval suite has its own table.
  ASSERT_TRUE(dom->ById("metrics-pareval"));
  EXPECT_EQ(BodyRows(*dom->ById("metrics-pareval")).size(), 1u);
}

// The speed columns say what they time: "(call)" with the kernel-only
// figures beside them (absent, not zero, where no row has one), or
// "(kernel)" alone in --timing kernel.
TEST(ReportHtmlTest, CallAndKernelSpeedColumns) {
  MetricsOptions o;
  o.bootstrap = 50;
  auto rows = fixture::Rows();
  int with_kernel = 0;
  for (auto& r : rows) {
    if (r.key.suite != "cudaeval" || r.key.method != "standard" || r.verdict != "correct" ||
        !(r.speedup > 0) || !(r.reference_ms > 0))
      continue;
    auto j = ParseJson(r.result_json.empty() ? "{}" : r.result_json, "result");
    ASSERT_TRUE(j.ok());
    (*j)["kernel_timing"] = {{"median_ms", r.reference_ms / 10}};
    (*j)["kernel_speedup"] = 10.0;
    r.result_json = j->dump();
    ++with_kernel;
  }
  ASSERT_GT(with_kernel, 0);
  auto groups = ComputeMetrics(rows, o);
  SortForDisplay(&groups);
  std::string err;
  const std::string html = RenderHtmlReport({groups, o.ks, rows, {"results.db"}});
  auto dom = ParseHtml(html, &err);
  ASSERT_TRUE(dom) << err;
  const Element* t = dom->ById("metrics-cudaeval");
  ASSERT_TRUE(t);
  auto header = HeaderTexts(*t);
  auto body = BodyRows(*t);
  ASSERT_FALSE(body.empty());
  EXPECT_EQ(body[0][Column(header, "method")], "standard");
  EXPECT_EQ(body[0][Column(header, "speedup@1 (kernel)")], "10.00x");
  EXPECT_EQ(body[0][Column(header, "geomean_speedup (kernel)")], "10.00x");
  EXPECT_NE(body[0][Column(header, "speedup@1 (call)")], "10.00x");
  EXPECT_NE(body[1][Column(header, "speedup@1 (kernel)")].find("ndash"), std::string::npos)
      << body[1][Column(header, "speedup@1 (kernel)")];  // no kernel figure: a dash, not 0
  EXPECT_NE(html.find("<b>kernel</b> = the GPU time of the kernels"), std::string::npos);

  o.timing = "kernel";
  auto kgroups = ComputeMetrics(rows, o);
  SortForDisplay(&kgroups);
  HtmlReportInput in{kgroups, o.ks, rows, {"results.db"}, "kernel"};
  auto kdom = ParseHtml(RenderHtmlReport(in), &err);
  ASSERT_TRUE(kdom) << err;
  auto kheader = HeaderTexts(*kdom->ById("metrics-cudaeval"));
  EXPECT_NE(std::find(kheader.begin(), kheader.end(), "speedup@1 (kernel)"), kheader.end());
  EXPECT_EQ(std::find(kheader.begin(), kheader.end(), "speedup@1 (call)"), kheader.end());
  EXPECT_EQ(std::count(kheader.begin(), kheader.end(), "geomean_speedup (kernel)"), 1)
      << "one geomean column in kernel mode: the headline one";
}

TEST(ReportHtmlTest, OneIsSingular) {
  MetricsOptions o;
  o.bootstrap = 20;
  std::vector<ResultRow> rows;
  for (const auto& r : fixture::Rows()) {
    if (r.key.suite == "pareval" && rows.empty()) rows.push_back(r);
  }
  ASSERT_EQ(rows.size(), 1u);
  auto groups = ComputeMetrics(rows, o);
  const std::string html = RenderHtmlReport({groups, o.ks, rows, {"results.db"}});
  EXPECT_NE(html.find("<p>1 row, 1 experiment, from results.db.</p>"), std::string::npos);
}

TEST(ReportHtmlTest, TierTableInNaturalOrderWithIntervals) {
  std::string err;
  auto dom = ParseHtml(FixtureHtml(), &err);
  ASSERT_TRUE(dom) << err;
  const Element* t = dom->ById("tiers-cudaeval");
  ASSERT_TRUE(t);
  auto header = HeaderTexts(*t);
  const size_t easy = Column(header, "easy pass@1 (0-1)"), medium = Column(header, "medium pass@1 (0-1)"),
               hard = Column(header, "hard pass@1 (0-1)");
  EXPECT_LT(easy, medium);
  EXPECT_LT(medium, hard);
  auto rows = BodyRows(*t);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_NE(rows[3][easy].find("1.000 [1.000, 1.000]"), std::string::npos) << rows[3][easy];
  EXPECT_EQ(rows[3][Column(header, "hard solved")], "1/1");
}

TEST(ReportHtmlTest, CoverageNamesTheMissingProblem) {
  std::string err;
  auto dom = ParseHtml(FixtureHtml(), &err);
  ASSERT_TRUE(dom) << err;
  auto lists = dom->All("ul", "coverage");
  ASSERT_FALSE(lists.empty());
  EXPECT_NE(lists[0]->AllText().find("missing 2: sort #0-1"), std::string::npos)
      << lists[0]->AllText();
  EXPECT_FALSE(dom->All("p", "warn").empty());
}

TEST(ReportHtmlTest, SpeedupStripHasOneDotPerTimedCorrectSample) {
  std::string err;
  auto dom = ParseHtml(FixtureHtml(), &err);
  ASSERT_TRUE(dom) << err;
  const Element* fig = dom->ById("speedups-cudaeval");
  ASSERT_TRUE(fig);
  ASSERT_EQ(fig->All("svg").size(), 1u);
  // Timed correct samples in cudaeval: reference 3, mcgs@8 3, mcgs@4 2, standard 1.
  EXPECT_EQ(fig->All("circle", "dot").size(), 9u);
  EXPECT_EQ(fig->All("rect", "box").size(), 4u);
}

TEST(ReportHtmlTest, PassAtKAndBudgetCurves) {
  std::string err;
  auto dom = ParseHtml(FixtureHtml(), &err);
  ASSERT_TRUE(dom) << err;
  ASSERT_TRUE(dom->ById("pass-at-k-cudaeval"));
  EXPECT_EQ(dom->ById("pass-at-k-cudaeval")->All("polyline", "series").size(), 4u);
  // Only regrapht-mcgs ran at two budgets (4 and 8).
  const Element* budget = dom->ById("budget-pass-cudaeval");
  ASSERT_TRUE(budget);
  auto lines = budget->All("polyline", "series");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0]->Attr("points").find(' ') != std::string::npos, true);  // two points
  EXPECT_FALSE(dom->ById("budget-pass-pareval"));
}

TEST(ReportHtmlTest, PerProblemTableWithEvidenceAndSources) {
  std::string err;
  auto dom = ParseHtml(FixtureHtml(), &err);
  ASSERT_TRUE(dom) << err;
  const Element* t = dom->ById("problems-cudaeval");
  ASSERT_TRUE(t);
  auto header = HeaderTexts(*t);
  auto rows = BodyRows(*t);
  // 3 problems x (reference, mcgs@4, mcgs@8, standard).
  ASSERT_EQ(rows.size(), 12u);
  const size_t problem = Column(header, "problem"), method = Column(header, "method"),
               verdict = Column(header, "verdict"), best = Column(header, "best speedup");
  bool saw_emulated = false, saw_compiled_only = false;
  for (const auto& r : rows) {
    if (r[problem] == "bfs" && r[method] == "regrapht-mcgs" && r[best] == "untimed (emulated)")
      saw_emulated = true;
    if (r[problem] == "stencil" && r[method] == "standard" && r[verdict] == "compiled_only")
      saw_compiled_only = true;
    if (r[problem] == "saxpy" && r[method] == "reference") {
      EXPECT_EQ(r[best], "10.00x (gpu-timed)");
    }
  }
  EXPECT_TRUE(saw_emulated);
  EXPECT_TRUE(saw_compiled_only);
  // Every stored source, escaped, in a <details>.
  auto details = t->All("details", "source");
  EXPECT_EQ(details.size(), 18u);
  EXPECT_NE(details[0]->AllText().find("__global__ void"), std::string::npos);
  EXPECT_NE(details[0]->AllText().find("&lt;&amp;&gt;"),
            std::string::npos);  // escaped (the parser keeps entities)
}

TEST(ReportHtmlTest, EnvironmentOfEveryMachine) {
  std::string err;
  auto dom = ParseHtml(FixtureHtml(), &err);
  ASSERT_TRUE(dom) << err;
  const Element* t = dom->ById("environments");
  ASSERT_TRUE(t);
  auto header = HeaderTexts(*t);
  auto rows = BodyRows(*t);
  ASSERT_EQ(rows.size(), 2u);  // the H200 and the emulator host
  std::set<std::string> gpus = {rows[0][Column(header, "gpu_name")],
                                rows[1][Column(header, "gpu_name")]};
  EXPECT_TRUE(gpus.count("NVIDIA H200"));
  EXPECT_TRUE(gpus.count("regrapht CUDA emulator (CPU)"));
  // The emulator has no SMs or L2 to count: its record's zeros show as missing, not as 0.
  const auto& emu = rows[0][Column(header, "gpu_name")] == "NVIDIA H200" ? rows[1] : rows[0];
  const auto& h200 = rows[0][Column(header, "gpu_name")] == "NVIDIA H200" ? rows[0] : rows[1];
  EXPECT_NE(emu[Column(header, "gpu_sms")].find("ndash"), std::string::npos) << emu[Column(header, "gpu_sms")];
  EXPECT_NE(emu[Column(header, "gpu_l2_bytes")].find("ndash"), std::string::npos);
  EXPECT_EQ(h200[Column(header, "gpu_sms")], "132");
  EXPECT_NE(dom->ById("environment")->AllText().find("1 row carries no environment record"),
            std::string::npos);
}

TEST(ReportPerProblemTest, SummariesAndFormats) {
  auto ps = SummarizeProblems(fixture::Rows());
  ASSERT_EQ(ps.size(), 14u);
  // Ordered by suite, problem, then the paper's method order.
  EXPECT_EQ(ps[0].problem, "bfs");
  EXPECT_EQ(ps[0].method, "standard");
  const ProblemSummary* mcgs_bfs = nullptr;
  for (const auto& p : ps) {
    if (p.problem == "bfs" && p.method == "regrapht-mcgs" && p.config_hash[3] == '8') mcgs_bfs = &p;
  }
  ASSERT_TRUE(mcgs_bfs);
  EXPECT_EQ(mcgs_bfs->verdict, "solved");
  EXPECT_FALSE(mcgs_bfs->best_speedup);
  EXPECT_EQ(mcgs_bfs->best_evidence, "emulated");
  EXPECT_EQ(mcgs_bfs->best_sample, 1);

  std::string csv = PrintPerProblem(ps, "csv");
  auto lines = SplitLines(csv);
  ASSERT_EQ(lines.size(), 15u);
  EXPECT_EQ(
      lines[0].rfind(
          "suite,method,model,config_hash,problem,tier,samples,verdict,correct,timed,best_speedup",
          0),
      0u);
  // An unmeasured speed is an empty field, never 0.
  bool empty_speed = false;
  for (const auto& l : lines) {
    if (l.find(",bfs,hard,2,solved,1,0,,emulated,1,,") != std::string::npos) empty_speed = true;
  }
  EXPECT_TRUE(empty_speed) << csv;

  auto json = ParseJson(PrintPerProblem(ps, "json"), "json");
  ASSERT_TRUE(json.ok());
  ASSERT_EQ(json->size(), 14u);
  bool null_speed = false;
  for (const auto& j : *json) {
    if (j["problem"] == "bfs" && j["verdict"] == "solved" && j["best_speedup"].is_null())
      null_speed = true;
  }
  EXPECT_TRUE(null_speed);
  EXPECT_NE(PrintPerProblem(ps, "md").find(
                "| cudaeval | saxpy | easy | reference | - | 1 | solved | 1 | 10.00x | "
                "gpu-timed |"),
            std::string::npos);
}

Json TreeReport() {
  auto j =
      ReadJsonFile(testing_util::SourceDir() / "src" / "cli" / "testdata" / "tree" / "report.json");
  EXPECT_TRUE(j.ok()) << j.status().ToString();
  return j.ok() ? *j : Json();
}

TEST(ReportTreeTest, SvgDrawsEveryAttemptAndTheWinningPath) {
  auto attempts = ReadTreeAttempts(TreeReport(), "report.json");
  ASSERT_TRUE(attempts.ok()) << attempts.status().ToString();
  std::string err;
  auto dom = ParseHtml(SearchTreeSvg(*attempts), &err);
  ASSERT_TRUE(dom) << err;
  auto nodes = dom->All("g", "node");
  EXPECT_EQ(nodes.size(), attempts->size() + 1);  // and the sequential code
  EXPECT_EQ(dom->All("path", "edge").size(), attempts->size());
  size_t best = 0;
  for (const auto& a : *attempts) best += a.on_best_path;
  EXPECT_EQ(dom->All("g", "best").size(), best);
  EXPECT_EQ(dom->All("path", "best").size(), best);
}

// The DOT `tree show --format png` renders: the root, a node per attempt,
// an edge per attempt, the winning path thick.
TEST(ReportTreeTest, DotDrawsEveryAttemptAndTheWinningPath) {
  auto attempts = ReadTreeAttempts(TreeReport(), "report.json");
  ASSERT_TRUE(attempts.ok()) << attempts.status().ToString();
  const std::string dot = SearchTreeDot(*attempts);
  EXPECT_EQ(dot.rfind("digraph search {", 0), 0u) << dot;
  EXPECT_NE(dot.find("root [label=\"sequential code\""), std::string::npos);
  size_t best = 0;
  for (const auto& a : *attempts) {
    best += a.on_best_path;
    EXPECT_NE(dot.find("  a" + std::to_string(a.id) + " [label=\"#" + std::to_string(a.id) + " "),
              std::string::npos)
        << a.id;
    const std::string from = a.parent == -1 ? "root" : "a" + std::to_string(a.parent);
    EXPECT_NE(dot.find("  " + from + " -> a" + std::to_string(a.id) + " "), std::string::npos)
        << a.id;
  }
  size_t thick = 0;
  for (size_t at = dot.find("penwidth=3.5"); at != std::string::npos;
       at = dot.find("penwidth=3.5", at + 1))
    ++thick;
  EXPECT_EQ(thick, best);
}

TEST(ReportTreeTest, PageHasPathTreeAndDiffs) {
  Json report = TreeReport();
  auto html = SearchReportHtml(report, "report.json");
  ASSERT_TRUE(html.ok()) << html.status().ToString();
  std::string err;
  auto dom = ParseHtml(*html, &err);
  ASSERT_TRUE(dom) << err;
  EXPECT_TRUE(dom->All("script").empty());
  const Element* path = dom->ById("path");
  ASSERT_TRUE(path);
  EXPECT_EQ(BodyRows(*path).size(), report["best_path"].size());
  ASSERT_TRUE(dom->ById("tree"));
  EXPECT_EQ(dom->ById("tree")->All("svg").size(), 1u);
  for (const auto& a : report["attempts"]) {
    const Element* sec = dom->ById("attempt-" + std::to_string(a["id"].get<int>()));
    ASSERT_TRUE(sec) << a["id"];
    EXPECT_NE(sec->AllText().find(a["verdict"].get<std::string>()), std::string::npos);
    if (!a.value("code", std::string()).empty()) {
      EXPECT_EQ(sec->All("details", "diff").size(), 1u);
    }
  }
  // The first attempt's diff is against the sequential code: it removes the loop.
  auto diffs = dom->ById("attempt-0")->All("span", "del");
  ASSERT_FALSE(diffs.empty());
  EXPECT_NE(dom->ById("attempt-0")->AllText().find("__global__"), std::string::npos);
  EXPECT_TRUE(dom->ById("environment"));
  EXPECT_TRUE(dom->ById("config"));
}

TEST(ReportTreeTest, BadReportsNameTheField) {
  auto bad = ParseJson(R"({"attempts": [{"id": 0, "parent": 5, "verdict": "correct"}]})", "r.json");
  ASSERT_TRUE(bad.ok());
  auto a = ReadTreeAttempts(*bad, "r.json");
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().message().find("attempts[0].parent"), std::string::npos)
      << a.status().ToString();
  auto none = ParseJson(R"({"suite": "x"})", "r.json");
  auto b = ReadTreeAttempts(*none, "r.json");
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("attempts"), std::string::npos);
  auto path =
      ParseJson(R"({"attempts": [{"id": 0, "verdict": "correct"}], "best_path": [3]})", "r.json");
  EXPECT_FALSE(ReadTreeAttempts(*path, "r.json").ok());
}

}  // namespace
}  // namespace regrapht::bench
