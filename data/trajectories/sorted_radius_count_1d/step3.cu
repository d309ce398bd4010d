#include <cuda_runtime.h>

// Same outward scans with early stop; the positions are declared
// const __restrict__ and loaded with __ldg. Neighbouring threads scan almost
// the same windows, so the read-only cache serves most of their loads.
__global__ void radius_count(int n, const float* __restrict__ x, float r, int* __restrict__ count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float xi = __ldg(x + i);
  int c = 0;
  for (int j = i + 1; j < n; ++j) {
    if (__ldg(x + j) - xi > r) break;
    ++c;
  }
  for (int j = i - 1; j >= 0; --j) {
    if (xi - __ldg(x + j) > r) break;
    ++c;
  }
  count[i] = c;
}

void sorted_radius_count_1d(int n, const float* x, float r, int* count) {
  if (n <= 0) return;
  float* dx = nullptr;
  int* dc = nullptr;
  cudaMalloc(&dx, (size_t)n * sizeof(float));
  cudaMalloc(&dc, (size_t)n * sizeof(int));
  cudaMemcpy(dx, x, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  int block = 256;
  radius_count<<<(n + block - 1) / block, block>>>(n, dx, r, dc);
  cudaMemcpy(count, dc, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dc);
}
