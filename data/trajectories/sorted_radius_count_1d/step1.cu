#include <cuda_runtime.h>

// One thread per point, testing every other point like the serial loop.
__global__ void radius_count(int n, const float* x, float r, int* count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float xi = x[i];
  int c = 0;
  for (int j = 0; j < n; ++j) {
    if (j != i && fabsf(x[j] - xi) <= r) ++c;
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
