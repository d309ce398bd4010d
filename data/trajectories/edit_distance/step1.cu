#include <cuda_runtime.h>

// One anti-diagonal d = i + j of the DP matrix; diagonals are stored indexed by
// the row i. d2, d1 hold diagonals d-2 and d-1, d0 receives diagonal d.
__global__ void lev_diagonal(int d, int lo, int hi, const char* a, const char* b, const int* d2, const int* d1,
                             int* d0) {
  int i = lo + blockIdx.x * blockDim.x + threadIdx.x;
  if (i > hi) return;
  int j = d - i;
  int v;
  if (i == 0) {
    v = j;
  } else if (j == 0) {
    v = i;
  } else {
    int cost = a[i - 1] != b[j - 1];
    v = min(min(d1[i - 1] + 1, d1[i] + 1), d2[i - 1] + cost);  // up, left, diagonal
  }
  d0[i] = v;
}

int levenshtein_distance(const char* a, int n, const char* b, int m) {
  if (n <= 0 || m <= 0) return n > m ? n : m;
  char *d_a = nullptr, *d_b = nullptr;
  int* d_diag[3];
  cudaMalloc(&d_a, (size_t)n);
  cudaMalloc(&d_b, (size_t)m);
  cudaMemcpy(d_a, a, (size_t)n, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, b, (size_t)m, cudaMemcpyHostToDevice);
  for (int k = 0; k < 3; ++k) cudaMalloc(&d_diag[k], (size_t)(n + 1) * sizeof(int));
  int *p2 = d_diag[0], *p1 = d_diag[1], *p0 = d_diag[2];
  for (int d = 0; d <= n + m; ++d) {
    int lo = d - m > 0 ? d - m : 0;
    int hi = d < n ? d : n;
    int count = hi - lo + 1;
    lev_diagonal<<<(count + 255) / 256, 256>>>(d, lo, hi, d_a, d_b, p2, p1, p0);
    int* t = p2;
    p2 = p1;
    p1 = p0;
    p0 = t;
  }
  int result = 0;
  cudaMemcpy(&result, p1 + n, sizeof(int), cudaMemcpyDeviceToHost);  // last diagonal written
  cudaFree(d_a);
  cudaFree(d_b);
  for (int k = 0; k < 3; ++k) cudaFree(d_diag[k]);
  return result;
}
