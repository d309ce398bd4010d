#include <cstdint>

// Running energy of a signal: out[i] = x[0]^2 + x[1]^2 + ... + x[i]^2, exact in 64 bits.
void cumulativeSumOfSquares(int n, const int* x, int64_t* out) {
  int64_t acc = 0;
  for (int i = 0; i < n; ++i) {
    int64_t v = x[i];
    acc += v * v;
    out[i] = acc;
  }
}
