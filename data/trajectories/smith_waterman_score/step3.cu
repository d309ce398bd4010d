#include <cuda_runtime.h>

#define NEG (-(1 << 28))

// Gotoh recurrences for cell (i, j = d - i) of anti-diagonal d. Diagonals are
// indexed by row i: H2 = H on d-2, H1/E1/F1 = H/E/F on d-1.
__device__ __forceinline__ void sw_cell(int i, int j, const char* q, const char* t, int match, int mismatch, int go,
                                        int ge, const int* H2, const int* H1, const int* E1, const int* F1, int& h,
                                        int& e, int& f) {
  if (i == 0 || j == 0) {
    h = 0;
    e = NEG;
    f = NEG;
    return;
  }
  e = max(E1[i] - ge, H1[i] - go);          // from (i, j-1)
  f = max(F1[i - 1] - ge, H1[i - 1] - go);  // from (i-1, j)
  h = H2[i - 1] + (q[i - 1] == t[j - 1] ? match : mismatch);
  h = max(max(h, e), max(f, 0));
}

// Warp-level maximum with shuffles (no shared memory, no barriers), then the
// eight warp maxima are combined by warp 0 and one atomicMax is issued per block.
__device__ __forceinline__ int warp_max(int v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v = max(v, __shfl_down_sync(0xffffffffu, v, off));
  return v;
}

__global__ void sw_diagonal(int d, int lo, int hi, const char* q, const char* t, int match, int mismatch, int go,
                            int ge, const int* H2, const int* H1, const int* E1, const int* F1, int* H0, int* E0,
                            int* F0, int* best) {
  __shared__ int warp_best[8];
  int i = lo + blockIdx.x * blockDim.x + threadIdx.x;
  int h = 0;
  if (i <= hi) {
    int e, f;
    sw_cell(i, d - i, q, t, match, mismatch, go, ge, H2, H1, E1, F1, h, e, f);
    H0[i] = h;
    E0[i] = e;
    F0[i] = f;
  }
  int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  h = warp_max(h);
  if (lane == 0) warp_best[wid] = h;
  __syncthreads();
  if (wid == 0) {
    int v = lane < (int)(blockDim.x >> 5) ? warp_best[lane] : 0;
    v = warp_max(v);
    if (lane == 0 && v > 0) atomicMax(best, v);
  }
}

int smith_waterman_affine(const char* q, int n, const char* t, int m, int match, int mismatch, int gap_open,
                          int gap_extend) {
  if (n <= 0 || m <= 0) return 0;
  char *d_q = nullptr, *d_t = nullptr;
  int *H[3], *E[2], *F[2], *d_best = nullptr;
  size_t db = (size_t)(n + 1) * sizeof(int);
  cudaMalloc(&d_q, (size_t)n);
  cudaMalloc(&d_t, (size_t)m);
  cudaMemcpy(d_q, q, (size_t)n, cudaMemcpyHostToDevice);
  cudaMemcpy(d_t, t, (size_t)m, cudaMemcpyHostToDevice);
  for (int k = 0; k < 3; ++k) cudaMalloc(&H[k], db);
  for (int k = 0; k < 2; ++k) {
    cudaMalloc(&E[k], db);
    cudaMalloc(&F[k], db);
  }
  cudaMalloc(&d_best, sizeof(int));
  cudaMemset(d_best, 0, sizeof(int));
  int *h2 = H[0], *h1 = H[1], *h0 = H[2], *e1 = E[0], *e0 = E[1], *f1 = F[0], *f0 = F[1];
  for (int d = 0; d <= n + m; ++d) {
    int lo = d - m > 0 ? d - m : 0;
    int hi = d < n ? d : n;
    sw_diagonal<<<(hi - lo + 1 + 255) / 256, 256>>>(d, lo, hi, d_q, d_t, match, mismatch, gap_open, gap_extend, h2, h1,
                                                    e1, f1, h0, e0, f0, d_best);
    int* tmp = h2;
    h2 = h1;
    h1 = h0;
    h0 = tmp;
    tmp = e1;
    e1 = e0;
    e0 = tmp;
    tmp = f1;
    f1 = f0;
    f0 = tmp;
  }
  int best = 0;
  cudaMemcpy(&best, d_best, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_q);
  cudaFree(d_t);
  for (int k = 0; k < 3; ++k) cudaFree(H[k]);
  for (int k = 0; k < 2; ++k) {
    cudaFree(E[k]);
    cudaFree(F[k]);
  }
  cudaFree(d_best);
  return best;
}
