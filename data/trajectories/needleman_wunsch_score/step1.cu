#include <cuda_runtime.h>
#include <vector>

// Cell (i, d - i) of anti-diagonal d; diagonals are stored indexed by row i.
__device__ __forceinline__ int nw_cell(int i, int j, const char* a, const char* b, int match, int mismatch, int gap,
                                       const int* d2, const int* d1) {
  if (i == 0) return j * gap;
  if (j == 0) return i * gap;
  int diag = d2[i - 1] + (a[i - 1] == b[j - 1] ? match : mismatch);
  int up = d1[i - 1] + gap;
  int left = d1[i] + gap;
  return max(max(diag, up), left);
}

__global__ void nw_diagonal(int d, int lo, int hi, const char* a, const char* b, int match, int mismatch, int gap,
                            const int* d2, const int* d1, int* d0) {
  int i = lo + blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= hi) d0[i] = nw_cell(i, d - i, a, b, match, mismatch, gap, d2, d1);
}

int nw_global_score(const std::vector<char>& s1, const std::vector<char>& s2, int match, int mismatch, int gap) {
  int n = (int)s1.size(), m = (int)s2.size();
  if (n == 0) return m * gap;
  if (m == 0) return n * gap;
  char *d_a = nullptr, *d_b = nullptr;
  int* buf[3];
  cudaMalloc(&d_a, (size_t)n);
  cudaMalloc(&d_b, (size_t)m);
  cudaMemcpy(d_a, s1.data(), (size_t)n, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, s2.data(), (size_t)m, cudaMemcpyHostToDevice);
  for (int k = 0; k < 3; ++k) cudaMalloc(&buf[k], (size_t)(n + 1) * sizeof(int));
  int *p2 = buf[0], *p1 = buf[1], *p0 = buf[2];
  for (int d = 0; d <= n + m; ++d) {
    int lo = d - m > 0 ? d - m : 0;
    int hi = d < n ? d : n;
    nw_diagonal<<<(hi - lo + 1 + 255) / 256, 256>>>(d, lo, hi, d_a, d_b, match, mismatch, gap, p2, p1, p0);
    int* t = p2;
    p2 = p1;
    p1 = p0;
    p0 = t;
  }
  int result = 0;
  cudaMemcpy(&result, p1 + n, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_a);
  cudaFree(d_b);
  for (int k = 0; k < 3; ++k) cudaFree(buf[k]);
  return result;
}
