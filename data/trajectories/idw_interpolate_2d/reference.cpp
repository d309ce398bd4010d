struct Sample {
  float x, y, value;
};

// Inverse-distance-weighted interpolation (power 2) of scattered samples at m
// query points: interp[q] = sum_j w_j v_j / sum_j w_j with
// w_j = 1 / (|q - s_j|^2 + eps). Samples are 12-byte {x, y, value} records.
void idw_interpolate_2d(int m, int n, const float* qx, const float* qy, const Sample* samples, float eps,
                        float* interp) {
  for (int q = 0; q < m; ++q) {
    float num = 0.0f, den = 0.0f;
    for (int j = 0; j < n; ++j) {
      float dx = qx[q] - samples[j].x;
      float dy = qy[q] - samples[j].y;
      float wj = 1.0f / (dx * dx + dy * dy + eps);
      num += wj * samples[j].value;
      den += wj;
    }
    interp[q] = num / den;
  }
}
