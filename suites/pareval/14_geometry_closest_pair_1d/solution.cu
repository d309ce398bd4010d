#include <cuda_runtime.h>
#include <cfloat>
#include <vector>

// Thread i owns x[i]; blockIdx.y picks a slice of the partner range, streamed through shared
// memory in tiles (every pair is compared twice, but the work is perfectly balanced). Each
// block reduces with warp shuffles and combines with a 64-bit atomicMin on the (non-negative)
// value's bit pattern.
constexpr int kBlock = 256;
constexpr int kSlices = 16;

__global__ void closestKernel(const double* __restrict__ x, int n,
                              unsigned long long* __restrict__ best) {
  __shared__ double tile[kBlock];
  const int i = blockIdx.x * kBlock + threadIdx.x;
  const int per = (n + gridDim.y - 1) / gridDim.y;
  const int lo = blockIdx.y * per, hi = min(n, lo + per);
  const double xi = i < n ? x[i] : 0.0;
  double m = DBL_MAX;
  for (int base = lo; base < hi; base += kBlock) {
    int j = base + threadIdx.x;
    if (j < hi) tile[threadIdx.x] = x[j];
    __syncthreads();
    int cnt = min(kBlock, hi - base);
    if (i < n) {
      for (int t = 0; t < cnt; ++t) {
        double d = fabs(tile[t] - xi);
        if (base + t != i) m = fmin(m, d);
      }
    }
    __syncthreads();
  }
  for (int off = 16; off > 0; off >>= 1) m = fmin(m, __shfl_down_sync(0xffffffffu, m, off));
  __shared__ double warpMin[kBlock / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warpMin[warp] = m;
  __syncthreads();
  if (warp == 0) {
    m = lane < kBlock / 32 ? warpMin[lane] : DBL_MAX;
    for (int off = 16; off > 0; off >>= 1) m = fmin(m, __shfl_down_sync(0xffffffffu, m, off));
    if (lane == 0 && m < DBL_MAX) atomicMin(best, (unsigned long long)__double_as_longlong(m));
  }
}

double closestPair(std::vector<double> const& x) {
  const int n = (int)x.size();
  double result = DBL_MAX;
  if (n < 2) return result;
  double* dX = nullptr;
  unsigned long long* dBest = nullptr;
  cudaMalloc(&dX, n * sizeof(double));
  cudaMalloc(&dBest, sizeof(unsigned long long));
  cudaMemcpy(dX, x.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(dBest, &result, sizeof(double), cudaMemcpyHostToDevice);
  int slices = n < 4096 ? 1 + n / 512 : kSlices;
  dim3 grid((n + kBlock - 1) / kBlock, slices);
  closestKernel<<<grid, kBlock>>>(dX, n, dBest);
  cudaMemcpy(&result, dBest, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dX);
  cudaFree(dBest);
  return result;
}
