// Kronecker product K = A (x) B of a row-major ma x na matrix A and a row-major
// mb x nb matrix B. K is (ma * mb) x (na * nb), row-major, and
//   K[ia * mb + ib][ja * nb + jb] = A[ia][ja] * B[ib][jb].
// Loops run in the natural block order: for each entry of A, its scaled copy
// of B is written.
void kroneckerProduct(int ma, int na, int mb, int nb, const float* A, const float* B, float* K) {
  const long long k_cols = static_cast<long long>(na) * nb;
  for (int ia = 0; ia < ma; ++ia) {
    for (int ja = 0; ja < na; ++ja) {
      const float a = A[ia * na + ja];
      for (int ib = 0; ib < mb; ++ib) {
        float* row =
            K + (static_cast<long long>(ia) * mb + ib) * k_cols + static_cast<long long>(ja) * nb;
        for (int jb = 0; jb < nb; ++jb) row[jb] = a * B[ib * nb + jb];
      }
    }
  }
}
