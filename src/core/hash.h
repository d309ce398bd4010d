// Content hashes: XXH3 for caches and source hashes (fast, stable across
// machines, not cryptographic), SHA-256 (OpenSSL's EVP, which uses the CPU's
// SHA extensions: GB/s on multi-GB model files) where a digest must resist
// forgery or match a published one: downloaded models, sealed driver records.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/fs.h"
#include "regrapht/status.h"

namespace regrapht {

uint64_t Hash64(std::string_view data, uint64_t seed = 0);

// 128-bit XXH3 as 32 lowercase hex digits: cache keys and source hashes.
std::string HashHex(std::string_view data);

// Incremental hasher for composite keys. Each Add() is length-prefixed, so
// ("ab","c") and ("a","bc") hash differently.
class Hasher {
 public:
  Hasher();
  ~Hasher();
  Hasher(const Hasher&) = delete;
  Hasher& operator=(const Hasher&) = delete;
  Hasher& Add(std::string_view data);
  Hasher& Add(int64_t value);
  std::string Hex() const;  // 32 hex digits

 private:
  void* state_;
};

// Incremental SHA-256 (FIPS 180-4).
class Sha256 {
 public:
  static constexpr size_t kDigestBytes = 32;
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  Sha256& Update(std::string_view data);
  // The 32 raw bytes of the digest. The object must not be updated afterwards.
  std::string Digest();
  // The digest as 64 lowercase hex digits. Same restriction as Digest().
  std::string HexDigest();

 private:
  void* ctx_;  // EVP_MD_CTX
};

// SHA-256 of `data` as 64 lowercase hex digits.
std::string Sha256Hex(std::string_view data);
// SHA-256 of a file's bytes (read in 4 MiB blocks), as 64 lowercase hex digits.
Result<std::string> Sha256File(const fs::path& path);

// Lowercase hex of arbitrary bytes.
std::string ToHex(std::string_view bytes);

}  // namespace regrapht
