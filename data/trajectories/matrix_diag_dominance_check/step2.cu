#include <cuda_runtime.h>
#include <cstddef>

// One warp per row: lanes stride over the row (coalesced loads), the 32 partial
// sums are folded with shuffles and lane 0 writes the verdict.
__global__ void diag_dom_warp(int n, double w, const double* A, bool* dominant) {
  int i = (int)(((size_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  int lane = threadIdx.x & 31;
  if (i >= n) return;  // the whole warp leaves together
  const double* row = A + (size_t)i * n;
  double off = 0.0;
  for (int j = lane; j < n; j += 32) {
    if (j != i) off += fabs(row[j]);
  }
  for (int o = 16; o > 0; o >>= 1) off += __shfl_down_sync(0xffffffffu, off, o);
  if (lane == 0) dominant[i] = fabs(row[i]) >= w * off;
}

void rows_diag_dominant(int n, double w, const double* A, bool* dominant) {
  if (n <= 0) return;
  size_t a_bytes = (size_t)n * (size_t)n * sizeof(double);
  double* d_A = nullptr;
  bool* d_dom = nullptr;
  cudaMalloc(&d_A, a_bytes);
  cudaMalloc(&d_dom, (size_t)n * sizeof(bool));
  cudaMemcpy(d_A, A, a_bytes, cudaMemcpyHostToDevice);
  int block = 256;  // 8 rows per block
  unsigned grid = (unsigned)(((size_t)n * 32 + block - 1) / block);
  diag_dom_warp<<<grid, block>>>(n, w, d_A, d_dom);
  cudaMemcpy(dominant, d_dom, (size_t)n * sizeof(bool), cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_dom);
}
