#include <cuda_runtime.h>

#define WARPS 8

// The chunk offsets are an exclusive scan of the 32 chunk sums, now done in
// registers with a Hillis-Steele shuffle scan (__shfl_up_sync, 5 steps) and a
// one-lane shift; shared memory and __syncwarp are gone. The total is still
// the butterfly reduction.
__global__ void cdf_row_warp(int n, int m, const float* __restrict__ w, float* __restrict__ cdf) {
  const unsigned full = 0xffffffffu;
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
  for (int d = 16; d > 0; d >>= 1) total += __shfl_xor_sync(full, total, d);
  float incl = s;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    float y = __shfl_up_sync(full, incl, d);
    if (lane >= d) incl += y;
  }
  float offset = __shfl_up_sync(full, incl, 1);
  if (lane == 0) offset = 0.0f;
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
