#include <cuda_runtime.h>
#include <array>
#include <cstddef>
#include <vector>

struct Point {
   double x, y;
};

static_assert(sizeof(size_t) == sizeof(unsigned long long), "size_t bins are updated as 64-bit words");

__device__ __forceinline__ int quadrant(double x, double y) {
  return y >= 0 ? (x >= 0 ? 0 : 1) : (x < 0 ? 2 : 3);
}

// Only four bins: each thread counts its grid-stride points in registers, the counts are summed
// across the warp with shuffles and across the block in shared memory, and one 64-bit atomic per
// bin per block adds them to the result.
__global__ void count_quadrants_kernel(const double2* __restrict__ pts, size_t n,
                                       unsigned long long* bins) {
  unsigned int c0 = 0, c1 = 0, c2 = 0, c3 = 0;
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < n; k += stride) {
    double2 p = pts[k];
    int q = quadrant(p.x, p.y);
    c0 += q == 0;
    c1 += q == 1;
    c2 += q == 2;
    c3 += q == 3;
  }
  for (int off = 16; off > 0; off >>= 1) {
    c0 += __shfl_down_sync(0xffffffffu, c0, off);
    c1 += __shfl_down_sync(0xffffffffu, c1, off);
    c2 += __shfl_down_sync(0xffffffffu, c2, off);
    c3 += __shfl_down_sync(0xffffffffu, c3, off);
  }
  __shared__ unsigned int warp_counts[32][4];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) {
    warp_counts[warp][0] = c0;
    warp_counts[warp][1] = c1;
    warp_counts[warp][2] = c2;
    warp_counts[warp][3] = c3;
  }
  __syncthreads();
  if (threadIdx.x < 4) {
    unsigned long long c = 0;
    int warps = blockDim.x >> 5;
    for (int w = 0; w < warps; ++w) c += warp_counts[w][threadIdx.x];
    if (c) atomicAdd(&bins[threadIdx.x], c);
  }
}

void countQuadrants(std::vector<Point> const& points, std::array<size_t, 4> &bins) {
  size_t n = points.size();
  Point* dpts = nullptr;
  unsigned long long* dbins = nullptr;
  cudaMalloc(&dpts, (n ? n : 1) * sizeof(Point));
  cudaMalloc(&dbins, 4 * sizeof(unsigned long long));
  if (n) cudaMemcpy(dpts, points.data(), n * sizeof(Point), cudaMemcpyHostToDevice);
  cudaMemset(dbins, 0, 4 * sizeof(unsigned long long));
  const int block = 256;
  size_t want = (n + block - 1) / block;
  int grid = (int)(want < 1 ? 1 : (want < 1024 ? want : 1024));
  count_quadrants_kernel<<<grid, block>>>(reinterpret_cast<const double2*>(dpts), n, dbins);
  cudaMemcpy(bins.data(), dbins, 4 * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
  cudaFree(dpts);
  cudaFree(dbins);
}
