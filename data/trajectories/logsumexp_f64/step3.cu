#include <cuda_runtime.h>
#include <cmath>
#include <vector>

constexpr int kBlock = 256;
constexpr int kMaxGrid = 1024;

// A (max, sum of exp(x - max)) pair. Merging two pairs rescales both sums to
// the larger max; an empty pair has m = -inf and s = 0.
struct MaxSum {
  double m;
  double s;
};

__host__ __device__ inline MaxSum merge(MaxSum a, MaxSum b) {
  if (a.m == -INFINITY) return b;
  if (b.m == -INFINITY) return a;
  double m = a.m > b.m ? a.m : b.m;
  MaxSum r;
  r.m = m;
  r.s = a.s * exp(a.m - m) + b.s * exp(b.m - m);
  return r;
}

// One pass over x: each thread keeps a running (max, rescaled sum); the block
// merges its pairs in a shared-memory tree.
__global__ void online_lse_kernel(const double* __restrict__ x, size_t n, MaxSum* partial) {
  __shared__ double sm[kBlock];
  __shared__ double ss[kBlock];
  int tid = threadIdx.x;
  double m = -INFINITY, s = 0.0;
  size_t stride = static_cast<size_t>(gridDim.x) * kBlock;
  for (size_t i = static_cast<size_t>(blockIdx.x) * kBlock + tid; i < n; i += stride) {
    double v = x[i];
    if (v > m) {
      s = s * exp(m - v) + 1.0;  // exp(-inf) = 0 on the first element
      m = v;
    } else {
      s += exp(v - m);
    }
  }
  sm[tid] = m;
  ss[tid] = s;
  __syncthreads();
  for (int h = kBlock / 2; h > 0; h >>= 1) {
    if (tid < h) {
      MaxSum r = merge(MaxSum{sm[tid], ss[tid]}, MaxSum{sm[tid + h], ss[tid + h]});
      sm[tid] = r.m;
      ss[tid] = r.s;
    }
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = MaxSum{sm[0], ss[0]};
}

double logSumExp(std::vector<double> const& x) {
  size_t n = x.size();
  if (n == 0) return -INFINITY;
  size_t want = (n + kBlock - 1) / kBlock;
  int grid = static_cast<int>(want < kMaxGrid ? want : kMaxGrid);
  double* dx = nullptr;
  MaxSum* dpart = nullptr;
  cudaMalloc(&dx, n * sizeof(double));
  cudaMalloc(&dpart, grid * sizeof(MaxSum));
  cudaMemcpy(dx, x.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  online_lse_kernel<<<grid, kBlock>>>(dx, n, dpart);
  std::vector<MaxSum> part(grid);
  cudaMemcpy(part.data(), dpart, grid * sizeof(MaxSum), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dpart);
  MaxSum acc{-INFINITY, 0.0};
  for (int b = 0; b < grid; ++b) acc = merge(acc, part[b]);
  return acc.m + std::log(acc.s);
}
