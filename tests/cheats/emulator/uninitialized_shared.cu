// Uninitialised shared memory: the per-block accumulator is never zeroed
// (it relies on shared memory starting at 0, which a GPU never promises).
#include <cuda_runtime.h>
#include <vector>
__global__ void k(const double* x, size_t n, double* out) {
  __shared__ double acc;
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&acc, x[i] * x[i]);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(out, acc);
}
double sumOfSquares(std::vector<double> const& x) {
  size_t n = x.size();
  if (n == 0) return 0.0;
  double *dx, *ds;
  cudaMalloc(&dx, n * sizeof(double));
  cudaMalloc(&ds, sizeof(double));
  cudaMemcpy(dx, x.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemset(ds, 0, sizeof(double));
  k<<<(unsigned)((n + 255) / 256), 256>>>(dx, n, ds);
  double r = 0;
  cudaMemcpy(&r, ds, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(ds);
  return r;
}
