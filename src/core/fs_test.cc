#include "core/fs.h"

#include <gtest/gtest.h>

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
