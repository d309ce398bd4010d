#include <cmath>

// Element-wise absolute difference of two double arrays.
void absoluteDifference(int n, const double* a, const double* b, double* out) {
  for (int i = 0; i < n; ++i) {
    out[i] = std::fabs(a[i] - b[i]);
  }
}
