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

// One thread per sphere tests it against every other sphere record.
__global__ void overlap_kernel(int n, const Sphere* s, int* overlaps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Sphere a = s[i];
  int count = 0;
  for (int j = 0; j < n; ++j) {
    if (j == i) continue;
    Sphere b = s[j];
    if (overlap(a.x, a.y, a.z, a.radius, b.x, b.y, b.z, b.radius)) ++count;
  }
  overlaps[i] = count;
}

void sphere_overlap_count(int n, const Sphere* spheres, int* overlaps) {
  if (n <= 0) return;
  Sphere* ds = nullptr;
  int* dcount = nullptr;
  cudaMalloc(&ds, (size_t)n * sizeof(Sphere));
  cudaMalloc(&dcount, (size_t)n * sizeof(int));
  cudaMemcpy(ds, spheres, (size_t)n * sizeof(Sphere), cudaMemcpyHostToDevice);
  int block = 256;
  overlap_kernel<<<(n + block - 1) / block, block>>>(n, ds, dcount);
  cudaMemcpy(overlaps, dcount, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(ds);
  cudaFree(dcount);
}
