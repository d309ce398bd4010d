#include <cuda_runtime.h>
#include <cstdint>

constexpr int kBlock = 256;

__device__ __forceinline__ int absdiff(int a, int b) {
  int d = a - b;
  return d < 0 ? -d : d;
}

// One block per row: threads stride over the partners j > i (coalesced), and
// the block adds its 256 partial sums with a shared-memory tree; thread 0
// writes the row total, which the host still adds up.
__global__ void row_kernel(int n, const int* x, long long* rowsum) {
  int i = blockIdx.x;
  int tid = threadIdx.x;
  int xi = x[i];
  long long v = 0;
  for (int j = i + 1 + tid; j < n; j += kBlock) v += absdiff(xi, x[j]);
  __shared__ long long s[kBlock];
  s[tid] = v;
  __syncthreads();
  for (int stride = kBlock / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) rowsum[i] = s[0];
}

int64_t pairwiseAbsDiffSum(int n, const int* x) {
  if (n < 2) return 0;
  int* dx = nullptr;
  long long* drow = nullptr;
  cudaMalloc(&dx, static_cast<size_t>(n) * sizeof(int));
  cudaMalloc(&drow, static_cast<size_t>(n) * sizeof(long long));
  cudaMemcpy(dx, x, static_cast<size_t>(n) * sizeof(int), cudaMemcpyHostToDevice);
  row_kernel<<<n, kBlock>>>(n, dx, drow);
  long long* rows = new long long[n];
  cudaMemcpy(rows, drow, static_cast<size_t>(n) * sizeof(long long), cudaMemcpyDeviceToHost);
  int64_t total = 0;
  for (int i = 0; i < n; ++i) total += rows[i];
  delete[] rows;
  cudaFree(dx);
  cudaFree(drow);
  return total;
}
