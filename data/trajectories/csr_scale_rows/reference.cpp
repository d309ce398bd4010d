#include <cstddef>
#include <vector>

// Row scaling of an n-row CSR matrix (a diagonal matrix times A): `scaled`
// receives the row_ptr[n] stored values with every value of row i multiplied
// by scale[i]; row_ptr has n + 1 entries and the sparsity pattern is unchanged.
void csr_scale_rows(int n, const int* row_ptr, const double* scale, const double* values,
                    std::vector<double>& scaled) {
  scaled.assign(static_cast<size_t>(row_ptr[n]), 0.0);
  for (int i = 0; i < n; ++i) {
    double s = scale[i];
    for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) scaled[k] = values[k] * s;
  }
}
