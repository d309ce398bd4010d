#include <cuda_runtime.h>

struct Sphere {
  float x, y, z, radius;
  float vx, vy, vz, mass;
};

// Overlap test with explicitly rounded operations (no FMA contraction), so
// every decision is bit-identical to the serial code's.
__device__ __forceinline__ bool overlap(float ax, float ay, float az, float ar,
                                        float bx, float by, float bz, float br) {
  float dx = __fsub_rn(ax, bx), dy = __fsub_rn(ay, by), dz = __fsub_rn(az, bz);
  float d2 = __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), __fmul_rn(dz, dz));
  float rs = __fadd_rn(ar, br);
  return d2 < __fmul_rn(rs, rs);
}

// Layout change: the 32-byte records are repacked into 16-byte float4
// (x, y, z, radius), dropping the velocity and mass the test never reads.
__global__ void pack_spheres(int n, const Sphere* __restrict__ s, float4* __restrict__ p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Sphere q = s[i];
  p[i] = make_float4(q.x, q.y, q.z, q.radius);
}

#define BLOCK 256

// The packed spheres are staged through shared memory one BLOCK-sized tile
// at a time: each tile is read from global memory once per block (one
// coalesced float4 per thread) and then broadcast from shared memory to all
// threads. Threads past n stay to help load and to reach __syncthreads().
__global__ void overlap_kernel(int n, const float4* __restrict__ p, int* __restrict__ overlaps) {
  __shared__ float4 tile[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  float4 a = i < n ? p[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  int count = 0;
  for (int base = 0; base < n; base += BLOCK) {
    int cnt = n - base < BLOCK ? n - base : BLOCK;
    if (threadIdx.x < cnt) tile[threadIdx.x] = p[base + threadIdx.x];
    __syncthreads();
    for (int jj = 0; jj < cnt; ++jj) {
      float4 b = tile[jj];
      if (base + jj != i && overlap(a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w)) ++count;
    }
    __syncthreads();
  }
  if (i < n) overlaps[i] = count;
}

void sphere_overlap_count(int n, const Sphere* spheres, int* overlaps) {
  if (n <= 0) return;
  Sphere* ds = nullptr;
  int* dcount = nullptr;
  cudaMalloc(&ds, (size_t)n * sizeof(Sphere));
  cudaMalloc(&dcount, (size_t)n * sizeof(int));
  cudaMemcpy(ds, spheres, (size_t)n * sizeof(Sphere), cudaMemcpyHostToDevice);
  float4* dp = nullptr;
  cudaMalloc(&dp, (size_t)n * sizeof(float4));
  pack_spheres<<<(n + 255) / 256, 256>>>(n, ds, dp);
  overlap_kernel<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(n, dp, dcount);
  cudaMemcpy(overlaps, dcount, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(ds);
  cudaFree(dcount);
  cudaFree(dp);
}
