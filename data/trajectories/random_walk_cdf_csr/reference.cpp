#include <cstddef>
#include <vector>

// Transition tables for a weighted random walk on a CSR graph: for every node,
// the cumulative distribution over its out-edges, cdf[k] = (w[b] + ... + w[k]) /
// (w[b] + ... + w[e-1]) for the node's edge range [b, e). Weights are positive.
void random_walk_cdf_csr(int n, const int* row_ptr, const float* weight, std::vector<float>& cdf) {
  cdf.assign(static_cast<size_t>(row_ptr[n]), 0.0f);
  for (int i = 0; i < n; ++i) {
    int b = row_ptr[i], e = row_ptr[i + 1];
    float total = 0.0f;
    for (int k = b; k < e; ++k) total += weight[k];
    float run = 0.0f;
    for (int k = b; k < e; ++k) {
      run += weight[k];
      cdf[k] = run / total;
    }
  }
}
