#include <cuda_runtime.h>

constexpr int kBlock = 256;

// Pass 1: every element adds itself to the sum with a double atomicAdd.
__global__ void sum_kernel(int n, const double* x, double* sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(sum, x[i]);
}

// Pass 2: every element adds its squared and fourth-power deviation.
__global__ void moments_kernel(int n, const double* x, double mean, double* acc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double d = x[i] - mean;
  double d2 = d * d;
  atomicAdd(&acc[0], d2);
  atomicAdd(&acc[1], d2 * d2);
}

double sampleKurtosis(int n, const double* x) {
  if (n <= 0) return 0.0;
  size_t bytes = static_cast<size_t>(n) * sizeof(double);
  double *dx = nullptr, *dsum = nullptr, *dacc = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dsum, sizeof(double));
  cudaMalloc(&dacc, 2 * sizeof(double));
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  cudaMemset(dsum, 0, sizeof(double));
  cudaMemset(dacc, 0, 2 * sizeof(double));
  int blocks = (n + kBlock - 1) / kBlock;
  sum_kernel<<<blocks, kBlock>>>(n, dx, dsum);
  double sum = 0.0;
  cudaMemcpy(&sum, dsum, sizeof(double), cudaMemcpyDeviceToHost);
  double mean = sum / n;
  moments_kernel<<<blocks, kBlock>>>(n, dx, mean, dacc);
  double acc[2] = {0.0, 0.0};
  cudaMemcpy(acc, dacc, 2 * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dsum);
  cudaFree(dacc);
  double m2 = acc[0] / n;
  double m4 = acc[1] / n;
  if (m2 <= 0.0) return 0.0;
  return m4 / (m2 * m2);
}
