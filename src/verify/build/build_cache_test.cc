// The build cache keys every input and never stores a failure the machine
// caused (docs/faults.md, "Stale or poisoned results").
#include "verify/build/build_cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "core/fake_command_runner.h"
#include "core/fs.h"

namespace regrapht::verify {
namespace {

class BuildCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto dir = MakeTempDir("rg-build-cache-test-");
    ASSERT_TRUE(dir.ok());
    root_ = *dir;
  }
  void TearDown() override { (void)RemoveAll(root_); }

  BuildRequest Request(const std::string& source = "int x;") {
    BuildRequest r;
    r.label = "candidate";
    r.files = {{"c.cu", source}};
    r.argv = {"nvcc", "-c", "c.cu", "-o", "c.o"};
    r.output = "c.o";
    r.key_extra = "toolchain 1";
    return r;
  }

  // The compiler fails with `log` (and the signal, if any) every time.
  void FailWith(const std::string& log, int signal = 0) {
    runner_.SetHandler([log, signal](const CommandSpec&) -> Result<CommandResult> {
      CommandResult r;
      r.exit_code = signal ? -1 : 1;
      r.term_signal = signal;
      r.stderr_text = log;
      return r;
    });
  }

  fs::path root_;
  FakeCommandRunner runner_;
};

TEST_F(BuildCacheTest, CodeFailuresAreCachedMachineFailuresAreNot) {
  BuildCache cache(&runner_, root_ / "build", 60, /*sandbox=*/false);
  FailWith("c.cu(1): error: expected a \";\"");
  auto first = cache.Build(Request());
  ASSERT_TRUE(first.ok());
  EXPECT_FALSE(first->ok);
  auto again = cache.Build(Request());
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->cached);  // the code's own error: replayed
  EXPECT_EQ(runner_.commands().size(), 1u);

  // Killed (the OOM killer, a memory limit): a compile error this time, never stored.
  FailWith("", /*signal=*/9);
  auto killed = cache.Build(Request("int y;"));
  ASSERT_TRUE(killed.ok());
  EXPECT_FALSE(killed->ok);
  EXPECT_NE(killed->failure.find("not cached"), std::string::npos) << killed->failure;
  auto killed_again = cache.Build(Request("int y;"));
  ASSERT_TRUE(killed_again.ok());
  EXPECT_FALSE(killed_again->cached);
  EXPECT_EQ(runner_.commands().size(), 3u);
}

TEST_F(BuildCacheTest, AnEchoedMessageIsNotAFullDisk) {
  // A candidate can print anything with #error: the machine is asked, and a
  // writable disk means the failure is only not cached, not an error.
  BuildCache cache(&runner_, root_ / "build", 60, /*sandbox=*/false);
  FailWith("c.cu:1:2: error: #error No space left on device");
  auto r = cache.Build(Request());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_FALSE(r->ok);
  auto again = cache.Build(Request());
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->cached);
}

TEST_F(BuildCacheTest, AnUnusableTmpdirIsNamedAndNothingRuns) {
  BuildCache cache(&runner_, root_ / "build", 60, /*sandbox=*/false);
  const char* old = std::getenv("TMPDIR");
  const std::string saved = old ? old : "";
  ::setenv("TMPDIR", (root_ / "no-such-folder").c_str(), 1);
  auto r = cache.Build(Request());
  if (saved.empty()) {
    ::unsetenv("TMPDIR");
  } else {
    ::setenv("TMPDIR", saved.c_str(), 1);
  }
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("TMPDIR=" + (root_ / "no-such-folder").string() + ": not a folder"),
            std::string::npos)
      << r.status().ToString();
  EXPECT_TRUE(runner_.commands().empty());
}

TEST_F(BuildCacheTest, SandboxedBuildsGetTheirOwnTmpAndAnotherKey) {
  BuildCache boxed(&runner_, root_ / "build", 60, /*sandbox=*/true);
  BuildCache open(&runner_, root_ / "build", 60, /*sandbox=*/false);
  auto a = boxed.Build(Request());
  auto b = open.Build(Request());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a->key, b->key);  // what a compile may read differs
  ASSERT_EQ(runner_.commands().size(), 2u);
  const std::vector<std::string> env = runner_.commands()[0].env;  // commands() is a copy
  EXPECT_NE(std::find(env.begin(), env.end(), "TMPDIR=/tmp"), env.end());
}

TEST_F(BuildCacheTest, EveryInputIsInTheKey) {
  BuildCache cache(&runner_, root_ / "build", 60, /*sandbox=*/true);
  BuildRequest base = Request();
  auto key = [&](const BuildRequest& r) {
    auto b = cache.Build(r);
    EXPECT_TRUE(b.ok());
    return b.ok() ? b->key : std::string();
  };
  const std::string k0 = key(base);
  BuildRequest source = base;
  source.files["c.cu"] = "int z;";
  BuildRequest flags = base;
  flags.argv.push_back("-O3");
  BuildRequest tools = base;
  tools.key_extra = "toolchain 2";
  BuildRequest header = base;
  header.files["rg_driver.h"] = "// generated for another spec";
  for (const auto* r : {&source, &flags, &tools, &header}) EXPECT_NE(key(*r), k0);
}

}  // namespace
}  // namespace regrapht::verify
