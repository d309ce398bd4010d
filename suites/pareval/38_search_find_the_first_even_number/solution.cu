#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// First-index search as a min-reduction. The result slot starts at SIZE_MAX
// (memset) and block 0 lowers it to n, the "not found" answer. Each thread
// walks its grid-stride sequence and stops at its first even value (later
// ones have larger indices); a warp-shuffle min and a shared-memory combine
// leave one candidate per block, which one atomicMin folds into the result.

__global__ void first_even_kernel(const int* __restrict__ x, size_t n, unsigned long long* __restrict__ result) {
  __shared__ unsigned long long s_warp[32];
  unsigned long long best = n;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride) {
    if ((x[i] & 1) == 0) {
      best = i;
      break;
    }
  }
  for (int off = 16; off > 0; off >>= 1) {
    unsigned long long o = __shfl_down_sync(0xffffffffu, best, off);
    best = o < best ? o : best;
  }
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) s_warp[warp] = best;
  __syncthreads();
  if (warp == 0) {
    best = lane < (int)(blockDim.x >> 5) ? s_warp[lane] : (unsigned long long)n;
    for (int off = 16; off > 0; off >>= 1) {
      unsigned long long o = __shfl_down_sync(0xffffffffu, best, off);
      best = o < best ? o : best;
    }
    if (lane == 0 && (best < n || blockIdx.x == 0)) atomicMin(result, best);
  }
}

size_t findFirstEven(std::vector<int> const& x) {
  const size_t n = x.size();
  if (n == 0) return 0;
  int* d_x = nullptr;
  unsigned long long* d_result = nullptr;
  cudaMalloc(&d_x, n * sizeof(int));
  cudaMalloc(&d_result, sizeof(unsigned long long));
  cudaMemsetAsync(d_result, 0xff, sizeof(unsigned long long));
  cudaMemcpy(d_x, x.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  const int threads = 256;
  size_t want = (n + threads - 1) / threads;
  int blocks = (int)(want > 2048 ? 2048 : want);
  first_even_kernel<<<blocks, threads>>>(d_x, n, d_result);
  unsigned long long result = 0;
  cudaMemcpy(&result, d_result, sizeof(result), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_result);
  return (size_t)result;
}
