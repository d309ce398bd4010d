// Content hashes for caches and records (XXH3, stable across machines).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

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

}  // namespace regrapht
