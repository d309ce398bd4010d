// One verdict wherever the code runs (docs/trust.md): a candidate correct on
// the GPU must also pass the emulator's checks, or compute-sanitizer's where
// the emulator cannot run it. The GPU here is FakeGpuRunner: its runs
// answer correctly whatever the candidate is (the reference's program
// stands in), as the H200 did for host compute, out-of-bounds reads and
// unsynchronised warps; the emulator and the sandbox are real.
#include <gtest/gtest.h>

#include <cstdlib>

#include "core/strings.h"
#include "core/subprocess.h"
#include "regrapht/verify.h"
#include "verify/fake_gpu_runner_test_util.h"
#include "verify/test_util.h"

namespace regrapht {
namespace {

using testing_util::LoadBundled;
using testing_util::SourceDir;

std::string Cheat(const std::string& file) {
  auto s = ReadFile(SourceDir() / "tests" / "cheats" / "emulator" / file);
  EXPECT_TRUE(s.ok()) << file;
  return s.ok() ? *s : "";
}

class CrossCheckTest : public testing::Test {
 protected:
  // The reference's program, built once into a cache of its own (so that it
  // is the only one there): the stand-in for every GPU run.
  static void SetUpTestSuite() {
    auto dir = MakeTempDir("rg-cross-check-");
    ASSERT_TRUE(dir.ok());
    stand_in_cache_ = *dir;
    // A compute-sanitizer to be found (FakeGpuRunner answers for it).
    ASSERT_TRUE(WriteFile(stand_in_cache_ / "compute-sanitizer", "#!/bin/sh\nexit 99\n").ok());
    ::setenv("REGRAPHT_COMPUTE_SANITIZER", (stand_in_cache_ / "compute-sanitizer").c_str(), 1);
    VerifyOptions o;
    o.cache_dir = stand_in_cache_.string();
    auto runner = NewSubprocessRunner();
    Verifier v(o, runner.get());
    ASSERT_TRUE(v.CheckReference(LoadBundled("saxpy")).ok());
    for (const auto& e : fs::recursive_directory_iterator(stand_in_cache_ / "build")) {
      if (e.path().filename() != "meta.json") continue;
      auto meta = ReadFile(e.path());
      if (meta.ok() && meta->find("\"reference-link\"") != std::string::npos) stand_in_ = e.path().parent_path() / "reference";
    }
  }
  static void TearDownTestSuite() { (void)RemoveAll(stand_in_cache_); }
  void SetUp() override {
    ASSERT_FALSE(stand_in_.empty());
    gpu_ = std::make_unique<testing_util::FakeGpuRunner>(real_.get(), stand_in_);
  }
  VerifyOptions Options() const {
    VerifyOptions o;
    o.cache_dir = testing_util::TestCacheDir().string();
    o.max_reps = 3;
    o.min_reps = 2;
    o.max_timing_seconds = 0.05;
    o.reference_max_reps = 3;
    o.reference_max_timing_seconds = 0.05;
    return o;
  }
  VerifyResult Verify(const VerifyOptions& o, const std::string& source) {
    Verifier v(o, gpu_.get());
    auto r = v.Verify(problem_, source);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : VerifyResult{};
  }
  static inline fs::path stand_in_cache_, stand_in_;
  std::unique_ptr<CommandRunner> real_ = NewSubprocessRunner();
  Problem problem_ = LoadBundled("saxpy");
  std::unique_ptr<testing_util::FakeGpuRunner> gpu_;
};

TEST_F(CrossCheckTest, AnHonestCandidateIsCorrectOnTheGpuAndInTheEmulator) {
  VerifyResult r = Verify(Options(), *problem_.solution_source);
  EXPECT_EQ(r.verdict, Verdict::kCorrect) << r.detail;
  EXPECT_EQ(r.cross_checks, std::vector<std::string>{"emulated"});
  EXPECT_EQ(EvidenceLevel(r), "gpu-timed+emulated");
  EXPECT_GT(gpu_->gpu_runs(), 0);
  EXPECT_TRUE(gpu_->sanitizer_tools().empty());  // the emulator vouched
}

// What the H200 passed: host compute behind a token kernel, an
// out-of-bounds read, an unsynchronised warp reduction, a call that returns
// before its outputs are written. Each keeps the emulator's verdict.
TEST_F(CrossCheckTest, TheGpusCorrectVerdictNeedsTheEmulatorsChecks) {
  struct Case {
    const char* file;
    Verdict verdict;
  } cases[] = {{"host_compute_dummy_kernel.cu", Verdict::kHostCompute},
               {"oob_read_past_n.cu", Verdict::kRuntimeError},
               {"async_return_pinned_output.cu", Verdict::kWrongAnswer}};
  for (const auto& c : cases) {
    VerifyResult r = Verify(Options(), Cheat(c.file));
    EXPECT_EQ(r.verdict, c.verdict) << c.file << ": " << r.detail;
    EXPECT_EQ(r.detail.rfind("correct on the GPU, but not under the CPU emulator's checks: ", 0), 0u) << r.detail;
    EXPECT_EQ(r.speedup, 0);
    EXPECT_FALSE(r.candidate_timing.has_value());
  }
  // Without the cross-check the same run is correct and timed: the check is
  // what catches it.
  VerifyOptions off = Options();
  off.gpu_emulator_check = false;
  off.gpu_sanitizer = VerifyOptions::Sanitizer::kOff;
  VerifyResult r = Verify(off, Cheat("host_compute_dummy_kernel.cu"));
  EXPECT_EQ(r.verdict, Verdict::kCorrect) << r.detail;
  EXPECT_EQ(EvidenceLevel(r), "gpu-timed");
}

// Code the emulator cannot check (it differs between nvcc's passes) falls
// back to compute-sanitizer: its four tools on the GPU; a report is the
// verdict, a clean run the evidence.
TEST_F(CrossCheckTest, WhereTheEmulatorCannotRunItComputeSanitizerDecides) {
  const std::string source = Cheat("pass_same_in_every_pass.cu");
  std::string arch_branch = source;
  // Harmless pass-dependent lines: the emulator refuses them, the GPU runs them.
  arch_branch = ReplaceAll(arch_branch, "#ifndef BLOCK",
                           "__host__ __device__ inline float One() {\n#ifdef __CUDA_ARCH__\n  return 1.0f;\n#else\n"
                           "  return 1.0f;\n#endif\n}\n#ifndef BLOCK");
  arch_branch = ReplaceAll(arch_branch, "y[i] = a * x[i] + y[i];", "y[i] = a * x[i] * One() + y[i];");
  VerifyResult clean = Verify(Options(), arch_branch);
  EXPECT_EQ(clean.verdict, Verdict::kCorrect) << clean.detail;
  EXPECT_EQ(EvidenceLevel(clean), "gpu-timed+sanitized");
  EXPECT_EQ(gpu_->sanitizer_tools(), (std::vector<std::string>{"memcheck", "racecheck", "initcheck", "synccheck"}));

  gpu_->SetSanitizer(89,
                     "========= COMPUTE-SANITIZER\n"
                     "========= Invalid __global__ read of size 4 bytes\n"
                     "=========     at k(int, float, const float *, float *)+0x70\n"
                     "========= ERROR SUMMARY: 1 error\n");
  VerifyResult bad = Verify(Options(), arch_branch);
  EXPECT_EQ(bad.verdict, Verdict::kRuntimeError) << bad.detail;
  EXPECT_NE(bad.detail.find("compute-sanitizer memcheck: Invalid __global__ read of size 4 bytes"), std::string::npos)
      << bad.detail;

  VerifyOptions none = Options();
  none.gpu_sanitizer = VerifyOptions::Sanitizer::kOff;
  VerifyResult unchecked = Verify(none, arch_branch);
  EXPECT_EQ(unchecked.verdict, Verdict::kCorrect);
  EXPECT_EQ(EvidenceLevel(unchecked), "gpu-timed");
  EXPECT_NE(unchecked.detail.find("(GPU checks only: the emulator could not run it"), std::string::npos)
      << unchecked.detail;
}

TEST_F(CrossCheckTest, TheSanitizerCanRunBesideTheEmulator) {
  VerifyOptions both = Options();
  both.gpu_sanitizer = VerifyOptions::Sanitizer::kAlways;
  VerifyResult r = Verify(both, *problem_.solution_source);
  EXPECT_EQ(r.verdict, Verdict::kCorrect) << r.detail;
  EXPECT_EQ(EvidenceLevel(r), "gpu-timed+emulated+sanitized");
}

}  // namespace
}  // namespace regrapht
