#include <cstdint>

// Masked reduction: the sum (accumulated in double) and the number of the
// elements of x whose mask byte is non-zero.
void masked_sum_count(int n, const float* x, const uint8_t* mask, double& sum, int& count) {
  double s = 0.0;
  int c = 0;
  for (int i = 0; i < n; ++i) {
    if (mask[i]) {
      s += x[i];
      ++c;
    }
  }
  sum = s;
  count = c;
}
