#include "core/hash.h"

#include <gtest/gtest.h>

#include "core/fs.h"

namespace regrapht {
namespace {

// FIPS 180-4 examples (NIST CSRC "SHA256.pdf") and the one-million-'a' vector.
TEST(Sha256Test, KnownVectors) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Sha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256Test, IncrementalEqualsOneShot) {
  std::string data;
  for (int i = 0; i < 1000; ++i) data += static_cast<char>(i * 7);
  for (size_t split : {0, 1, 55, 56, 63, 64, 65, 500}) {
    Sha256 s;
    s.Update(std::string_view(data).substr(0, split));
    s.Update(std::string_view(data).substr(split));
    EXPECT_EQ(s.HexDigest(), Sha256Hex(data)) << split;
  }
}

TEST(Sha256Test, RawDigestIsTheHexDigestsBytes) {
  std::string raw = Sha256().Update("abc").Digest();
  ASSERT_EQ(raw.size(), Sha256::kDigestBytes);
  EXPECT_EQ(ToHex(raw), Sha256Hex("abc"));
  EXPECT_EQ(ToHex(std::string("\x00\x7f\x80\xff", 4)), "007f80ff");
}

TEST(Sha256Test, File) {
  auto dir = TempDir::Create("rgsha");
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(WriteFile(dir->path() / "f", "abc").ok());
  EXPECT_EQ(*Sha256File(dir->path() / "f"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // More than one read block (4 MiB).
  std::string big(9 << 20, 'a');
  ASSERT_TRUE(WriteFile(dir->path() / "big", big).ok());
  EXPECT_EQ(*Sha256File(dir->path() / "big"), Sha256Hex(big));
  auto missing = Sha256File(dir->path() / "missing");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("missing"), std::string::npos)
      << missing.status().ToString();
  EXPECT_FALSE(Sha256File(dir->path()).ok());  // a folder
}

}  // namespace
}  // namespace regrapht
