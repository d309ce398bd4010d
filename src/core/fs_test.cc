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

// Threads of one process writing the same file at once (bench
// --max-in-flight fills one build-cache entry from several samples): every
// write succeeds and the file holds one writer's whole content.
TEST(FsTest, AtomicWritesFromManyThreads) {
  auto dir = TempDir::Create("rgfs");
  ASSERT_TRUE(dir.ok());
  fs::path f = dir->path() / "same.txt";
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        if (!WriteFileAtomic(f, std::string(1000, static_cast<char>('a' + t))).ok()) ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures, 0);
  auto got = ReadFile(f);
  ASSERT_TRUE(got.ok());
  ASSERT_EQ(got->size(), 1000u);
  EXPECT_EQ(*got, std::string(1000, (*got)[0]));
  size_t leftovers = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir->path())) ++leftovers;
  EXPECT_EQ(leftovers, 1u);
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
