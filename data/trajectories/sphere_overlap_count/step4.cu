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

// Register tiling: each thread owns two adjacent spheres (2t, 2t + 1), so
// every tile entry read from shared memory is tested against both, and the
// thread carries two independent counters; half as many threads are needed.
__global__ void overlap_kernel2(int n, const float4* __restrict__ p, int* __restrict__ overlaps) {
  __shared__ float4 tile[BLOCK];
  int i0 = 2 * (blockIdx.x * BLOCK + threadIdx.x);
  int i1 = i0 + 1;
  float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  float4 a0 = i0 < n ? p[i0] : zero;
  float4 a1 = i1 < n ? p[i1] : zero;
  int c0 = 0, c1 = 0;
  for (int base = 0; base < n; base += BLOCK) {
    int cnt = n - base < BLOCK ? n - base : BLOCK;
    if (threadIdx.x < cnt) tile[threadIdx.x] = p[base + threadIdx.x];
    __syncthreads();
    for (int jj = 0; jj < cnt; ++jj) {
      float4 b = tile[jj];
      int j = base + jj;
      if (j != i0 && overlap(a0.x, a0.y, a0.z, a0.w, b.x, b.y, b.z, b.w)) ++c0;
      if (j != i1 && overlap(a1.x, a1.y, a1.z, a1.w, b.x, b.y, b.z, b.w)) ++c1;
    }
    __syncthreads();
  }
  if (i0 < n) overlaps[i0] = c0;
  if (i1 < n) overlaps[i1] = c1;
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
  overlap_kernel2<<<(n + 2 * BLOCK - 1) / (2 * BLOCK), BLOCK>>>(n, dp, dcount);
  cudaMemcpy(overlaps, dcount, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(ds);
  cudaFree(dcount);
  cudaFree(dp);
}
