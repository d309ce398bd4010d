#include <cuda_runtime.h>

#define BLOCK 256
#define OPT 4
#define TILE (BLOCK * OPT)
#define R 4
#define TILE4 ((TILE + 2 * R) / 4)  // tile length in float4 units (258)

__constant__ float c_taps[9];

// 16-byte accesses everywhere: the tile is filled with float4 loads (the tile
// starts at base - 4, a multiple of four samples, so every full vector is
// aligned), each thread reads its 12-sample window as three float4 from shared
// memory (conflict-free, unlike the stride-4 scalar reads), and writes its four
// outputs with one float4 store. Vectors that straddle the ends of the signal
// fall back to guarded scalar accesses.
__global__ void fir9_vec4(int n, const float* __restrict__ x, float* __restrict__ y) {
  __shared__ float4 tile[TILE4];
  int base = blockIdx.x * TILE;
  for (int v = threadIdx.x; v < TILE4; v += BLOCK) {
    int j = base - R + 4 * v;
    float4 val;
    if (j >= 0 && j + 3 < n) {
      val = *reinterpret_cast<const float4*>(x + j);
    } else {
      val.x = (j >= 0 && j < n) ? x[j] : 0.0f;
      val.y = (j + 1 >= 0 && j + 1 < n) ? x[j + 1] : 0.0f;
      val.z = (j + 2 >= 0 && j + 2 < n) ? x[j + 2] : 0.0f;
      val.w = (j + 3 >= 0 && j + 3 < n) ? x[j + 3] : 0.0f;
    }
    tile[v] = val;
  }
  __syncthreads();
  float4 a = tile[threadIdx.x], b = tile[threadIdx.x + 1], c = tile[threadIdx.x + 2];
  float w[12] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w, c.x, c.y, c.z, c.w};
  float acc[OPT];
#pragma unroll
  for (int q = 0; q < OPT; ++q) {
    acc[q] = 0.0f;
#pragma unroll
    for (int k = 0; k < 9; ++k) acc[q] += c_taps[k] * w[q + k];
  }
  int i = base + OPT * threadIdx.x;
  if (i + 3 < n) {
    *reinterpret_cast<float4*>(y + i) = make_float4(acc[0], acc[1], acc[2], acc[3]);
  } else {
#pragma unroll
    for (int q = 0; q < OPT; ++q)
      if (i + q < n) y[i + q] = acc[q];
  }
}

void fir9_filter(int n, const float* x, const float* taps, float* y) {
  if (n <= 0) return;
  size_t bytes = (size_t)n * sizeof(float);
  float *d_x = nullptr, *d_y = nullptr;
  cudaMalloc(&d_x, bytes);
  cudaMalloc(&d_y, bytes);
  cudaMemcpy(d_x, x, bytes, cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(c_taps, taps, 9 * sizeof(float));
  fir9_vec4<<<(n + TILE - 1) / TILE, BLOCK>>>(n, d_x, d_y);
  cudaMemcpy(y, d_y, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_y);
}
