// Separable 2-D transform of every 8 x 8 block of a (8 bw) x (8 bh) row-major
// float image with the 8 x 8 basis matrix C (row u is basis function u):
// out_block = C * block * C^T, as JPEG applies its DCT. Each block is
// transformed along its rows first, then along its columns.
void block_dct8(int bw, int bh, const float* C, const float* img, float* out) {
  int width = 8 * bw;
  for (int by = 0; by < bh; ++by) {
    for (int bx = 0; bx < bw; ++bx) {
      float tmp[8][8];
      for (int y = 0; y < 8; ++y) {
        for (int u = 0; u < 8; ++u) {
          float s = 0.0f;
          for (int x = 0; x < 8; ++x) s += C[u * 8 + x] * img[(by * 8 + y) * width + bx * 8 + x];
          tmp[y][u] = s;
        }
      }
      for (int v = 0; v < 8; ++v) {
        for (int u = 0; u < 8; ++u) {
          float s = 0.0f;
          for (int y = 0; y < 8; ++y) s += C[v * 8 + y] * tmp[y][u];
          out[(by * 8 + v) * width + bx * 8 + u] = s;
        }
      }
    }
  }
}
