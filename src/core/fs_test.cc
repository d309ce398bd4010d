#include "core/fs.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "core/hash.h"

namespace regrapht {
namespace {

TEST(FsTest, AtomicWriteAndRead) {
  auto dir = TempDir::Create("rgfs");
  ASSERT_TRUE(dir.ok());
  fs::path f = dir->path() / "sub" / "x.txt";
  ASSERT_TRUE(WriteFileAtomic(f, "hello").ok());
  EXPECT_EQ(*ReadFile(f), "hello");
  ASSERT_TRUE(WriteFileAtomic(f, "bye").ok());
  EXPECT_EQ(*ReadFile(f), "bye");
  auto missing = ReadFile(dir->path() / "nope");
  EXPECT_EQ(missing.status().code(), Status::Code::kNotFound);
}

// Threads of one process writing the same file at once (two verifications
// of the same code writing its cached verdict) each succeed.
TEST(FsTest, ConcurrentAtomicWritesOfOneFile) {
  auto dir = TempDir::Create("rgfs");
  ASSERT_TRUE(dir.ok());
  fs::path file = dir->path() / "verdict.txt";
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        if (!WriteFileAtomic(file, "from thread " + std::to_string(t)).ok()) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures, 0);
  auto text = ReadFile(file);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(text->rfind("from thread ", 0), 0u);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir->path()), fs::directory_iterator()), 1);  // no temporaries left
}

TEST(FsTest, TempDirRemovedUnlessKept) {
  fs::path p;
  {
    auto dir = TempDir::Create("rgfs");
    p = dir->path();
    EXPECT_TRUE(fs::exists(p));
  }
  EXPECT_FALSE(fs::exists(p));
}

TEST(HashTest, StableAndLengthPrefixed) {
  EXPECT_EQ(HashHex("abc"), HashHex("abc"));
  EXPECT_NE(HashHex("abc"), HashHex("abd"));
  EXPECT_EQ(HashHex("").size(), 32u);
  Hasher a, b;
  a.Add("ab").Add("c");
  b.Add("a").Add("bc");
  EXPECT_NE(a.Hex(), b.Hex());
}

}  // namespace
}  // namespace regrapht
