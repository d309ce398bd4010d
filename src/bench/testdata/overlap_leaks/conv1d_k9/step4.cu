#include <cuda_runtime.h>

#define BLOCK 256
#define OPT 4                  // outputs per thread
#define TILE (BLOCK * OPT)     // 1024 outputs per block
#define R 4

__constant__ float c_taps[9];

// Each thread computes four consecutive outputs. Their windows overlap, so the
// thread copies the 12 shared samples it needs into registers once (3 loads per
// output instead of 9) and keeps four independent accumulators.
__global__ void fir9_coarse(int n, const float* __restrict__ x, float* __restrict__ y) {
  __shared__ float tile[TILE + 2 * R];
  int base = blockIdx.x * TILE;
  for (int t = threadIdx.x; t < TILE + 2 * R; t += BLOCK) {
    int j = base - R + t;
    tile[t] = (j >= 0 && j < n) ? x[j] : 0.0f;
  }
  __syncthreads();
  float w[OPT + 2 * R];
#pragma unroll
  for (int j = 0; j < OPT + 2 * R; ++j) w[j] = tile[OPT * threadIdx.x + j];
  float acc[OPT];
#pragma unroll
  for (int q = 0; q < OPT; ++q) {
    acc[q] = 0.0f;
#pragma unroll
    for (int k = 0; k < 9; ++k) acc[q] += c_taps[k] * w[q + k];
  }
  int i = base + OPT * threadIdx.x;
#pragma unroll
  for (int q = 0; q < OPT; ++q)
    if (i + q < n) y[i + q] = acc[q];
}

void fir9_filter(int n, const float* x, const float* taps, float* y) {
  if (n <= 0) return;
  size_t bytes = (size_t)n * sizeof(float);
  float *d_x = nullptr, *d_y = nullptr;
  cudaMalloc(&d_x, bytes);
  cudaMalloc(&d_y, bytes);
  cudaMemcpy(d_x, x, bytes, cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(c_taps, taps, 9 * sizeof(float));
  fir9_coarse<<<(n + TILE - 1) / TILE, BLOCK>>>(n, d_x, d_y);
  cudaMemcpy(y, d_y, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_y);
}
