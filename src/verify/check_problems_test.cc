// CheckProblems (regrapht/verify.h) without building anything: the results
// come back in folder order, a folder that does not load is a failure with
// its reason, and the count of failures is the result.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/fs.h"
#include "regrapht/verify.h"
#include "verify/test_util.h"

namespace regrapht {
namespace {

TEST(CheckProblemsTest, NoBuildReportsEachFolderInOrder) {
  auto tmp = TempDir::Create("rgcheck");
  ASSERT_TRUE(tmp.ok());
  const fs::path empty = tmp->path() / "empty";
  fs::create_directories(empty);
  const std::vector<std::string> dirs = {
      (testing_util::SourceDir() / "problems" / "saxpy").string(), empty.string(),
      (testing_util::SourceDir() / "problems" / "spmv_csr").string()};
  ProblemCheckOptions o;
  o.no_build = true;
  o.jobs = 3;
  o.verify.timing = false;
  o.verify.cache_dir = testing_util::TestCacheDir().string();
  std::vector<ProblemCheckResult> seen;
  Result<int> failed =
      CheckProblems(dirs, o, [&](const ProblemCheckResult& r) { seen.push_back(r); });
  ASSERT_TRUE(failed.ok()) << failed.status().ToString();
  EXPECT_EQ(*failed, 1);
  ASSERT_EQ(seen.size(), 3u);
  for (size_t i = 0; i < dirs.size(); ++i) EXPECT_EQ(seen[i].dir, dirs[i]);
  EXPECT_TRUE(seen[0].ok);
  EXPECT_EQ(seen[0].note, "spec ok");
  EXPECT_FALSE(seen[1].ok);
  EXPECT_FALSE(seen[1].note.empty());
  EXPECT_TRUE(seen[2].ok);
}

TEST(CheckProblemsTest, CandidateSignatureFollowsTheForm) {
  Problem p = testing_util::LoadBundled("saxpy");
  EXPECT_EQ(CandidateSignature(p.spec, false), p.spec.Signature());
  // Without a "kernel" section the kernel form has no signature of its own.
  if (!p.spec.kernel) {
    EXPECT_EQ(CandidateSignature(p.spec, true), p.spec.Signature());
  }
}

TEST(CheckProblemsTest, ResultJsonIsOneDocument) {
  VerifyResult r;
  r.verdict = Verdict::kCompiledOnly;
  r.detail = "no GPU";
  const std::string j = VerifyResultJson(r);
  EXPECT_EQ(j.front(), '{');
  EXPECT_EQ(j.back(), '}');
  EXPECT_NE(j.find("\"compiled_only\""), std::string::npos);
}

}  // namespace
}  // namespace regrapht
