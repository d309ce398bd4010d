// Row dropout followed by a per-feature affine map: keep[r] is 1 or 0 for
// each of the b rows (samples) of the b x d row-major input, and
// out[r][c] = keep[r] * (x[r][c] * scale[c] + bias[c]).
void row_dropout_affine(int b, int d, const float* x, const float* keep, const float* scale, const float* bias,
                        float* out) {
  for (int r = 0; r < b; ++r) {
    for (int c = 0; c < d; ++c) {
      long long i = static_cast<long long>(r) * d + c;
      out[i] = keep[r] * (x[i] * scale[c] + bias[c]);
    }
  }
}
