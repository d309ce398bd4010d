#include <cstddef>
#include <vector>

// Sampled dense-dense matrix product on a CSR pattern: for every stored entry
// (i, j) of the n x n sparse matrix S, out[k] = vals[k] * dot(A[i, :], B[j, :]),
// where A and B are n x d row-major dense matrices. `out` gets one value per
// stored entry, in CSR order.
void sddmm_csr(int n, int d, const int* row_ptr, const int* col_idx, const float* vals, const float* A,
               const float* B, std::vector<float>& out) {
  out.assign(static_cast<size_t>(row_ptr[n]), 0.0f);
  for (int i = 0; i < n; ++i) {
    const float* a = A + static_cast<size_t>(i) * d;
    for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) {
      const float* b = B + static_cast<size_t>(col_idx[k]) * d;
      float s = 0.0f;
      for (int t = 0; t < d; ++t) s += a[t] * b[t];
      out[k] = vals[k] * s;
    }
  }
}
