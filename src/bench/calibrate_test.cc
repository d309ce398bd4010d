#include "bench/calibrate.h"

#include <gtest/gtest.h>

#include <cmath>

namespace regrapht::bench {
namespace {

// A spec in the repository's hand formatting; `size_type` is n's type.
std::string SpecText(const std::string& size_type = "int32", int64_t n = 1000) {
  return R"({
  "format": "regrapht-problem",
  "version": 1,
  "name": "t",
  "function": "f",
  "args": [
    {"name": "n", "role": "size", "type": ")" +
         size_type + R"("},
    {"name": "r", "role": "size", "type": "int32"},
    {"name": "x", "role": "input", "type": "float", "pass": "pointer", "length": "n"},
    {"name": "y", "role": "output", "type": "float", "pass": "pointer", "length": "n"}
  ],
  "tests": [
    {"sizes": {"n": 1, "r": 2}, "seed": 1},
    {"sizes": {"n": 300, "r": 2}, "seed": 2},
    {"sizes": {"n": 1000, "r": 2}, "seed": 3}
  ],
  "timing": {"seed": 9, "sizes": {"r": 4, "n": )" +
         std::to_string(n) + R"(}},
  "notes": "timing is not the last key"
}
)";
}

Problem MakeProblem(const std::string& text) {
  Problem p;
  p.dir = "/nowhere/t";
  p.spec_text = text;
  auto spec = ParseProblemSpec(text, "t/problem.json");
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  if (spec.ok()) p.spec = *spec;
  return p;
}

TEST(CalibrateTest, ScaleSizesKeepsParametersPowersOfTwoAndPartialBlocks) {
  std::map<std::string, int64_t> s = {{"n", 1 << 20}, {"rows", 1001}, {"cols", 2048}, {"radius", 16}};
  auto x = ScaleSizes(s, 3.0, 64);
  EXPECT_EQ(x["radius"], 16);          // a parameter: unchanged
  EXPECT_EQ(x["n"], int64_t{1} << 22);  // 3 x 2^20 rounds (in log2) to 2^22
  EXPECT_EQ(x["rows"], 3003);
  EXPECT_EQ(x["cols"], 8192);
  auto odd = ScaleSizes({{"n", 1001}}, 1.0229, 64);  // 1023.9 -> 1024 is a multiple of 32
  EXPECT_EQ(odd["n"], 1025);
  auto down = ScaleSizes({{"n", 1000}}, 0.001, 64);  // never below the parameters
  EXPECT_EQ(down["n"], 65);
}

TEST(CalibrateTest, RewriteChangesOnlyTheTimingSizes) {
  std::string text = SpecText();
  auto out = RewriteTimingSizes(text, {{"n", 5000}, {"r", 4}}, "t/problem.json");
  ASSERT_TRUE(out.ok()) << out.status().message();
  std::string want = text;
  want.replace(want.find(R"("timing": {"seed": 9, "sizes": {"r": 4, "n": 1000}})"),
               std::string(R"("timing": {"seed": 9, "sizes": {"r": 4, "n": 1000}})").size(),
               R"("timing": {"seed": 9, "sizes": {"r": 4, "n": 5000}})");
  EXPECT_EQ(*out, want);  // key order and every other byte kept
  // A "timing" that is not the top-level key is not touched.
  auto nested = RewriteTimingSizes(R"({"notes": {"timing": {"sizes": {"n": 1}}}})", {{"n", 2}}, "x.json");
  ASSERT_FALSE(nested.ok());
  EXPECT_EQ(nested.status().message(), "x.json: timing: no top-level \"timing\" object to rewrite");
  auto no_sizes = RewriteTimingSizes(R"({"timing": {"seed": 1}})", {{"n", 2}}, "x.json");
  ASSERT_FALSE(no_sizes.ok());
  EXPECT_EQ(no_sizes.status().message(), "x.json: timing.sizes: missing or not an object");
}

// A reference whose time grows as n^2 (1 ms at n = 1000): the calibration
// learns the exponent and lands in [target, 3 x target].
TEST(CalibrateTest, ReachesTheTargetRange) {
  Problem p = MakeProblem(SpecText());
  int runs = 0;
  CalibrateOptions o;
  o.target_ms = 100;
  o.time_reference = [&](const Problem& q) -> Result<double> {
    ++runs;
    double n = static_cast<double>(q.spec.timing.sizes.at("n"));
    EXPECT_EQ(q.spec.timing.sizes.at("r"), 4);  // the parameter never moves
    return 1e-6 * n * n;
  };
  auto c = CalibrateProblem(p, o);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_TRUE(c->changed);
  EXPECT_DOUBLE_EQ(c->old_ms, 1.0);
  EXPECT_GE(c->new_ms, 100.0);
  EXPECT_LE(c->new_ms, 300.0);
  EXPECT_LE(runs, 4);
  EXPECT_EQ(c->note.rfind("scaled x", 0), 0u) << c->note;
  // Already at or above the target (even far above): unchanged, one run.
  for (int64_t n : {12000, 100000}) {
    runs = 0;
    auto same = CalibrateProblem(MakeProblem(SpecText("int32", n)), o);
    ASSERT_TRUE(same.ok());
    EXPECT_FALSE(same->changed) << n;
    EXPECT_EQ(same->note, "at target");
    EXPECT_EQ(runs, 1);
  }
}

// The spec's limits stop the scaling where they bind (an int16 size), and
// a reference that fails is an error with the harness's message.
TEST(CalibrateTest, LimitsAndFailures) {
  CalibrateOptions o;
  o.time_reference = [](const Problem& q) -> Result<double> {
    return 1e-4 * static_cast<double>(q.spec.timing.sizes.at("n"));
  };
  auto c = CalibrateProblem(MakeProblem(SpecText("int16")), o);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_TRUE(c->changed);
  EXPECT_LE(c->new_sizes.at("n"), 32767);
  EXPECT_GT(c->new_sizes.at("n"), 30000);
  EXPECT_EQ(c->note.rfind("limited: ", 0), 0u) << c->note;
  EXPECT_NE(c->note.find("int16"), std::string::npos) << c->note;

  // The memory cap: two float arrays of n at most 1 MiB per copy -> n <= 131072.
  o.max_bytes = int64_t{1} << 20;
  auto capped = CalibrateProblem(MakeProblem(SpecText("int32")), o);
  ASSERT_TRUE(capped.ok()) << capped.status().message();
  EXPECT_LE(capped->new_sizes.at("n"), 131072);
  EXPECT_GT(capped->new_sizes.at("n"), 120000);
  EXPECT_NE(capped->note.find("--max-mib"), std::string::npos) << capped->note;
  o.max_bytes = 0;

  o.time_reference = [](const Problem&) -> Result<double> { return Status::Internal("reference crashed"); };
  auto bad = CalibrateProblem(MakeProblem(SpecText()), o);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "reference crashed");
  o.time_reference = nullptr;
  EXPECT_FALSE(CalibrateProblem(MakeProblem(SpecText()), o).ok());
}

}  // namespace
}  // namespace regrapht::bench
