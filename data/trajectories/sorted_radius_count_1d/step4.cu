#include <cuda_runtime.h>

// The window of point i is [first, last]: first is the smallest j <= i with
// x[i] - x[j] <= r, last the largest j >= i with x[j] - x[i] <= r. Both
// predicates are monotone over the sorted array, so each end is found by a
// binary search (O(log n)) instead of a scan of the whole window, and the
// count is last - first (the window minus the point itself).
__global__ void radius_count(int n, const float* __restrict__ x, float r, int* __restrict__ count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float xi = __ldg(x + i);
  int lo = 0, hi = i;
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (xi - __ldg(x + mid) <= r) hi = mid; else lo = mid + 1;
  }
  int first = lo;
  lo = i;
  hi = n - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) >> 1;
    if (__ldg(x + mid) - xi <= r) lo = mid; else hi = mid - 1;
  }
  count[i] = lo - first;
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
