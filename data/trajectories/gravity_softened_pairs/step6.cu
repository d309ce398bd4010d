#include <cuda_runtime.h>
#include <cmath>

struct Body {
  float x, y, z, m;
};

#define TILE 64
#define SLICES 8  // the j range is split into this many slices (gridDim.y)

// Unrolled, tiled rsqrtf kernel with the j loop split across blockIdx.y: block
// (bx, s) handles bodies i of block bx against the s-th slice of tiles and adds
// -m_i * (partial sum) to the zeroed energy array with atomicAdd. This gives
// SLICES times more blocks for the same n, enough to fill every SM.
__global__ void pe_tiled_split(int n, const float4* __restrict__ b4, float eps2, float* __restrict__ energy) {
  __shared__ float4 tile[TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 bi = (i < n) ? b4[i] : make_float4(0.f, 0.f, 0.f, 0.f);
  int ntiles = (n + TILE - 1) / TILE;
  int per_slice = (ntiles + SLICES - 1) / SLICES;
  int t0 = blockIdx.y * per_slice;
  int t1 = min(ntiles, t0 + per_slice);
  float s = 0.0f;
  for (int tt = t0; tt < t1; ++tt) {  // same bounds for the whole block
    int base = tt * TILE;
    int j = base + threadIdx.x;
    tile[threadIdx.x] = (j < n) ? b4[j] : make_float4(0.f, 0.f, 0.f, 0.f);
    __syncthreads();
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
  if (i < n && t0 < t1) atomicAdd(&energy[i], -bi.w * s);
}

void softened_potential_energy(int n, const Body* bodies, float eps, float* energy) {
  if (n <= 0) return;
  float eps2 = eps * eps;
  Body* d_b = nullptr;
  float* d_e = nullptr;
  cudaMalloc(&d_b, (size_t)n * sizeof(Body));
  cudaMalloc(&d_e, (size_t)n * sizeof(float));
  cudaMemcpy(d_b, bodies, (size_t)n * sizeof(Body), cudaMemcpyHostToDevice);
  cudaMemset(d_e, 0, (size_t)n * sizeof(float));
  dim3 grid((unsigned)((n + TILE - 1) / TILE), SLICES);
  pe_tiled_split<<<grid, TILE>>>(n, reinterpret_cast<const float4*>(d_b), eps2, d_e);
  cudaMemcpy(energy, d_e, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_b);
  cudaFree(d_e);
}
