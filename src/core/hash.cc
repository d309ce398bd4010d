#include "core/hash.h"

#include <xxhash.h>

#include <cstdio>

namespace regrapht {

uint64_t Hash64(std::string_view data, uint64_t seed) {
  return XXH3_64bits_withSeed(data.data(), data.size(), seed);
}

static std::string Hex128(XXH128_hash_t h) {
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                static_cast<unsigned long long>(h.low64));
  return buf;
}

std::string HashHex(std::string_view data) { return Hex128(XXH3_128bits(data.data(), data.size())); }

Hasher::Hasher() : state_(XXH3_createState()) {
  XXH3_128bits_reset(static_cast<XXH3_state_t*>(state_));
}
Hasher::~Hasher() { XXH3_freeState(static_cast<XXH3_state_t*>(state_)); }

Hasher& Hasher::Add(std::string_view data) {
  uint64_t n = data.size();
  XXH3_128bits_update(static_cast<XXH3_state_t*>(state_), &n, sizeof n);
  XXH3_128bits_update(static_cast<XXH3_state_t*>(state_), data.data(), data.size());
  return *this;
}

Hasher& Hasher::Add(int64_t value) {
  return Add(std::string_view(reinterpret_cast<const char*>(&value), sizeof value));
}

std::string Hasher::Hex() const {
  return Hex128(XXH3_128bits_digest(static_cast<XXH3_state_t*>(state_)));
}

}  // namespace regrapht
