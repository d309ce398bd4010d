#include <cstddef>
#include <vector>

// The two matrix-vector products of a BiCG (biconjugate gradient) step with
// one m x n row-major float matrix A:
//   q = A * p      (q has m entries, p has n)
//   s = A^T * r    (s has n entries, r has m)
// Both are accumulated in double in the natural row-major sweep and rounded
// to float at the end.
void bicgDualMatvec(int m, int n, const float* A, const float* p, const float* r, float* q,
                    float* s) {
  std::vector<double> sacc(static_cast<std::size_t>(n), 0.0);
  for (int i = 0; i < m; ++i) {
    const float* a = A + static_cast<long long>(i) * n;
    double qi = 0.0;
    for (int j = 0; j < n; ++j) {
      qi += static_cast<double>(a[j]) * p[j];
      sacc[j] += static_cast<double>(r[i]) * a[j];
    }
    q[i] = static_cast<float>(qi);
  }
  for (int j = 0; j < n; ++j) s[j] = static_cast<float>(sacc[j]);
}
