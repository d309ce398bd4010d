#include <cuda_runtime.h>
#include <cmath>

constexpr int kBlock = 256;

// Per-thread grid-stride sums are combined per block with a shared-memory
// tree; one atomic per block instead of one per thread.
__global__ void mae_kernel(int n, const double* __restrict__ pred, const double* __restrict__ target,
                           double* total) {
  __shared__ double s[kBlock];
  int tid = threadIdx.x;
  double acc = 0.0;
  int stride = gridDim.x * kBlock;
  for (int i = blockIdx.x * kBlock + tid; i < n; i += stride) acc += fabs(pred[i] - target[i]);
  s[tid] = acc;
  __syncthreads();
  for (int h = kBlock / 2; h > 0; h >>= 1) {
    if (tid < h) s[tid] += s[tid + h];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(total, s[0]);
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
  int grid = (n + kBlock - 1) / kBlock;
  if (grid > 1024) grid = 1024;
  mae_kernel<<<grid, kBlock>>>(n, dp, dt, dsum);
  double sum = 0.0;
  cudaMemcpy(&sum, dsum, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dp);
  cudaFree(dt);
  cudaFree(dsum);
  return sum / n;
}
