#include <cuda_runtime.h>

struct Point3 {
  float x, y, z;
};

__device__ __forceinline__ float dist2(float px, float py, float pz, float cx, float cy, float cz) {
  float dx = __fsub_rn(px, cx), dy = __fsub_rn(py, cy), dz = __fsub_rn(pz, cz);
  return __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), __fmul_rn(dz, dz));
}

// Layout change on the device: points AoS -> three SoA arrays, centroids
// 12-byte records -> padded 16-byte float4 (x, y, z, 0).
__global__ void points_to_soa(int n, const Point3* __restrict__ p, float* __restrict__ px,
                              float* __restrict__ py, float* __restrict__ pz) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Point3 q = p[i];
  px[i] = q.x;
  py[i] = q.y;
  pz[i] = q.z;
}

__global__ void centroids_to_f4(int k, const Point3* __restrict__ c, float4* __restrict__ c4) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= k) return;
  Point3 q = c[j];
  c4[j] = make_float4(q.x, q.y, q.z, 0.0f);
}

// Coordinates of consecutive points are now consecutive floats (coalesced
// 4-byte loads) and each centroid is one aligned 16-byte broadcast load.
__global__ void assign_kernel(int n, int k, const float* __restrict__ px, const float* __restrict__ py,
                              const float* __restrict__ pz, const float4* __restrict__ cen, int* __restrict__ label) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = px[i], y = py[i], z = pz[i];
  int best = 0;
  float best_d = INFINITY;
  for (int j = 0; j < k; ++j) {
    float4 c = cen[j];
    float d = dist2(x, y, z, c.x, c.y, c.z);
    if (d < best_d) {
      best_d = d;
      best = j;
    }
  }
  label[i] = best;
}

void kmeans_assign_aos(int n, int k, const Point3* points, const Point3* centroids, int* label) {
  if (n <= 0) return;
  if (k <= 0) {
    for (int i = 0; i < n; ++i) label[i] = 0;
    return;
  }
  Point3 *dp = nullptr, *dc = nullptr;
  float* dsoa = nullptr;
  float4* dc4 = nullptr;
  int* dl = nullptr;
  cudaMalloc(&dp, (size_t)n * sizeof(Point3));
  cudaMalloc(&dc, (size_t)k * sizeof(Point3));
  cudaMalloc(&dsoa, (size_t)3 * n * sizeof(float));
  cudaMalloc(&dc4, (size_t)k * sizeof(float4));
  cudaMalloc(&dl, (size_t)n * sizeof(int));
  cudaMemcpy(dp, points, (size_t)n * sizeof(Point3), cudaMemcpyHostToDevice);
  cudaMemcpy(dc, centroids, (size_t)k * sizeof(Point3), cudaMemcpyHostToDevice);
  float *px = dsoa, *py = dsoa + n, *pz = dsoa + 2 * (size_t)n;
  int block = 256;
  points_to_soa<<<(n + block - 1) / block, block>>>(n, dp, px, py, pz);
  centroids_to_f4<<<(k + block - 1) / block, block>>>(k, dc, dc4);
  assign_kernel<<<(n + block - 1) / block, block>>>(n, k, px, py, pz, dc4, dl);
  cudaMemcpy(label, dl, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dp);
  cudaFree(dc);
  cudaFree(dsoa);
  cudaFree(dc4);
  cudaFree(dl);
}
