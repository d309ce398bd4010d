#include <cuda_runtime.h>
#include <vector>

// One thread per element, each adding its square to one accumulator.
__global__ void sum_squares_kernel(const double* x, size_t n, double* out) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, x[i] * x[i]);
}

double sumOfSquares(std::vector<double> const& x) {
  size_t n = x.size();
  if (n == 0) return 0.0;
  double *dx = nullptr, *dsum = nullptr;
  cudaMalloc(&dx, n * sizeof(double));
  cudaMalloc(&dsum, sizeof(double));
  cudaMemcpy(dx, x.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemset(dsum, 0, sizeof(double));
  int block = 256;
  int grid = (int)((n + block - 1) / block);
  sum_squares_kernel<<<grid, block>>>(dx, n, dsum);
  double result = 0.0;
  cudaMemcpy(&result, dsum, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dsum);
  return result;
}
