#include "verify/spec/timing_sizes.h"

#include <gtest/gtest.h>

#include <vector>

namespace regrapht::verify {
namespace {

// x (input) and y (output) of n floats, and a parameter r (0 in the tests,
// `timing_r` in the timing input); `x_extra` is appended to x's entry.
Problem MakeProblem(int64_t timing_n, const std::string& x_extra = "", int timing_r = 4) {
  std::string text = R"({
  "format": "regrapht-problem",
  "version": 1,
  "name": "t",
  "function": "f",
  "args": [
    {"name": "n", "role": "size", "type": "int32"},
    {"name": "r", "role": "size", "type": "int32"},
    {"name": "x", "role": "input", "type": "float", "pass": "pointer", "length": "n")" +
                     x_extra + R"(},
    {"name": "y", "role": "output", "type": "float", "pass": "pointer", "length": "n"}
  ],
  "tests": [{"sizes": {"n": 1, "r": 0}, "seed": 1}, {"sizes": {"n": 33, "r": 0}, "seed": 2},
            {"sizes": {"n": 1000, "r": 0}, "seed": 3}],
  "timing": {"sizes": {"n": )" + std::to_string(timing_n) +
                     R"(, "r": )" + std::to_string(timing_r) + R"(}, "seed": 9}
}
)";
  Problem p;
  p.dir = "/nowhere/t";
  p.spec_text = text;
  auto spec = ParseProblemSpec(text, "t/problem.json");
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  if (spec.ok()) p.spec = *spec;
  return p;
}

constexpr int64_t kMiB = int64_t{1} << 20;

TEST(TimingSizesTest, AnInputThatFitsIsLeftAlone) {
  Problem p = MakeProblem(1 << 20);  // 8 MiB: x and y
  auto fit = FitTimingInput(p, 128 * kMiB);
  ASSERT_TRUE(fit.ok()) << fit.status().message();
  EXPECT_FALSE(fit->scaled);
  EXPECT_EQ(fit->problem.spec_text, p.spec_text);
  EXPECT_EQ(fit->note, "");
  auto off = FitTimingInput(MakeProblem(1 << 28), 0);  // 0: never scaled
  ASSERT_TRUE(off.ok());
  EXPECT_FALSE(off->scaled);
}

TEST(TimingSizesTest, ALargeInputIsScaledToTheLargestPowerOfTwoThatFits) {
  Problem p = MakeProblem(int64_t{1} << 27);  // 1 GiB
  auto fit = FitTimingInput(p, 128 * kMiB);
  ASSERT_TRUE(fit.ok()) << fit.status().message();
  ASSERT_TRUE(fit->scaled);
  EXPECT_EQ(fit->problem.spec.timing.sizes.at("n"), int64_t{1} << 24);  // 2 x 64 MiB
  EXPECT_EQ(fit->problem.spec.timing.sizes.at("r"), 4);                 // a parameter stays
  EXPECT_EQ(fit->problem.spec.timing.seed, 9);
  EXPECT_EQ(fit->note, "n=16777216 r=4 of n=134217728 r=4");
  // The text says the same (caches key on it) and parses to the same spec.
  auto again = ParseProblemSpec(fit->problem.spec_text, "t/problem.json");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->timing.sizes, fit->problem.spec.timing.sizes);
  EXPECT_NE(fit->problem.spec_text, p.spec_text);
  EXPECT_EQ(fit->problem.spec.tests.size(), p.spec.tests.size());
  // Odd sizes stay odd sizes (partial blocks) and stay within the cap.
  auto odd = FitTimingInput(MakeProblem(100000007), 128 * kMiB);
  ASSERT_TRUE(odd.ok() && odd->scaled);
  int64_t n = odd->problem.spec.timing.sizes.at("n");
  EXPECT_LE(2 * 4 * n, 128 * kMiB);
  EXPECT_GT(2 * 4 * n, 120 * kMiB);
  EXPECT_NE(n % 32, 0);
}

TEST(TimingSizesTest, TheSpecsRangesBoundTheScaling) {
  // x's values lie in [r * 2^26, n]: with r = 1 the timing input is invalid
  // below n = 2^26, and nothing valid fits in 128 MiB, so it stays as it is.
  Problem p = MakeProblem(int64_t{1} << 27, R"(, "values": {"dist": "uniform", "min": "r*67108864", "max": "n"})", 1);
  auto fit = FitTimingInput(p, 128 * kMiB);
  ASSERT_TRUE(fit.ok()) << fit.status().message();
  EXPECT_FALSE(fit->scaled);
  EXPECT_EQ(fit->problem.spec.timing.sizes.at("n"), int64_t{1} << 27);
}

// The emulator's rungs: the fitted input and its halvings, ascending, down to
// the last one that still needs more bytes than the largest test case (n =
// 1000: 8000 bytes), each naming its sizes against the spec's.
TEST(TimingSizesTest, RungsHalveTheFittedInputDownToTheTestSizes) {
  Problem p = MakeProblem(int64_t{1} << 27);  // 1 GiB, fitted to 2^24
  auto fit = FitTimingInput(p, 128 * kMiB);
  ASSERT_TRUE(fit.ok()) << fit.status().message();
  auto rungs = TimingRungs(p, *fit, 4);
  ASSERT_TRUE(rungs.ok()) << rungs.status().message();
  ASSERT_EQ(rungs->size(), 4u);
  std::vector<int64_t> n;
  for (const auto& r : *rungs) n.push_back(r.test.sizes.at("n"));
  EXPECT_EQ(n, (std::vector<int64_t>{int64_t{1} << 21, int64_t{1} << 22, int64_t{1} << 23, int64_t{1} << 24}));
  EXPECT_EQ(rungs->front().note, "n=2097152 r=4 of n=134217728 r=4");
  EXPECT_EQ(rungs->back().note, fit->note);
  for (const auto& r : *rungs) {
    EXPECT_EQ(r.test.seed, 9);
    EXPECT_EQ(r.test.sizes.at("r"), 4);  // a parameter stays
  }
  // Unscaled: the spec's own sizes are the top rung (no note); the halvings
  // stop above the largest test case (n = 1000).
  Problem small = MakeProblem(4096);
  auto same = FitTimingInput(small, 128 * kMiB);
  ASSERT_TRUE(same.ok());
  auto few = TimingRungs(small, *same);
  ASSERT_TRUE(few.ok());
  n.clear();
  for (const auto& r : *few) n.push_back(r.test.sizes.at("n"));
  EXPECT_EQ(n, (std::vector<int64_t>{1024, 2048, 4096}));
  EXPECT_EQ(few->back().note, "");
  EXPECT_EQ(few->front().note, "n=1024 r=4 of n=4096 r=4");
  // A timing input no larger than the tests: itself only.
  Problem tiny = MakeProblem(1000);
  auto one = TimingRungs(tiny, FittedTiming{tiny, false, "", {}});
  ASSERT_TRUE(one.ok());
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ(one->front().test.sizes.at("n"), 1000);
}

}  // namespace
}  // namespace regrapht::verify
