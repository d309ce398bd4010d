// The public entry points of results databases and suites
// (regrapht/results.h, regrapht/suite.h): their error paths and what they
// return for the smallest inputs.
#include "regrapht/results.h"

#include <gtest/gtest.h>

#include "core/fs.h"
#include "regrapht/suite.h"
#include "store/results_store.h"
#include "verify/test_util.h"

namespace regrapht {
namespace {

TEST(ResultsTest, FailedMergeLeavesNoOutputItCreated) {
  auto tmp = TempDir::Create("rgresults");
  ASSERT_TRUE(tmp.ok());
  const std::string out = (tmp->path() / "merged.sqlite").string();
  auto r = MergeResults(out, {(tmp->path() / "missing.sqlite").string()});
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(fs::exists(out));
}

TEST(ResultsTest, MergeAndReportOfAnEmptyDatabase) {
  auto tmp = TempDir::Create("rgresults");
  ASSERT_TRUE(tmp.ok());
  const std::string in = (tmp->path() / "in.sqlite").string(),
                    out = (tmp->path() / "out.sqlite").string();
  ASSERT_TRUE(ResultsStore::Open(in).ok());
  auto m = MergeResults(out, {in});
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->inputs, 1);
  EXPECT_EQ(m->rows_added, 0);
  EXPECT_EQ(m->rows, 0);
  ReportOptions o;
  o.dbs = {out};
  o.method = "standard";  // nothing of another method there either: not an error
  EXPECT_TRUE(RenderReport(o).ok());
  o.format = "xml";
  auto bad = RenderReport(o);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("xml"), std::string::npos);
}

TEST(ResultsTest, RepairOfAMissingDatabaseFails) {
  auto tmp = TempDir::Create("rgresults");
  ASSERT_TRUE(tmp.ok());
  EXPECT_FALSE(RepairResults((tmp->path() / "missing.sqlite").string(),
                             (tmp->path() / "new.sqlite").string())
                   .ok());
}

TEST(SuiteApiTest, ReadSuiteAndCalibratorErrors) {
  const std::string dir =
      (testing_util::SourceDir() / "src" / "cli" / "testdata" / "calibrate").string();
  auto s = ReadSuite(dir);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ASSERT_FALSE(s->problems.empty());
  for (size_t i = 1; i < s->problems.size(); ++i)
    EXPECT_LT(s->problems[i - 1].name, s->problems[i].name);
  for (const auto& p : s->problems)
    EXPECT_TRUE(fs::exists(fs::path(p.dir) / "problem.json")) << p.dir;

  TimingCalibratorOptions o;
  o.verify.run_mode = VerifyOptions::RunMode::kEmulate;
  auto emu = TimingCalibrator::Open(dir, o);
  ASSERT_FALSE(emu.ok());
  EXPECT_EQ(emu.status().code(), Status::Code::kInvalidArgument);
  o.verify.run_mode = VerifyOptions::RunMode::kGpu;
  o.only = {"no_such_problem"};
  auto only = TimingCalibrator::Open(dir, o);
  ASSERT_FALSE(only.ok());
  EXPECT_NE(only.status().message().find("no_such_problem"), std::string::npos);
  o.only.clear();
  auto none = TimingCalibrator::Open((testing_util::SourceDir() / "no-such-folder").string(), o);
  EXPECT_FALSE(none.ok());
}

}  // namespace
}  // namespace regrapht
