#include <cuda_runtime.h>
#include <cmath>
#include <cstddef>
#include <vector>

struct Point3 {
  float x, y, z;
};

__device__ __forceinline__ float dist3(float ax, float ay, float az, float bx, float by, float bz) {
  float dx = ax - bx, dy = ay - by, dz = az - bz;
  return sqrtf(dx * dx + dy * dy + dz * dz);
}

// Four points are 12 floats = three aligned float4s (48 bytes; cudaMalloc
// returns 256-byte aligned buffers). Each thread loads three float4s of a and
// three of b, and stores its four distances as one float4.
__global__ void dist_quad_kernel(size_t nquads, const float4* __restrict__ a, const float4* __restrict__ b,
                                 float4* __restrict__ out) {
  size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= nquads) return;
  float4 a0 = a[3 * q], a1 = a[3 * q + 1], a2 = a[3 * q + 2];
  float4 b0 = b[3 * q], b1 = b[3 * q + 1], b2 = b[3 * q + 2];
  float4 r;
  r.x = dist3(a0.x, a0.y, a0.z, b0.x, b0.y, b0.z);
  r.y = dist3(a0.w, a1.x, a1.y, b0.w, b1.x, b1.y);
  r.z = dist3(a1.z, a1.w, a2.x, b1.z, b1.w, b2.x);
  r.w = dist3(a2.y, a2.z, a2.w, b2.y, b2.z, b2.w);
  out[q] = r;
}

// Leftover points (n % 4) one per thread.
__global__ void dist_tail_kernel(size_t start, size_t n, const Point3* __restrict__ a,
                                 const Point3* __restrict__ b, float* __restrict__ out) {
  size_t i = start + threadIdx.x;
  if (i < n) out[i] = dist3(a[i].x, a[i].y, a[i].z, b[i].x, b[i].y, b[i].z);
}

void matchedPointDistances(std::vector<Point3> const& a, std::vector<Point3> const& b,
                           std::vector<float>& dist) {
  size_t n = a.size();
  if (n == 0) return;
  Point3 *da = nullptr, *db = nullptr;
  float* dd = nullptr;
  cudaMalloc(&da, n * sizeof(Point3));
  cudaMalloc(&db, n * sizeof(Point3));
  cudaMalloc(&dd, n * sizeof(float));
  cudaMemcpy(da, a.data(), n * sizeof(Point3), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * sizeof(Point3), cudaMemcpyHostToDevice);
  size_t nquads = n / 4;
  if (nquads > 0) {
    const int block = 256;
    size_t grid = (nquads + block - 1) / block;
    dist_quad_kernel<<<(unsigned)grid, block>>>(nquads, reinterpret_cast<const float4*>(da),
                                                 reinterpret_cast<const float4*>(db),
                                                 reinterpret_cast<float4*>(dd));
  }
  if (n % 4 != 0) dist_tail_kernel<<<1, 32>>>(nquads * 4, n, da, db, dd);
  cudaMemcpy(dist.data(), dd, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dd);
}
