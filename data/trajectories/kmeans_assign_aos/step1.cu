#include <cuda_runtime.h>

struct Point3 {
  float x, y, z;
};

// Squared distance with explicitly rounded operations (no FMA contraction),
// so it is bit-identical to the serial code and the argmin picks the same label.
__device__ __forceinline__ float dist2(float px, float py, float pz, float cx, float cy, float cz) {
  float dx = __fsub_rn(px, cx), dy = __fsub_rn(py, cy), dz = __fsub_rn(pz, cz);
  return __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), __fmul_rn(dz, dz));
}

// One thread per point scans all centroids, reading the AoS records directly.
__global__ void assign_kernel(int n, int k, const Point3* points, const Point3* centroids, int* label) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Point3 p = points[i];
  int best = 0;
  float best_d = INFINITY;
  for (int j = 0; j < k; ++j) {
    Point3 c = centroids[j];
    float d = dist2(p.x, p.y, p.z, c.x, c.y, c.z);
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
  int* dl = nullptr;
  cudaMalloc(&dp, (size_t)n * sizeof(Point3));
  cudaMalloc(&dc, (size_t)k * sizeof(Point3));
  cudaMalloc(&dl, (size_t)n * sizeof(int));
  cudaMemcpy(dp, points, (size_t)n * sizeof(Point3), cudaMemcpyHostToDevice);
  cudaMemcpy(dc, centroids, (size_t)k * sizeof(Point3), cudaMemcpyHostToDevice);
  int block = 256;
  assign_kernel<<<(n + block - 1) / block, block>>>(n, k, dp, dc, dl);
  cudaMemcpy(label, dl, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dp);
  cudaFree(dc);
  cudaFree(dl);
}
