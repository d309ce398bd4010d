// One mean-aggregation step of a graph neural network: every node's output
// feature vector (64 floats) is the average of its CSR neighbours' feature
// vectors (0 for a node without neighbours). feat and out are n x 64, row-major.
void gnn_mean_aggregate(int n, const int* row_ptr, const int* col_idx, const float* feat, float* out) {
  const int F = 64;
  for (int i = 0; i < n; ++i) {
    float acc[F];
    for (int c = 0; c < F; ++c) acc[c] = 0.0f;
    int b = row_ptr[i], e = row_ptr[i + 1];
    for (int k = b; k < e; ++k) {
      const float* src = feat + static_cast<long long>(col_idx[k]) * F;
      for (int c = 0; c < F; ++c) acc[c] += src[c];
    }
    int deg = e - b;
    float* dst = out + static_cast<long long>(i) * F;
    for (int c = 0; c < F; ++c) dst[c] = deg > 0 ? acc[c] / static_cast<float>(deg) : 0.0f;
  }
}
