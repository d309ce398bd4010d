#include <cuda_runtime.h>
#include <array>
#include <cstddef>
#include <vector>

static_assert(sizeof(size_t) == sizeof(unsigned long long), "size_t bins are updated as 64-bit words");

__device__ __forceinline__ int quarter(double v) {
  int q = static_cast<int>((v - floor(v)) * 4.0);
  return q > 3 ? 3 : q;
}

// Four bins: each thread counts its grid-stride values (16-byte loads) in registers, the counts
// are summed across the warp with shuffles and across the block in shared memory, and one 64-bit
// atomic per bin per block adds them to the result.
__global__ void count_quartiles_kernel(const double* __restrict__ x, size_t n,
                                       unsigned long long* bins) {
  unsigned int c[4] = {0u, 0u, 0u, 0u};
  size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  size_t nvec = n / 2;
  const double2* x2 = reinterpret_cast<const double2*>(x);
  for (size_t k = t; k < nvec; k += stride) {
    double2 v = x2[k];
    int a = quarter(v.x), b = quarter(v.y);
#pragma unroll
    for (int j = 0; j < 4; ++j) c[j] += (a == j) + (b == j);
  }
  if ((n & 1) && t == 0) {
    int a = quarter(x[n - 1]);
#pragma unroll
    for (int j = 0; j < 4; ++j) c[j] += (a == j);
  }
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    for (int off = 16; off > 0; off >>= 1) c[j] += __shfl_down_sync(0xffffffffu, c[j], off);
  }
  __shared__ unsigned int warp_counts[32][4];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) {
#pragma unroll
    for (int j = 0; j < 4; ++j) warp_counts[warp][j] = c[j];
  }
  __syncthreads();
  if (threadIdx.x < 4) {
    unsigned long long s = 0;
    int warps = blockDim.x >> 5;
    for (int w = 0; w < warps; ++w) s += warp_counts[w][threadIdx.x];
    if (s) atomicAdd(&bins[threadIdx.x], s);
  }
}

void countQuartiles(std::vector<double> const& x, std::array<size_t, 4> &bins) {
  size_t n = x.size();
  double* dx = nullptr;
  unsigned long long* dbins = nullptr;
  cudaMalloc(&dx, (n ? n : 1) * sizeof(double));
  cudaMalloc(&dbins, 4 * sizeof(unsigned long long));
  if (n) cudaMemcpy(dx, x.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemset(dbins, 0, 4 * sizeof(unsigned long long));
  const int block = 256;
  size_t want = (n / 2 + block - 1) / block;
  int grid = (int)(want < 1 ? 1 : (want < 1024 ? want : 1024));
  count_quartiles_kernel<<<grid, block>>>(dx, n, dbins);
  cudaMemcpy(bins.data(), dbins, 4 * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dbins);
}
