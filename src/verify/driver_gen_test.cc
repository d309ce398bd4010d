#include "verify/driver_gen.h"

#include <gtest/gtest.h>

#include "core/fs.h"
#include "core/subprocess.h"
#include "verify/test_util.h"

namespace regrapht::verify {
namespace {

TEST(DriverGenTest, PlanFormat) {
  Problem p = testing_util::LoadBundled("saxpy");
  PlanOptions o;
  o.max_seconds = 1.5;
  std::string plan = MakePlan(p.spec, o);
  EXPECT_EQ(plan.rfind("regrapht-plan 1\nruns 2\ncase 0 11 1 n 1 0\n", 0), 0u) << plan;
  EXPECT_NE(plan.find("timing 99 "), std::string::npos);
  EXPECT_NE(plan.find(" 2 5 50 1.500000 1 1 n 16777216 0\nend\n"), std::string::npos) << plan;
}

// Every bundled problem's driver compiles with the host compiler, with and
// without the CUDA hooks, and links against its reference.
TEST(DriverGenTest, GeneratedDriversCompile) {
  auto dir = TempDir::Create("rgdrv");
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(WriteFile(dir->path() / "rg_driver.h", std::string(DriverRuntimeHeader())).ok());
  auto runner = NewSubprocessRunner();
  for (const char* name : {"saxpy", "jacobi2d", "sum_of_squares", "spmv_csr"}) {
    Problem p = testing_util::LoadBundled(name);
    auto src = GenerateDriver(p.spec);
    ASSERT_TRUE(src.ok()) << src.status().ToString();
    fs::path d = dir->path() / (std::string(name) + ".cc");
    fs::path r = dir->path() / (std::string(name) + "_ref.cpp");
    ASSERT_TRUE(WriteFile(d, *src).ok());
    ASSERT_TRUE(WriteFile(r, p.reference_source).ok());
    CommandSpec cs;
    cs.argv = {"g++", "-std=c++17", "-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter",
               d.string(), r.string(), "-o", (dir->path() / name).string()};
    auto res = runner->Run(cs);
    ASSERT_TRUE(res.ok());
    EXPECT_TRUE(res->ok()) << name << ":\n" << res->stderr_text << "\n" << *src;
    cs.argv = {"g++", "-std=c++17", "-DRG_DRIVER_CUDA", "-I/usr/local/cuda/include", "-c", d.string(),
               "-o", (dir->path() / (std::string(name) + ".o")).string()};
    res = runner->Run(cs);
    ASSERT_TRUE(res.ok());
    EXPECT_TRUE(res->ok()) << name << " (cuda):\n" << res->stderr_text;
  }
}

}  // namespace
}  // namespace regrapht::verify
