#include <cuda_runtime.h>

#define WARPS 8

// The row total is now a butterfly reduction of the 32 chunk sums in
// registers (__shfl_xor_sync, every lane ends with the total); the per-lane
// offsets still come from the chunk sums staged in shared memory.
__global__ void cdf_row_warp(int n, int m, const float* __restrict__ w, float* __restrict__ cdf) {
  __shared__ float part[WARPS][32];
  int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  long long row = (long long)blockIdx.x * WARPS + warp;
  if (row >= n) return;
  const float* r = w + (size_t)row * m;
  float* c = cdf + (size_t)row * m;
  int chunk = (m + 31) / 32;
  int j0 = lane * chunk;
  int j1 = j0 + chunk < m ? j0 + chunk : m;
  float s = 0.0f;
  for (int j = j0; j < j1; ++j) s += __ldg(r + j);
  float total = s;
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) total += __shfl_xor_sync(0xffffffffu, total, d);
  part[warp][lane] = s;
  __syncwarp();
  float offset = 0.0f;
  for (int t = 0; t < lane; ++t) offset += part[warp][t];
  float run = offset;
  for (int j = j0; j < j1; ++j) {
    run += __ldg(r + j);
    c[j] = run / total;
  }
}

void categorical_cdf_rows(int n, int m, const float* w, float* cdf) {
  if (n <= 0 || m <= 0) return;
  size_t bytes = (size_t)n * m * sizeof(float);
  float *dw = nullptr, *dc = nullptr;
  cudaMalloc(&dw, bytes);
  cudaMalloc(&dc, bytes);
  cudaMemcpy(dw, w, bytes, cudaMemcpyHostToDevice);
  int block = WARPS * 32;
  cdf_row_warp<<<(n + WARPS - 1) / WARPS, block>>>(n, m, dw, dc);
  cudaMemcpy(cdf, dc, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dw);
  cudaFree(dc);
}
