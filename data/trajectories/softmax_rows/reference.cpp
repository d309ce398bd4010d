#include <cmath>

// Row-wise softmax of a rows x cols row-major matrix: each row is shifted by
// its maximum, exponentiated and normalised to sum to one.
void rowSoftmax(int rows, int cols, const float* x, float* y) {
  for (int r = 0; r < rows; ++r) {
    const float* in = x + static_cast<long>(r) * cols;
    float* out = y + static_cast<long>(r) * cols;
    float m = in[0];
    for (int c = 1; c < cols; ++c) m = in[c] > m ? in[c] : m;
    float s = 0.0f;
    for (int c = 0; c < cols; ++c) {
      out[c] = std::exp(in[c] - m);
      s += out[c];
    }
    for (int c = 0; c < cols; ++c) out[c] /= s;
  }
}
