#include "verify/build/toolchain_folders.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>

#include "verify/build/wrapper_compiler_test_util.h"

namespace regrapht::verify {
namespace {

bool Has(const std::vector<fs::path>& v, const fs::path& p) { return std::find(v.begin(), v.end(), p) != v.end(); }

// The wrapper of the H200 image (shared/docs/gpu-machine.md), verbatim.
TEST(ToolchainFoldersTest, ScriptPathsReadsAWrapper) {
  const char* script =
      "#!/bin/sh\n"
      "exec /opt/gcc/bin/g++-real -B/opt/gcc/bin/ -B/opt/gcc/lib/gcc/x86_64-linux-gnu/13/ -isystem "
      "/opt/gcc/lib/gcc/x86_64-linux-gnu/13/include -isystem /usr/include/c++/13 -isystem "
      "/usr/include/x86_64-linux-gnu/c++/13 \"$@\"\n";
  EXPECT_EQ(ScriptPaths(script),
            (std::vector<std::string>{"/opt/gcc/bin/g++-real", "/opt/gcc/bin/", "/opt/gcc/lib/gcc/x86_64-linux-gnu/13/",
                                      "/opt/gcc/lib/gcc/x86_64-linux-gnu/13/include", "/usr/include/c++/13",
                                      "/usr/include/x86_64-linux-gnu/c++/13"}));
  // Quotes, "=" and ":" lists, variables left alone, comments skipped.
  EXPECT_EQ(ScriptPaths("# /not/this\nexport PATH=\"/apps/gcc/bin:$PATH\"\nexec '/apps/x/cc' --sysroot=/apps/root "
                        "-L/apps/lib $HOME/y \"$@\"\n"),
            (std::vector<std::string>{"/apps/gcc/bin", "/apps/x/cc", "/apps/root", "/apps/lib"}));
}

TEST(ToolchainFoldersTest, ParsesTheCompilersAnswers) {
  EXPECT_EQ(ParseSearchDirs("install: /opt/g/lib/gcc/x/13/\nprograms: =/opt/g/bin/:/usr/bin/\nlibraries: =/opt/g/lib64\n"),
            (std::vector<std::string>{"/opt/g/lib/gcc/x/13/", "/opt/g/bin/", "/usr/bin/", "/opt/g/lib64"}));
  EXPECT_EQ(ParseIncludeSearch("ignoring\n#include \"...\" search starts here:\n#include <...> search starts here:\n"
                               " /opt/g/include\n /usr/include\nEnd of search list.\n /after\n"),
            (std::vector<std::string>{"/opt/g/include", "/usr/include"}));
}

// Never "/", a top-level folder, the kernel's trees, or a folder holding
// HOME, the caches or the working folder; the system paths are shown anyway.
TEST(ToolchainFoldersTest, RefusesFoldersThatWouldExposeTooMuch) {
  std::vector<fs::path> protect = {"/home/u", "/home/u/.cache/regrapht", "/work/repo"};
  for (const char* p : {"/", "/opt", "/tmp", "/home", "/home/u", "/home/u/.cache", "/work", "/etc/gcc", "/proc/1",
                        "relative/dir"}) {
    EXPECT_TRUE(RefusedFolder(p, protect)) << p;
  }
  for (const char* p : {"/opt/gcc/bin", "/home/u/miniconda3/bin", "/apps/gcc/13/lib64", "/tmp/x/prefix"}) {
    EXPECT_FALSE(RefusedFolder(p, protect)) << p;
  }
  EXPECT_TRUE(UnderSystemPaths("/usr/include/c++/13"));
  EXPECT_TRUE(UnderSystemPaths("/lib/x86_64-linux-gnu"));
  EXPECT_FALSE(UnderSystemPaths("/opt/gcc/bin"));
  EXPECT_FALSE(UnderSystemPaths("/usrlocal/bin"));
}

class ToolchainFoldersFsTest : public testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("rg-tcf-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

TEST_F(ToolchainFoldersFsTest, FollowsSymlinkChainsAndCollapsesNestedFolders) {
  fs::create_directories(root_ / "a/bin");
  fs::create_directories(root_ / "b");
  ASSERT_TRUE(WriteFile(root_ / "a/bin/real", "x").ok());
  fs::create_symlink("../a/bin/real", root_ / "b/link");
  fs::create_symlink(root_ / "b/link", root_ / "first");
  auto chain = SymlinkChain(root_ / "first");
  EXPECT_EQ(chain, (std::vector<fs::path>{root_ / "first", root_ / "b/link", root_ / "a/bin/real"}));
  auto folders = SelectFolders({root_ / "a/bin/real", root_ / "a", root_ / "b/link", root_ / "missing"}, {});
  EXPECT_EQ(folders, (std::vector<fs::path>{root_ / "a", root_ / "b"}));
}

// The wrapper compiler of wrapper_compiler_test_util.h: every part of it is
// found (the wrapper's folder, the folders of each link to the real driver,
// the folders the wrapper names, the compiler's own folder), nothing of
// /usr, and `protect` keeps a folder out.
TEST_F(ToolchainFoldersFsTest, FindsEveryPartOfAWrapperCompiler) {
  auto wrapper = testing_util::MakeWrapperCompiler(root_);
  ASSERT_TRUE(wrapper.ok()) << wrapper.status().ToString();
  Toolchain tc;
  tc.cxx = *wrapper;
  auto runner = NewSubprocessRunner();
  ToolchainFolders f = FindToolchainFolders(tc, runner.get());
  for (const char* d : {"prefix/bin", "prefix/include", "alt", "real/bin"}) {
    EXPECT_TRUE(Has(f.build, root_ / d)) << d;
  }
  bool compiler_dir = std::any_of(f.build.begin(), f.build.end(), [&](const fs::path& p) {
    return StartsWith((root_ / "real/lib/gcc").string(), p.string() + "/");
  });
  EXPECT_TRUE(compiler_dir) << "the compiler's own folder (cc1plus) is not bound";
  for (const auto& p : f.build) EXPECT_FALSE(UnderSystemPaths(p)) << p;
  EXPECT_EQ(f.reasons.size(), f.build.size());
  ToolchainFolders kept_out = FindToolchainFolders(tc, runner.get(), {root_ / "prefix/include"});
  EXPECT_FALSE(Has(kept_out.build, root_ / "prefix/include"));
  EXPECT_TRUE(Has(kept_out.build, root_ / "prefix/bin"));
}

}  // namespace
}  // namespace regrapht::verify
