#include "core/hash.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <unistd.h>
#include <xxhash.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

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

// ---- SHA-256 --------------------------------------------------------------------

namespace {

// OpenSSL fails these only when it cannot allocate a few hundred bytes:
// there is nothing to recover.
void CheckEvp(int ok, const char* what) {
  if (ok != 1) {
    std::fprintf(stderr, "regrapht: OpenSSL %s failed\n", what);
    std::abort();
  }
}

EVP_MD_CTX* Ctx(void* p) { return static_cast<EVP_MD_CTX*>(p); }

}  // namespace

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
  CheckEvp(ctx_ != nullptr, "EVP_MD_CTX_new");
  CheckEvp(EVP_DigestInit_ex(Ctx(ctx_), EVP_sha256(), nullptr), "EVP_DigestInit_ex(sha256)");
}

Sha256::~Sha256() { EVP_MD_CTX_free(Ctx(ctx_)); }

Sha256& Sha256::Update(std::string_view data) {
  CheckEvp(EVP_DigestUpdate(Ctx(ctx_), data.data(), data.size()), "EVP_DigestUpdate");
  return *this;
}

std::string Sha256::Digest() {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  CheckEvp(EVP_DigestFinal_ex(Ctx(ctx_), out, &n), "EVP_DigestFinal_ex");
  return std::string(reinterpret_cast<const char*>(out), n);
}

std::string Sha256::HexDigest() { return ToHex(Digest()); }

std::string Sha256Hex(std::string_view data) { return Sha256().Update(data).HexDigest(); }

Result<std::string> Sha256File(const fs::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::IoError(path.string() + ": cannot open: " + std::strerror(errno));
  Sha256 h;
  std::vector<char> buf(size_t{4} << 20);
  while (true) {
    ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      return Status::IoError(path.string() + ": read failed: " + std::strerror(err));
    }
    if (n == 0) break;
    h.Update(std::string_view(buf.data(), static_cast<size_t>(n)));
  }
  ::close(fd);
  return h.HexDigest();
}

std::string ToHex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s(bytes.size() * 2, '0');
  for (size_t i = 0; i < bytes.size(); ++i) {
    auto c = static_cast<unsigned char>(bytes[i]);
    s[2 * i] = kHex[c >> 4];
    s[2 * i + 1] = kHex[c & 15];
  }
  return s;
}

}  // namespace regrapht
