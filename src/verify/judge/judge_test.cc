// The verdict logic as pure functions: one case per class of docs/trust.md
// that the judge (rather than the build or the sandbox) must decide, over
// hand-made process results and records. No processes run here.
#include "verify/judge/judge.h"

#include <gtest/gtest.h>

#include "verify/test_util.h"

namespace regrapht::verify {
namespace {

using testing_util::LoadBundled;

std::string Floats(const std::vector<float>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * 4);
}

DriverRecords Records(const std::vector<float>& y0, const std::vector<float>& y1, int cases) {
  DriverRecords r;
  r.began = r.finished = true;
  for (int c = 0; c < cases; ++c) {
    r.Add({c, 0, "y", 4, y0.size(), Floats(y0)});
    r.Add({c, 1, "y", 4, y1.size(), Floats(y1)});
  }
  return r;
}

CommandResult Exited(int code) {
  CommandResult p;
  p.exit_code = code;
  p.wall_ms = 1000;
  return p;
}

VerifyResult Classify(const CommandResult& p, const DriverRecords* r, bool* decided) {
  VerifyResult res;
  std::string err;
  *decided = ClassifyRun({p, r, err, 10, "sm_90"}, &res);
  return res;
}

TEST(JudgeTest, NoGpuOnlyFromASealedStreamAndExit3) {
  DriverRecords r;
  r.nogpu = "35 cudaErrorInsufficientDriver";
  r.finished = true;
  bool decided = false;
  EXPECT_EQ(Classify(Exited(3), &r, &decided).verdict, Verdict::kCompiledOnly);
  EXPECT_TRUE(decided);
  r.finished = false;  // unsealed: anyone could have written it
  EXPECT_EQ(Classify(Exited(3), &r, &decided).verdict, Verdict::kRuntimeError);
  r.finished = true;  // sealed, but the driver did not exit with its no-GPU status
  EXPECT_EQ(Classify(Exited(0), &r, &decided).verdict, Verdict::kRuntimeError);
}

TEST(JudgeTest, RunFailures) {
  bool decided = false;
  CommandResult t = Exited(0);
  t.timed_out = true;
  DriverRecords r = Records({1}, {1}, 1);
  EXPECT_EQ(Classify(t, &r, &decided).verdict, Verdict::kTimeout);
  CommandResult crash;
  crash.term_signal = 11;
  EXPECT_EQ(Classify(crash, &r, &decided).verdict, Verdict::kRuntimeError);
  EXPECT_EQ(Classify(Exited(0), nullptr, &decided).verdict, Verdict::kRuntimeError);
  r.cuda_error = "0 0 cudaErrorIllegalAddress";
  EXPECT_EQ(Classify(Exited(5), &r, &decided).verdict, Verdict::kRuntimeError);
  DriverRecords fine = Records({1}, {1}, 1);
  Classify(Exited(0), &fine, &decided);
  EXPECT_FALSE(decided);
}

TEST(JudgeTest, TimesLongerThanTheProcessAreImplausible) {
  DriverRecords r = Records({1}, {1}, 1);
  r.times_ms = {800, 800};
  bool decided = false;
  EXPECT_EQ(Classify(Exited(0), &r, &decided).verdict, Verdict::kImplausibleSpeed);
}

TEST(JudgeTest, WrongNondeterministicAndMutated) {
  Problem p = LoadBundled("saxpy");
  int cases = static_cast<int>(p.spec.tests.size());
  DriverRecords ref = Records({1, 2, 3}, {1, 2, 3}, cases);
  JudgeOptions jo;
  jo.timing = false;
  VerifyResult res;
  Judge(p.spec, ref, Records({1, 2, 4}, {1, 2, 4}, cases), jo, &res);
  EXPECT_EQ(res.verdict, Verdict::kWrongAnswer);
  VerifyResult nd;
  Judge(p.spec, ref, Records({1, 2, 3}, {1, 2, 4}, cases), jo, &nd);
  EXPECT_EQ(nd.verdict, Verdict::kNondeterministic);
  DriverRecords m = Records({1, 2, 3}, {1, 2, 3}, cases);
  m.mutated.push_back("0 0 x");
  VerifyResult mr;
  Judge(p.spec, ref, m, jo, &mr);
  EXPECT_EQ(mr.verdict, Verdict::kWrongAnswer);
  VerifyResult ok;
  Judge(p.spec, ref, Records({1, 2, 3}, {1, 2, 3}, cases), jo, &ok);
  EXPECT_EQ(ok.verdict, Verdict::kCorrect);
}

// The emulator's timing-size rungs (cases tests..tests+2): every rung the
// candidate ran is checked, the smallest must have run, and the verdict names
// the largest one that ran.
TEST(JudgeTest, EmulatedTimingSizeRungsThatRanAreAllChecked) {
  Problem p = LoadBundled("saxpy");
  const int tests = static_cast<int>(p.spec.tests.size());
  DriverRecords ref = Records({1, 2, 3}, {1, 2, 3}, tests + 3);  // the reference runs every rung
  JudgeOptions jo;
  jo.timing = false;
  jo.emulate = true;
  jo.timing_size_case = true;
  jo.timing_size_notes = {"n=256 of n=1024", "n=512 of n=1024", ""};
  auto ran = [&](std::vector<int> rungs, std::vector<float> y) {
    DriverRecords r = Records({1, 2, 3}, {1, 2, 3}, tests);
    for (int k : rungs) {
      r.Add({tests + k, 0, "y", 4, y.size(), Floats(y)});
      r.Add({tests + k, 1, "y", 4, y.size(), Floats(y)});
    }
    VerifyResult res;
    Judge(p.spec, ref, r, jo, &res);
    return res;
  };
  VerifyResult two = ran({0, 1}, {1, 2, 3});
  EXPECT_EQ(two.verdict, Verdict::kCorrect) << two.detail;
  EXPECT_NE(two.detail.find("the timing-size input scaled down for the emulator (n=512 of n=1024)"),
            std::string::npos)
      << two.detail;
  VerifyResult all = ran({0, 2}, {1, 2, 3});
  EXPECT_EQ(all.verdict, Verdict::kCorrect) << all.detail;
  EXPECT_NE(all.detail.find("and the timing-size input in the CPU emulator"), std::string::npos) << all.detail;
  VerifyResult wrong = ran({0, 1}, {1, 2, 4});
  EXPECT_EQ(wrong.verdict, Verdict::kWrongAnswer);
  EXPECT_NE(wrong.detail.find("the timing-size input"), std::string::npos) << wrong.detail;
  VerifyResult none = ran({}, {});
  EXPECT_EQ(none.verdict, Verdict::kRuntimeError);
  EXPECT_NE(none.detail.find("missing output records for 'y' in the timing-size input"), std::string::npos)
      << none.detail;
  // None ran because the driver's budget said so: correct on the tests, and the verdict says why.
  DriverRecords skipped = Records({1, 2, 3}, {1, 2, 3}, tests);
  skipped.events.push_back("emu_rung none predicted 14883395602 budget 4000000000 exponent 3.00");
  jo.timing_size_smallest = "n=256";
  VerifyResult sk;
  Judge(p.spec, ref, skipped, jo, &sk);
  EXPECT_EQ(sk.verdict, Verdict::kCorrect) << sk.detail;
  EXPECT_EQ(sk.detail, "correct on " + std::to_string(tests) +
                           " test cases in the CPU emulator (correctness only, not a GPU result); the timing-size "
                           "input (n=256) was not run: the test cases predict about 14883 million checked accesses "
                           "for it, more than the budget of 4000 million (--emulate-max-work)");
}

// A correct result whose timing evidence is checked.
struct TimingCase {
  const char* name;
  std::vector<double> reported;   // per repetition, as the driver said
  std::vector<double> gaps;       // harness-observed ms between t0 and t1
  int64_t bytes = 0;
  Verdict want;
};

TEST(JudgeTest, TimingEvidence) {
  const TimingCase cases[] = {
      {"honest", {3, 3, 3}, {3.1, 3.05, 3.2}, 1 << 20, Verdict::kCorrect},
      {"forged small times", {0.001, 0.001, 0.001}, {40, 41, 40}, 1 << 20, Verdict::kImplausibleSpeed},
      {"below the bandwidth floor", {0.001, 0.001, 0.001}, {0.002, 0.002, 0.002}, int64_t{1} << 32,
       Verdict::kImplausibleSpeed},
      {"short calls with pipe latency", {0.02, 0.02, 0.02}, {0.9, 1.1, 1.0}, 1 << 10, Verdict::kCorrect},
  };
  for (const auto& c : cases) {
    DriverRecords r;
    std::vector<std::pair<size_t, double>> arrivals;
    size_t off = 0;
    double now = 10;
    for (size_t i = 0; i < c.reported.size(); ++i) {
      off += 10;
      arrivals.push_back({off, now});
      size_t t0 = off;
      now += c.gaps[i];
      off += 20;
      arrivals.push_back({off, now});
      r.reps.push_back({static_cast<int>(i), c.reported[i], t0, off});
      r.times_ms.push_back(c.reported[i]);
      now += 5;
    }
    VerifyResult res;
    res.verdict = Verdict::kCorrect;
    res.speedup = 100;
    JudgeOptions jo;
    jo.bytes_moved = c.bytes;
    CheckTimingEvidence(r, arrivals, jo, &res);
    EXPECT_EQ(res.verdict, c.want) << c.name << ": " << res.detail;
    if (c.want != Verdict::kCorrect) {
      EXPECT_EQ(res.speedup, 0) << c.name;
    }
  }
}

TEST(JudgeTest, SamplesThatDisagreeWithTheirRepetitionsAreImplausible) {
  DriverRecords r;
  r.reps = {{0, 1.0, 10, 20}};
  r.times_ms = {0.0001};  // the "T" record was edited after the fact
  VerifyResult res;
  res.verdict = Verdict::kCorrect;
  CheckTimingEvidence(r, {{10, 1}, {20, 2}}, JudgeOptions{}, &res);
  EXPECT_EQ(res.verdict, Verdict::kImplausibleSpeed);
}


// The drop-in form's kernel figure (CUPTI, "k1" records beside each "t1"):
// present for every repetition -> kernel_timing and kernel_speedup beside the
// call's; missing for some -> absent (never zero), the call still counts;
// longer than the call -> implausible. The kernel form must report every launch.
DriverRecords Timed(const std::vector<double>& call_ms, const std::vector<double>& kernel_ms, int cases) {
  DriverRecords r = Records({1, 2, 3}, {1, 2, 3}, cases);
  for (int set : {kTimingCaseA, kTimingCaseA + 1}) r.Add({set, 0, "y", 4, 3, Floats({1, 2, 3})});
  r.times_ms = call_ms;
  r.kernel_ms = kernel_ms;
  return r;
}

TEST(JudgeTest, DropInKernelFigureIsBesideTheCallAndAbsentNotZero) {
  Problem p = LoadBundled("saxpy");
  int cases = static_cast<int>(p.spec.tests.size());
  DriverRecords ref = Timed({10, 10, 10}, {}, cases);
  JudgeOptions jo;
  VerifyResult both;
  Judge(p.spec, ref, Timed({2, 2, 2}, {0.5, 0.5, 0.5}, cases), jo, &both);
  ASSERT_EQ(both.verdict, Verdict::kCorrect) << both.detail;
  EXPECT_DOUBLE_EQ(both.speedup, 5.0);  // the call's: the headline of the drop-in form
  ASSERT_TRUE(both.kernel_timing.has_value());
  EXPECT_DOUBLE_EQ(both.kernel_speedup, 20.0);
  EXPECT_TRUE(both.transfers_timed);
  EXPECT_NE(both.detail.find("kernel speedup 20.00x"), std::string::npos) << both.detail;

  VerifyResult none;
  Judge(p.spec, ref, Timed({2, 2, 2}, {}, cases), jo, &none);
  EXPECT_EQ(none.verdict, Verdict::kCorrect);
  EXPECT_FALSE(none.kernel_timing.has_value());
  EXPECT_EQ(none.kernel_speedup, 0);

  VerifyResult partial;
  Judge(p.spec, ref, Timed({2, 2, 2}, {0.5, 0.5}, cases), jo, &partial);
  EXPECT_EQ(partial.verdict, Verdict::kCorrect) << partial.detail;
  EXPECT_DOUBLE_EQ(partial.speedup, 5.0);
  EXPECT_FALSE(partial.kernel_timing.has_value());
  EXPECT_NE(partial.detail.find("kernel time measured for 2 of 3 timed calls"), std::string::npos) << partial.detail;

  VerifyResult longer;
  Judge(p.spec, ref, Timed({2, 2, 2}, {0.5, 3, 0.5}, cases), jo, &longer);
  EXPECT_EQ(longer.verdict, Verdict::kImplausibleSpeed);
  EXPECT_EQ(longer.speedup, 0);

  JudgeOptions kf;
  kf.kernel_form = true;
  VerifyResult kpartial;
  Judge(p.spec, ref, Timed({2, 2, 2}, {0.5, 0.5}, cases), kf, &kpartial);
  EXPECT_EQ(kpartial.verdict, Verdict::kImplausibleSpeed);
}

// The kernel-only floor: a kernel cannot write its outputs (beyond L2)
// faster than the device's memory bandwidth. A host computation behind a
// token kernel once read 24,041x kernel-only on the H200.
TEST(JudgeTest, AKernelFasterThanTheDeviceCanWriteItsOutputsIsImplausible) {
  Problem p = LoadBundled("saxpy");
  int cases = static_cast<int>(p.spec.tests.size());
  DriverRecords ref = Timed({10, 10, 10}, {}, cases);
  JudgeOptions jo;
  jo.output_bytes = int64_t{256} << 20;        // 256 MiB to write
  jo.device_l2_bytes = int64_t{50} << 20;      // an H200's L2
  jo.device_bytes_per_s = 4.8e12;              // its HBM3e: 0.045 ms for the 206 MiB past L2
  VerifyResult token;
  Judge(p.spec, ref, Timed({2, 2, 2}, {0.001, 0.001, 0.001}, cases), jo, &token);
  EXPECT_EQ(token.verdict, Verdict::kImplausibleSpeed);
  EXPECT_EQ(token.kernel_speedup, 0);
  EXPECT_FALSE(token.kernel_timing.has_value());
  EXPECT_NE(token.detail.find("the kernels did not produce the outputs"), std::string::npos) << token.detail;
  VerifyResult honest;
  Judge(p.spec, ref, Timed({2, 2, 2}, {0.06, 0.06, 0.06}, cases), jo, &honest);
  EXPECT_EQ(honest.verdict, Verdict::kCorrect) << honest.detail;
  // Outputs that fit in L2, or an unknown bandwidth: no floor.
  jo.output_bytes = int64_t{8} << 20;
  VerifyResult small;
  Judge(p.spec, ref, Timed({2, 2, 2}, {0.001, 0.001, 0.001}, cases), jo, &small);
  EXPECT_EQ(small.verdict, Verdict::kCorrect) << small.detail;
  EXPECT_EQ(KernelFloorViolation(1e-9, JudgeOptions{}), "");
}

TEST(JudgeTest, BuildFailuresNameWhatFailed) {
  Problem p = LoadBundled("saxpy");
  VerifyResult r;
  JudgeCompileFailure("timed out after 180 s (--compile-timeout)", "nvcc: busy\n", &r);
  EXPECT_EQ(r.verdict, Verdict::kTimeout);
  EXPECT_EQ(r.detail, "compilation timed out after 180 s (--compile-timeout)");
  r = {};
  JudgeCompileFailure("exit status 1", "candidate.cu(3): warning: w\ncandidate.cu(4): error: x undefined\n", &r);
  EXPECT_EQ(r.verdict, Verdict::kCompileError);
  EXPECT_EQ(r.detail, "candidate.cu(4): error: x undefined");
  EXPECT_EQ(FirstError("first\nsecond\n"), "first");
  EXPECT_EQ(FirstError(""), "");
  r = {};
  JudgeLinkFailure(p.spec, false, "ld: undefined reference to `" + p.spec.function + "(int, float, float const*)'", &r);
  EXPECT_EQ(r.verdict, Verdict::kCompileError);
  EXPECT_EQ(r.detail, "link: the candidate does not define `" + p.spec.Signature() +
                          "` (same name, parameter types and constness as the reference)");
  r = {};
  JudgeStaticFindings({"object-symbols: fopen", "object-hooks: .fini_array"}, &r);
  EXPECT_EQ(r.verdict, Verdict::kStaticReject);
  EXPECT_EQ(r.detail, "object-symbols: fopen");
  EXPECT_EQ(r.findings.size(), 2u);
  r = {};
  JudgeNotEmulated("sm_90", "inline PTX", "", &r);
  EXPECT_EQ(r.verdict, Verdict::kNotEmulated);
  EXPECT_EQ(r.detail, "compiled for sm_90; not emulated (inline PTX): correctness and speed NOT verified");
  r = {};
  r.env.archs = "sm_90";
  JudgeCompiledOnly(true, &r);
  EXPECT_EQ(r.verdict, Verdict::kCompiledOnly);
  EXPECT_EQ(r.detail, "compiled for sm_90 (device code only; not linked, not run)");
}

TEST(JudgeTest, AFailedCheckOverrulesTheGpuVerdictAndItsSpeedup) {
  VerifyResult gpu;
  gpu.verdict = Verdict::kCorrect;
  gpu.speedup = 12;
  gpu.kernel_speedup = 30;
  gpu.candidate_timing = Summarize({1.0, 1.0, 1.0});
  VerifyResult emu;
  emu.verdict = Verdict::kHostCompute;
  emu.detail = "output y[0] changed on the host";
  OverruleGpuVerdict(emu, "the CPU emulator's checks", &gpu);
  EXPECT_EQ(gpu.verdict, Verdict::kHostCompute);
  EXPECT_EQ(gpu.detail, "correct on the GPU, but not under the CPU emulator's checks: output y[0] changed on the host");
  EXPECT_EQ(gpu.speedup, 0);
  EXPECT_EQ(gpu.kernel_speedup, 0);
  EXPECT_FALSE(gpu.candidate_timing.has_value());
}

TEST(JudgeTest, SanitizerFindingsDecideOnlyWhenReported) {
  VerifyResult r;
  CommandResult clean = Exited(0);
  EXPECT_FALSE(JudgeSanitizerRun("memcheck", clean, &r));
  CommandResult found = Exited(89);
  found.stdout_text = "========= COMPUTE-SANITIZER\n========= Invalid __global__ read of size 4 bytes\n";
  EXPECT_TRUE(JudgeSanitizerRun("memcheck", found, &r));
  EXPECT_EQ(r.verdict, Verdict::kRuntimeError);
  EXPECT_EQ(r.detail, "compute-sanitizer memcheck: Invalid __global__ read of size 4 bytes");
}

}  // namespace
}  // namespace regrapht::verify
