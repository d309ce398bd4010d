#include <cuda_runtime.h>
#include <cstdint>

constexpr int kBlock = 128;

__device__ __forceinline__ int absdiff(int a, int b) {
  int d = a - b;
  return d < 0 ? -d : d;
}

// One thread per row i sums |x[i] - x[j]| over its partners j > i and writes
// the row total; the host adds the n row totals.
__global__ void row_kernel(int n, const int* x, long long* rowsum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int xi = x[i];
  long long s = 0;
  for (int j = i + 1; j < n; ++j) s += absdiff(xi, x[j]);
  rowsum[i] = s;
}

int64_t pairwiseAbsDiffSum(int n, const int* x) {
  if (n < 2) return 0;
  int* dx = nullptr;
  long long* drow = nullptr;
  cudaMalloc(&dx, static_cast<size_t>(n) * sizeof(int));
  cudaMalloc(&drow, static_cast<size_t>(n) * sizeof(long long));
  cudaMemcpy(dx, x, static_cast<size_t>(n) * sizeof(int), cudaMemcpyHostToDevice);
  row_kernel<<<(n + kBlock - 1) / kBlock, kBlock>>>(n, dx, drow);
  long long* rows = new long long[n];
  cudaMemcpy(rows, drow, static_cast<size_t>(n) * sizeof(long long), cudaMemcpyDeviceToHost);
  int64_t total = 0;
  for (int i = 0; i < n; ++i) total += rows[i];
  delete[] rows;
  cudaFree(dx);
  cudaFree(drow);
  return total;
}
