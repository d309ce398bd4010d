#include <cmath>
#include <vector>

// Euclidean norm of every column of a tall rows x cols float matrix stored
// row-major (a table of samples x features, as before feature scaling or
// column normalisation): norms[c] = sqrt(sum_r a[r][c]^2), with the squares
// accumulated in double and the result rounded to float. The loop walks the
// matrix in storage order, one row at a time.
void columnL2Norms(int rows, int cols, const float* a, float* norms) {
  std::vector<double> acc(cols, 0.0);
  for (int r = 0; r < rows; ++r) {
    const float* row = a + static_cast<long long>(r) * cols;
    for (int c = 0; c < cols; ++c) {
      double v = row[c];
      acc[c] += v * v;
    }
  }
  for (int c = 0; c < cols; ++c) norms[c] = static_cast<float>(std::sqrt(acc[c]));
}
