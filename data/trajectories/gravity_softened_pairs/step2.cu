#include <cuda_runtime.h>
#include <cmath>

struct Body {
  float x, y, z, m;
};

#define TILE 256

// Tiled all-pairs loop: the block loads TILE bodies into shared memory (one
// float4 per thread, coalesced), every thread interacts with the whole tile,
// and the block moves on. Each body is read from global memory once per block
// instead of once per thread.
__global__ void pe_tiled(int n, const float4* __restrict__ b4, float eps2, float* __restrict__ energy) {
  __shared__ float4 tile[TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 bi = (i < n) ? b4[i] : make_float4(0.f, 0.f, 0.f, 0.f);
  float s = 0.0f;
  for (int base = 0; base < n; base += TILE) {
    int j = base + threadIdx.x;
    tile[threadIdx.x] = (j < n) ? b4[j] : make_float4(0.f, 0.f, 0.f, 0.f);
    __syncthreads();
    int cnt = min(TILE, n - base);
    for (int t = 0; t < cnt; ++t) {
      if (base + t == i) continue;
      float4 bj = tile[t];
      float dx = bj.x - bi.x;
      float dy = bj.y - bi.y;
      float dz = bj.z - bi.z;
      float r2 = dx * dx + dy * dy + dz * dz + eps2;
      s += bj.w / sqrtf(r2);
    }
    __syncthreads();
  }
  if (i < n) energy[i] = -bi.w * s;
}

void softened_potential_energy(int n, const Body* bodies, float eps, float* energy) {
  if (n <= 0) return;
  float eps2 = eps * eps;
  Body* d_b = nullptr;
  float* d_e = nullptr;
  cudaMalloc(&d_b, (size_t)n * sizeof(Body));
  cudaMalloc(&d_e, (size_t)n * sizeof(float));
  cudaMemcpy(d_b, bodies, (size_t)n * sizeof(Body), cudaMemcpyHostToDevice);
  pe_tiled<<<(n + TILE - 1) / TILE, TILE>>>(n, reinterpret_cast<const float4*>(d_b), eps2, d_e);
  cudaMemcpy(energy, d_e, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_b);
  cudaFree(d_e);
}
