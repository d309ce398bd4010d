// Token embedding lookup of a transformer's input layer: for each of the n
// token ids, out[t][:] = table[ids[t]][:] * scale, where table is a row-major
// vocab x dim matrix. A negative id is the padding token and produces a row of
// zeros. Ids are otherwise in [0, vocab).
void embeddingGatherScaled(int n, const int* ids, int vocab, int dim, const float* table,
                           float scale, float* out) {
  (void)vocab;
  for (int t = 0; t < n; ++t) {
    float* row = out + static_cast<long long>(t) * dim;
    if (ids[t] < 0) {
      for (int j = 0; j < dim; ++j) row[j] = 0.0f;
      continue;
    }
    const float* src = table + static_cast<long long>(ids[t]) * dim;
    for (int j = 0; j < dim; ++j) row[j] = src[j] * scale;
  }
}
