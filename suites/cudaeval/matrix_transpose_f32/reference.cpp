// Out-of-place transpose: in is rows x cols (row-major), out is cols x rows
// (row-major), out[j][i] = in[i][j].
void transposeF32(int rows, int cols, const float* in, float* out) {
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      out[j * rows + i] = in[i * cols + j];
    }
  }
}
