#include "verify/spec/heldout.h"

#include <gtest/gtest.h>

#include <set>

#include "core/fs.h"
#include "core/subprocess.h"
#include "verify/build/driver_gen.h"
#include "verify/test_util.h"

namespace regrapht {
namespace {

using testing_util::LoadBundled;

TEST(HeldOutTest, EverySeedChangesAndNothingElse) {
  Problem p = LoadBundled("spmv_csr");
  ASSERT_GE(p.spec.tests.size(), 2u);
  Problem h = HeldOutProblem(p, HeldOutSalt(1));
  ASSERT_EQ(h.spec.tests.size(), p.spec.tests.size());
  std::set<uint64_t> old_seeds, new_seeds;
  for (size_t i = 0; i < p.spec.tests.size(); ++i) {
    EXPECT_NE(h.spec.tests[i].seed, p.spec.tests[i].seed) << i;
    EXPECT_EQ(h.spec.tests[i].sizes, p.spec.tests[i].sizes) << i;
    EXPECT_EQ(h.spec.tests[i].scalars, p.spec.tests[i].scalars) << i;
    old_seeds.insert(p.spec.tests[i].seed);
    new_seeds.insert(h.spec.tests[i].seed);
  }
  EXPECT_EQ(new_seeds.size(), old_seeds.size());
  EXPECT_NE(h.spec.timing.seed, p.spec.timing.seed);
  EXPECT_EQ(h.spec.timing.sizes, p.spec.timing.sizes);
  EXPECT_EQ(h.spec_text, p.spec_text);
  EXPECT_EQ(h.reference_source, p.reference_source);
  // The run plan (what the harness hashes and the driver reads) differs.
  verify::PlanOptions po;
  EXPECT_NE(verify::MakePlan(h.spec, po), verify::MakePlan(p.spec, po));
}

TEST(HeldOutTest, SaltIsAFunctionOfTheRunSeed) {
  Problem p = LoadBundled("saxpy");
  EXPECT_EQ(HeldOutSalt(7), HeldOutSalt(7));
  EXPECT_NE(HeldOutSalt(7), HeldOutSalt(8));
  EXPECT_EQ(HeldOutProblem(p, HeldOutSalt(7)).spec.timing.seed,
            HeldOutProblem(p, HeldOutSalt(7)).spec.timing.seed);
  EXPECT_NE(HeldOutProblem(p, HeldOutSalt(7)).spec.timing.seed,
            HeldOutProblem(p, HeldOutSalt(8)).spec.timing.seed);
}

TEST(HeldOutTest, OnlyPassingResultsAreRerun) {
  VerifyResult r;
  for (Verdict v : {Verdict::kCompiledOnly, Verdict::kNotEmulated, Verdict::kWrongAnswer, Verdict::kCompileError,
                    Verdict::kRace, Verdict::kImplausibleSpeed}) {
    r.verdict = v;
    EXPECT_FALSE(NeedsHeldOutRun(r)) << VerdictName(v);
  }
  r.verdict = Verdict::kCorrect;
  EXPECT_TRUE(NeedsHeldOutRun(r));
}

// A correct candidate stays correct on held-out inputs, which the harness
// computes afresh: the reference runs on the new seeds (a new cache entry).
TEST(HeldOutTest, CorrectCandidateIsReverifiedOnNewInputs) {
  auto dir = TempDir::Create("rg-heldout");
  ASSERT_TRUE(dir.ok());
  VerifyOptions o;
  o.run_mode = VerifyOptions::RunMode::kCpuCandidate;
  o.cache_dir = dir->path().string();
  o.max_reps = 4;
  o.min_reps = 3;
  o.max_timing_seconds = 0.2;
  o.reference_max_reps = 3;
  o.reference_max_timing_seconds = 0.2;
  auto runner = NewSubprocessRunner();
  Verifier v(o, runner.get());
  Problem p = LoadBundled("saxpy");
  auto search = v.Verify(p, p.reference_source);
  ASSERT_TRUE(search.ok()) << search.status().ToString();
  ASSERT_EQ(search->verdict, Verdict::kCorrect) << search->detail;
  auto refs = [&] {
    size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir->path() / "ref")) ++n;
    return n;
  };
  size_t before = refs();
  auto held = VerifyHeldOut(&v, p, p.reference_source, HeldOutSalt(3));
  ASSERT_TRUE(held.ok()) << held.status().ToString();
  EXPECT_EQ(held->verdict, Verdict::kCorrect) << held->detail;
  EXPECT_TRUE(held->candidate_timing.has_value());
  // New seeds: the reference's outputs and which of the (new) edge cases it
  // answers are found once more, each in its own cache folder.
  EXPECT_EQ(refs(), before + 2);
}

}  // namespace
}  // namespace regrapht
