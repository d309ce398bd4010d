#include <cuda_runtime.h>
#include <cmath>

struct Body {
  float x, y, z, m;
};

#define TILE 64  // block size = tile size

// Same unrolled, tiled kernel with 64-thread blocks: for a few thousand bodies
// 256-thread blocks give only ~14 blocks for 132 SMs; 64-thread blocks (and
// 64-body tiles) give four times as many blocks.
__global__ void pe_tiled(int n, const float4* __restrict__ b4, float eps2, float* __restrict__ energy) {
  __shared__ float4 tile[TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 bi = (i < n) ? b4[i] : make_float4(0.f, 0.f, 0.f, 0.f);
  float s = 0.0f;
  for (int base = 0; base < n; base += TILE) {
    int j = base + threadIdx.x;
    tile[threadIdx.x] = (j < n) ? b4[j] : make_float4(0.f, 0.f, 0.f, 0.f);
    __syncthreads();
    // Fixed trip count (padding bodies have mass 0), unrolled by 8; the self
    // term is removed with a select instead of a branch.
#pragma unroll 8
    for (int t = 0; t < TILE; ++t) {
      float4 bj = tile[t];
      float dx = bj.x - bi.x;
      float dy = bj.y - bi.y;
      float dz = bj.z - bi.z;
      float r2 = dx * dx + dy * dy + dz * dz + eps2;
      float mj = (base + t == i) ? 0.0f : bj.w;
      s += mj * rsqrtf(r2);
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
