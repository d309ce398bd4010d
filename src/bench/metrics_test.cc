#include "bench/metrics.h"

#include <gtest/gtest.h>

#include <cmath>

namespace regrapht::bench {
namespace {

TEST(MetricsTest, PassAtKMatchesHandValues) {
  EXPECT_DOUBLE_EQ(PassAtK(10, 3, 1), 0.3);
  EXPECT_NEAR(PassAtK(10, 3, 5), 1.0 - 21.0 / 252.0, 1e-12);  // 1 - C(7,5)/C(10,5)
  EXPECT_DOUBLE_EQ(PassAtK(5, 0, 1), 0.0);
  EXPECT_DOUBLE_EQ(PassAtK(3, 3, 1), 1.0);
  EXPECT_DOUBLE_EQ(PassAtK(4, 2, 3), 1.0);  // n - c < k
  EXPECT_DOUBLE_EQ(PassAtK(1, 0, 2), 0.0);  // n < k: did any pass
  EXPECT_DOUBLE_EQ(PassAtK(1, 1, 2), 1.0);
}

TEST(MetricsTest, SpeedupAtKIsExpectedBestOfK) {
  // Speedups 4 and 2 (runtimes 2 and 4 against a baseline of 8).
  EXPECT_DOUBLE_EQ(SpeedupAtK({2, 4}, 8, 1), 3.0);  // mean
  EXPECT_DOUBLE_EQ(SpeedupAtK({2, 4}, 8, 2), 4.0);  // best of both
  // Speedups 1, 2, 4: best of 2 over the 3 pairs = (2 + 4 + 4) / 3.
  EXPECT_NEAR(SpeedupAtK({8, 4, 2}, 8, 2), 10.0 / 3.0, 1e-12);
  EXPECT_DOUBLE_EQ(SpeedupAtK({8, 4, 2}, 8, 3), 4.0);
  EXPECT_DOUBLE_EQ(SpeedupAtK({8}, 8, 5), 1.0);  // k > n: the best there is
}

ResultRow R(const std::string& method, const std::string& problem, const std::string& tier, int sample,
            const std::string& verdict, double speedup, double ref_ms = 10) {
  ResultRow r;
  r.key = {"s", problem, method, "m", "c", sample};
  r.tier = tier;
  r.verdict = verdict;
  r.speedup = speedup;
  r.reference_ms = ref_ms;
  r.candidate_ms = speedup > 0 ? ref_ms / speedup : 0;
  r.tokens_prompt = 100;
  r.tokens_generated = 50;
  r.verifications = 2;
  return r;
}

TEST(MetricsTest, UntimedCorrectSamplesCountForPassNotSpeed) {
  // --emulate / --no-timing: correct, speedup 0 (not measured).
  std::vector<ResultRow> rows = {R("e", "p1", "easy", 0, "correct", 0), R("e", "p2", "easy", 0, "correct", 3),
                                 R("e", "p3", "easy", 0, "wrong_answer", 0)};
  auto groups = ComputeMetrics(rows, MetricsOptions{});
  ASSERT_EQ(groups.size(), 1u);
  const MetricSet& m = groups[0].overall;
  EXPECT_EQ(m.solved, 2);
  EXPECT_EQ(m.untimed, 1);
  EXPECT_EQ(m.timed_solved, 1);
  EXPECT_NEAR(m.pass_at.at(1), 2.0 / 3, 1e-12);
  EXPECT_DOUBLE_EQ(m.speedup_at.at(1), 3.0);  // over p2 only, not dragged to 1.5 by p1's 0
  EXPECT_DOUBLE_EQ(m.geomean_speedup, 3.0);
}

// Kernel-only figures (CUPTI in the drop-in form) beside the call's, by hand:
// p1 has kernel times 1 and 4 ms against 8 ms (8x, 2x: speedup@1 5x), p2 one
// of 2 ms against 4 ms (2x), p3 a correct sample without one (absent, never
// a zero). Kernel speedup@1 over p1, p2 = (5 + 2) / 2; geomean sqrt(5 * 2).
// --timing kernel: every speed metric from those, p3 untimed.
ResultRow WithKernel(ResultRow r, double kernel_ms) {
  r.result_json = "{\"kernel_timing\": {\"median_ms\": " + std::to_string(kernel_ms) +
                  "}, \"kernel_speedup\": " + std::to_string(r.reference_ms / kernel_ms) + "}";
  return r;
}

TEST(MetricsTest, KernelFiguresBesideTheCallAndKernelMode) {
  std::vector<ResultRow> rows = {WithKernel(R("m", "p1", "", 0, "correct", 2, 8), 1),
                                 WithKernel(R("m", "p1", "", 1, "correct", 1, 8), 4),
                                 WithKernel(R("m", "p2", "", 0, "correct", 0.5, 4), 2),
                                 R("m", "p3", "", 0, "correct", 3, 6)};
  EXPECT_FALSE(KernelFigureOf(rows[3]).has_value());
  ASSERT_TRUE(KernelFigureOf(rows[0]).has_value());
  EXPECT_DOUBLE_EQ(KernelFigureOf(rows[0])->speedup, 8.0);
  auto call = ComputeMetrics(rows, MetricsOptions{});
  ASSERT_EQ(call.size(), 1u);
  const MetricSet& c = call[0].overall;
  EXPECT_EQ(c.timed_solved, 3);
  EXPECT_NEAR(c.speedup_at.at(1), (1.5 + 0.5 + 3) / 3, 1e-12);  // the call's, unchanged
  EXPECT_EQ(c.kernel_timed_solved, 2);
  EXPECT_NEAR(c.kernel_speedup_at_1, 3.5, 1e-12);
  EXPECT_NEAR(c.kernel_geomean_speedup, std::sqrt(10.0), 1e-12);

  MetricsOptions ko;
  ko.timing = "kernel";
  auto kernel = ComputeMetrics(rows, ko);
  const MetricSet& k = kernel[0].overall;
  EXPECT_EQ(k.solved, 3);
  EXPECT_EQ(k.timed_solved, 2);
  EXPECT_EQ(k.untimed, 1);  // p3: correct, no kernel time
  EXPECT_NEAR(k.speedup_at.at(1), 3.5, 1e-12);
  EXPECT_NEAR(k.geomean_speedup, std::sqrt(10.0), 1e-12);

  // No row with a kernel figure: absent (0 problems), not a zero speedup.
  auto none = ComputeMetrics({R("m", "p3", "", 0, "correct", 3, 6)}, MetricsOptions{});
  EXPECT_EQ(none[0].overall.kernel_timed_solved, 0);
}

TEST(MetricsTest, AggregatesPerGroupAndTier) {
  std::vector<ResultRow> rows = {
      R("a", "p1", "easy", 0, "correct", 4), R("a", "p1", "easy", 1, "wrong_answer", 0),
      R("a", "p2", "hard", 0, "correct", 0.5), R("a", "p2", "hard", 1, "correct", 2),
      R("a", "p3", "hard", 0, "compile_error", 0), R("a", "p3", "hard", 1, "compiled_only", 0),
      R("b", "p1", "easy", 0, "correct", 1)};
  MetricsOptions o;
  o.ks = {1, 2};
  o.bootstrap = 200;
  auto groups = ComputeMetrics(rows, o);
  ASSERT_EQ(groups.size(), 2u);
  const MetricSet& a = groups[0].overall;
  EXPECT_EQ(groups[0].method, "a");
  EXPECT_EQ(a.problems, 3);
  EXPECT_EQ(a.samples, 6);
  EXPECT_EQ(a.solved, 2);
  EXPECT_EQ(a.unverified, 1);
  EXPECT_NEAR(a.pass_at.at(1), (0.5 + 1.0 + 0.0) / 3, 1e-12);
  EXPECT_NEAR(a.pass_at.at(2), (1.0 + 1.0 + 0.0) / 3, 1e-12);
  // speedup@1 over solved problems: p1 -> 4, p2 -> mean(0.5, 2) = 1.25.
  EXPECT_NEAR(a.speedup_at.at(1), (4 + 1.25) / 2, 1e-12);
  EXPECT_NEAR(a.speedup_at.at(2), (4 + 2) / 2.0, 1e-12);
  EXPECT_NEAR(a.geomean_speedup, std::sqrt(4 * 1.25), 1e-12);
  // fast_1: p1 1/2, p2 1/2 (only 2 > 1), p3 0.
  EXPECT_NEAR(a.fast.at("1"), (0.5 + 0.5) / 3, 1e-12);
  EXPECT_NEAR(a.fast.at("2"), (0.5 + 0.0) / 3, 1e-12);
  // compile@1: p1 2/2, p2 2/2, p3 1/2 (compiled_only counts as compiled).
  EXPECT_NEAR(a.compile_at.at(1), (1 + 1 + 0.5) / 3, 1e-12);
  EXPECT_NEAR(a.tokens_per_solved, 6 * 150 / 2.0, 1e-12);
  EXPECT_NEAR(a.verifications_per_solved, 6 * 2 / 2.0, 1e-12);
  ASSERT_EQ(groups[0].by_tier.size(), 2u);
  EXPECT_EQ(groups[0].by_tier.at("hard").problems, 2);
  EXPECT_NEAR(groups[0].by_tier.at("hard").pass_at.at(1), 0.5, 1e-12);
  EXPECT_LE(a.pass_at_1_ci.lo, a.pass_at.at(1));
  EXPECT_GE(a.pass_at_1_ci.hi, a.pass_at.at(1));
}

// Hand-computed (docs/bench.md): compiled_only samples are neither passes
// nor failures; a problem with nothing but them leaves the pass@k average.
TEST(MetricsTest, CompiledOnlySamplesAreNeitherPassNorFail) {
  std::vector<ResultRow> rows = {R("a", "p1", "", 0, "correct", 2), R("a", "p1", "", 1, "compiled_only", 0),
                                 R("a", "p2", "", 0, "compiled_only", 0), R("a", "p3", "", 0, "wrong_answer", 0),
                                 R("a", "p3", "", 1, "not_emulated", 0)};
  MetricsOptions o;
  o.ks = {1, 2};
  auto groups = ComputeMetrics(rows, o);
  const MetricSet& m = groups[0].overall;
  EXPECT_EQ(m.verified_problems, 2);            // p1 (1 verified sample), p3 (1)
  EXPECT_DOUBLE_EQ(m.pass_at.at(1), 0.5);        // (1 + 0) / 2, not (1/2 + 0 + 0) / 3
  EXPECT_DOUBLE_EQ(m.pass_at.at(2), 0.5);        // n = 1 < k: did any pass
  EXPECT_DOUBLE_EQ(m.fast.at("1"), 0.5);         // p1: 1 of 1 verified sample above 1x; p3: 0
  EXPECT_DOUBLE_EQ(m.compile_at.at(1), 1.0);  // every sample compiled; all samples count here
  EXPECT_EQ(m.unverified, 3);
}

// geomean is over problems of the same speedup@1 figure the table shows
// (baseline: the problem's best reference median), not of per-sample ratios.
TEST(MetricsTest, GeomeanOfPerProblemSpeedupAt1) {
  // p1: reference medians 12 and 8 ms (best 8); candidates 2 and 4 ms ->
  // speedup@1 = mean(8/2, 8/4) = 3. p2: 10 / 5 = 2.
  ResultRow a = R("a", "p1", "", 0, "correct", 6, 12);
  a.candidate_ms = 2;
  ResultRow b = R("a", "p1", "", 1, "correct", 2, 8);
  b.candidate_ms = 4;
  std::vector<ResultRow> rows = {a, b, R("a", "p2", "", 0, "correct", 2, 10)};
  auto groups = ComputeMetrics(rows, MetricsOptions{});
  const MetricSet& m = groups[0].overall;
  EXPECT_DOUBLE_EQ(m.speedup_at.at(1), (3.0 + 2.0) / 2);
  EXPECT_NEAR(m.geomean_speedup, std::sqrt(3.0 * 2.0), 1e-12);  // per-sample ratios (6, 2) would give sqrt(4 * 2)
}

// Held-out figures by hand: p1 kept (search 8x, held-out 2x), p2 lost on
// held-out inputs (search 3x), p3 had no held-out run (failed at search time),
// p4 kept (search 2x, held-out 2x). Paired geomeans: sqrt(8*2) = 4 and 2.
TEST(MetricsTest, HeldOutFigures) {
  std::vector<ResultRow> rows = {R("x", "p1", "easy", 0, "correct", 2), R("x", "p2", "easy", 0, "wrong_answer", 0),
                                 R("x", "p3", "easy", 0, "compile_error", 0), R("x", "p4", "easy", 0, "correct", 2)};
  rows[0].search_verdict = "correct";
  rows[0].search_speedup = 8;
  rows[1].search_verdict = "correct";
  rows[1].search_speedup = 3;
  rows[3].search_verdict = "correct";
  rows[3].search_speedup = 2;
  auto g = ComputeMetrics(rows, {});
  ASSERT_EQ(g.size(), 1u);
  const MetricSet& m = g[0].overall;
  EXPECT_EQ(m.heldout_runs, 3);
  EXPECT_EQ(m.heldout_kept, 2);
  EXPECT_EQ(m.heldout_timed_pairs, 2);
  EXPECT_NEAR(m.search_geomean_paired, 4.0, 1e-12);
  EXPECT_NEAR(m.heldout_geomean_paired, 2.0, 1e-12);
  // The headline metrics are the held-out ones.
  EXPECT_DOUBLE_EQ(m.pass_at.at(1), 0.5);
  EXPECT_NEAR(m.geomean_speedup, 2.0, 1e-12);
  EXPECT_EQ(g[0].by_tier.at("easy").heldout_runs, 3);
}

TEST(MetricsTest, EvidenceLevels) {
  auto row = [](const std::string& verdict, double speedup, const std::string& gpu, bool emulated) {
    ResultRow r = R("a", "p", "", 0, verdict, speedup);
    r.env_json = gpu.empty() ? "{}" : "{\"gpu_name\": \"" + gpu + "\"}";
    r.result_json = emulated ? R"({"verdict": "correct", "emulated": true})" : "{}";
    return r;
  };
  EXPECT_EQ(EvidenceOf(row("correct", 3, "NVIDIA H200", false)), "gpu-timed");
  EXPECT_EQ(EvidenceOf(row("correct", 0, "NVIDIA H200", false)), "gpu-untimed");
  EXPECT_EQ(EvidenceOf(row("wrong_answer", 0, "NVIDIA H200", false)), "gpu-untimed");
  EXPECT_EQ(EvidenceOf(row("correct", 0, "regrapht CUDA emulator (CPU)", true)), "emulated");
  EXPECT_EQ(EvidenceOf(row("race", 0, "", false)), "emulated");
  EXPECT_EQ(EvidenceOf(row("compiled_only", 0, "", false)), "compiled-only");
  EXPECT_EQ(EvidenceOf(row("not_emulated", 0, "regrapht CUDA emulator (CPU)", true)), "compiled-only");
  EXPECT_EQ(EvidenceOf(row("compile_error", 0, "", false)), "compiled-only");
}

TEST(MetricsTest, BootstrapIsSeeded) {
  std::vector<ResultRow> rows;
  for (int p = 0; p < 20; ++p) rows.push_back(R("a", "p" + std::to_string(p), "", 0, p % 3 ? "correct" : "wrong_answer", 1 + p));
  auto g1 = ComputeMetrics(rows, {});
  auto g2 = ComputeMetrics(rows, {});
  EXPECT_EQ(g1[0].overall.speedup_at_1_ci.lo, g2[0].overall.speedup_at_1_ci.lo);
  EXPECT_LT(g1[0].overall.speedup_at_1_ci.lo, g1[0].overall.speedup_at_1_ci.hi);
}

}  // namespace
}  // namespace regrapht::bench
