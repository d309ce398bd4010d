// A host compiler outside /usr, behind a wrapper script and a chain of
// symlinks (wrapper_compiler_test_util.h), drives every sandboxed build and
// run of a verification: nvcc (-ccbin), the driver, the emulator's build, the
// links and the runs. Before the sandbox bound the toolchain's folders this
// failed closed with "bwrap: execvp ...: No such file or directory" (the
// H200 image's /opt/gcc/bin/g++, shared/docs/gpu-machine.md).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>

#include "core/subprocess.h"
#include "regrapht/verify.h"
#include "verify/test_util.h"
#include "verify/build/wrapper_compiler_test_util.h"

namespace regrapht {
namespace {

class ToolchainSandboxTest : public testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("rg-wrapper-cc-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    auto wrapper = testing_util::MakeWrapperCompiler(root_ / "toolchain");
    ASSERT_TRUE(wrapper.ok()) << wrapper.status().ToString();
    const char* old = std::getenv("CXX");
    old_cxx_ = old ? old : "";
    ::setenv("CXX", wrapper->c_str(), 1);
  }
  void TearDown() override {
    if (old_cxx_.empty()) ::unsetenv("CXX");
    else ::setenv("CXX", old_cxx_.c_str(), 1);
    fs::remove_all(root_);
  }
  VerifyOptions Options() const {
    VerifyOptions o;
    o.cache_dir = (root_ / "cache").string();  // nothing cached: every build runs
    o.timing = false;
    return o;
  }
  fs::path root_;
  std::string old_cxx_;
};

TEST_F(ToolchainSandboxTest, EmulatedVerificationBuildsAndRunsWithAWrapperCompiler) {
  VerifyOptions o = Options();
  o.run_mode = VerifyOptions::RunMode::kEmulate;
  o.emulate_timing_size = false;
  auto runner = NewSubprocessRunner();
  Verifier v(o, runner.get());
  Problem p = testing_util::LoadBundled("saxpy");
  auto r = v.Verify(p, *p.solution_source);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->verdict, Verdict::kCorrect) << r->detail << "\n" << r->log;
  EXPECT_NE(r->env.host_compiler.find("g++-real"), std::string::npos) << r->env.host_compiler;
}

// The GPU path: nvcc with the wrapper as its host compiler, the object
// checks, the link with the CUDA runtime and a sandboxed run that stops at
// CUDA's initialisation without a GPU.
TEST_F(ToolchainSandboxTest, GpuPathBuildsWithAWrapperCompiler) {
  auto runner = NewSubprocessRunner();
  Verifier v(Options(), runner.get());
  Problem p = testing_util::LoadBundled("saxpy");
  auto r = v.Verify(p, *p.solution_source);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->verdict == Verdict::kCompiledOnly || r->verdict == Verdict::kCorrect)
      << VerdictName(r->verdict) << ": " << r->detail << "\n" << r->log;
}

}  // namespace
}  // namespace regrapht
