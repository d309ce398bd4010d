#include <cuda_runtime.h>
#include <array>
#include <cstddef>
#include <vector>

static_assert(sizeof(size_t) == sizeof(unsigned long long), "size_t bins are updated as 64-bit words");

__device__ __forceinline__ int decade(double v) {
  int k = static_cast<int>(v / 10.0);
  return k > 9 ? 9 : k;
}

// Privatised histogram: each warp owns a row of a shared [warps][10] table (less contention
// than one shared histogram when the values are concentrated), a grid-stride loop with 16-byte
// loads fills it, then the block sums the rows and issues one 64-bit atomic per bin.
__global__ void bins_by_10_kernel(const double* __restrict__ x, size_t n, unsigned long long* bins) {
  __shared__ unsigned int local[32][10];
  int warp = threadIdx.x >> 5;
  for (int i = threadIdx.x; i < 32 * 10; i += blockDim.x) local[i / 10][i % 10] = 0u;
  __syncthreads();
  size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  size_t nvec = n / 2;
  const double2* x2 = reinterpret_cast<const double2*>(x);
  for (size_t k = t; k < nvec; k += stride) {
    double2 q = x2[k];
    atomicAdd(&local[warp][decade(q.x)], 1u);
    atomicAdd(&local[warp][decade(q.y)], 1u);
  }
  if ((n & 1) && t == 0) atomicAdd(&local[warp][decade(x[n - 1])], 1u);
  __syncthreads();
  if (threadIdx.x < 10) {
    unsigned long long c = 0;
    int warps = (blockDim.x + 31) >> 5;
    for (int w = 0; w < warps; ++w) c += local[w][threadIdx.x];
    if (c) atomicAdd(&bins[threadIdx.x], c);
  }
}

void binsBy10Count(std::vector<double> const& x, std::array<size_t, 10> &bins) {
  size_t n = x.size();
  double* dx = nullptr;
  unsigned long long* dbins = nullptr;
  cudaMalloc(&dx, (n ? n : 1) * sizeof(double));
  cudaMalloc(&dbins, 10 * sizeof(unsigned long long));
  if (n) cudaMemcpy(dx, x.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemset(dbins, 0, 10 * sizeof(unsigned long long));
  const int block = 256;
  size_t want = (n / 2 + block - 1) / block;
  int grid = (int)(want < 1 ? 1 : (want < 512 ? want : 512));
  bins_by_10_kernel<<<grid, block>>>(dx, n, dbins);
  cudaMemcpy(bins.data(), dbins, 10 * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dbins);
}
