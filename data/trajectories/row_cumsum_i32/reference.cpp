// Row-wise inclusive cumulative sums of a row-major rows x cols integer matrix:
// out[r][c] = m[r][0] + m[r][1] + ... + m[r][c].
void rowCumulativeSum(int rows, int cols, const int* m, int* out) {
  for (int r = 0; r < rows; ++r) {
    const int* src = m + static_cast<long long>(r) * cols;
    int* dst = out + static_cast<long long>(r) * cols;
    int acc = 0;
    for (int c = 0; c < cols; ++c) {
      acc += src[c];
      dst[c] = acc;
    }
  }
}
