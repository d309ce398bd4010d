// Deterministic pseudo-random numbers (SplitMix64 seeding a xoshiro256**),
// identical on every platform and compiler, unlike <random>'s distributions.
//
// The one definition of regrapht's generator, used by the library (through
// core/rng.h, as regrapht::Rng) and by every generated test driver (through
// verify/driver/rg_driver.h, as rg::Rng): the reference and the candidate
// must draw bit-identical inputs from a seed, and held-out seeds must mean
// the same thing to the harness and the driver. Drivers are compiled as
// C++17 inside the sandbox with only rg_driver.h beside them, so this header
// uses the standard library alone, and the build inlines it into the
// embedded copy of rg_driver.h (cmake/EmbedText.cmake). driver_gen_test
// compiles that copy and checks it draws what this one draws.
#pragma once

#include <cmath>
#include <cstdint>

namespace rg {

inline uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

class Rng {
 public:
  explicit Rng(uint64_t seed = 0) { Seed(seed); }
  void Seed(uint64_t seed) {
    uint64_t s = seed;
    for (auto& x : s_) x = SplitMix64(s);
  }
  uint64_t Next() {
    uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, 1).
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  // Uniform integer in [0, n); 0 for n == 0, without drawing.
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : Next() % n; }
  // Standard normal (Box-Muller, one of the pair); draws two uniforms.
  double Normal() {
    double u1 = Uniform(), u2 = Uniform();
    if (u1 < 1e-300) u1 = 1e-300;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace rg
