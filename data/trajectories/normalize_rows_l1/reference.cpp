#include <cmath>

// Scales every row of a rows x cols row-major matrix to unit L1 norm
// (sum of absolute values); an all-zero row is written as zeros.
void normalizeRowsL1(int rows, int cols, const double* x, double* y) {
  for (int r = 0; r < rows; ++r) {
    const double* in = x + static_cast<long>(r) * cols;
    double* out = y + static_cast<long>(r) * cols;
    double s = 0.0;
    for (int c = 0; c < cols; ++c) s += std::fabs(in[c]);
    for (int c = 0; c < cols; ++c) out[c] = (s > 0.0) ? in[c] / s : 0.0;
  }
}
