#include <cuda_runtime.h>
#include <cmath>

// Grid-stride loop: each thread sums |pred - target| over its slice, then adds
// its private sum to the global total with one double atomic.
__global__ void mae_kernel(int n, const double* pred, const double* target, double* total) {
  double s = 0.0;
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) s += fabs(pred[i] - target[i]);
  atomicAdd(total, s);
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
  int block = 256;
  int grid = (n + block - 1) / block;
  if (grid > 1024) grid = 1024;
  mae_kernel<<<grid, block>>>(n, dp, dt, dsum);
  double sum = 0.0;
  cudaMemcpy(&sum, dsum, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dp);
  cudaFree(dt);
  cudaFree(dsum);
  return sum / n;
}
