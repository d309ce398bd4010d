#include "core/fs.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <atomic>
#include <thread>
#include <vector>

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

namespace regrapht {
namespace {

TEST(FsTest, InputFilesAreRegularAndCapped) {
  auto dir = TempDir::Create("rgfs");
  ASSERT_TRUE(dir.ok());
  fs::path f = dir->path() / "small.json";
  ASSERT_TRUE(WriteFile(f, "0123456789").ok());
  EXPECT_EQ(*ReadInputFile(f), "0123456789");
  EXPECT_EQ(*ReadInputFile(f, 10), "0123456789");
  auto over = ReadInputFile(f, 9);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.status().message(),
            f.string() + ": 10 bytes exceeds the 9 bytes limit on input files");

  // A sparse 1.2 GiB file: refused from its size, nothing read.
  fs::path big = dir->path() / "graph.json";
  ASSERT_TRUE(WriteFile(big, "").ok());
  fs::resize_file(big, (uint64_t{12} << 30) / 10);
  auto b = ReadInputFile(big);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().message(),
            big.string() + ": 1.2 GiB exceeds the 256 MiB limit on input files");

  auto zero = ReadInputFile("/dev/zero");
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.status().message(), "/dev/zero: a character device, not a regular file");
  auto folder = ReadInputFile(dir->path());
  ASSERT_FALSE(folder.ok());
  EXPECT_EQ(folder.status().message(), dir->path().string() + ": a folder, not a regular file");
  fs::path fifo = dir->path() / "fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  auto ff = ReadInputFile(fifo);  // would block forever if it were opened
  ASSERT_FALSE(ff.ok());
  EXPECT_EQ(ff.status().message(), fifo.string() + ": a FIFO, not a regular file");
  EXPECT_EQ(ReadInputFile(dir->path() / "nope").status().code(), Status::Code::kNotFound);
}

TEST(FsTest, FormatBytes) {
  EXPECT_EQ(FormatBytes(1), "1 byte");
  EXPECT_EQ(FormatBytes(812), "812 bytes");
  EXPECT_EQ(FormatBytes(256 << 20), "256 MiB");
  EXPECT_EQ(FormatBytes(3482), "3.4 KiB");
}

}  // namespace
}  // namespace regrapht
