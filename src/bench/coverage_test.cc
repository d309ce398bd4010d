#include "bench/coverage.h"

#include <gtest/gtest.h>

#include <map>

#include "bench/report.h"
#include "core/json_util.h"
#include "core/strings.h"

namespace regrapht::bench {
namespace {

ResultRow Row(const std::string& method, const std::string& problem, int sample) {
  ResultRow r;
  r.key = {"s", problem, method, "", "cfg", sample};
  r.verdict = "correct";
  r.tier = "easy";
  return r;
}

PlanEntry Plan(const std::string& method, const std::string& problem, int samples) {
  return {"s", problem, "easy", method, "", "cfg", samples};
}

std::vector<GroupMetrics> Groups(const std::vector<ResultRow>& rows, const std::vector<PlanEntry>& plan,
                                 const Suite* suite = nullptr) {
  MetricsOptions o;
  o.bootstrap = 0;
  auto groups = ComputeMetrics(rows, o);
  AddCoverage(rows, plan, suite, &groups);
  SortForDisplay(&groups);
  return groups;
}

TEST(CoverageTest, PlanNamesTheMissingSamples) {
  // Shard 0 of 2 ran problems a and c (2 samples each, one still missing); b is shard 1's.
  std::vector<ResultRow> rows = {Row("reference", "a", 0), Row("reference", "a", 1), Row("reference", "c", 0)};
  std::vector<PlanEntry> plan = {Plan("reference", "a", 2), Plan("reference", "b", 2), Plan("reference", "c", 2)};
  auto groups = Groups(rows, plan);
  ASSERT_EQ(groups.size(), 1u);
  const Coverage& c = groups[0].coverage;
  EXPECT_EQ(c.expected_from, "plan");
  EXPECT_EQ(c.problems_expected, 3);
  EXPECT_EQ(c.samples_expected, 2);
  EXPECT_EQ(c.expected, 6);
  EXPECT_EQ(c.present, 3);
  EXPECT_EQ(c.problems_present, 2);
  EXPECT_EQ(c.missing, (std::vector<MissingSample>{{"b", 0}, {"b", 1}, {"c", 1}}));
  EXPECT_EQ(FormatMissing(c.missing), "b #0-1, c #1");
  EXPECT_FALSE(c.complete());
}

TEST(CoverageTest, PlannedMethodWithoutRowsIsAGroup) {
  std::vector<ResultRow> rows = {Row("reference", "a", 0)};
  std::vector<PlanEntry> plan = {Plan("reference", "a", 1), Plan("standard", "a", 1)};
  auto groups = Groups(rows, plan);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].method, "standard");  // the paper's order
  EXPECT_FALSE(groups[0].has_rows());
  EXPECT_EQ(groups[0].coverage.present, 0);
  EXPECT_EQ(groups[0].coverage.missing.size(), 1u);
  EXPECT_TRUE(groups[1].coverage.complete());
  // Every format says so.
  std::string md = NewReportPrinter("md")->Print(groups, {1});
  EXPECT_NE(md.find("- standard / -: none of 1 row present (1 problem x 1 sample, expected from the plan): "
                    "missing all"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("- reference / -: all 1 row present"), std::string::npos) << md;
  EXPECT_EQ(md.find("| standard |"), std::string::npos) << md;  // no metrics row of zeros
  // CSV: the planned method's line has every column, coverage filled in.
  auto lines = SplitLines(NewReportPrinter("csv")->Print(groups, {1}));
  ASSERT_GE(lines.size(), 2u);
  auto header = Split(lines[0], ',');
  auto fields = Split(lines[1], ',');
  ASSERT_EQ(fields.size(), header.size()) << lines[1];
  std::map<std::string, std::string> at;
  for (size_t i = 0; i < header.size(); ++i) at[header[i]] = fields[i];
  EXPECT_EQ(at["method"], "standard");
  EXPECT_EQ(at["samples"], "0");
  EXPECT_EQ(at["pass@1"], "");
  EXPECT_EQ(at["rows_expected"], "1");
  EXPECT_EQ(at["rows_present"], "0");
  EXPECT_EQ(at["rows_missing"], "1");
  EXPECT_EQ(at["missing"], "\"a #0\"");
  Json json = Json::parse(NewReportPrinter("json")->Print(groups, {1}));
  EXPECT_TRUE(json[0]["overall"].is_null());
  EXPECT_EQ(json[0]["coverage"]["missing"], Json::parse(R"([{"problem": "a", "sample": 0}])"));
  EXPECT_EQ(json[0]["coverage"]["complete"], false);
  EXPECT_EQ(json[1]["coverage"]["complete"], true);
}

TEST(CoverageTest, SuiteFolderGivesTheExpectedSetWithoutAPlan) {
  Suite suite;
  suite.name = "s";
  for (const char* n : {"a", "b", "c"}) {
    SuiteProblem p;
    p.problem.spec.name = n;
    suite.problems.push_back(p);
  }
  std::vector<ResultRow> rows = {Row("reference", "a", 0), Row("reference", "a", 1), Row("reference", "z", 0)};
  auto unknown = Groups(rows, {});
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_FALSE(unknown[0].coverage.known());
  EXPECT_EQ(unknown[0].coverage.present, 3);
  EXPECT_NE(NewReportPrinter("md")->Print(unknown, {1}).find("the expected set is unknown"), std::string::npos);
  auto groups = Groups(rows, {}, &suite);
  const Coverage& c = groups[0].coverage;
  EXPECT_EQ(c.expected_from, "suite");
  EXPECT_EQ(c.samples_expected, 2);  // the most any problem has, without a plan
  EXPECT_EQ(c.expected, 6);
  EXPECT_EQ(c.present, 2);
  EXPECT_EQ(c.outside, 1);  // z is not in the suite
  EXPECT_EQ(FormatMissing(c.missing), "b #0-1, c #0-1");
}

TEST(CoverageTest, FormatMissingShortensLongLists) {
  std::vector<MissingSample> m;
  for (int p = 0; p < 5; ++p) {
    for (int s : {0, 1, 2, 5}) m.push_back({"p" + std::to_string(p), s});
  }
  EXPECT_EQ(FormatMissing(m, 2), "p0 #0-2,5, p1 #0-2,5, and 3 more problems");
}

}  // namespace
}  // namespace regrapht::bench
