// Kernel form, planted: a host function computing the answer instead of the kernel.
#include <cstddef>
void average(const double *x, size_t N, double *out) {
  double s = 0;
  for (size_t i = 0; i < N; ++i) s += x[i];
  *out = s / N;
}
