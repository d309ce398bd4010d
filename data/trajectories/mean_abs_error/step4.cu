#include <cuda_runtime.h>
#include <cmath>

constexpr int kBlock = 256;

__device__ __forceinline__ double warp_sum(double v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// double2 loads from both arrays (two independent accumulators); global
// thread 0 handles the last element when n is odd.
__global__ void mae_kernel(int n, const double* __restrict__ pred, const double* __restrict__ target,
                           double* total) {
  __shared__ double warp_sums[kBlock / 32];
  int tid = threadIdx.x;
  int gtid = blockIdx.x * kBlock + tid;
  int stride = gridDim.x * kBlock;
  int n2 = n >> 1;
  const double2* p2 = reinterpret_cast<const double2*>(pred);
  const double2* t2 = reinterpret_cast<const double2*>(target);
  double a0 = 0.0, a1 = 0.0;
  for (int i = gtid; i < n2; i += stride) {
    double2 p = p2[i], t = t2[i];
    a0 += fabs(p.x - t.x);
    a1 += fabs(p.y - t.y);
  }
  if (gtid == 0 && (n & 1)) a0 += fabs(pred[n - 1] - target[n - 1]);
  double acc = warp_sum(a0 + a1);
  int lane = tid & 31, warp = tid >> 5;
  if (lane == 0) warp_sums[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    acc = (lane < kBlock / 32) ? warp_sums[lane] : 0.0;
    acc = warp_sum(acc);
    if (lane == 0) atomicAdd(total, acc);
  }
}

double meanAbsoluteError(int n, const double* pred, const double* target) {
  if (n <= 0) return 0.0;
  size_t bytes = static_cast<size_t>(n) * sizeof(double);
  double *dp = nullptr, *dt = nullptr, *dsum = nullptr;
  cudaMalloc(&dp, bytes);
  cudaMalloc(&dt, bytes);
  cudaMalloc(&dsum, sizeof(double));
  cudaMemcpy(dp, pred, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dt, target, bytes, cudaMemcpyHostToDevice);
  cudaMemset(dsum, 0, sizeof(double));
  int work = (n >> 1) > 1 ? (n >> 1) : 1;
  int grid = (work + kBlock - 1) / kBlock;
  if (grid > 1024) grid = 1024;
  mae_kernel<<<grid, kBlock>>>(n, dp, dt, dsum);
  double sum = 0.0;
  cudaMemcpy(&sum, dsum, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dp);
  cudaFree(dt);
  cudaFree(dsum);
  return sum / n;
}
