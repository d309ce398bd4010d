#include <cmath>
#include <cstddef>
#include <vector>

// L1 row normalisation of a CSR matrix's stored values (e.g. turning edge
// weights into transition probabilities): every stored value is divided by
// the sum of |values| of its row; rows whose sum is 0 give 0. Only the
// values change, so out gets one entry per stored value, in CSR order.
void csr_row_normalize_l1(int n, int m, const int* row_ptr, const float* vals, std::vector<float>& out) {
  (void)m;
  out.assign(static_cast<size_t>(row_ptr[n]), 0.0f);
  for (int i = 0; i < n; ++i) {
    float s = 0.0f;
    for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) s += std::fabs(vals[k]);
    for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) out[k] = s > 0.0f ? vals[k] / s : 0.0f;
  }
}
