#include <cuda_runtime.h>
#include <cstddef>

#define SEG 256  // elements a warp sums between checks (8 per lane)

// Warp per row with an early verdict: the off-diagonal sum only grows, so once
// w * (partial sum) exceeds |A[i][i]| the row cannot be dominant and the warp
// stops reading it. The running total is reduced to lane 0 and broadcast, so
// every lane takes the same branch.
__global__ void diag_dom_warp_early(int n, double w, const double* __restrict__ A, bool* __restrict__ dominant) {
  int i = (int)(((size_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  int lane = threadIdx.x & 31;
  if (i >= n) return;
  const double* row = A + (size_t)i * n;
  double diag = fabs(row[i]);
  double total = 0.0;  // identical in all lanes
  bool exceeded = false;
  for (int base = 0; base < n; base += SEG) {
    double part = 0.0;
    int end = min(n, base + SEG);
    for (int j = base + lane; j < end; j += 32) {
      if (j != i) part += fabs(row[j]);
    }
    for (int o = 16; o > 0; o >>= 1) part += __shfl_down_sync(0xffffffffu, part, o);
    part = __shfl_sync(0xffffffffu, part, 0);
    total += part;
    if (w * total > diag) {  // uniform: every lane holds the same total
      exceeded = true;
      break;
    }
  }
  if (lane == 0) dominant[i] = exceeded ? false : (diag >= w * total);
}

void rows_diag_dominant(int n, double w, const double* A, bool* dominant) {
  if (n <= 0) return;
  size_t a_bytes = (size_t)n * (size_t)n * sizeof(double);
  double* d_A = nullptr;
  bool* d_dom = nullptr;
  cudaMalloc(&d_A, a_bytes);
  cudaMalloc(&d_dom, (size_t)n * sizeof(bool));
  cudaMemcpy(d_A, A, a_bytes, cudaMemcpyHostToDevice);
  int block = 256;
  unsigned grid = (unsigned)(((size_t)n * 32 + block - 1) / block);
  diag_dom_warp_early<<<grid, block>>>(n, w, d_A, d_dom);
  cudaMemcpy(dominant, d_dom, (size_t)n * sizeof(bool), cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_dom);
}
