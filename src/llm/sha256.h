// SHA-256 (FIPS 180-4), for checking downloaded model files. Small and
// dependency-free; about 200 MB/s, which is plenty for a one-off check.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/fs.h"
#include "regrapht/status.h"

namespace regrapht::llm {

class Sha256 {
 public:
  Sha256();
  void Update(std::string_view data);
  // 64 lowercase hex digits. The object must not be updated afterwards.
  std::string HexDigest();

 private:
  void Block(const uint8_t* p);
  std::array<uint32_t, 8> h_;
  uint8_t buf_[64];
  size_t buf_len_ = 0;
  uint64_t total_ = 0;
};

std::string Sha256Hex(std::string_view data);
Result<std::string> Sha256File(const fs::path& path);

}  // namespace regrapht::llm
