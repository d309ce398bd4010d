#include <cuda_runtime.h>

// x is sorted, so x[j] - x[i] never decreases as j moves right of i and
// x[i] - x[j] never decreases as j moves left: each thread walks outwards
// from its own point and stops at the first point beyond r on each side.
// (Rounded subtraction is monotone, so the stop is exact: every point past
// the first miss would also miss.)
__global__ void radius_count(int n, const float* x, float r, int* count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float xi = x[i];
  int c = 0;
  for (int j = i + 1; j < n; ++j) {
    if (x[j] - xi > r) break;
    ++c;
  }
  for (int j = i - 1; j >= 0; --j) {
    if (xi - x[j] > r) break;
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
